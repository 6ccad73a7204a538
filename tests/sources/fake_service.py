"""What the fake scholarly services share: a loopback HTTP server with scripted faults and a request log,
the fault matrix, and helpers that drive one source client against it with fast settings.

A service subclasses `FakeService` and implements `answer(request) -> Reply` in its real wire format.
Faults (`fail`, `fail_always`) are served in place of answers: 429 with Retry-After, 503 pages, bodies
that are not the format the API promises — or the real answer itself, late (`slow`) or cut short
(`truncated`, `cut`). `fault_scenarios` is the matrix the fault tests and scripts/bench_sources.py run.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit

from rapidfuzz import fuzz

from refhound.net.cache import HttpCache
from refhound.net.http import HttpPool, make_client
from refhound.settings import Settings
from tests.loopback import LoopbackServer, QuietHandler, Served

T = TypeVar("T")
C = TypeVar("C")
MAILTO = "refhound-tests@example.org"
TODAY = dt.date(2025, 5, 6)
_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset({"a", "an", "the", "of", "for", "and", "in", "on", "to", "with", "is", "are", "by"})


#: A fault's status that keeps the real answer (to be delayed or cut short).
REAL = 0


@dataclass(frozen=True)
class Reply:
    """One HTTP answer; as a fault, status `REAL` stands for the real answer, delayed or cut short.

    `delay_s` holds the answer back; `send_fraction` sends only that share of the body and then closes
    the connection, declaring the full length plus `declared_extra` bytes (`length`), or no length at all.
    """

    status: int
    body: bytes = b""
    content_type: str = "text/plain"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    send_fraction: float = 1.0
    declared_extra: int = 0
    length: bool = True


def json_reply(data: Any, status: int = 200, content_type: str = "application/json") -> Reply:
    return Reply(status, json.dumps(data).encode(), content_type)


def page(content: bytes, content_type: str = "text/html", status: int = 200) -> Reply:
    """Anything that is not the API's format (a captive portal's page, a truncated answer)."""
    return Reply(status, content, content_type)


def unavailable() -> Reply:
    """A 503 as a load balancer sends it, an HTML page."""
    return page(
        b"<html><body><h1>503 Service Unavailable</h1>No server is available.</body></html>", status=503
    )


def rate_limited(body: bytes, content_type: str = "text/plain", retry_after: str = "1") -> Reply:
    return Reply(429, body, content_type, {"Retry-After": retry_after})


def redirect(location: str, status: int = 302) -> Reply:
    return Reply(status, b"", "text/html", {"Location": location})


def slow(delay_s: float) -> Reply:
    """The real answer, `delay_s` late (longer than the client's timeout: a timeout)."""
    return Reply(REAL, delay_s=delay_s)


def truncated(fraction: float = 0.5, declared_extra: int = 0) -> Reply:
    """The real answer's first `fraction`, then the connection closes: fewer bytes than Content-Length."""
    return Reply(REAL, send_fraction=fraction, declared_extra=declared_extra)


def cut(fraction: float = 0.5) -> Reply:
    """The real answer's first `fraction` without a Content-Length, then the connection closes: the body
    looks complete on the wire, only its content (JSON cut short) shows it is not."""
    return Reply(REAL, send_fraction=fraction, length=False)


@dataclass(frozen=True)
class Scenario:
    """A fault pattern for a whole run: `burst` is served in place of the first answers, `always` after.

    `recovers`: the retries get past it, so the verdicts must be those of a healthy service; otherwise
    every lookup ends unreachable, and the verdicts must say "unverified", never "fabricated".
    """

    name: str
    burst: tuple[Reply, ...] = ()
    always: Reply | None = None
    recovers: bool = True

    def apply(self, server: FakeService) -> None:
        server.fail(*self.burst)
        server.fail_always(self.always)


def fault_scenarios(timeout_s: float, retries: int, retry_after: str = "1") -> list[Scenario]:
    """The fault matrix of the tests and of scripts/bench_sources.py, for a client with this timeout
    and this many retries (at least one): a burst is as long as the retries, so it always recovers."""
    if retries < 1:
        raise ValueError("the fault matrix needs a client that retries at least once")
    late = slow(3 * timeout_s)
    portal = b"<!DOCTYPE html><html><body><h1>Sign in to the network</h1></body></html>"
    throttled = rate_limited(b"Too Many Requests", retry_after=retry_after)
    n = retries
    return [
        Scenario("healthy"),
        Scenario("timeouts: a burst of late answers", burst=(late,) * n),
        Scenario("timeouts: every answer late", always=late, recovers=False),
        Scenario(f"429 with Retry-After: {retry_after}, a burst", burst=(throttled,) * n),
        Scenario(f"429 with Retry-After: {retry_after}, always", always=throttled, recovers=False),
        Scenario("503 burst", burst=(unavailable(),) * n),
        Scenario("503 storm", always=unavailable(), recovers=False),
        Scenario("truncated body (Content-Length > body), a burst", burst=(truncated(),) * n),
        Scenario("truncated body (Content-Length > body), always", always=truncated(), recovers=False),
        Scenario("Content-Length 64 bytes over a whole body", always=truncated(1.0, 64), recovers=False),
        Scenario("connection closed mid-body, no Content-Length", always=cut(), recovers=False),
        Scenario("HTML where JSON expected (HTTP 200)", always=page(portal), recovers=False),
        Scenario("a proxy's HTML 404 page", always=page(portal, status=404), recovers=False),
    ]


@dataclass(frozen=True)
class Request:
    path: str  # percent-decoded
    params: dict[str, str]
    headers: dict[str, str]  # lower-case names
    at: float  # time.monotonic() when it arrived


def words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS}


