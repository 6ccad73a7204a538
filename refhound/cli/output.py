"""What every `refhound` command shares: the stderr console, how much it says, exit codes, the one-line
error and settings built from options.

Kept light on purpose: every command imports it, and `--version` or a usage error must answer before
rich, pydantic or the index are loaded."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from refhound.index.store import IndexStore
    from refhound.settings import Settings


class Exit(IntEnum):
    """refhound's exit codes. When several apply, 1 wins over 3 and 3 over 4: a found hallucination is
    never hidden by an unreadable entry or a silent source."""

    OK = 0
    PROBLEMS = 1  # a hallucination was found (or, with --flag any, any metadata error)
    USAGE = 2  # a usage error, or no input could be used at all
    UNREADABLE = 3  # some entries or inputs could not be read (the rest were checked)
    UNREACHABLE = 4  # some verdicts are unverified because a source gave no answer
    INTERRUPTED = 130  # Ctrl-C, as shells report it


EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERRUPTED = Exit.OK, Exit.PROBLEMS, Exit.USAGE, Exit.INTERRUPTED


def run_exit(*, hallucinated: bool, unreadable: bool, unreachable: bool) -> Exit:
    """The exit code of a finished check: a found hallucination wins over unreadable entries, which win
    over verdicts left unverified by a silent source."""
    if hallucinated:
        return Exit.PROBLEMS
    if unreadable:
        return Exit.UNREADABLE
    if unreachable:
        return Exit.UNREACHABLE
    return Exit.OK


class _Stderr:
    """The stderr console, made on first use: rich costs start-up time that `--version` and a usage error
    should not pay. Messages go through `say` (normal) and `detail` (--verbose) so that `--quiet` and
    `--verbose` apply everywhere; errors and warnings use `print` and always show."""

    def __init__(self) -> None:
        self._console: Console | None = None
        self.level = 1  # 0 quiet, 1 normal, 2 verbose

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=True)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console, name)

    def say(self, message: str) -> None:
        """A progress note (a run id, a count): shown unless --quiet."""
        if self.level >= 1:
            self.console.print(message, highlight=False, soft_wrap=True)

    def detail(self, message: str) -> None:
        """What only --verbose shows (stages skipped, where things came from)."""
        if self.level >= 2:
            self.console.print(message, highlight=False, soft_wrap=True)


err = _Stderr()


@contextmanager
def working(message: str) -> Iterator[None]:
    """A spinner with `message` and the time taken, on a terminal and unless --quiet: long steps that
    report nothing else (a PDF's extraction, OCR) show that they are going on."""
    if err.level == 0 or not err.is_terminal:
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = (SpinnerColumn(), TextColumn(message), TimeElapsedColumn())
    with Progress(*columns, console=err.console, transient=True) as bar:
        bar.add_task(message, total=None)
        yield


QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="Print only the report and errors (no notes or progress).")
]
VerboseOption = Annotated[
    bool, typer.Option("--verbose", "-v", help="Also print the stages skipped and other details.")
]


def set_verbosity(quiet: bool, verbose: bool) -> None:
    """Apply a command's --quiet/--verbose to everything it prints on stderr."""
    if quiet and verbose:
        raise fail("--quiet and --verbose cannot be given together")
    err.level = 0 if quiet else 2 if verbose else 1


def write_output(text: str, output: Path | None) -> None:
    """A command's output to stdout (ending in a newline unless empty), or to the file `output`."""
    if output is None:
        sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")
    else:
        output.write_text(text, encoding="utf-8")


def print_error(message: object) -> None:
    """`error: …` on stderr, through click rather than rich: a usage error answers before rich loads."""
    typer.echo(typer.style("error:", fg="red", bold=True) + f" {message}", err=True)


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
    is refused as the setting's limit says), and merged key by key: `--concurrency 8` keeps a `sop.name`
    from the config file. A bad value, from an option, the environment or the config file, or a config
    file that is no TOML, is a usage error naming the setting or the file."""
    from pydantic import ValidationError

    from refhound.errors import ConfigInvalid
    from refhound.settings import Settings

    given: dict[str, Any] = {}
    for part in sections:
        for name, values in part.items():
            if chosen := {key: value for key, value in values.items() if value is not None}:
                given[name] = {**given.get(name, {}), **chosen}
    try:
        return Settings(**given)
    except ConfigInvalid as exc:
        raise fail(str(exc)) from None
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


MailtoOption = Annotated[
    str | None,
    typer.Option(
        "--mailto",
        metavar="EMAIL",
        help="Contact address sent to Crossref and OpenAlex (their polite pool); also settable as "
        "REFHOUND_SOURCES__MAILTO or [sources] mailto in the settings file.",
    ),
]
SearchOption = Annotated[
    str | None,
    typer.Option(
        "--search",
        metavar="PROVIDER",
        help="Web search provider of the web stage: none, searxng, brave, google or serpapi (its URL or key "
        "from the settings: `refhound config init` lists them).",
    ),
]


def online_options(mailto: str | None, search: str | None) -> dict[str, dict[str, Any]]:
    """The politeness contact and the web search provider as settings sections."""
    return {"sources": {"mailto": mailto}, "web": {"provider": search}}


def open_index_or_fail(db: Path | None, settings: Settings) -> IndexStore:
    """The index a command asked for (building the default one on first use), or a one-line error."""
    from refhound.errors import RefhoundError
    from refhound.index.default import open_index

    try:
        return open_index(settings, db, notice=err.print)
    except RefhoundError as exc:
        raise fail(str(exc)) from exc
