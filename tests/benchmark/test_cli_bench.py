"""`refhound bench` and `refhound bench generate` end to end on small indexes: outputs, bad input, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.settings import Settings
from tests.conftest import ROOT, ctrl_c_reaches_the_child

runner = CliRunner()

# Real records of the small index (tests/conftest.py), cited right and wrong:
# key, label, type, fields, reference string.
VASWANI = (
    "Ashish Vaswani and Noam Shazeer and Niki Parmar and Jakob Uszkoreit and Llion Jones and Aidan N. Gomez "
    "and Lukasz Kaiser and Illia Polosukhin"
)
HE = "Kaiming He and Xiangyu Zhang and Shaoqing Ren and Jian Sun"
JAIN = "Sarthak Jain and Byron C. Wallace"
HALLMARK = [
    (
        "vaswani",
        "VALID",
        None,
        {"title": "Attention is All you Need", "author": VASWANI, "booktitle": "NeurIPS", "year": "2017"},
        VASWANI.replace(" and ", ", ").replace(", Illia", ", and Illia")
        + ". 2017. Attention is all you need. In Advances in Neural Information Processing Systems.",
    ),
    (
        "jain",
        "VALID",
        None,
        {"title": "Attention is not Explanation", "author": JAIN, "year": "2019"},
        'S. Jain and B. C. Wallace, "Attention is not explanation," 2019.',
    ),
    (
        "he2015",
        "HALLUCINATED",
        "year_shift",
        {"title": "Deep Residual Learning for Image Recognition", "author": HE, "year": "2014"},
        "He, K., Zhang, X., Ren, S., & Sun, J. (2014). Deep residual learning for image recognition.",
    ),
    (
        "made",
        "HALLUCINATED",
        "title_topic_fabrication",
        {"title": "Quantum Gradient Descent for Sparse Hypergraph Attention", "author": "Jane Doe",
         "booktitle": "Proceedings of the 36th International Conference on Machine Learning", "year": "2019"},
        "Doe, J.: Quantum Gradient Descent for Sparse Hypergraph Attention. In: Proceedings of the 36th "
        "International Conference on Machine Learning (2019).",
    ),
]  # fmt: skip

CITEAUDIT = {
    "data": [
        {"source_type": "realworld", "GT": True, "Predict": True, "citation": HALLMARK[0][4]},
        {"source_type": "generated", "GT": False, "Predict": True, "citation": HALLMARK[3][4]},
        {"source_type": "realworld", "GT": False, "Predict": False, "citation": HALLMARK[2][4]},
    ]
}


def bench(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["bench", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def hallmark_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.jsonl"
    rows = [
        {
            "bibtex_key": k,
            "bibtex_type": "inproceedings",
            "fields": f,
            "label": label,
            "hallucination_type": t,
            "raw": raw,
        }
        for k, label, t, f, raw in HALLMARK
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("mode", ["fields", "raw"])
def test_hallmark_end_to_end_writes_json_markdown_and_plot(
    hallmark_file: Path, small_index: Path, tmp_path: Path, mode: str
) -> None:
    out = tmp_path / "out.json"
    # "made" cites a complete venue: offline that is unverified, counted as fake here as HALLMARK scores it.
    code, stdout, stderr = bench(
        "hallmark", hallmark_file, "--index", small_index, "--input", mode, "--offline", "--json", out,
        "--unverified-as", "fake",
    )  # fmt: skip
    assert code == 0, stderr
    result = json.loads(out.read_text())
    assert (result["schema"], result["benchmark"], result["split"], result["n"]) == (
        "refhound.bench/1",
        "hallmark",
        "tiny",
        4,
    )
    assert (result["tp"], result["fp"], result["fn"], result["tn"], result["f1"]) == (2, 0, 0, 2, 1.0)
    assert [(i["id"], i["label"], i["predicted"]) for i in result["items"]] == [
        ("vaswani", False, False), ("jain", False, False), ("he2015", True, True), ("made", True, True)
    ]  # fmt: skip
    assert [i["verdict"] for i in result["items"]] == ["verified", "verified", "metadata_error", "unverified"]
    assert result["positive"] == "any" and result["items"][2]["verdict"] == "metadata_error"
    assert result["model"] and 0 < result["threshold"] < 1 and "year.same" in result["levels"]
    assert result["input"] == mode and result["per_type"]["year_shift"] == {"n": 1, "detected": 1}
    assert result["seconds_total"] > 0 and result["seconds_per_10_refs"] > 0
    assert out.with_suffix(".md").read_text() == stdout
    assert out.with_suffix(".png").read_bytes()[:4] == b"\x89PNG"


def test_citeaudit_splits_coverage_and_the_upstream_column(small_index: Path, tmp_path: Path) -> None:
    path = tmp_path / "benchmark.json"
    path.write_text(json.dumps(CITEAUDIT), encoding="utf-8")
    out = tmp_path / "ca.json"
    code, stdout, stderr = bench("citeaudit", path, "--index", small_index, "--score-upstream", "--json", out)
    assert code == 0, stderr
    result = json.loads(out.read_text())
    assert [i["id"] for i in result["items"]] == [0, 1, 2]
    # The invented title at ICML 2019, cited by its main proceedings, is flagged on that absence offline.
    assert result["coverage"]["decided"] == 3 and result["upstream"]["name"] == "CiteAudit"
    assert result["positive"] == "major"
    assert (result["upstream"]["tp"], result["upstream"]["fn"]) == (1, 1)
    assert "| CiteAudit (its own `Predict`) | 3 |" in stdout
    code, _, _ = bench("citeaudit", path, "--index", small_index, "--split", "realworld", "--json", out)
    assert code == 0 and [i["id"] for i in json.loads(out.read_text())["items"]] == [0, 2]


def test_labelled_bibtex(small_index: Path, tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(
        "@inproceedings{jain, title = {Attention is not Explanation}, booktitle = {NAACL}, year = {2018},\n"
        "  author = {Jain, Sarthak and Wallace, Byron C.},\n"
        "  label = {HALLUCINATED}, hallucination_type = {year}}\n",
        encoding="utf-8",
    )
    # The preprint's year is a minor error: a positive only when every metadata error counts.
    code, stdout, _ = bench("bib", path, "--index", small_index, "--positive", "any")
    assert code == 0 and "| refhound | 1 | 1 | 0 | 0 | 0 |" in stdout
    code, stdout, _ = bench("bib", path, "--index", small_index)
    assert code == 0 and "| refhound | 1 | 0 | 0 | 1 | 0 |" in stdout


def test_parts_split_the_items_the_same_way_every_time(
    hallmark_file: Path, small_index: Path, tmp_path: Path
) -> None:
    def ids(name: str, path: Path, part: str) -> list[object]:
        out = tmp_path / "part.json"
        code, stdout, stderr = bench(name, path, "--index", small_index, "--part", part, "--json", out)
        assert code == 0, stderr
        result = json.loads(out.read_text())
        assert result["part"] == part and f"part {part} (" in stdout
        return [item["id"] for item in result["items"]]

    halves = [ids("hallmark", hallmark_file, f"{k}/2") for k in (1, 2)]
    assert halves == [["jain", "made"], ["vaswani", "he2015"]]  # by content hash: disjoint, covering
    assert ids("hallmark", hallmark_file, "1/2") == halves[0]  # and the same on every run
    citeaudit = tmp_path / "benchmark.json"
    citeaudit.write_text(json.dumps(CITEAUDIT), encoding="utf-8")
    # Items keep their position in the file as id, whichever part they fall in.
    assert [ids("citeaudit", citeaudit, f"{k}/2") for k in (1, 2)] == [[1], [0, 2]]


@pytest.mark.parametrize("part", ["3/2", "0/2", "1/1", "a/2", "1", "1/2/3", "-1/2"])
def test_a_bad_part_is_refused_before_the_file_is_read(tmp_path: Path, part: str) -> None:
    code, _, stderr = bench("hallmark", tmp_path / "missing.jsonl", "--part", part)
    assert code == 2 and "--part" in stderr and "missing.jsonl" not in stderr


def test_a_bench_never_touches_the_users_memory(
    hallmark_file: Path, small_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refhound.sop.runner import SopRunner

    seen: list[tuple[bool, Path, bool]] = []
    real_init = SopRunner.__init__

    def spying_init(self: SopRunner, settings: Settings, *args: Any, **kwargs: Any) -> None:
        memory = settings.memory
        seen.append((memory.enabled, memory.path, memory.path.is_dir()))
        real_init(self, settings, *args, **kwargs)

    monkeypatch.setattr(SopRunner, "__init__", spying_init)
    users = tmp_path / "users-memory"
    monkeypatch.setenv("REFHOUND_MEMORY__PATH", str(users))
    for flag in ("--memory", "--no-memory"):
        code, _, stderr = bench("hallmark", hallmark_file, "--index", small_index, flag)
        assert code == 0, stderr
    (enabled, scratch, existed), (disabled, _, _) = seen
    # With --memory the run has a fresh memory of its own, deleted when it ends; without, none at all.
    assert enabled and existed and scratch != users and not scratch.exists()
    assert not disabled
    assert not users.exists()


def test_generate_then_bench_the_generated_set(synthetic_index: Path, tmp_path: Path) -> None:
    out = tmp_path / "gen.jsonl"
    result = runner.invoke(
        app,
        ["bench", "generate", "--index", str(synthetic_index), "--n", "60", "--seed", "7", "--out", str(out)],
    )
    assert result.exit_code == 0, result.stderr
    assert "wrote 60 items" in result.stderr and len(out.read_text().splitlines()) == 60
    summary = tmp_path / "gen.json"
    code, _, stderr = bench(
        "hallmark",
        out,
        "--index",
        synthetic_index,
        "--input",
        "raw",
        "--unverified-as",
        "fake",
        "--json",
        summary,
    )
    assert code == 0, stderr
    scored = json.loads(summary.read_text())
    assert scored["n"] == 60 and scored["tp"] + scored["fn"] == 30
    assert scored["recall"] >= 0.9  # every error is material; the index holds every source record


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hallmrk", "{hallmark}"], "unknown benchmark 'hallmrk': choose citeaudit, hallmark, bib"),
        (["hallmark", "{hallmark}", "--split", "generated"], "--split is for citeaudit"),
        (["hallmark", "{hallmark}", "--score-upstream"], "no upstream predictions to score"),
        (["citeaudit", "{hallmark}"], "line 2: not valid JSON: Extra data"),
        (["hallmark", "{broken}"], "line 3: label 'SURE' is not VALID or HALLUCINATED"),
        (["bib", "{hallmark}"], "no BibTeX entries found"),
        (["hallmark", "{hallmark}", "--json", "{missing}/out.json"], "does not exist"),
        (
            ["generate", "--index", "{index}", "--n", "5", "--fakes", "6", "--out", "{out}"],
            "--fakes 6 is more than",
        ),
        (["generate", "--index", "{index}", "--mix", "1:2", "--out", "{out}"], "give three weights"),
        (["generate", "--index", "{index}", "--n", "5", "--out", "{missing}/gen.jsonl"], "does not exist"),
    ],
)
def test_bad_input_is_a_one_line_error_with_exit_code_2(
    args: list[str], message: str, hallmark_file: Path, small_index: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.jsonl"
    lines = hallmark_file.read_text().splitlines()
    broken.write_text("\n".join([*lines[:2], lines[2].replace('"HALLUCINATED"', '"SURE"'), *lines[3:]]))
    names = {"hallmark": hallmark_file, "broken": broken, "missing": tmp_path / "nope", "index": small_index}
    names["out"] = tmp_path / "gen.jsonl"
    extra = [] if args[0] == "generate" else ["--index", str(small_index)]
    code, stdout, stderr = bench(*[a.format(**names) for a in args], *extra)
    assert code == 2, stdout + stderr
    assert message in " ".join(stderr.split())
    assert "Traceback" not in stderr


def test_ctrl_c_keeps_the_finished_items_and_exits_130(small_index: Path, tmp_path: Path) -> None:
    items = tmp_path / "many.jsonl"
    row = json.loads(json.dumps({"fields": HALLMARK[0][3], "label": "VALID"}))
    items.write_text("".join(json.dumps(row | {"bibtex_key": f"k{i}"}) + "\n" for i in range(350)))
    marker, out = tmp_path / "first-batch-done", tmp_path / "out.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.benchmark.interrupted_bench", str(marker),
         "bench", "hallmark", str(items), "--index", str(small_index), "--json", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=ctrl_c_reaches_the_child,
    )  # fmt: skip
    # A fresh checkout on a busy machine takes a while to start (bytecode, the index, the runner): Ctrl-C
    # must come during the slow batch, not during start-up, which would leave the run going on.
    deadline = time.monotonic() + 240
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert marker.exists(), "the first batch never finished"
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted: 100 of 350 items finished" in " ".join(stderr.split())
    result = json.loads(out.read_text())
    assert (result["n"], result["items_in_file"], result["interrupted"]) == (100, 350, True)
    assert [i["id"] for i in result["items"]] == [f"k{i}" for i in range(100)]
    assert "interrupted (Ctrl-C): partial" in stdout
