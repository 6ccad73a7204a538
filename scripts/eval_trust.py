#!/usr/bin/env python3
"""False alarms on real, human-written references: CiteAudit's real-world items, scored per half.

Reads the `refhound.bench/1` JSON of `refhound bench citeaudit FILE --split realworld --score-upstream`
runs (their `predicted` follows the run's `--positive`, `major` by default) and the benchmark files they
scored, puts every item in one of two halves by the sha256 of its citation string (the rule of
`refhound bench --part K/2`, so a half holds the same items in every file and run), and prints per half:

- decided: items whose verdict is not `unverified` (the index's coverage);
- among decided real references, the share called hallucinated, and how many are `fabricated`;
- F1 on the decided items, refhound's and CiteAudit's own `Predict` on the same items;
- how sure the comparison is: the decided items resampled with replacement (a paired bootstrap, seeded),
  the share of resamples where refhound's F1 is at least CiteAudit's, and the 5th–95th percentiles of the
  difference. A half holds few decided fakes, so one item moves F1 by several points.

    python scripts/eval_trust.py BENCH.json[=BENCHMARK.json] … [--show-false-alarms HALF]

Without `=BENCHMARK.json` the benchmark file is the one the bench JSON names in `path`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path


def half_of(citation: str, parts: int = 2) -> int:
    """1-based part of a citation string, as `refhound bench --part K/N` assigns it."""
    return int(hashlib.sha256(citation.encode("utf-8")).hexdigest(), 16) % parts + 1


@dataclass
class Tally:
    items: int = 0
    decided: int = 0
    real_decided: int = 0
    real_flagged: int = 0
    real_fabricated: int = 0
    ours: list[tuple[bool, bool]] = field(default_factory=list)  # (truth, predicted) on decided items
    paired: list[tuple[bool, bool, bool]] = field(default_factory=list)  # (truth, ours, upstream's)


def f1(pairs: list[tuple[bool, bool]]) -> tuple[float, int, int, int, int]:
    tp = sum(t and p for t, p in pairs)
    fp = sum(p and not t for t, p in pairs)
    fn = sum(t and not p for t, p in pairs)
    tn = sum(not t and not p for t, p in pairs)
    score = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return score, tp, fp, fn, tn


def paired_bootstrap(
    paired: list[tuple[bool, bool, bool]], rounds: int = 10_000, seed: int = 0
) -> tuple[float, float, float]:
    """Share of resamples where our F1 >= upstream's, and the 5th and 95th percentiles of the difference."""
    if not paired:
        return 0.0, 0.0, 0.0
    rng = random.Random(seed)
    differences = []
    for _ in range(rounds):
        sample = rng.choices(paired, k=len(paired))
        ours = f1([(truth, mine) for truth, mine, _ in sample])[0]
        theirs = f1([(truth, upstream) for truth, _, upstream in sample])[0]
        differences.append(ours - theirs)
    differences.sort()
    at_least = sum(d >= 0 for d in differences) / rounds
    return at_least, differences[int(0.05 * rounds)], differences[int(0.95 * rounds) - 1]


def _scores(scores: tuple[float, int, int, int, int]) -> str:
    value, tp, fp, fn, tn = scores
    return f"{value:.3f} (TP {tp} FP {fp} FN {fn} TN {tn})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="BENCH.json or BENCH.json=BENCHMARK.json")
    parser.add_argument(
        "--show-false-alarms",
        type=int,
        metavar="HALF",
        help="list that half's real items flagged, and its hallucinated items decided but not flagged",
    )
    args = parser.parse_args()
    tallies = {1: Tally(), 2: Tally()}
    alarms: list[str] = []
    for spec in args.runs:
        bench_path, _, data_path = spec.partition("=")
        bench = json.loads(Path(bench_path).read_text(encoding="utf-8"))
        data = json.loads(Path(data_path or bench["path"]).read_text(encoding="utf-8"))["data"]
        for item in bench["items"]:
            citation = data[int(item["id"])]
            half = half_of(citation["citation"])
            tally = tallies[half]
            tally.items += 1
            if item["verdict"] == "unverified":
                continue
            tally.decided += 1
            truth, predicted = bool(item["label"]), bool(item["predicted"])
            tally.ours.append((truth, predicted))
            if "Predict" in citation:
                tally.paired.append((truth, predicted, not bool(citation["Predict"])))  # Predict: true = real
            if truth and not predicted and half == args.show_false_alarms:
                alarms.append(f"MISSED {item['verdict']}\t{item.get('severity')}\t{citation['citation']}")
            if not truth:
                tally.real_decided += 1
                tally.real_flagged += predicted
                tally.real_fabricated += item["verdict"] == "fabricated"
                if predicted and half == args.show_false_alarms:
                    alarms.append(f"{item['verdict']}\t{item.get('severity')}\t{citation['citation']}")
    print(
        "| half | items | decided | real decided | called hallucinated | fabricated | F1 decided | "
        "CiteAudit F1 same items |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for half, t in tallies.items():
        share = t.real_flagged / t.real_decided if t.real_decided else 0.0
        ours, upstream = f1(t.ours), f1([(truth, theirs) for truth, _, theirs in t.paired])
        print(
            f"| {half} | {t.items} | {t.decided} ({t.decided / max(t.items, 1):.1%}) | {t.real_decided} | "
            f"{t.real_flagged} ({share:.1%}) | {t.real_fabricated} | {_scores(ours)} | {_scores(upstream)} |"
        )
    print()
    print("| half | resamples where refhound's F1 >= CiteAudit's | F1 difference, 5th-95th percentile |")
    print("|---|---:|---:|")
    for half, t in tallies.items():
        at_least, low, high = paired_bootstrap(t.paired)
        print(f"| {half} | {at_least:.1%} | {low:+.3f} to {high:+.3f} |")
    for line in sorted(alarms):
        print(line)


if __name__ == "__main__":
    main()
