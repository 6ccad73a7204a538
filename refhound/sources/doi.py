"""doi.org, the DOI resolver: does a DOI exist, and which work does it name.

- `by_doi` asks for the DOI's metadata by content negotiation: `GET /{doi}` with `Accept:
  application/vnd.citationstyles.csl+json`. doi.org redirects to the DOI's registration agency (Crossref,
  DataCite, …), which answers CSL-JSON (`title`, `author: [{given, family}]`, `container-title`,
  `issued: {date-parts}`, `DOI`, `URL`, `type`). A DOI that is not registered is doi.org's 404 page
  ("DOI Not Found"): `None`. An agency without content negotiation sends the DOI's landing page instead
  (200, HTML): the DOI exists but doi.org has no metadata for it, also `None` — as is any other 404 on
  the way (a landing page gone): `None` only ever means "no metadata here".
- `resolves` tells those `None`s apart: it asks whether the DOI is registered at all, from doi.org's
  own handle records (`GET /api/handles/{doi}?type=URL`: `{"responseCode": 1, …}`, 200 for "registered
  without a URL", or a 404 with `{"responseCode": 100}`). It never depends on a publisher's site, which
  may refuse robots. Its False is the definite "this DOI does not exist" that makes a cited DOI evidence
  of fabrication, so it comes only from that JSON: a 404 with another body (a proxy's page, a mirror
  without the handle API) or a 200 page that is not the handle JSON (a captive portal's) is `Unreachable`.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from refhound.errors import Unreachable
from refhound.formats.crossref import first_text
from refhound.formats.fields import person_name
from refhound.models import ParsedFields, Record
from refhound.net.http import Fetched, HttpPool, Policy, ServiceHttp
from refhound.net.json_api import fetch_json
from refhound.normalize.identifiers import arxiv_id_from_doi, normalize_doi
from refhound.normalize.text import collapse_whitespace
from refhound.settings import DoiSettings, Settings
from refhound.sources.base import map_items

NAME = "doi"
CSL_JSON = "application/vnd.citationstyles.csl+json"
# CSL item types → refhound's entry types ("article" is CSL's preprint / working paper).
_TYPES = {
    "article-journal": "article",
    "article-magazine": "article",
    "article-newspaper": "article",
    "review": "article",
    "paper-conference": "inproceedings",
    "article": "preprint",
    "posted-content": "preprint",
    "book": "book",
    "chapter": "incollection",
    "entry": "incollection",
    "entry-encyclopedia": "incollection",
    "entry-dictionary": "incollection",
    "thesis": "phdthesis",
}
_PREPRINT_TYPES = frozenset({"article", "posted-content"})
_DATE_FIELDS = ("issued", "published-print", "published-online", "published", "created")
# Handle proxy response codes: 1 found, 200 found without values of the asked type, 100 not found.
_HANDLE_EXISTS = frozenset({1, 200})
_HANDLE_NOT_FOUND = 100


class DoiOrg:
    """The doi.org source: `lookup` resolves the cited DOI; a citation without a DOI has nothing here."""

    name = NAME

    def __init__(
        self, http: ServiceHttp, settings: DoiSettings, *, today: Callable[[], dt.date] = dt.date.today
    ) -> None:
        self.http = http
        self.base_url = settings.base_url.rstrip("/")
        self._today = today

    @classmethod
    def from_settings(cls, settings: Settings, pool: HttpPool) -> DoiOrg:
        own = settings.sources.doi
        return cls(pool.service(NAME, Policy.of(own)), own)

    async def lookup(self, cited: ParsedFields) -> list[Record]:
        """[the cited DOI's work]; [] when the citation has no DOI or doi.org gives no metadata for it."""
        record = await self.by_doi(cited.doi) if cited.doi else None
        return [record] if record is not None else []

    async def by_doi(self, doi: str) -> Record | None:
        """The DOI's work; None when doi.org has no metadata for it (`resolves` says whether it exists)."""
        canonical = normalize_doi(doi)
        if canonical is None:
            return None
        url = f"{self.base_url}/{_quote(canonical)}"
        item = await self.http.read(url, None, _csl_item, headers={"Accept": CSL_JSON}, missing=_no_metadata)
        if item is None:  # a 404, or the landing page of an agency without content negotiation
            return None
        records = map_items([item], lambda csl: csl_record(csl, canonical, self._today().isoformat()))
        return records[0] if records else None

    async def resolves(self, doi: str) -> bool:
        """Whether the DOI is registered, from doi.org's handle records; Unreachable when it cannot say."""
        canonical = normalize_doi(doi)
        if canonical is None:
            return False
        url = f"{self.base_url}/api/handles/{_quote(canonical)}"
        exists = await fetch_json(self.http, url, {"type": "URL"}, _handle_exists, missing=_unknown_handle)
        return bool(exists)  # None: the handle service's own 404 for a handle it does not hold


def _no_metadata(fetched: Fetched) -> bool:
    """Any 404 on the way to the metadata (doi.org's "DOI Not Found", an agency's or a landing page's):
    no metadata here. Whether the DOI exists is for `resolves` to say, never this 404."""
    return True


def _unknown_handle(fetched: Fetched) -> bool:
    """The handle service's 404 for a handle it does not hold: `{"responseCode": 100, "handle": …}`."""
    try:
        answer = json.loads(fetched.body)
    except ValueError:
        return False
    return isinstance(answer, dict) and answer.get("responseCode") == _HANDLE_NOT_FOUND


def _handle_exists(answer: dict[str, Any]) -> bool:
    code = answer.get("responseCode")
    if code in _HANDLE_EXISTS:
        return True
    if code == _HANDLE_NOT_FOUND:
        return False
    raise Unreachable(NAME, f"the handle service answered responseCode {code!r}, not 1, 100 or 200")


def csl_record(item: Any, doi: str, version: str) -> Record | None:
    """A CSL-JSON item as a record; None without a title."""
    if not isinstance(item, dict):
        return None
    title = _string(item.get("title"))
    if not title:
        return None
    kind = str(item.get("type") or "")
    given_doi = normalize_doi(str(item.get("DOI") or "")) or doi
    return Record(
        source=NAME,
        source_id=given_doi,
        source_version=version,
        title=title,
        authors=[name for a in item.get("author") or [] if (name := _author(a))],
        venue=_venue(item, kind),
        year=_year(item),
        doi=given_doi,
        arxiv_id=arxiv_id_from_doi(given_doi),
        url=_string(item.get("URL")) or f"https://doi.org/{given_doi}",
        entry_type=_TYPES.get(kind, "misc"),
    )


def _string(value: Any) -> str:
    """A CSL string; agencies also send one-element lists. Inline markup removed, as for Crossref works."""
    if isinstance(value, str):
        value = [value]
    return first_text(value)


def _author(author: Any) -> str:
    if not isinstance(author, dict):
        return ""
    name = person_name(_string(author.get("given")), _string(author.get("family")))
    return name or _string(author.get("literal")) or _string(author.get("name"))


def _venue(item: dict[str, Any], kind: str) -> str | None:
    """The container title; for a conference paper without one the event; for a preprint the server."""
    venue = _string(item.get("container-title"))
    if not venue and kind == "paper-conference":
        venue = _string(item.get("event-title")) or _string(item.get("event"))
    if not venue and kind in _PREPRINT_TYPES:
        venue = _string(item.get("publisher"))
    return venue or None


def _year(item: dict[str, Any]) -> int | None:
    """The first year of the CSL dates, in order of preference; agencies send numbers or digit strings."""
    for name in _DATE_FIELDS:
        date = item.get(name)
        parts = date.get("date-parts") if isinstance(date, dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = parts[0][0]
            if isinstance(year, str) and year.strip().isdecimal():
                year = int(year)
            if isinstance(year, int) and not isinstance(year, bool) and 1000 <= year <= 2999:
                return year
    return None


def _quote(doi: str) -> str:
    """The DOI as a URL path: its slashes kept, '#', '?', '%' and the like escaped (doi.org decodes them)."""
    return quote(doi, safe="/:;()[]")


def _csl_item(fetched: Fetched) -> dict[str, Any] | None:
    """The CSL-JSON object of an answer; None for a page that is not JSON; Unreachable for broken JSON."""
    content_type = fetched.content_type.lower()
    is_json = "json" in content_type if content_type else fetched.body.lstrip()[:1] == b"{"
    if not is_json:
        return None
    try:
        data = json.loads(fetched.body)
    except ValueError as error:
        snippet = collapse_whitespace(fetched.body[:80].decode("utf-8", "replace"))
        raise Unreachable(NAME, f"the CSL-JSON answer is not JSON ({error}): {snippet!r}") from None
    if not isinstance(data, dict):
        raise Unreachable(NAME, "the CSL-JSON answer is JSON but not an object")
    return data
