"""A real loopback server speaking Crossref's REST API wire format, for tests and benchmarks.

- ``GET /works?query.bibliographic=Q&rows=N`` → ``{"status": "ok", "message-type": "work-list", …}`` with the
  held works that share a word with Q, ranked by a fuzzy title match (Crossref also always answers with
  its best guesses, related or not);
- ``GET /works/{doi}`` → ``{"status": "ok", "message-type": "work", …}``, or Crossref's 404: the text/plain
  body "Resource not found.";
- the faults of every fake service (`tests.sources.fake_service`: `fail`, `fail_always`, the fault
  matrix); `latency_s` delays every answer (the benchmark uses 0.2 s); `requests` logs each request.

Works are given as refhound `Record`s (turned into Crossref JSON by `work_json`) or as raw Crossref work
JSON (a bare work or an API envelope).
"""

from __future__ import annotations

from typing import Any

from refhound.models import Record
from tests.sources.fake_service import (
    FakeService,
    Reply,
    Request,
    json_reply,
    rank_by_title,
    unavailable,
)

__all__ = ["NOT_FOUND", "CrossrefServer", "only_crossref", "unavailable", "work_json"]

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
_JSON = "application/json;charset=utf-8"


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


class CrossrefServer(FakeService):
    """The server, listening on 127.0.0.1 on a free port until `close`; `url` is its API root."""

    name = "crossref"

    def __init__(self, works: list[Record | dict[str, Any]] | None = None, latency_s: float = 0.0) -> None:
        self.works: list[dict[str, Any]] = []
        super().__init__(latency_s)
        self.add(*(works or []))

    def add(self, *works: Record | dict[str, Any]) -> None:
        with self.lock:
            for work in works:
                self.works.append(work_json(work) if isinstance(work, Record) else work.get("message", work))

    def answer(self, request: Request) -> Reply:
        if request.path == "/works":
            return json_reply(self._search(request.params), content_type=_JSON)
        if request.path.startswith("/works/"):
            work = self._work(request.path.removeprefix("/works/"))
            if work is not None:
                envelope = {
                    "status": "ok",
                    "message-type": "work",
                    "message-version": "1.0.0",
                    "message": work,
                }
                return json_reply(envelope, content_type=_JSON)
        return Reply(404, NOT_FOUND, "text/plain")

    def _search(self, params: dict[str, str]) -> dict[str, Any]:
        query = params.get("query.bibliographic", "")
        rows = int(params.get("rows", "20"))
        with self.lock:
            works = list(self.works)
        found = rank_by_title(query, works, _title_of)
        items = [{**work, "score": 50.0 - index} for index, work in enumerate(found[:rows])]
        return {
            "status": "ok",
            "message-type": "work-list",
            "message-version": "1.0.0",
            "message": {
                "facets": {},
                "total-results": len(found),
                "items": items,
                "items-per-page": rows,
                "query": {"start-index": 0, "search-terms": query},
            },
        }

    def _work(self, doi: str) -> dict[str, Any] | None:
        with self.lock:
            return next((w for w in self.works if str(w.get("DOI", "")).lower() == doi.lower()), None)


def only_crossref(section: dict[str, Any], **sources: Any) -> dict[str, Any]:
    """A `sources` settings section that asks Crossref (at `section`) and no other service."""
    off = {"enabled": False}
    return {
        "crossref": section,
        "tiers": [["crossref"]],
        **{name: off for name in ("openalex", "dblp", "arxiv", "semantic_scholar", "doi")},
        **sources,
    }
