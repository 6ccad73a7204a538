"""The document again, with every quote that is not verified marked where it stands (Markdown or HTML).

Marks are placed in the document's own text: the quotation is highlighted and a badge after its closing mark
names the status and points to a numbered finding ("Q3") in a list appended at the end, which gives the
citation, the source and version, the note and what the source says there. Verified quotes are left as they
are. Marks go in as private-use sentinels first, so the HTML rendering can run the Markdown through
markdown-it (raw HTML off: a report is no place to run a document's scripts) and swap them for tags after.
"""

from __future__ import annotations

import re
from html import escape

from markdown_it import MarkdownIt

from refhound.quotes.evaluate.render import STYLE as EVALUATION_STYLE
from refhound.quotes.evaluate.render import document_line, html_section, markdown_lines
from refhound.quotes.models import QuoteResult
from refhound.quotes.report import QuoteReport

_OPEN, _MID, _CLOSE, _BADGE, _BADGE_END = "\ue000", "\ue001", "\ue002", "\ue003", "\ue004"
_AFTER_QUOTE = re.compile(r"(?:\s*\[[^\]\n]{0,40}\])*\s*[\"\u201d\u201c\u00bb]")
_SENTINELS = re.compile(f"{_OPEN}(\\d+){_MID}|{_CLOSE}|{_BADGE}(\\d+){_BADGE_END}")
_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 52rem; color: #222; }
p { line-height: 1.5; }
mark { padding: 0 .1em; }
mark.near_match { background: #fff3b0; } mark.not_found { background: #ffd0d0; }
mark.citation_unresolved { background: #ecd5f5; } mark.uncited { background: #d5e5f5; }
.badge { font-size: .75em; font-weight: bold; border-radius: .3em; padding: 0 .3em; margin-left: .2em;
         color: #fff; background: #666; white-space: nowrap; }
.badge.near_match { background: #a17a00; } .badge.not_found { background: #c62828; }
.badge.citation_unresolved { background: #7b1fa2; } .badge.uncited { background: #3f5f8f; }
mark.altered { background: #ffb3b3; outline: 2px solid #c62828; } .badge.altered { background: #c62828; }
td.altered { color: #c62828; font-weight: bold; }
pre.document { white-space: pre-wrap; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: .3rem .5rem; vertical-align: top; }
"""


def _flagged(report: QuoteReport) -> list[tuple[int, QuoteResult]]:
    return [(n, r) for n, r in enumerate(report.results, 1) if r.status != "verified"]


def _with_sentinels(text: str, flagged: list[tuple[int, QuoteResult]]) -> str:
    """The text with highlight and badge sentinels around and after each flagged quote."""
    inserts: list[tuple[int, int, str]] = []  # position, order at that position, sentinel
    for number, result in flagged:
        quote = result.quote
        if quote.style != "block":
            inserts.append((quote.start, 1, f"{_OPEN}{number}{_MID}"))
            inserts.append((quote.end, 0, _CLOSE))
        after = _AFTER_QUOTE.match(text, quote.end)
        badge_at = after.end() if after and quote.style != "block" else quote.end
        inserts.append((badge_at, 2, f"{_BADGE}{number}{_BADGE_END}"))
    pieces: list[str] = []
    position = 0
    for at, _, sentinel in sorted(inserts):
        pieces.append(text[position:at])
        pieces.append(sentinel)
        position = at
    pieces.append(text[position:])
    return "".join(pieces)


def altered_label(result: QuoteResult) -> str:
    """ "altered: number, entity" for a quote the guard caught changing such words; else empty."""
    return f"altered: {', '.join(result.alterations)}" if result.alterations else ""


def _finding_lines(number: int, result: QuoteResult) -> list[str]:
    altered = f" · 🔴 **{altered_label(result)}**" if result.alterations else ""
    lines = [f"- **Q{number} · {result.status}**{altered} — cited as {result.citation or '(nothing)'}"]
    if result.source:
        version = f" (sha256 {result.source_sha256[:12]}…)" if result.source_sha256 else ""
        lines.append(f"  - source: {result.source}{version}")
    if result.note:
        lines.append(f"  - {result.note}")
    if result.matched_text:
        lines.append(f"  - the source says: “{' '.join(result.matched_text.split())}”")
    return lines


def render_markdown(report: QuoteReport) -> str:
    """The Markdown document with unverified quotes marked, and the findings appended."""
    flagged = _flagged(report)
    body = report.text if report.text is not None and report.kind != "triples" else ""

    def swap(match: re.Match[str]) -> str:
        if match.group(1):
            return "<mark>"
        if match.group(2):
            result = report.results[int(match.group(2)) - 1]
            altered = f" 🔴 {altered_label(result)}" if result.alterations else ""
            return f" **⚠ {result.status}{altered} [Q{match.group(2)}]**"
        return "</mark>"

    annotated = _SENTINELS.sub(swap, _with_sentinels(body, flagged)) if body else ""
    counts = ", ".join(f"{n} {status}" for status, n in report.counts().items() if n) or "no quotes"
    lines = [
        annotated.rstrip(),
        "",
        "---",
        "",
        "## Quote check",
        "",
        f"{len(report.results)} quotes: {counts}.",
    ]
    if report.evaluated is None:  # else the Evaluations section below gives it
        lines += ["", document_line(report) + "."]
    if flagged:
        lines.append("")
        for number, result in flagged:
            if not body:
                lines.append(f"- Q{number}: “{' '.join(result.quote.text.split())}”")
            lines.extend(_finding_lines(number, result))
    lines.extend(markdown_lines(report))
    return "\n".join(lines).lstrip() + "\n"


def _finding_rows(report: QuoteReport, flagged: list[tuple[int, QuoteResult]]) -> str:
    rows = []
    for number, result in flagged:
        label = escape(altered_label(result))
        altered = f' <span class="badge altered">{label}</span>' if result.alterations else ""
        cells = [
            f"Q{number}",
            f'<span class="badge {result.status}">{result.status}</span>{altered}',
            escape(" ".join(result.quote.text.split())),
            escape(result.citation or "—"),
            escape(result.source or "—")
            + (
                f"<br><small>sha256 {escape(result.source_sha256[:16])}…</small>"
                if result.source_sha256
                else ""
            ),
            escape(result.note),
            escape(" ".join((result.matched_text or "").split())),
        ]
        rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    head = "".join(
        f"<th>{name}</th>" for name in ("#", "status", "quote", "citation", "source", "note", "source text")
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def render_html(report: QuoteReport) -> str:
    """A self-contained HTML page: the document with unverified quotes marked, then the findings."""
    flagged = _flagged(report)
    marked = _with_sentinels(report.text or "", flagged) if report.kind != "triples" else ""
    if report.kind == "markdown":
        body = MarkdownIt("commonmark", {"html": False}).render(marked)
    else:
        body = f'<pre class="document">{escape(marked)}</pre>' if marked else ""

    def swap(match: re.Match[str]) -> str:
        if match.group(1):
            result = report.results[int(match.group(1)) - 1]
            classes = result.status + (" altered" if result.alterations else "")
            return f'<mark class="{classes}" title="{escape(result.note)}">'
        if match.group(2):
            number = int(match.group(2))
            result = report.results[number - 1]
            classes = result.status + (" altered" if result.alterations else "")
            altered = f" · {escape(altered_label(result))}" if result.alterations else ""
            return f' <a href="#q{number}" class="badge {classes}">⚠ {result.status}{altered} Q{number}</a>'
        return "</mark>"

    body = _SENTINELS.sub(swap, body)
    counts = ", ".join(f"{n} {status}" for status, n in report.counts().items() if n) or "no quotes"
    findings = _finding_rows(report, flagged) if flagged else "<p>Every quote was verified.</p>"
    findings = re.sub(r"<tr><td>Q(\d+)</td>", r'<tr id="q\1"><td>Q\1</td>', findings)
    title = escape(f"Quote check: {report.document}")
    confidence = f"<p>{escape(document_line(report))}</p>\n" if report.evaluated is None else ""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{_STYLE}{EVALUATION_STYLE}</style></head><body>\n<h1>{title}</h1>\n"
        f"<p>{len(report.results)} quotes: {escape(counts)}.</p>\n{confidence}{body}\n"
        f"<h2>Findings</h2>\n{findings}\n{html_section(report)}</body></html>\n"
    )
