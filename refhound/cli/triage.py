"""`refhound triage PATH… --out DIR`: many submissions checked in parallel, ranked most suspicious first."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from refhound.cli.extract import LLMModelOption, LLMModeOption, LLMUrlOption, llm_options
from refhound.cli.output import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PROBLEMS,
    MailtoOption,
    PriorOption,
    QuietOption,
    SearchOption,
    ThresholdOption,
    VerboseOption,
    err,
    fail,
    likelihood_options,
    online_options,
    set_verbosity,
    settings_from_options,
)
from refhound.policies import UnverifiedPolicy


def triage(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="PDFs, folders (searched recursively), .zip/.tar(.gz) archives of PDFs; a .bib, .bbl or "
            ".txt reference list counts as one paper."
        ),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder (created; reused to resume).")],
    index: Annotated[
        Path | None, typer.Option("--index", help="Index database (default: the embedded one).")
    ] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Never use the network.")] = False,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, help="Worker processes (default: the number of cores).")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run papers as tasks on the Ray cluster at ADDRESS ('auto', 'local' or host:port); "
            "needs Ray installed (pip install ray).",
        ),
    ] = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Check every paper again (forget what earlier runs finished).")
    ] = False,
    no_reuse: Annotated[
        bool,
        typer.Option("--no-reuse", help="Look every cited work up again, even when another paper cited it."),
    ] = False,
    unverified_as: Annotated[
        UnverifiedPolicy | None,
        typer.Option("--unverified-as", help="Count unverified references as real, fake or unknown."),
    ] = None,
    sop: Annotated[
        str | None,
        typer.Option("--sop", help="SOP to follow: default, citeaudit, or the path of a YAML file."),
    ] = None,
    llm_url: LLMUrlOption = None,
    llm_model: LLMModelOption = None,
    llm: LLMModeOption = None,
    threshold: ThresholdOption = None,
    prior: PriorOption = None,
    mailto: MailtoOption = None,
    search: SearchOption = None,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Check every submission under PATHS and write to the --out folder: triage.json, triage.csv,
    index.html and a report per paper, ranked most suspicious first. Re-running with the same --out reuses
    finished papers."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from refhound.cli.output import open_index_or_fail
    from refhound.triage.pool import ProcessBackend, WorkerFailed
    from refhound.triage.run import TriageOptions, default_workers, run_triage

    set_verbosity(quiet, verbose)
    settings = settings_from_options(
        {"check": {"offline": offline or None, "unverified_as": unverified_as}, "sop": {"name": sop}},
        llm_options(llm_url, llm_model, llm),
        likelihood_options(threshold, prior),
        online_options(mailto, search),
    )
    if out.exists() and not out.is_dir():
        raise fail(f"--out {out} is a file, not a folder")
    with open_index_or_fail(index, settings) as store:
        stats = store.stats()
    count = workers or default_workers()
    options = TriageOptions(
        out_dir=out,
        settings=settings,
        index_stats=stats,
        workers=count,
        fresh=fresh,
        reuse=not no_reuse,
        backend_name=f"ray {ray}" if ray else "processes",
    )
    if ray:
        from refhound.triage.ray_backend import RayBackend, ray_missing

        if reason := ray_missing():
            raise fail(reason)
        backend: object = RayBackend(ray, out)
    else:
        backend = ProcessBackend(out, count)
    out.mkdir(parents=True, exist_ok=True)
    columns = (
        TextColumn("papers"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err.console, transient=True, disable=not err.is_terminal or quiet) as bar:
        task = bar.add_task("triage", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            result = run_triage(paths, options, backend, progress)  # type: ignore[arg-type]
        except WorkerFailed as exc:
            raise fail(f"the workers could not start: {exc}") from exc
    summary = result.summary
    run = summary["run"]
    err.say(
        f"{summary['papers']} papers: {summary['flagged']} with hallucinated references, "
        f"{summary['errors']} could not be checked; {run['checked_now']} checked now, "
        f"{run['resumed']} reused from an earlier run ({run['seconds']} s). "
        f"Look-ups reused across papers: {summary['reuse']['reused']} of {summary['reuse']['lookups']}."
    )
    err.say(f"dashboard: {out / 'index.html'}")
    if result.interrupted:
        err.print("interrupted; finished papers are kept: run the same command again to go on")
        raise typer.Exit(EXIT_INTERRUPTED)
    raise typer.Exit(EXIT_PROBLEMS if summary["flagged"] or summary["errors"] else EXIT_OK)
