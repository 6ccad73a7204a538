"""What every `refhound` command shares: the stderr console, exit codes and the one-line error."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console

err = Console(stderr=True)

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report it


def write_output(text: str, output: Path | None) -> None:
    """A command's output to stdout (ending in a newline unless empty), or to the file `output`."""
    if output is None:
        sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")
    else:
        output.write_text(text, encoding="utf-8")


def print_error(message: object) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)


def fail(message: str) -> typer.Exit:
    """Print a one-line error and return the exit for a usage error or unusable input."""
    print_error(message)
    return typer.Exit(EXIT_USAGE)


_BY_SUFFIX = {
    ".json": "json",
    ".md": "md",
    ".markdown": "md",
    ".txt": "text",
    ".html": "html",
    ".htm": "html",
}


def format_for(fmt: str | None, output: Path | None, default: str) -> str:
    """The report format: the one asked for; else the one the output file's extension names
    (`-o report.html`); else `default`."""
    if fmt is not None:
        return fmt
    if output is not None and (by_suffix := _BY_SUFFIX.get(output.suffix.lower())):
        return by_suffix
    return default
