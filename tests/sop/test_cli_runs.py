"""`refhound runs`: listing the stored runs, pruning old ones by hand and interrupted ones on their own."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.index.store import IndexStore
from refhound.settings import Settings
from refhound.sop.runner import SopRunner
from tests.conftest import ROOT
from tests.sop.fakes import FakeAgent, reference
from tests.sop.test_cli_sop import _INTERRUPTED

runner = CliRunner()


@pytest.fixture(autouse=True)
def _own_runs_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFHOUND_SOP__RUNS_PATH", str(tmp_path / "runs.sqlite"))


def _invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _interrupted(small_index: Path, run_id: str) -> None:
    script = _INTERRUPTED.replace('run_id="run-x"', f"run_id={run_id!r}")
    done = subprocess.run(
        [sys.executable, "-c", script, str(small_index), "default"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert "KeyboardInterrupt" in done.stderr


def _finished(store: IndexStore, run_id: str, settings: Settings | None = None) -> None:
    settings = settings or Settings()
    settings.memory.enabled = False
    SopRunner(settings, store, agents={"index": FakeAgent("index")}).run(
        [reference(i) for i in range(3)], inputs=["done.bib"], run_id=run_id
    )


def _age(run_id: str, days: float) -> None:
    when = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")
    with closing(sqlite3.connect(Settings().sop.runs_path)) as db, db:
        db.execute("UPDATE refhound_runs SET created_at = ? WHERE run_id = ?", (when, run_id))


def test_runs_are_listed_and_old_ones_pruned(small_index: Path, store: IndexStore) -> None:
    _interrupted(small_index, "run-old")
    _interrupted(small_index, "run-new")
    _finished(store, "run-done")
    code, out, _ = _invoke("runs", "--json")
    assert code == 0
    listed = {run["run_id"]: run for run in json.loads(out)}
    assert listed.keys() == {"run-old", "run-new", "run-done"}
    assert listed["run-old"]["status"] == "interrupted"
    assert (listed["run-old"]["references"], listed["run-old"]["inputs"]) == (6, ["refs.bib"])
    assert listed["run-done"]["status"] == "finished" and listed["run-done"]["done"] == 3
    code, out, _ = _invoke("runs")
    assert code == 0 and "run-old" in out and "interrupted" in out

    _age("run-old", 10)
    _age("run-done", 10)
    code, _, err = _invoke("runs", "prune", "--older-than", "5", "--interrupted")
    assert code == 0 and "1 runs forgotten" in err
    assert {run["run_id"] for run in json.loads(_invoke("runs", "--json")[1])} == {"run-new", "run-done"}
    assert "no run 'run-old'" in _invoke("check", "--resume", "run-old")[2]
    _invoke("runs", "prune", "--older-than", "5")
    assert {run["run_id"] for run in json.loads(_invoke("runs", "--json")[1])} == {"run-new"}


def test_interrupted_runs_past_the_age_setting_are_pruned_when_a_run_starts(
    small_index: Path, store: IndexStore
) -> None:
    _interrupted(small_index, "run-stale")
    _interrupted(small_index, "run-recent")
    _age("run-stale", 31)
    _age("run-recent", 29)
    _finished(store, "run-next")  # the default: 30 days
    assert {run["run_id"] for run in json.loads(_invoke("runs", "--json")[1])} == {"run-recent", "run-next"}
    keep_all = Settings()
    keep_all.sop.prune_interrupted_after_days = 0
    _age("run-recent", 300)
    _finished(store, "run-after", keep_all)
    assert "run-recent" in {run["run_id"] for run in json.loads(_invoke("runs", "--json")[1])}


def test_pruning_gives_the_space_back(small_index: Path, store: IndexStore) -> None:
    _interrupted(small_index, "run-a")
    path = Settings().sop.runs_path
    with closing(sqlite3.connect(path, isolation_level=None)) as db:  # a file made before auto_vacuum
        db.execute("PRAGMA auto_vacuum = NONE")
        db.execute("VACUUM")
        db.execute("CREATE TABLE filler (x BLOB)")
        db.execute("INSERT INTO filler VALUES (zeroblob(4000000))")
        db.execute("DROP TABLE filler")
    big = path.stat().st_size
    _invoke("runs", "prune", "--older-than", "0")
    assert path.stat().st_size < big - 3_000_000
    assert json.loads(_invoke("runs", "--json")[1]) == []
