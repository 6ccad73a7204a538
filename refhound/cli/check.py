"""`refhound check INPUTS`: a verdict, and the likelihood that it was invented, for every reference.

Exit codes (see `Exit`): 0 all good, 1 a hallucination found, 2 usage error or no usable input, 3 some
entries could not be read, 4 some verdicts unverified because a source gave no answer; 1 > 3 > 4.
Everything beyond the options is imported inside the command, so a usage error answers at once.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer

from refhound.cli.extract import LLMModelOption, LLMModeOption, LLMUrlOption, llm_options
from refhound.cli.output import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    MailtoOption,
    PriorOption,
    QuietOption,
    SearchOption,
    ThresholdOption,
    VerboseOption,
    err,
    fail,
    format_for,
    likelihood_options,
    online_options,
    print_error,
    run_exit,
    set_verbosity,
    settings_from_options,
    write_output,
)
from refhound.cli.process import resume_collection
from refhound.errors import RefhoundError
from refhound.policies import FlagPolicy, UnverifiedPolicy
from refhound.report import FORMATS

if TYPE_CHECKING:
    from refhound.index.store import IndexStore
    from refhound.inputs.base import InputRead
    from refhound.inputs.stream import StreamedInput
    from refhound.models import InputProblem, ReferenceResult, Report
    from refhound.settings import Settings
    from refhound.sop.runner import RunOutcome, SopRunner

_UNWRAPPED = 1_000  # the table's width when nothing should wrap: wider than any cell it prints


def check(
    inputs: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Manuscript PDFs, LaTeX projects (.tex or folder), arXiv:ID or URLs (online), or .bib, "
            ".bbl, CSL-JSON or plain-text reference lists.",
            show_default=False,
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
    mailto: MailtoOption = None,
    search: SearchOption = None,
    fail_on_retracted: Annotated[
        bool | None,
        typer.Option(
            "--fail-on-retracted",
            help="Exit with 1 when a cited work is retracted, withdrawn or under concern (by default a "
            "retraction is reported, and the exit code is about the citations).",
        ),
    ] = None,
    width: Annotated[
        int | None,
        typer.Option(
            "--width",
            min=40,
            help="Width of the table report in characters (default: the terminal's; no wrapping when the "
            "output is not a terminal).",
        ),
    ] = None,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Check every reference of INPUTS and report a verdict and a likelihood of invention for each.

    Exit code: 0 all good; 1 a hallucination found (or, with --fail-on-retracted, a retracted work);
    3 some entries could not be read; 4 some references unverified because a source gave no answer
    (1 wins over 3, 3 over 4); 2 usage error."""
    set_verbosity(quiet, verbose)
    fmt = format_for(fmt, output, "table")
    if fmt != "table" and fmt not in FORMATS:
        raise fail(f"unknown format {fmt!r}; choose table or one of: {', '.join(FORMATS)}")
    if bool(inputs) == bool(resume):
        raise fail("give the INPUTS to check, or --resume RUN_ID to finish an interrupted run (not both)")
    # Said before settings and readers load; a name with a scheme (arXiv:ID, https://…) is fetched later.
    if inputs and not any(path.exists() or ":" in str(path) for path in inputs):
        for path in inputs:
            print_error(f"{path}: no such file")
        raise typer.Exit(EXIT_USAGE)
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
        "--mailto": mailto,
        "--search": search,
        "--fail-on-retracted": fail_on_retracted,
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
                "check": {
                    "offline": offline or None,
                    "unverified_as": unverified_as,
                    "flag": flag,
                    "fail_on_retracted": fail_on_retracted,
                },
                "sop": {"name": sop, "concurrency": concurrency},
            },
            online_options(mailto, search),
            llm_options(llm_url, llm_model, llm),
            likelihood_options(threshold, prior),
        )
    # Inputs first: when none can be used, their errors are all there is to say, before any set-up. A
    # reference list is only judged here, and read as the run goes (in memory that does not grow with it).
    from refhound.cli.reading import open_inputs
    from refhound.inputs.base import InputRead

    sources, unusable = open_inputs(inputs or [], settings)
    if unusable and all(isinstance(s, InputRead) and not s.references for s in sources):
        raise typer.Exit(EXIT_USAGE)
    from refhound.cli.output import open_index_or_fail
    from refhound.sop.runner import forget_run, new_run_id

    run_id = resume or new_run_id()
    with open_index_or_fail(index, settings) as store, _runner_or_fail(settings, store) as runner:
        resume_collection()  # set-up is done: the run collects as the SOP runner sees fit
        index_stats = store.stats() if fmt == "html" else None  # for the HTML report's header
        batch = None if resume else _Batch(sources, [str(p) for p in inputs or []])
        outcome = _run(runner, run_id, batch)
    tally = _emit(outcome, settings, fmt, output, index_stats, width)
    forget_run(settings.sop.runs_path, run_id)  # its report is out: there is nothing left to resume
    raise typer.Exit(tally.exit_code(outcome.problems, unusable))


