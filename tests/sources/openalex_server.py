"""A loopback server speaking OpenAlex's API wire format.

- ``GET /works?search=Q&per-page=N[&select=…]`` → ``{"meta": {"count", "db_response_time_ms", "page",
  "per_page", "groups_count"}, "results": [work…], "group_by": []}``, works sharing a word with Q, best first;
- ``GET /works/doi:{doi}``, ``/works/https://doi.org/{doi}`` or ``/works/W…`` → the bare work, or OpenAlex's
  404 with its JSON error body;
- ``select`` keeps only the root fields named, as OpenAlex does; an unknown one is OpenAlex's 400.
"""

from __future__ import annotations

from typing import Any

from refhound.models import Record
from tests.sources.fake_service import FakeService, Reply, Request, json_reply, rank_by_title

NOT_FOUND = {
    "error": "404 Not Found",
    "message": "The requested URL was not found on the server. If you entered the URL manually please check "
    "your spelling and try again.",
}
RATE_LIMITED = b'{"error": "Rate limit exceeded", "message": "Too many requests, please slow down."}'
# Root fields of a work that `select` accepts (a subset of OpenAlex's list; nested ones are refused).
SELECTABLE = frozenset(
    [
        "id",
        "doi",
        "title",
        "display_name",
        "publication_year",
        "publication_date",
        "ids",
        "language",
        "primary_location",
        "type",
        "type_crossref",
        "authorships",
        "locations",
        "cited_by_count",
        "abstract_inverted_index",
        "best_oa_location",
        "open_access",
        "updated_date",
        "created_date",
        "biblio",
        "is_retracted",
    ]
)
_TYPES = {"inproceedings": "article", "article": "article", "preprint": "preprint", "book": "book"}


def work_json(record: Record, number: int) -> dict[str, Any]:
    """A refhound record as an OpenAlex work (the shape of fixtures/openalex-work.json)."""
    work_id = f"https://openalex.org/W{number}"
    doi = f"https://doi.org/{record.doi.lower()}" if record.doi else None
    source = (
        {"id": f"https://openalex.org/S{number}", "display_name": record.venue, "type": "journal"}
        if record.venue
        else None
    )
    return {
        "id": work_id,
        "doi": doi,
        "title": record.title,
        "display_name": record.title,
        "publication_year": record.year,
        "publication_date": f"{record.year}-01-01" if record.year else None,
        "ids": {"openalex": work_id, **({"doi": doi} if doi else {})},
        "language": "en",
        "primary_location": {"is_oa": False, "landing_page_url": doi, "pdf_url": None, "source": source},
        "type": _TYPES.get(record.entry_type or "", "article"),
        "type_crossref": "journal-article",
        "authorships": [
            {
                "author_position": "first" if i == 0 else "middle",
                "author": {"id": f"https://openalex.org/A{number}{i}", "display_name": name, "orcid": None},
                "institutions": [],
                "raw_author_name": name,
            }
            for i, name in enumerate(record.authors)
        ],
        "locations": [],
        "cited_by_count": 10,
        "abstract_inverted_index": {"An": [0], "abstract": [1]},
    }


class OpenAlexServer(FakeService):
    name = "openalex"

    def __init__(self, works: list[Record | dict[str, Any]] | None = None, latency_s: float = 0.0) -> None:
        self.works: list[dict[str, Any]] = []
        for number, work in enumerate(works or [], start=1000):
            self.works.append(work_json(work, number) if isinstance(work, Record) else work)
        super().__init__(latency_s)

    def answer(self, request: Request) -> Reply:
        select = [f for f in request.params.get("select", "").split(",") if f]
        if unknown := [f for f in select if f not in SELECTABLE]:
            message = f"{unknown[0]} is not a valid select field. Valid fields: {sorted(SELECTABLE)}"
            return json_reply({"error": "Invalid query parameters error.", "message": message}, 400)
        if request.path == "/works":
            found = rank_by_title(request.params.get("search", ""), self.works, lambda w: w["title"])
            per_page = int(request.params.get("per-page", "25"))
            meta = {"count": len(found), "db_response_time_ms": 12, "page": 1, "per_page": per_page}
            results = [_selected(w, select) for w in found[:per_page]]
            return json_reply({"meta": {**meta, "groups_count": None}, "results": results, "group_by": []})
        if request.path.startswith("/works/"):
            work = self._work(request.path.removeprefix("/works/"))
            return json_reply(_selected(work, select)) if work else json_reply(NOT_FOUND, 404)
        return json_reply(NOT_FOUND, 404)

    def _work(self, key: str) -> dict[str, Any] | None:
        key = key.lower()
        for work in self.works:
            doi = str(work.get("doi") or "").lower()
            ids = {work["id"].lower(), work["id"].rsplit("/", 1)[-1].lower()}
            if doi:
                ids |= {doi, "doi:" + doi.removeprefix("https://doi.org/")}
            if key in ids:
                return work
        return None


def _selected(work: dict[str, Any], select: list[str]) -> dict[str, Any]:
    return {k: v for k, v in work.items() if k in select} if select else work
