"""Crossref and OpenAlex API harvests: the works of configured venues updated since the last harvest,
paged with the APIs' cursors, for `refhound index update`.

An API origin is `{base}/works?filter=VENUE_FILTER` (e.g. Crossref `issn:1532-4435`, OpenAlex
`primary_location.source.id:S4306420609`), recorded with the date it was last harvested (`from`). An update
asks `filter=VENUE_FILTER,from-update-date:FROM` (Crossref) or `…,from_updated_date:FROM` (OpenAlex; that
filter needs an OpenAlex API key, so without one `from_publication_date` is used and only new works are
seen — said in the update's report), `cursor=*`, then each answer's `next-cursor` / `next_cursor` until a
page comes back empty. Works are mapped as the API clients map them. A page that fails after the retries
ends the harvest: the pages read stay (each a whole answer), `from` is not moved, and the failure is
reported; rerunning harvests the same window again (upserts make that harmless).

Every request goes through refhound's guarded client (`BlockingClient`, as dump downloads do): a base URL,
or a redirect, to a loopback, private or link-local address is refused at once, not retried, unless it is
the configured `base_url` or the setting `net.allow` names it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx

from refhound.errors import IngestError
from refhound.formats.crossref import work_records as crossref_records
from refhound.formats.openalex import work_record
from refhound.index.download import BlockingClient
from refhound.index.ingest.base import Dump
from refhound.models import Record
from refhound.net.guard import AddressRefused
from refhound.settings import Settings

if TYPE_CHECKING:
    from refhound.index.store import IndexStore
    from refhound.index.update import UpdateOptions, UpdateReport

_RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_PAGE = {"crossref": ("rows", "1000"), "openalex": ("per-page", "200")}


class HarvestError(IngestError):
    pass


def origin_url(base_url: str, venue_filter: str) -> str:
    return f"{base_url.rstrip('/')}/works?filter={venue_filter}"


def add_api_origin(store: IndexStore, config: dict[str, Any]) -> None:
    """Record an API harvest to run: `{"source": "crossref"|"openalex", "filter": …, "since": DATE}`."""
    source, venue_filter = config["source"], config["filter"]
    base = config.get("base_url") or _settings_base(source)
    origin = origin_url(base, venue_filter)
    known = {o["origin"]: o for o in store.origins() if o["source"] == source}
    state = dict(known[origin]["state"]) if origin in known else {}
    state.update({"base_url": base, "filter": venue_filter})
    if config.get("since") or "from" not in state:
        state["from"] = config.get("since") or "1900-01-01"
    version = known[origin]["version"] if origin in known else "never"
    store.set_origin(source, origin, "api", version, state)


def _settings_base(source: str) -> str:
    sources = Settings().sources
    return str(sources.crossref.base_url if source == "crossref" else sources.openalex.base_url)


class ApiHarvest:
    """One cursor-paged harvest; `dump()` streams its works, `failure` says why it stopped early."""

    def __init__(
        self,
        source: str,
        base_url: str,
        venue_filter: str,
        since: str,
        version: str,
        options: UpdateOptions,
    ) -> None:
        # The address guard's exceptions (`net.allow`) and the contact details; default: the user's.
        self.settings = options.settings or Settings()
        sources = self.settings.sources
        self.source = source
        self.base_url = base_url.rstrip("/")
        self.venue_filter = venue_filter
        self.since = since
        self.version = version
        self.patience = options.patience
        self.mailto = sources.mailto
        self.api_key = sources.openalex.api_key if source == "openalex" else None
        self.pages = 0
        self.failure: HarvestError | None = None
        self.problems: list[str] = []

    @property
    def date_filter(self) -> str:
        if self.source == "crossref":
            return f"from-update-date:{self.since}"
        if self.api_key:
            return f"from_updated_date:{self.since}"
        return f"from_publication_date:{self.since}"

    def dump(self) -> Dump:
        return Dump(
            source=self.source,
            version=self.version,
            complete=False,
            records=self._until_failure(),
            location=origin_url(self.base_url, self.venue_filter),
            problems=self.problems,
        )

    def _until_failure(self) -> Iterator[Record]:
        try:
            yield from self.records()
        except HarvestError as error:
            self.failure = error

    def records(self) -> Iterator[Record]:
        cursor: str | None = "*"
        with BlockingClient(self.settings, self.patience.timeout_s) as http:
            while cursor:
                items, cursor = self._page(http, cursor)
                self.pages += 1
                if not items:
                    return
                yield from self._map(items)

    def _map(self, items: list[Any]) -> Iterator[Record]:
        if self.source == "crossref":
            numbered = ((f"page {self.pages} item {i}", w) for i, w in enumerate(items, 1))
            yield from crossref_records(numbered, self.version, self.problems)
            return
        for work in items:
            record = work_record(work, self.version)
            if record is not None:
                yield record

    def _params(self, cursor: str | None) -> dict[str, str]:
        size_name, size = _PAGE[self.source]
        venues = f"{self.venue_filter},{self.date_filter}"
        params = {"filter": venues, "cursor": cursor or "*", size_name: size}
        if self.mailto:
            params["mailto"] = self.mailto
        if self.api_key:
            params["api_key"] = self.api_key
        return params

    def _page(self, http: BlockingClient, cursor: str | None) -> tuple[list[Any], str | None]:
        url = f"{self.base_url}/works"
        problem = ""
        for attempt in range(self.patience.retries + 1):
            if attempt:
                time.sleep(min(self.patience.backoff_s * 2 ** (attempt - 1), self.patience.max_wait_s))
            try:
                response = http.get(url, params=self._params(cursor))
            except AddressRefused as error:  # asking again gives the same answer
                raise HarvestError(url, str(error)) from None
            except (httpx.TransportError, httpx.TimeoutException) as error:
                problem = f"{type(error).__name__}: {error}"
                continue
            if response.status_code in _RETRY_STATUS:
                problem = f"HTTP {response.status_code}"
                continue
            if response.status_code != 200:
                raise HarvestError(url, f"HTTP {response.status_code}: {response.text[:200]!r}")
            return self._page_of(url, response)
        raise HarvestError(url, f"{problem} after {self.patience.retries + 1} attempts")

    def _page_of(self, url: str, response: httpx.Response) -> tuple[list[Any], str | None]:
        try:
            data = response.json()
        except ValueError:
            raise HarvestError(url, f"not JSON: {response.text[:120]!r}") from None
        if self.source == "crossref":
            message = data.get("message") if isinstance(data, dict) else None
            if not isinstance(message, dict) or not isinstance(message.get("items"), list):
                raise HarvestError(url, "not a Crossref work list")
            return message["items"], message.get("next-cursor")
        if not isinstance(data, dict) or not isinstance(data.get("results"), list):
            raise HarvestError(url, "not an OpenAlex work list")
        return data["results"], (data.get("meta") or {}).get("next_cursor")


def update_api_origin(
    store: IndexStore, origin: dict[str, Any], options: UpdateOptions, report: UpdateReport
) -> None:
    state = origin["state"]
    source = origin["source"]
    harvest = ApiHarvest(
        source, state["base_url"], state["filter"], state.get("from") or "1900-01-01", options.today, options
    )
    result = store.ingest(harvest.dump())
    if harvest.failure is None:
        store.set_origin(
            source, origin["origin"], "api", options.today, dict(state, **{"from": options.today})
        )
    else:
        report.failures.append(f"{source} {origin['origin']}: {harvest.failure}")
    report.added += result.added
    note = "" if source == "crossref" or harvest.api_key else " (no OpenAlex API key: new works only)"
    report.lines.append(
        f"{source} {origin['origin']}: since {harvest.since}{note}: {harvest.pages} pages, "
        f"{result.records:,} records, {result.added:,} new"
    )
