"""`refhound fix refs.bib -o refs.fixed.bib`: a corrected bibliography, every change listed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from refhound.cli.output import (
    EXIT_OK,
    PriorOption,
    ThresholdOption,
    err,
    fail,
    likelihood_options,
    open_index_or_fail,
    print_error,
    settings_from_options,
    write_output,
)
from refhound.errors import InputError, RefhoundError
from refhound.likelihood import Policy
from refhound.models import ReferenceResult


def _results_from_report(path: Path) -> list[ReferenceResult]:
    """The verdicts of a saved `refhound check --format json` report (it must carry each `record`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [ReferenceResult.model_validate(item) for item in data["references"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise fail(f"{path}: not a refhound JSON report ({exc.__class__.__name__})") from None


def fix(
    bib: Annotated[Path, typer.Argument(help="The .bib file to correct.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the corrected .bib here (default: stdout).")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List the changes and show a diff; write nothing.")
    ] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Also print a unified diff of the changes.")] = False,
    keep_preprints: Annotated[
        bool,
        typer.Option("--keep-preprints", help="Leave a cited preprint a preprint, even if it was published."),
    ] = False,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report", help="Take the verdicts from this `refhound check -f json` report of the file."
        ),
    ] = None,
    index: Annotated[
        Path | None, typer.Option("--index", help="Index database (default: the embedded one).")
    ] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Never use the network.")] = False,
    threshold: ThresholdOption = None,
    prior: PriorOption = None,
) -> None:
    """Write a corrected copy of a .bib file.

    The record's value for every wrong field of an entry refhound is sure of, and a preprint's published
    version; flagged, fabricated and unverified entries get a comment only."""
    from refhound.fix import FixError, fix_bibliography, unified_diff
    from refhound.inputs import read_input
    from refhound.inputs.files import load_text

    settings = settings_from_options(
        {"check": {"offline": offline or None}}, likelihood_options(threshold, prior)
    )
    try:
        text, _ = load_text(bib, settings.check.max_input_bytes)
        read = read_input(bib, max_bytes=settings.check.max_input_bytes)
    except InputError as exc:
        raise fail(str(exc)) from exc
    for problem in read.problems:
        where = f"{problem.input} ({problem.location})" if problem.location else problem.input
        err.print(f"[yellow]warning:[/] {where}: {problem.message} (left as it is)", highlight=False)
    if report is not None:
        results = _results_from_report(report)
    else:
        from refhound.sop.runner import check_references

        with open_index_or_fail(index, settings) as store:
            try:
                results = check_references(read.references, store, settings)
            except RefhoundError as exc:
                raise fail(str(exc)) from exc
    policy = Policy.from_settings(settings.likelihood)
    try:
        outcome = fix_bibliography(text, results, policy.threshold, keep_preprints)
    except FixError as exc:
        print_error(exc)
        raise typer.Exit(1) from exc
    for plan in outcome.plans:
        for change in plan.changes:
            was = "added" if change.old is None else f"{change.old!r} ->"
            err.print(
                f"{plan.key}: {change.field} {was} {change.new!r} ({change.why})",
                highlight=False,
                soft_wrap=True,
            )
        if plan.new_type:
            err.print(f"{plan.key}: entry type -> @{plan.new_type}", highlight=False, soft_wrap=True)
        if plan.kept:
            kept = ", ".join(plan.kept)
            err.print(
                f"{plan.key}: {kept} kept: the entry cites another version of the work", highlight=False
            )
        if plan.comment:
            err.print(f"{plan.key}: unchanged, {plan.comment}", highlight=False, soft_wrap=True)
    for key in outcome.unlocated:
        message = (
            f"{key}: left as it is: its fields could not be located in the file "
            "(a missing comma, a key used twice?)"
        )
        err.print(f"[yellow]warning:[/] {message}", highlight=False, soft_wrap=True)
    changed = sum(1 for plan in outcome.plans if plan.changes or plan.new_type)
    err.print(
        f"{changed} of {len(read.references)} entries corrected, "
        f"{len(outcome.commented)} left with a comment",
        highlight=False,
    )
    if dry_run or diff:
        typer.echo(unified_diff(text, outcome.text, bib.name), nl=False)
    if not dry_run:
        write_output(outcome.text, output) if output is not None else typer.echo(outcome.text, nl=False)
    raise typer.Exit(EXIT_OK)
