"""The report as JSON (`refhound.quotes/1`), as a JSONL audit log, and as a terminal table.

The audit log is one JSON object per line, each with a "type": the run (document, time, the settings that
decide outcomes), every cited source with the version it was read at (SHA-256, fetch time, URL), every link
check, every quote's result, entailment verdicts when asked for, the document's confidence, and the summary —
enough to re-run or audit a check without the tool.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from refhound.quotes.report import QuoteReport
from refhound.settings import Settings

_STYLES = {
    "verified": "green",
    "near_match": "yellow",
    "not_found": "red",
    "citation_unresolved": "magenta",
    "uncited": "blue",
}
_SHOWN = 70  # of a quote, in the table
_NOTE_SHOWN = 240


def render_json(report: QuoteReport) -> str:
    return json.dumps(report.as_json(), ensure_ascii=False, indent=2) + "\n"


def _decisive_settings(settings: Settings) -> dict[str, Any]:
    quotes = settings.quotes
    return {
        "min_words": quotes.min_words,
        "fuzzy_max_ratio": quotes.fuzzy_max_ratio,
        "bracket_max_chars": quotes.bracket_max_chars,
        "ellipsis_max_gap_chars": quotes.ellipsis_max_gap_chars,
        "offline": settings.check.offline,
        "link_check": quotes.link_check,
        "entailment": quotes.entailment,
    }


def render_jsonl(report: QuoteReport, settings: Settings) -> str:
    """The audit log: run, sources, links, quotes, entailment, confidence, summary — one object per line."""
    lines: list[dict[str, Any]] = [
        {
            "type": "run",
            "schema": "refhound.quotes/1",
            "document": report.document,
            "checked_at": report.checked_at,
            "settings": _decisive_settings(settings),
        }
    ]
    for citation in report.citations:
        data = citation.as_json()
        link = data.pop("link")
        lines.append({"type": "source", **data})
        if link is not None:
            lines.append({"type": "link", "key": citation.key, **link})
    for index, result in enumerate(report.results):
        lines.append({"type": "quote", "index": index, **result.as_json()})
    for item in report.entailment or []:
        lines.append({"type": "entailment", **item.as_json()})
    lines.append(
        {
            "type": "confidence",
            "evaluated": report.evaluated or [],
            "confidence": report.confidence,
            "notes": report.confidence_notes,
        }
    )
    lines.append({"type": "summary", **report.summary()})
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def _short(text: str, limit: int = _SHOWN) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def print_table(report: QuoteReport, console: Console) -> None:
    """One row per quote: status, citation, the quote (shortened) and the note."""
    table = Table(title=f"Quotes in {report.document}", show_lines=False, expand=False)
    table.add_column("#", justify="right")
    table.add_column("status", no_wrap=True)
    for name in ("citation", "quote", "note"):
        table.add_column(name, overflow="fold")
    for index, result in enumerate(report.results, 1):
        # A changed number, date, negation, modal verb or name is a misquote: red, whatever the status.
        style = "bold red" if result.alterations else _STYLES.get(result.status, "")
        note = _short(result.note, _NOTE_SHOWN)
        if result.alterations:
            note = f"ALTERED ({', '.join(result.alterations)}): {note}"
        table.add_row(
            str(index),
            Text(result.status, style=style),
            result.citation or "—",
            Text(_short(result.quote.text), style="red" if result.alterations else ""),
            Text(note, style="red" if result.alterations else ""),
        )
    console.print(table)
    counts = report.counts()
    parts = [f"{count} {status}" for status, count in counts.items() if count]
    console.print(f"{len(report.results)} quotes: {', '.join(parts) or 'none'}", highlight=False)
    for citation in report.citations:
        if citation.link and (citation.link.error or (citation.link.status or 200) >= 400):
            problem = citation.link.error or f"HTTP {citation.link.status}"
            console.print(f"[yellow]link {citation.label}:[/] {problem}", highlight=False)
    for warning in report.warnings:
        console.print(f"[yellow]warning:[/] {warning}", highlight=False)
    from refhound.quotes.evaluate.render import document_line, print_evaluations

    if report.evaluated is not None:
        print_evaluations(report, console)
    else:
        console.print(document_line(report), highlight=False)
