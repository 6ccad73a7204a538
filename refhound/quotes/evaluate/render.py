"""The evaluations in the human reports: a terminal table, a Markdown section, an HTML table.

One row per quote: its confidence, each evaluator's verdict (with the explanation, or the reason it did not
run), and the best-supporting passage's similarity; then the document's confidence and its notes.
"""

from __future__ import annotations

from html import escape

from rich.console import Console
from rich.table import Table
from rich.text import Text

from refhound.quotes.models import QuoteResult
from refhound.quotes.report import QuoteReport

GOOD = frozenset({"entailed", "relevant", "supported"})
STYLES = {"not_run": "dim", **dict.fromkeys(GOOD, "green")}


def _verdict(result: QuoteResult, name: str) -> tuple[str, str]:
    item = (result.evaluations or {}).get(name) or {}
    verdict = str(item.get("verdict", "—"))
    detail = item.get("explanation") or item.get("reason") or ""
    return verdict, str(detail)


def _similarity(result: QuoteResult) -> str:
    passage = (result.evidence or {}).get("passage")
    similarity = passage.get("similarity") if isinstance(passage, dict) else None
    return "—" if similarity is None else f"{similarity:.2f}"


def document_line(report: QuoteReport) -> str:
    value = "—" if report.confidence is None else f"{report.confidence:.2f}"
    notes = f" ({'; '.join(report.confidence_notes)})" if report.confidence_notes else ""
    return f"document confidence: {value}{notes}"


def print_evaluations(report: QuoteReport, console: Console) -> None:
    names = report.evaluated or []
    table = Table(title="Evaluations", show_lines=False, expand=False)
    for column in ("#", "confidence", *names, "similarity"):
        table.add_column(column, overflow="fold")
    for index, result in enumerate(report.results, 1):
        cells: list[Text | str] = [
            str(index),
            f"{result.confidence:.2f}" if result.confidence is not None else "—",
        ]
        for name in names:
            verdict, detail = _verdict(result, name)
            style = STYLES.get(verdict, "red")
            cells.append(Text(f"{verdict}: {detail}"[:160] if detail else verdict, style=style))
        cells.append(_similarity(result))
        table.add_row(*cells)
    console.print(table)
    console.print(document_line(report), highlight=False)


def markdown_lines(report: QuoteReport) -> list[str]:
    if report.evaluated is None:
        return []
    lines = ["", "## Evaluations", "", document_line(report) + ".", ""]
    for index, result in enumerate(report.results, 1):
        confidence = "—" if result.confidence is None else f"{result.confidence:.2f}"
        basis = ", ".join(result.confidence_basis)
        statement = result.statement or "(none)"
        lines.append(f"- **Q{index}** — confidence {confidence} (from {basis}); statement: {statement}")
        for name in report.evaluated:
            verdict, detail = _verdict(result, name)
            mark = "✅" if verdict in GOOD else ("⏸" if verdict == "not_run" else "🔴")
            lines.append(f"  - {mark} {name}: **{verdict}** — {detail}")
        passage = (result.evidence or {}).get("passage")
        if isinstance(passage, dict):
            text = " ".join(str(passage["text"]).split())
            lines.append(
                f"  - best-supporting passage ({passage['start']}–{passage['end']}, similarity "
                f"{_similarity(result)}): “{text}”"
            )
    return lines


def html_section(report: QuoteReport) -> str:
    if report.evaluated is None:
        return ""
    head = "".join(
        f"<th>{escape(c)}</th>" for c in ("#", "confidence", "statement", *report.evaluated, "passage")
    )
    rows = []
    for index, result in enumerate(report.results, 1):
        cells = [f"Q{index}", "—" if result.confidence is None else f"{result.confidence:.2f}"]
        cells.append(escape(result.statement or "—"))
        for name in report.evaluated:
            verdict, detail = _verdict(result, name)
            css = "good" if verdict in GOOD else ("not_run" if verdict == "not_run" else "bad")
            cells.append(
                f'<span class="verdict {css}">{escape(verdict)}</span><br><small>{escape(detail)}</small>'
            )
        passage = (result.evidence or {}).get("passage")
        cells.append(
            escape(" ".join(str(passage["text"]).split()))
            + f"<br><small>similarity {_similarity(result)}</small>"
            if isinstance(passage, dict)
            else "—"
        )
        rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    return (
        f"<h2>Evaluations</h2>\n<p>{escape(document_line(report))}</p>\n"
        f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>\n"
    )


STYLE = """
.verdict { font-weight: bold; } .verdict.good { color: #2e7d32; } .verdict.bad { color: #c62828; }
.verdict.not_run { color: #777; }
"""
