"""Jobs: checks run by a fixed pool of worker threads behind a bounded queue.

A job is queued, then running, then done or failed (with its reason). Its verdicts are kept as they come,
so a client polling it sees the report fill in. A finished job is kept for `keep_finished_s`, then
forgotten. Ids are long random tokens: a job holds someone's manuscript, so its id is its key.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from refhound.models import ReferenceResult
from refhound.server.config import ServerLimits


class JobState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class FailureKind(StrEnum):
    INPUT = "input"  # the inputs cannot be checked: a client error
    TIMEOUT = "timeout"  # past the per-job time limit
    INTERNAL = "internal"  # a fault of the server


class JobFailed(Exception):
    """Raised by a job's work to fail it with a reason the client reads."""

    def __init__(self, reason: str, kind: FailureKind = FailureKind.INPUT) -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


class QueueFull(Exception):
    """No room for another job; the client should retry after `retry_after_s`."""


@dataclass
class Job:
    """One submitted check; workers update it under the store's lock, readers take `snapshot()`."""

    id: str
    kind: str
    inputs: list[str]
    timeout_s: float
    state: JobState = JobState.QUEUED
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    total: int | None = None  # references to decide, once the inputs are read
    decided: int = 0
    results: list[ReferenceResult] = field(default_factory=list)  # as decided, in any order
    positions: list[int] = field(default_factory=list)  # each result's place in the input
    outcome: Any = None  # what the work returned (a Report, a QuoteReport)
    error: str | None = None
    failure: FailureKind | None = None
    doing: str = "the check"  # what it is busy with, named when it runs past its time limit
    # Whether its work has returned: an overdue job is failed at once, but holds its worker (and counts
    # against admission) until its thread stops.
    settled: bool = False
    _waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = field(default_factory=list)

    @property
    def finished_ok(self) -> bool:
        return self.state is JobState.DONE

    def overdue(self, now: float | None = None) -> bool:
        return self.state is JobState.RUNNING and self.left(now) < 0

    def left(self, now: float | None = None) -> float:
        """Seconds until its time limit (the whole limit while it is queued)."""
        if self.started is None:
            return self.timeout_s
        return self.started + self.timeout_s - (now or time.time())

    @property
    def overdue_reason(self) -> str:
        return f"{self.doing} ran past the server's time limit of {self.timeout_s:g} s"


Work = Callable[[Job, "JobStore"], Any]


