"""Scores of a likelihood rather than a yes/no: ROC and PR AUC, calibration error, a threshold sweep.

Pure functions over (label, score) pairs, label True for hallucinated. Ties are handled as the usual
definitions do (ROC AUC as the Mann–Whitney statistic with half credit for ties; average precision over
the distinct scores), so a score that takes few values is not flattered. A set with one class only has no
AUC: `None`, which the JSON writes as null.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# Bins of equal width for the expected calibration error and the reliability diagram.
CALIBRATION_BINS = 10


def roc_auc(pairs: Sequence[tuple[bool, float]]) -> float | None:
    """The probability that a random positive scores above a random negative (ties count half)."""
    positives = sum(1 for label, _ in pairs if label)
    negatives = len(pairs) - positives
    if not positives or not negatives:
        return None
    ordered = sorted(pairs, key=lambda p: p[1])
    rank_sum, i = 0.0, 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][1] == ordered[i][1]:
            j += 1
        mid_rank = (i + 1 + j) / 2  # the average 1-based rank of the tied run
        rank_sum += mid_rank * sum(1 for label, _ in ordered[i:j] if label)
        i = j
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def average_precision(pairs: Sequence[tuple[bool, float]]) -> float | None:
    """Area under the precision–recall curve, as the mean precision at each distinct score's cut."""
    positives = sum(1 for label, _ in pairs if label)
    if not positives:
        return None
    ordered = sorted(pairs, key=lambda p: -p[1])
    total, tp, seen, i = 0.0, 0, 0, 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][1] == ordered[i][1]:
            j += 1
        hits = sum(1 for label, _ in ordered[i:j] if label)
        tp, seen = tp + hits, seen + (j - i)
        total += hits * (tp / seen)
        i = j
    return total / positives


@dataclass(frozen=True)
class CalibrationBin:
    low: float
    high: float
    n: int
    mean_score: float
    share_positive: float


def reliability(pairs: Sequence[tuple[bool, float]], bins: int = CALIBRATION_BINS) -> list[CalibrationBin]:
    """The reliability diagram's bins: for each score range, the mean score and the share of positives."""
    out = []
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        inside = [(label, s) for label, s in pairs if low <= s < high or (b == bins - 1 and s == 1.0)]
        if inside:
            mean = sum(s for _, s in inside) / len(inside)
            share = sum(1 for label, _ in inside if label) / len(inside)
            out.append(CalibrationBin(low, high, len(inside), mean, share))
    return out


def expected_calibration_error(pairs: Sequence[tuple[bool, float]], bins: int = CALIBRATION_BINS) -> float:
    """The mean gap between score and observed rate, bins weighted by their share of items."""
    if not pairs:
        return 0.0
    return sum(b.n * abs(b.mean_score - b.share_positive) for b in reliability(pairs, bins)) / len(pairs)


def threshold_sweep(
    pairs: Sequence[tuple[bool, float]], thresholds: Sequence[float] | None = None
) -> list[dict[str, float]]:
    """Precision, recall, F1 and false-positive rate of `score >= t` at each threshold t."""
    cuts = thresholds or [round(0.05 * k, 2) for k in range(1, 20)]
    rows = []
    for t in cuts:
        tp = sum(1 for label, s in pairs if label and s >= t)
        fp = sum(1 for label, s in pairs if not label and s >= t)
        fn = sum(1 for label, s in pairs if label and s < t)
        tn = len(pairs) - tp - fp - fn
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0
        rows.append(
            {
                "threshold": t,
                "precision": round(precision, 4),
                "recall": round(recall, 4),
                "f1": round(f1, 4),
                "fpr": round(fp / (fp + tn), 4) if fp + tn else 0.0,
            }
        )
    return rows
