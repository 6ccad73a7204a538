"""The `alterations` of a quote (issue: a changed number or name inside a near match is a misquote): the
guard's kinds, named entities in near matches only, hyphens kept in the note, red in every report."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from refhound.cli import app
from refhound.quotes import check_document, read_document
from refhound.quotes.annotate import render_html, render_markdown
from refhound.quotes.fuzzy import describe_differences
from refhound.quotes.guard import entity_differences
from refhound.quotes.match import Haystack, locate
from refhound.quotes.render import print_table
from refhound.settings import QuotesSettings, Settings

SOURCE = (
    "The model was trained for English-to-German translation and reached a BLEU score of 28.4 on the "
    "test set. The committee did not approve the merger in March. Smith argued that the rule may apply."
)


@pytest.mark.parametrize(
    ("quote", "kinds"),
    [
        ("trained for English-to-French translation and reached a BLEU score of 28.4", ("entity",)),
        ("trained for English-to-German translation and reached a BLEU score of 32.4", ("number",)),
        ("The committee did approve the merger in March.", ("negation",)),
        ("The committee did not approve the merger in April.", ("date",)),
        ("Smith argued that the rule will apply.", ("modal",)),
        ("Smith argued that the Texas rule may apply.", ("entity",)),
        ("Jones argued that the rule may apply.", ()),  # a sentence's first word is not judged a name
        ("trained for English-to-German translation and reached a BLEU score of 28.4", ()),
    ],
)
def test_alteration_kinds(quote: str, kinds: tuple[str, ...]) -> None:
    outcome = locate(quote, Haystack(SOURCE), QuotesSettings())
    assert outcome.alterations == kinds
    assert outcome.status == ("verified" if quote in SOURCE else "near_match")


def test_a_name_that_changes_case_or_opens_a_sentence_is_no_entity_change() -> None:
    assert entity_differences("the Court held that", "the court held that") == []
    assert entity_differences("Results were clear", "results were clear") == []
    assert entity_differences("as the French team said", "as the German team said")[0].kind == "entity"


def test_the_note_keeps_hyphens() -> None:
    note = describe_differences("English-to-French translation", "English-to-German translation")
    assert "'English-to-French' → 'English-to-German'" in note
    assert "EnglishtoFrench" not in note
    assert describe_differences("resid-\nual sum", "residual sum") == "differs only in punctuation or spacing"


@pytest.fixture()
def misquote(tmp_path: Path) -> Path:
    (tmp_path / "source.txt").write_text(SOURCE, encoding="utf-8")
    path = tmp_path / "memo.md"
    text = 'They note it "reached a BLEU score of 32.4 on the test set" [1].\n\n[1]: source.txt\n'
    path.write_text(text, encoding="utf-8")
    return path


def test_every_report_shows_an_altered_quote_in_red(misquote: Path) -> None:
    settings = Settings()
    settings.check.offline = True
    report = asyncio.run(check_document(read_document(misquote, settings), settings))
    [result] = report.results
    assert result.status == "near_match" and result.alterations == ("number",)
    assert report.as_json()["quotes"][0]["alterations"] == ["number"]
    html = render_html(report)
    assert 'class="near_match altered"' in html and "altered: number" in html
    assert "🔴" in render_markdown(report) and "altered: number" in render_markdown(report)
    console = Console(record=True, width=200, force_terminal=True, color_system="truecolor")
    print_table(report, console)
    ansi = console.export_text(styles=True)
    assert "ALTERED (number)" in ansi and "\x1b[1;31m" in ansi  # bold red


def test_json_from_the_cli_lists_alterations(misquote: Path) -> None:
    result = CliRunner().invoke(app, ["quotes", "check", str(misquote), "-f", "json", "--offline"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["quotes"][0]["alterations"] == ["number"]
