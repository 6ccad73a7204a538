"""The `refhound` command line. Exit codes: 0 all good, 1 problems found, 2 usage or input error.

This is the entry point that wires the parts together, so unlike the rest of the core it may import the
SOP runner (lazily, inside the command that needs it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from refhound.cli.bench import bench_app
from refhound.cli.extract import LLMModelOption, LLMModeOption, LLMUrlOption, extract, llm_options
from refhound.cli.fix import fix
from refhound.cli.index import index_app, open_index_or_fail
from refhound.cli.memory import memory_app
from refhound.cli.output import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    PriorOption,
    ThresholdOption,
    err,
    fail,
    format_for,
    likelihood_options,
    print_error,
    settings_from_options,
    write_output,
)
from refhound.cli.quotes import quotes_app
from refhound.cli.runs import runs_app
from refhound.cli.serve import serve
from refhound.cli.triage import triage
from refhound.errors import InputError, RefhoundError
from refhound.index.store import IndexStore
from refhound.likelihood import Policy
from refhound.models import FlagPolicy, InputProblem, Reference, Report, UnverifiedPolicy, is_hallucinated
from refhound.report import FORMATS, render
from refhound.settings import Settings

if TYPE_CHECKING:
    from refhound.sop.runner import OnDecided, RunOutcome, SopRunner

app = typer.Typer(
    name="refhound",
    help="Check the references of a manuscript: verified, wrong field, fabricated or unverified.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(asked: bool) -> None:
    if asked:
        from refhound import __version__

        typer.echo(f"refhound {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Check the references of a manuscript: verified, wrong field, fabricated or unverified."""


app.add_typer(index_app, name="index")
app.add_typer(quotes_app, name="quotes")
app.add_typer(bench_app, name="bench")
app.add_typer(memory_app, name="memory")
app.add_typer(runs_app, name="runs")
app.command()(extract)
app.command()(fix)
app.command()(triage)
app.command()(serve)
_PROGRESS_MIN = 50  # show a progress bar for inputs with at least this many references


def _read_one(path: Path, settings: Settings) -> tuple[list[Reference], list[InputProblem]]:
    """The references of one input: a manuscript PDF through the extractor agent, else a reference list."""
    from refhound.inputs import read_input
    from refhound.inputs.files import check_pdf_file, is_pdf
    from refhound.inputs.project import is_latex_project, read_latex_project
    from refhound.inputs.remote import fetch_if_remote

    path = fetch_if_remote(path, settings)  # arXiv:ID or a URL: its LaTeX source folder or its PDF
    if is_latex_project(path):
        project = read_latex_project(path, settings.check.max_input_bytes)
        return project.references, project.problems
    if is_pdf(path):
        # An unusable file is said at once, before the PDF library (and its layout model) is loaded.
        check_pdf_file(path, settings.extract.max_bytes)
        from refhound.agents.extractor import read_pdf_references

        extracted: tuple[list[Reference], list[InputProblem]] = read_pdf_references(path, settings)
        return extracted
    read = read_input(path, max_bytes=settings.check.max_input_bytes)
    return read.references, read.problems


def _read(paths: list[Path], settings: Settings) -> tuple[list[Reference], list[InputProblem], bool]:
    """Read every input; an unusable one is reported and skipped so the others are still checked."""
    references: list[Reference] = []
    problems: list[InputProblem] = []
    unusable = False
    for path in paths:
        try:
            found, found_problems = _read_one(path, settings)
        except InputError as exc:
            print_error(exc)
            problems.append(InputProblem(input=str(path), message=exc.problem))
            unusable = True
            continue
        references.extend(found)
        problems.extend(found_problems)
        for problem in found_problems:
            where = f"{problem.input} ({problem.location})" if problem.location else problem.input
            err.print(f"[yellow]warning:[/] {where}: {problem.message}", highlight=False, soft_wrap=True)
    return references, problems, unusable


