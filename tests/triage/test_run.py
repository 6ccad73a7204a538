"""`refhound triage` end to end: worker processes, outputs, ranking, error rows, resume, a killed worker."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.index.store import IndexStore
from refhound.report.html import ReportHeader
from refhound.settings import Settings
from refhound.triage.pool import PaperPool, ProcessBackend, WorkerFailed
from refhound.triage.run import TriageOptions, run_triage
from refhound.triage.worker import Job, Outcome, WorkerSetup
from tests.conftest import ctrl_c_reaches_the_child, shared_path

CLEAN_BIB = """
@inproceedings{vaswani, title={Attention is All you Need},
  author={Vaswani, Ashish and Shazeer, Noam and Parmar, Niki}, booktitle={NeurIPS}, year={2017}}
@inproceedings{he, title={Deep Residual Learning for Image Recognition},
  author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, booktitle={CVPR}, year={2016}}
"""
# An invented title at a venue-year the test index holds completely, cited by its main proceedings (flagged
# on that absence, offline), and a year no version of ResNet has.
SUSPICIOUS_BIB = """
@inproceedings{fake, title={Quantum Gradient Folding for Sparse Attention Transformers},
  author={Smith, John and Chen, Li}, booktitle={IEEE Conference on Computer Vision and Pattern Recognition},
  year={2016}}
@inproceedings{he, title={Deep Residual Learning for Image Recognition},
  author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, booktitle={CVPR}, year={2011}}
@inproceedings{jain, title={Attention is not Explanation},
  author={Jain, Sarthak and Wallace, Byron C.}, booktitle={NAACL}, year={2019}}
