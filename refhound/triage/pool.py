"""Worker processes that check papers, each holding one paper at a time, and surviving each other's death.

Every worker has its own pipe, and the parent hands it one job at a time, so the parent always knows which
paper a worker holds. A worker that dies (killed, out of memory, a crash in a native library) is noticed by
its process sentinel: its paper becomes an error row naming the exit (not remembered as done, so the next
run checks it again) and a fresh worker takes its place. Workers write each finished paper's files
themselves (`worker.save`), so what finished survives the parent being interrupted too.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import signal
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnProcess
from pathlib import Path

from refhound.triage.rows import error_row
from refhound.triage.worker import Job, Outcome, PaperChecker, WorkerSetup, save

_POLL_S = 1.0


class WorkerFailed(RuntimeError):
    """A worker could not start (its index, SOP or clients failed to open): no paper can be checked."""


def _worker_main(setup: WorkerSetup, out_dir: str, conn: Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        checker = PaperChecker(setup)
    except BaseException as exc:  # reported to the parent, which stops the run with it
        conn.send(("fatal", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", None))
    try:
        while True:
            job: Job | None = conn.recv()
            if job is None:
                break
            try:
                outcome = checker.check(job)
            except Exception as exc:  # a bug on one paper must not stop the others
                detail = traceback.format_exception_only(exc)[-1].strip()
                outcome = Outcome(job, error_row(job.paper, f"internal error: {detail}"), final=False)
            save(Path(out_dir), outcome)
            outcome.report_json = outcome.report_html = None  # written; no need to send them back
            conn.send(("done", outcome))
    except (EOFError, BrokenPipeError):
        pass  # the parent is gone
    finally:
        checker.close()


@dataclass
class _Worker:
    process: SpawnProcess
    conn: Connection
    job: Job | None = None
    ready: bool = False


class PaperPool:
    """`workers` processes checking `jobs`; `on_outcome` is called in the parent for each paper."""

    def __init__(self, setup: WorkerSetup, out_dir: Path, workers: int) -> None:
        self.setup = setup
        self.out_dir = out_dir
        self.size = workers
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._stillborn = 0  # workers that died holding no paper

    def _start(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main, args=(self.setup, str(self.out_dir), child), name="refhound-triage-worker"
        )
        process.start()
        child.close()
        worker = _Worker(process, parent)
        self._workers.append(worker)
        return worker

    def run(self, jobs: Iterable[Job], on_outcome: Callable[[Outcome], None]) -> None:
        queue = deque(jobs)
        pending = len(queue)
        for _ in range(min(self.size, pending)):
            self._start()
        try:
            while pending:
                for worker in self._workers:
                    if worker.ready and worker.job is None and queue:
                        worker.job = queue.popleft()
                        worker.conn.send(worker.job)
                waiting = [w.conn for w in self._workers] + [w.process.sentinel for w in self._workers]
                for ready in multiprocessing.connection.wait(waiting, timeout=_POLL_S):
                    owner = self._owner(ready)
                    if owner is not None:
                        pending -= self._drain(owner, on_outcome, more=bool(queue))
        finally:
            self.close()

    def _owner(self, ready: object) -> _Worker | None:
        for worker in self._workers:
            if ready is worker.conn or ready == worker.process.sentinel:
                return worker
        return None

    def _drain(self, worker: _Worker, on_outcome: Callable[[Outcome], None], *, more: bool) -> int:
        """Read what the worker sent; bury it when it is dead. The number of papers this finished."""
        finished = 0
        try:
            while worker.conn.poll():
                kind, payload = worker.conn.recv()
                if kind == "fatal":
                    raise WorkerFailed(str(payload))
                if kind == "ready":
                    worker.ready = True
                else:
                    worker.job = None
                    on_outcome(payload)
                    finished += 1
        except (EOFError, OSError):
            worker.process.join(timeout=10)  # its end of the pipe is closed: it is gone, or going
        if not worker.process.is_alive():
            finished += self._bury(worker, on_outcome, more)
        return finished

    def _bury(self, worker: _Worker, on_outcome: Callable[[Outcome], None], more: bool) -> int:
        """A worker died: its paper is an error row (redone by the next run); a new worker replaces it."""
        worker.process.join()
        self._workers.remove(worker)
        worker.conn.close()
        job, code = worker.job, worker.process.exitcode
        if job is not None:
            how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            reason = (
                f"the worker process checking this paper died ({how}); "
                "it is checked again when the run is repeated with the same --out"
            )
            on_outcome(Outcome(job, error_row(job.paper, reason), final=False))
        if job is None:
            self._stillborn += 1
            if self._stillborn > 3 * self.size:
                raise WorkerFailed(f"worker processes keep dying before they check a paper (exit {code})")
        if job is not None or more:
            self._start()
        return 1 if job is not None else 0

    def close(self) -> None:
        for worker in self._workers:
            with contextlib.suppress(OSError, ValueError):
                worker.conn.send(None)
        for worker in self._workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join()
            worker.conn.close()
        self._workers.clear()

    def busy(self) -> dict[int, Job]:
        """The paper each live worker holds, by its process id."""
        workers = list(self._workers)  # called from another thread
        return {w.process.pid: w.job for w in workers if w.job is not None and w.process.pid is not None}


class ProcessBackend:
    """The `Backend` of `run_triage` on this machine: a `PaperPool` of `workers` processes."""

    def __init__(self, out_dir: Path, workers: int) -> None:
        self.out_dir = out_dir
        self.workers = workers

    def run(self, setup: WorkerSetup, jobs: list[Job], on_outcome: Callable[[Outcome], None]) -> None:
        PaperPool(setup, self.out_dir, self.workers).run(jobs, on_outcome)
