"""`refhound triage --ray ADDRESS`: papers as Ray tasks on an existing cluster (extra `refhound[ray]`).

- Each paper is one task. Its bytes travel with it (through Ray's object store), so a node needs no access
  to the input folder; the index must be at the same path on every node (it is opened read-only there).
  A worker process keeps its `PaperChecker` between tasks, so the index and the SOP graph open once per
  worker process, not once per paper.
- The online services' polite rates hold for the whole cluster: one `RayRateActor` per service host hands
  out request slots to every task (`ratelimit.PoliteTransport` asks it before each request).
- Results come back to the driver, which writes them into DIR as they finish (the same atomic files and
  done-markers as the process pool), so resume works as it does without Ray.
- A task whose worker dies is an error row for its paper, redone on the next run.
- Each node keeps its own HTTP cache at the configured path (the cache is a convenience, not shared state).
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from refhound.triage.ratelimit import service_rates
from refhound.triage.rows import error_row
from refhound.triage.worker import Job, Outcome, PaperChecker, WorkerSetup, save

_CHECKERS: dict[
    tuple[str, str, str | None], PaperChecker
] = {}  # per worker process: the checker of the run it serves


def ray_missing() -> str | None:
    """Why --ray cannot run here, or None."""
    if importlib.util.find_spec("ray") is None:
        return "--ray needs Ray, which is not installed here: pip install ray"
    return None


class RayRateActor:
    """Request slots of one service host for a whole cluster (a Ray actor, made by `RaySlots`)."""

    def __init__(self) -> None:
        self._next = 0.0

    def reserve(self, interval_s: float) -> float:
        now = time.monotonic()
        start = max(now, self._next)
        self._next = start + interval_s
        return start - now


class RaySlots:
    """The `Slots` of a Ray run: one actor per service host, and one for hosts no service names (redirect
    targets), all made by the driver, which keeps them alive for the run. Picklable: tasks get handles."""

    OTHER = "*"

    def __init__(self, hosts: list[str]) -> None:
        import ray

        actor = ray.remote(num_cpus=0)(RayRateActor)
        self.actors: dict[str, Any] = {host: actor.remote() for host in [*hosts, self.OTHER]}

    def reserve(self, host: str, interval_s: float) -> float:
        import ray

        actor = self.actors.get(host, self.actors[self.OTHER])
        return float(ray.get(actor.reserve.remote(interval_s)))


def _check_remote(setup: WorkerSetup, job: Job, data: bytes) -> Outcome:
    """The task: the paper's bytes into a temporary file on this node, checked by this process's checker."""
    run = (setup.header.date, setup.index_path, setup.lookups_path)  # tasks of one run share a checker
    checker = _CHECKERS.get(run)
    if checker is None:
        for old in _CHECKERS.values():
            old.close()
        _CHECKERS.clear()
        checker = _CHECKERS[run] = PaperChecker(setup)
    suffix = ".pdf" if job.kind == "pdf" else Path(job.path).suffix
    handle, name = tempfile.mkstemp(prefix="refhound-triage-", suffix=suffix)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        outcome = checker.check(replace(job, path=name))
    finally:
        Path(name).unlink(missing_ok=True)
    return replace(outcome, job=job)


class RayBackend:
    """The `Backend` of `run_triage` on a Ray cluster at `address` ("auto", "local" or host:port)."""

    def __init__(self, address: str, out_dir: Path) -> None:
        self.address = address
        self.out_dir = out_dir

    def run(self, setup: WorkerSetup, jobs: list[Job], on_outcome: Callable[[Outcome], None]) -> None:
        import ray

        if not ray.is_initialized():
            ray.init(address=None if self.address == "local" else self.address, log_to_driver=False)
        if setup.slots is not None:
            setup = replace(setup, slots=RaySlots(list(service_rates(setup.settings))))
        task = ray.remote(num_cpus=1, max_retries=0)(_check_remote)
        shared_setup = ray.put(setup)
        # A window of tasks in flight, not every paper's bytes in the object store at once.
        window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        queue = list(reversed(jobs))
        pending: dict[Any, Job] = {}
        while pending or queue:
            while queue and len(pending) < window:
                job = queue.pop()
                pending[task.remote(shared_setup, job, Path(job.path).read_bytes())] = job
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                job = pending.pop(ref)
                try:
                    outcome: Outcome = ray.get(ref)
                except Exception as exc:  # the task's worker died, or the task raised
                    name = type(exc).__name__
                    reason = f"the Ray task checking this paper failed ({name}); redone on the next run"
                    outcome = Outcome(job, error_row(job.paper, reason), final=False)
                save(self.out_dir, outcome)
                on_outcome(outcome)
