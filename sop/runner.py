"""Runs the SOP graph over a batch of references: concurrency, checkpoints, resume.

A run with an id is checkpointed in the runs file (`SopSettings.runs_path`, see `refhound.sop.runs`):
each finished reference is written the moment it is done, so a run that is killed resumes
(`resume(run_id)`) without checking the finished references again.
"""

from __future__ import annotations

import asyncio
import gc
import secrets
import threading
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar, overload

import httpx
from langchain_core.runnables import RunnableConfig

from refhound.agents.context import Agent, AgentContext
from refhound.errors import RunMismatch, RunNotFound
from refhound.index.store import IndexStore
from refhound.inputs.base import InputRead
from refhound.likelihood import Policy
from refhound.llm import client_from_settings
from refhound.models import InputProblem, Reference, ReferenceResult
from refhound.settings import Settings
from refhound.sop.definition import Sop, load_sop
from refhound.sop.graph import Graph, build_graph, networked_stages, on_the_loop
from refhound.sop.runs import Manifest, RunStore, open_runs, run_settings
from refhound.sop.stages import plan_stages
from refhound.sop.state import RunState

T = TypeVar("T")

#: References per LangGraph thread: large enough to keep every slot busy, small enough that a chunk's
#: checkpoint stays small and LangGraph's bookkeeping of pending tasks stays cheap. (1,000 saved no
#: measurable time on exact-key look-ups, and at concurrency 4 kept four CPU-bound batches contending for
#: the GIL longer: +10% CPU on full-text searches.)
CHUNK_SIZE = 200
# Called with each reference's position in the input and its result, as it is decided (in any order).
OnDecided = Callable[[int, ReferenceResult], None]


@dataclass
class RunOutcome:
    """What a run produced: the verdicts in the order of the references, and what was left out."""

    run_id: str | None
    sop: Sop
    inputs: list[str]
    problems: list[InputProblem]
    results: list[ReferenceResult]
    skipped_stages: dict[str, str] = field(default_factory=dict)


def new_run_id() -> str:
    return f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def build_context(
    settings: Settings, store: IndexStore, sources_transport: httpx.AsyncBaseTransport | None = None
) -> AgentContext:
    """Everything the agents share in one run; `AgentContext.close()` releases it. `sources_transport`
    carries the scholarly sources' requests (triage: through the run-wide rate limiter)."""
    from refhound.agents.memory import memory_opener
    from refhound.online import sources_unavailable, web_unavailable

    # Each runtime's HTTP stack is imported only when it would ask something (never offline).
    sources = web = None
    if sources_unavailable(settings) is None:
        from refhound.sources.runtime import SourcesRuntime

        sources = SourcesRuntime.from_settings(settings, sources_transport)
    if web_unavailable(settings) is None:
        from refhound.web.runtime import WebRuntime

        web = WebRuntime.from_settings(settings)
    return AgentContext(
        settings=settings,
        store=store,
        this_year=date.today().year,
        open_memory=memory_opener(settings.memory),
        llm=client_from_settings(settings.llm),
        sources=sources,
        web=web,
    )


def _run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    # asyncio.run on Python 3.11 repr()s the finished main task, and with it its result (every
    # verdict of the run): keep the result out of the task.
    box: list[T] = []

    async def main() -> None:
        box.append(await coroutine)

    asyncio.run(main())
    return box[0]


