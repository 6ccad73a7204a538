"""Peak RSS of `refhound serve --offline` while 20 clients each send a 45 MB body at once, and under one
200,000-entry BibTeX upload.

Rounds: JSON with a Content-Length (refused from the header), JSON streamed without one (refused as it
passes the JSON cap), 45 MB multipart uploads (under the 50 MB cap: spooled to disk, then read) holding one
BibTeX entry or one plain-text line each, and one upload of 200,000 BibTeX entries (~16 MB).
Usage: .venv/bin/python scripts/bench_serve_bodies.py [--index DB] [--rounds KIND ...]  (one line per round)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import psutil

SIZE = 45 * 1024 * 1024
CLIENTS = 20
ROUNDS = ("json-length", "json-stream", "multipart", "multipart-line", "bibtex-200k")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def streamed(prefix: bytes, size: int) -> AsyncIterator[bytes]:
    yield prefix
    chunk = b"x" * (1024 * 1024)
    for _ in range(size // len(chunk)):
        yield chunk


def many_entries(count: int) -> bytes:
    return "".join(
        f"@article{{k{n}, title={{Title number {n}}}, author={{Doe, Jane}}, journal={{J}}, year={{2019}}}}\n"
        for n in range(count)
    ).encode()


async def round_of(url: str, kind: str) -> list[int]:
    async with httpx.AsyncClient(timeout=600) as client:
        if kind == "bibtex-200k":
            response = await client.post(url, files={"file": ("refs.bib", many_entries(200_000))})
            print(f"  {response.json().get('error')}")
            return [response.status_code]

        async def one(n: int) -> int:
            if kind == "json-length":
                body = b'{"references": ["' + b"x" * SIZE + b'"]}'
                response = await client.post(url, content=body, headers={"Content-Type": "application/json"})
            elif kind == "json-stream":
                response = await client.post(
                    url,
                    content=streamed(b'{"references": ["', SIZE),
                    headers={"Content-Type": "application/json"},
                )
            elif kind == "multipart":
                data = b"@misc{a, title={" + b"x" * SIZE + b"}}"
                response = await client.post(url, files={"file": (f"refs{n}.txt", data)})
            else:
                data = b"x" * SIZE + b"\n"
                response = await client.post(url, files={"file": (f"refs{n}.txt", data)})
            return response.status_code

        return list(await asyncio.gather(*(one(n) for n in range(CLIENTS))))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--index", type=Path, default=None)
    parser.add_argument("--rounds", nargs="+", choices=ROUNDS, default=list(ROUNDS))
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="refhound-bodies-"))
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(scratch / "data"),
        "XDG_CACHE_HOME": str(scratch / "cache"),
        "REFHOUND_CONFIG": str(scratch / "absent.toml"),
        "REFHOUND_MEMORY__ENABLED": "false",
    }
    refhound = Path(sys.executable).parent / "refhound"
    index = args.index or scratch / "index.sqlite"
    if args.index is None:
        subprocess.run(
            [refhound, "index", "build", "--db", index, "--bib", "examples/sample.bib"],
            env=env,
            check=True,
            capture_output=True,
        )
    port = free_port()
    server = subprocess.Popen(
        [refhound, "serve", "--offline", "--index", index, "--port", str(port), "--job-timeout", "60"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        process = psutil.Process(server.pid)
        for kind in args.rounds:
            base = process.memory_info().rss
            peak = base
            done = threading.Event()

            def sample(done: threading.Event = done) -> None:
                nonlocal peak
                while not done.is_set():
                    peak = max(peak, process.memory_info().rss)
                    time.sleep(0.02)

            sampler = threading.Thread(target=sample)
            sampler.start()
            started = time.perf_counter()
            statuses = asyncio.run(round_of(f"http://127.0.0.1:{port}/api/v1/check", kind))
            seconds = time.perf_counter() - started
            done.set()
            sampler.join()
            counts = {status: statuses.count(status) for status in sorted(set(statuses))}
            what = "1 x 200,000 entries" if kind == "bibtex-200k" else f"{CLIENTS} x 45 MB"
            print(
                f"{kind}: {what} in {seconds:.1f} s; answers {counts}; server RSS "
                f"{base / 2**20:.0f} MB before, peak {peak / 2**20:.0f} MB"
            )
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
