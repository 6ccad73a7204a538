"""The command line as a user meets it: help, usage lines, start-up imports, output into pipes, how much is
said on stderr, exit codes 3 and 4, and `--config` / `refhound config`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.core import TyperCommand, TyperGroup
from typer.testing import CliRunner

from refhound.cli import app
from refhound.cli.commands import COMMANDS, load_command
from refhound.settings import Settings
from tests.conftest import ROOT
from tests.loopback import LoopbackServer, QuietHandler
from tests.server.live import free_port

runner = CliRunner()

ONE_BIB = r"""
@inproceedings{he2016deep_residual_learning_for_image_recognition_cvpr,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR}, year = {2016}
}
"""


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [*map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def test_check_comes_first_in_help_and_every_listed_command_loads() -> None:
    code, out, _ = invoke("--help")
    assert code == 0
    listed = [line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == list(COMMANDS) and listed[0] == "check"
    for name in COMMANDS:
        assert isinstance(load_command(name), TyperCommand | TyperGroup), name


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        (["check"], "refhound check [OPTIONS] [INPUTS...]"),  # optional: --resume RUN_ID instead
        (["bench", "run"], "refhound bench run [OPTIONS] NAME PATH"),
        (["triage"], "refhound triage [OPTIONS] [PATHS...]"),  # optional: --openreview VENUE_ID instead
        (["extract"], "refhound extract [OPTIONS] PDF"),
        (["quotes", "check"], "refhound quotes check [OPTIONS] DOCUMENT"),
    ],
)
def test_usage_lines_name_their_arguments(command: list[str], usage: str) -> None:
    code, out, _ = invoke(*command, "--help")
    assert code == 0 and usage in " ".join(out.split()), out[:300]


_IMPORTS = """
import sys
from refhound.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
heavy = sorted(m for m in ("rich", "pydantic", "chromadb", "langgraph", "fitz") if m in sys.modules)
print(json.dumps({"code": code, "heavy": heavy}), file=sys.__stderr__)
"""


def _imports_of(*args: str, env: dict[str, str] | None = None) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", "import json\n" + _IMPORTS, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
    )
    return dict(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--version"], 0),
        (["check"], 2),  # no inputs
        (["check", "no-such-file.bib"], 2),
        (["no-such-command"], 2),
        (["--help"], 0),
    ],
)
def test_version_and_usage_errors_load_no_heavy_library(args: list[str], code: int) -> None:
    """What makes them answer at once: nothing beyond the command line's own parser is imported."""
    assert _imports_of(*args) == {"code": code, "heavy": []}