class SopRunner:
    """Checks references through the SOP graph. `agents` replaces real agents by name (tests)."""

    def __init__(
        self,
        settings: Settings,
        store: IndexStore,
        *,
        sop: Sop | None = None,
        agents: Mapping[str, Agent] | None = None,
        context: AgentContext | None = None,
    ) -> None:
        self.settings = settings
        Policy.from_settings(settings.likelihood)  # an unusable model file is an error before any work
        self.sop = sop or load_sop(settings.sop.name)
        self.context = context or build_context(settings, store)
        self._overrides = agents
        self.plan = plan_stages(self.sop, self.context, agents)

    def close(self) -> None:
        self.context.close()

    def __enter__(self) -> SopRunner:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def run(
        self,
        references: list[Reference],
        *,
        inputs: list[str] | None = None,
        problems: list[InputProblem] | None = None,
        run_id: str | None = None,
        progress: OnDecided | None = None,
        keep: bool = True,
    ) -> RunOutcome:
        """Check `references`; with a `run_id` the run is checkpointed and can be resumed. Without `keep`
        (a checkpointed run only) the verdicts are not held: read them with `stored_results`."""
        manifest = self._manifest(run_id or "", inputs or [], problems or [], references)
        checkpoint = run_id is not None
        return _run_async(self._run(manifest, progress, checkpoint=checkpoint, resume=False, keep=keep))

    def run_read(
        self,
        reads: Iterable[InputRead],
        *,
        run_id: str,
        inputs: list[str] | None = None,
        progress: OnDecided | None = None,
    ) -> RunOutcome:
        """Check references as an input is read, batch by batch, in memory that does not grow with it:
        each batch goes to the runs file as it comes, then each chunk is read back, checked and its
        verdicts written (read them with `stored_results`). A run stopped while reading cannot be resumed;
        one stopped after resumes like any other."""
        manifest = self._manifest(run_id, inputs or [], [], [])
        checking = self._run(manifest, progress, checkpoint=True, resume=False, keep=False, reads=reads)
        return _run_async(checking)

    def resume(self, run_id: str, progress: OnDecided | None = None, keep: bool = True) -> RunOutcome:
        """Finish an interrupted run; references it had finished are not checked again."""
        manifest = Manifest(run_id, "", CHUNK_SIZE, [], [], [])
        return _run_async(self._run(manifest, progress, checkpoint=True, resume=True, keep=keep))

    def _manifest(
        self, run_id: str, inputs: list[str], problems: list[InputProblem], references: list[Reference]
    ) -> Manifest:
        return Manifest(
            run_id=run_id,
            sop=self.sop.source,
            chunk_size=CHUNK_SIZE,
            inputs=inputs,
            problems=problems,
            references=references,
            settings=run_settings(self.settings),
            index=str(self.context.store.path.resolve()),
        )

    async def _run(
        self,
        manifest: Manifest,
        progress: OnDecided | None,
        *,
        checkpoint: bool,
        resume: bool,
        keep: bool,
        reads: Iterable[InputRead] | None = None,
    ) -> RunOutcome:
        if not checkpoint:
            results = await self._check(manifest, None, progress, keep=True)
        else:
            async with open_runs(self.settings.sop.runs_path) as runs:
                if resume:
                    manifest = await runs.load(manifest.run_id)
                    self._check_same_run(manifest)
                    await runs.claim(manifest.run_id)
                    if manifest.sop != self.sop.source:  # a run goes on as it started
                        self.sop = load_sop(manifest.sop)
                        self.plan = plan_stages(self.sop, self.context, self._overrides)
                else:
                    if days := self.settings.sop.prune_interrupted_after_days:
                        await runs.prune(timedelta(days=days), interrupted_only=True)
                    await runs.save(manifest, reading=reads is not None)
                    if reads is not None:
                        manifest = await _store_reads(runs, manifest, reads)
                results = await self._check(manifest, runs, progress, keep=keep)
                await runs.finish(manifest.run_id)
        return RunOutcome(
            run_id=manifest.run_id or None,
            sop=self.sop,
            inputs=manifest.inputs,
            problems=manifest.problems,
            results=[results[i] for i in sorted(results)],
            skipped_stages=self.plan.skipped,
        )

    def _check_same_run(self, manifest: Manifest) -> None:
        """A run goes on with the settings and index it started with (`refhound check --resume` builds its
        runner from them): anything else would, say, send an offline run's references to the services."""
        if manifest.settings is None:
            raise RunMismatch(
                manifest.run_id, "was stored by an older version without its settings: start it again"
            )
        changed = setting_changes(manifest.settings, run_settings(self.settings))
        if changed:
            raise RunMismatch(
                manifest.run_id, f"started with other settings ({'; '.join(changed)}): resume it with its own"
            )
        index = str(self.context.store.path.resolve())
        if manifest.index != index:
            raise RunMismatch(manifest.run_id, f"checks the index {manifest.index}, not {index}")

    async def _check(
        self, manifest: Manifest, runs: RunStore | None, progress: OnDecided | None, *, keep: bool
    ) -> dict[int, ReferenceResult]:
        """Check chunk after chunk; a chunk a checkpoint shows finished is read back, not checked. A run
        `on_the_loop` is one chunk, checked on this loop. References not in the manifest are read from
        the runs file a chunk at a time; without `keep`, a chunk's verdicts are only written there."""
        inline = on_the_loop(
            self.plan, self.context, checkpointed=runs is not None, streamed=progress is not None
        )
        slots = None if inline else asyncio.Semaphore(self.settings.sop.concurrency)
        checkpointer = runs.checkpointer if runs else None
        window = _Window(manifest.references)
        graph = build_graph(self.plan, self.context, slots, checkpointer, window)
        size = manifest.count if inline else manifest.chunk_size
        results: dict[int, ReferenceResult] = {}
        with garbage_collection_for_run(not networked_stages(self.plan, self.context)) as chunk_done:
            for number in range(1 if inline else manifest.chunk_count):
                thread_id = manifest.run_id if inline else manifest.thread(number)
                stored = await runs.load_chunk(manifest.run_id, number) if runs else None
                if stored is not None:  # finished before the run was interrupted
                    if keep:
                        results.update(stored)
                    _advance(progress, stored)
                    continue
                offset = number * size
                if manifest.references:
                    references = manifest.references[offset : offset + size]
                else:
                    assert runs is not None  # a run whose references are not in memory is stored
                    references = await runs.load_references(manifest.run_id, number)
                    window.show(offset, references)
                found: dict[int, ReferenceResult] = {}
                await self._check_chunk(graph, runs, thread_id, offset, references, found, progress)
                if runs is not None:
                    await runs.save_chunk(manifest.run_id, number, thread_id, found)
                if keep:
                    results.update(found)
                chunk_done()
        return results

    async def _check_chunk(
        self,
        graph: Graph,
        runs: RunStore | None,
        thread_id: str,
        offset: int,
        references: list[Reference],
        results: dict[int, ReferenceResult],
        progress: OnDecided | None,
    ) -> None:
        """Check one chunk into `results`; a chunk a checkpoint shows finished is read back, not checked."""
        config: RunnableConfig = {"recursion_limit": 100}
        start: RunState | None = {"offset": offset, "count": len(references), "results": {}}
        if runs is not None:
            config["configurable"] = {"thread_id": thread_id}
            saved = await graph.aget_state(config)
            finished: dict[int, ReferenceResult] = saved.values.get("results", {})
            if len(finished) == len(references):
                results.update(finished)
                _advance(progress, finished)
                return
            if saved.next and "count" in saved.values:
                start = None  # interrupted mid-step: LangGraph resumes it, keeping finished tasks' writes
            # else: stopped before any step was saved, or saved by a version whose state held the references
            # themselves (no `count`): the chunk starts again, skipping what it holds
        streamed = await _stream(graph, start, config, progress)
        results.update(streamed)
        if runs is not None and (start is None or finished):
            # A chunk taken up again streams only what it had left: the rest is in its checkpoint.
            saved_results = (await graph.aget_state(config)).values["results"]
            _advance(progress, {i: r for i, r in saved_results.items() if i not in streamed})
            results.update(saved_results)


