"""How many real references another likelihood model would flag, read from saved `check` reports.

    python scripts/rescore_reports.py REPORTS... --model /tmp/model.json [--model ...]

Each REPORTS folder holds the JSON reports of `scripts/bench_real_bibs.py --out` (bibliographies whose every
entry is real). A report keeps each reference's field checks and the judge's levels, so its features can be
scored again with any model without checking anything again. Counted as `bench_real_bibs.py` counts them:
each title once (the first file's reference), decided when its verdict is not `unverified` or when the
model flags it. Without `--model` the packaged model is read; `--list` names the flagged references.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from refhound.benchmark.fit import clopper_pearson_upper
from refhound.likelihood.model import LikelihoodModel, default_model_path, features, load_model
from refhound.models import FieldCheck
from refhound.normalize.titles import title_key


def distinct_references(folder: Path) -> list[dict[str, Any]]:
    """The references of every report in `folder`, each title once."""
    seen: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        for reference in json.loads(path.read_text())["references"]:
            key = title_key((reference.get("parsed") or {}).get("title") or "")
            if key:
                seen.setdefault(key, {**reference, "file": path.stem})
    return list(seen.values())


def rescored(reference: dict[str, Any], model: LikelihoodModel) -> float:
    fields = [FieldCheck.model_validate(check) for check in reference.get("fields") or []]
    return model.score(features(fields, reference.get("levels") or []))[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+", help="folders of bench_real_bibs.py reports")
    parser.add_argument("--model", type=Path, action="append", help="a model file (repeatable)")
    parser.add_argument("--list", action="store_true", help="name every flagged reference")
    args = parser.parse_args()
    models = [load_model(path) for path in args.model or [default_model_path()]]
    print("| set | " + " | ".join(f"{m.version} ({m.threshold})" for m in models) + " |")
    print("|---|" + "---:|" * len(models))
    listed = []
    for folder in args.folders:
        references = distinct_references(folder)
        cells = []
        for model in models:
            scores = [(rescored(r, model), r) for r in references]
            flagged = [(s, r) for s, r in scores if s >= model.threshold]
            decided = sum(1 for s, r in scores if r["verdict"] != "unverified" or s >= model.threshold)
            upper = clopper_pearson_upper(len(flagged), decided) if decided else 1.0
            cells.append(f"{len(flagged)} / {decided} ({upper:.1%})")
            listed += [(folder.name, model.version, s, r) for s, r in flagged]
        print(f"| {folder.name} | " + " | ".join(cells) + " |")
    if args.list:
        for name, version, score, reference in listed:
            title = (reference.get("parsed") or {}).get("title") or ""
            print(f"- {name} {version} {score:.3f} {reference['file']} `{reference['id']}`: {title[:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
