"""A real loopback server speaking Crossref's REST API wire format, for tests and benchmarks.

- ``GET /works?query.bibliographic=Q&rows=N`` → ``{"status": "ok", "message-type": "work-list", …}`` with the
  held works that share a word with Q, ranked by a fuzzy title match (Crossref also always answers with
  its best guesses, related or not);
- ``GET /works/{doi}`` → ``{"status": "ok", "message-type": "work", …}``, or Crossref's 404: the text/plain
  body "Resource not found.";
- scripted faults (`fail`, `fail_always`): 429 with Retry-After, 503 pages, garbage bodies, answers that
  come too late (`slow`), bodies cut short with a Content-Length larger than what is sent (`truncated`),
  and bodies cut short without one, so that only the content shows it (`cut`);
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


#: A fault's status that keeps the real answer (to be delayed or cut short).
REAL = 0


@dataclass(frozen=True)
class Fault:
    """An answer served in place of the real one (status `REAL`: the real one, delayed or cut short).

    `delay_s` holds the answer back; `send_fraction` sends only that share of the body and then closes the
    connection, declaring the full length (`length`) plus `declared_extra` bytes, or no length at all.
    """

    status: int
    body: bytes = b""
    content_type: str = "text/plain"
    retry_after: str | None = None
    delay_s: float = 0.0
    send_fraction: float = 1.0
    declared_extra: int = 0
    length: bool = True


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


def slow(delay_s: float) -> Fault:
    """The real answer, `delay_s` late (longer than the client's timeout: a timeout)."""
    return Fault(REAL, delay_s=delay_s)


def truncated(fraction: float = 0.5, declared_extra: int = 0) -> Fault:
    """The real answer's first `fraction`, then the connection closes: fewer bytes than Content-Length."""
    return Fault(REAL, send_fraction=fraction, declared_extra=declared_extra)


def cut(fraction: float = 0.5) -> Fault:
    """The real answer's first `fraction` without a Content-Length, then the connection closes: the body
    looks complete on the wire, only its content (JSON cut short) shows it is not."""
    return Fault(REAL, send_fraction=fraction, length=False)


@dataclass(frozen=True)
class Scenario:
    """A fault pattern for a whole run: `burst` is served in place of the first answers, `always` after.

    `recovers`: the retries get past it, so the verdicts must be those of a healthy service; otherwise
    every lookup ends unreachable, and the verdicts must say "unverified", never "fabricated".
    """

    name: str
    burst: tuple[Fault, ...] = ()
    always: Fault | None = None
    recovers: bool = True

    def apply(self, server: CrossrefServer) -> None:
        server.fail(*self.burst)
        server.fail_always(self.always)


def fault_scenarios(timeout_s: float, retries: int, retry_after: str = "1") -> list[Scenario]:
    """The fault matrix of the tests and of scripts/bench_sources.py, for a client with this timeout
    and this many retries (at least one): a burst is as long as the retries, so it always recovers."""
    if retries < 1:
        raise ValueError("the fault matrix needs a client that retries at least once")
    late = slow(3 * timeout_s)
    html = body(b"<!DOCTYPE html><html><body><h1>Sign in to the network</h1></body></html>")
    n = retries
    return [
        Scenario("healthy"),
        Scenario("timeouts: a burst of late answers", burst=(late,) * n),
        Scenario("timeouts: every answer late", always=late, recovers=False),
        Scenario(
            f"429 with Retry-After: {retry_after}, a burst",
            burst=(rate_limited(retry_after),) * n,
        ),
        Scenario(
            f"429 with Retry-After: {retry_after}, always", always=rate_limited(retry_after), recovers=False
        ),
        Scenario("503 burst", burst=(unavailable(),) * n),
        Scenario("503 storm", always=unavailable(), recovers=False),
        Scenario("truncated body (Content-Length > body), a burst", burst=(truncated(),) * n),
        Scenario("truncated body (Content-Length > body), always", always=truncated(), recovers=False),
        Scenario("Content-Length 64 bytes over a whole body", always=truncated(1.0, 64), recovers=False),
        Scenario("connection closed mid-body, no Content-Length", always=cut(), recovers=False),
        Scenario("HTML where JSON expected (HTTP 200)", always=html, recovers=False),
    ]


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


def _json(data: dict[str, Any]) -> tuple[int, bytes, str]:
    return 200, json.dumps(data).encode(), "application/json;charset=utf-8"


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
        if fault is None:
            self._send(*self._answer(url.path, params))
            return
        if fault.delay_s:
            state.stopping.wait(fault.delay_s)
        if fault.status == REAL:
            status, content, content_type = self._answer(url.path, params)
        else:
            status, content, content_type = fault.status, fault.body, fault.content_type
        headers = {"Retry-After": fault.retry_after} if fault.retry_after else {}
        sent = content[: int(len(content) * fault.send_fraction)]
        length = len(content) + fault.declared_extra if fault.length else None
        self._send(status, sent, content_type, headers, length)

    def _answer(self, path: str, params: dict[str, str]) -> tuple[int, bytes, str]:
        """The real answer: status, body and content type."""
        if path == "/works":
            return _json(self._search(params))
        if path.startswith("/works/"):
            work = self._work(unquote(path[len("/works/") :]))
            if work is not None:
                return _json(
                    {"status": "ok", "message-type": "work", "message-version": "1.0.0", "message": work}
                )
        return 404, NOT_FOUND, "text/plain"

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

    def _send(
        self,
        status: int,
        content: bytes,
        content_type: str,
        headers: dict[str, str] | None = None,
        length: int | None = -1,
    ) -> None:
        """Send an answer; `length` declares another Content-Length (None: none, the close ends it)."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if length is not None:
            self.send_header("Content-Length", str(len(content) if length < 0 else length))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(content)
        self.close_connection = True


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


def only_crossref(section: dict[str, Any], **sources: Any) -> dict[str, Any]:
    """A `sources` settings section that asks Crossref (at `section`) and no other service."""
    off = {"enabled": False}
    return {
        "crossref": section,
        "tiers": [["crossref"]],
        **{name: off for name in ("openalex", "dblp", "arxiv", "semantic_scholar", "doi")},
        **sources,
    }
