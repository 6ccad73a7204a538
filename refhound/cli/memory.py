"""`refhound memory stats|forget|clear`: what the verified-citation memory holds, and forgetting it."""

from __future__ import annotations

import dataclasses
import json
import sys
from datetime import date
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from refhound.cli.output import fail
from refhound.errors import MemoryUnavailable
from refhound.settings import Settings

if TYPE_CHECKING:
    from refhound.memory.store import VerifiedMemory

memory_app = typer.Typer(
    help="Inspect and prune the verified-citation memory (records verified earlier, from authoritative "
    "sources only).",
    no_args_is_help=True,
)


def _open() -> VerifiedMemory:
    from refhound.memory.store import VerifiedMemory  # chromadb takes most of a second to import

    try:
        return VerifiedMemory.open(Settings().memory.path)
    except MemoryUnavailable as exc:
        raise fail(str(exc)) from exc


@memory_app.command()
def stats(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """How many records the memory holds, from which sources and stages, verified when."""
    from refhound.memory.maintenance import memory_stats

    with _open() as memory:
        info = memory_stats(memory)
    if as_json:
        sys.stdout.write(json.dumps(dataclasses.asdict(info), indent=2) + "\n")
        return
    out = Console()
    span = f"verified {info.oldest} to {info.newest}" if info.oldest else "none verified yet"
    out.print(f"[bold]{info.path}[/]: {info.records:,} records, {span}")
    table = Table("source", "records", title="by source")
    for source, n in info.by_source.items():
        table.add_row(source, f"{n:,}")
    out.print(table)
    stages = Table("stage that verified it", "records")
    for stage, n in info.by_stage.items():
        stages.add_row(stage, f"{n:,}")
    out.print(stages)
    if info.never_recalled:
        out.print(
            f"{info.never_recalled:,} records of sources that are not authoritative are never recalled; "
            "remove them with `refhound memory forget --source NAME`"
        )


@memory_app.command()
def forget(
    source: Annotated[str | None, typer.Option("--source", help="Records of this source, e.g. web.")] = None,
    record_id: Annotated[
        str | None, typer.Option("--record-id", help="The record with this id in its source.")
    ] = None,
    before: Annotated[
        str | None, typer.Option("--before", help="Records verified before this date (YYYY-MM-DD).")
    ] = None,
) -> None:
    """Remove the records matching every selector given (at least one)."""
    from refhound.memory.maintenance import forget as forget_records

    if source is None and record_id is None and before is None:
        raise fail("give at least one of --source, --record-id, --before")
    try:
        cutoff = date.fromisoformat(before) if before else None
    except ValueError:
        raise fail(f"--before {before!r}: not a date (YYYY-MM-DD)") from None
    with _open() as memory:
        try:
            removed = forget_records(memory, source, record_id, cutoff)
        except MemoryUnavailable as exc:
            raise fail(str(exc)) from exc
    typer.echo(f"forgot {removed:,} records")


@memory_app.command()
def clear(yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False) -> None:
    """Remove every record from the memory."""
    from refhound.memory.maintenance import clear as clear_records

    if not yes and not typer.confirm(f"remove every record of {Settings().memory.path}?"):
        raise typer.Exit(1)
    with _open() as memory:
        try:
            removed = clear_records(memory)
        except MemoryUnavailable as exc:
            raise fail(str(exc)) from exc
    typer.echo(f"removed {removed:,} records")
