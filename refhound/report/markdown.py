"""The Markdown report: summary, a table of all references, details for those not verified."""

from __future__ import annotations

import re
from collections.abc import Iterable

from refhound.models import Evidence, FieldCheck, ReferenceResult, Report, Verdict
from refhound.report._common import (
    ABSENT,
    check_lines,
    cited_at_text,
    count_text,
    describe_problem,
    display_title,
    evidence_label,
    evidence_tail,
    hallucinated_text,
    input_problems,
    key_lines,
    notice_url,
    retraction_text,
    safe_url,
    squash,
    verdict_text,
)

# Characters that Markdown (GFM, with math) would read as syntax anywhere in a line or table cell.
_SIGNIFICANT = re.compile(r"([\\`*_\[\]<>|$~&])")
# Characters that would end or break a link destination.
_URL_UNSAFE = re.compile(r"[\s()<>|\\`]")


def escape(text: str) -> str:
    """Text on one line, with every Markdown-significant character backslash-escaped."""
    return _SIGNIFICANT.sub(r"\\\1", squash(text))


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: list[str], rows: Iterable[Iterable[str]]) -> list[str]:
    return [_row(header), _row("---" for _ in header), *(_row(row) for row in rows)]


def _link_target(url: str) -> str:
    return _URL_UNSAFE.sub(lambda match: f"%{ord(match.group()):02X}", url)


def _evidence(evidence: Evidence) -> str:
    label, url = escape(evidence_label(evidence)), safe_url(evidence.url)
    if url:
        label = f"[{label}]({_link_target(url)})"
    tail = evidence_tail(evidence)
    return f"{label} {escape(tail)}" if tail else label


def _value(value: str | None) -> str:
    return ABSENT if value is None else escape(value)


def _field_row(check: FieldCheck) -> list[str]:
    status = check.status.value + (f" ({check.severity.value})" if check.severity else "")
    return [
        escape(check.field),
        status,
        _value(check.cited),
        _value(check.found),
        escape(check.note),
    ]


def _details(result: ReferenceResult) -> list[str]:
    status = [f"**{verdict_text(result)}**", f"stage {escape(result.stage)}"]
    hallucinated = hallucinated_text(result)
    if hallucinated is not None:
        status.append(f"hallucinated: {hallucinated}")
    if result.likelihood is not None:
        status.append(f"likelihood of invention {result.likelihood:.2f}")
    reason = f". {escape(result.reason)}" if result.reason else ""
    lines = [f"### {escape(result.id)}: {escape(display_title(result))}", ""]
    lines += [", ".join(status) + reason, ""]
    if result.retraction is not None:
        lines += [f"**Cited work {_retraction(result)}** (the verdict above is about the citation)", ""]
    lines += [f"Cited as: {escape(result.raw)}", ""]
    if cited := cited_at_text(result):
        lines += [escape(cited[0].upper() + cited[1:]), ""]
    if result.fields:
        rows = (_field_row(check) for check in result.fields)
        lines += [*_table(["field", "status", "cited", "found", "note"], rows), ""]
    if result.evidence:
        lines += ["Evidence (found values come from the first):", ""]
        lines += [f"- {_evidence(evidence)}" for evidence in result.evidence]
        lines.append("")
    return lines


def _retraction(result: ReferenceResult) -> str:
    """The mark, its notice linked."""
    text = escape(retraction_text(result) or "")
    url = notice_url(result.retraction) if result.retraction else None
    return f"{text} [notice]({_link_target(url)})" if url else text


def render_markdown(report: Report) -> str:
    """The report as GitHub-flavoured Markdown."""
    summary = report.summary
    lines = ["# refhound report", ""]
    if report.inputs:
        lines += ["Inputs: " + ", ".join(escape(name) for name in report.inputs), ""]
    lines += ["## Summary", ""]
    counts = [[verdict.value, count_text(summary, verdict)] for verdict in Verdict]
    marked = (
        [["cited works retracted, withdrawn or under concern", str(summary.retracted)]]
        if summary.retracted
        else []
    )
    lines += [*_table(["verdict", "count"], [*counts, ["total", str(summary.total)], *marked]), ""]
    lines += ["## References", ""]
    rows = (
        [
            escape(result.id),
            escape(display_title(result)),
            verdict_text(result),
            hallucinated_text(result) or "",
            "<br>".join(
                [f"**{_retraction(result)}**"] * (result.retraction is not None)
                + [escape(line) for line in [*check_lines(result), cited_at_text(result) or ""] if line]
            ),
        ]
        for result in report.references
    )
    lines += [*_table(["id", "title", "verdict", "hallucinated", "problems"], rows), ""]
    flagged = [r for r in report.references if r.verdict is not Verdict.VERIFIED or r.retraction is not None]
    if flagged:
        lines += ["## Details", ""]
        for result in flagged:
            lines += _details(result)
    if keys := key_lines(report):
        lines += ["## Citation keys", ""]
        lines += [f"- {escape(line)}" for line in keys]
        lines.append("")
    if problems := input_problems(report):
        lines += ["## Input problems", ""]
        lines += [f"- {escape(describe_problem(problem))}" for problem in problems]
        lines.append("")
    return "\n".join(lines)
