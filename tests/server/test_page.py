"""The page in a real browser (Playwright driving Debian's Chromium) against uvicorn on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from refhound.web.browser import CHROMIUM_ARGS
from tests.server.conftest import FABRICATED, VERIFIED, Server, make_server
from tests.server.live import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
ARGS = list(CHROMIUM_ARGS)  # the web stage's own flags
WRONG_YEAR = "Sarthak Jain and Byron C. Wallace. Attention is not Explanation. In NAACL-HLT, 2018."
WRONG_AUTHOR = (
    "Kaiming He, Xiangyu Zhang, Wei Liu, and Jian Sun. Deep residual learning for image recognition. "
    "In IEEE Conference on Computer Vision and Pattern Recognition (CVPR), 2016."
)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.is_file(), reason="Debian's chromium is not installed at /usr/bin/chromium"
)


def manuscript(path: Path) -> Path:
    """A one-page paper whose reference list holds a real work, a wrong year, an author who is not one of
    the work's, and a fabricated work."""
    document = pymupdf.open()
    page = document.new_page()
    body = (
        "A Short Study of Attention\n\nWe build on transformers [1], on explanations of attention [2] and on "
        "recursive attention [3], after residual networks [4].\n\nReferences\n\n"
    )
    cited = [VERIFIED, WRONG_YEAR, FABRICATED, WRONG_AUTHOR]
    entries = "\n".join(f"[{n}] {text}" for n, text in enumerate(cited, 1))
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 770), body + entries, fontsize=10, fontname="helv")
    document.save(path)
    document.close()
    return path


@pytest.fixture()
def live(small_index: Path, tmp_path: Path) -> Iterator[tuple[Server, LiveServer]]:
    for server in make_server(small_index, tmp_path):
        with LiveServer(server.app) as running:
            yield server, running


def test_a_fabricated_reference_in_an_uploaded_pdf_is_marked(
    live: tuple[Server, LiveServer], tmp_path: Path
) -> None:
    from playwright.sync_api import expect, sync_playwright

    server, running = live
    pdf = manuscript(tmp_path / "paper.pdf")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page()
            requests: list[str] = []
            page.on("request", lambda request: requests.append(request.url))
            page.goto(running.url + "/")
            expect(page.locator("#health")).to_contain_text("index of 7 records")
            page.set_input_files("#files", str(pdf))
            page.click("#check")
            expect(page.locator("#status")).to_contain_text("done: 4 references checked", timeout=60_000)
            problems = page.locator("#problems > li")
            expect(problems).to_have_count(3)
            # Problems first, the most likely invented first, each with its likelihood's bar.
            likelihoods = [float(problems.nth(i).get_attribute("data-likelihood") or "nan") for i in range(3)]
            assert likelihoods == sorted(likelihoods, reverse=True), likelihoods
            expect(problems.first.locator(".likelihood .bar")).to_have_count(1)
            first = problems.filter(has_text="Recursive Residual Attention")
            expect(first).to_have_attribute("data-verdict", "fabricated")
            author = problems.filter(has_text="Wei Liu")
            expect(author).to_have_attribute("data-verdict", "metadata_error")
            expect(author.locator("mark.wrong")).to_have_text("Wei Liu")  # only the name that is wrong
            second = problems.filter(has_text="2018")
            expect(second).to_have_attribute("data-verdict", "metadata_error")
            mark = second.locator("mark")
            expect(mark).to_have_text("2018")  # the wrong field marked inside the cited string
            expect(second.locator(".correct")).to_have_text("2019")
            expect(second.locator("a")).to_have_attribute("href", "https://dblp.org/rec/conf/naacl/JainW19")
            expect(page.locator("#verified > li")).to_have_count(1)
            with page.expect_download() as download_info:
                page.click("#downloads button[data-format='md']")
            saved = download_info.value.path()
            assert "Recursive Residual Attention" in Path(saved).read_text(encoding="utf-8")
            page.click("text=HTTP API")  # the API reference, rendered from /openapi.json in the page
            expect(page.locator("#operations")).to_contain_text("POST /api/v1/check")
            expect(page.locator("#operations")).to_contain_text("unverified_as")
            # Neither page fetches anything from outside the server.
            assert all(url.startswith(running.url) or url.startswith("blob:") for url in requests), requests
        finally:
            browser.close()
    assert server.uploads_left() == []


def test_the_quotes_tab_checks_a_document(live: tuple[Server, LiveServer], tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    _, running = live
    source = tmp_path / "resnet.txt"
    source.write_text(
        "Residual networks are easier to optimize and gain accuracy from depth.\n", encoding="utf-8"
    )
    memo = tmp_path / "memo.md"
    memo.write_text(
        'They say "residual networks are easier to optimize and gain accuracy from depth" [1].\n\n'
        "[1]: resnet.txt\n",
        encoding="utf-8",
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page()
            page.goto(running.url + "/")
            page.click("#tab-quotes")
            page.set_input_files("#q-document", str(memo))
            page.set_input_files("#q-sources", str(source))
            page.click("#q-check")
            expect(page.locator("#q-status")).to_contain_text("1 quote checked", timeout=30_000)
            expect(page.locator("#q-results > li")).to_have_attribute("data-status", "verified")
        finally:
            browser.close()


def test_the_page_asks_for_the_token_of_a_guarded_server(small_index: Path, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    for server in make_server(small_index, tmp_path, token="page-token"):
        with LiveServer(server.app) as running, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                page = browser.new_page()
                page.goto(running.url + "/")
                expect(page.locator("#token-box")).to_be_visible()
                page.fill("#token", "page-token")
                page.click("#token-save")
                expect(page.locator("#health")).to_contain_text("index of 7 records")
                page.fill("#pasted", f"[1] {VERIFIED}")
                page.click("#check")
                expect(page.locator("#status")).to_contain_text("done: 1 reference checked", timeout=60_000)
                expect(page.locator("#verified > li")).to_have_count(1)
            finally:
                browser.close()
