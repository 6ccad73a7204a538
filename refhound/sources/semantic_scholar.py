"""Semantic Scholar's graph API: `GET /paper/search/match?query=…`, `GET /paper/search?query=…`,
`GET /paper/DOI:{doi}`, `GET /paper/arXiv:{id}`.

A title match answers `{"data": [paper + "matchScore"]}` (one paper, its closest title), `{"data": []}`, or
the 404 `{"error": "Title match not found"}` (recorded from the real service): both are "no such title".

A search answers `{"total": N, "offset": 0, "next": 5, "data": [paper, …]}` (no `data` when nothing
matched); a paper is `{"paperId", "externalIds": {"DOI", "ArXiv", "DBLP", "CorpusId", …}, "title", "year",
"venue", "publicationVenue": {"name", "type"} | null, "publicationTypes": [...] | null, "authors":
[{"authorId", "name"}]}`. An unknown paper is a 404 `{"error": "Paper with id … not found"}`: a definite
`None`. The shared pool answers 429 `{"message": "Too Many Requests…"}` often; the shared HTTP layer
retries it. With `api_key` set, requests carry it as `x-api-key`; without one they still work, just slower.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import quote

from refhound.errors import Unreachable
from refhound.formats.fields import doi_of
from refhound.models import ParsedFields, Record
from refhound.net.http import Fetched, HttpPool, Missing, Policy, ServiceHttp
from refhound.net.json_api import fetch_json, json_error
from refhound.normalize.identifiers import normalize_arxiv_id, normalize_doi
from refhound.normalize.text import collapse_whitespace
from refhound.normalize.titles import title_similarity
from refhound.settings import SemanticScholarSettings, Settings
from refhound.sources.arxiv import cited_arxiv_id
from refhound.sources.base import identified_then_searched, map_items, merge_new

NAME = "semantic_scholar"
API_KEY_SETTING = "sources.semantic_scholar.api_key"
FIELDS = "title,authors,year,venue,externalIds,publicationVenue,publicationTypes"
T = TypeVar("T")
PAPER_URL = "https://www.semanticscholar.org/paper/"
# Semantic Scholar's publication types → refhound's entry types, the most telling first.
_TYPES = (
    ("Conference", "inproceedings"),
    ("JournalArticle", "article"),
    ("Review", "article"),
    ("BookSection", "incollection"),
    ("Book", "book"),
)
# "No special query syntax is supported"; hyphenated words match nothing, so they are split.
_QUERY_NOISE = re.compile(r"[-‐‑–—:;\"'()\[\]{}]+")


class SemanticScholar:
    """The Semantic Scholar source: the cited DOI, then the cited arXiv id, then a title search."""

    name = NAME

    def __init__(
        self,
        http: ServiceHttp,
        settings: SemanticScholarSettings,
        *,
        min_title_similarity: float = 0.8,
        today: Callable[[], dt.date] = dt.date.today,
    ) -> None:
        self.http = http
        self.base_url = settings.base_url.rstrip("/")
        self.limit = settings.max_results
        self.headers = {"x-api-key": settings.api_key} if settings.api_key else None
        self.min_title_similarity = min_title_similarity
        self._today = today

    @classmethod
    def from_settings(cls, settings: Settings, pool: HttpPool) -> SemanticScholar:
        own = settings.sources.semantic_scholar
        return cls(
            pool.service(NAME, Policy.of(own)),
            own,
            min_title_similarity=settings.judge.title_candidate_similarity,
        )

    async def lookup(self, cited: ParsedFields) -> list[Record]:
        """The papers of the cited identifiers; then, unless one has the cited title, the title's match,
        and a relevance search only when the match is not plausibly the cited work."""
        doi = normalize_doi(cited.doi) if cited.doi else None
        arxiv_id = cited_arxiv_id(cited)
        title = cited.title or ""
        identified = [lambda: self.by_doi(doi)] if doi else []
        if arxiv_id:
            identified.append(lambda: self.by_arxiv_id(arxiv_id))
        return await identified_then_searched(
            cited, identified, lambda: self.find_title(title), self.min_title_similarity
        )

    async def find_title(self, title: str) -> list[Record]:
        """The title match when it is close to `title` (one request, the usual case for a real title);
        else that match and what a relevance search finds (a title with typos or words missing)."""
        matched = await self.match(title)
        if matched is not None and title_similarity(title, matched.title) >= self.min_title_similarity:
            return [matched]
        return merge_new([matched] if matched else [], await self.search(title))

    async def match(self, title: str) -> Record | None:
        """The paper whose title is closest to `title` (`/paper/search/match`); None when Semantic Scholar
        has no title near it (its 404 "Title match not found", or an empty `data`)."""
        # Unlike the search, the match reads punctuation: real answers match "PaperQA: Retrieval-Augmented …".
        query = collapse_whitespace(title)
        if not query:
            return None
        url = f"{self.base_url}/paper/search/match"
        papers = await self._fetch(url, {"query": query, "fields": FIELDS}, _papers, missing=_no_such_paper)
        version = self._today().isoformat()
        records = map_items(papers or [], lambda paper: paper_record(paper, version))
        return records[0] if records else None

    async def by_doi(self, doi: str) -> Record | None:
        """The paper of a DOI (any written form); None when Semantic Scholar has none, or it is no DOI."""
        canonical = normalize_doi(doi)
        return await self._paper(f"DOI:{canonical}") if canonical else None

    async def by_arxiv_id(self, arxiv_id: str) -> Record | None:
        """The paper of an arXiv id (any form); None when Semantic Scholar has none, or it is malformed."""
        canonical = normalize_arxiv_id(arxiv_id)
        return await self._paper(f"arXiv:{canonical}") if canonical else None

    async def search(self, title: str, limit: int | None = None) -> list[Record]:
        """Semantic Scholar's relevance search for a title, best first."""
        query = collapse_whitespace(_QUERY_NOISE.sub(" ", title))
        if not query:
            return []
        params = {"query": query, "limit": str(limit or self.limit), "fields": FIELDS}
        url = f"{self.base_url}/paper/search"
        papers = await self._fetch(url, params, _papers)
        version = self._today().isoformat()
        return map_items(papers or [], lambda paper: paper_record(paper, version))

    async def _paper(self, paper_id: str) -> Record | None:
        url = f"{self.base_url}/paper/{quote(paper_id, safe='/:;()')}"
        paper = await self._fetch(url, {"fields": FIELDS}, _paper_object, missing=_no_such_paper)
        if paper is None:
            return None
        records = map_items([paper], lambda p: paper_record(p, self._today().isoformat()))
        return records[0] if records else None  # a paper without a title is no citable work

    async def _fetch(
        self,
        url: str,
        params: dict[str, str],
        shape: Callable[[dict[str, Any]], T],
        missing: Missing | None = None,
    ) -> T | None:
        """`fetch_json` with the API key, if any; a failure the key explains names its setting."""
        keyed = self.headers is not None
        try:
            return await fetch_json(
                self.http,
                url,
                params,
                shape,
                headers=self.headers,
                missing=missing,
                key_setting=API_KEY_SETTING if keyed else None,
            )
        except Unreachable as error:
            if keyed or "HTTP 429" not in error.problem:
                raise
            # Without a key, requests share the public pool's rate limit; a key has a quota of its own.
            raise Unreachable(NAME, f"{error.problem}; {API_KEY_SETTING} is not set") from None


