"""Crossref's REST API: works by DOI (`GET /works/{doi}`) and by citation (`GET /works?query.bibliographic=`).

Answers are Crossref's envelopes, `{"status": "ok", "message-type": "work" | "work-list", "message": …}`;
a work is mapped exactly as the index's Crossref ingester maps one from a dump, so a record reads the same
whether it came from the API or a file. Its `source_version` is the date it was fetched. An unknown DOI is
Crossref's 404 ("Resource not found."): a definite answer, `None`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from refhound.errors import Unreachable
from refhound.formats.crossref import work_records
from refhound.models import ParsedFields, Record
from refhound.net.http import Fetched, HttpPool, Policy, ServiceHttp
from refhound.net.json_api import fetch_json
from refhound.normalize.identifiers import normalize_doi
from refhound.normalize.names import is_et_al, parse_name
from refhound.settings import CrossrefSettings, Settings
from refhound.sources.base import identified_then_searched

NAME = "crossref"
# The fields the mapping reads; asking only for them keeps answers small (a work's reference list is not).
_SELECT = ",".join(
    (
        "DOI",
        "title",
        "author",
        "container-title",
        "type",
        "URL",
        "event",
        "publisher",
        "institution",
        "issued",
        "published",
        "published-print",
        "published-online",
        "posted",
        "approved",
        "created",
        "updated-by",  # the notices that retract, withdraw or raise concern about the work
    )
)


class Crossref:
    """The Crossref source: `lookup` tries the cited DOI first, then a bibliographic search."""

    name = NAME

    def __init__(
        self,
        http: ServiceHttp,
        settings: CrossrefSettings,
        *,
        mailto: str | None = None,
        min_title_similarity: float = 0.8,
        today: Callable[[], dt.date] = dt.date.today,
    ) -> None:
        self.http = http
        self.base_url = settings.base_url.rstrip("/")
        self.rows = settings.max_results
        self.mailto = mailto
        self.min_title_similarity = min_title_similarity
        self._today = today

    @classmethod
    def from_settings(cls, settings: Settings, pool: HttpPool) -> Crossref:
        own = settings.sources.crossref
        return cls(
            pool.service(NAME, Policy.of(own)),
            own,
            mailto=settings.sources.mailto,
            min_title_similarity=settings.judge.title_candidate_similarity,
        )

    async def lookup(self, cited: ParsedFields) -> list[Record]:
        """The cited DOI's record; then, unless its title is the cited one, the works a search finds."""
        doi = normalize_doi(cited.doi) if cited.doi else None
        return await identified_then_searched(
            cited,
            [lambda: self.by_doi(doi)] if doi else [],
            lambda: self.search(bibliographic_query(cited)),
            self.min_title_similarity,
        )

    async def by_doi(self, doi: str) -> Record | None:
        """The work of a DOI (any written form); None when Crossref has none, or it is not a DOI at all."""
        canonical = normalize_doi(doi)
        if canonical is None:
            return None
        url = f"{self.base_url}/works/{quote(canonical, safe='/:')}"
        work = await fetch_json(self.http, url, self._params(), _work, missing=_no_such_work)
        if work is None:
            return None
        records = self._records([work])
        return records[0] if records else None

    async def by_citation(self, citation: str) -> list[Record]:
        """The works Crossref's citation matching finds for a whole printed reference string."""
        return await self.search(citation)

    async def search(self, query: str, rows: int | None = None) -> list[Record]:
        """Crossref's best matches for a citation string, best first (its relevance order)."""
        params = {"query.bibliographic": query, "rows": str(rows or self.rows), "select": _SELECT}
        items = await fetch_json(self.http, f"{self.base_url}/works", self._params(params), _items)
        return self._records(items or [])

    def _params(self, params: dict[str, str] | None = None) -> dict[str, str]:
        params = dict(params or {})
        if self.mailto:
            params["mailto"] = self.mailto
        return params

    def _records(self, works: list[Any]) -> list[Record]:
        problems: list[str] = []
        numbered = ((f"item {i}", work) for i, work in enumerate(works, start=1))
        return list(work_records(numbered, self._today().isoformat(), problems))


def bibliographic_query(cited: ParsedFields) -> str:
    """Title, first author's family name and year: what Crossref's citation matching weighs."""
    parts = [cited.title or ""]
    first = next((a for a in cited.authors if not is_et_al(a)), None)
    if first:
        parts.append(parse_name(first).family)
    if cited.year:
        parts.append(str(cited.year))
    return " ".join(p for p in parts if p)


def _no_such_work(fetched: Fetched) -> bool:
    """Crossref's 404 for a DOI it does not hold: the plain text "Resource not found."."""
    return fetched.body.strip().lower().startswith(b"resource not found")


def _work(data: dict[str, Any]) -> dict[str, Any]:
    return _message(data, "work")


def _items(data: dict[str, Any]) -> list[Any]:
    items = _message(data, "work-list").get("items")
    if not isinstance(items, list):
        raise Unreachable(NAME, "unexpected answer: a work list without items")
    return items


def _message(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """The `message` of an `ok` envelope of this message type; anything else is not an answer."""
    message = data.get("message")
    if data.get("status") != "ok" or data.get("message-type") != kind or not isinstance(message, dict):
        raise Unreachable(
            NAME,
            f"unexpected answer: status {data.get('status')!r}, message-type {data.get('message-type')!r} "
            f"(expected 'ok', {kind!r})",
        )
    return message
