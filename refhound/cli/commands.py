"""The `refhound` app: its global options and its commands, each imported only when it is run.

A command is named in `COMMANDS` with the module that defines it and a one-line summary for `--help`, so
`refhound --version`, `refhound --help` and a usage error answer without importing any command's
dependencies (pydantic, rich, the index, the SOP). The order of `COMMANDS` is the order of `--help`.
"""

from __future__ import annotations

import os
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from refhound.cli.process import resume_collection

if TYPE_CHECKING:
    from typer._click.core import Context  # the parser's own context type, which the overrides take


class Command(NamedTuple):
    module: str
    attribute: str  # a command function, or a Typer app for a command group
    summary: str  # the line `refhound --help` shows; a test holds it to the command's own help
    # The command ends the process's start-up pause of the garbage collector itself, once its set-up is
    # done (`process.resume_collection`); any other command's pause ends when it is loaded.
    resumes_collection: bool = False


COMMANDS: dict[str, Command] = {
    "check": Command(
        "refhound.cli.check",
        "check",
        "Check the references of manuscripts or reference lists.",
        resumes_collection=True,
    ),
    "triage": Command(
        "refhound.cli.triage", "triage", "Check many submissions and rank them, most suspicious first."
    ),
    "fix": Command("refhound.cli.fix", "fix", "Write a corrected copy of a .bib file."),
    "extract": Command("refhound.cli.extract", "extract", "Extract the reference list of a manuscript PDF."),
    "quotes": Command(
        "refhound.cli.quotes", "quotes_app", "Check quoted passages against the sources they cite."
    ),
    "index": Command(
        "refhound.cli.index", "index_app", "Build and inspect the embedded bibliographic index."
    ),
    "serve": Command("refhound.cli.serve", "serve", "Serve the web page and the HTTP API."),
    "bench": Command("refhound.cli.bench", "bench_app", "Measure refhound on labelled benchmarks."),
    "memory": Command("refhound.cli.memory", "memory_app", "Inspect or clear the verified-citation memory."),
    "runs": Command("refhound.cli.runs", "runs_app", "List or forget interrupted runs."),
    "config": Command(
        "refhound.cli.config", "config_app", "Show the effective settings or write a sample file."
    ),
}


def load_command(name: str) -> TyperCommand | TyperGroup:
    """The click command for `name`, importing its module now."""
    entry = COMMANDS[name]
    if not entry.resumes_collection:
        resume_collection()
    target = getattr(import_module(entry.module), entry.attribute)
    if isinstance(target, typer.Typer):
        command: TyperCommand | TyperGroup = typer.main.get_group(target)
    else:  # a plain command: a one-command app gives the command itself
        single = typer.Typer(add_completion=False)
        single.command(name=name)(target)
        command = typer.main.get_command(single)  # type: ignore[assignment]
    command.name = name
    _plain_arguments(command)
    return command


class _PlainArgument(TyperArgument):
    """An argument shown in usage lines as users read them elsewhere: PDF, PATHS..., [FILE] (Typer's own
    usage writes a required argument as `{pdf}`)."""

    def make_metavar(self, ctx: Context, *, usage: bool = False) -> str:
        name = self.metavar or (self.name or "").upper()
        name = name if name.endswith("...") or self.nargs == 1 else f"{name}..."
        return name if self.required or name.startswith("[") else f"[{name}]"


def _plain_arguments(command: TyperCommand | TyperGroup) -> None:
    for param in command.params:
        if isinstance(param, TyperArgument):
            param.__class__ = _PlainArgument  # same fields, another usage line
    for sub in getattr(command, "commands", {}).values():
        _plain_arguments(sub)


class _LazyGroup(TyperGroup):
    def list_commands(self, ctx: Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Context, cmd_name: str) -> TyperCommand | TyperGroup | None:
        return load_command(cmd_name) if cmd_name in COMMANDS else None

    def format_commands(self, ctx: Context, formatter: Any) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, entry.summary) for name, entry in COMMANDS.items()])


def _print_version(asked: bool) -> None:
    if asked:
        from refhound import __version__

        typer.echo(f"refhound {__version__}")
        raise typer.Exit()


def _use_config(path: Path | None) -> Path | None:
    if path is not None:
        if not path.is_file():
            raise typer.BadParameter(f"{path}: no such file")
        # The settings read their file from REFHOUND_CONFIG: the option is that variable, for this run.
        os.environ["REFHOUND_CONFIG"] = str(path)
    return path


app = typer.Typer(
    name="refhound",
    cls=_LazyGroup,
    help="Check the references of a manuscript: verified, wrong field, fabricated or unverified.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain usage errors: rich would cost their start-up time
)


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            callback=_use_config,
            is_eager=True,
            metavar="FILE",
            help="Settings file (TOML; default: $REFHOUND_CONFIG, else config.toml in the user config "
            "folder). `refhound config init` writes a commented one.",
        ),
    ] = None,
) -> None:
    """Check the references of a manuscript: verified, wrong field, fabricated or unverified."""
    from refhound.cli.output import err

    err.level = 1  # each invocation starts at the normal level; --quiet/--verbose of a command change it


def main(args: Any = None) -> None:
    """The command line, for a program that goes on after it (its `SystemExit` can be caught)."""
    from refhound.errors import ConfigInvalid

    try:
        app(args)
    except ConfigInvalid as exc:  # a command that reads its settings without options of its own
        from refhound.cli.output import fail

        raise SystemExit(fail(str(exc)).exit_code) from None
