"""The bench's PNG: the confusion matrix, per-type detection rates and the likelihood's threshold sweep.

Drawn on a `Figure` with the Agg canvas directly, never through `pyplot`: no global backend switch, no GUI,
nothing left open between runs — the bench works on a headless machine and inside other programs.
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from refhound.benchmark.items import VALID_TYPE
from refhound.benchmark.ranking import threshold_sweep
from refhound.benchmark.results import BenchResult

_HALLUCINATED_COLOUR = "#c0392b"
_VALID_COLOUR = "#2e86c1"


def _confusion(ax: Axes, result: BenchResult) -> None:
    s = result.scores
    cells = [[s.tn, s.fp], [s.fn, s.tp]]
    top = max(1, s.tn, s.fp, s.fn, s.tp)
    ax.imshow(cells, cmap="Blues", vmin=0, vmax=top)
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            ax.text(
                c, r, f"{value:,}", ha="center", va="center", color="white" if value > top / 2 else "black"
            )
    ax.set_xticks([0, 1], ["real", "hallucinated"])
    ax.set_yticks([0, 1], ["real", "hallucinated"])
    ax.set_xlabel("predicted")
    ax.set_ylabel("truth")
    ax.set_title(f"F1 {s.f1:.3f} · precision {s.precision:.3f} · recall {s.recall:.3f}", fontsize=9)


def _per_type(ax: Axes, result: BenchResult) -> None:
    kinds = sorted(result.types, key=lambda k: (k == VALID_TYPE, k))
    rates = [result.types[k].rate for k in kinds]
    colours = [_VALID_COLOUR if k == VALID_TYPE else _HALLUCINATED_COLOUR for k in kinds]
    positions = list(range(len(kinds)))
    ax.barh(positions, rates, color=colours)
    labels = [
        f"{k} (FP rate, n={result.types[k].n:,})" if k == VALID_TYPE else f"{k} (n={result.types[k].n:,})"
        for k in kinds
    ]
    ax.set_yticks(positions, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.05)
    ax.set_xlabel("share flagged as hallucinated")
    ax.set_title("detection per type", fontsize=9)
    for y, rate in zip(positions, rates, strict=True):
        ax.text(min(rate + 0.01, 0.9), y, f"{rate:.2f}", va="center", fontsize=7)


def _sweep(ax: Axes, result: BenchResult) -> None:
    """Precision, recall, F1 and false-positive rate of the likelihood at each threshold, the one in use
    marked."""
    rows = threshold_sweep(result.scored)
    cuts = [row["threshold"] for row in rows]
    for key, colour in (("precision", "#2e86c1"), ("recall", "#c0392b"), ("f1", "#222"), ("fpr", "#999")):
        ax.plot(cuts, [row[key] for row in rows], label=key, color=colour, linewidth=1.2)
    ax.axvline(result.threshold, color="#555", linestyle="--", linewidth=1)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("likelihood threshold")
    ax.set_title(f"threshold sweep (in use: {result.threshold:.2f})", fontsize=9)
    ax.legend(fontsize=7, loc="lower left")


def write_plot(result: BenchResult, path: Path) -> None:
    """Write the confusion matrix and per-type detection bars of `result` as a PNG."""
    height = max(3.5, 0.3 * len(result.types) + 1.5)
    figure = Figure(figsize=(15, height), layout="constrained")
    FigureCanvasAgg(figure)
    left, middle, right = figure.subplots(1, 3, width_ratios=[1, 1.6, 1.2])
    _confusion(left, result)
    _per_type(middle, result)
    _sweep(right, result)
    bench = result.bench
    figure.suptitle(
        f"refhound on {bench.name} {bench.split}: n={result.n:,}, input {result.mode.value}, "
        f"unverified as {result.policy.value}",
        fontsize=10,
    )
    figure.savefig(path, dpi=110)
