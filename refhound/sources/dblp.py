"""dblp's publication search API: `GET /search/publ/api?q=…&format=json&h=N`.

The answer is `{"result": {"status": {"@code": "200"}, "hits": {"@total": "2", "hit": [{"info": {…}}]}}}`;
with no hit the `hit` key is absent. dblp's JSON follows its XML: a lone author is an object rather than
a list of one, `ee` and `venue` are a string or a list, every field a string. Records are mapped as the
index's dblp ingester maps the dump (the final period of titles and the homonym numbers of names such as
"Chenglong Li 0002" removed, informal publications as preprints), with the fetch date as version.

dblp matches every query word (prefix match, no ranking of near misses), so a title search is given the
title's words only: punctuation such as ':' or '-' has a meaning in dblp's query syntax. dblp has no DOI
look-up; a citation without a title has nothing dblp can find.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Callable
from typing import Any

from refhound.errors import Unreachable
from refhound.formats.fields import (
    arxiv_of_doi,
    arxiv_of_url,
    doi_of,
    strip_dblp_suffix,
    strip_final_period,
    year_of,
)
from refhound.models import ParsedFields, Record
from refhound.net.http import HttpPool, Policy, ServiceHttp
from refhound.net.json_api import fetch_json
from refhound.normalize.text import collapse_whitespace
from refhound.settings import DblpSettings, Settings
from refhound.sources.base import map_items

NAME = "dblp"
# dblp's publication types (the `type` of a hit) → refhound's entry types.
_TYPES = {
    "Journal Articles": "article",
    "Conference and Workshop Papers": "inproceedings",
    "Informal Publications": "preprint",
    "Informal and Other Publications": "preprint",
    "Books and Theses": "book",
    "Parts in Books or Collections": "incollection",
    "Editorship": "proceedings",
    "Reference Works": "incollection",
    "Data and Artifacts": "misc",
}
_NOT_WORD = re.compile(r"[^\w]+")
_CORR_VOLUME = re.compile(r"^abs/(.+)$")


class Dblp:
    """The dblp source: a title search."""

    name = NAME

    def __init__(
        self, http: ServiceHttp, settings: DblpSettings, *, today: Callable[[], dt.date] = dt.date.today
    ) -> None:
        self.http = http
        self.base_url = settings.base_url.rstrip("/")
        self.hits = settings.max_results
        self._today = today

    @classmethod
    def from_settings(cls, settings: Settings, pool: HttpPool) -> Dblp:
        own = settings.sources.dblp
        return cls(pool.service(NAME, Policy.of(own)), own)

    async def lookup(self, cited: ParsedFields) -> list[Record]:
        """The publications whose title has the cited title's words; [] without a cited title."""
        query = search_query(cited.title or "")
        return await self.search(query) if query else []

    async def search(self, query: str, hits: int | None = None) -> list[Record]:
        """dblp's hits for a query, in dblp's order."""
        params = {"q": query, "format": "json", "h": str(hits or self.hits)}
        found = await fetch_json(self.http, f"{self.base_url}/search/publ/api", params, _hits)
        version = self._today().isoformat()
        return map_items(found or [], lambda hit: hit_record(hit, version))


def _hits(answer: dict[str, Any]) -> list[Any]:
    """The hits of a search answer (absent when there is none, an object when there is one)."""
    result = answer.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("hits"), dict):
        raise Unreachable(NAME, "unexpected answer: no result hits")
    given = result.get("status")
    status: dict[str, Any] = given if isinstance(given, dict) else {}
    code = status.get("@code")
    if code not in (None, "200"):
        raise Unreachable(NAME, f"dblp reports status {code}: {status.get('text')!r}")
    return _as_list(result["hits"].get("hit"))


def search_query(title: str) -> str:
    """The title's words, for dblp's all-words search."""
    return collapse_whitespace(_NOT_WORD.sub(" ", title))


def hit_record(hit: Any, version: str) -> Record | None:
    """One search hit as a record; None without a key or a title."""
    info = hit.get("info") if isinstance(hit, dict) else None
    if not isinstance(info, dict):
        return None
    key = _text(info.get("key"))
    title = strip_final_period(_text(info.get("title")))
    if not key or not title:
        return None
    links = [_text(link) for link in _as_list(info.get("ee"))]
    doi = doi_of(_text(info.get("doi"))) or next(
        (d for link in links if "doi.org/" in link and (d := doi_of(link))), None
    )
    venue = next((v for v in map(_text, _as_list(info.get("venue"))) if v), None)  # first of a list
    url = _text(info.get("url")) or f"https://dblp.org/rec/{key}"
    return Record(
        source=NAME,
        source_id=key,
        source_version=version,
        title=title,
        authors=[strip_dblp_suffix(name) for a in _authors(info) if (name := _text(a))],
        venue=venue,
        year=year_of(_text(info.get("year"))),
        doi=doi,
        arxiv_id=_arxiv_id(info, links, doi),
        url=url,
        entry_type=_TYPES.get(_text(info.get("type")), "misc"),
    )


def _authors(info: dict[str, Any]) -> list[Any]:
    authors = info.get("authors")
    return _as_list(authors.get("author")) if isinstance(authors, dict) else []


def _arxiv_id(info: dict[str, Any], links: list[str], doi: str | None) -> str | None:
    """From an arxiv.org link, arXiv's DOI, or CoRR's volume ("abs/1706.03762")."""
    for link in links:
        found = arxiv_of_url(link) or arxiv_of_doi(doi_of(link) if "doi.org/" in link else None)
        if found:
            return found
    found = arxiv_of_doi(doi)
    if found is None and "CoRR" in map(_text, _as_list(info.get("venue"))):
        match = _CORR_VOLUME.match(_text(info.get("volume")))
        found = match.group(1) if match else None
    return found


def _text(value: Any) -> str:
    """A field's text: dblp gives strings, or `{"text": …}` objects for authors; entities decoded."""
    if isinstance(value, dict):
        value = value.get("text")
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    return collapse_whitespace(html.unescape(value)) if isinstance(value, str) else ""


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
