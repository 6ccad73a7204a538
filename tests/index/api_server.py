"""A loopback server paging Crossref's and OpenAlex's `/works` with cursors and filters, over real works:
the Crossref and OpenAlex works recorded from the real services (tests/sources/recorded.py).

Crossref: `filter=issn:X,from-update-date:D` (the work's `deposited` date), `cursor=*`, `rows=N` →
`{"status": "ok", "message-type": "work-list", "message": {"items": […], "next-cursor": C}}`.
OpenAlex: `filter=primary_location.source.id:S,from_updated_date:D` (its `updated_date`; also
`from_publication_date:D`), `cursor=*`, `per-page=N` → `{"meta": {"next_cursor": C}, "results": […]}`.
A page past the last is empty, as both services answer. `fail_pages` serves a 503 for that many requests;
`moved_to` answers a request to `/moved/works` with a 302 to `{moved_to}/works`, its query kept.
"""

from __future__ import annotations

import json
import threading
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.loopback import LoopbackServer, QuietHandler, Served
from tests.sources.recorded import Recording


def real_works(recordings: list[Recording], service: str) -> list[dict[str, Any]]:
    """The distinct full works the recordings of `service` hold."""
    works: dict[str, dict[str, Any]] = {}
    for rec in recordings:
        if rec.service != service or rec.status != 200 or rec.kind == "transform":
            continue
        data = rec.json()
        if service == "crossref" and data.get("message-type") == "work":
            works[data["message"]["DOI"]] = data["message"]
        elif service == "openalex":
            for work in data.get("results") or [data]:
                if work.get("id") and work.get("title"):
                    works[work["id"]] = work
    return list(works.values())


def _crossref_selected(work: dict[str, Any], terms: dict[str, str]) -> bool:
    deposited = str((work.get("deposited") or {}).get("date-time") or "")[:10]
    if "from-update-date" in terms and deposited < terms["from-update-date"]:
        return False
    return "issn" not in terms or terms["issn"] in (work.get("ISSN") or [])


def _openalex_selected(work: dict[str, Any], terms: dict[str, str]) -> bool:
    if "from_updated_date" in terms and str(work.get("updated_date") or "")[:10] < terms["from_updated_date"]:
        return False
    if (
        "from_publication_date" in terms
        and str(work.get("publication_date") or "") < terms["from_publication_date"]
    ):
        return False
    source = ((work.get("primary_location") or {}).get("source") or {}).get("id") or ""
    wanted = terms.get("primary_location.source.id")
    return wanted is None or source.rsplit("/", 1)[-1] == wanted.rsplit("/", 1)[-1]


class _Handler(QuietHandler):
    def do_GET(self) -> None:
        server: WorksServer = self.server.state
        url = urlsplit(self.path)
        params = {k: v[-1] for k, v in parse_qs(url.query).items()}
        status, body = server.answer(url.path, params)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if status == 302:
            self.send_header("Location", f"{server.moved_to}/works?{url.query}")
        self.end_headers()
        self.wfile.write(body)


class WorksServer(Served):
    def __init__(self, service: str, works: list[dict[str, Any]], page_size: int = 3) -> None:
        self.service = service
        self.works = works
        self.page_size = page_size
        self.fail_pages = 0
        self.moved_to: str | None = None
        self.requests: list[dict[str, str]] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self._server = LoopbackServer(self, _Handler, f"works-{service}")
        self.url = self._server.url

    def answer(self, path: str, params: dict[str, str]) -> tuple[int, bytes]:
        with self.lock:
            self.requests.append(params)
            if self.fail_pages:
                self.fail_pages -= 1
                return 503, b'{"message": "busy"}'
            if path == "/moved/works" and self.moved_to:
                return 302, b""
        if path != "/works":
            return 404, b'{"error": "not found"}'
        terms = dict(term.split(":", 1) for term in params.get("filter", "").split(",") if ":" in term)
        chosen = [
            w
            for w in self.works
            if (_crossref_selected if self.service == "crossref" else _openalex_selected)(w, terms)
        ]
        cursor = params.get("cursor", "*")
        offset = 0 if cursor == "*" else int(cursor.removeprefix("c"))
        page = chosen[offset : offset + self.page_size]
        following = f"c{offset + self.page_size}"
        if self.service == "crossref":
            message = {"items": page, "next-cursor": following, "total-results": len(chosen)}
            body: dict[str, Any] = {"status": "ok", "message-type": "work-list", "message": message}
        else:
            body = {
                "meta": {"count": len(chosen), "next_cursor": following if page else None},
                "results": page,
            }
        return 200, json.dumps(body).encode()
