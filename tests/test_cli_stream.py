"""`refhound check` streams a reference list: read a batch at a time while the run stores it, the bytes
read shown, and every reference in the report, written from the run's file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.inputs.lines import TextFile
from refhound.settings import Settings
from refhound.sop.runs import RunStore
from tests.conftest import RECORDS

ENTRIES = 450  # three chunks of the run (200 references each)


def bib(path: Path) -> Path:
    """The test index's works cited in turn, one entry a line."""
    lines = []
    for n in range(ENTRIES):
        record = RECORDS[n % len(RECORDS)]
        lines.append(
            f"@inproceedings{{k{n}, title = {{{record.title}}}, author = {{{' and '.join(record.authors)}}}, "
            f"booktitle = {{{record.venue}}}, year = {{{record.year}}}}}\n"
        )
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_a_list_is_checked_as_it_is_read_with_progress_and_nothing_lost(
    tmp_path: Path, small_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("refhound.inputs.lines._BLOCK", 4096)  # many reads, so many tenths to tell
    monkeypatch.setattr("refhound.inputs.stream.BATCH", 50)
    lines_read = 0
    real_lines, real_add = TextFile.lines, RunStore.add_references

    def counted(self: TextFile, on_read: Any = None) -> Iterator[str]:
        nonlocal lines_read
        for line in real_lines(self, on_read):
            lines_read += 1
            yield line

    stored_when: list[int] = []  # lines read when each chunk of references went to the runs file

    async def add(self: RunStore, run_id: str, chunk: int, references: list[Any]) -> None:
        stored_when.append(lines_read)
        await real_add(self, run_id, chunk, references)

    monkeypatch.setattr(TextFile, "lines", counted)
    monkeypatch.setattr(RunStore, "add_references", add)
    path = bib(tmp_path / "refs.bib")
    result = CliRunner().invoke(
        app, ["check", str(path), "--index", str(small_index), "--format", "json", "--verbose"]
    )
    assert result.exit_code in (0, 1), result.stderr
    report = json.loads(result.stdout)
    assert [r["id"] for r in report["references"]] == [f"k{n}" for n in range(ENTRIES)]
    assert report["summary"]["total"] == ENTRIES and report["problems"] == []
    assert len(stored_when) == 3 and stored_when[0] < ENTRIES  # stored while the file was still being read
    shown = [line for line in result.stderr.splitlines() if line.startswith(f"reading {path}: ")]
    assert len(shown) >= 9 and shown[-1].endswith(f"of {path.stat().st_size / 1024 / 1024:,.1f} MB")
    (run_id,) = [line.split()[1] for line in result.stderr.splitlines() if line.startswith("run ")]
    with sqlite3.connect(Settings().sop.runs_path) as db:  # forgotten once its report is out
        assert db.execute("SELECT COUNT(*) FROM refhound_refs WHERE run_id = ?", (run_id,)).fetchone() == (0,)


def test_a_check_interrupted_while_reading_leaves_no_run_to_resume(
    tmp_path: Path, small_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refhound.inputs.stream import StreamedInput

    real_batches = StreamedInput.batches

    def cut_off(self: StreamedInput, *args: Any, **kwargs: Any) -> Iterator[Any]:
        yield next(real_batches(self, *args, **kwargs))
        raise KeyboardInterrupt

    monkeypatch.setattr(StreamedInput, "batches", cut_off)
    path = bib(tmp_path / "refs.bib")
    result = CliRunner().invoke(app, ["check", str(path), "--index", str(small_index), "--format", "json"])
    assert result.exit_code == 130
    assert "interrupted while reading the inputs; run the check again" in result.stderr
    (run_id,) = [line.split()[1] for line in result.stderr.splitlines() if line.startswith("run ")]
    with sqlite3.connect(Settings().sop.runs_path) as db:
        assert db.execute("SELECT COUNT(*) FROM refhound_runs WHERE run_id = ?", (run_id,)).fetchone() == (0,)
