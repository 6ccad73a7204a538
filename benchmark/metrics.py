"""Scores of a yes/no hallucination detector: confusion counts, the usual rates, per-type detection.

Positive = hallucinated, as in the DESIGN's `refhound bench` contract and CiteAudit's evaluation. A rate
whose denominator is zero is 0.0 (not NaN), so that JSON stays valid and tables stay readable; the counts
beside it say when that happened.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from refhound.models import FlagPolicy, ReferenceResult, UnverifiedPolicy, is_decided, is_hallucinated


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


@dataclass(frozen=True)
class Scores:
    """Confusion counts of (truth, prediction) pairs and the rates derived from them."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def accuracy(self) -> float:
        return _ratio(self.tp + self.tn, self.n)

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        return _ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)

    @property
    def fpr(self) -> float:
        return _ratio(self.fp, self.fp + self.tn)

    def as_dict(self, digits: int = 4) -> dict[str, float | int]:
        """Counts and rates under the contract's key names."""
        return {
            "n": self.n,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "accuracy": round(self.accuracy, digits),
            "precision": round(self.precision, digits),
            "recall": round(self.recall, digits),
            "f1": round(self.f1, digits),
            "fpr": round(self.fpr, digits),
        }


def score(pairs: Iterable[tuple[bool, bool]]) -> Scores:
    """Scores of (truth, predicted) pairs, each True for hallucinated."""
    tp = fp = fn = tn = 0
    for truth, predicted in pairs:
        if truth:
            tp += predicted
            fn += not predicted
        else:
            fp += predicted
            tn += not predicted
    return Scores(tp, fp, fn, tn)


def predicted_hallucinated(
    result: ReferenceResult,
    threshold: float,
    policy: UnverifiedPolicy,
    positive: FlagPolicy = FlagPolicy.MAJOR,
) -> bool:
    """The detector's yes/no: the likelihood reaches the threshold (or, when `positive` is `any`, any
    metadata error); below it an `unverified` reference counts as the policy says (real or fake; never
    unknown here)."""
    if policy is UnverifiedPolicy.UNKNOWN:
        raise ValueError("a benchmark needs a yes/no answer: count unverified as real or fake")
    return bool(is_hallucinated(result.verdict, result.likelihood, threshold, policy, positive))


@dataclass(frozen=True)
class TypeCount:
    """Items of one type and how many of them were flagged as hallucinated."""

    n: int
    detected: int

    @property
    def rate(self) -> float:
        return _ratio(self.detected, self.n)


def per_type(rows: Iterable[tuple[str, bool]]) -> dict[str, TypeCount]:
    """(type, predicted hallucinated) → per type, how many items and how many were flagged.

    For the `valid` type "detected" counts correct items flagged, i.e. false positives.
    """
    counts: dict[str, list[int]] = {}
    for kind, predicted in rows:
        entry = counts.setdefault(kind, [0, 0])
        entry[0] += 1
        entry[1] += predicted
    return {kind: TypeCount(n, d) for kind, (n, d) in sorted(counts.items())}


def decided(result: ReferenceResult, threshold: float) -> bool:
    """Whether the verifier gave an answer of its own (a verdict other than `unverified`, or a flag): what
    coverage counts."""
    return is_decided(result.verdict, result.likelihood, threshold)
