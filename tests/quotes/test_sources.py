"""Sources: local files (text, HTML, a PDF made here), URLs, DOIs and arXiv ids from a loopback server, what
cannot be read (with the reason), versions (SHA-256, fetch time), stored copies and link checks."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

import httpx

from refhound.net.http import HttpPool, make_client
from refhound.quotes.fetch import OFFLINE, SourceFetcher, quotes_policy
from refhound.quotes.links import check_file_link, check_link
from refhound.quotes.models import LinkStatus, SourceText, Target, Unresolved
from refhound.quotes.textof import html_pdf_link, html_to_text
from refhound.settings import Settings
from tests.quotes.conftest import SOURCE_TEXT, make_pdf, pdf_bytes
from tests.web.servers import Route, SiteServer, redirect


def fetch(settings: Settings, *targets: Target) -> list[SourceText | Unresolved]:
    async def run() -> list[SourceText | Unresolved]:
        pool = None if settings.check.offline else HttpPool(make_client(settings))
        try:
            fetcher = SourceFetcher(settings, pool)
            return [await fetcher.get(target) for target in targets]
        finally:
            if pool is not None:
                await pool.aclose()

    return asyncio.run(run())


def test_local_text_html_and_pdf(tmp_path: Path, offline: Settings) -> None:
    (tmp_path / "a.txt").write_text(SOURCE_TEXT, encoding="utf-8")
    (tmp_path / "b.html").write_text(
        "<html><head><title>T</title><style>p{}</style></head><body><script>var x = 'no';</script>"
        "<p>First paragraph &amp; more.</p><p>Second<br>line.</p></body></html>",
        encoding="utf-8",
    )
    make_pdf(tmp_path / "c.pdf", ["The court held that the defendant was not", "liable for the damages."])
    text, html, pdf = fetch(
        offline, *(Target("file", str(tmp_path / n)) for n in ("a.txt", "b.html", "c.pdf"))
    )
    assert isinstance(text, SourceText) and text.text == SOURCE_TEXT
    assert text.sha256 == hashlib.sha256(SOURCE_TEXT.encode()).hexdigest() and text.fetched_at
    assert isinstance(html, SourceText) and html.text == "First paragraph & more.\n\nSecond\nline."
    assert isinstance(pdf, SourceText) and "defendant was not\nliable" in pdf.text
    assert pdf.sha256 == hashlib.sha256((tmp_path / "c.pdf").read_bytes()).hexdigest()


def test_unreadable_local_sources_say_why(tmp_path: Path, offline: Settings) -> None:
    (tmp_path / "empty.txt").write_text("   \n", encoding="utf-8")
    (tmp_path / "blob.bin").write_bytes(bytes(range(256)) * 10)
    (tmp_path / "bad.pdf").write_bytes(b"%PDF-1.4 garbage")
    targets = [
        Target("file", str(tmp_path / name)) for name in ("missing.txt", "empty.txt", "blob.bin", "bad.pdf")
    ]
    reasons = [r.reason for r in fetch(offline, *targets) if isinstance(r, Unresolved)]
    assert len(reasons) == 4
    assert reasons[0] == "no such file"
    assert reasons[1] == "empty source"
    assert reasons[2].startswith("binary content")
    assert "PDF" in reasons[3] or "corrupt" in reasons[3]


def test_too_large_local_source(tmp_path: Path, offline: Settings) -> None:
    offline.quotes.max_source_bytes = 1024
    (tmp_path / "big.txt").write_text("x " * 2000, encoding="utf-8")
    (result,) = fetch(offline, Target("file", str(tmp_path / "big.txt")))
    assert isinstance(result, Unresolved) and "larger than" in result.reason


def test_offline_network_targets_are_unresolved_with_the_reason(offline: Settings) -> None:
    results = fetch(
        offline,
        Target("url", "https://example.org/a"),
        Target("doi", "10.1/x"),
        Target("arxiv", "2005.14165"),
    )
    assert all(isinstance(r, Unresolved) and r.reason == OFFLINE for r in results)
    assert OFFLINE.startswith("offline")


def test_url_html_and_pdf_from_a_loopback_server(server: SiteServer, online: Settings) -> None:
    server.add("/page", Route(f"<html><body><p>{SOURCE_TEXT}</p></body></html>".encode()))
    server.add("/paper.pdf", Route(pdf_bytes(["A line of a PDF source."]), content_type="application/pdf"))
    server.add("/moved", redirect("/page", 301))
    page, pdf, moved = fetch(
        online,
        Target("url", server.url + "/page"),
        Target("url", server.url + "/paper.pdf"),
        Target("url", server.url + "/moved"),
    )
    assert isinstance(page, SourceText) and page.text == SOURCE_TEXT and page.url == server.url + "/page"
    assert page.content_type and page.content_type.startswith("text/html")
    assert isinstance(pdf, SourceText) and pdf.text == "A line of a PDF source."
    assert isinstance(moved, SourceText) and moved.text == SOURCE_TEXT


def test_unfetchable_url_is_unresolved_not_empty(server: SiteServer, online: Settings) -> None:
    server.add("/broken", Route(b"oops", 500, "text/plain"))
    missing, broken, refused = fetch(
        online,
        Target("url", server.url + "/missing"),
        Target("url", server.url + "/broken"),
        Target("url", "http://127.0.0.1:9/closed"),
    )
    assert isinstance(missing, Unresolved) and "HTTP 404" in missing.reason
    assert isinstance(broken, Unresolved) and "HTTP 500" in broken.reason
    assert isinstance(refused, Unresolved) and refused.reason.startswith("cannot be fetched")


def test_doi_resolves_to_the_full_text_the_landing_page_declares(
    server: SiteServer, online: Settings
) -> None:
    meta = f'<meta name="citation_pdf_url" content="{server.url}/full.pdf">'
    landing = f"<html><head>{meta}</head><body>Abstract only.</body></html>"
    server.add("/doi/10.1234/abc", redirect("/landing", 302))
    server.add("/landing", Route(landing.encode()))
    server.add(
        "/full.pdf", Route(pdf_bytes(["The full text of the article."]), content_type="application/pdf")
    )
    (source,) = fetch(online, Target("doi", "10.1234/abc"))
    assert isinstance(source, SourceText)
    assert (source.locator, source.text, source.url) == (
        "doi:10.1234/abc",
        "The full text of the article.",
        server.url + "/full.pdf",
    )


def test_doi_without_full_text_reads_the_landing_page_with_a_warning(
    server: SiteServer, online: Settings
) -> None:
    server.add("/doi/10.1234/xyz", Route(b"<html><body><p>Only the abstract is here.</p></body></html>"))
    (source,) = fetch(online, Target("doi", "10.1234/xyz"))
    assert isinstance(source, SourceText) and source.text == "Only the abstract is here."
    assert "landing page" in source.warnings[0]


def test_arxiv_ids_and_abs_urls_read_the_pdf(server: SiteServer, online: Settings) -> None:
    server.add(
        "/arxiv/pdf/2005.14165",
        Route(pdf_bytes(["Language models are few-shot learners."]), content_type="application/pdf"),
    )
    by_id, by_page, by_doi = fetch(
        online,
        Target("arxiv", "2005.14165"),
        Target("url", "https://arxiv.org/abs/2005.14165v2"),
        Target("doi", "10.48550/arxiv.2005.14165"),
    )
    for source in (by_id, by_page, by_doi):
        assert isinstance(source, SourceText) and source.text == "Language models are few-shot learners."
    assert server.paths().count("/arxiv/pdf/2005.14165") == 3  # three locators, each read once


def test_arxiv_that_gives_no_pdf(server: SiteServer, online: Settings) -> None:
    server.add("/arxiv/pdf/2101.00001", Route(b"<html>not a pdf</html>"))
    (source,) = fetch(online, Target("arxiv", "2101.00001"))
    assert isinstance(source, Unresolved) and "no PDF" in source.reason


def test_each_locator_is_fetched_once(server: SiteServer, online: Settings) -> None:
    server.add("/page", Route(b"<p>Some text of the page.</p>"))
    target = Target("url", server.url + "/page")
    fetch(online, target, target, target)
    assert server.paths() == ["/page"]


def test_stored_copies_carry_a_manifest(server: SiteServer, online: Settings, tmp_path: Path) -> None:
    online.quotes.store_dir = tmp_path / "store"
    server.add("/page", Route(b"<p>Kept text.</p>"))
    (source,) = fetch(online, Target("url", server.url + "/page"))
    assert isinstance(source, SourceText)
    assert (tmp_path / "store" / f"{source.sha256}.bin").read_bytes() == b"<p>Kept text.</p>"
    (line,) = (tmp_path / "store" / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["url"] == server.url + "/page"


def test_link_check_reports_status_final_url_and_type(server: SiteServer, online: Settings) -> None:
    server.add("/old", redirect("/new", 301))
    server.add("/new", Route(b"<p>here</p>"))
    server.add("/loop", redirect("/loop", 302))

    async def run() -> list[LinkStatus]:
        pool = HttpPool(make_client(online))
        policy = quotes_policy(online)
        try:
            return [
                await check_link(pool, server.url + "/old", policy),
                await check_link(pool, server.url + "/gone", policy),
                await check_link(pool, "http://127.0.0.1:9/", policy),
                await check_link(None, server.url + "/old", policy),
                await check_link(pool, server.url + "/loop", policy),
            ]
        finally:
            await pool.aclose()

    moved, gone, refused, offline, loop = asyncio.run(run())
    assert (moved.status, moved.final_url, moved.content_type) == (
        200,
        server.url + "/new",
        "text/html; charset=utf-8",
    )
    assert gone.status == 404 and gone.error is None
    assert refused.status is None and refused.error
    assert offline.error is not None and offline.error.startswith("offline")
    assert loop.error == "more than 10 redirects"


def test_file_link_check(tmp_path: Path) -> None:
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
    present = check_file_link(Target("file", str(tmp_path / "a.pdf")), "a.pdf")
    missing = check_file_link(Target("file", str(tmp_path / "b.pdf")), "b.pdf")
    assert present.final_url == (tmp_path / "a.pdf").as_uri() and present.content_type == "application/pdf"
    assert missing.error == "no such file"


def test_html_helpers() -> None:
    page = b'<html><head><meta charset="latin-1"><meta name="citation_pdf_url" content="https://x.org/a.pdf"></head><body><div>caf\xe9</div></body></html>'
    assert html_pdf_link(page) == "https://x.org/a.pdf"
    assert html_to_text(page) == "café"
    # "latin-1" pages use Windows-1252's curly quotes, as browsers read them
    quoted = b'<html><head><meta charset="iso-8859-1"></head><body><p>\x93it was clear\x94</p></body></html>'
    assert html_to_text(quoted) == "\u201cit was clear\u201d"


def test_mock_transport_is_used_when_given() -> None:
    settings = Settings()
    settings.check.offline = False

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, headers={"Content-Type": "text/plain"}, text="Served by the mock transport."
        )

    async def run() -> SourceText | Unresolved:
        pool = HttpPool(make_client(settings, httpx.MockTransport(handler)))
        try:
            return await SourceFetcher(settings, pool).get(Target("url", "https://example.org/x"))
        finally:
            await pool.aclose()

    source = asyncio.run(run())
    assert isinstance(source, SourceText) and source.text == "Served by the mock transport."


def test_hosts_that_are_down_do_not_block_another_host(server: SiteServer, online: Settings) -> None:
    for number in range(4):
        server.add(f"/down{number}", Route(b"unavailable", 503, "text/plain"))
    with SiteServer({"/up": Route(b"<p>The other host answers.</p>")}) as other:
        *down, up = fetch(
            online,
            *(Target("url", f"{server.url}/down{n}") for n in range(4)),
            Target("url", other.url + "/up"),
        )
    assert all(isinstance(result, Unresolved) for result in down)
    assert isinstance(up, SourceText) and up.text == "The other host answers."


def test_a_store_that_cannot_be_written_is_a_warning(
    server: SiteServer, online: Settings, tmp_path: Path
) -> None:
    (tmp_path / "store").write_text("a file where the directory should be", encoding="utf-8")
    online.quotes.store_dir = tmp_path / "store"
    server.add("/page", Route(b"<p>Kept text.</p>"))
    (source,) = fetch(online, Target("url", server.url + "/page"))
    assert isinstance(source, SourceText) and source.text == "Kept text."
    assert source.warnings and source.warnings[0].startswith("not kept in")
