"""Scores, the runner's batches and Ctrl-C, and the refhound.bench/1 JSON, on a fake verifier."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

from refhound.benchmark.items import BenchItem, Benchmark, InputMode, part_of
from refhound.benchmark.metrics import Scores, per_type, predicted_hallucinated, score
from refhound.benchmark.plot import write_plot
from refhound.benchmark.results import BENCH_SCHEMA, BenchResult, Timing, markdown
from refhound.benchmark.runner import run_bench
from refhound.models import (
    FlagPolicy,
    ParsedFields,
    Reference,
    ReferenceResult,
    Severity,
    UnverifiedPolicy,
    Verdict,
)

CONTRACT_KEYS = [
    "schema", "benchmark", "split", "n", "tp", "fp", "fn", "tn", "accuracy", "precision", "recall", "f1",
    "fpr", "unverified", "seconds_total", "seconds_per_10_refs", "per_type", "items",
]  # fmt: skip


def test_scores_arithmetic() -> None:
    s = score([(True, True)] * 8 + [(True, False)] * 2 + [(False, True)] * 1 + [(False, False)] * 9)
    assert (s.tp, s.fn, s.fp, s.tn, s.n) == (8, 2, 1, 9, 20)
    assert s.precision == pytest.approx(8 / 9)
    assert s.recall == pytest.approx(0.8)
    assert s.f1 == pytest.approx(2 * (8 / 9) * 0.8 / (8 / 9 + 0.8))
    assert s.fpr == pytest.approx(0.1)
    assert s.accuracy == pytest.approx(17 / 20)


def test_empty_denominators_give_zero_not_nan() -> None:
    s = Scores()
    assert (s.precision, s.recall, s.f1, s.fpr, s.accuracy) == (0.0, 0.0, 0.0, 0.0, 0.0)
    assert json.dumps(s.as_dict(), allow_nan=False)  # valid JSON
    only_real = Scores(tn=4, fp=1)  # no hallucinated item: recall undefined, precision 0/1
    assert (only_real.precision, only_real.recall, only_real.f1, only_real.fpr) == (0.0, 0.0, 0.0, 0.2)
    never_flagged = Scores(fn=3, tn=2)  # nothing predicted positive
    assert (never_flagged.precision, never_flagged.recall, never_flagged.f1) == (0.0, 0.0, 0.0)
    only_fakes_all_caught = Scores(tp=5)  # no real item: FPR 0, not NaN
    assert (only_fakes_all_caught.f1, only_fakes_all_caught.fpr, only_fakes_all_caught.accuracy) == (1, 0, 1)


def _scored(verdict: Verdict, likelihood: float) -> ReferenceResult:
    return ReferenceResult(
        id="1",
        raw="",
        parsed=ParsedFields(),
        verdict=verdict,
        hallucinated=None,
        likelihood=likelihood,
        stage="judge",
    )


def test_unverified_below_the_threshold_counts_as_the_policy_says() -> None:
    low, high = 0.1, 0.9
    assert predicted_hallucinated(_scored(Verdict.UNVERIFIED, low), 0.5, UnverifiedPolicy.FAKE) is True
    assert predicted_hallucinated(_scored(Verdict.UNVERIFIED, low), 0.5, UnverifiedPolicy.REAL) is False
    assert predicted_hallucinated(_scored(Verdict.UNVERIFIED, high), 0.5, UnverifiedPolicy.REAL) is True
    assert predicted_hallucinated(_scored(Verdict.VERIFIED, low), 0.5, UnverifiedPolicy.FAKE) is False
    with pytest.raises(ValueError, match="yes/no"):
        predicted_hallucinated(_scored(Verdict.VERIFIED, low), 0.5, UnverifiedPolicy.UNKNOWN)


def test_a_metadata_error_below_the_threshold_is_a_positive_only_when_every_error_counts() -> None:
    real = UnverifiedPolicy.REAL
    assert predicted_hallucinated(_scored(Verdict.METADATA_ERROR, 0.2), 0.5, real) is False
    assert predicted_hallucinated(_scored(Verdict.METADATA_ERROR, 0.2), 0.5, real, FlagPolicy.ANY) is True
    assert predicted_hallucinated(_scored(Verdict.METADATA_ERROR, 0.8), 0.5, real) is True
    assert predicted_hallucinated(_scored(Verdict.FABRICATED, 0.99), 0.5, real) is True


def test_per_type_counts_items_and_flags() -> None:
    counts = per_type([("year_shift", True), ("year_shift", False), ("valid", True), ("valid", False)])
    assert {k: (c.n, c.detected) for k, c in counts.items()} == {"valid": (2, 1), "year_shift": (2, 1)}


# --- a fake verifier -------------------------------------------------------------------------------------

VERDICTS = {"real": Verdict.VERIFIED, "wrong": Verdict.METADATA_ERROR, "unknown": Verdict.UNVERIFIED}


def _items() -> list[BenchItem]:
    rows = [("real", False), ("wrong", True), ("unknown", True), ("unknown", False), ("wrong", False)]
    return [
        BenchItem(
            id=i, hallucinated=h, type="t1" if h else "valid", line=i + 1, raw=word, upstream_real=not h
        )
        for i, (word, h) in enumerate(rows * 3)
    ]


def _result(reference: Reference) -> ReferenceResult:
    """The item's verdict, with a likelihood above the threshold for a metadata error (a major one)."""
    verdict = VERDICTS[reference.raw]
    return ReferenceResult(
        id=reference.id,
        raw=reference.raw,
        parsed=ParsedFields(),
        verdict=verdict,
        hallucinated=None,
        likelihood=0.9 if verdict is Verdict.METADATA_ERROR else 0.1,
        stage="judge",
    )