class _Window(Sequence[Reference]):
    """The run's references at their positions, as the graph reads them: all of them, or only the chunk
    being checked when a run's references are read from its file a chunk at a time."""

    def __init__(self, references: list[Reference]) -> None:
        self._references = references
        self._offset = 0

    def show(self, offset: int, references: list[Reference]) -> None:
        self._offset, self._references = offset, references

    @overload
    def __getitem__(self, position: int) -> Reference: ...

    @overload
    def __getitem__(self, position: slice) -> Sequence[Reference]: ...

    def __getitem__(self, position: int | slice) -> Reference | Sequence[Reference]:
        if isinstance(position, slice):
            raise TypeError("a run's references are read one at a time")
        return self._references[position - self._offset]

    def __len__(self) -> int:
        return self._offset + len(self._references)


async def _store_reads(runs: RunStore, manifest: Manifest, reads: Iterable[InputRead]) -> Manifest:
    """Write a run's references to its file a chunk at a time as its input is read; the manifest of the
    run with its count and the problems met reading."""
    size = manifest.chunk_size
    pending: list[Reference] = []
    problems: list[InputProblem] = []
    chunks = total = 0
    for read in reads:
        problems += read.problems
        pending += read.references
        while len(pending) >= size:
            await runs.add_references(manifest.run_id, chunks, pending[:size])
            total, chunks, pending = total + size, chunks + 1, pending[size:]
    if pending:
        await runs.add_references(manifest.run_id, chunks, pending)
        total += len(pending)
    await runs.read_done(manifest.run_id, total, problems)
    return replace(manifest, problems=problems, total=total)


_gc_lock = threading.Lock()
_gc_paused = False  # by a run of local stages only, which re-enables it when it ends


