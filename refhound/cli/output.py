"""What every `refhound` command shares: the stderr console, exit codes and the one-line error."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console

from refhound.settings import Settings

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


def format_for(
    fmt: str | None, output: Path | None, default: str, by_suffix: Mapping[str, str] = _BY_SUFFIX
) -> str:
    """The report format: the one asked for; else the one the output file's extension names
    (`-o report.html`, through the command's own `by_suffix` table); else `default`."""
    if fmt is not None:
        return fmt
    if output is not None and (named := by_suffix.get(output.suffix.lower())):
        return named
    return default


def settings_from_options(*sections: dict[str, dict[str, Any]]) -> Settings:
    """The settings, built once, with a command's options (section → key → value; None: not given) over
    the environment and the config file; several dicts of sections are merged.

    The options go in as init values, so they are validated with everything else (`--concurrency 1000`
    is refused as the setting's limit says), and pydantic-settings merges them key by key:
    `--concurrency 8` keeps a `sop.name` from the config file. A bad value, from an option or from the
    config file, is a usage error naming the setting."""
    given: dict[str, Any] = {}
    for part in sections:
        for name, values in part.items():
            if chosen := {key: value for key, value in values.items() if value is not None}:
                given[name] = {**given.get(name, {}), **chosen}
    try:
        return Settings(**given)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise fail(f"invalid settings: {problems}") from None


ThresholdOption = Annotated[
    float | None,
    typer.Option(
        "--threshold",
        min=0.0,
        max=1.0,
        help="Likelihood of invention from which a reference is called hallucinated (default: the model's).",
    ),
]
PriorOption = Annotated[
    float | None,
    typer.Option(
        "--prior",
        min=0.0,
        max=1.0,
        help="Share of invented references expected in what is checked (default: the calibrated rate).",
    ),
]


def likelihood_options(threshold: float | None, prior: float | None) -> dict[str, dict[str, Any]]:
    """The likelihood options as a settings section, for `settings_from_options` to validate."""
    return {"likelihood": {"threshold": threshold, "prior": prior}}
