"""Fetching and crawling pages on a loopback site: robots.txt, budget, caps, charsets, redirects, binaries."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from refhound.net.fetch import Page, PageFetcher, robots_agent
from refhound.net.http import user_agent
from refhound.settings import Settings
from refhound.web.crawl import CrawlBudget, CrawledPage, Crawler
from tests.web import pages
from tests.web.conftest import run_with_fetcher, web_settings
from tests.web.servers import Route, SiteServer, html, redirect


def fetch(settings: Settings, url: str) -> Page:
    return run_with_fetcher(settings, lambda fetcher: fetcher.fetch(url))


def fetch_all(settings: Settings, *urls: str) -> list[Page]:
    async def work(fetcher: PageFetcher) -> list[Page]:
        return list(await asyncio.gather(*(fetcher.fetch(url) for url in urls)))

    return run_with_fetcher(settings, work)


def crawl(settings: Settings, urls: list[str], budget: int) -> tuple[list[CrawledPage], int]:
    async def work(fetcher: PageFetcher) -> tuple[list[CrawledPage], int]:
        return await Crawler(fetcher, None).crawl(urls, CrawlBudget(budget))

    return run_with_fetcher(settings, work)


ROBOTS = b"""# robots.txt as sites write them
User-agent: Googlebot
Disallow:

User-agent: *
Disallow: /private/
Disallow: /*.pdf$
Allow: /private/open-paper
"""


def test_robots_txt_is_honoured_and_asked_once_per_site(site: SiteServer) -> None:
    site.add("/robots.txt", Route(ROBOTS, content_type="text/plain"))
    public = site.add("/papers/deep-learning", html(pages.PUBLISHER_CITATION))
    private = site.add("/private/draft", html(pages.ARXIV_ABS))
    opened = site.add("/private/open-paper", html(pages.ACL_PAPER))
    pdf = site.add("/papers/deep-learning.pdf", Route(b"%PDF-1.7", content_type="application/pdf"))
    got = fetch_all(web_settings(), public, private, opened, pdf)
    assert [page.html is not None for page in got] == [True, False, True, False]
    assert got[1].problem == f"disallowed by {site.url}/robots.txt"
    assert not got[1].unreachable
    assert site.paths().count("/robots.txt") == 1
    assert "/private/draft" not in site.paths()
    assert "/papers/deep-learning.pdf" not in site.paths()


def test_robots_txt_is_ignored_when_switched_off(site: SiteServer) -> None:
    site.add("/robots.txt", Route(ROBOTS, content_type="text/plain"))
    private = site.add("/private/draft", html(pages.ARXIV_ABS))
    assert fetch(web_settings(respect_robots=False), private).html is not None
    assert "/robots.txt" not in site.paths()


def test_a_robots_txt_that_does_not_answer_forbids_the_site(site: SiteServer) -> None:
    site.add("/robots.txt", Route(b"<html>503 Service Unavailable</html>", 503))
    page = fetch(web_settings(), site.add("/paper", html(pages.ARXIV_ABS)))
    assert page.html is None
    assert page.problem is not None and "answered HTTP 503" in page.problem
    assert "/paper" not in site.paths()


def test_no_robots_txt_allows_everything(site: SiteServer) -> None:
    page = fetch(web_settings(), site.add("/paper", html(pages.ARXIV_ABS)))  # /robots.txt is a 404
    assert page.html is not None and page.problem is None
    assert site.paths() == ["/robots.txt", "/paper"]


def test_a_crawl_delay_spaces_the_sites_requests(site: SiteServer) -> None:
    site.add("/robots.txt", Route(b"User-agent: *\nCrawl-delay: 0.4\n", content_type="text/plain"))
    urls = [site.add(f"/p{i}", html(pages.ARXIV_ABS)) for i in range(3)]
    fetch_all(web_settings(), *urls)
    times = [r.at for r in site.requests if r.path.startswith("/p")]
    assert len(times) == 3
    gaps = [b - a for a, b in zip(sorted(times), sorted(times)[1:], strict=False)]
    assert min(gaps) >= 0.35


def test_the_budget_limits_the_pages_fetched_per_reference(site: SiteServer) -> None:
    urls = [site.add(f"/paper/{i}", html(pages.ARXIV_ABS)) for i in range(5)]
    crawled, left = crawl(web_settings(), [*urls, urls[0] + "#dup"], budget=2)
    assert [c.url for c in crawled] == urls[:2]
    assert left == 3
    assert sorted(p for p in site.paths() if p.startswith("/paper/")) == ["/paper/0", "/paper/1"]
    assert all(c.records for c in crawled)


def test_a_zero_budget_fetches_nothing(site: SiteServer) -> None:
    crawled, left = crawl(web_settings(), [site.add("/a", html(pages.ARXIV_ABS))], budget=0)
    assert (crawled, left) == ([], 1)
    assert site.paths() == []


def test_a_huge_page_is_cut_at_the_cap_and_its_head_still_read(site: SiteServer) -> None:
    head = pages.PUBLISHER_CITATION.split("<body>")[0] + "<body>"
    url = site.add("/huge", Route(head.encode(), stream=50 * 1024 * 1024))
    settings = web_settings(max_page_bytes=64 * 1024)
    started = time.monotonic()
    crawled, _ = crawl(settings, [url], budget=1)
    assert time.monotonic() - started < 5
    assert crawled[0].truncated
    assert [r.title for r in crawled[0].records] == ["Deep learning"]
    page = fetch(settings, url)
    assert page.html is not None and len(page.html.encode()) <= 64 * 1024 + 3


def test_a_declared_huge_binary_is_not_read(site: SiteServer) -> None:
    url = site.add(
        "/paper.bin", Route(b"%PDF-1.7\n", content_type="application/pdf", stream=20 * 1024 * 1024)
    )
    page = fetch(web_settings(), url)
    assert page.html is None
    assert page.problem is not None and page.problem.startswith("not an HTML page (application/pdf")
    assert not page.unreachable


@pytest.mark.parametrize(
    ("route", "problem"),
    [
        (
            Route(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", content_type="image/png"),
            "not an HTML page (image/png",
        ),
        (Route(b"\x00\x01\x02\x03binary", content_type="application/octet-stream"), "not an HTML page"),
        (Route(b"\x00\x01\x02\x03binary", content_type=""), "not an HTML page (no content type"),
        (
            Route(b'{"title": "Attention"}', content_type="application/json"),
            "not an HTML page (application/json",
        ),
        (Route(b"", content_type="text/html"), "no bibliographic metadata"),
    ],
)
def test_answers_without_html(site: SiteServer, route: Route, problem: str) -> None:
    crawled, _ = crawl(web_settings(), [site.add("/x", route)], budget=1)
    assert crawled[0].records == ()
    assert crawled[0].problem is not None and crawled[0].problem.startswith(problem)


def test_html_served_as_text_plain_is_sniffed(site: SiteServer) -> None:
    crawled, _ = crawl(web_settings(), [site.add("/x", html(pages.ACL_PAPER, content_type="text/plain"))], 1)
    assert [r.doi for r in crawled[0].records] == ["10.18653/v1/n19-1423"]


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        # Latin-1 declared in the header only.
        (
            "<html><head><meta name='citation_title' content='Über die Vollständigkeit des Logikkalküls'>"
            "<meta name='citation_author' content='Gödel, Kurt'></head></html>".encode("latin-1"),
            "text/html; charset=ISO-8859-1",
        ),
        # Windows-1252 declared in a meta tag only.
        (
            "<html><head><meta http-equiv='Content-Type' content='text/html; charset=windows-1252'>"
            "<meta name='citation_title' content='Über die Vollständigkeit des Logikkalküls'>"
            "<meta name='citation_author' content='Gödel, Kurt'></head></html>".encode("cp1252"),
            "text/html",
        ),
        # Not declared at all, and not UTF-8.
        (
            "<html><head><meta name='citation_title' content='Über die Vollständigkeit des Logikkalküls'>"
            "<meta name='citation_author' content='Gödel, Kurt'></head></html>".encode("cp1252"),
            "text/html",
        ),
    ],
)
def test_non_utf8_pages_are_decoded(site: SiteServer, body: bytes, content_type: str) -> None:
    crawled, _ = crawl(web_settings(), [site.add("/goedel", Route(body, content_type=content_type))], 1)
    (record,) = crawled[0].records
    assert record.title == "Über die Vollständigkeit des Logikkalküls"
    assert record.authors == ["Kurt Gödel"]


def test_a_shift_jis_page(site: SiteServer) -> None:
    body = (
        '<html><head><meta charset="Shift_JIS"><meta name="citation_title" content="深層学習による画像認識">'
        '<meta name="citation_author" content="山田 太郎"></head></html>'
    ).encode("shift_jis")
    crawled, _ = crawl(web_settings(), [site.add("/jp", Route(body, content_type="text/html"))], 1)
    assert [r.title for r in crawled[0].records] == ["深層学習による画像認識"]


def test_redirects_are_followed_and_each_hop_checked(site: SiteServer) -> None:
    site.add("/robots.txt", Route(b"User-agent: *\nDisallow: /hidden\n", content_type="text/plain"))
    site.add("/doi/10.1038/nature14539", redirect("/articles/nature14539", 301))
    site.add("/articles/nature14539", html(pages.PUBLISHER_CITATION))
    page = fetch(web_settings(), site.url + "/doi/10.1038/nature14539")
    assert page.final_url == site.url + "/articles/nature14539"
    assert page.html is not None
    site.add("/to-hidden", redirect(site.url + "/hidden/paper"))
    hidden = fetch(web_settings(), site.url + "/to-hidden")
    assert hidden.problem == f"disallowed by {site.url}/robots.txt"
    assert "/hidden/paper" not in site.paths()


def test_a_redirect_loop_is_reported_not_followed_forever(site: SiteServer) -> None:
    site.add("/a", redirect("/b"))
    site.add("/b", redirect("/a"))
    page = fetch(web_settings(), site.url + "/a")
    assert page.problem == f"redirect loop: {site.url}/a → {site.url}/b → {site.url}/a"
    assert not page.unreachable
    assert site.paths().count("/a") == 1


def test_too_many_redirects(site: SiteServer) -> None:
    for i in range(10):
        site.add(f"/hop{i}", redirect(f"/hop{i + 1}", 307))
    page = fetch(web_settings(max_redirects=3), site.url + "/hop0")
    assert page.problem == "more than 3 redirects"
    assert [p for p in site.paths() if p.startswith("/hop")] == ["/hop0", "/hop1", "/hop2", "/hop3"]


def test_a_redirect_to_another_scheme_is_refused(site: SiteServer) -> None:
    site.add("/ftp", redirect("ftp://example.org/paper.pdf"))
    assert fetch(web_settings(), site.url + "/ftp").problem == (
        "not a web address (ftp): ftp://example.org/paper.pdf"
    )


def test_silence_and_answers_are_told_apart(site: SiteServer) -> None:
    missing = fetch(web_settings(), site.url + "/missing")
    assert (missing.problem, missing.unreachable) == ("HTTP 404", False)
    down = fetch(web_settings(), site.add("/down", Route(b"busy", 503)))
    assert (down.problem, down.unreachable) == ("HTTP 503", True)
    slow = fetch(web_settings(crawl_timeout_s=0.3), site.add("/slow", Route(b"<html></html>", delay_s=2)))
    assert slow.unreachable and slow.problem == "no answer within 0.3 s"
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    refused = fetch(web_settings(respect_robots=False), f"http://127.0.0.1:{port}/paper")
    assert refused.unreachable and refused.problem is not None and "ConnectError" in refused.problem


def test_the_robots_agent_is_the_user_agents_product_token() -> None:
    assert robots_agent("refhound/0.1 (mailto:me@example.org)") == "refhound"
    assert robots_agent("") == "*"
    assert robots_agent(user_agent(web_settings().sources)) == "refhound"
