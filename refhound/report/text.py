"""The plain-text report: one greppable block per reference, no colour codes."""

from __future__ import annotations

from refhound.models import ReferenceResult, Report
from refhound.report._common import (
    check_lines,
    cited_at_text,
    describe_problem,
    display_title,
    evidence_label,
    evidence_tail,
    hallucinated_text,
    input_problems,
    key_lines,
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
    if cited := cited_at_text(result):
        lines.append(f"  {cited}")
    for evidence in result.evidence:
        parts = [evidence_label(evidence), evidence.url or "", evidence_tail(evidence)]
        lines.append("  evidence: " + " ".join(part for part in parts if part))
    lines.append(f"  stage: {result.stage}")
    return lines


def render_text(report: Report) -> str:
    """The report as plain text: reference blocks, then the summary, a LaTeX project's citation keys and any
    other input problems."""
    lines: list[str] = []
    for result in report.references:
        lines += [*_block(result), ""]
    lines.append(f"summary: {summary_line(report.summary)}")
    if keys := key_lines(report):
        lines.append("citation keys:")
        lines += [f"  {line}" for line in keys]
    if problems := input_problems(report):
        lines.append("input problems:")
        lines += [f"  {describe_problem(problem)}" for problem in problems]
    return "\n".join(lines) + "\n"
