"""A synchronous face for the web stage: one event-loop thread, one shared client, one lazy browser per run.

SOP agents are plain functions run in worker threads; `WebRuntime.search(query)` submits the search and
the crawl of its results to the runtime's loop and waits, so every agent thread shares one
`httpx.AsyncClient`, the per-host limits, the robots.txt cache and the one Chromium. `fetch(url)` does
the same for a single page (e.g. a URL a reference cites).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from refhound.errors import Unreachable
from refhound.models import Record
from refhound.net.fetch import PageFetcher
from refhound.net.http import HttpPool, make_client
from refhound.net.loop_thread import LoopRuntime, cancel_other_tasks
from refhound.online import web_unavailable
from refhound.settings import Settings
from refhound.web.browser import Browser
from refhound.web.crawl import CrawlBudget, CrawledPage, Crawler
from refhound.web.providers import SearchHit, SearchProvider, provider_from_settings

logger = logging.getLogger(__name__)
_CLOSE_BROWSER_S = 15.0


@dataclass(frozen=True)
class WebLookup:
    """What one reference's web search found: the hits, the crawled pages, and what did not answer."""

    provider: str
    query: str
    hits: tuple[SearchHit, ...] = ()
    pages: tuple[CrawledPage, ...] = ()
    over_budget: int = 0  # results not crawled: the page budget was spent
    problem: str | None = None  # the search itself gave no answer

    @property
    def records(self) -> tuple[Record, ...]:
        return tuple(record for page in self.pages for record in page.records)

    @property
    def unreachable(self) -> tuple[str, ...]:
        """The provider when the search failed, and the hosts of pages that gave no answer."""
        names = [self.provider] if self.problem else []
        names += [urlsplit(page.final_url).netloc for page in self.pages if page.unreachable]
        return tuple(dict.fromkeys(name for name in names if name))


class WebRuntime(LoopRuntime):
    """Owns the loop thread, the client, the provider, the crawler and the browser; `close()` when done."""

    def __init__(
        self,
        settings: Settings,
        transport: httpx.AsyncBaseTransport | None = None,
        *,
        provider: SearchProvider | None = None,
    ) -> None:
        super().__init__("refhound-web", logger)
        self.settings = settings
        self._pool: HttpPool | None = None
        self._browser: Browser | None = None
        try:
            self._provider, self._crawler = self._loop.run(self._build(transport, provider))
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_settings(
        cls, settings: Settings, transport: httpx.AsyncBaseTransport | None = None
    ) -> WebRuntime | None:
        """A runtime, or None when the web stage cannot run (`refhound.online.web_unavailable` says why)."""
        if web_unavailable(settings) is not None:
            return None
        return cls(settings, transport)

    @property
    def provider(self) -> str:
        return self._provider.name

    @property
    def browser_started(self) -> bool:
        return self._browser is not None and self._browser.started

    def search(self, query: str) -> WebLookup:
        """Search, then crawl the top results within one reference's page budget (blocking)."""
        return self._loop.run(self._search(query))

    def fetch(self, url: str) -> CrawledPage:
        """One page's records (robots.txt, limits and browser fallback as in a crawl; blocking)."""
        return self._loop.run(self._crawler.page(url))

    async def _build(
        self, transport: httpx.AsyncBaseTransport | None, provider: SearchProvider | None
    ) -> tuple[SearchProvider, Crawler]:
        # Built on the loop: the client's connection pool, the gates and the robots cache belong to it.
        web = self.settings.web
        self._pool = HttpPool(make_client(self.settings, transport))
        fetcher = PageFetcher(self._pool.client, web)
        self._browser = Browser(
            web.chromium_path,
            self._pool.client,
            timeout_s=web.crawl_timeout_s,
            max_chars=web.max_page_bytes,
            user_agent=self._pool.client.headers.get("User-Agent"),
            gates=fetcher.gates,
        )
        crawler = Crawler(fetcher, self._browser, web.use_browser)
        return provider or provider_from_settings(web, self._pool), crawler

    async def _search(self, query: str) -> WebLookup:
        name = self._provider.name
        try:
            hits = await self._provider.search(query, self.settings.web.top_results)
        except Unreachable as error:
            problem = error.problem
            self._warn_once(name, f"web search ({name}) gave no answer: {problem}")
            return WebLookup(name, query, problem=problem)
        budget = CrawlBudget(self.settings.web.crawl_budget_pages)
        pages, over_budget = await self._crawler.crawl([hit.url for hit in hits], budget)
        return WebLookup(name, query, tuple(hits), tuple(pages), over_budget)

    async def _shutdown(self) -> None:
        # Chromium first, while Playwright's own tasks (its driver connection) still run; then whatever
        # work is left, then the client.
        if self._browser is not None:
            try:
                async with asyncio.timeout(_CLOSE_BROWSER_S):
                    await self._browser.close()
            except TimeoutError:
                logger.warning("Chromium did not close within %g s", _CLOSE_BROWSER_S)
        await cancel_other_tasks()
        if self._pool is not None:
            await self._pool.aclose()
