"""A loopback server speaking Semantic Scholar's graph API (the part under ``/graph/v1``).

- ``GET /paper/search?query=Q&limit=N&fields=…`` → ``{"total", "offset", "next", "data": [paper…]}`` with the
  papers sharing a word with Q, best first; as the real API, a hyphenated query word matches nothing;
- ``GET /paper/search/match?query=Q&fields=…`` → ``{"data": [paper + matchScore]}`` for the closest title,
  or the real 404 ``{"error": "Title match not found"}`` when no title is close;
- ``GET /paper/DOI:{doi}``, ``/paper/arXiv:{id}``, ``/paper/{paperId}`` → the paper, or the 404
  ``{"error": "Paper with id … not found"}``;
- ``fields`` picks the fields (``paperId`` always comes); an unknown field is the real 400 body;
- with `api_key` set, a request without the right ``x-api-key`` header gets the real 403 ``{"message":
  "Forbidden"}``.
"""

from __future__ import annotations

from typing import Any

from rapidfuzz import fuzz

from refhound.models import Record
from tests.sources.fake_service import FakeService, Reply, Request, json_reply, rank_by_title

TOO_MANY = (
    b'{"message": "Too Many Requests. Please wait and try again or apply for a key for higher rate limits. '
    b'https://www.semanticscholar.org/product/api#api-key-form", "code": "429"}'
)
KNOWN_FIELDS = frozenset(
    [
        "title",
        "authors",
        "year",
        "venue",
        "externalIds",
        "publicationVenue",
        "publicationTypes",
        "url",
        "abstract",
        "citationCount",
        "publicationDate",
        "journal",
    ]
)
_TYPES = {"article": ["JournalArticle"], "inproceedings": ["Conference"], "book": ["Book"], "preprint": None}


def paper_json(record: Record, paper_id: str) -> dict[str, Any]:
    """A refhound record as a graph API paper with every field this client asks for."""
    external: dict[str, Any] = {"CorpusId": abs(hash(paper_id)) % 10**8}
    if record.doi:
        external["DOI"] = record.doi
    if record.arxiv_id:
        external["ArXiv"] = record.arxiv_id
    venue = record.venue or ""
    return {
        "paperId": paper_id,
        "externalIds": external,
        "url": f"https://www.semanticscholar.org/paper/{paper_id}",
        "title": record.title,
        "venue": venue,
        "publicationVenue": {"id": f"v-{paper_id}", "name": venue, "type": "journal"} if venue else None,
        "year": record.year,
        "publicationTypes": _TYPES.get(record.entry_type or "", ["JournalArticle"]),
        "authors": [{"authorId": str(1000 + i), "name": name} for i, name in enumerate(record.authors)],
    }


class SemanticScholarServer(FakeService):
    name = "semantic_scholar"

    def __init__(
        self, papers: list[Record | dict[str, Any]] | None = None, api_key: str | None = None
    ) -> None:
        self.papers = [
            paper_json(p, f"{n:040x}") if isinstance(p, Record) else p for n, p in enumerate(papers or [], 1)
        ]
        self.api_key = api_key
        super().__init__()

    def answer(self, request: Request) -> Reply:
        if self.api_key is not None and request.headers.get("x-api-key") != self.api_key:
            return json_reply({"message": "Forbidden"}, 403)
        fields = [f for f in request.params.get("fields", "title").split(",") if f]
        if unknown := [f for f in fields if f not in KNOWN_FIELDS]:
            return json_reply({"error": f"Unrecognized or unsupported fields: [{', '.join(unknown)}]"}, 400)
        if request.path == "/paper/search/match":
            # The real endpoint: the one paper of the closest title, or its 404 when none is close.
            query = request.params.get("query", "")
            best = rank_by_title(query, self.papers, lambda p: str(p["title"]))[:1]
            if not best or fuzz.ratio(query.lower(), str(best[0]["title"]).lower()) < 80:
                return json_reply({"error": "Title match not found"}, 404)
            return json_reply({"data": [_selected(best[0], fields) | {"matchScore": 100.0}]})
        if request.path == "/paper/search":
            query = request.params.get("query", "")
            if not query:
                return json_reply({"error": "Missing required parameter: query"}, 400)
            found = [] if "-" in query else rank_by_title(query, self.papers, lambda p: str(p["title"]))
            limit = int(request.params.get("limit", "10"))
            answer: dict[str, Any] = {"total": len(found), "offset": 0}
            if len(found) > limit:
                answer["next"] = limit
            answer["data"] = [_selected(p, fields) for p in found[:limit]]
            return json_reply(answer)
        if request.path.startswith("/paper/"):
            paper_id = request.path.removeprefix("/paper/")
            paper = self._paper(paper_id)
            if paper is None:
                return json_reply({"error": f"Paper with id {paper_id} not found"}, 404)
            return json_reply(_selected(paper, fields))
        return json_reply({"message": "Missing Authentication Token"}, 403)

    def _paper(self, paper_id: str) -> dict[str, Any] | None:
        kind, _, value = paper_id.partition(":")
        for paper in self.papers:
            ids = paper.get("externalIds") or {}
            if not value and paper["paperId"] == paper_id:
                return paper
            if kind == "DOI" and str(ids.get("DOI", "")).lower() == value.lower():
                return paper
            if kind == "arXiv" and ids.get("ArXiv") == value:
                return paper
        return None


def _selected(paper: dict[str, Any], fields: list[str]) -> dict[str, Any]:
    return {k: v for k, v in paper.items() if k == "paperId" or k in fields}
