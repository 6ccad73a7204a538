"""One polite GET of a web page, without following redirects: the step both robots.txt and pages use.

Web pages are not APIs: any host may turn up, none has agreed to be asked, and a page is worth less
than the patience a retry costs. So each host gets its own rate limit and concurrency cap (slowed further
by its robots.txt Crawl-delay), nothing is retried, and a body is read only up to a cap and cut there —
the metadata a page carries sits in its head, and a gigabyte "page" must not fill memory.
Redirects are left to the caller, which checks each hop against robots.txt and detects loops.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import httpx

from refhound.net.decode import html_type
from refhound.net.guard import AddressRefused
from refhound.net.http import RateLimiter, host_of

_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"
REDIRECTS = frozenset({301, 302, 303, 307, 308})


class NoAnswer(Exception):
    """The host gave no answer (connection, timeout, protocol error): its silence proves nothing."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


@dataclass(frozen=True)
class Answer:
    """One hop's answer; `body` is empty when it was not worth reading (a redirect, a PDF)."""

    url: str
    status: int
    content_type: str
    location: str | None
    body: bytes
    truncated: bool  # the body went on past the cap and was cut there
    length: int | None  # the declared Content-Length, if any


@dataclass
class _Gate:
    rate: RateLimiter
    slots: asyncio.Semaphore
    delay_s: float


class HostGates:
    """Per-host spacing and concurrency of page requests, on one event loop."""

    def __init__(self, rate_per_s: float, concurrency: int) -> None:
        self.rate_per_s = rate_per_s
        self.concurrency = concurrency
        self._gates: dict[str, _Gate] = {}

    def gate(self, host: str) -> _Gate:
        gate = self._gates.get(host)
        if gate is None:
            gate = self._gates[host] = _Gate(
                RateLimiter(self.rate_per_s), asyncio.Semaphore(self.concurrency), 1.0 / self.rate_per_s
            )
        return gate

    def slow_down(self, host: str, delay_s: float) -> None:
        """Space this host's requests at least `delay_s` apart (a robots.txt Crawl-delay)."""
        gate = self.gate(host)
        if delay_s > gate.delay_s:
            gate.rate = RateLimiter(1.0 / delay_s)
            gate.delay_s = delay_s


async def get_once(
    client: httpx.AsyncClient,
    gates: HostGates,
    url: str,
    *,
    timeout_s: float,
    max_bytes: int,
    html_only: bool = False,
) -> Answer:
    """GET `url` once. With `html_only`, a body whose type is surely not HTML is not read.

    Raises NoAnswer when the host does not answer, ValueError for a URL httpx cannot use.
    """
    try:
        request = client.build_request("GET", url, headers={"Accept": _ACCEPT}, timeout=timeout_s)
    except (httpx.InvalidURL, httpx.UnsupportedProtocol, ValueError) as error:
        raise ValueError(f"unusable URL {url!r}: {error}") from None
    gate = gates.gate(host_of(request.url))
    async with gate.slots:
        await gate.rate.wait()
        try:
            async with asyncio.timeout(timeout_s):
                response = await client.send(request, stream=True, follow_redirects=False)
                try:
                    return await _answer(url, response, max_bytes, html_only)
                finally:
                    await response.aclose()
        except (TimeoutError, httpx.TimeoutException):
            raise NoAnswer(f"no answer within {timeout_s:g} s") from None
        except AddressRefused as error:
            raise NoAnswer(str(error)) from None
        except httpx.HTTPError as error:  # transport and protocol errors, undecodable content encodings
            raise NoAnswer(f"{type(error).__name__}: {error or 'transport error'}") from None


async def _answer(url: str, response: httpx.Response, max_bytes: int, html_only: bool) -> Answer:
    content_type = response.headers.get("Content-Type", "")
    declared = response.headers.get("Content-Length", "")
    length = int(declared) if declared.isdecimal() else None
    location = response.headers.get("Location")
    redirect = response.status_code in REDIRECTS and bool(location)
    if redirect or (html_only and html_type(content_type) is False):
        return Answer(url, response.status_code, content_type, location, b"", False, length)
    chunks: list[bytes] = []
    size = 0
    truncated = False
    async for chunk in response.aiter_bytes():
        if size + len(chunk) > max_bytes:
            chunks.append(chunk[: max_bytes - size])
            truncated = True
            break
        chunks.append(chunk)
        size += len(chunk)
    return Answer(url, response.status_code, content_type, location, b"".join(chunks), truncated, length)