class _Tally:
    """What the exit code says of the verdicts, gathered as they are written out."""

    def __init__(self, settings: Settings, threshold: float) -> None:
        self.policy, self.threshold = settings.check, threshold
        self.hallucinated = self.unreachable = False

    def seen(self, results: Iterable[ReferenceResult]) -> Iterator[ReferenceResult]:
        from refhound.models import Verdict, is_hallucinated
        from refhound.retractions import fails_on_retracted

        policy = self.policy
        for result in results:
            self.hallucinated = self.hallucinated or (
                is_hallucinated(
                    result.verdict, result.likelihood, self.threshold, policy.unverified_as, policy.flag
                )
                or fails_on_retracted([result], policy.fail_on_retracted)
            )
            self.unreachable = self.unreachable or bool(
                result.verdict is Verdict.UNVERIFIED and result.unreachable
            )
            yield result

    def exit_code(self, problems: list[InputProblem], unusable: bool) -> int:
        return run_exit(
            hallucinated=self.hallucinated,
            # An uncited entry of a LaTeX project is a note, not an entry that could not be read.
            unreadable=unusable or any(not p.informational for p in problems),
            unreachable=self.unreachable,
        )


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
    chosen = {"web": settings.web.provider != "none"}  # a stage the settings ask for by name
    for stage, why in runner.plan.skipped.items():
        if chosen.get(stage):  # asked for, yet it cannot run: a setting to fix, said at every level
            err.print(f"[yellow]warning:[/] stage {stage} skipped: {why}", highlight=False, soft_wrap=True)
        else:  # offline, or not configured: what the user chose
            err.detail(f"[dim]stage {stage} skipped: {why}[/]")
    return runner


class _Batch(NamedTuple):  # not a dataclass: importing dataclasses costs a usage error time
    sources: list[InputRead | StreamedInput]
    inputs: list[str]


def _run(runner: SopRunner, run_id: str, batch: _Batch | None = None) -> RunOutcome:
    """Run a batch (or resume run_id when there is none) with checkpoints, its inputs read as it goes and
    its verdicts kept in the runs file, not in memory (the report is written from there). An interrupted
    run says how to finish it."""
    from refhound.cli.reading import Shown, reads

    err.say(f"[dim]run {run_id}[/]")
    shown = Shown()
    try:
        if batch is None:
            return runner.resume(run_id, keep=False)
        return runner.run_read(
            reads(batch.sources, shown), run_id=run_id, inputs=batch.inputs, progress=shown.decided
        )
    except KeyboardInterrupt:
        if batch is not None and not shown.read_all:  # a run cut off while reading cannot be resumed
            from refhound.sop.runner import forget_run

            forget_run(runner.settings.sop.runs_path, run_id)
            err.print("interrupted while reading the inputs; run the check again", highlight=False)
        else:
            err.print(f"interrupted; finish it with: refhound check --resume {run_id}", highlight=False)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except RefhoundError as exc:
        raise fail(str(exc)) from exc
    finally:
        shown.close()


def _emit(
    outcome: RunOutcome,
    settings: Settings,
    fmt: str,
    output: Path | None,
    index_stats: dict[str, object] | None = None,
    width: int | None = None,
) -> _Tally:
    """Write the run's report, its verdicts read back from the runs file: as JSON a verdict at a time (the
    report of a large input is never held), in the other formats whole."""
    from refhound.likelihood import Policy
    from refhound.models import Report
    from refhound.sop.runs import stored_results

    likelihood = Policy.from_settings(settings.likelihood)
    report = Report(
        inputs=outcome.inputs,
        problems=outcome.problems,
        model=likelihood.model.label,
        threshold=likelihood.threshold,
    )
    tally = _Tally(settings, likelihood.threshold)
    assert outcome.run_id is not None
    results = tally.seen(stored_results(settings.sop.runs_path, outcome.run_id))
    if fmt == "json":
        from refhound.report.json import write_json

        if output is None:
            write_json(report, results, sys.stdout)
            sys.stdout.write("\n")
        else:
            with output.open("w", encoding="utf-8") as handle:
                write_json(report, results, handle)
        return tally
    report.references = list(results)
    _emit_whole(report, fmt, output, index_stats, settings.check.offline, width)
    return tally


def _emit_whole(
    report: Report,
    fmt: str,
    output: Path | None,
    index_stats: dict[str, object] | None = None,
    offline: bool = False,
    width: int | None = None,
) -> None:
    if fmt == "html":  # with a header naming the index, its coverage and whether the run was online
        from refhound.report.html import header_for, render_html

        write_output(render_html(report, header_for(index_stats, offline)), output)
        return
    if fmt == "table":
        from rich.console import Console

        from refhound.report.terminal import print_report

        console = Console()
        if output is None and console.is_terminal:  # a terminal keeps its own width, or the one asked for
            print_report(report, Console(width=width) if width else console)
            return
        # Into a pipe or file nothing wraps (a record id split over two lines cannot be grepped), and no
        # line carries the table's padding to its full width.
        plain = io.StringIO()
        unwrapped = Console(file=plain, no_color=True, width=width or _UNWRAPPED)
        print_report(report, unwrapped, whole=width is None)
        text = "".join(line.rstrip() + "\n" for line in plain.getvalue().splitlines())
        if output is None:
            sys.stdout.write(text)
        else:
            output.write_text(text, encoding="utf-8")
        return
    from refhound.report import render

    write_output(render(report, fmt), output)