class FakeVerifier:
    """Answers from the item's text; raises KeyboardInterrupt (a Ctrl-C) on call number `interrupt_at`."""

    def __init__(self, interrupt_at: int | None = None) -> None:
        self.calls = 0
        self.interrupt_at = interrupt_at

    def __call__(self, references: list[Reference]) -> list[ReferenceResult]:
        self.calls += 1
        if self.calls == self.interrupt_at:
            raise KeyboardInterrupt
        return [_result(r) for r in references]


def _bench(items: list[BenchItem]) -> Benchmark:
    return Benchmark("citeaudit", "all", Path("benchmark.json"), items, upstream_name="CiteAudit")


def test_run_checks_every_item_in_order_and_times_each_batch() -> None:
    items = _items()
    run = run_bench(items, FakeVerifier(), InputMode.RAW, batch_size=4)
    assert [r.id for r in run.results] == [str(i.id) for i in items]
    assert [n for n, _ in run.batches] == [4, 4, 4, 3]
    assert not run.interrupted and run.seconds_loop >= run.seconds_verify >= 0


def test_a_ctrl_c_keeps_the_batches_finished_before_it() -> None:
    run = run_bench(_items(), FakeVerifier(interrupt_at=3), InputMode.RAW, batch_size=4)
    assert run.interrupted
    assert len(run.results) == 8
    result = BenchResult(_bench(_items()), run, UnverifiedPolicy.REAL, InputMode.RAW, None)
    payload = result.payload(Timing())
    assert (payload["n"], payload["items_in_file"], payload["interrupted"]) == (8, 15, True)


def test_the_batch_a_ctrl_c_cuts_short_is_neither_scored_nor_counted_as_overhead() -> None:
    class SlowThirdCall(FakeVerifier):
        def __call__(self, references: list[Reference]) -> list[ReferenceResult]:
            if self.calls == 2:
                time.sleep(0.2)  # verification under way when the Ctrl-C comes
            return super().__call__(references)

    run = run_bench(_items(), SlowThirdCall(interrupt_at=3), InputMode.RAW, batch_size=4)
    assert run.interrupted and len(run.batches) == 2
    assert run.seconds_abandoned >= 0.2 and run.seconds_overhead < 0.1


