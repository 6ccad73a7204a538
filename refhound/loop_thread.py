"""An asyncio event loop in its own thread, for blocking callers.

SOP agents are plain functions run in worker threads; the online runtimes (scholarly sources, web) keep
their client, rate-limit gates and caches on one loop, and agents submit coroutines to it and wait.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """A loop running in a daemon thread; `run` from any other thread, `close` once when done."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()
        self._closed = False

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run `coroutine` on the loop and wait for its result (blocking)."""
        if self._closed:
            coroutine.close()
            raise RuntimeError(f"{self.name} is closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def close(self, shutdown: Callable[[], Coroutine[Any, Any, None]] | None = None) -> None:
        """Run `shutdown` on the loop (it releases what lives there), then stop the loop and its thread."""
        if self._closed:
            return
        self._closed = True
        if shutdown is not None:
            asyncio.run_coroutine_threadsafe(shutdown(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


async def cancel_other_tasks() -> None:
    """Cancel every task on the running loop but the caller, and wait for them to end."""
    current = asyncio.current_task()
    pending = [t for t in asyncio.all_tasks() if t is not current]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
