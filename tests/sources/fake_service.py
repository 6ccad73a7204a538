"""What the fake scholarly services share: a loopback HTTP server with scripted faults and a request log,
and helpers that drive one source client against it with fast settings.

A service subclasses `FakeService` and implements `answer(request) -> Reply` in its real wire format.
Faults (`fail`, `fail_always`) are served in place of answers: 429 with Retry-After, 503 pages, bodies
that are not the format the API promises.
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
from types import TracebackType
from typing import Any, Self, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit

from rapidfuzz import fuzz

from refhound.settings import Settings
from refhound.sources.cache import HttpCache
from refhound.sources.http import HttpPool, make_client
from tests.loopback import LoopbackServer, QuietHandler

T = TypeVar("T")
C = TypeVar("C")
MAILTO = "refhound-tests@example.org"
TODAY = dt.date(2025, 5, 6)
_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset({"a", "an", "the", "of", "for", "and", "in", "on", "to", "with", "is", "are", "by"})


@dataclass(frozen=True)
class Reply:
    """One HTTP answer."""

    status: int
    body: bytes = b""
    content_type: str = "text/plain"
    headers: dict[str, str] = field(default_factory=dict)


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
        try:
            reply = fault or service.answer(request)
        except Exception as error:  # a bug in a fake must fail the test, not hang it
            reply = Reply(500, f"fake {service.name} failed: {error!r}".encode())
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(reply.body)


class FakeService:
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

    def close(self) -> None:
        self._server.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


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
        async with make_client(settings.sources) as client:
            source = build(settings, HttpPool(client, http_cache))
            if today is not None:
                source._today = lambda: today  # type: ignore[attr-defined]
            try:
                return await action(source)
            finally:
                if http_cache is not None:
                    http_cache.close()

    return asyncio.run(main())
