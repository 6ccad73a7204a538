"""`refhound bench NAME PATH` scores refhound on a benchmark; `refhound bench generate` writes a new one.

    refhound bench citeaudit benchmark.json --split generated --index DB --json out.json --score-upstream
    refhound bench hallmark dev_public.jsonl --index DB --unverified-as fake --json out.json
    refhound bench generate --index DB --n 5000 --seed 1 --out gen.jsonl

Exit codes: 0 scored, 2 usage or input error (the message names the line), 130 interrupted — the items
finished before the Ctrl-C are scored and written all the same.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from contextlib import nullcontext
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from typer.core import TyperGroup

from refhound.benchmark.items import Benchmark, InputMode, part_of
from refhound.cli.output import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    PriorOption,
    ThresholdOption,
    err,
    fail,
    likelihood_options,
    open_index_or_fail,
    settings_from_options,
    write_output,
)
from refhound.errors import InputError, RefhoundError
from refhound.likelihood import Policy
from refhound.models import FlagPolicy, UnverifiedPolicy
from refhound.settings import Settings

if TYPE_CHECKING:
    from refhound.benchmark.results import BenchResult, Timing
    from refhound.benchmark.runner import BenchRun


class _BenchGroup(TyperGroup):
    """`refhound bench NAME PATH …` runs the `run` command: any first word that is not a subcommand is
    a benchmark name, so the DESIGN's short form works beside `refhound bench generate`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # Any: typer vendors its own click
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["run", *args]
        return super().parse_args(ctx, args)


bench_app = typer.Typer(
    cls=_BenchGroup,
    help="Score refhound on CiteAudit, HALLMARK or labelled BibTeX (`refhound bench NAME PATH`, short for "
    "`bench run NAME PATH`), or generate a perturbation set.",
    no_args_is_help=True,
)


class _Policy(StrEnum):
    """`UnverifiedPolicy` without `unknown`: a score needs a yes/no answer for every item."""

    REAL = "real"
    FAKE = "fake"


