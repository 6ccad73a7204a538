"""A real loopback server speaking Crossref's REST API wire format, for tests and benchmarks.

- ``GET /works?query.bibliographic=Q&rows=N`` → ``{"status": "ok", "message-type": "work-list", …}`` with the
  held works that share a word with Q, ranked by a fuzzy title match (Crossref also always answers with
  its best guesses, related or not);
- ``GET /works/{doi}`` → ``{"status": "ok", "message-type": "work", …}``, or Crossref's 404: the text/plain
  body "Resource not found.";
- scripted faults (`fail`, `fail_always`): 429 with Retry-After, 503 pages, garbage bodies;
- `latency_s` delays every answer (the benchmark uses 0.2 s); `requests` logs each request with its time.

Works are given as refhound `Record`s (turned into Crossref JSON by `work_json`) or as raw Crossref work
JSON (a bare work or an API envelope).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from rapidfuzz import fuzz

from refhound.models import Record
from tests.loopback import LoopbackServer, QuietHandler

NOT_FOUND = b"Resource not found."
_TYPES = {
    "article": "journal-article",
    "inproceedings": "proceedings-article",
    "preprint": "posted-content",
    "book": "book",
    "incollection": "book-chapter",
    "phdthesis": "dissertation",
    "proceedings": "proceedings",
}
_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset({"a", "an", "the", "of", "for", "and", "in", "on", "to", "with", "is", "are", "by"})


@dataclass(frozen=True)
class Fault:
    """An answer served in place of the real one."""

    status: int
    body: bytes = b""
    content_type: str = "text/plain"
    retry_after: str | None = None


def unavailable() -> Fault:
    """A 503 as a load balancer sends it, an HTML page."""
    page = (
        b"<html><body><h1>503 Service Unavailable</h1>"
        b"No server is available to handle this request.</body></html>"
    )
    return Fault(503, page, "text/html")


def rate_limited(retry_after: str = "1") -> Fault:
    return Fault(429, b"Too Many Requests", "text/plain", retry_after)


def body(content: bytes, content_type: str = "text/html", status: int = 200) -> Fault:
    """Anything that is not Crossref JSON (a captive portal's page, a truncated answer)."""
    return Fault(status, content, content_type)


@dataclass(frozen=True)
class Request:
    path: str
    params: dict[str, str]
    headers: dict[str, str]
    at: float  # time.monotonic() when it arrived


def work_json(record: Record) -> dict[str, Any]:
    """A refhound record as Crossref's `work` JSON (the shape of tests/index/fixtures/crossref-work.json)."""
    doi = record.doi or record.source_id
    authors = []
    for index, name in enumerate(record.authors):
        given, _, family = name.rpartition(" ")
        author: dict[str, Any] = {"given": given, "family": family} if given else {"name": name}
        authors.append({**author, "sequence": "first" if index == 0 else "additional", "affiliation": []})
    work: dict[str, Any] = {
        "indexed": {
            "date-parts": [[2024, 3, 1]],
            "date-time": "2024-03-01T10:00:00Z",
            "timestamp": 1709287200000,
        },
        "publisher": "Test Publisher",
        "DOI": doi,
        "type": _TYPES.get(record.entry_type or "", "journal-article"),
        "created": {"date-parts": [[record.year or 2000, 1, 1]]},
        "source": "Crossref",
        "title": [record.title],
        "prefix": doi.split("/", 1)[0],
        "author": authors,
        "member": "1",
        "container-title": [record.venue] if record.venue else [],
        "URL": f"http://dx.doi.org/{doi}",
    }
    if record.year:
        work["published"] = {"date-parts": [[record.year]]}
        work["issued"] = {"date-parts": [[record.year]]}
    return work


def _title_of(work: dict[str, Any]) -> str:
    titles = work.get("title") or []
    return str(titles[0]) if titles else ""


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS}


@dataclass
class _State:
    works: list[dict[str, Any]] = field(default_factory=list)
    faults: deque[Fault] = field(default_factory=deque)
    always: Fault | None = None
    latency_s: float = 0.0
    requests: list[Request] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)


