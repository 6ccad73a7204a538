"""What keeps the graph cheap on quick references, and that none of it changes what a run does: local
stages chained in one graph step, the garbage collection paused for runs of local stages, checkpoints
written in LangGraph's format by a faster writer, and no references in a chunk's checkpointed state."""

from __future__ import annotations

import asyncio
import gc
import threading
from pathlib import Path

import pytest
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.types import Send

from refhound.agents.context import AgentContext, Candidate, Findings
from refhound.index.store import IndexStore
from refhound.models import (
    Evidence,
    FieldCheck,
    FieldStatus,
    Reference,
    ReferenceResult,
    Severity,
    StageRun,
    Verdict,
)
from refhound.settings import Settings
from refhound.sop.definition import Sop
from refhound.sop.graph import build_graph
from refhound.sop.runner import SopRunner
from refhound.sop.runs import _CHECKPOINT_TYPES, CheckpointSerializer, open_runs
from refhound.sop.state import new_branch
from tests.sop.fakes import FakeAgent, agents, record_for, reference

LOCAL = Sop(name="local", stages=("index", "memory", "judge"))
WITH_A_SERVICE = Sop(name="online", stages=("index", "memory", "scholar", "judge"))


@pytest.fixture()
def settings(tmp_path: Path) -> Settings:
    settings = Settings()
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    settings.check.offline = False  # the fake scholar stays in the plan
    return settings


def _nodes_stepped(settings: Settings, store: IndexStore, sop: Sop, *fakes: FakeAgent, n: int) -> list[str]:
    """The graph's node of every step of a run over `n` references."""
    runner = SopRunner(settings, store, sop=sop, agents=agents(*fakes))
    references = [reference(i) for i in range(n)]
    graph = build_graph(runner.plan, runner.context, asyncio.Semaphore(2), None, references)

    async def stream() -> list[str]:
        stepped = []
        async for update in graph.astream({"offset": 0, "count": n, "results": {}}, stream_mode="updates"):
            stepped += list(update)
        return stepped

    return asyncio.run(stream())


def test_a_batch_goes_through_the_local_stages_in_one_graph_step(
    settings: Settings, store: IndexStore
) -> None:
    index, memory = FakeAgent("index", knows={"ref0"}), FakeAgent("memory", knows={"ref1"})
    stepped = _nodes_stepped(settings, store, LOCAL, index, memory, n=12)
    # Memory and judge ran (ref1 found by memory, the rest judged), in the index node's steps.
    assert sorted(memory.calls) == sorted(f"ref{i}" for i in range(1, 12))
    assert set(stepped) == {"index"}


def test_a_stage_that_waits_on_a_service_still_takes_one_reference_a_step(
    settings: Settings, store: IndexStore
) -> None:
    settings.sop.batch = 8
    scholar = FakeAgent("scholar", knows={"ref2"})
    stepped = _nodes_stepped(
        settings, store, WITH_A_SERVICE, FakeAgent("index"), FakeAgent("memory"), scholar, n=6
    )
    # Six references left undecided by the local stages: six scholar steps, the judge in each of them.
    assert stepped.count("scholar") == 6
    assert "memory" not in stepped and "judge" not in stepped


def test_chained_stages_give_the_same_verdicts_and_timings(settings: Settings, store: IndexStore) -> None:
    index = FakeAgent("index", knows={f"ref{i}" for i in range(0, 30, 3)})
    memory = FakeAgent("memory", knows={f"ref{i}" for i in range(1, 30, 3)})
    outcome = SopRunner(settings, store, sop=LOCAL, agents=agents(index, memory)).run(
        [reference(i) for i in range(30)]
    )
    expected = {
        0: ("index", Verdict.VERIFIED),
        1: ("memory", Verdict.VERIFIED),
        2: ("judge", Verdict.UNVERIFIED),
    }
    assert [(r.stage, r.verdict) for r in outcome.results] == [expected[i % 3] for i in range(30)]
    assert [s.stage for s in outcome.results[2].stages] == ["index", "memory", "judge"]


