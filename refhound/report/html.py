"""The HTML report: one self-contained page (inline CSS, no scripts), every value escaped."""

from __future__ import annotations

from html import escape

from refhound.models import Evidence, ReferenceResult, Report, Verdict
from refhound.report._common import (
    check_lines,
    count_text,
    describe_problem,
    display_title,
    evidence_label,
    evidence_tail,
    hallucinated_text,
    safe_url,
    verdict_text,
)

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
table { border-collapse: collapse; margin-bottom: 1.5rem; }
th, td { border: 1px solid #ccc; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td ul { margin: 0; padding-left: 1.1rem; }
pre { white-space: pre-wrap; margin: .3rem 0; }
.verdict { font-weight: bold; }
.verified { color: #17803d; }
.metadata_error { color: #a15c00; }
.fabricated { color: #c62828; }
.unverified { color: #3f5f8f; }
.muted { color: #666; font-size: .9em; }
"""


def _list(items: list[str]) -> str:
    """An HTML list of already-escaped items, or nothing."""
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>" if items else ""


def _evidence(evidence: Evidence) -> str:
    label, url = escape(evidence_label(evidence)), safe_url(evidence.url)
    if url:
        label = f'<a href="{escape(url)}">{label}</a>'
    return f"{label} {escape(evidence_tail(evidence))}".rstrip()


def _row(result: ReferenceResult) -> str:
    verdict = result.verdict.value
    hallucinated = hallucinated_text(result)
    verdict_cell = f'<span class="verdict {verdict}">{escape(verdict_text(result))}</span>'
    if hallucinated is not None:
        verdict_cell += f'<br><span class="muted">hallucinated: {hallucinated}</span>'
    reason = f'<p class="muted">{escape(result.reason)}</p>' if result.reason else ""
    cells = [
        escape(result.id),
        f"{escape(display_title(result))}<details><summary>cited as</summary>"
        f"<pre>{escape(result.raw)}</pre></details>",
        verdict_cell,
        _list([escape(line) for line in check_lines(result)]) + reason,
        _list([_evidence(evidence) for evidence in result.evidence]),
        escape(result.stage),
    ]
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"


def _header(*names: str) -> str:
    return "<thead><tr>" + "".join(f"<th>{name}</th>" for name in names) + "</tr></thead>"


def render_html(report: Report) -> str:
    """The report as a standalone HTML page."""
    summary = report.summary
    counts = "".join(
        f'<tr><td class="{verdict.value}">{verdict.value}</td><td>{count_text(summary, verdict)}</td></tr>'
        for verdict in Verdict
    )
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">',
        f"<title>refhound report</title>\n<style>{_STYLE}</style>\n</head>\n<body>",
        "<h1>refhound report</h1>",
    ]
    if report.inputs:
        parts.append(f"<p>Inputs: {escape(', '.join(report.inputs))}</p>")
    parts += [
        "<h2>Summary</h2>",
        f"<table>{_header('verdict', 'count')}<tbody>{counts}"
        f"<tr><th>total</th><th>{summary.total}</th></tr></tbody></table>",
        "<h2>References</h2>",
        f"<table>{_header('id', 'reference', 'verdict', 'fields', 'evidence', 'stage')}<tbody>",
        *(_row(result) for result in report.references),
        "</tbody></table>",
    ]
    if report.problems:
        problems = _list([escape(describe_problem(problem)) for problem in report.problems])
        parts += ["<h2>Input problems</h2>", problems]
    parts.append("</body>\n</html>\n")
    return "\n".join(parts)
