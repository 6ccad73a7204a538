"""A checkpointed run is killed midway and resumed: finished references are not checked again."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.errors import RunMismatch, RunNotFound
from refhound.index.store import IndexStore
from refhound.inputs.base import InputRead
from refhound.settings import Settings
from refhound.sop.definition import Sop
from refhound.sop.runner import SopRunner, forget_run
from refhound.sop.runs import stored_results
from tests.conftest import ROOT
from tests.sop.fakes import FakeAgent, reference
from tests.sop.interrupted_run import N


def _script(*args: str, batch: int = 1) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.sop.interrupted_run", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "REFHOUND_SOP__BATCH": str(batch)},
    )


def _lines(path: Path) -> list[str]:
    return path.read_text().split() if path.exists() else []


@pytest.mark.parametrize("batch", [1, 4])
def test_a_killed_run_resumes_without_redoing_finished_references(
    small_index: Path, tmp_path: Path, batch: int
) -> None:
    runs, log = tmp_path / "runs.sqlite", tmp_path / "first.log"
    first = _script(str(small_index), str(runs), str(log), "run-1", batch=batch)
    deadline = time.monotonic() + 60
    while len(_lines(log)) < N // 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    first.send_signal(signal.SIGKILL)
    first.communicate()
    done_before = _lines(log)
    assert N // 2 <= len(done_before) < N, "the run was not interrupted midway"

    resumed_log = tmp_path / "resumed.log"
    second = _script(str(small_index), str(runs), str(resumed_log), "run-1", "resume", batch=batch)
    out, errors = second.communicate(timeout=120)
    assert second.returncode == 0, errors
    results = json.loads(out)
    redone = set(_lines(resumed_log)) & set(done_before)

    assert [rid for rid, _ in results] == [f"ref{i}" for i in range(N)]
    assert all(verdict == ("verified" if int(rid[3:]) % 2 == 0 else "unverified") for rid, verdict in results)
    assert len(_lines(resumed_log)) + len(done_before) - len(redone) == N
    # At most the batches in flight when the process died (concurrency 2) are checked twice.
    assert len(redone) <= 2 * batch


def test_resuming_a_finished_run_checks_nothing_again(small_index: Path, tmp_path: Path) -> None:
    runs, log = tmp_path / "runs.sqlite", tmp_path / "log"
    first = _script(str(small_index), str(runs), str(log), "run-2")
    first.communicate(timeout=120)
    assert first.returncode == 0
    again = _script(str(small_index), str(runs), str(tmp_path / "again.log"), "run-2", "resume")
    out, errors = again.communicate(timeout=120)
    assert again.returncode == 0, errors
    assert len(json.loads(out)) == N
    assert _lines(tmp_path / "again.log") == []


def test_an_unknown_run_id_is_a_clear_error(store: IndexStore, tmp_path: Path) -> None:
    settings = Settings()
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    with pytest.raises(RunNotFound, match="no run 'nope'"):
        SopRunner(settings, store).resume("nope")


def _offline_run(store: IndexStore, runs: Path) -> Settings:
    """Settings of an offline run, which is checked and kept in `runs` as `run-3`."""
    settings = Settings()
    settings.sop.runs_path = runs
    settings.memory.enabled = False
    settings.check.offline = True
    sop = Sop(name="quick", stages=("index", "judge"))
    with SopRunner(settings, store, sop=sop, agents={"index": FakeAgent("index")}) as runner:
        runner.run([reference(i) for i in range(3)], inputs=["refs.bib"], run_id="run-3")
    return settings


def test_a_run_is_not_resumed_with_other_settings(store: IndexStore, tmp_path: Path) -> None:
    """Resumed online, an offline run would send its references to the services: refused, naming why."""
    settings = _offline_run(store, tmp_path / "runs.sqlite")
    online = settings.model_copy(deep=True)
    online.check.offline = False
    with SopRunner(online, store) as runner, pytest.raises(RunMismatch) as refused:
        runner.resume("run-3")
    assert str(refused.value) == (
        "run 'run-3' started with other settings (check.offline: True -> False): resume it with its own"
    )


def test_a_run_is_not_resumed_against_another_index(
    store: IndexStore, small_index: Path, tmp_path: Path
) -> None:
    settings = _offline_run(store, tmp_path / "runs.sqlite")
    other = tmp_path / "other.sqlite"
    shutil.copyfile(small_index, other)
    copy = IndexStore.open(other)
    with copy, SopRunner(settings, copy) as runner, pytest.raises(RunMismatch) as refused:
        runner.resume("run-3")
    assert (
        str(refused.value) == f"run 'run-3' checks the index {small_index.resolve()}, not {other.resolve()}"
    )


def test_a_run_read_as_its_input_comes_keeps_it_in_its_file(store: IndexStore, tmp_path: Path) -> None:
    """`run_read` stores each chunk as the input is read, keeps no verdict in memory, and resumes."""
    runs = tmp_path / "runs.sqlite"
    settings = _offline_run(store, runs)
    sop = Sop(name="quick", stages=("index", "judge"))
    reads = (
        InputRead(references=[reference(n) for n in range(start, start + 150)]) for start in (0, 150, 300)
    )
    agent = FakeAgent("index", knows={f"ref{n}" for n in range(0, 450, 2)})
    with SopRunner(settings, store, sop=sop, agents={"index": agent}) as runner:
        outcome = runner.run_read(reads, run_id="run-4", inputs=["refs.bib"])
        assert outcome.results == [] and outcome.inputs == ["refs.bib"]
        stored = list(stored_results(runs, "run-4"))
        assert [r.id for r in stored] == [f"ref{n}" for n in range(450)]
        assert [r.verdict.value for r in stored[:2]] == ["verified", "unverified"]
        resumed = runner.resume("run-4")  # finished: read back, nothing checked again
    assert resumed.results == stored and len(agent.calls) == 450
    forget_run(runs, "run-4")  # and once its report is out, the file gives its space back
    with sqlite3.connect(runs) as db:
        assert db.execute("PRAGMA freelist_count").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM refhound_refs WHERE run_id = 'run-4'").fetchone() == (0,)


def test_a_run_stopped_while_its_input_was_read_is_not_resumed(store: IndexStore, tmp_path: Path) -> None:
    settings = _offline_run(store, tmp_path / "runs.sqlite")

    def reads() -> Iterator[InputRead]:
        yield InputRead(references=[reference(n) for n in range(300)])
        raise OSError("the disk went away")

    with SopRunner(settings, store) as runner:
        with pytest.raises(OSError):
            runner.run_read(reads(), run_id="run-5")
        with pytest.raises(RunMismatch, match="'run-5' was stopped while its input was read: start it again"):
            runner.resume("run-5")