def _progress_bar(total: int) -> Progress | None:
    if total < 50 or not err.is_terminal:
        return None
    columns = (TextColumn("bench"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=err.console, transient=True)


@bench_app.command("run")
def run(
    name: Annotated[str, typer.Argument(help="citeaudit, hallmark or bib.")],
    path: Annotated[Path, typer.Argument(help="The benchmark file (benchmark.json, .jsonl or .bib).")],
    split: Annotated[
        str | None, typer.Option("--split", help="CiteAudit only: realworld, generated or all (default).")
    ] = None,
    index: Annotated[
        Path | None, typer.Option("--index", help="Index database (default: the embedded one).")
    ] = None,
    unverified_as: Annotated[
        _Policy, typer.Option("--unverified-as", help="Count unverified verdicts as real or fake.")
    ] = _Policy.REAL,
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Write the refhound.bench/1 JSON here (and, beside it, .md and .png)."),
    ] = None,
    markdown_out: Annotated[
        Path | None, typer.Option("--md", help="Write the Markdown summary here.")
    ] = None,
    plot_out: Annotated[Path | None, typer.Option("--plot", help="Write the PNG plot here.")] = None,
    score_upstream: Annotated[
        bool,
        typer.Option("--score-upstream", help="Also score the file's own predictions (CiteAudit's Predict)."),
    ] = False,
    input_mode: Annotated[
        InputMode | None,
        typer.Option("--input", help="Verify the items' fields, or parse their reference strings (raw)."),
    ] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Never use the network.")] = False,
    memory: Annotated[
        bool,
        typer.Option(
            "--memory/--no-memory",
            help="Use a verified-citation memory, a fresh one in a temporary folder for this run: the "
            "user's own memory is never read or written by a bench (off by default).",
        ),
    ] = False,
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", min=1, help="References checked at the same time.")
    ] = None,
    positive: Annotated[
        FlagPolicy | None,
        typer.Option(
            "--positive",
            help="What a positive prediction is: fabricated or a major metadata error (major), or any "
            "metadata error too (any). Default: major for citeaudit and bib, any for hallmark (its taxonomy "
            "counts partial author lists and wrong venues as hallucinations).",
        ),
    ] = None,
    threshold: ThresholdOption = None,
    prior: PriorOption = None,
    part: Annotated[
        str | None,
        typer.Option(
            "--part",
            help="K/N: score only part K of N of the items, split by a hash of each item's content (the "
            "same item falls in the same part in every file and run).",
        ),
    ] = None,
) -> None:
    """Score refhound on the benchmark NAME read from PATH (positive = hallucinated)."""
    from refhound.benchmark.loaders import load_benchmark
    from refhound.benchmark.results import BenchResult, Timing
    from refhound.benchmark.runner import check_input, default_input

    started = time.perf_counter()
    # A bad --part is refused before a long file is read; a good one is recorded as K/N ('01/2' → '1/2').
    parts = None if part is None else _part(part)
    part = None if parts is None else f"{parts[0]}/{parts[1]}"
    try:
        bench = load_benchmark(name, path, split)
        mode = input_mode or default_input(bench)
        check_input(bench, mode)
    except InputError as exc:
        raise fail(str(exc)) from exc
    if score_upstream and not bench.has_upstream:
        raise fail(f"{path}: no upstream predictions to score (--score-upstream needs CiteAudit's Predict)")
    in_file = len(bench.items)
    if parts is not None:
        k, n = parts
        bench.items = [item for item in bench.items if part_of(item, n) == k]
    if not bench.items:
        raise fail(
            f"{path}: no items{f' in split {split!r}' if split else ''}{f' in part {part}' if part else ''}"
        )
    loaded = time.perf_counter()
    outputs = _outputs(json_out, markdown_out, plot_out)
    # A score must neither depend on nor change what the user's own runs remembered: with --memory the
    # run gets an empty memory of its own, deleted when the run ends (however it ends).
    scratch = tempfile.TemporaryDirectory(prefix="refhound-bench-memory-") if memory else nullcontext()
    with scratch as memory_dir:
        settings = settings_from_options(
            {
                "memory": {"enabled": memory_dir is not None, "path": memory_dir},
                "check": {"offline": offline or None},
                "sop": {"concurrency": concurrency},
            },
            likelihood_options(threshold, prior),
        )
        outcome, ready = _verify(bench, mode, index, settings)
    likelihood = Policy.from_settings(settings.likelihood)
    if outcome.interrupted:
        err.print(
            f"interrupted: {len(outcome.results):,} of {len(bench.items):,} items finished; scoring those",
            highlight=False,
        )
    result = BenchResult(
        bench,
        outcome,
        UnverifiedPolicy(unverified_as.value),
        mode,
        str(index) if index else None,
        score_upstream=score_upstream,
        positive=positive or (FlagPolicy.ANY if bench.name == "hallmark" else FlagPolicy.MAJOR),
        part=part,
        items_in_file=in_file,
        threshold=likelihood.threshold,
        model=likelihood.model.label,
    )
    _report(result, Timing(load=loaded - started, setup=ready - loaded), outputs)
    raise typer.Exit(EXIT_INTERRUPTED if outcome.interrupted else EXIT_OK)


def _verify(
    bench: Benchmark, mode: InputMode, index: Path | None, settings: Settings
) -> tuple[BenchRun, float]:
    """Run refhound's SOP over the items, with a progress bar on a terminal; the run, and when the
    verifier was ready (the set-up before it is the index and the SOP graph, not verification)."""
    from refhound.benchmark.runner import run_bench, sop_verifier
    from refhound.sop.runner import SopRunner

    with open_index_or_fail(index, settings) as store:
        try:
            runner = SopRunner(settings, store)
        except RefhoundError as exc:
            raise fail(str(exc)) from exc
        with runner:
            ready = time.perf_counter()
            bar = _progress_bar(len(bench.items))
            try:
                with bar or nullcontext():
                    advance: Callable[[int], None] | None = None
                    if bar is not None:
                        task = bar.add_task("bench", total=len(bench.items))
                        advance = partial(bar.advance, task)
                    return run_bench(bench.items, sop_verifier(runner), mode, progress=advance), ready
            except RefhoundError as exc:
                raise fail(str(exc)) from exc


