"""Crawl search results into candidate records, within a page budget per reference.

A result is fetched with plain HTTP first (`PageFetcher`: robots.txt, per-host limits, body cap); only a
page whose HTML has no usable metadata and looks built by scripts is rendered again in Chromium
(`Browser`), because starting a browser costs a second and most scholarly pages carry their metadata in
the served HTML. The budget counts pages fetched, so a reference never costs more than
`web.crawl_budget_pages` page requests, however many results the search gave.
"""

from __future__ import annotations

import asyncio
import re
import threading
from dataclasses import dataclass, replace
from typing import Literal

from refhound.models import Record
from refhound.net.fetch import Page, PageFetcher
from refhound.web.browser import Browser, BrowserProblem
from refhound.web.metadata import needs_javascript, records_from_html

# Links to a paper's PDF whose HTML landing page carries the metadata.
_ARXIV_PDF = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/pdf/([^?#]+?)(?:\.pdf)?/?(?:[?#].*)?$",
    re.I,
)
_ACL_PDF = re.compile(r"^(https?://(?:www\.)?aclanthology\.org/[^/?#]+?)\.pdf(?:[?#].*)?$", re.I)


@dataclass(frozen=True)
class CrawledPage:
    """One crawled result: the records its metadata gave, or why it gave none."""

    url: str
    final_url: str
    records: tuple[Record, ...] = ()
    problem: str | None = None
    unreachable: bool = False  # no answer from the host (see `Page.unreachable`)
    rendered: bool = False  # the records were read after Chromium ran the page's scripts
    truncated: bool = False


class CrawlBudget:
    """Pages one reference may still fetch; thread- and task-safe."""

    def __init__(self, pages: int) -> None:
        self.left = pages
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.left <= 0:
                return False
            self.left -= 1
            return True


def page_address(url: str) -> str:
    """The address worth fetching for a result: a paper's landing page rather than its PDF; no fragment."""
    if match := _ARXIV_PDF.match(url):
        return f"https://arxiv.org/abs/{match.group(1)}"
    if match := _ACL_PDF.match(url):
        return f"{match.group(1)}/"
    return url.split("#", 1)[0]


class Crawler:
    """Pages → records, with an optional browser for pages built by JavaScript. Use on one event loop."""

    def __init__(
        self,
        fetcher: PageFetcher,
        browser: Browser | None = None,
        use_browser: Literal["auto", "never"] = "auto",
    ) -> None:
        self.fetcher = fetcher
        self.browser = browser if use_browser == "auto" else None

    async def crawl(self, urls: list[str], budget: CrawlBudget) -> tuple[list[CrawledPage], int]:
        """The pages of `urls` the budget allows (in order, each once), and how many it left out."""
        addresses = list(dict.fromkeys(page_address(url) for url in urls))
        chosen = []
        for address in addresses:
            if not budget.take():
                break
            chosen.append(address)
        pages = await asyncio.gather(*(self.page(address) for address in chosen))
        return list(pages), len(addresses) - len(chosen)

    async def page(self, url: str) -> CrawledPage:
        """One page's records: from its served HTML, else (auto) from Chromium's rendering of it."""
        fetched = await self.fetcher.fetch(url)
        if fetched.html is None:
            return CrawledPage(
                url, fetched.final_url, problem=fetched.problem, unreachable=fetched.unreachable
            )
        crawled = _crawled(fetched, records_from_html(fetched.final_url, fetched.html))
        if crawled.records or self.browser is None or not needs_javascript(fetched.html):
            return crawled
        try:
            html = await self.browser.render(fetched.final_url)
        except BrowserProblem as error:
            return replace(crawled, problem=f"no metadata without JavaScript; {error.problem}")
        records = tuple(records_from_html(fetched.final_url, html))
        if not records:
            return replace(crawled, rendered=True, problem="no metadata, even after running its scripts")
        return replace(crawled, records=records, rendered=True, problem=None)


def _crawled(page: Page, records: list[Record]) -> CrawledPage:
    return CrawledPage(
        page.url,
        page.final_url,
        tuple(records),
        problem=None if records else "no bibliographic metadata",
        truncated=page.truncated,
    )
