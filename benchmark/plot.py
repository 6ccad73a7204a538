"""The bench's PNG: the confusion matrix beside per-type detection rates.

Drawn on a `Figure` with the Agg canvas directly, never through `pyplot`: no global backend switch, no GUI,
nothing left open between runs — the bench works on a headless machine and inside other programs.
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from refhound.benchmark.items import VALID_TYPE
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


def write_plot(result: BenchResult, path: Path) -> None:
    """Write the confusion matrix and per-type detection bars of `result` as a PNG."""
    height = max(3.5, 0.3 * len(result.types) + 1.5)
    figure = Figure(figsize=(11, height), layout="constrained")
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2, width_ratios=[1, 1.6])
    _confusion(left, result)
    _per_type(right, result)
    bench = result.bench
    figure.suptitle(
        f"refhound on {bench.name} {bench.split}: n={result.n:,}, input {result.mode.value}, "
        f"unverified as {result.policy.value}",
        fontsize=10,
    )
    figure.savefig(path, dpi=110)