class _Handler(QuietHandler):
    def do_GET(self) -> None:
        state = self.server.state
        url = urlsplit(self.path)
        params = {k: v[-1] for k, v in parse_qs(url.query).items()}
        with state.lock:
            state.requests.append(
                Request(url.path, params, {k.lower(): v for k, v in self.headers.items()}, time.monotonic())
            )
            fault = state.faults.popleft() if state.faults else state.always
            latency = state.latency_s
        if latency:
            state.stopping.wait(latency)
        if fault is not None:
            headers = {"Retry-After": fault.retry_after} if fault.retry_after else {}
            self._send(fault.status, fault.body, fault.content_type, headers)
        elif url.path == "/works":
            self._send_json(self._search(params))
        elif url.path.startswith("/works/"):
            work = self._work(unquote(url.path[len("/works/") :]))
            if work is None:
                self._send(404, NOT_FOUND, "text/plain")
            else:
                self._send_json(
                    {"status": "ok", "message-type": "work", "message-version": "1.0.0", "message": work}
                )
        else:
            self._send(404, NOT_FOUND, "text/plain")

    def _search(self, params: dict[str, str]) -> dict[str, Any]:
        query = params.get("query.bibliographic", "")
        rows = int(params.get("rows", "20"))
        words = _words(query)
        with self.server.state.lock:
            works = list(self.server.state.works)
        scored = []
        for work in works:
            title = _title_of(work)
            if words & _words(title):
                scored.append((fuzz.token_set_ratio(query.lower(), title.lower()), work))
        scored.sort(key=lambda pair: pair[0], reverse=True)
        items = [{**work, "score": round(score / 2, 3)} for score, work in scored[:rows]]
        return {
            "status": "ok",
            "message-type": "work-list",
            "message-version": "1.0.0",
            "message": {
                "facets": {},
                "total-results": len(scored),
                "items": items,
                "items-per-page": rows,
                "query": {"start-index": 0, "search-terms": query},
            },
        }

    def _work(self, doi: str) -> dict[str, Any] | None:
        with self.server.state.lock:
            return next(
                (w for w in self.server.state.works if str(w.get("DOI", "")).lower() == doi.lower()), None
            )

    def _send_json(self, data: dict[str, Any]) -> None:
        self._send(200, json.dumps(data).encode(), "application/json;charset=utf-8")

    def _send(
        self, status: int, content: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(content)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(content)


class CrossrefServer:
    """The server, listening on 127.0.0.1 on a free port until `close`; `url` is its API root."""

    def __init__(self, works: list[Record | dict[str, Any]] | None = None, latency_s: float = 0.0) -> None:
        self._state = _State(latency_s=latency_s)
        self.add(*(works or []))
        self._server = LoopbackServer(self._state, _Handler, "fake-crossref")
        self.url = self._server.url

    def add(self, *works: Record | dict[str, Any]) -> None:
        with self._state.lock:
            for work in works:
                if isinstance(work, Record):
                    self._state.works.append(work_json(work))
                else:
                    self._state.works.append(work.get("message", work))

    def fail(self, *faults: Fault) -> None:
        """Serve these in place of the next answers, one per request."""
        with self._state.lock:
            self._state.faults.extend(faults)

    def fail_always(self, fault: Fault | None) -> None:
        """Serve this in place of every answer (after any queued faults); None: answer again."""
        with self._state.lock:
            self._state.always = fault

    @property
    def latency_s(self) -> float:
        return self._state.latency_s

    @latency_s.setter
    def latency_s(self, value: float) -> None:
        with self._state.lock:
            self._state.latency_s = value

    @property
    def requests(self) -> list[Request]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def count(self) -> int:
        """Requests received so far."""
        with self._state.lock:
            return len(self._state.requests)

    def close(self) -> None:
        self._server.stop()

    def __enter__(self) -> CrossrefServer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
