"""The page says one thing at a time: an offline server's page, a run with nothing flagged but references it
could not check, the summary bar, sorting and filtering, the reference ids, and the favicon (Chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from refhound.index.store import IndexStore
from refhound.quotes.evaluate.confidence import FACTORS
from refhound.server.app import ServerState
from refhound.server.config import ServerLimits
from refhound.server.runtime import CheckRuntime
from refhound.settings import Settings
from refhound.web.browser import CHROMIUM_ARGS
from tests.quotes.rubric_llm import RubricLLMServer, answer
from tests.server.conftest import VERIFIED, Server
from tests.server.live import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
UNKNOWN = [  # real-looking works of venues and years the small index does not hold: unverified offline
    "Jane Roe and John Poe. Sparse retrieval for long scientific documents. In SIGIR, 2024.",
    "Ann Lee. A survey of citation checking. Journal of Documentation, 2023.",
]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.is_file(), reason="Debian's chromium is not installed at /usr/bin/chromium"
)


@contextmanager
def _serving(small_index: Path, tmp_path: Path, llm_url: str | None = None) -> Iterator[LiveServer]:
    """The offline server; with `llm_url`, its quote checks ask that LLM (verdicts cached under tmp_path)."""
    settings = Settings(check={"offline": True})
    settings.memory.enabled = False
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    store = IndexStore.open(small_index)
    runtime = CheckRuntime(settings, store)
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    state = ServerState(runtime, ServerLimits(), upload_parent=uploads)
    state.quotes.settings.llm.base_url = llm_url
    state.quotes.settings.quotes.evaluation_cache = tmp_path / "verdicts.sqlite"
    try:
        with LiveServer(Server(state).app) as running:
            yield running
    finally:
        state.close()
        runtime.close()


@pytest.fixture()
def offline_server(small_index: Path, tmp_path: Path) -> Iterator[LiveServer]:
    with _serving(small_index, tmp_path) as running:
        yield running


def test_nothing_flagged_but_unchecked_references_is_said_as_such(offline_server: LiveServer) -> None:
    from playwright.sync_api import expect, sync_playwright

    pasted = "\n".join(f"[{n}] {text}" for n, text in enumerate([VERIFIED, *UNKNOWN], 1))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            failed: list[str] = []
            page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
            page.goto(offline_server.url + "/")
            expect(page.locator("#health")).to_contain_text("offline")
            # The server never uses the network: the box is ticked and cannot be unticked.
            expect(page.locator("#offline")).to_be_checked()
            expect(page.locator("#offline")).to_be_disabled()
            page.fill("#pasted", pasted)
            page.click("#check")
            status = page.locator("#status")
            expect(status).to_contain_text("done: 3 references checked", timeout=60_000)
            # Nothing flagged, two that could not be checked: the line and the lists agree.
            expect(status).to_contain_text("none flagged; 2 could not be checked")
            expect(page.locator("#problems-title")).to_have_text("To review (2 of 2)")
            expect(page.locator("#problems > li")).to_have_count(2)
            for item in page.locator("#problems > li").all():
                expect(item).to_have_attribute("data-group", "unverified")
            expect(page.locator("#verified > li")).to_have_count(1)
            # The summary bar: a segment per group, its counts adding up to the references.
            segments = page.locator("#summary button")
            expect(segments).to_have_count(2)
            assert sorted(segments.all_inner_texts()) == ["unverified 2", "verified 1"]
            # An id reads as the manuscript numbers it, not as a count.
            expect(page.locator("#problems .refid").first).to_have_text("[2]")
            # Sorting by input order, and filtering by text.
            page.select_option("#sort", "order")
            assert page.locator("#problems > li").first.get_attribute("data-id") == "2"
            page.fill("#find", "survey of citation")
            expect(page.locator("#problems > li")).to_have_count(1)
            page.fill("#find", "")
            page.select_option("#show", "flagged")
            expect(page.locator("#problems > li")).to_have_count(0)
            assert failed == [], failed  # the favicon included
        finally:
            browser.close()


def test_a_changed_number_is_red_and_evaluators_without_an_llm_say_they_did_not_run(
    offline_server: LiveServer, tmp_path: Path
) -> None:
    from playwright.sync_api import expect, sync_playwright

    source = tmp_path / "bleu.txt"
    source.write_text("The model reaches 28.4 BLEU on English-to-German translation.\n", encoding="utf-8")
    memo = tmp_path / "memo.md"
    memo.write_text(
        'They report that "the model reaches 32.4 BLEU on English-to-German translation" '
        "[Vaswani](bleu.txt).\n",
        encoding="utf-8",
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
        try:
            page = browser.new_page()
            page.goto(offline_server.url + "/")
            page.click("#tab-quotes")
            page.set_input_files("#q-document", str(memo))
            page.set_input_files("#q-sources", str(source))
            page.check("#q-evaluate")
            page.click("#q-check")
            expect(page.locator("#q-status")).to_contain_text("1 quote checked", timeout=30_000)
            quote = page.locator("#q-results > li")
            expect(quote).to_have_class("quote altered")  # red, whatever its status
            expect(quote.locator(".alterations")).to_contain_text("number")
            expect(quote.locator("strong").first).to_have_text("Vaswani ")  # no Markdown link syntax
            evaluations = quote.locator(".evaluation")
            expect(evaluations).to_have_count(3)
            for evaluation in evaluations.all():
                expect(evaluation).to_contain_text("not run")
        finally:
            browser.close()


def test_the_quotes_tab_shows_each_verdict_its_explanation_and_the_confidence(
    small_index: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import expect, sync_playwright

    source = tmp_path / "resnet.txt"
    source.write_text(
        "We find that the residual networks are easier to optimize and gain accuracy from depth.\n",
        encoding="utf-8",
    )
    memo = tmp_path / "memo.md"
    memo.write_text(
        "Residual networks beat rivals on speed, as He et al. write: "
        '"the residual networks are easier to optimize and gain accuracy from depth" [1].\n\n'
        "[1]: resnet.txt\n",
        encoding="utf-8",
    )
    with RubricLLMServer() as llm, _serving(small_index, tmp_path, llm.url) as served:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
            try:
                page = browser.new_page()
                page.goto(served.url + "/")
                page.click("#tab-quotes")
                page.set_input_files("#q-document", str(memo))
                page.set_input_files("#q-sources", str(source))
                page.check("#q-evaluate")
                page.click("#q-check")
                expect(page.locator("#q-status")).to_contain_text("1 quote checked", timeout=60_000)
                quote = page.locator("#q-results > li")
                confidence = 1.0
                # Each evaluator's verdict and explanation, as the model gave them.
                for request in llm.requests:
                    name = request["response_format"]["json_schema"]["name"]
                    reply = answer(name, request["messages"][1]["content"])
                    shown = quote.locator(f'.evaluation[data-evaluator="{name}"]')
                    verdict = reply["verdict"].replace("_", " ")
                    expect(shown).to_have_text(f"{name}: {verdict} — {reply['explanation']}")
                    confidence *= FACTORS[name][reply["verdict"]]
                # The stand-in finds the speed claim relevant, not entailed, not supported.
                assert 0 < confidence < 1
                expect(quote).to_contain_text(f"confidence {confidence:.2f}")
                expect(page.locator("#q-summary .confidence")).to_have_text(
                    f"document confidence {confidence:.2f}"
                )
            finally:
                browser.close()
        assert len(llm.requests) == 3  # one per evaluator
