"""One runtime for every request: the index opened once, the SOP runner (and its HTTP pool, memory and LLM
client) built once, and checks that hand back each verdict the moment it is decided."""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from refhound.index.store import IndexStore
from refhound.models import Reference, ReferenceResult
from refhound.settings import Settings

if TYPE_CHECKING:
    from refhound.sop.runner import SopRunner


class JobExpired(Exception):
    """The job ran past its time limit; raised between verdicts to stop its check."""


class CheckRuntime:
    """The runners of every check, sharing one index, memory, LLM client and online sources."""

    def __init__(self, settings: Settings, store: IndexStore) -> None:
        from refhound.sop.runner import SopRunner

        self.settings = settings
        self.store = store
        self._runner = SopRunner(settings, store)
        self._offline_runner: SopRunner | None = None
        self._lock = threading.Lock()
        self.coverage = _coverage(store)

    @property
    def offline(self) -> bool:
        return self.settings.check.offline

    @property
    def skipped_stages(self) -> dict[str, str]:
        return dict(self._runner.plan.skipped)

    def runner(self, offline: bool) -> SopRunner:
        """The runner for a check. An offline request on an online server gets one that shares the index,
        memory and LLM client, with sources that answer from the HTTP cache only (built on first need)."""
        if not offline or self.offline:
            return self._runner
        with self._lock:
            if self._offline_runner is None:
                from refhound.sop.runner import SopRunner
                from refhound.sources.runtime import SourcesRuntime

                settings = self.settings.model_copy(deep=True)
                settings.check.offline = True
                sources = SourcesRuntime.from_settings(settings)
                context = dataclasses.replace(
                    self._runner.context, settings=settings, sources=sources, web=None
                )
                self._offline_runner = SopRunner(settings, self.store, context=context)
            return self._offline_runner

    def check(
        self,
        references: list[Reference],
        *,
        offline: bool,
        decided: Callable[[int, ReferenceResult], None],
        expired: Callable[[], bool],
    ) -> list[ReferenceResult]:
        """Check `references`, in order; `decided(position, result)` with each verdict as it comes.
        `JobExpired` as soon as `expired()` says so after a verdict."""

        def progress(position: int, result: ReferenceResult) -> None:
            decided(position, result)
            if expired():
                raise JobExpired

        if expired():
            raise JobExpired
        results: list[ReferenceResult] = self.runner(offline).run(references, progress=progress).results
        return results

    def healthy(self) -> str | None:
        """None when the index answers a query; else what is wrong with it."""
        try:
            self.store.coverage("", 0)
        except (sqlite3.Error, AttributeError) as error:
            return f"the index cannot be read: {error}"
        return None

    def close(self) -> None:
        """Release the shared context; the offline runner borrows it and closes only its own sources."""
        if self._offline_runner is not None and self._offline_runner.context.sources is not None:
            self._offline_runner.context.sources.close()
        self._runner.close()
        self.store.close()


def _coverage(store: IndexStore) -> dict[str, Any]:
    """What the index holds, for the health answer: counts and the venues it covers completely."""
    stats = store.stats()
    dumps: list[dict[str, Any]] = stats["dumps"]  # type: ignore[assignment]
    return {
        "records": stats["records"],
        "dumps": [{key: dump.get(key) for key in ("source", "version", "records")} for dump in dumps],
        "complete_coverage": stats["complete_coverage"],
    }