def test_a_ctrl_c_between_batches_keeps_every_finished_batch() -> None:
    def progress(done: int) -> None:
        if done and len(seen) == 1:
            raise KeyboardInterrupt
        seen.append(done)

    seen: list[int] = []
    run = run_bench(_items(), FakeVerifier(), InputMode.RAW, batch_size=4, progress=progress)
    assert run.interrupted and len(run.results) == 8 and [n for n, _ in run.batches] == [4, 4]


def test_the_json_follows_the_contract_and_scores_both_policies() -> None:
    items = _items()
    run = run_bench(items, FakeVerifier(), InputMode.RAW)
    as_real, as_fake = (
        BenchResult(_bench(items), run, policy, InputMode.RAW, "idx.sqlite", score_upstream=True).payload(
            Timing()
        )
        for policy in (UnverifiedPolicy.REAL, UnverifiedPolicy.FAKE)
    )
    assert list(as_real)[: len(CONTRACT_KEYS)] == CONTRACT_KEYS
    assert as_real["schema"] == BENCH_SCHEMA and (as_real["benchmark"], as_real["split"]) == (
        "citeaudit",
        "all",
    )
    # Per round of five: wrong/hallucinated TP, unknown/hallucinated FN|TP, unknown/real TN|FP, wrong/real FP.
    assert (as_real["tp"], as_real["fn"], as_real["fp"], as_real["tn"]) == (3, 3, 3, 6)
    assert (as_fake["tp"], as_fake["fn"], as_fake["fp"], as_fake["tn"]) == (6, 0, 6, 3)
    assert as_real["unverified"] == 6 and as_real["n"] == 15
    assert as_real["per_type"] == {"t1": {"n": 6, "detected": 3}, "valid": {"n": 9, "detected": 3}}
    assert as_real["items"][1] == {
        "id": 1,
        "label": True,
        "predicted": True,
        "verdict": "metadata_error",
        "severity": None,
        "type": "t1",
        "likelihood": 0.9,
        "features": [],
    }
    # The likelihood ranks the items: every metadata error above every other verdict.
    assert as_real["likelihood"]["roc_auc"] is not None and as_real["model"] is None
    assert as_real["coverage"]["decided"] == 9
    assert as_real["coverage"]["scores_on_decided"]["fp"] == 3
    # The upstream's own predictions are right on every item here.
    assert (as_real["upstream"]["f1"], as_real["upstream"]["fpr"]) == (1.0, 0.0)
    assert as_real["seconds_per_10_refs"] == pytest.approx(10 * as_real["seconds_total"] / 15, abs=1e-4)
    assert json.loads(json.dumps(as_real)) == as_real


def test_upstream_is_left_out_unless_asked_for() -> None:
    run = run_bench(_items(), FakeVerifier(), InputMode.RAW)
    result = BenchResult(_bench(_items()), run, UnverifiedPolicy.REAL, InputMode.RAW, None)
    assert "upstream" not in result.payload(Timing())
    assert "CiteAudit" not in markdown(result, Timing())


def test_upstream_is_scored_only_on_the_items_that_carry_a_prediction() -> None:
    items = [replace(i, upstream_real=None) if i.id in (0, 1) else i for i in _items()]
    run = run_bench(items, FakeVerifier(), InputMode.RAW)
    result = BenchResult(_bench(items), run, UnverifiedPolicy.REAL, InputMode.RAW, None, score_upstream=True)
    upstream = result.payload(Timing())["upstream"]
    assert (upstream["n"], upstream["tp"] + upstream["fn"]) == (13, 5)  # item 1 was hallucinated
    assert "scored on the 13 items that carry a prediction" in markdown(result, Timing())


