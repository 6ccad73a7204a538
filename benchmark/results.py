"""A finished (or interrupted) bench run → the `refhound.bench/1` JSON and a Markdown summary.

The JSON keys of the DESIGN's contract come first and mean exactly what it says; a few keys follow them
(input mode, coverage, the upstream tool's scores, a timing breakdown) because a figure without them cannot
be read honestly. Item labels are booleans like `predicted`: true = hallucinated.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refhound.benchmark.items import BenchItem, Benchmark, InputMode
from refhound.benchmark.metrics import Scores, TypeCount, decided, per_type, predicted_hallucinated, score
from refhound.benchmark.ranking import average_precision, expected_calibration_error, roc_auc, threshold_sweep
from refhound.benchmark.runner import BenchRun
from refhound.likelihood.model import features
from refhound.models import FlagPolicy, ReferenceResult, UnverifiedPolicy, Verdict

BENCH_SCHEMA = "refhound.bench/1"


@dataclass
class Timing:
    """Wall-clock seconds of the phases of a bench command around the run, for the overhead statement."""

    load: float = 0.0  # reading and validating the benchmark file
    setup: float = 0.0  # opening the index and building the verifier
    report: float = 0.0  # scoring, Markdown and PNG (measured by the caller before it asks for the JSON)


@dataclass
class BenchResult:
    """Scores of one run, computed once from the items and the verdicts."""

    bench: Benchmark
    run: BenchRun
    policy: UnverifiedPolicy
    mode: InputMode
    index: str | None
    score_upstream: bool = False  # score the file's own predictions too (when it has any)
    positive: FlagPolicy = FlagPolicy.MAJOR  # whether a minor metadata error counts as a positive
    part: str | None = None  # "K/N" when only that part of the items was scored
    items_in_file: int | None = None  # items of the file (its split) before --part; None: `bench.items`
    threshold: float = 0.5  # the likelihood from which a reference is hallucinated
    model: str | None = None  # the likelihood model's name and version

    def __post_init__(self) -> None:
        self.pairs: list[tuple[BenchItem, ReferenceResult]] = list(
            zip(self.bench.items, self.run.results, strict=False)
        )
        self.predicted = [
            predicted_hallucinated(r, self.threshold, self.policy, self.positive) for _, r in self.pairs
        ]
        # The likelihood as a ranking: every item, and the decided ones (where the verifier answered).
        self.scored = [(i.hallucinated, r.likelihood or 0.0) for i, r in self.pairs]
        self.scored_decided = [
            (i.hallucinated, r.likelihood or 0.0) for i, r in self.pairs if decided(r, self.threshold)
        ]
        self.levels = Counter(level for _, r in self.pairs for level in features(r.fields, r.levels))
        self.scores = score((i.hallucinated, p) for (i, _), p in zip(self.pairs, self.predicted, strict=True))
        self.types: dict[str, TypeCount] = per_type(
            (i.type, p) for (i, _), p in zip(self.pairs, self.predicted, strict=True)
        )
        self.verdicts = Counter(r.verdict.value for _, r in self.pairs)
        decided_rows = [
            (i, p) for (i, r), p in zip(self.pairs, self.predicted, strict=True) if decided(r, self.threshold)
        ]
        self.decided = len(decided_rows)
        self.scores_decided = score((i.hallucinated, p) for i, p in decided_rows)
        self.upstream: Scores | None = None
        self.upstream_decided: Scores | None = None
        if self.score_upstream and self.bench.has_upstream:
            rows = [(i, r) for i, r in self.pairs if i.upstream_real is not None]
            self.upstream = score((i.hallucinated, not i.upstream_real) for i, _ in rows)
            self.upstream_decided = score(
                (i.hallucinated, not i.upstream_real) for i, r in rows if decided(r, self.threshold)
            )

    @property
    def n(self) -> int:
        return len(self.pairs)

    @property
    def in_file(self) -> int:
        return len(self.bench.items) if self.items_in_file is None else self.items_in_file

    @property
    def seconds_per_10(self) -> float:
        return 10 * self.run.seconds_verify / self.n if self.n else 0.0

    def payload(self, timing: Timing) -> dict[str, Any]:
        """The `refhound.bench/1` object."""
        s = self.scores.as_dict()
        out: dict[str, Any] = {
            "schema": BENCH_SCHEMA,
            "benchmark": self.bench.name,
            "split": self.bench.split,
            "n": self.n,
            **{k: s[k] for k in ("tp", "fp", "fn", "tn", "accuracy", "precision", "recall", "f1", "fpr")},
            "unverified": self.verdicts.get(Verdict.UNVERIFIED.value, 0),
            "seconds_total": round(self.run.seconds_verify, 4),
            "seconds_per_10_refs": round(self.seconds_per_10, 5),
            "per_type": {k: {"n": c.n, "detected": c.detected} for k, c in self.types.items()},
            "items": [
                {
                    "id": i.id,
                    "label": i.hallucinated,
                    "predicted": p,
                    "verdict": r.verdict.value,
                    "severity": r.severity.value if r.severity else None,
                    "type": i.type,
                    "likelihood": r.likelihood,
                    "features": features(r.fields, r.levels),
                }
                for (i, r), p in zip(self.pairs, self.predicted, strict=True)
            ],
            "input": self.mode.value,
            "unverified_as": self.policy.value,
            "positive": self.positive.value,
            "part": self.part,
            "index": self.index,
            "path": str(self.bench.path),
            "items_in_file": self.in_file,
            "interrupted": self.run.interrupted,
            "verdicts": {v.value: self.verdicts.get(v.value, 0) for v in Verdict},
            "coverage": {
                "decided": self.decided,
                "share": round(self.decided / self.n, 4) if self.n else 0.0,
                "scores_on_decided": self.scores_decided.as_dict(),
            },
            "model": self.model,
            "threshold": self.threshold,
            "likelihood": {
                "roc_auc": _rounded(roc_auc(self.scored)),
                "pr_auc": _rounded(average_precision(self.scored)),
                "ece": round(expected_calibration_error(self.scored), 4),
                "on_decided": {
                    "roc_auc": _rounded(roc_auc(self.scored_decided)),
                    "pr_auc": _rounded(average_precision(self.scored_decided)),
                    "ece": round(expected_calibration_error(self.scored_decided), 4),
                },
                "sweep": threshold_sweep(self.scored),
            },
            "levels": dict(sorted(self.levels.items())),
            "timing": {
                "load_s": round(timing.load, 4),
                "setup_s": round(timing.setup, 4),
                "verify_s": round(self.run.seconds_verify, 4),
                "runner_overhead_s": round(self.run.seconds_overhead, 4),
                "report_s": round(timing.report, 4),
                "abandoned_s": round(self.run.seconds_abandoned, 4),
                "verifier_calls": len(self.run.batches),
            },
        }
        if self.upstream is not None and self.upstream_decided is not None:
            out["upstream"] = {
                "name": self.bench.upstream_name,
                **self.upstream.as_dict(),
                "scores_on_decided": self.upstream_decided.as_dict(),
            }
        return out


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


_TABLE_HEAD = [
    "| scorer | n | TP | FP | FN | TN | accuracy | precision | recall | F1 | FPR |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
]


def _row(name: str, s: Scores) -> str:
    return (
        f"| {name} | {s.n:,} | {s.tp} | {s.fp} | {s.fn} | {s.tn} | {s.accuracy:.3f} | {s.precision:.3f} | "
        f"{s.recall:.3f} | **{s.f1:.3f}** | {s.fpr:.3f} |"
    )


def markdown(result: BenchResult, timing: Timing) -> str:
    """A short human summary of the run: scores, coverage, per-type detection and time."""
    b, n = result.bench, result.n
    upstream = f"{b.upstream_name} (its own `Predict`)"
    lines = [
        f"## refhound bench: {b.name} `{b.split}` ({Path(b.path).name})",
        "",
        f"Input: `{result.mode.value}` · unverified counted as **{result.policy.value}** · "
        f"positive: fabricated and **{result.positive.value}** metadata errors · "
        + (f"part {result.part} ({len(b.items):,} of {result.in_file:,} items) · " if result.part else "")
        + f"index: `{result.index or 'default'}` · {n:,} of {len(b.items):,} items scored"
        + (" · **interrupted (Ctrl-C): partial**" if result.run.interrupted else ""),
        "",
        *_TABLE_HEAD,
        _row("refhound", result.scores),
    ]
    if result.upstream is not None:
        lines.append(_row(upstream, result.upstream))
        if result.upstream.n < n:
            note = f"({upstream} is scored on the {result.upstream.n:,} items that carry a prediction.)"
            lines += ["", note]
    share = result.decided / n if n else 0.0
    lines += [
        "",
        f"Coverage: the index decided **{result.decided:,} of {n:,}** items ({share:.1%}); "
        f"verdicts: " + ", ".join(f"{v.value} {result.verdicts.get(v.value, 0):,}" for v in Verdict) + ".",
    ]
    if result.decided:
        lines += ["", "On the decided items only:", "", *_TABLE_HEAD, _row("refhound", result.scores_decided)]
        if result.upstream_decided is not None:
            lines.append(_row(upstream, result.upstream_decided))
    auc, ap = roc_auc(result.scored), average_precision(result.scored)
    lines += [
        "",
        f"Likelihood (`{result.model}`, threshold {result.threshold:.2f}): ROC AUC "
        f"{'—' if auc is None else f'{auc:.3f}'}, PR AUC {'—' if ap is None else f'{ap:.3f}'}, "
        f"expected calibration error {expected_calibration_error(result.scored):.3f}.",
    ]
    lines += ["", "| type | n | flagged | rate |", "|---|---:|---:|---:|"]
    lines += [f"| {k} | {c.n:,} | {c.detected:,} | {c.rate:.3f} |" for k, c in result.types.items()]
    lines += [
        "",
        "(`valid`: correct items flagged, i.e. the false-positive rate.)",
        "",
        f"Time: verification {result.run.seconds_verify:.2f} s = **{result.seconds_per_10:.4f} s per 10 "
        f"references** (measured around each verifier call, parsing included); runner overhead "
        f"{result.run.seconds_overhead:.3f} s; loading {timing.load:.2f} s; set-up {timing.setup:.2f} s.",
    ]
    return "\n".join(lines) + "\n"
