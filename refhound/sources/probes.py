"""Identifier probes: ask each cited identifier's authority whether it exists, and which work it names.

doi.org for a DOI, arXiv for an arXiv id, the page itself for a URL. Each probe has one of four outcomes,
kept apart: the identifier names a work (`FOUND`, with its record), it resolves but its authority gives
no metadata (`RESOLVES`), it does not exist (`MISSING`: doi.org's 404, arXiv's "no such paper"), or there
was no answer (`UNKNOWN`: unreachable), which proves nothing. A URL that fails to load is `UNKNOWN`, never
`MISSING`: links rot, and a dead link says nothing about the work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol
from urllib.parse import urlsplit

from refhound.errors import Unreachable
from refhound.models import ParsedFields, Record
from refhound.net.fetch import PageFetcher
from refhound.normalize.identifiers import (
    arxiv_id_from_doi,
    find_arxiv_id,
    find_doi,
    normalize_arxiv_id,
    normalize_doi,
)
from refhound.web.metadata import records_from_html


class Outcome(StrEnum):
    FOUND = "found"
    RESOLVES = "resolves"
    MISSING = "missing"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Probe:
    """What one identifier's authority said about it."""

    field: str  # "doi", "arxiv_id" or "url"
    value: str
    service: str
    outcome: Outcome
    records: tuple[Record, ...] = ()
    problem: str | None = None  # why the outcome is UNKNOWN

    def describe(self) -> str:
        """One line for the stage trace, e.g. "doi 10.1/x: missing at doi"."""
        text = f"{self.field} {self.value}: {self.outcome.value} at {self.service}"
        return f"{text} ({self.problem})" if self.problem else text


class DoiResolver(Protocol):
    name: str

    async def by_doi(self, doi: str) -> Record | None:
        """The DOI's work; None when the DOI does not exist. Raises Unreachable."""
        ...

    async def resolves(self, doi: str) -> bool:
        """Whether the DOI exists at all (its agency may give no metadata). Raises Unreachable."""
        ...


class ArxivResolver(Protocol):
    name: str

    async def by_arxiv_id(self, arxiv_id: str) -> Record | None:
        """The paper of an arXiv id; None when arXiv has no such paper. Raises Unreachable."""
        ...


class PageReader(Protocol):
    name: str

    async def records_at(self, url: str) -> list[Record]:
        """Records described by the page's metadata ([] when it has none). Raises Unreachable."""
        ...


@dataclass(frozen=True)
class CitedIdentifiers:
    """The identifiers a citation gives, DOIs and arXiv ids found in its URL included."""

    doi: str | None
    arxiv_id: str | None
    url: str | None

    @classmethod
    def of(cls, cited: ParsedFields) -> CitedIdentifiers:
        doi = normalize_doi(cited.doi) if cited.doi else None
        arxiv = normalize_arxiv_id(cited.arxiv_id) if cited.arxiv_id else None
        url = cited.url.strip() if cited.url else None
        if url and _host(url) in _IDENTIFIER_HOSTS:
            # A doi.org or arxiv.org link is that identifier: probe it once, at its authority.
            doi = doi or find_doi(url)
            arxiv = arxiv or find_arxiv_id(url)
            url = None
        if doi and not arxiv:
            arxiv = arxiv_id_from_doi(doi)  # arXiv's own DOIs (10.48550/arXiv.…)
        return cls(doi, arxiv, url)

    def __bool__(self) -> bool:
        return bool(self.doi or self.arxiv_id or self.url)


_IDENTIFIER_HOSTS = frozenset({"doi.org", "dx.doi.org", "www.doi.org", "arxiv.org", "www.arxiv.org"})


def _host(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


class Prober:
    """Probes a citation's identifiers at once; a missing resolver leaves its identifier unprobed."""

    def __init__(
        self,
        doi: DoiResolver | None = None,
        arxiv: ArxivResolver | None = None,
        pages: PageReader | None = None,
    ) -> None:
        self.doi = doi
        self.arxiv = arxiv
        self.pages = pages

    async def probe(self, cited: ParsedFields) -> list[Probe]:
        ids = CitedIdentifiers.of(cited)
        probes: list[Awaitable[Probe]] = []
        if ids.doi and self.doi is not None:
            probes.append(self._doi(self.doi, ids.doi))
        if ids.arxiv_id and self.arxiv is not None:
            probes.append(self._arxiv(self.arxiv, ids.arxiv_id))
        if ids.url and self.pages is not None:
            probes.append(self._url(self.pages, ids.url))
        return list(await asyncio.gather(*probes))

    @staticmethod
    async def _doi(resolver: DoiResolver, doi: str) -> Probe:
        try:
            record = await resolver.by_doi(doi)
            if record is not None:
                return Probe("doi", doi, resolver.name, Outcome.FOUND, (record,))
            exists = await resolver.resolves(doi)
        except Unreachable as error:
            return Probe("doi", doi, resolver.name, Outcome.UNKNOWN, problem=error.problem)
        return Probe("doi", doi, resolver.name, Outcome.RESOLVES if exists else Outcome.MISSING)

    @staticmethod
    async def _arxiv(resolver: ArxivResolver, arxiv_id: str) -> Probe:
        try:
            record = await resolver.by_arxiv_id(arxiv_id)
        except Unreachable as error:
            return Probe("arxiv_id", arxiv_id, resolver.name, Outcome.UNKNOWN, problem=error.problem)
        if record is None:
            return Probe("arxiv_id", arxiv_id, resolver.name, Outcome.MISSING)
        return Probe("arxiv_id", arxiv_id, resolver.name, Outcome.FOUND, (record,))

    @staticmethod
    async def _url(reader: PageReader, url: str) -> Probe:
        try:
            records = await reader.records_at(url)
        except Unreachable as error:
            return Probe("url", url, reader.name, Outcome.UNKNOWN, problem=error.problem)
        outcome = Outcome.FOUND if records else Outcome.RESOLVES
        return Probe("url", url, reader.name, outcome, tuple(records))


class CitedPages:
    """Reads the records a cited page describes (its `citation_*`, Dublin Core, JSON-LD metadata).

    Any page that cannot be read, for whatever reason, is `Unreachable`: a link that fails proves nothing.
    """

    name = "web"

    def __init__(self, fetcher: PageFetcher) -> None:
        self.fetcher = fetcher

    async def records_at(self, url: str) -> list[Record]:
        page = await self.fetcher.fetch(url)
        if page.html is None:
            raise Unreachable(self.name, page.problem or "no HTML")
        return records_from_html(page.final_url, page.html)
