"""The terminal report: a rich table, coloured on a terminal and plain anywhere else."""

from __future__ import annotations

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from refhound.models import ReferenceResult, Report, Verdict
from refhound.report._common import (
    check_lines,
    cited_at_text,
    deciding_evidence,
    describe_problem,
    display_title,
    evidence_label,
    hallucinated_text,
    input_problems,
    key_lines,
    retraction_label,
    retraction_text,
    squash,
    summary_line,
    verdict_text,
)

VERDICT_STYLES = {
    Verdict.VERIFIED: "green",
    Verdict.METADATA_ERROR: "yellow",
    Verdict.FABRICATED: "bold red",
    Verdict.UNVERIFIED: "blue",
}


def _verdict_cell(result: ReferenceResult) -> Text:
    cell = Text(verdict_text(result), style=VERDICT_STYLES[result.verdict])
    if result.retraction is not None:  # about the work, apart from the verdict on the citation
        cell.append(f"\n{retraction_label(result.retraction)}", style="bold magenta")
    hallucinated = hallucinated_text(result)
    if hallucinated is not None:
        cell.append(f"\nhallucinated: {hallucinated}", style="dim")
    if result.likelihood is not None:
        cell.append(f"\nlikelihood: {result.likelihood:.2f}", style="dim")
    return cell


def _reference_cell(result: ReferenceResult) -> Group:
    """Title on one truncated line, then the fields not matching, the reason (unless verified), the source."""
    lines = [Text(display_title(result), style="bold", no_wrap=True, overflow="ellipsis")]
    if mark := retraction_text(result):
        lines.append(Text(f"cited work {mark}", style="bold magenta", overflow="fold"))
    lines += [Text(line, overflow="fold") for line in check_lines(result)]
    if result.reason and result.verdict is not Verdict.VERIFIED:
        lines.append(Text(squash(result.reason), style="italic", overflow="fold"))
    evidence = deciding_evidence(result)
    if evidence:
        lines.append(Text(f"source: {evidence_label(evidence)}", style="dim", overflow="fold"))
    if cited := cited_at_text(result):
        lines.append(Text(cited, style="dim", overflow="fold"))
    return Group(*lines)


def print_report(report: Report, console: Console, *, whole: bool = False) -> None:
    """Print the report to `console`: a table of references, a summary line and any input problems.
    `whole`: ids are never shortened (output read by tools, not on a terminal)."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, leading=1)
    table.add_column("id", no_wrap=True, overflow="ellipsis", max_width=None if whole else 24)
    table.add_column("reference", ratio=1, min_width=20)
    table.add_column("verdict", no_wrap=True)
    for result in report.references:
        table.add_row(Text(result.id), _reference_cell(result), _verdict_cell(result))
    console.print(table)
    console.print(Text(summary_line(report.summary), style="bold"))
    if keys := key_lines(report):
        console.print(Text("citation keys:", style="bold yellow"))
        for line in keys:
            console.print(Text(f"  {line}"))
    if problems := input_problems(report):
        console.print(Text("input problems:", style="bold yellow"))
        for problem in problems:
            console.print(Text(f"  {describe_problem(problem)}"))
