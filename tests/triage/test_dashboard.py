"""The dashboard and the per-paper report: static HTML, escaped, and usable in a real browser (Chromium)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from refhound.index.store import IndexStore
from refhound.models import (
    FieldCheck,
    FieldStatus,
    ParsedFields,
    ReferenceResult,
    Report,
    Retraction,
    RetractionKind,
    Severity,
    Verdict,
)
from refhound.report.html import ReportHeader, marked_citation, render_html
from refhound.settings import Settings
from refhound.triage.dashboard import render_dashboard
from refhound.triage.pool import ProcessBackend
from refhound.triage.rows import checked_row
from refhound.triage.run import TriageOptions, run_triage
from refhound.web.browser import CHROMIUM_ARGS
from tests.triage.test_run import CLEAN_BIB, SUSPICIOUS_BIB

CHROMIUM = Path("/usr/bin/chromium")
ARGS = list(CHROMIUM_ARGS)  # the web stage's own flags
MANY_AUTHORS = [f"Author{i} Surname{i}" for i in range(12)]


def _wrong_year() -> ReferenceResult:
    raw = f"{', '.join(MANY_AUTHORS)}. Deep residual learning. In CVPR, 2011."
    return ReferenceResult(
        id="7",
        raw=raw,
        parsed=ParsedFields(title="Deep residual learning", authors=MANY_AUTHORS, venue="CVPR", year=2011),
        verdict=Verdict.METADATA_ERROR,
        severity=Severity.MAJOR,
        hallucinated=True,
        fields=[
            FieldCheck(
                field="year", status=FieldStatus.MISMATCH, severity=Severity.MAJOR, cited="2011", found="2016"
            ),
            FieldCheck(
                field="authors",
                status=FieldStatus.MISMATCH,
                severity=Severity.MINOR,
                cited="; ".join(MANY_AUTHORS),
                found="; ".join([*MANY_AUTHORS[:-1], "Kaiming He"]),
            ),
        ],
        evidence=[],
        stage="index",
    )


def test_the_wrong_field_is_marked_inside_the_cited_string() -> None:
    marked = marked_citation(_wrong_year())
    assert '<mark class="wrong" title="year: should be 2016">2011</mark>' in marked


def test_a_long_author_list_is_not_repeated_in_the_report() -> None:
    verified = _wrong_year().model_copy(update={"id": "1", "verdict": Verdict.VERIFIED, "fields": []})
    page = render_html(
        Report(references=[verified, _wrong_year()]), ReportHeader(index="idx (7 records)", online=False)
    )
    # Once in each cited string (two references), never again in a correction.
    assert page.count("Author5 Surname5") == 2
    assert "12 names, differing: Author11 Surname11" in page
    assert page.index('id="problems"') < page.index('id="verified"')  # problems first
    assert "idx (7 records)" in page and "offline" in page and "refhound 0." in page


def test_the_dashboard_escapes_what_papers_say() -> None:
    document: dict[str, Any] = {
        "papers": [
            {
                "paper": "<img src=x onerror=alert(1)>.pdf",
                "status": "error",
                "error": "<script>alert(2)</script>",
                "references": 0,
                "verdicts": {"verified": 0, "metadata_error": 0, "fabricated": 0, "unverified": 0},
                "hallucinated": 0,
                "minor": 0,
                "flags": [],
                "report": None,
                "html": None,
            }
        ],
        "summary": {
            "papers": 1,
            "checked": 0,
            "errors": 1,
            "flagged": 0,
            "hallucinated": 0,
            "minor": 0,
            "references": 0,
            "skipped": [],
            "run": {"date": "d", "version": "v", "index": "i", "coverage": [], "online": False},
        },
    }
    page = render_dashboard(document)
    assert "<img src=x" not in page and "<script>alert" not in page
    # No paper flagged: the headline is not red.
    assert 'class="ok"' in page and 'class="bad"' not in page


@pytest.fixture
def triaged(small_index: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "clean.bib").write_text(CLEAN_BIB)
    (folder / "suspicious.bib").write_text(SUSPICIOUS_BIB)
    (folder / "broken.pdf").write_bytes(b"")
    settings = Settings()
    settings.check.offline = True
    settings.memory.enabled = False
    with IndexStore.open(small_index) as store:
        stats = store.stats()
    out = tmp_path / "out"
    options = TriageOptions(out_dir=out, settings=settings, index_stats=stats, workers=1)
    run_triage([folder], options, ProcessBackend(out, 1))
    return out


def test_the_dashboard_sorts_filters_and_opens_a_paper_in_chromium(triaged: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("Debian's /usr/bin/chromium is not installed")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    document = json.loads((triaged / "triage.json").read_text())
    assert [p["paper"] for p in document["papers"]] == ["suspicious.bib", "clean.bib", "broken.pdf"]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto((triaged / "index.html").as_uri())
            assert "1 of 2 papers cite hallucinated references" in page.inner_text("#headline")
            # At 1,280 px every column is on screen: nothing to scroll sideways to.
            for name in ("likelihood", "flagged", "unverified", "verified", "references"):
                box = page.locator("#papers th", has_text=re.compile(f"^{name}$")).bounding_box()
                assert box is not None and box["x"] + box["width"] <= 1280, name
            assert page.evaluate("document.querySelector('.scroll').scrollWidth <= window.innerWidth")
            red = page.eval_on_selector("#headline span", "e => getComputedStyle(e).color")
            assert red == "rgb(198, 40, 40)"  # a paper is flagged
            assert "offline" in page.inner_text("#run")
            rows = page.locator("#papers tbody tr")
            assert rows.count() == 3
            first = rows.nth(0)
            assert "suspicious.bib" in first.inner_text()
            # Sort by references (descending, then ascending): the error row (0 references) moves.
            header = page.locator("#papers th", has_text=re.compile("^references$"))
            header.click()
            assert "broken.pdf" in rows.nth(2).inner_text()
            header.click()
            assert "broken.pdf" in rows.nth(0).inner_text()
            # Filter by text and by status.
            page.fill("#filter", "clean")
            assert page.locator("#papers tbody tr:visible").count() == 1
            page.fill("#filter", "")
            page.select_option("#show", "error")
            visible = page.locator("#papers tbody tr:visible")
            assert visible.count() == 1 and "empty file" in visible.inner_text()
            page.select_option("#show", "unchecked")  # the unreadable one at least
            assert "broken.pdf" in page.locator("#papers tbody tr:visible").all_inner_texts()[-1]
            page.select_option("#show", "low")
            assert "clean.bib" in " ".join(page.locator("#papers tbody tr:visible").all_inner_texts())
            page.select_option("#show", "flagged")
            assert page.locator("#papers tbody tr:visible").count() == 1
            # Open the flagged paper: its problems come first, the most likely invented first, each with
            # its likelihood's bar; the wrong year is marked in the cited string.
            page.click("#papers tbody tr:visible a")
            assert page.url.endswith(".html") and "/papers/" in page.url
            problems = page.locator("table.problems tbody tr")
            assert "Quantum Gradient Folding" in problems.first.inner_text()
            assert problems.first.locator(".likelihood .bar").count() == 1
            year = problems.filter(has_text="2016")
            assert year.locator("mark").inner_text() == "2011"
            assert page.locator("h2").first.inner_text() == "Summary"
            assert page.locator('h2[id="problems"]').count() == 1
        finally:
            browser.close()


def _marked(ident: str, title: str, retraction: Retraction) -> ReferenceResult:
    return ReferenceResult(
        id=ident,
        raw=title,
        parsed=ParsedFields(title=title),
        verdict=Verdict.VERIFIED,
        hallucinated=False,
        retraction=retraction,
        stage="index",
    )


def test_each_cited_work_retracted_or_under_concern_is_listed_with_its_notice_and_filtered(
    tmp_path: Path,
) -> None:
    retracted = Retraction(
        kind=RetractionKind.RETRACTED, notice_doi="10.1155/2023/9753475", date="2023-09-27", source="crossref"
    )
    # An expression of concern, written from Crossref's documented update types (no real row has one).
    concern = Retraction(kind=RetractionKind.EXPRESSION_OF_CONCERN, date="2021-03", source="crossref")
    report = Report(
        references=[
            _marked("3", "The Dilemma of a Retracted Study", retracted),
            _marked("5", "A Study Under Concern", concern),
            _wrong_year().model_copy(update={"hallucinated": False, "severity": Severity.MINOR}),
        ]
    )
    marked = checked_row("marked.pdf", report, "papers/marked.json", "papers/marked.html")
    clean = checked_row("clean.pdf", Report(references=[_wrong_year()]), "papers/c.json", "papers/c.html")
    summary = {
        "papers": 2, "checked": 2, "errors": 0, "flagged": 1, "hallucinated": 1, "minor": 1, "references": 4,
        "papers_citing_retracted": 1, "skipped": [],
        "run": {"date": "d", "version": "v", "index": "i", "coverage": [], "online": False},
    }  # fmt: skip
    document = {"papers": [row.model_dump() for row in (marked, clean)], "summary": summary}
    page = render_dashboard(document)
    assert "cites 2 works retracted, withdrawn or under concern:" in page
    assert (
        '<li>[3] RETRACTED (notice <a href="https://doi.org/10.1155/2023/9753475">10.1155/2023/9753475</a>, '
        "2023-09-27, crossref): &quot;The Dilemma of a Retracted Study&quot;</li>"
    ) in page
    assert "<li>[5] EXPRESSION OF CONCERN (2021-03, crossref): &quot;A Study Under Concern&quot;</li>" in page
    assert "WITHDRAWN" not in page  # an expression of concern is not called a withdrawal
    assert "1 paper cites works retracted, withdrawn or under concern" in page  # the headline
    if not CHROMIUM.exists():
        return
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    (tmp_path / "index.html").write_text(page)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            shown = browser.new_page()
            shown.goto((tmp_path / "index.html").as_uri())
            shown.select_option("#show", "retracted")
            visible = shown.locator("#papers tbody tr:visible")
            assert visible.count() == 1 and "marked.pdf" in visible.inner_text()
            assert shown.locator("#papers tbody tr:visible ul.retracted li").count() == 2
        finally:
            browser.close()
