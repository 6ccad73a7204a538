"""What every online source shares: one `httpx.AsyncClient`, and polite, bounded GET requests.

Per host, requests are spaced to at most `rate_per_s` a second and at most `concurrency` are open at once.
Only failures that say nothing about the work are retried, with exponential backoff: transport errors
(connection, timeout), HTTP 408, 429 and 5xx; a Retry-After header is honoured up to `max_wait_s`.
Anything else that is not a usable answer (another 4xx, an HTML page, malformed JSON, an oversized body)
raises `Unreachable` at once. A 404 is an answer: callers that ask for one record get `None` for it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import email.utils
import json
from dataclasses import dataclass
from typing import Any

import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

from refhound.breaker import CircuitBreaker
from refhound.errors import Unreachable
from refhound.settings import SourceSettings, SourcesSettings

_RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_SNIPPET = 120


@dataclass(frozen=True)
class Policy:
    """How one service is asked: its limits, patience and retries (from its `SourceSettings`)."""

    rate_per_s: float
    concurrency: int
    timeout_s: float
    retries: int
    backoff_s: float
    max_wait_s: float
    max_bytes: int

    @classmethod
    def of(cls, settings: SourceSettings) -> Policy:
        return cls(
            rate_per_s=settings.rate_per_s,
            concurrency=settings.concurrency,
            timeout_s=settings.timeout_s,
            retries=settings.retries,
            backoff_s=settings.backoff_s,
            max_wait_s=settings.max_wait_s,
            max_bytes=settings.max_response_bytes,
        )


def user_agent(settings: SourcesSettings) -> str:
    """The User-Agent; with a contact address, as Crossref and OpenAlex ask polite clients to send."""
    return f"{settings.user_agent} (mailto:{settings.mailto})" if settings.mailto else settings.user_agent


def make_client(
    settings: SourcesSettings, transport: httpx.AsyncBaseTransport | None = None
) -> httpx.AsyncClient:
    """The one client every source shares; tests pass `transport` (e.g. `httpx.MockTransport`)."""
    return httpx.AsyncClient(
        transport=transport,
        headers={"User-Agent": user_agent(settings)},
        follow_redirects=True,
        timeout=httpx.Timeout(30.0),
        limits=httpx.Limits(max_connections=64, max_keepalive_connections=16),
    )


class RateLimiter:
    """Spaces calls of `wait()` at least 1/rate seconds apart (on the running event loop's clock)."""

    def __init__(self, rate_per_s: float) -> None:
        self._interval = 1.0 / rate_per_s
        self._next = 0.0

    async def wait(self) -> None:
        now = asyncio.get_running_loop().time()
        start = max(now, self._next)
        self._next = start + self._interval  # claimed before sleeping: callers queue up in order
        if start > now:
            await asyncio.sleep(start - now)


@dataclass
class _Gate:
    rate: RateLimiter
    slots: asyncio.Semaphore


@dataclass(frozen=True)
class Fetched:
    """A successful answer's body."""

    status: int
    content_type: str
    body: bytes


class _Retryable(Exception):
    def __init__(self, problem: str, retry_after: float | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.retry_after = retry_after


class HttpPool:
    """The shared client and one gate (rate limit, concurrency cap) per host. Use on one event loop."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self._gates: dict[str, _Gate] = {}

    def service(self, name: str, policy: Policy) -> ServiceHttp:
        return ServiceHttp(self, name, policy)

    def gate(self, url: httpx.URL, policy: Policy) -> _Gate:
        """The host's gate; the first service to use a host sets its limits."""
        host = f"{url.host}:{url.port or ''}"
        gate = self._gates.get(host)
        if gate is None:
            gate = self._gates[host] = _Gate(
                RateLimiter(policy.rate_per_s), asyncio.Semaphore(policy.concurrency)
            )
        return gate

    async def aclose(self) -> None:
        await self.client.aclose()


class ServiceHttp:
    """GET requests to one service, under its policy; every failure is `Unreachable(name, reason)`."""

    def __init__(self, pool: HttpPool, name: str, policy: Policy) -> None:
        self.pool = pool
        self.name = name
        self.policy = policy
        # A service that keeps failing is not asked again for a while: a run without a network must not
        # wait out timeouts and retries for every reference.
        self.breaker = CircuitBreaker()

    async def get(
        self, url: str, params: dict[str, str] | None = None, *, missing_ok: bool = False
    ) -> Fetched | None:
        """The body of a 2xx answer; None for a 404 when `missing_ok`. Retries as the module says."""
        if refusal := self.breaker.refusal():
            raise Unreachable(self.name, refusal)
        attempts = self.policy.retries + 1
        retrying = AsyncRetrying(
            stop=stop_after_attempt(attempts),
            wait=self._wait,
            retry=retry_if_exception_type(_Retryable),
            reraise=True,
        )
        try:
            fetched: Fetched | None = await retrying(self._attempt, url, params, missing_ok)
        except _Retryable as error:
            self.breaker.record_failure()
            tries = f"after {attempts} attempts" if attempts > 1 else "no retries configured"
            raise Unreachable(self.name, f"{error.problem} ({tries})") from None
        self.breaker.record_answer()
        return fetched

    async def get_json(
        self, url: str, params: dict[str, str] | None = None, *, missing_ok: bool = False
    ) -> dict[str, Any] | None:
        """The JSON object of a 2xx answer; None for a 404 when `missing_ok`."""
        fetched = await self.get(url, params, missing_ok=missing_ok)
        if fetched is None:
            return None
        try:
            data = json.loads(fetched.body)
        except ValueError as error:  # JSONDecodeError, UnicodeDecodeError
            raise Unreachable(
                self.name,
                f"the answer is not JSON (HTTP {fetched.status}, {fetched.content_type or 'no content type'})"
                f": {_snippet(fetched.body)} [{error}]",
            ) from None
        if not isinstance(data, dict):
            raise Unreachable(self.name, f"the answer is JSON but not an object: {_snippet(fetched.body)}")
        return data

    def _wait(self, state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome else None
        if isinstance(error, _Retryable) and error.retry_after is not None:
            return min(error.retry_after, self.policy.max_wait_s)
        backoff: float = self.policy.backoff_s * 2.0 ** (state.attempt_number - 1)
        return min(backoff, self.policy.max_wait_s)

    async def _attempt(self, url: str, params: dict[str, str] | None, missing_ok: bool) -> Fetched | None:
        policy = self.policy
        try:
            request = self.pool.client.build_request("GET", url, params=params, timeout=policy.timeout_s)
        except (httpx.InvalidURL, ValueError) as error:
            raise Unreachable(self.name, f"bad URL {url!r}: {error}") from None
        gate = self.pool.gate(request.url, policy)
        async with gate.slots:
            await gate.rate.wait()
            try:
                async with asyncio.timeout(policy.timeout_s):
                    response = await self.pool.client.send(request, stream=True)
                    try:
                        return self._answer(response, await self._read(response), missing_ok)
                    finally:
                        await response.aclose()
            except (TimeoutError, httpx.TimeoutException):
                raise _Retryable(f"no answer within {policy.timeout_s:g} s") from None
            except httpx.TransportError as error:
                raise _Retryable(f"{type(error).__name__}: {error or 'transport error'}") from None
            except httpx.HTTPError as error:  # decoding errors, too many redirects: no retry helps
                raise Unreachable(self.name, f"{type(error).__name__}: {error}") from None

    async def _read(self, response: httpx.Response) -> bytes:
        limit = self.policy.max_bytes
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > limit:
            raise Unreachable(self.name, f"the answer is too large ({declared} bytes, at most {limit})")
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise Unreachable(self.name, f"the answer is too large (over {limit} bytes)")
            chunks.append(chunk)
        return b"".join(chunks)

    def _answer(self, response: httpx.Response, body: bytes, missing_ok: bool) -> Fetched | None:
        status = response.status_code
        content_type = response.headers.get("Content-Type", "")
        if 200 <= status < 300:
            return Fetched(status, content_type, body)
        if status == 404 and missing_ok:
            return None
        problem = f"HTTP {status}" + (f": {_snippet(body)}" if body.strip() else "")
        if status in _RETRY_STATUS:
            raise _Retryable(problem, retry_after(response.headers.get("Retry-After")))
        raise Unreachable(self.name, problem)


def retry_after(value: str | None, now: dt.datetime | None = None) -> float | None:
    """Seconds a Retry-After header asks for (delta-seconds or an HTTP date); None if absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return max(0.0, (when - (now or dt.datetime.now(dt.UTC))).total_seconds())


def _snippet(body: bytes) -> str:
    text = " ".join(body.decode("utf-8", "replace").split())
    return repr(text if len(text) <= _SNIPPET else text[:_SNIPPET] + "…")
