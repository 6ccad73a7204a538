"""An asyncio event loop in its own thread, for blocking callers, and the runtime built around one.

SOP agents are plain blocking functions (run in worker threads, or on the graph's loop in a run of local
stages only); the online runtimes (scholarly sources, web) keep their client, rate-limit gates and caches
on one loop, and agents submit coroutines to it and wait.
`LoopRuntime` is what those runtimes share: the loop, `close()` (also as a context manager) and
warnings logged once per run and service, however many references run into its problems.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from types import TracebackType
from typing import Any, Self, TypeVar

T = TypeVar("T")


class LoopThread:
    """A loop running in a daemon thread; `run` from any other thread, `close` once when done."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()
        self._closed = False
        # `run` submits and `close` closes under this lock, so nothing is submitted to a stopped loop
        # (its caller would wait forever): what was submitted before `close` is cancelled by it.
        self._lock = threading.Lock()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run `coroutine` on the loop and wait for its result (blocking).

        RuntimeError once the loop is closed, or when called from the loop's own thread (it would wait
        for itself); `concurrent.futures.CancelledError` when `close` cancels it while it runs.
        """
        with self._lock:
            problem = self._refusal()
            future = None if problem else asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        if future is None:
            coroutine.close()
            raise RuntimeError(problem)
        return future.result()

    def close(self, shutdown: Callable[[], Coroutine[Any, Any, None]] | None = None) -> None:
        """Run `shutdown` on the loop (it releases what lives there; by default every task still running
        is cancelled), then stop the loop and its thread. Later calls do nothing."""
        with self._lock:
            if self._closed:
                return
            if threading.current_thread() is self._thread:
                raise RuntimeError(f"{self.name} cannot be closed from its own thread")
            self._closed = True
        try:
            asyncio.run_coroutine_threadsafe((shutdown or cancel_other_tasks)(), self._loop).result()
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    def _refusal(self) -> str | None:
        if self._closed:
            return f"{self.name} is closed"
        if threading.current_thread() is self._thread:
            return f"{self.name}: run() from the loop's own thread would wait for itself"
        return None


async def cancel_other_tasks() -> None:
    """Cancel every task on the running loop but the caller, and wait for them to end."""
    current = asyncio.current_task()
    pending = [t for t in asyncio.all_tasks() if t is not current]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


class LoopRuntime:
    """A runtime whose clients live on one `LoopThread`: `close()` when done (or use it in `with`).

    Subclasses build their clients on `self._loop` and release them in `_shutdown`, which runs on the
    loop; the default cancels whatever still runs.
    """

    def __init__(self, thread_name: str, logger: logging.Logger) -> None:
        self._loop = LoopThread(thread_name)
        self._logger = logger
        self._warned: set[str] = set()
        self._warned_lock = threading.Lock()

    def close(self) -> None:
        """Release what lives on the loop and stop its thread; work still running is cancelled."""
        self._loop.close(self._shutdown)

    async def _shutdown(self) -> None:
        await cancel_other_tasks()

    def _warn_once(self, about: str, message: str) -> None:
        """Log `message` as a warning if it is the first this run has `about` (e.g. a service's name):
        however many references run into a service that is down, the log says so once."""
        with self._warned_lock:
            if about in self._warned:
                return
            self._warned.add(about)
        self._logger.warning("%s", message)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