def _part(text: str) -> tuple[int, int]:
    """K and N of a `--part K/N`, validated."""
    k, _, n = text.partition("/")
    if not (k.isdecimal() and n.isdecimal()) or int(n) < 2 or not 1 <= int(k) <= int(n):
        raise fail(f"--part {text!r}: write K/N with N ≥ 2 and 1 ≤ K ≤ N, e.g. 1/2")
    return int(k), int(n)


def _outputs(json_out: Path | None, md: Path | None, plot: Path | None) -> dict[str, Path | None]:
    """Where each artefact goes; with only --json, the summary and the plot are written beside it."""
    if json_out is not None:
        md = md or json_out.with_suffix(".md")
        plot = plot or json_out.with_suffix(".png")
    for target in (json_out, md, plot):
        if target is not None and not target.parent.is_dir():
            raise fail(f"{target}: directory {target.parent} does not exist")
    return {"json": json_out, "md": md, "plot": plot}


def _report(result: BenchResult, times: Timing, outputs: dict[str, Path | None]) -> None:
    """The Markdown summary (stdout, and --md), the PNG and the JSON, timing their own making."""
    from refhound.benchmark.plot import write_plot  # matplotlib, imported only here
    from refhound.benchmark.results import markdown

    began = time.perf_counter()
    summary = markdown(result, times)
    if outputs["md"] is not None:
        outputs["md"].write_text(summary, encoding="utf-8")
    if outputs["plot"] is not None and result.n:
        write_plot(result, outputs["plot"])
    times.report = time.perf_counter() - began
    if outputs["json"] is not None:
        payload = json.dumps(result.payload(times), indent=1, ensure_ascii=False)
        outputs["json"].write_text(payload + "\n", encoding="utf-8")
    write_output(summary, None)


@bench_app.command("generate")
def generate(
    index: Annotated[Path, typer.Option("--index", help="The index whose records the items are made from.")],
    out: Annotated[Path, typer.Option("--out", help="The JSONL file to write (HALLMARK format, with raw).")],
    n: Annotated[int, typer.Option("--n", min=1, help="Items to write.")] = 5000,
    seed: Annotated[
        int, typer.Option("--seed", help="Random seed: the same seed and index, the same file.")
    ] = 1,
    fakes: Annotated[
        int | None, typer.Option("--fakes", min=0, help="Hallucinated items among them (default: half).")
    ] = None,
    mix: Annotated[
        str,
        typer.Option("--mix", help="Shares of the error families among the fakes: title:author:metadata."),
    ] = "2:2:1",
    compound: Annotated[
        float, typer.Option("--compound", min=0.0, max=1.0, help="Share of fakes with a second error.")
    ] = 0.1,
    styles: Annotated[
        str,
        typer.Option(
            "--styles",
            help="Citation styles to render in, comma-separated: acl, ieee, apa, springer (the default), "
            "vancouver, chicago, mla, nature.",
        ),
    ] = "acl,ieee,apa,springer",
) -> None:
    """Write N labelled items made from the index's real records, following the CiteAudit taxonomy."""
    from refhound.benchmark.generate import GenerateOptions, generate_file, parse_mix, parse_styles

    try:
        options = GenerateOptions(
            n=n,
            seed=seed,
            fakes=n // 2 if fakes is None else fakes,
            mix=parse_mix(mix),
            compound=compound,
            styles=parse_styles(styles),
        )
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if options.fakes > n:
        raise fail(f"--fakes {options.fakes} is more than --n {n}")
    if not out.parent.is_dir():
        raise fail(f"{out}: directory {out.parent} does not exist")
    with open_index_or_fail(index, Settings()) as store:
        try:
            summary = generate_file(store, options, out)
        except (RefhoundError, ValueError) as exc:
            raise fail(str(exc)) from exc
        except OSError as exc:
            raise fail(f"{out}: {exc.strerror or exc}") from exc
    err.print(summary, highlight=False)
    raise typer.Exit(EXIT_OK)