def rank_by_title(query: str, items: list[T], title_of: Callable[[T], str]) -> list[T]:
    """The items sharing a word with the query, best fuzzy title match first (as relevance search does)."""
    wanted = words(query)
    scored = [
        (fuzz.token_set_ratio(query.lower(), title_of(item).lower()), index, item)
        for index, item in enumerate(items)
        if wanted & words(title_of(item))
    ]
    scored.sort(key=lambda triple: (-triple[0], triple[1]))
    return [item for _score, _index, item in scored]


class _Handler(QuietHandler):
    def do_GET(self) -> None:
        service: FakeService = self.server.state
        url = urlsplit(self.path)
        params = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        request = Request(
            unquote(url.path), params, {k.lower(): v for k, v in self.headers.items()}, time.monotonic()
        )
        fault, latency = service._arrived(request)
        if latency:
            service.stopping.wait(latency)
        if fault is not None and fault.delay_s:
            service.stopping.wait(fault.delay_s)
        reply = fault if fault is not None and fault.status != REAL else self._real(service, request)
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        length = len(reply.body) + (fault.declared_extra if fault else 0)
        if fault is None or fault.length:
            self.send_header("Content-Length", str(length))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        share = fault.send_fraction if fault is not None else 1.0
        self.wfile.write(reply.body[: int(len(reply.body) * share)])
        if fault is not None:
            self.close_connection = True  # a cut answer ends with the connection

    @staticmethod
    def _real(service: FakeService, request: Request) -> Reply:
        try:
            return service.answer(request)
        except Exception as error:  # a bug in a fake must fail the test, not hang it
            return Reply(500, f"fake {service.name} failed: {error!r}".encode())


class FakeService(Served):
    """A loopback server on a free port until `close`; `url` is its root. Subclasses implement `answer`."""

    name = "service"

    def __init__(self, latency_s: float = 0.0) -> None:
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.latency_s = latency_s
        self._faults: deque[Reply] = deque()
        self._always: Reply | None = None
        self._requests: list[Request] = []
        self._server = LoopbackServer(self, _Handler, f"fake-{self.name}")
        self.url = self._server.url

    def answer(self, request: Request) -> Reply:
        raise NotImplementedError

    def _arrived(self, request: Request) -> tuple[Reply | None, float]:
        with self.lock:
            self._requests.append(request)
            fault = self._faults.popleft() if self._faults else self._always
            return fault, self.latency_s

    def fail(self, *faults: Reply) -> None:
        """Serve these in place of the next answers, one per request."""
        with self.lock:
            self._faults.extend(faults)

    def fail_always(self, fault: Reply | None) -> None:
        """Serve this in place of every answer (after any queued faults); None: answer again."""
        with self.lock:
            self._always = fault

    @property
    def requests(self) -> list[Request]:
        with self.lock:
            return list(self._requests)

    @property
    def paths(self) -> list[str]:
        return [r.path for r in self.requests]

    @property
    def count(self) -> int:
        with self.lock:
            return len(self._requests)


def fast_section(url: str, **overrides: Any) -> dict[str, Any]:
    """A service section for tests: no real waits unless a test asks for them."""
    section = {"base_url": url, "rate_per_s": 1000.0, "retries": 2, "backoff_s": 0.01, "max_wait_s": 2.0}
    section.update(overrides)
    return section


def settings_for(service: str, url: str, **overrides: Any) -> Settings:
    """Settings with one service pointed at a loopback server; no HTTP cache, online."""
    return Settings(
        sources={service: fast_section(url, **overrides), "mailto": MAILTO, "cache": {"enabled": False}},
        check={"offline": False},
    )


def call(
    settings: Settings,
    build: Callable[[Settings, HttpPool], C],
    action: Callable[[C], Awaitable[T]],
    today: dt.date | None = TODAY,
    cache: Path | None = None,
) -> T:
    """Build a client with a fresh shared HTTP client (and an HTTP cache file at `cache`), run one action
    with it, close everything."""

    async def main() -> T:
        http_cache = HttpCache(cache, ttl_s=3600.0) if cache is not None else None
        async with make_client(settings) as client:
            source = build(settings, HttpPool(client, http_cache))
            if today is not None:
                source._today = lambda: today  # type: ignore[attr-defined]
            try:
                return await action(source)
            finally:
                if http_cache is not None:
                    http_cache.close()

    return asyncio.run(main())
