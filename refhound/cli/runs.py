"""`refhound runs [prune]`: the checked runs kept for `check --resume`, and forgetting old ones."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from datetime import timedelta
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from refhound.cli.output import err, settings_from_options

if TYPE_CHECKING:
    from refhound.sop.runs import RunInfo

runs_app = typer.Typer(
    help="List the runs kept for `refhound check --resume` (interrupted ones, and any still going), and "
    "prune old ones.",
    invoke_without_command=True,
)


def _listed() -> list[RunInfo]:
    from refhound.sop.runs import open_runs

    path = settings_from_options().sop.runs_path

    async def read() -> list[RunInfo]:
        async with open_runs(path) as runs:
            return await runs.runs()

    return asyncio.run(read()) if path.exists() else []


@runs_app.callback()
def runs(
    context: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the runs: id, when it started, status (running, interrupted, finished), references done of
    all, inputs. Resume one with `refhound check --resume RUN_ID`."""
    if context.invoked_subcommand is not None:
        return
    found = _listed()
    if as_json:
        sys.stdout.write(json.dumps([dataclasses.asdict(run) for run in found], indent=2) + "\n")
        return
    if not found:
        err.print(f"no runs in {settings_from_options().sop.runs_path}", highlight=False)
        return
    table = Table("run", "started (UTC)", "status", "references", "inputs")
    for run in found:
        inputs = ", ".join(run.inputs[:3]) + (
            f" and {len(run.inputs) - 3} more" if len(run.inputs) > 3 else ""
        )
        table.add_row(run.run_id, run.created_at, run.status, f"{run.done:,} of {run.references:,}", inputs)
    Console().print(table)


@runs_app.command()
def prune(
    older_than: Annotated[
        float,
        typer.Option("--older-than", min=0, help="Forget runs started DAYS days ago or earlier (0: all)."),
    ],
    interrupted: Annotated[
        bool, typer.Option("--interrupted", help="Only interrupted runs (not finished ones kept).")
    ] = False,
) -> None:
    """Forget old runs (never one still going) and give their space back to the file system.
    Interrupted runs are also pruned on their own, after sop.prune_interrupted_after_days."""
    from refhound.sop.runs import open_runs

    path = settings_from_options().sop.runs_path
    if not path.exists():
        err.print(f"no runs in {path}", highlight=False)
        return

    async def prune_and_compact() -> list[str]:
        async with open_runs(path) as runs:
            pruned = await runs.prune(timedelta(days=older_than), interrupted_only=interrupted)
            await runs.compact()
            return pruned

    pruned = asyncio.run(prune_and_compact())
    err.print(f"{len(pruned)} runs forgotten; {path} is {path.stat().st_size:,} bytes", highlight=False)
