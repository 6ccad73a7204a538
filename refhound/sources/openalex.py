"""OpenAlex's API: works by DOI (`GET /works/doi:{doi}`) and by title (`GET /works?search=`).

A search answers `{"meta": {"count": …}, "results": [work, …]}`; a single work is the bare work object.
Works are mapped by `refhound.formats.openalex`, as the index's snapshot ingester maps them, so a record
reads the same whether it came from the API or a snapshot; its `source_version` is the date it was
fetched. An unknown DOI is OpenAlex's 404 (a JSON error body): a definite answer, `None`. `mailto` puts
requests in the polite pool, `api_key` (optional) in the key's own quota.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from refhound.errors import Unreachable
from refhound.formats.openalex import OPENALEX, work_record
from refhound.models import ParsedFields, Record
from refhound.net.http import Fetched, HttpPool, Policy, ServiceHttp
from refhound.net.json_api import fetch_json, json_error
from refhound.normalize.identifiers import normalize_doi
from refhound.settings import OpenAlexSettings, Settings
from refhound.sources.base import identified_then_searched, map_items

NAME = "openalex"
# The root fields the mapping reads; without `select` a work carries its abstract, concepts and more.
_SELECT = ",".join(
    (
        "id",
        "doi",
        "title",
        "display_name",
        "publication_year",
        "authorships",
        "primary_location",
        "locations",
        "type",
        "type_crossref",
        "ids",
        "is_retracted",
    )
)


class OpenAlex:
    """The OpenAlex source: `lookup` tries the cited DOI first, then a title search."""

    name = NAME

    def __init__(
        self,
        http: ServiceHttp,
        settings: OpenAlexSettings,
        *,
        mailto: str | None = None,
        min_title_similarity: float = 0.8,
        today: Callable[[], dt.date] = dt.date.today,
    ) -> None:
        self.http = http
        self.base_url = settings.base_url.rstrip("/")
        self.per_page = settings.max_results
        self.api_key = settings.api_key
        self.mailto = mailto
        self.min_title_similarity = min_title_similarity
        self._today = today

    @classmethod
    def from_settings(cls, settings: Settings, pool: HttpPool) -> OpenAlex:
        own = settings.sources.openalex
        return cls(
            pool.service(NAME, Policy.of(own)),
            own,
            mailto=settings.sources.mailto,
            min_title_similarity=settings.judge.title_candidate_similarity,
        )

    async def lookup(self, cited: ParsedFields) -> list[Record]:
        """The cited DOI's work; then, unless its title is the cited one, the works a title search finds."""
        doi = normalize_doi(cited.doi) if cited.doi else None
        title = cited.title or ""
        return await identified_then_searched(
            cited,
            [lambda: self.by_doi(doi)] if doi else [],
            lambda: self.search(title),
            self.min_title_similarity,
        )

    async def by_doi(self, doi: str) -> Record | None:
        """The work of a DOI (any written form); None when OpenAlex has none, or it is not a DOI at all."""
        canonical = normalize_doi(doi)
        if canonical is None:
            return None
        url = f"{self.base_url}/works/doi:{quote(canonical, safe='/:;()')}"
        params = self._params({"select": _SELECT})
        work = await fetch_json(
            self.http, url, params, _work, missing=_no_such_work, key_setting=self._key_setting
        )
        if work is None:
            return None
        records = map_items([work], lambda w: work_record(w, self._today().isoformat()))
        return records[0] if records else None  # a work without a title is no citable work

    async def search(self, title: str, per_page: int | None = None) -> list[Record]:
        """OpenAlex's best matches for a title, best first (its relevance order)."""
        params = {"search": title, "per-page": str(per_page or self.per_page), "select": _SELECT}
        url = f"{self.base_url}/works"
        results = await fetch_json(
            self.http, url, self._params(params), _results, key_setting=self._key_setting
        )
        version = self._today().isoformat()
        return map_items(results or [], lambda work: work_record(work, version))

    @property
    def _key_setting(self) -> str | None:
        return "sources.openalex.api_key" if self.api_key else None

    def _params(self, params: dict[str, str]) -> dict[str, str]:
        if self.mailto:
            params["mailto"] = self.mailto
        if self.api_key:
            params["api_key"] = self.api_key
        return params


# The page OpenAlex's own server (Flask/Werkzeug) sends for an unknown work id, as recorded from the real
# API for a DOI it does not hold: HTML, not its JSON error object.
_WERKZEUG_NOT_FOUND = b"<title>404 Not Found</title>"
_WERKZEUG_TEXT = b"The requested URL was not found on the server."


def _no_such_work(fetched: Fetched) -> bool:
    """OpenAlex's 404 for an id it does not hold: its JSON error object (`{"error": …, "message": …}`), or
    its web server's own "404 Not Found" page (what it really answers for an unknown DOI). Any other 404
    (a proxy's page, a wrong base URL) says nothing about the work."""
    body = fetched.body
    return json_error(fetched) is not None or (_WERKZEUG_NOT_FOUND in body and _WERKZEUG_TEXT in body)


def _work(answer: dict[str, Any]) -> dict[str, Any]:
    if not str(answer.get("id") or "").startswith(OPENALEX):
        raise Unreachable(NAME, f"unexpected answer: not an OpenAlex work (keys {sorted(answer)[:6]})")
    return answer


def _results(answer: dict[str, Any]) -> list[Any]:
    results = answer.get("results")
    if not isinstance(results, list):
        raise Unreachable(NAME, "unexpected answer: a work list without results")
    return results
