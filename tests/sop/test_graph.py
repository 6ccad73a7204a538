"""The SOP graph with fake agents: fan-out, routing, early stop, concurrency, per-stage timings."""

from __future__ import annotations

from pathlib import Path

import pytest

from refhound.index.store import IndexStore
from refhound.models import ReferenceResult, Verdict
from refhound.settings import Settings
from refhound.sop.definition import Sop
from refhound.sop.runner import SopRunner
from tests.sop.fakes import FakeAgent, agents, reference

SOP = Sop(name="test", stages=("index", "memory", "scholar", "judge"))


@pytest.fixture()
def settings(tmp_path: Path) -> Settings:
    settings = Settings()
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    return settings


def run(settings: Settings, store: IndexStore, *fakes: FakeAgent, n: int = 6, sop: Sop = SOP):  # type: ignore[no-untyped-def]
    runner = SopRunner(settings, store, sop=sop, agents=agents(*fakes))
    return runner.run([reference(i) for i in range(n)])


def test_one_branch_per_reference_results_in_input_order(settings: Settings, store: IndexStore) -> None:
    index = FakeAgent("index", knows={f"ref{i}" for i in range(20)})
    outcome = run(settings, store, index, FakeAgent("memory"), FakeAgent("scholar"), n=20)
    assert [r.id for r in outcome.results] == [f"ref{i}" for i in range(20)]
    assert sorted(index.calls) == sorted(f"ref{i}" for i in range(20))
    assert all(r.verdict is Verdict.VERIFIED for r in outcome.results)


def test_decisive_evidence_ends_the_branch(settings: Settings, store: IndexStore) -> None:
    index = FakeAgent("index", knows={"ref0", "ref1"})
    memory = FakeAgent("memory", knows={"ref2"})
    scholar = FakeAgent("scholar", knows={"ref3"})
    outcome = run(settings, store, index, memory, scholar, n=5)
    by_id = {r.id: r for r in outcome.results}
    assert sorted(memory.calls) == ["ref2", "ref3", "ref4"]
    assert sorted(scholar.calls) == ["ref3", "ref4"]
    assert [by_id[f"ref{i}"].stage for i in range(5)] == ["index", "index", "memory", "scholar", "judge"]
    assert [s.stage for s in by_id["ref3"].stages] == ["index", "memory", "scholar"]
    assert [s.stage for s in by_id["ref4"].stages] == ["index", "memory", "scholar", "judge"]
    assert by_id["ref4"].verdict is Verdict.UNVERIFIED


def test_a_wrong_field_is_decisive_too(settings: Settings, store: IndexStore) -> None:
    index = FakeAgent("index", knows={"ref0"}, changes={"year": 2011})
    memory = FakeAgent("memory")
    outcome = run(settings, store, index, memory, FakeAgent("scholar"), n=1)
    assert outcome.results[0].verdict is Verdict.METADATA_ERROR
    assert outcome.results[0].stage == "index"
    assert memory.calls == []


def test_stage_order_follows_the_sop(settings: Settings, store: IndexStore) -> None:
    sop = Sop(name="paper", stages=("memory", "scholar", "index", "judge"))
    index = FakeAgent("index", knows={"ref0"})
    scholar = FakeAgent("scholar", knows={"ref0"})
    outcome = run(settings, store, index, FakeAgent("memory"), scholar, n=1, sop=sop)
    assert outcome.results[0].stage == "scholar"
    assert index.calls == []


def test_every_stage_is_timed_and_the_total_is_their_sum(settings: Settings, store: IndexStore) -> None:
    outcome = run(
        settings, store, FakeAgent("index", delay_s=0.02), FakeAgent("memory"), FakeAgent("scholar"), n=2
    )
    for result in outcome.results:
        assert [s.stage for s in result.stages] == ["index", "memory", "scholar", "judge"]
        assert result.stages[0].elapsed_ms >= 20
        assert result.elapsed_ms == pytest.approx(sum(s.elapsed_ms for s in result.stages), abs=0.01)


def test_concurrency_is_limited_by_the_setting(settings: Settings, store: IndexStore) -> None:
    settings.sop.concurrency = 3
    index = FakeAgent("index", delay_s=0.03)
    run(settings, store, index, FakeAgent("memory"), FakeAgent("scholar"), n=12)
    assert index.max_in_flight == 3
    settings.sop.concurrency = 1
    serial = FakeAgent("index", delay_s=0.01)
    run(settings, store, serial, FakeAgent("memory"), FakeAgent("scholar"), n=4)
    assert serial.max_in_flight == 1


def test_a_local_stage_takes_references_in_batches_one_per_slot(
    settings: Settings, store: IndexStore
) -> None:
    settings.sop.concurrency, settings.sop.batch = 2, 4
    index = FakeAgent("index", delay_s=0.01, knows={f"ref{i}" for i in range(0, 20, 2)})
    outcome = run(settings, store, index, FakeAgent("memory"), FakeAgent("scholar"), n=20)
    # 20 references in batches of 4: both slots busy, each running its batch one reference at a time.
    assert index.max_in_flight == 2
    assert [r.verdict for r in outcome.results] == [
        Verdict.VERIFIED if i % 2 == 0 else Verdict.UNVERIFIED for i in range(20)
    ]


