"""A synchronous face for the async sources: one event-loop thread and one shared client per run.

SOP agents are plain functions run by a thread pool; `SourcesRuntime.lookup` submits the aggregated
lookup to the runtime's loop and waits for it, so any number of agent threads share one client, its
connection pool and the per-host rate limits.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from types import TracebackType
from typing import Any, TypeVar

import httpx

from refhound.models import ParsedFields
from refhound.settings import Settings
from refhound.sources.aggregate import Aggregator, Lookup
from refhound.sources.base import Source
from refhound.sources.crossref import Crossref
from refhound.sources.http import HttpPool, make_client

T = TypeVar("T")

# One builder per service, keyed by its section name in `SourcesSettings`.
BUILDERS: dict[str, Callable[[Settings, HttpPool], Source]] = {
    "crossref": Crossref.from_settings,
}


def unavailable_reason(settings: Settings) -> str | None:
    """Why no online source would be asked with these settings; None when some would."""
    if settings.check.offline:
        return "offline (check.offline is set)"
    if not _enabled_tiers(settings):
        return "no online source enabled"
    return None


def _enabled_tiers(settings: Settings) -> list[list[str]]:
    tiers: list[list[str]] = []
    for tier in settings.sources.tiers:
        names = [str(n) for n in dict.fromkeys(tier) if getattr(settings.sources, n).enabled]
        if names:
            tiers.append(names)
    return tiers


class SourcesRuntime:
    """Owns the loop thread, the shared `httpx.AsyncClient` and the aggregator; `close()` when done."""

    def __init__(self, settings: Settings, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="refhound-sources", daemon=True)
        self._thread.start()
        self._closed = False
        self._pool: HttpPool | None = None
        try:
            self._aggregator = self._run(self._build(settings, transport))
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_settings(
        cls, settings: Settings, transport: httpx.AsyncBaseTransport | None = None
    ) -> SourcesRuntime | None:
        """A runtime, or None when offline or no source is enabled (`unavailable_reason` says which)."""
        if unavailable_reason(settings) is not None:
            return None
        return cls(settings, transport)

    @property
    def names(self) -> tuple[str, ...]:
        """The services asked, in tier order."""
        return self._aggregator.names

    def lookup(self, cited: ParsedFields) -> Lookup:
        """Ask the sources tier by tier (blocking; safe from any thread but the runtime's own)."""
        return self._run(self._aggregator.lookup(cited))

    def close(self) -> None:
        """Close the client and stop the loop thread; lookups still running are cancelled."""
        if self._closed:
            return
        self._closed = True
        if self._pool is not None:
            asyncio.run_coroutine_threadsafe(self._shutdown(self._pool), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> SourcesRuntime:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._closed:
            coroutine.close()
            raise RuntimeError("the sources runtime is closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    async def _build(self, settings: Settings, transport: httpx.AsyncBaseTransport | None) -> Aggregator:
        # Built on the loop: the client's connection pool and the gates belong to it.
        self._pool = HttpPool(make_client(settings.sources, transport))
        sources = {
            name: BUILDERS[name](settings, self._pool) for tier in _enabled_tiers(settings) for name in tier
        }
        tiers = [[sources[name] for name in tier] for tier in _enabled_tiers(settings)]
        return Aggregator(tiers, settings.judge.title_candidate_similarity)

    @staticmethod
    async def _shutdown(pool: HttpPool) -> None:
        current = asyncio.current_task()
        pending = [t for t in asyncio.all_tasks() if t is not current]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        await pool.aclose()
