"""Load on loopback: 40 concurrent checks of a 7-reference .bib against uvicorn; none may fail."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx

from tests.conftest import RECORDS
from tests.server.conftest import make_server
from tests.server.live import LiveServer

CONCURRENT = 40
TIME_LIMIT_S = 120.0  # generous for 2 shared cores; a healthy run takes a few seconds


def seven_reference_bib() -> bytes:
    """The seven works of the test index, as a user's .bib cites them."""
    entries = []
    for n, record in enumerate(RECORDS):
        entries.append(
            f"@inproceedings{{ref{n},\n  title = {{{record.title}}},\n"
            f"  author = {{{' and '.join(record.authors)}}},\n  booktitle = {{{record.venue}}},\n"
            f"  year = {{{record.year}}}\n}}\n"
        )
    return "\n".join(entries).encode()


def test_forty_concurrent_checks_all_succeed(small_index: Path, tmp_path: Path) -> None:
    bib = seven_reference_bib()

    async def one(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post("/api/v1/check", files={"file": ("refs.bib", bib)})

    async def load(url: str) -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=CONCURRENT)
        async with httpx.AsyncClient(base_url=url, timeout=TIME_LIMIT_S, limits=limits) as client:
            return await asyncio.gather(*(one(client) for _ in range(CONCURRENT)))

    for server in make_server(small_index, tmp_path):
        with LiveServer(server.app) as running:
            started = time.monotonic()
            responses = asyncio.run(load(running.url))
            elapsed = time.monotonic() - started
        assert [r.status_code for r in responses] == [200] * CONCURRENT
        for response in responses:
            report = response.json()
            assert report["summary"]["total"] == 7
            assert report["summary"]["verified"] == 7, [r["reason"] for r in report["references"]]
        assert elapsed < TIME_LIMIT_S
        assert server.state.jobs.counts()["running"] == 0
        assert server.uploads_left() == []
