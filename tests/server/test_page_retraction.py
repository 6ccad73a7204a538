"""The page's mark of a cited work that was retracted or is under concern, in Chromium, from a check of
an index built from the Retraction Watch CSV WRITTEN FROM its documented header (tests/retractions)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.index.ingest.retraction_watch import read_retraction_watch
from refhound.index.store import IndexStore
from refhound.server.app import ServerState
from refhound.server.config import ServerLimits
from refhound.server.runtime import CheckRuntime
from refhound.settings import Settings
from refhound.web.browser import CHROMIUM_ARGS
from tests.server.conftest import Server
from tests.server.live import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
FIXTURE = Path(__file__).parents[1] / "retractions" / "fixtures" / "retraction-watch-written-from-header.csv"
PASTED = (
    "[1] Ada Example and Bo Sample. A Retracted Example Paper. Journal of Examples, 2019. "
    "doi:10.5555/rw.paper.1\n"
    "[2] Cy Case. An Example Under Concern. Journal of Examples, 2022. doi:10.5555/rw.paper.2\n"
)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.is_file(), reason="Debian's chromium is not installed at /usr/bin/chromium"
)


@pytest.fixture()
def marked_server(tmp_path: Path) -> Iterator[LiveServer]:
    index = tmp_path / "index.db"
    with IndexStore.create(index) as store:
        store.ingest(read_retraction_watch(FIXTURE))
    settings = Settings(check={"offline": True})
    settings.memory.enabled = False
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    runtime = CheckRuntime(settings, IndexStore.open(index))
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    state = ServerState(runtime, ServerLimits(), upload_parent=uploads)
    try:
        with LiveServer(Server(state).app) as running:
            yield running
    finally:
        state.close()
        runtime.close()


def test_a_retracted_work_and_one_under_concern_are_marked_with_notice_and_date(
    marked_server: LiveServer,
) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(marked_server.url + "/")
            page.fill("#pasted", PASTED)
            page.click("#check")
            expect(page.locator("#status")).to_contain_text("done: 2 references checked", timeout=60_000)
            status = page.locator("#status")
            expect(status).to_contain_text("2 cited works retracted, withdrawn or under concern")
            # Both citations are right, so they are listed under "Verified": that fold opens on the marks.
            expect(page.locator("#verified-box details")).to_have_attribute("open", "")
            retracted = page.locator('li.ref[data-id="1"] .retraction')
            expect(retracted).to_be_visible()
            expect(retracted).to_have_text(
                "the cited work is retracted on 2021-06-02 · notice 10.5555/rw.notice.1 (retraction-watch)"
            )
            link = retracted.locator("a")
            expect(link).to_have_attribute("href", "https://doi.org/10.5555/rw.notice.1")
            # Said apart from the verdict: the citation itself is right.
            expect(page.locator('li.ref[data-id="1"]')).to_have_attribute("data-verdict", "verified")
            # The work under concern stands: said as such, with its notice and date.
            concern = page.locator('li.ref[data-id="2"] .retraction')
            expect(concern).to_have_text(
                "the cited work is under an expression of concern since 2023-02-01 · "
                "notice 10.5555/rw.notice.2 (retraction-watch)"
            )
            expect(concern.locator("a")).to_have_attribute("href", "https://doi.org/10.5555/rw.notice.2")
        finally:
            browser.close()