def test_version_alone_is_answered_before_the_parser_as_the_parser_answers_it() -> None:
    process = (
        "import sys\n"
        "from refhound.cli import run\n"
        "run()\n"
        "print(sorted(m for m in ('typer', 'click') if m in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", process, "--version"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    code, out, _ = invoke("--version")  # through the parser
    assert (done.returncode, done.stdout) == (code, out) == (0, "refhound 0.1.0\n")
    assert done.stderr.strip() == "[]"


def test_the_process_exits_with_the_command_s_code_and_its_whole_output(
    tmp_path: Path, small_index: Path
) -> None:
    """The process ends without the interpreter's teardown (refhound.cli.process): the report and the
    exit code are those of the command."""
    bib = tmp_path / "one.bib"
    bib.write_text(ONE_BIB, encoding="utf-8")
    args = ["check", str(bib), "--index", str(small_index), "--format", "json"]
    done = subprocess.run(
        [sys.executable, "-m", "refhound", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "REFHOUND_MEMORY__PATH": str(tmp_path / "memory")},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["references"][0]["verdict"] == "verified"
    usage = subprocess.run(
        [sys.executable, "-m", "refhound", "check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert usage.returncode == 2 and "give the INPUTS to check" in usage.stderr


def test_an_offline_check_with_an_empty_memory_never_starts_chromadb(
    tmp_path: Path, small_index: Path
) -> None:
    bib = tmp_path / "one.bib"
    bib.write_text(ONE_BIB, encoding="utf-8")
    seen = _imports_of(
        "check", str(bib), "--index", str(small_index), "--format", "json",
        env={"REFHOUND_MEMORY__PATH": str(tmp_path / "never-written")},
    )  # fmt: skip
    assert seen["code"] == 0 and "chromadb" not in seen["heavy"]  # type: ignore[operator]
    assert not (tmp_path / "never-written").exists()


def test_a_table_into_a_pipe_does_not_wrap_and_width_sets_it(tmp_path: Path, small_index: Path) -> None:
    bib = tmp_path / "one.bib"
    bib.write_text(ONE_BIB, encoding="utf-8")
    code, out, _ = invoke("check", bib, "--index", small_index)  # CliRunner's stdout is not a terminal
    assert code == 0
    assert "he2016deep_residual_learning_for_image_recognition_cvpr" in out  # the id, whole, on one line
    assert "Deep Residual Learning for Image Recognition" in out
    assert max(len(line) for line in out.splitlines()) < 400  # unwrapped, yet not padded to the limit
    code, narrow, _ = invoke("check", bib, "--index", small_index, "--width", "60")
    assert code == 0 and max(len(line) for line in narrow.splitlines()) <= 60
    written = tmp_path / "report.txt"
    assert invoke("check", bib, "--index", small_index, "-o", written)[0] == 0
    for text in (out, narrow, written.read_text(encoding="utf-8")):  # no line padded to the table's width
        assert all(line == line.rstrip() for line in text.splitlines())


def test_quiet_says_nothing_and_verbose_names_the_skipped_stages(tmp_path: Path, small_index: Path) -> None:
    bib = tmp_path / "one.bib"
    bib.write_text(ONE_BIB, encoding="utf-8")
    _, _, normal = invoke("check", bib, "--index", small_index)
    _, _, quiet = invoke("check", bib, "--index", small_index, "--quiet")
    _, _, verbose = invoke("check", bib, "--index", small_index, "--verbose")
    assert "run " in normal and "skipped" not in normal
    assert quiet == ""
    assert "stage scholar skipped" in verbose
    code, _, both = invoke("check", bib, "--quiet", "--verbose")
    assert code == 2 and "cannot be given together" in both


class _Down(QuietHandler):
    """Every scholarly service answers 503: silence that proves nothing."""

    def do_GET(self) -> None:
        self.send_response(503)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_GET


def test_exit_4_when_a_source_was_unreachable_and_3_wins_over_it(
    tmp_path: Path, small_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Online, a work the index lacks with every service down is unverified because of that silence:
    exit 4, and the reference names the services. An unreadable entry beside it makes it 3."""
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{recent, title = {A Survey of Retrieval for Long Documents}, author = {Okafor, Adaeze},"
        " journal = {arXiv preprint}, year = {2025}}\n",
        encoding="utf-8",
    )
    server = LoopbackServer(SimpleNamespace(stopping=threading.Event()), _Down, "down")
    try:
        monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")
        for service in ("CROSSREF", "OPENALEX", "DBLP", "ARXIV", "SEMANTIC_SCHOLAR", "DOI"):
            monkeypatch.setenv(f"REFHOUND_SOURCES__{service}__BASE_URL", server.url)
            monkeypatch.setenv(f"REFHOUND_SOURCES__{service}__RETRIES", "0")
        code, out, err = invoke("check", bib, "--index", small_index, "--format", "json")
        assert code == 4, err
        (result,) = json.loads(out)["references"]
        assert result["verdict"] == "unverified" and result["unreachable"]
        bib.write_text(bib.read_text(encoding="utf-8") + "@article{broken, title = {unterminated\n")
        code, _, err = invoke("check", bib, "--index", small_index, "--format", "json")
        assert code == 3, err
    finally:
        server.stop()


# An invented title at a venue-year the test index holds completely: flagged offline on that absence.
FLAGGED_BIB = (
    "@inproceedings{fake, title = {Quantum Gradient Folding for Sparse Attention Transformers},"
    " author = {Smith, John and Chen, Li},"
    " booktitle = {IEEE Conference on Computer Vision and Pattern Recognition}, year = {2016}}\n"
)
UNREADABLE_BIB = "@article{broken, title = {unterminated\n"


def test_exit_1_wins_over_an_unreadable_entry(tmp_path: Path, small_index: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(FLAGGED_BIB + UNREADABLE_BIB, encoding="utf-8")
    code, out, err = invoke("check", bib, "--index", small_index, "--format", "json")
    report = json.loads(out)
    assert [(r["id"], r["hallucinated"]) for r in report["references"]] == [("fake", True)]
    assert report["problems"], "the broken entry is an input problem"
    assert code == 1, err


def test_exit_1_wins_over_an_unreachable_source(
    tmp_path: Path, small_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Online with every service down (503) or not listening: a reference left unverified by that silence
    beside a flagged one exits 1, as it does with an unreadable entry too."""
    bib = tmp_path / "refs.bib"
    recent = (
        "@article{recent, title = {A Survey of Retrieval for Long Documents}, author = {Doe, Jane},"
        " journal = {arXiv preprint}, year = {2025}}\n"
    )
    bib.write_text(FLAGGED_BIB + recent, encoding="utf-8")
    server = LoopbackServer(SimpleNamespace(stopping=threading.Event()), _Down, "down")
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    try:
        monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")
        for n, service in enumerate(("CROSSREF", "OPENALEX", "DBLP", "ARXIV", "SEMANTIC_SCHOLAR", "DOI")):
            monkeypatch.setenv(f"REFHOUND_SOURCES__{service}__BASE_URL", server.url if n % 2 else closed)
            monkeypatch.setenv(f"REFHOUND_SOURCES__{service}__RETRIES", "0")
        code, out, err = invoke("check", bib, "--index", small_index, "--format", "json")
        verdicts = {
            r["id"]: (r["verdict"], r["hallucinated"], r["unreachable"])
            for r in json.loads(out)["references"]
        }
        assert verdicts["recent"][0] == "unverified" and verdicts["recent"][2]
        assert verdicts["fake"][1] is True
        assert code == 1, err
        bib.write_text(FLAGGED_BIB + recent + UNREADABLE_BIB, encoding="utf-8")
        code, _, err = invoke("check", bib, "--index", small_index, "--format", "json")
        assert code == 1, err
    finally:
        server.stop()


def test_config_init_writes_every_default_and_show_prints_what_is_in_effect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = tmp_path / "refhound.toml"
    code, _, err = invoke("config", "init", sample)
    assert code == 0, err
    # Uncommented, the sample is exactly the defaults: it documents them and cannot drift from them.
    lines = [line[2:] for line in sample.read_text(encoding="utf-8").splitlines() if line.startswith("# ")]
    uncommented = "\n".join(line for line in lines if line.startswith("[") or " = " in line)
    values = tomllib.loads(uncommented.replace(" = (unset)", " = 'UNSET'"))
    defaults = Settings.model_construct().model_dump(mode="json")
    for section, keys in values.items():
        for key, value in keys.items():
            default = defaults[section][key]
            if isinstance(default, dict):  # an inline table leaves its unset keys out (TOML has no null)
                default = {name: item for name, item in default.items() if item is not None}
            assert (None if value == "UNSET" else value) == default, (section, key)
    assert invoke("config", "init", sample)[0] == 2  # no overwrite without --force

    # --config sets REFHOUND_CONFIG for the rest of the process: monkeypatch restores it after the test.
    monkeypatch.setenv("REFHOUND_CONFIG", str(tmp_path / "none.toml"))
    settings_file = tmp_path / "mine.toml"
    settings_file.write_text('[check]\nflag = "any"\n[web]\nbrave_api_key = "secret-key"\n', encoding="utf-8")
    monkeypatch.delenv("REFHOUND_CHECK__OFFLINE")
    code, out, err = invoke("--config", settings_file, "config", "show")
    assert code == 0, err
    shown = tomllib.loads(out)
    assert shown["check"]["flag"] == "any" and str(settings_file) in out
    assert "secret-key" not in out and shown["web"]["brave_api_key"] == "***"
    code, _, err = invoke("--config", tmp_path / "absent.toml", "config", "show")
    assert code == 2 and "absent.toml" in err