class _Watcher(FakeAgent):
    """Records, for each call, its thread and whether the automatic garbage collection was on."""

    def __init__(self, stage: str, **kwargs: object) -> None:
        super().__init__(stage, **kwargs)  # type: ignore[arg-type]
        self.threads: list[threading.Thread] = []
        self.gc_enabled: list[bool] = []

    def __call__(self, ref: Reference, context: AgentContext) -> Findings:
        self.threads.append(threading.current_thread())
        self.gc_enabled.append(gc.isenabled())
        return super().__call__(ref, context)


def test_a_run_of_local_stages_without_checkpoints_checks_on_the_graphs_own_thread(
    settings: Settings, store: IndexStore
) -> None:
    index = _Watcher("index", knows={"ref0", "ref3"})
    references = [reference(i) for i in range(450)]  # more than a checkpointed run's chunk
    SopRunner(settings, store, sop=LOCAL, agents=agents(index, FakeAgent("memory"))).run(references)
    assert set(index.threads) == {threading.main_thread()}


def test_a_run_whose_verdicts_are_streamed_checks_in_worker_threads(
    settings: Settings, store: IndexStore
) -> None:
    index = _Watcher("index", knows={"ref0", "ref3"})
    streamed: list[int] = []
    SopRunner(settings, store, sop=LOCAL, agents=agents(index, FakeAgent("memory"))).run(
        [reference(i) for i in range(40)], progress=lambda position, _: streamed.append(position)
    )
    assert threading.main_thread() not in index.threads
    assert sorted(streamed) == list(range(40))


def test_a_checkpointed_run_checks_its_batches_in_worker_threads_with_the_same_verdicts(
    settings: Settings, store: IndexStore
) -> None:
    # The writes of finished batches go on, on the graph's loop, while the next batch is checked.
    references = [reference(i) for i in range(450)]
    knows = {f"ref{i}" for i in range(0, 450, 7)}
    plain = SopRunner(settings, store, sop=LOCAL, agents=agents(FakeAgent("index", knows=knows))).run(
        references
    )
    index = _Watcher("index", knows=knows)
    checkpointed = SopRunner(settings, store, sop=LOCAL, agents=agents(index)).run(references, run_id="r1")
    assert threading.main_thread() not in index.threads
    assert [(r.stage, r.verdict) for r in checkpointed.results] == [
        (r.stage, r.verdict) for r in plain.results
    ]


def test_a_run_of_local_stages_pauses_the_automatic_collection_and_restores_it(
    settings: Settings, store: IndexStore
) -> None:
    assert gc.isenabled()
    index = _Watcher("index", knows={"ref0"})
    SopRunner(settings, store, sop=LOCAL, agents=agents(index, FakeAgent("memory"))).run(
        [reference(i) for i in range(5)]
    )
    assert index.gc_enabled == [False] * 5
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0  # nothing stays frozen, so nothing stays uncollectable


def test_a_run_with_a_stage_that_waits_on_a_service_keeps_the_automatic_collection(
    settings: Settings, store: IndexStore
) -> None:
    index = _Watcher("index")
    SopRunner(
        settings, store, sop=WITH_A_SERVICE, agents=agents(index, FakeAgent("memory"), FakeAgent("scholar"))
    ).run([reference(i) for i in range(3)])
    assert index.gc_enabled == [True] * 3
    assert gc.isenabled()