def _no_such_paper(fetched: Fetched) -> bool:
    """Semantic Scholar's 404 for an id it does not hold, `{"error": "Paper with id … not found"}`, or for
    a title it cannot match, `{"error": "Title match not found"}`."""
    return "not found" in (json_error(fetched) or "").lower()


def _papers(answer: dict[str, Any]) -> list[Any]:
    papers = answer.get("data")
    if papers is None and answer.get("total") in (0, "0"):
        return []  # nothing matched: the answer may hold no data list at all
    if not isinstance(papers, list):
        raise Unreachable(NAME, "unexpected answer: a search result without data")
    return papers


def _paper_object(answer: dict[str, Any]) -> dict[str, Any]:
    if "paperId" not in answer:
        raise Unreachable(NAME, f"unexpected answer: not a paper (keys {sorted(answer)[:6]})")
    return answer


def paper_record(paper: Any, version: str) -> Record | None:
    """A graph API paper as a record; None without an id or a title."""
    if not isinstance(paper, dict):
        return None
    paper_id = paper.get("paperId")
    title = collapse_whitespace(str(paper.get("title") or ""))
    if not isinstance(paper_id, str) or not paper_id or not title:
        return None
    external = paper.get("externalIds")
    ids: dict[str, Any] = external if isinstance(external, dict) else {}
    arxiv = ids.get("ArXiv")
    arxiv_id = normalize_arxiv_id(arxiv) if isinstance(arxiv, str) else None
    year = paper.get("year")
    venue = _venue(paper)
    return Record(
        source=NAME,
        source_id=paper_id,
        source_version=version,
        title=title,
        authors=[
            collapse_whitespace(a["name"])
            for a in paper.get("authors") or []
            if isinstance(a, dict) and isinstance(a.get("name"), str) and a["name"].strip()
        ],
        venue=venue,
        year=year if isinstance(year, int) and not isinstance(year, bool) else None,
        doi=doi_of(str(ids.get("DOI") or "")),
        arxiv_id=arxiv_id,
        url=PAPER_URL + paper_id,
        entry_type=_entry_type(paper, venue, arxiv_id),
    )


def _venue(paper: dict[str, Any]) -> str | None:
    """The publication venue's full name, else the venue string (both may be absent or empty)."""
    publication_venue = paper.get("publicationVenue")
    name = publication_venue.get("name") if isinstance(publication_venue, dict) else None
    if not isinstance(name, str) or not name.strip():
        name = paper.get("venue")
    return collapse_whitespace(name) if isinstance(name, str) and name.strip() else None


def _entry_type(paper: dict[str, Any], venue: str | None, arxiv_id: str | None) -> str:
    """A paper whose venue is arXiv is a preprint (Semantic Scholar types many "JournalArticle"); else
    from the publication types, else from the venue's type."""
    if arxiv_id and (venue is None or venue.casefold().startswith("arxiv")):
        return "preprint"
    types = paper.get("publicationTypes")
    kinds = {str(t) for t in types} if isinstance(types, list) else set()
    for kind, entry_type in _TYPES:
        if kind in kinds:
            return entry_type
    publication_venue = paper.get("publicationVenue")
    venue_type = publication_venue.get("type") if isinstance(publication_venue, dict) else None
    return {"conference": "inproceedings", "journal": "article"}.get(str(venue_type), "misc")
