"""Fitting the likelihood model: an L2-penalised logistic regression over levels, Platt calibration, the
threshold, and the statistics that say how far to trust the figures (Clopper–Pearson, bootstrap).

Rows are (levels that fired, label: invented or not, weight). The penalty shrinks the weight of a level
seen on few rows towards zero, so a level's weight is the evidence of a kind, not of one string; levels
seen on fewer than `min_count` rows, and those that only say a comparison could not be made
(`NO_EVIDENCE`), get no weight at all.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from refhound.likelihood.levels import NO_EVIDENCE


@dataclass(frozen=True)
class Row:
    """One scored reference of a training set."""

    group: str  # the set it comes from
    half: int  # 1 or 2: the development half
    label: bool  # invented
    features: tuple[str, ...]
    verdict: str
    upstream_real: bool | None = None  # the benchmark's own tool's answer, where it has one
    calibrate: bool = False  # one of the real-world items whose share of inventions is the real one


@dataclass(frozen=True)
class Fitted:
    intercept: float
    weights: dict[str, float]

    def logit(self, features: Sequence[str]) -> float:
        # fsum: exact whatever the order, so rows with the same levels score the same to the last bit and
        # tie in the AUCs (a set's order varies with the process's string hashing).
        return math.fsum([self.intercept, *(self.weights.get(f, 0.0) for f in set(features))])


def vocabulary(rows: Sequence[Row], min_count: int) -> list[str]:
    """The levels that get a weight: seen on `min_count` rows at least, and evidence of something."""
    counts = Counter(f for row in rows for f in set(row.features))
    return sorted(f for f, n in counts.items() if n >= min_count and f not in NO_EVIDENCE)


def group_weights(rows: Sequence[Row], per_group: float) -> list[float]:
    """Weights that give every set the same total, `per_group`: a 5,000-item generated set must not drown
    the 300 real-world items."""
    sizes = Counter(row.group for row in rows)
    return [per_group / sizes[row.group] for row in rows]


def fit_logistic(
    rows: Sequence[Row], weights: Sequence[float], levels: Sequence[str], l2: float, iterations: int = 50
) -> Fitted:
    """Newton's method on the weighted, L2-penalised log-likelihood (the intercept is not penalised)."""
    index = {level: j for j, level in enumerate(levels)}
    x = np.zeros((len(rows), len(levels) + 1))
    x[:, 0] = 1.0
    for i, row in enumerate(rows):
        for f in set(row.features):
            if f in index:
                x[i, index[f] + 1] = 1.0
    y = np.array([1.0 if row.label else 0.0 for row in rows])
    w = np.asarray(weights, dtype=float)
    penalty = np.full(len(levels) + 1, l2)
    penalty[0] = 0.0
    beta = np.zeros(len(levels) + 1)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (w * (p - y)) + penalty * beta
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return Fitted(float(beta[0]), {level: float(beta[j + 1]) for level, j in index.items()})


def platt(logits: Sequence[float], labels: Sequence[bool]) -> tuple[float, float]:
    """Slope and intercept (a, b) so that σ(a·logit + b) is calibrated on these items."""
    x = np.column_stack([np.ones(len(logits)), np.asarray(logits, dtype=float)])
    y = np.array([1.0 if label else 0.0 for label in labels])
    beta = np.array([0.0, 1.0])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (p - y) + np.array([0.0, 1e-3 * (beta[1] - 1.0)])
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag([1e-9, 1e-3])
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return float(beta[1]), float(beta[0])


def calibrated(fitted: Fitted, slope: float, shift: float) -> Fitted:
    """The model with the calibration folded into its weights: one sum of terms, as the file holds it."""
    return Fitted(slope * fitted.intercept + shift, {level: slope * w for level, w in fitted.weights.items()})


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def clopper_pearson_upper(k: int, n: int, confidence: float = 0.95) -> float:
    """The upper end of the exact two-sided `confidence` interval of a binomial proportion k/n."""
    if n == 0:
        return 1.0
    if k >= n:
        return 1.0
    alpha = (1 - confidence) / 2

    def cdf(p: float) -> float:  # P(X <= k) for X ~ Binomial(n, p)
        return sum(
            math.exp(
                math.lgamma(n + 1)
                - math.lgamma(i + 1)
                - math.lgamma(n - i + 1)
                + (i * math.log(p) if i else 0.0)
                + ((n - i) * math.log1p(-p) if n - i else 0.0)
            )
            for i in range(k + 1)
        )

    low, high = k / n, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        if cdf(mid) > alpha:
            low = mid
        else:
            high = mid
    return high


def bootstrap_interval(
    values: Sequence[tuple[bool, float]],
    statistic: Callable[[list[tuple[bool, float]]], float],
    draws: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float, float]:
    """The percentile interval of `statistic` (a function of a list of pairs) over resamples of `values`."""
    if not values:
        return (0.0, 0.0)
    rng = random.Random(seed)
    n = len(values)
    found = sorted(float(statistic([values[rng.randrange(n)] for _ in range(n)])) for _ in range(draws))
    tail = (1 - confidence) / 2
    return found[int(tail * draws)], found[min(draws - 1, int((1 - tail) * draws))]