def test_runs_at_the_same_time_leave_the_collection_on(settings: Settings, store: IndexStore) -> None:
    def one_run() -> None:
        fakes = agents(FakeAgent("index", delay_s=0.01), FakeAgent("memory"))
        SopRunner(settings, store, sop=LOCAL, agents=fakes).run([reference(i) for i in range(8)])

    threads = [threading.Thread(target=one_run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_the_collection_is_off_no_longer_than_the_run_that_paused_it() -> None:
    # Overlapping runs (the web server's) must not keep it off for as long as one of them goes on.
    from refhound.sop.runner import garbage_collection_for_run

    first = garbage_collection_for_run(local_only=True)
    second = garbage_collection_for_run(local_only=True)
    first.__enter__()
    assert not gc.isenabled()
    second.__enter__()
    first.__exit__(None, None, None)
    assert gc.isenabled()  # the second run, still going, did not pause it
    second.__exit__(None, None, None)
    assert gc.isenabled()


def _result() -> ReferenceResult:
    ref = reference(7)
    return ReferenceResult(
        id=ref.id,
        raw=ref.raw,
        parsed=ref.parsed,
        verdict=Verdict.METADATA_ERROR,
        severity=Severity.MAJOR,
        hallucinated=True,
        fields=[FieldCheck(field="year", status=FieldStatus.MISMATCH, cited="2020", found="2011")],
        evidence=[Evidence(source="dblp", record_id="x/1", url="https://e.org", score=0.97)],
        stage="index",
        elapsed_ms=0.25,
        stages=[StageRun(stage="index", elapsed_ms=0.25, candidates=1, note="found; re-read")],
        reason="wrong year",
        input="refs.bib",
    )


def test_checkpoints_are_read_back_by_langgraphs_own_reader() -> None:
    ref = reference(3, title="Ünïcode — a Title Beyond ASCII")
    branch = new_branch(5, ref)
    branch["candidates"] = [Candidate(record_for(ref, source="dblp"), 0.97, "title", stage="index", note="n")]
    branch["stages"] = [StageRun(stage="index", elapsed_ms=1.5)]
    branch["unreachable"] = ["scholar"]
    written = {
        "results": {5: _result(), 9: _result()},
        "send": Send("scholar", {"branches": [branch]}),
        "verdict": Verdict.VERIFIED,
        "plain": [1, "two", 3.0, None, True],
    }
    fast = CheckpointSerializer(allowed_msgpack_modules=_CHECKPOINT_TYPES)
    standard = JsonPlusSerializer(allowed_msgpack_modules=_CHECKPOINT_TYPES)
    kind, data = fast.dumps_typed(written)
    assert kind == "msgpack"
    # Read back by LangGraph's reader, it is what LangGraph's writer would have given back.
    assert standard.loads_typed((kind, data)) == standard.loads_typed(standard.dumps_typed(written))
    read = fast.loads_typed((kind, data))
    assert read["results"] == written["results"]
    assert read["send"].node == "scholar"
    assert read["send"].arg == {"branches": [branch]}
    assert read["verdict"] is Verdict.VERIFIED


def test_what_the_fast_writer_does_not_know_goes_to_langgraphs() -> None:
    fast = CheckpointSerializer(allowed_msgpack_modules=_CHECKPOINT_TYPES)
    value = {"when": {1, 2}, "path": Path("/tmp/x"), "bytes": b"\x00"}
    assert fast.loads_typed(fast.dumps_typed(value)) == value
    assert fast.dumps_typed(b"raw") == ("bytes", b"raw")
    assert fast.dumps_typed(None)[0] == "null"


def test_a_finished_chunk_keeps_its_verdicts_and_no_checkpoints(
    settings: Settings, store: IndexStore
) -> None:
    index = FakeAgent("index", knows={"ref0", "ref2"})
    runner = SopRunner(settings, store, sop=LOCAL, agents=agents(index, FakeAgent("memory")))
    outcome = runner.run([reference(i) for i in range(4)], run_id="run-x")

    async def saved() -> tuple[dict[str, object], object]:
        async with open_runs(settings.sop.runs_path) as runs:
            graph = build_graph(runner.plan, runner.context, asyncio.Semaphore(1), runs.checkpointer)
            state = await graph.aget_state({"configurable": {"thread_id": "run-x/chunk-0"}})
            return dict(state.values), await runs.load_chunk("run-x", 0)

    values, verdicts = asyncio.run(saved())
    assert values == {}  # LangGraph's checkpoints of every step are deleted with the chunk done
    assert verdicts == dict(enumerate(outcome.results))
