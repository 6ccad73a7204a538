"""A loopback web server for the quote checker's tests: fixed pages, PDFs, redirects and errors by path."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from types import TracebackType

from tests.loopback import LoopbackServer, QuietHandler


@dataclass(frozen=True)
class Page:
    body: bytes
    content_type: str = "text/html; charset=utf-8"
    status: int = 200
    location: str | None = None  # a redirect's target (path or URL)


@dataclass
class _State:
    pages: dict[str, Page] = field(default_factory=dict)
    hits: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)


class _Handler(QuietHandler):
    def do_GET(self) -> None:
        state: _State = self.server.state
        with state.lock:
            state.hits.append(self.path)
            page = state.pages.get(self.path, Page(b"no such page", "text/plain", 404))
        self.send_response(page.status)
        self.send_header("Content-Type", page.content_type)
        self.send_header("Content-Length", str(len(page.body)))
        if page.location:
            self.send_header("Location", page.location)
        self.end_headers()
        self.wfile.write(page.body)


class SourceServer:
    """Serves `pages` (path → `Page`) on 127.0.0.1 until closed; `url` is its root."""

    def __init__(self, pages: dict[str, Page] | None = None) -> None:
        self._state = _State(pages=dict(pages or {}))
        self._server = LoopbackServer(self._state, _Handler, "quote-sources")
        self.url = self._server.url

    def add(self, path: str, page: Page) -> None:
        with self._state.lock:
            self._state.pages[path] = page

    @property
    def hits(self) -> list[str]:
        with self._state.lock:
            return list(self._state.hits)

    def close(self) -> None:
        self._server.stop()

    def __enter__(self) -> SourceServer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
