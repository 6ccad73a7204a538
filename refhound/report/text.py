"""The plain-text report: one greppable block per reference, no colour codes."""

from __future__ import annotations

from refhound.models import ReferenceResult, Report
from refhound.report._common import (
    check_lines,
    describe_problem,
    display_title,
    evidence_label,
    evidence_tail,
    hallucinated_text,
    retraction_text,
    squash,
    summary_line,
    verdict_text,
)


def _block(result: ReferenceResult) -> list[str]:
    lines = [f"[{result.id}] {verdict_text(result).upper()}  {display_title(result)}"]
    hallucinated = hallucinated_text(result)
    if hallucinated is not None:
        lines.append(f"  hallucinated: {hallucinated}")
    if mark := retraction_text(result):
        lines.append(f"  cited work: {mark}")
    if result.reason:
        lines.append(f"  reason: {squash(result.reason)}")
    lines += [f"  {line}" for line in check_lines(result)]
    for evidence in result.evidence:
        parts = [evidence_label(evidence), evidence.url or "", evidence_tail(evidence)]
        lines.append("  evidence: " + " ".join(part for part in parts if part))
    lines.append(f"  stage: {result.stage}")
    return lines


def render_text(report: Report) -> str:
    """The report as plain text: reference blocks, then the summary and any input problems."""
    lines: list[str] = []
    for result in report.references:
        lines += [*_block(result), ""]
    lines.append(f"summary: {summary_line(report.summary)}")
    if report.problems:
        lines.append("input problems:")
        lines += [f"  {describe_problem(problem)}" for problem in report.problems]
    return "\n".join(lines) + "\n"
