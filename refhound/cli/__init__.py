"""The `refhound` command line: one module per command group, on one Typer app.

commands  the app, its global options, the table of commands (each imported when it runs)
process   the process entry `run`: `--version` before the parser, the collector paused through start-up,
          an exit without the interpreter's teardown
output    what every command shares: the stderr console and its verbosity, exit codes, the one-line error,
          settings built from the options, the index opened or a clear error
check     `refhound check`
openreview  `triage --openreview`: a venue's submissions downloaded into a folder
bench, config, extract, fix, index, memory, quotes, runs, serve, triage    the other commands

`app` and `main` are imported on first use: the process entry answers `--version` without the parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from refhound.cli.process import run

if TYPE_CHECKING:
    from refhound.cli.commands import app, main

__all__ = ["app", "main", "run"]


def __getattr__(name: str) -> Any:
    if name in ("app", "main"):
        from refhound.cli import commands

        return getattr(commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
