"""The `refhound` command line: one module per command group, on one Typer app.

commands  the app, `refhound check`, and every command registered on it
output    what every command shares: the stderr console, exit codes, the one-line error, settings
          built from the options
bench, extract, index, memory, quotes, serve, triage    the other commands
"""

from refhound.cli.commands import app, main

__all__ = ["app", "main"]
