"""Polite rates for a whole triage run, not per worker.

Each worker process has its own `HttpPool`, whose per-host gate spaces only that process's requests. The
triage gives every worker's sources client a `PoliteTransport`: before any request (each redirect hop and
each retry included) it reserves a slot from a limiter that all workers share, one slot sequence per
service host at that service's configured `rate_per_s`. Two limiters implement it:

- `SharedSlots`: a SQLite file in the run's folder; a reservation is one short `BEGIN IMMEDIATE`
  transaction ("next free slot of this host"), so processes on one machine queue up in order;
- `refhound.triage.ray_backend.RayRateActor`: one Ray actor per service host, for a cluster.

The schedule is the same as `refhound.net.http.RateLimiter`'s: a caller claims the next free slot, at
least 1/rate after the previous one, then sleeps until it.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Protocol

import httpx

from refhound.net.http import host_of
from refhound.settings import Settings

_SERVICES = ("crossref", "openalex", "dblp", "arxiv", "semantic_scholar", "doi")


class Slots(Protocol):
    def reserve(self, host: str, interval_s: float) -> float:
        """Claim the host's next slot; the seconds to wait for it."""
        ...


class SharedSlots:
    """Next free slot per host in a SQLite file (wall-clock seconds, which every process shares)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with sqlite3.connect(path, timeout=60) as db:
            db.execute("CREATE TABLE IF NOT EXISTS slots (host TEXT PRIMARY KEY, next REAL NOT NULL)")

    def reserve(self, host: str, interval_s: float) -> float:
        db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        try:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT next FROM slots WHERE host = ?", (host,)).fetchone()
            now = time.time()
            start = max(now, float(row[0]) if row else 0.0)
            db.execute("INSERT OR REPLACE INTO slots VALUES (?, ?)", (host, start + interval_s))
            db.execute("COMMIT")
            return start - now
        finally:
            db.close()


def service_rates(settings: Settings) -> dict[str, float]:
    """Each enabled service's host (as `host_of` writes it) → its rate per second."""
    rates: dict[str, float] = {}
    for name in _SERVICES:
        section = getattr(settings.sources, name)
        url = httpx.URL(section.base_url)
        rates[host_of(url)] = min(section.rate_per_s, rates.get(host_of(url), section.rate_per_s))
    return rates


def default_rate(settings: Settings) -> float:
    """The rate for a host no service names (a redirect target, e.g. a DOI's agency): the slowest one's."""
    return float(min(getattr(settings.sources, name).rate_per_s for name in _SERVICES))


class PoliteTransport(httpx.AsyncBaseTransport):
    """Waits for a shared slot of the request's host, then sends through `inner`."""

    def __init__(
        self, inner: httpx.AsyncBaseTransport, slots: Slots, rates: dict[str, float], fallback_rate: float
    ) -> None:
        self.inner = inner
        self.slots = slots
        self.rates = rates
        self.fallback_rate = fallback_rate

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        host = host_of(request.url)
        interval = 1.0 / self.rates.get(host, self.fallback_rate)
        wait = await asyncio.to_thread(self.slots.reserve, host, interval)
        if wait > 0:
            await asyncio.sleep(wait)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


def polite_transport(
    settings: Settings, slots: Slots, inner: httpx.AsyncBaseTransport | None = None
) -> PoliteTransport:
    """The transport for a worker's sources client; `inner` is the network (tests pass their own)."""
    network = inner or httpx.AsyncHTTPTransport(
        limits=httpx.Limits(max_connections=64, max_keepalive_connections=16)
    )
    return PoliteTransport(network, slots, service_rates(settings), default_rate(settings))
