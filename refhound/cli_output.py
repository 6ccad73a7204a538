"""What every `refhound` command shares: the stderr console, exit codes and the one-line error."""

from __future__ import annotations

import typer
from rich.console import Console

err = Console(stderr=True)

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def print_error(message: object) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)


def fail(message: str) -> typer.Exit:
    """Print a one-line error and return the exit for a usage error or unusable input."""
    print_error(message)
    return typer.Exit(EXIT_USAGE)