"""


def _settings() -> Settings:
    settings = Settings()
    settings.check.offline = True
    settings.memory.enabled = False  # no chromadb in every worker
    settings.extract.ocr = False
    return settings


def _options(out: Path, index: Path, workers: int = 2, **extra: Any) -> TriageOptions:
    with IndexStore.open(index) as store:
        stats = store.stats()
    return TriageOptions(out_dir=out, settings=_settings(), index_stats=stats, workers=workers, **extra)


def _triage(paths: list[Path], out: Path, index: Path, workers: int = 2, **extra: Any):  # type: ignore[no-untyped-def]
    return run_triage(paths, _options(out, index, workers, **extra), ProcessBackend(out, workers))


def _bad_pdfs(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "empty.pdf").write_bytes(b"")
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage")
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "References\n[1] A. Author. A title. 2020.")
    document.save(folder / "encrypted.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    document.close()
    scan = pymupdf.open()
    page = scan.new_page()
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 200), False)
    pixmap.set_rect(pixmap.irect, (200, 200, 200))
    page.insert_image(page.rect, pixmap=pixmap)
    scan.save(folder / "scanned.pdf")
    scan.close()


@pytest.fixture
def submissions(tmp_path: Path) -> Path:
    folder = tmp_path / "subs"
    (folder / "track-a").mkdir(parents=True)
    (folder / "track-b").mkdir(parents=True)
    (folder / "track-a" / "refs.bib").write_text(CLEAN_BIB)
    (folder / "track-b" / "refs.bib").write_text(SUSPICIOUS_BIB)  # same name, another folder
    _bad_pdfs(folder / "bad")
    with zipfile.ZipFile(folder / "late.zip", "w") as archive:
        archive.writestr("x/refs.bib", SUSPICIOUS_BIB)
        archive.writestr("../../escape.pdf", b"%PDF-1.4")
        archive.writestr("notes.docx", b"word")
    return folder


def _rows(out: Path) -> dict[str, dict[str, Any]]:
    document = json.loads((out / "triage.json").read_text())
    assert document["schema"] == "refhound.triage/1"
    return {row["paper"]: row for row in document["papers"]}


def test_triage_ranks_papers_and_gives_each_bad_input_a_row(
    submissions: Path, small_index: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    before = set(tmp_path.iterdir())
    result = _triage([submissions], out, small_index)
    rows = _rows(out)
    assert set(rows) == {
        "track-a/refs.bib",
        "track-b/refs.bib",
        "late.zip!x/refs.bib",
        "late.zip!../../escape.pdf",
        "bad/empty.pdf",
        "bad/corrupt.pdf",
        "bad/encrypted.pdf",
        "bad/scanned.pdf",
    }
    suspicious = rows["track-b/refs.bib"]
    assert suspicious["status"] == "checked" and suspicious["references"] == 3
    assert suspicious["verdicts"]["metadata_error"] == 1 and suspicious["hallucinated"] == 1
    # The most likely invented first: the title no record of CVPR 2016 has, then ResNet's wrong year.
    assert suspicious["flags"][0].startswith("[fake] unverified (likelihood 0.")
    assert any(flag.startswith("[he] ") and "year 2011 → 2016" in flag for flag in suspicious["flags"])
    assert suspicious["expected_invented"] > suspicious["max_likelihood"] >= 0.5
    clean = rows["track-a/refs.bib"]
    assert clean["hallucinated"] == 0 and clean["verdicts"]["verified"] + clean["minor"] == 2
    errors = {name: row["error"] for name, row in rows.items() if row["status"] == "error"}
    assert errors["bad/empty.pdf"] == "empty file"
    assert "corrupt" in errors["bad/corrupt.pdf"]
    assert "encrypted" in errors["bad/encrypted.pdf"]
    assert "no text layer" in errors["bad/scanned.pdf"] or "no reference" in errors["bad/scanned.pdf"]
    assert "unsafe path" in errors["late.zip!../../escape.pdf"]
    # Ranking: the two suspicious papers first, the clean one next, errors last.
    order = [row.paper for row in result.rows]
    assert set(order[:2]) == {"track-b/refs.bib", "late.zip!x/refs.bib"} and order[2] == "track-a/refs.bib"
    assert all(row.status == "error" for row in result.rows[3:])
    assert {"paper": "late.zip!notes.docx", "reason": "not a PDF or reference list"} in result.summary[
        "skipped"
    ]
    # Each checked paper's report, in both formats, named apart although both files are refs.bib.
    report = json.loads((out / suspicious["report"]).read_text())
    assert report["schema"] == "refhound.report/1" and report["inputs"] == ["track-b/refs.bib"]
    assert suspicious["report"] != clean["report"]
    assert (out / suspicious["html"]).read_text().startswith("<!DOCTYPE html>")
    # The CSV says the same, a row per paper in ranking order.
    table = list(csv.DictReader(io.StringIO((out / "triage.csv").read_text())))
    assert [r["paper"] for r in table] == order
    assert table[0]["hallucinated"] == "1"
    assert (out / "index.html").is_file()
    # Nothing outside DIR: the input folder is as it was, nothing escaped beside it.
    assert set(tmp_path.iterdir()) == before | {out}
    assert not (tmp_path / "escape.pdf").exists() and not (tmp_path.parent / "escape.pdf").exists()
    assert not (out / ".triage" / "work").exists()  # copies of archive members are gone


def test_a_second_run_reuses_finished_papers_and_fresh_checks_again(
    submissions: Path, small_index: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    first = _triage([submissions], out, small_index)
    assert first.summary["run"]["checked_now"] == 7  # every paper but the unsafe member
    second = _triage([submissions], out, small_index)
    assert second.summary["run"]["checked_now"] == 0 and second.summary["run"]["resumed"] == 7
    assert [r.model_dump() for r in second.rows] == [r.model_dump() for r in first.rows]
    # A changed file is checked again; the others are not.
    (submissions / "track-a" / "refs.bib").write_text(SUSPICIOUS_BIB)
    third = _triage([submissions], out, small_index)
    assert third.summary["run"]["checked_now"] == 1
    assert _rows(out)["track-a/refs.bib"]["hallucinated"] == 1
    # A verdict-changing setting makes every paper new; --fresh forgets them all.
    fresh = _triage([submissions], out, small_index, fresh=True)
    assert fresh.summary["run"]["resumed"] == 0


def _big_bib(path: Path, entries: int) -> None:
    path.write_text(
        "\n".join(
            f"@article{{k{i}, title={{An Invented Study Number {i} of Nothing in Particular}}, "
            f"author={{Nobody, Anne and Else, Bob}}, journal={{Journal of Tests}}, year={{2019}}}}"
            for i in range(entries)
        )
    )


def test_a_killed_worker_is_an_error_row_and_the_others_go_on(small_index: Path, tmp_path: Path) -> None:
    big, small = tmp_path / "big.bib", tmp_path / "small.bib"
    _big_bib(big, 3000)
    small.write_text(CLEAN_BIB)
    with IndexStore.open(small_index) as store:
        stats = store.stats()
    setup = WorkerSetup(settings=_settings(), index_path=str(stats["path"]), header=ReportHeader())
    out = tmp_path / "out"
    jobs = [
        Job("big.bib", str(big), "list", "big", "k-big"),
        Job("small.bib", str(small), "list", "small", "k-small"),
    ]
    pool = PaperPool(setup, out, workers=1)
    outcomes: list[Outcome] = []
    killed: list[int] = []

    def kill_the_big_one() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            for pid, job in pool.busy().items():
                if job.paper == "big.bib":
                    time.sleep(0.5)  # mid-paper
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
            time.sleep(0.05)

    killer = threading.Thread(target=kill_the_big_one)
    killer.start()
    pool.run(jobs, outcomes.append)
    killer.join()
    assert killed
    rows = {o.row.paper: o for o in outcomes}
    assert rows["big.bib"].row.status == "error" and not rows["big.bib"].final
    assert "killed by signal 9" in (rows["big.bib"].row.error or "")
    assert rows["small.bib"].row.status == "checked"
    assert (out / "papers" / "small.json").is_file() and not (out / "papers" / "big.json").exists()
    # The killed paper was not remembered as done: a re-run checks it.
    assert not (out / ".triage" / "done" / "k-big.json").exists()
    assert (out / ".triage" / "done" / "k-small.json").exists()


def test_the_cli_writes_the_outputs_and_exits_1_when_a_paper_is_flagged(
    submissions: Path, small_index: Path, tmp_path: Path
) -> None:
    out = tmp_path / "cli-out"
    args = [
        "triage",
        str(submissions / "track-b"),
        "--out",
        str(out),
        "--offline",
        "--index",
        str(small_index),
    ]
    result = CliRunner().invoke(app, [*args, "--workers", "1"])
    assert result.exit_code == 1, result.output
    assert {"triage.json", "triage.csv", "index.html", "papers"} <= {p.name for p in out.iterdir()}
    assert _rows(out)["refs.bib"]["hallucinated"] == 1


def test_real_pdfs_are_checked(small_index: Path, tmp_path: Path) -> None:
    folder = shared_path("pdfs", "acl-grobid-silver")
    out = tmp_path / "out"
    result = _triage([folder], out, small_index)
    rows = {row.paper: row for row in result.rows}
    assert set(rows) == {"2020.acl-main.207.pdf", "N18-3011.pdf"}
    assert all(row.status == "checked" and row.references >= 20 for row in rows.values())


def test_ctrl_c_keeps_the_finished_papers(small_index: Path, tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    folder.mkdir()
    for index in range(3):
        (folder / f"a{index}.bib").write_text(CLEAN_BIB)
    _big_bib(folder / "z-big.bib", 100000)  # still in work when Ctrl-C comes, even on a busy machine
    out = tmp_path / "out"
    command = [str(Path(sys.executable).parent / "refhound"), "triage", str(folder), "--out", str(out)]
    command += ["--offline", "--workers", "1", "--index", str(small_index)]
    env = {**os.environ, "REFHOUND_MEMORY__ENABLED": "false"}
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ctrl_c_reaches_the_child
    )
    done = out / ".triage" / "done"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not done.is_dir() or len(list(done.iterdir())) < 3):
        time.sleep(0.1)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode()
    document = json.loads((out / "triage.json").read_text())
    assert document["summary"]["interrupted"] is True
    assert sorted(p["paper"] for p in document["papers"]) == ["a0.bib", "a1.bib", "a2.bib"]
    # What is said is what was kept: every paper saved before the workers stopped is counted.
    kept = len(list(done.iterdir()))
    assert document["summary"]["run"]["checked_now"] == kept == 3
    assert f"{kept} checked now" in stderr.decode()
    assert all((out / p["report"]).is_file() for p in document["papers"])
    assert not list((out / "papers").glob("*.part"))  # no half-written file


def test_workers_that_cannot_start_are_one_clear_error(small_index: Path, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(CLEAN_BIB)
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"not an index")
    options = _options(tmp_path / "out", small_index, workers=1)
    options.index_stats = {**options.index_stats, "path": str(broken)}
    with pytest.raises(WorkerFailed, match=r"broken\.sqlite"):
        run_triage([tmp_path / "refs.bib"], options, ProcessBackend(tmp_path / "out", 1))
