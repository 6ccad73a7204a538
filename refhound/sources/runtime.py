"""A synchronous face for the async sources: one event-loop thread and one shared client per run.

SOP agents are plain functions run by a thread pool; `SourcesRuntime.lookup` submits the aggregated
lookup to the runtime's loop and waits for it, so any number of agent threads share one client, its
connection pool, the per-host rate limits and the HTTP cache.

Offline (`check.offline`), the services are still "asked" when an HTTP cache file exists: the runtime is
then built in cache-only mode, answering with whatever an earlier online run was told (any age) and
`Unreachable` for the rest, so an offline re-run reproduces the online one without sending a request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import httpx

from refhound.models import ParsedFields
from refhound.net.cache import HttpCache
from refhound.net.fetch import PageFetcher
from refhound.net.http import HttpPool, OfflineTransport, make_client
from refhound.net.loop_thread import LoopRuntime, cancel_other_tasks
from refhound.online import enabled_tiers, probe_services, sources_unavailable
from refhound.settings import Settings
from refhound.sources.aggregate import Aggregator, Lookup
from refhound.sources.arxiv import Arxiv
from refhound.sources.base import Source
from refhound.sources.crossref import Crossref
from refhound.sources.dblp import Dblp
from refhound.sources.doi import DoiOrg
from refhound.sources.openalex import OpenAlex
from refhound.sources.probes import CitedPages, Probe, Prober
from refhound.sources.semantic_scholar import SemanticScholar

logger = logging.getLogger(__name__)

# One builder per service, keyed by its section name in `SourcesSettings`.
BUILDERS: dict[str, Callable[[Settings, HttpPool], Source]] = {
    "crossref": Crossref.from_settings,
    "openalex": OpenAlex.from_settings,
    "dblp": Dblp.from_settings,
    "arxiv": Arxiv.from_settings,
    "semantic_scholar": SemanticScholar.from_settings,
    "doi": DoiOrg.from_settings,
}


class SourcesRuntime(LoopRuntime):
    """Owns the loop thread, the shared `httpx.AsyncClient` and the aggregator; `close()` when done.

    A service that gives no answer is logged once per run (each reference's stage notes its problem).
    """

    def __init__(self, settings: Settings, transport: httpx.AsyncBaseTransport | None = None) -> None:
        super().__init__("refhound-sources", logger)
        self._pool: HttpPool | None = None
        self.offline = settings.check.offline
        try:
            self._aggregator = self._loop.run(self._build(settings, transport))
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_settings(
        cls, settings: Settings, transport: httpx.AsyncBaseTransport | None = None
    ) -> SourcesRuntime | None:
        """A runtime, or None when no source would be asked (`refhound.online.sources_unavailable` says why).

        Offline, a runtime exists only in cache-only mode (`refhound.online.cache_only`); `transport` is
        then ignored.
        """
        if sources_unavailable(settings) is not None:
            return None
        return cls(settings, transport)

    @property
    def names(self) -> tuple[str, ...]:
        """The services asked, in tier order."""
        return self._aggregator.names

    def lookup(self, cited: ParsedFields, citation: str | None = None) -> Lookup:
        """Ask the sources tier by tier, then by the printed `citation` when that is needed
        (`Aggregator.lookup`; blocking; safe from any thread but the runtime's own)."""
        found = self._loop.run(self._aggregator.lookup(cited, citation))
        for answer in found.answers:
            if answer.problem is not None:
                self._warn_once(answer.source, _warning(answer.source, answer.problem))
        return found

    @property
    def can_probe(self) -> bool:
        """Whether some identifier authority (doi.org, arXiv, cited pages) is enabled."""
        prober = self._prober
        return any(r is not None for r in (prober.doi, prober.arxiv, prober.pages))

    def probe(self, cited: ParsedFields) -> list[Probe]:
        """Ask each cited identifier's authority about it (blocking, like `lookup`)."""
        probes = self._loop.run(self._prober.probe(cited))
        for probe in probes:
            if probe.problem is not None and probe.field != "url":  # a page that fails is no service's
                self._warn_once(probe.service, _warning(probe.service, probe.problem))
        return probes

    async def _build(self, settings: Settings, transport: httpx.AsyncBaseTransport | None) -> Aggregator:
        # Built on the loop: the client's connection pool, the gates and the cache's connection belong to it.
        own = settings.sources.cache
        cache = HttpCache(own.path, own.ttl_s) if own.enabled else None
        if settings.check.offline:
            transport = OfflineTransport()  # belt and braces: the pool itself never sends offline
        self._pool = HttpPool(make_client(settings, transport), cache, offline=settings.check.offline)
        sources = {
            name: BUILDERS[name](settings, self._pool) for tier in enabled_tiers(settings) for name in tier
        }
        tiers = [[sources[name] for name in tier] for tier in enabled_tiers(settings)]
        probes = {
            name: sources.get(name) or BUILDERS[name](settings, self._pool)
            for name in probe_services(settings)
        }
        doi, arxiv = probes.get("doi"), probes.get("arxiv")
        # Cited pages are read online only: the HTTP cache holds the services' answers, not web pages.
        pages = None if settings.check.offline else CitedPages(PageFetcher(self._pool.client, settings.web))
        self._prober = Prober(
            doi=doi if isinstance(doi, DoiOrg) else None,
            arxiv=arxiv if isinstance(arxiv, Arxiv) else None,
            pages=pages,
        )
        return Aggregator(tiers, settings.judge.title_candidate_similarity)

    async def _shutdown(self) -> None:
        await cancel_other_tasks()
        if self._pool is not None:
            await self._pool.aclose()


def _warning(service: str, problem: str) -> str:
    return f"{service} gave no answer ({problem}); its further failures are noted per reference only"