class JobStore:
    """The jobs, the worker pool and the admission rule (at most `workers + queue` unfinished jobs)."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=limits.workers, thread_name_prefix="refhound-job")
        self._closed = False

    # --- submitting and running ---------------------------------------------------------------------

    def submit(self, kind: str, inputs: list[str], work: Work, release: Callable[[], None]) -> Job:
        """Queue `work`; `QueueFull` when there is no room. `release()` removes what the request left on
        disk: at once when refused, else once the job ends or is dropped unrun (the work may call it
        earlier: it must be safe to call twice)."""
        with self._lock:
            self._sweep()
            active = sum(1 for job in self._jobs.values() if not job.settled)
            if self._closed or active >= self.limits.workers + self.limits.queue:
                release()
                raise QueueFull
            job = Job(
                id=secrets.token_urlsafe(18), kind=kind, inputs=inputs, timeout_s=self.limits.job_timeout_s
            )
            self._jobs[job.id] = job
        self._pool.submit(self._execute, job, work).add_done_callback(lambda _: self._settle(job, release))
        return job

    def _settle(self, job: Job, release: Callable[[], None]) -> None:
        release()
        with self._lock:
            job.settled = True

    def _execute(self, job: Job, work: Work) -> None:
        with self._lock:
            job.state, job.started = JobState.RUNNING, time.time()
        try:
            outcome = work(job, self)
        except JobFailed as failure:
            self._finish(job, None, failure.reason, failure.kind)
        except Exception as error:
            self._finish(job, None, f"internal error: {type(error).__name__}: {error}", FailureKind.INTERNAL)
        else:
            self._finish(job, outcome, None, None)

    def _finish(self, job: Job, outcome: Any, error: str | None, kind: FailureKind | None) -> None:
        with self._lock:
            if job.state is JobState.RUNNING:  # not already failed as overdue
                job.state = JobState.FAILED if error else JobState.DONE
                job.outcome, job.error, job.failure = outcome, error, kind
                job.finished = time.time()
            waiters, job._waiters = job._waiters, []
        _wake(waiters)

    # --- what the work reports as it goes ---------------------------------------------------------------

    def set_doing(self, job: Job, doing: str) -> None:
        with self._lock:
            job.doing = doing

    def set_total(self, job: Job, total: int) -> None:
        with self._lock:
            job.total = total

    def add_result(self, job: Job, position: int, result: ReferenceResult) -> None:
        with self._lock:
            job.results.append(result)
            job.positions.append(position)
            job.decided = len(job.results)

    def expired(self, job: Job) -> bool:
        """Whether the job must stop: past its time limit, or the server is shutting down (it is then
        marked failed, with that reason)."""
        with self._lock:
            self._fail_if_overdue(job, time.time())
            if self._closed and job.state is JobState.RUNNING:
                self._fail(job, "the server shut down before the check finished", FailureKind.INTERNAL)
            return job.state is JobState.FAILED

    # --- reading ------------------------------------------------------------------------------------------

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            self._sweep()
            job = self._jobs.get(job_id)
            if job is not None:
                self._fail_if_overdue(job, time.time())
            return job

    def read(self, job: Job, reader: Callable[[Job], Any]) -> Any:
        """`reader(job)` under the lock, so it sees one consistent state."""
        with self._lock:
            return reader(job)

    async def wait(self, job: Job) -> None:
        """Until the job is done or failed (failed as overdue when it runs past its time limit)."""
        loop = asyncio.get_running_loop()
        while True:
            future: asyncio.Future[None] = loop.create_future()
            with self._lock:
                self._fail_if_overdue(job, time.time())
                if job.state in (JobState.DONE, JobState.FAILED):
                    return
                job._waiters.append((loop, future))
                # Wake at the time limit (at least each second), so an overdue job is answered at once.
                wake = min(1.0, max(job.left(), 0.0) + 0.01)
            try:
                await asyncio.wait_for(asyncio.shield(future), timeout=wake)
            except TimeoutError:
                pass
            finally:  # also when the request is cancelled (its client went away)
                with self._lock:
                    if (loop, future) in job._waiters:
                        job._waiters.remove((loop, future))

    def counts(self) -> dict[str, int]:
        with self._lock:
            self._sweep()
            states = [job.state for job in self._jobs.values()]
        return {
            "queued": states.count(JobState.QUEUED),
            "running": states.count(JobState.RUNNING),
            "workers": self.limits.workers,
            "queue": self.limits.queue,
        }

    def close(self) -> None:
        """Refuse new jobs, drop the queued ones (their uploads removed), and wait for the running ones,
        which stop at their next verdict."""
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=True, cancel_futures=True)

    # --- under the lock -----------------------------------------------------------------------------------

    def _fail_if_overdue(self, job: Job, now: float) -> None:
        if job.overdue(now):
            self._fail(job, job.overdue_reason, FailureKind.TIMEOUT)

    def _fail(self, job: Job, reason: str, kind: FailureKind) -> None:
        job.state, job.finished = JobState.FAILED, time.time()
        job.error, job.failure = reason, kind
        waiters, job._waiters = job._waiters, []
        _wake(waiters)

    def _sweep(self) -> None:
        """Forget jobs finished longer ago than `keep_finished_s`."""
        cutoff = time.time() - self.limits.keep_finished_s
        ended = [
            j.id for j in self._jobs.values() if j.settled and j.finished is not None and j.finished < cutoff
        ]
        for job_id in ended:
            del self._jobs[job_id]


def _wake(waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]]) -> None:
    for loop, future in waiters:
        with contextlib.suppress(RuntimeError):  # the waiter's loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_resolve, future)


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
