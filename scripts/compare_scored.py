#!/usr/bin/env python
"""Which references a code change moved: two work folders of scripts/train_likelihood.py, item by item.

    python scripts/compare_scored.py BEFORE AFTER [--show N]

BEFORE and AFTER are `--workdir`s scored on two versions of the code (each set scored from scratch, not
`--reuse`d). For every scored set (the bench JSON files, and the `check` reports of the package
bibliographies and the PDFs) it counts the references and lists those whose verdict or features (the
levels the likelihood model reads) differ, with the features that appeared or went. Likelihoods are not
compared: each folder's were scored with the model shipped when it was made.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from refhound.likelihood.model import features
from refhound.models import FieldCheck


def _scored(folder: Path) -> dict[str, dict[str, tuple[str, frozenset[str]]]]:
    """Set name → reference key → (verdict, levels)."""
    sets: dict[str, dict[str, tuple[str, frozenset[str]]]] = {}
    for path in sorted(folder.glob("*-part[12].json")):
        items = json.loads(path.read_text())["items"]
        sets[path.stem] = {str(item["id"]): (item["verdict"], frozenset(item["features"])) for item in items}
    for path in sorted(folder.glob("*/*.json")):
        references = json.loads(path.read_text())["references"]
        sets[f"{path.parent.name}/{path.stem}"] = dict(_report_rows(references))
    return sets


def _report_rows(references: list[dict[str, Any]]) -> Iterator[tuple[str, tuple[str, frozenset[str]]]]:
    """A report's references with the model's features, read as scripts/train_likelihood.py reads them."""
    for number, reference in enumerate(references):
        fields = [FieldCheck.model_validate(check) for check in reference["fields"]]
        levels = features(fields, reference.get("levels", []))
        yield f"{number}:{reference['id']}", (reference["verdict"], frozenset(levels))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--show", type=int, default=20, help="moved references listed per set")
    args = parser.parse_args()
    before, after = _scored(args.before), _scored(args.after)
    total_moved = 0
    for name in sorted(before.keys() & after.keys()):
        old, new = before[name], after[name]
        moved = [key for key in old.keys() & new.keys() if old[key] != new[key]]
        total_moved += len(moved)
        print(f"{name}: {len(new)} references, {len(moved)} moved")
        for key in sorted(moved)[: args.show]:
            (verdict, levels), (new_verdict, new_levels) = old[key], new[key]
            gone, came = sorted(levels - new_levels), sorted(new_levels - levels)
            print(f"  {key}: {verdict} -> {new_verdict}; features gone {gone}, new {came}")
    for name in sorted(before.keys() ^ after.keys()):
        print(f"{name}: only in {'BEFORE' if name in before else 'AFTER'}")
    print(f"moved in all: {total_moved}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
