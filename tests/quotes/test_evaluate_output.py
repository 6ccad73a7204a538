"""The evaluations in the human reports (HTML, Markdown, terminal table), the confidence from the quotes'
location alone when no evaluator ran, and the verdict cache's misses when the prompt version or the text
shown to the model changes."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import pytest
from rich.console import Console

from refhound.quotes.annotate import render_html, render_markdown
from refhound.quotes.evaluate import EVALUATORS, evaluate_report
from refhound.quotes.evaluate import llm as evaluate_llm
from refhound.quotes.evaluate.cache import cache_key
from refhound.quotes.evaluate.confidence import located_confidence
from refhound.quotes.evaluate.rubrics import Rubric, rubric
from refhound.quotes.render import print_table
from refhound.quotes.report import QuoteReport
from tests.quotes.rubric_llm import RubricLLMServer
from tests.quotes.test_evaluate import SOURCE, NoEmbedding, _report, _settings

STATEMENTS: list[str | None] = [
    "The drug reduced symptoms by 12 percent in the trial.",
    "Berlin hospitals reported record admissions.",
]
QUOTES = ["found that the drug reduced symptoms by 12 percent", "The committee met on Tuesday"]


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> QuoteReport:
    """A supported statement and one its quote and source do not support, every evaluator on the stand-in."""
    report = _report(STATEMENTS, QUOTES)
    with RubricLLMServer() as server:
        settings = _settings(tmp_path_factory.mktemp("cache"), server.url)
        evaluate_report(report, settings, EVALUATORS, STATEMENTS, embedder=NoEmbedding())
    return report


def _explanations(report: QuoteReport, number: int) -> dict[str, str]:
    evaluations = report.results[number].evaluations or {}
    return {name: str(item["explanation"]) for name, item in evaluations.items()}


def test_the_html_section_shows_confidence_verdicts_and_explanations(evaluated: QuoteReport) -> None:
    html = render_html(evaluated)
    section = html[html.index("<h2>Evaluations</h2>") :]
    assert "document confidence: 0.56" in section  # the mean of 1.0 and 0.12, no quote unlocated
    head = re.search(r"<thead><tr>(.*?)</tr></thead>", section)
    assert head is not None and re.findall(r"<th>(.*?)</th>", head.group(1)) == [
        "#", "confidence", "statement", "entailment", "relevance", "factcheck", "passage"]  # fmt: skip
    rows = re.findall(r"<tr>(<td>Q\d.*?)</tr>", section)
    assert len(rows) == 2
    good, bad = (re.findall(r"<td>(.*?)</td>", row) for row in rows)
    assert good[:3] == ["Q1", "1.00", STATEMENTS[0]] and bad[:2] == ["Q2", "0.12"]
    for cells, number, verdicts, css in (
        (good, 0, ["entailed", "relevant", "supported"], "good"),
        (bad, 1, ["neutral", "not_relevant", "not_supported"], "bad"),
    ):
        explanations = _explanations(evaluated, number)
        for cell, name, verdict in zip(cells[3:6], EVALUATORS, verdicts, strict=True):
            assert f'<span class="verdict {css}">{verdict}</span>' in cell
            assert f"<small>{escape(explanations[name])}</small>" in cell
    assert ".verdict.good" in html  # the section's style is in the page


def test_the_html_section_says_which_evaluators_did_not_run(tmp_path: Path) -> None:
    report = _report(STATEMENTS[:1], QUOTES[:1])
    evaluate_report(report, _settings(tmp_path, None), ["factcheck"], STATEMENTS[:1], embedder=NoEmbedding())
    section = render_html(report).split("<h2>Evaluations</h2>")[1]
    assert '<span class="verdict not_run">not_run</span><br><small>no LLM server configured' in section
    # The document's line, beside a confidence of 1.00 that no evaluator's pass stands behind.
    assert "document confidence: 1.00 (factcheck did not run for 1 of 1 quotes: no LLM server" in section


def test_the_markdown_gives_each_confidence_verdict_and_explanation(evaluated: QuoteReport) -> None:
    markdown = render_markdown(evaluated)
    section = markdown[markdown.index("## Evaluations") :]
    assert "document confidence: 0.56." in section
    assert "- **Q1** — confidence 1.00 (from quote_location, entailment, relevance, factcheck)" in section
    assert "- **Q2** — confidence 0.12 (from quote_location, entailment, relevance, factcheck)" in section
    bad = _explanations(evaluated, 1)
    assert f"  - 🔴 relevance: **not_relevant** — {bad['relevance']}" in section
    assert f"  - ✅ entailment: **entailed** — {_explanations(evaluated, 0)['entailment']}" in section


def test_the_terminal_table_gives_each_confidence_and_verdict(evaluated: QuoteReport) -> None:
    console = Console(record=True, width=200, no_color=True)
    print_table(evaluated, console)
    text = console.export_text()
    assert "Evaluations" in text and "document confidence: 0.56" in text
    rows = [line for line in text.splitlines() if re.match(r"│ [12] +│ (1\.00|0\.12)", line)]
    assert len(rows) == 2 and "entailed" in rows[0] and "not_relevant" in rows[1]


def test_without_evaluators_every_report_gives_the_confidence_from_location_only() -> None:
    report = _report(STATEMENTS, [*QUOTES[:1], "words the source never had at all"], status="verified")
    report.results[1].status = "not_found"
    located_confidence(report)
    assert [r.confidence for r in report.results] == [1.0, 0.5]
    assert report.confidence == 0.5 and "evaluated" not in report.as_json()
    line = "document confidence: 0.50 (entailment, relevance, factcheck did not run: not asked (--evaluate)"
    assert line in render_markdown(report) and line in render_html(report)
    console = Console(record=True, width=240, no_color=True)
    print_table(report, console)
    assert line in console.export_text()
    assert "## Evaluations" not in render_markdown(report)  # no evaluator: no verdicts to show


def test_a_new_prompt_version_or_source_text_misses_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = cache_key("relevance", "claim", "source text", "judge", "relevance.v1")
    assert key == cache_key("relevance", "claim", "source text", "judge", "relevance.v1")
    assert key != cache_key("relevance", "claim", "source text", "judge", "relevance.v2")
    assert key != cache_key("relevance", "claim", "source text.", "judge", "relevance.v1")
    with RubricLLMServer() as server:
        settings = _settings(tmp_path, server.url)

        def run(source: str = SOURCE) -> None:
            report = _report(STATEMENTS[:1], QUOTES[:1])
            report.citations[0].resolved.text = source  # type: ignore[union-attr]
            evaluate_report(report, settings, ["relevance"], STATEMENTS[:1], embedder=NoEmbedding())

        run()
        run()
        assert len(server.requests) == 1  # the same question: from the cache
        run(SOURCE + " A sentence added to the source.")
        assert len(server.requests) == 2  # the source changed: its excerpt's hash is another key
        newer = Rubric("relevance", 2, rubric("relevance").text)
        monkeypatch.setattr(
            evaluate_llm, "rubric", lambda name: newer if name == "relevance" else rubric(name)
        )
        run()
        assert len(server.requests) == 3  # a new rubric version is never answered by the old one's verdict
        run()
        assert len(server.requests) == 3