@app.command()
def check(
    inputs: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Manuscript PDFs, LaTeX projects (.tex or folder), arXiv:ID or URLs (online), or .bib, "
            ".bbl, CSL-JSON or plain-text reference lists."
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help=f"table (terminal) or one of: {', '.join(FORMATS)} (default: from the --output file's "
            "extension, else table).",
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the report to this file.")
    ] = None,
    index: Annotated[
        Path | None, typer.Option("--index", help="Index database (default: the embedded one).")
    ] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Never use the network.")] = False,
    unverified_as: Annotated[
        UnverifiedPolicy | None,
        typer.Option("--unverified-as", help="Count unverified references as real, fake or unknown."),
    ] = None,
    llm_url: LLMUrlOption = None,
    llm_model: LLMModelOption = None,
    llm: LLMModeOption = None,
    sop: Annotated[
        str | None,
        typer.Option("--sop", help="SOP to follow: default, citeaudit, or the path of a YAML file."),
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            help="Finish the interrupted run RUN_ID with the settings and index it started with (its inputs "
            "are not read again; only --format and --output may be given with it). Runs: `refhound runs`.",
        ),
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", min=1, help="References checked at the same time.")
    ] = None,
    flag: Annotated[
        FlagPolicy | None,
        typer.Option(
            "--flag",
            help="What exit code 1 means: a fabricated or major-error reference (major, the default), or "
            "any metadata error, minor slips included (any).",
        ),
    ] = None,
    threshold: ThresholdOption = None,
    prior: PriorOption = None,
) -> None:
    """Check every reference of INPUTS and report a verdict per reference."""
    fmt = format_for(fmt, output, "table")
    if fmt != "table" and fmt not in FORMATS:
        raise fail(f"unknown format {fmt!r}; choose table or one of: {', '.join(FORMATS)}")
    if bool(inputs) == bool(resume):
        raise fail("give the INPUTS to check, or --resume RUN_ID to finish an interrupted run (not both)")
    shaping = {
        "--index": index,
        "--offline": offline or None,
        "--unverified-as": unverified_as,
        "--flag": flag,
        "--sop": sop,
        "--concurrency": concurrency,
        "--llm-url": llm_url,
        "--llm-model": llm_model,
        "--llm": llm,
        "--threshold": threshold,
        "--prior": prior,
    }
    if resume:
        if given := [name for name, value in shaping.items() if value is not None]:
            raise fail(
                f"--resume repeats every setting run {resume} started with; leave out {', '.join(given)}"
            )
        settings, index = _stored_run_or_fail(resume)
    else:
        settings = settings_from_options(
            {
                "check": {"offline": offline or None, "unverified_as": unverified_as, "flag": flag},
                "sop": {"name": sop, "concurrency": concurrency},
            },
            llm_options(llm_url, llm_model, llm),
            likelihood_options(threshold, prior),
        )
    # Inputs first: when none can be used, their errors are all there is to say, before any set-up.
    references, problems, unusable = _read(inputs or [], settings)
    if unusable and not references:
        raise typer.Exit(EXIT_USAGE)
    with open_index_or_fail(index, settings) as store, _runner_or_fail(settings, store) as runner:
        index_stats = store.stats() if fmt == "html" else None  # for the HTML report's header
        if resume:
            outcome = _run(runner, resume, settings)
        else:
            from refhound.sop.runner import new_run_id

            batch = _Batch(references, [str(p) for p in inputs or []], problems)
            outcome = _run(runner, new_run_id(), settings, batch)
    likelihood = Policy.from_settings(settings.likelihood)
    report = Report(
        inputs=outcome.inputs,
        references=outcome.results,
        problems=outcome.problems,
        model=likelihood.model.label,
        threshold=likelihood.threshold,
    )
    _emit(report, fmt, output, index_stats, settings.check.offline)
    if unusable:
        raise typer.Exit(EXIT_USAGE)
    policy = settings.check
    problems_found = any(not p.informational for p in outcome.problems) or any(
        is_hallucinated(r.verdict, r.likelihood, likelihood.threshold, policy.unverified_as, policy.flag)
        for r in outcome.results
    )
    raise typer.Exit(EXIT_PROBLEMS if problems_found else EXIT_OK)


def _stored_run_or_fail(run_id: str) -> tuple[Settings, Path]:
    """The settings and index of the run to resume, found in the runs file the current settings name."""
    from refhound.sop.runner import stored_run

    try:
        return stored_run(settings_from_options().sop.runs_path, run_id)
    except RefhoundError as exc:
        raise fail(str(exc)) from exc


def _runner_or_fail(settings: Settings, store: IndexStore) -> SopRunner:
    from refhound.sop.runner import SopRunner

    try:
        runner = SopRunner(settings, store)
    except RefhoundError as exc:
        raise fail(str(exc)) from exc
    for stage, why in runner.plan.skipped.items():
        err.print(f"[dim]stage {stage} skipped: {why}[/]", highlight=False)
    return runner


@dataclass(frozen=True)
class _Batch:
    references: list[Reference]
    inputs: list[str]
    problems: list[InputProblem]


def _run(runner: SopRunner, run_id: str, settings: Settings, batch: _Batch | None = None) -> RunOutcome:
    """Run a batch (or resume run_id when there is none) with checkpoints. An interrupted run says how
    to finish it; a finished one's checkpoints are deleted (its report is the output)."""
    from refhound.sop.runner import forget_run

    def execute(progress: OnDecided | None) -> RunOutcome:
        if batch is None:
            return runner.resume(run_id, progress=progress)
        return runner.run(
            batch.references, inputs=batch.inputs, problems=batch.problems, run_id=run_id, progress=progress
        )

    err.print(f"[dim]run {run_id}[/]", highlight=False)
    total = len(batch.references) if batch else 0
    try:
        if total < _PROGRESS_MIN or not err.is_terminal:
            outcome = execute(None)
        else:
            columns = (TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
            with Progress(*columns, console=err, transient=True) as bar:
                task = bar.add_task("check", total=total)
                outcome = execute(lambda _position, _result: bar.advance(task))
    except KeyboardInterrupt:
        err.print(f"interrupted; finish it with: refhound check --resume {run_id}", highlight=False)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except RefhoundError as exc:
        raise fail(str(exc)) from exc
    forget_run(settings.sop.runs_path, run_id)
    return outcome


def _emit(
    report: Report,
    fmt: str,
    output: Path | None,
    index_stats: dict[str, object] | None = None,
    offline: bool = False,
) -> None:
    if fmt == "html":  # with a header naming the index, its coverage and whether the run was online
        from refhound.report.html import header_for, render_html

        write_output(render_html(report, header_for(index_stats, offline)), output)
        return
    if fmt == "table":
        from refhound.report.terminal import print_report

        if output is None:
            print_report(report, Console())
            return
        with output.open("w", encoding="utf-8") as handle:
            print_report(report, Console(file=handle, no_color=True, width=120))
        return
    write_output(render(report, fmt), output)


def main() -> None:
    app()
