"""Pages whose metadata is built by JavaScript: rendered in the real Chromium (Debian's /usr/bin/chromium)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from refhound.net.fetch import PageFetcher
from refhound.net.http import make_client
from refhound.settings import Settings
from refhound.web.browser import Browser
from refhound.web.crawl import CrawledPage, Crawler
from refhound.web.runtime import WebRuntime
from tests.web import pages
from tests.web.conftest import web_settings
from tests.web.servers import SiteServer, html

CHROMIUM = Path("/usr/bin/chromium")
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.is_file(), reason="Debian's chromium is not installed at /usr/bin/chromium"
)


def crawl_one(settings: Settings, url: str, executable: Path = CHROMIUM) -> tuple[CrawledPage, Browser]:
    async def main() -> tuple[CrawledPage, Browser]:
        async with make_client(settings) as client:
            fetcher = PageFetcher(client, settings.web)
            browser = Browser(executable, client, timeout_s=20.0, max_chars=settings.web.max_page_bytes)
            try:
                return await Crawler(fetcher, browser, settings.web.use_browser).page(url), browser
            finally:
                await browser.close()

    return asyncio.run(main())


@needs_chromium
def test_metadata_built_by_javascript_is_read_in_chromium(site: SiteServer) -> None:
    url = site.add("/app/gpt3", html(pages.SCRIPT_BUILT))
    crawled, browser = crawl_one(web_settings(), url)
    assert crawled.rendered
    assert crawled.problem is None
    (record,) = crawled.records
    assert record.title == "Language Models are Few-Shot Learners"
    assert record.authors == ["Tom B. Brown", "Benjamin Mann", "Nick Ryder"]
    assert (record.year, record.arxiv_id) == (2020, "2005.14165")
    assert browser.pages_rendered == 1
    assert site.paths().count("/app/gpt3") == 2  # once over HTTP, once in Chromium
    assert not browser.started  # closed at the end


@needs_chromium
def test_the_runtime_renders_on_its_own_loop_thread_and_closes_chromium(site: SiteServer) -> None:
    url = site.add("/app/gpt3", html(pages.SCRIPT_BUILT))
    runtime = WebRuntime(web_settings())
    try:
        assert not runtime.browser_started  # started only when a page needs it
        plain = runtime.fetch(site.add("/abs", html(pages.ARXIV_ABS)))
        assert plain.records and not plain.rendered and not runtime.browser_started
        crawled = runtime.fetch(url)
        assert crawled.rendered and [r.arxiv_id for r in crawled.records] == ["2005.14165"]
        assert runtime.browser_started
    finally:
        runtime.close()
    assert not runtime.browser_started


def test_pages_with_served_metadata_never_start_the_browser(site: SiteServer) -> None:
    crawled, browser = crawl_one(web_settings(), site.add("/abs", html(pages.ARXIV_ABS)))
    assert crawled.records and not crawled.rendered
    assert browser.pages_rendered == 0


def test_a_page_with_text_but_no_metadata_is_not_rendered(site: SiteServer) -> None:
    crawled, browser = crawl_one(web_settings(), site.add("/blog", html(pages.NO_METADATA)))
    assert crawled.records == () and crawled.problem == "no bibliographic metadata"
    assert browser.pages_rendered == 0


def test_never_means_httpx_only(site: SiteServer) -> None:
    crawled, browser = crawl_one(
        web_settings(use_browser="never"), site.add("/app", html(pages.SCRIPT_BUILT))
    )
    assert crawled.records == () and not crawled.rendered
    assert browser.pages_rendered == 0


def test_a_missing_chromium_is_a_reason_not_a_crash(
    site: SiteServer, caplog: pytest.LogCaptureFixture
) -> None:
    url = site.add("/app", html(pages.SCRIPT_BUILT))
    crawled, _ = crawl_one(web_settings(), url, executable=Path("/nonexistent/chromium"))
    assert crawled.records == ()
    assert crawled.problem == (
        "no metadata without JavaScript; no Chromium at /nonexistent/chromium (web.chromium_path)"
    )
    assert "no Chromium at /nonexistent/chromium" in caplog.text
