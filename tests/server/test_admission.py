"""An overdue job is failed at once, but keeps counting against admission until its thread stops."""

from __future__ import annotations

import threading
import time

import pytest

from refhound.server.config import ServerLimits
from refhound.server.jobs import Job, JobState, JobStore, QueueFull


def test_an_overdue_job_holds_its_place_until_its_thread_stops() -> None:
    store = JobStore(ServerLimits(workers=1, queue=2, job_timeout_s=0.1))
    stop = threading.Event()

    def stubborn(job: Job, jobs: JobStore) -> None:
        stop.wait(10)  # ignores its time limit, as a long input read does

    try:
        first = store.submit("check", ["a"], stubborn, lambda: None)
        time.sleep(0.3)
        assert store.get(first.id) is first and first.state is JobState.FAILED  # overdue: failed at once
        admitted = [store.submit("check", ["b"], stubborn, lambda: None) for _ in range(2)]
        with pytest.raises(QueueFull):
            store.submit("check", ["c"], stubborn, lambda: None)
        stop.set()
        deadline = time.monotonic() + 10
        while not all(job.settled for job in [first, *admitted]):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        store.submit("check", ["d"], lambda job, jobs: None, lambda: None)  # room again
    finally:
        stop.set()
        store.close()
