"""The `refhound` command line: one module per command group, on one Typer app.

commands  the app, its global options, the table of commands (each imported when it runs), the process entry
process   how a `refhound` process starts and ends: the collector paused through start-up, a quick exit
output    what every command shares: the stderr console and its verbosity, exit codes, the one-line error,
          settings built from the options, the index opened or a clear error
check     `refhound check`
openreview  `triage --openreview`: a venue's submissions downloaded into a folder
bench, config, extract, fix, index, memory, quotes, runs, serve, triage    the other commands
"""

from refhound.cli.commands import app, main, run

__all__ = ["app", "main", "run"]