def test_a_stage_that_waits_on_a_service_reports_each_reference_as_it_is_decided(
    settings: Settings, store: IndexStore
) -> None:
    # A batch of 8 would report nothing until 8 slow look-ups were done one after another; an online
    # stage takes its references one per step, so the first is reported after the first look-up.
    settings.sop.concurrency, settings.sop.batch = 2, 8
    sop = Sop(name="online first", stages=("scholar", "index", "judge"))
    scholar = FakeAgent("scholar", knows={f"ref{i}" for i in range(16)}, delay_s=0.02)
    looked_up_at_first_report: list[int] = []

    def progress(_: int, __: ReferenceResult) -> None:
        if not looked_up_at_first_report:
            looked_up_at_first_report.append(len(scholar.calls))

    runner = SopRunner(settings, store, sop=sop, agents=agents(scholar, FakeAgent("index")))
    outcome = runner.run([reference(i) for i in range(16)], progress=progress)
    assert all(r.verdict is Verdict.VERIFIED for r in outcome.results)
    assert looked_up_at_first_report[0] < 8


@pytest.mark.parametrize("sop", [SOP, Sop(name="local", stages=("index", "memory", "judge"))])
def test_the_first_verdicts_come_before_a_whole_batch_is_done(
    settings: Settings, store: IndexStore, sop: Sop
) -> None:
    # Also for a run of local stages only: streamed verdicts keep it off the graph's loop (`on_the_loop`).
    settings.sop.concurrency, settings.sop.batch = 1, 32
    index = FakeAgent("index", knows={f"ref{i}" for i in range(64)}, delay_s=0.002)
    looked_up_at_first_report: list[int] = []

    def progress(_: int, __: ReferenceResult) -> None:
        if not looked_up_at_first_report:
            looked_up_at_first_report.append(len(index.calls))

    fakes = [index, FakeAgent("memory"), FakeAgent("scholar")][: len(sop.stages) - 1]
    runner = SopRunner(settings, store, sop=sop, agents=agents(*fakes))
    outcome = runner.run([reference(i) for i in range(64)], progress=progress)
    assert len(outcome.results) == 64
    assert looked_up_at_first_report[0] < 32  # batches of 1, 2, 4, … at the start, not 32 at once


def test_an_unreachable_service_is_named_and_never_proves_anything(
    settings: Settings, store: IndexStore
) -> None:
    settings.check.offline = False
    scholar = FakeAgent("scholar", unreachable=True)
    outcome = run(settings, store, FakeAgent("index"), FakeAgent("memory"), scholar, n=1)
    result = outcome.results[0]
    assert result.verdict is Verdict.UNVERIFIED
    assert "no answer from scholar" in result.reason
    assert "offline" not in result.reason


def test_offline_a_service_without_a_cached_answer_is_said_so(settings: Settings, store: IndexStore) -> None:
    settings.check.offline = True  # the scholar stage answers from the HTTP cache, which has nothing here
    scholar = FakeAgent("scholar", unreachable=True)
    outcome = run(settings, store, FakeAgent("index"), FakeAgent("memory"), scholar, n=1)
    assert "(offline: no cached answer from scholar)" in outcome.results[0].reason


def test_stages_with_nothing_to_consult_are_left_out_and_said(settings: Settings, store: IndexStore) -> None:
    settings.memory.enabled = False
    settings.check.offline = True
    index = FakeAgent("index", knows={"ref0"})
    runner = SopRunner(settings, store, sop=SOP, agents=agents(index))
    assert runner.plan.order == ["index"]
    assert "switched off" in runner.plan.skipped["memory"]
    assert "offline" in runner.plan.skipped["scholar"]
    outcome = runner.run([reference(0), reference(1)])
    assert [r.verdict for r in outcome.results] == [Verdict.VERIFIED, Verdict.UNVERIFIED]
    assert [s.stage for s in outcome.results[1].stages] == ["index", "judge"]


def test_an_empty_batch_is_an_empty_outcome(settings: Settings, store: IndexStore) -> None:
    assert (
        run(settings, store, FakeAgent("index"), FakeAgent("memory"), FakeAgent("scholar"), n=0).results == []
    )


def test_an_agent_that_fails_costs_one_reference_its_stage_not_the_run(
    settings: Settings, store: IndexStore
) -> None:
    class Broken(FakeAgent):
        def __call__(self, ref, context):  # type: ignore[no-untyped-def]
            if ref.id == "ref1":
                raise ValueError("bad row")
            return super().__call__(ref, context)

    outcome = run(
        settings,
        store,
        Broken("index", knows={"ref0", "ref1", "ref2"}),
        FakeAgent("memory"),
        FakeAgent("scholar"),
        n=3,
    )
    assert [r.verdict for r in outcome.results] == [Verdict.VERIFIED, Verdict.UNVERIFIED, Verdict.VERIFIED]
    assert outcome.results[1].stages[0].note == "failed: ValueError: bad row"
    assert "no answer from index" in outcome.results[1].reason