@contextmanager
def garbage_collection_for_run(local_only: bool) -> Iterator[Callable[[], None]]:
    """How a run keeps Python's garbage collection from walking what it holds; yields what to call when
    a chunk is done.

    Every run freezes what the process held before it (the index's caches, the imported libraries): the
    graph keeps its references' state alive across steps, which sets off full collections, and each one
    walked all of it (a third of the graph's time on quick references).

    A run of local stages only also pauses the automatic collection, and what a chunk leaves alive is
    frozen when it is done. The results a run returns stay alive to its end, some 30 tracked objects a
    reference: the automatic collections, set off every 700 allocations, walked them again and again
    (0.02 ms a reference, an eighth of an exact-key check), and a collection at each chunk's end still
    walked them once (0.008 ms). The price: a reference cycle a chunk leaves behind is freed after the
    run, not after its chunk; the local stages leave next to none (0 to 15 objects per 1,000 references
    in the benchmarks, a failed SQLite write's traceback). A run with a stage that waits on a service keeps
    the automatic collection: its chunks may take minutes, its network code leaves cycles, and a
    reference's wait dwarfs the collections. Only a run that finds the collection on pauses it, and it
    alone turns it on again when it ends: runs that overlap (the web server's) never keep it off longer
    than one run. Everything is unfrozen after the run, so nothing stays uncollectable."""
    global _gc_paused
    gc.freeze()
    with _gc_lock:
        owner = local_only and not _gc_paused and gc.isenabled()
        if owner:
            gc.disable()
            _gc_paused = True
    try:
        yield gc.freeze if owner else lambda: None
    finally:
        if owner:
            with _gc_lock:
                gc.enable()
                _gc_paused = False
        gc.unfreeze()


async def _stream(
    graph: Graph, start: RunState | None, config: RunnableConfig, progress: OnDecided | None
) -> dict[int, ReferenceResult]:
    """Run the graph; each reference it finishes goes to `progress`. Returns what it finished."""
    results: dict[int, ReferenceResult] = {}
    async for update in graph.astream(start, config, stream_mode="updates"):
        for node_update in update.values():
            finished = node_update.get("results") if isinstance(node_update, dict) else None
            if finished:
                results.update(finished)
                _advance(progress, finished)
    return results


def _advance(progress: OnDecided | None, finished: Mapping[int, ReferenceResult]) -> None:
    if progress:
        for position, result in finished.items():
            progress(position, result)


def check_references(
    references: list[Reference],
    store: IndexStore,
    settings: Settings,
    progress: OnDecided | None = None,
) -> list[ReferenceResult]:
    """The verdicts on `references` through the configured SOP, without checkpoints."""
    with SopRunner(settings, store) as runner:
        return runner.run(references, progress=progress).results


def setting_changes(before: Mapping[str, Any], now: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Every setting whose value differs, as `section.name (then -> now)`."""
    changes: list[str] = []
    for key in sorted(before.keys() | now.keys()):
        old, new = before.get(key), now.get(key)
        if isinstance(old, Mapping) and isinstance(new, Mapping):
            changes += setting_changes(old, new, f"{prefix}{key}.")
        elif old != new:
            changes.append(f"{prefix}{key}: {old!r} -> {new!r}")
    return changes


def stored_run(runs_path: Path, run_id: str) -> tuple[Settings, Path]:
    """The settings and index a stored run started with, to resume it with (`RunMismatch` when they
    were not stored or no longer make valid settings; `RunNotFound` when there is no such run)."""
    from pydantic import ValidationError

    async def load() -> Manifest:
        async with open_runs(runs_path) as runs:
            return await runs.load(run_id)

    if not runs_path.exists():
        raise RunNotFound(run_id, runs_path)
    manifest = _run_async(load())
    if manifest.settings is None:
        raise RunMismatch(run_id, "was stored by an older version without its settings: start it again")
    stored = {**manifest.settings, "sop": {**manifest.settings["sop"], "runs_path": runs_path}}
    try:
        return Settings(**stored), Path(manifest.index)
    except ValidationError as exc:
        raise RunMismatch(
            run_id, f"has settings this version cannot use ({exc.error_count()} errors)"
        ) from exc


def forget_run(runs_path: Path, run_id: str) -> None:
    """Delete a run's checkpoints (once its report is out, there is nothing left to resume)."""

    async def forget() -> None:
        async with open_runs(runs_path) as runs:
            await runs.forget_id(run_id)

    if runs_path.exists():
        _run_async(forget())