def test_markdown_and_plot(tmp_path: Path) -> None:
    run = run_bench(_items(), FakeVerifier(), InputMode.RAW)
    result = BenchResult(
        _bench(_items()), run, UnverifiedPolicy.FAKE, InputMode.RAW, "idx.sqlite", score_upstream=True
    )
    text = markdown(result, Timing())
    assert "| refhound | 15 | 6 | 6 | 0 | 3 |" in text
    assert "| CiteAudit (its own `Predict`) | 15 | 6 | 0 | 0 | 9 |" in text
    assert "the index decided **9 of 15** items" in text
    write_plot(result, tmp_path / "plot.png")
    assert (tmp_path / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_parts_are_a_stable_partition_by_content() -> None:
    items = [BenchItem(id=i, hallucinated=False, type="valid", line=i, raw=f"ref {i}") for i in range(300)]
    parts = {k: {i.id for i in items if part_of(i, 3) == k} for k in (1, 2, 3)}
    assert set().union(*parts.values()) == set(range(300)) and sum(map(len, parts.values())) == 300
    assert all(60 < len(ids) < 140 for ids in parts.values())  # a hash spreads them about evenly
    # The part depends on the content only, not on the item's position or file: sha256 mod N, 1-based.
    moved = replace(items[7], id=99, line=1)
    assert part_of(moved, 3) == part_of(items[7], 3) == int(hashlib.sha256(b"ref 7").hexdigest(), 16) % 3 + 1
    fields = {"title": "T", "year": "2020"}
    by_fields = BenchItem(id=0, hallucinated=False, type="valid", line=1, fields=fields)
    expected = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()
    assert part_of(by_fields, 2) == int(expected, 16) % 2 + 1


def _judged(severities: list[Severity | None]) -> FakeVerifier:
    """A verifier that finds a metadata error in every item, of the given severities in turn."""

    class Judged(FakeVerifier):
        def __call__(self, references: list[Reference]) -> list[ReferenceResult]:
            return [
                ReferenceResult(
                    id=r.id,
                    raw=r.raw,
                    parsed=ParsedFields(),
                    verdict=Verdict.METADATA_ERROR,
                    severity=severities[int(r.id)],
                    hallucinated=None,
                    # the likelihood a major error has: above the threshold
                    likelihood=0.2 if severities[int(r.id)] is Severity.MINOR else 0.8,
                    stage="judge",
                )
                for r in references
            ]

    return Judged()


def test_positive_decides_whether_a_minor_error_is_a_detection() -> None:
    severities = [Severity.MINOR, Severity.MAJOR, Severity.MINOR, None]
    items = [
        BenchItem(id=i, hallucinated=i != 2, type="t1" if i != 2 else "valid", line=i + 1, raw="x")
        for i in range(len(severities))
    ]
    run = run_bench(items, _judged(severities), InputMode.RAW)
    scored = {
        positive: BenchResult(
            _bench(items), run, UnverifiedPolicy.REAL, InputMode.RAW, None, positive=positive
        )
        for positive in FlagPolicy
    }
    # major: the minor slips are negatives (one missed fake, one right real); any: every error is flagged.
    assert (scored[FlagPolicy.MAJOR].scores.tp, scored[FlagPolicy.MAJOR].scores.fn) == (2, 1)
    assert (scored[FlagPolicy.MAJOR].scores.fp, scored[FlagPolicy.MAJOR].scores.tn) == (0, 1)
    assert (scored[FlagPolicy.ANY].scores.tp, scored[FlagPolicy.ANY].scores.fp) == (3, 1)
    payload = scored[FlagPolicy.MAJOR].payload(Timing())
    assert payload["positive"] == "major" and payload["part"] is None
    assert [i["severity"] for i in payload["items"]] == ["minor", "major", "minor", None]
    assert [i["predicted"] for i in payload["items"]] == [False, True, False, True]


def test_a_part_is_recorded_with_the_items_of_the_whole_file() -> None:
    items = _items()[:6]
    run = run_bench(items, FakeVerifier(), InputMode.RAW)
    result = BenchResult(
        _bench(items), run, UnverifiedPolicy.REAL, InputMode.RAW, None, part="1/2", items_in_file=15
    )
    payload = result.payload(Timing())
    assert (payload["part"], payload["n"], payload["items_in_file"]) == ("1/2", 6, 15)
    assert "part 1/2 (6 of 15 items)" in markdown(result, Timing())
