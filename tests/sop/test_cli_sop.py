"""`refhound check --sop` and `--resume` from the command line, and their bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from tests.conftest import ROOT
from tests.loopback import LoopbackServer, QuietHandler
from tests.sop.fakes import FakeAgent

runner = CliRunner()

BIB = r"""
@inproceedings{he2016deep,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR}, year = {2016}
}
@inproceedings{made2019up,
  title = {Quantum Gradient Descent for Sparse Hypergraph Attention},
  author = {Doe, Jane},
  booktitle = {Proceedings of the 36th International Conference on Machine Learning}, year = {2019}
}
"""


def check(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["check", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def bib(tmp_path: Path) -> Path:
    path = tmp_path / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    return path


def test_check_runs_the_default_sop_and_times_every_stage(bib: Path, small_index: Path) -> None:
    code, out, err = check(bib, "--index", small_index, "--format", "json", "--verbose")
    assert code == 1, err  # the second is flagged on its absence from ICML 2019, held completely
    first, second = json.loads(out)["references"]
    assert (first["verdict"], first["stage"]) == ("verified", "index")
    assert [s["stage"] for s in first["stages"]] == ["index"]
    # Missing from a completely indexed venue, offline: wrong, but not proven invented; likely invented.
    assert (second["verdict"], second["stage"]) == ("unverified", "judge")
    assert second["hallucinated"] is True and "coverage.absent_from_complete" in second["levels"]
    assert [s["stage"] for s in second["stages"]] == ["index", "memory", "judge"]
    assert all(s["elapsed_ms"] >= 0 for s in second["stages"])
    assert "stage scholar skipped: no online scholarly source is enabled (offline)" in err


def test_a_named_or_file_sop_is_followed(bib: Path, small_index: Path, tmp_path: Path) -> None:
    _, out, _ = check(bib, "--index", small_index, "--format", "json", "--sop", "citeaudit")
    # The paper's order has no index stage: its scholar stage searches the embedded index (offline, only it).
    references = json.loads(out)["references"]
    assert [(r["verdict"], r["stage"]) for r in references] == [
        ("verified", "scholar"),
        ("unverified", "judge"),
    ]
    assert [s["stage"] for s in references[1]["stages"]] == ["memory", "scholar", "judge"]
    sop = tmp_path / "mine.yaml"
    sop.write_text("name: mine\nstages: [index, judge]\n", encoding="utf-8")
    _, out, _ = check(bib, "--index", small_index, "--format", "json", "--sop", sop)
    assert [s["stage"] for s in json.loads(out)["references"][1]["stages"]] == ["index", "judge"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: x\nstages: [index, crossref, judge]\n", "unknown stage 'crossref'"),
        ("name: x\nstages: [judge, index]\n", "the last stage must be `judge`"),
        ("stages: [index, judge\n", "is not valid YAML"),
        ("- index\n- judge\n", "must be a mapping"),
        ("name: x\nstages: []\n", "non-empty list"),
        ("name: x\nsteps: [judge]\nstages: [judge]\n", "unknown key(s) steps"),
    ],
)
def test_a_malformed_sop_is_refused_before_any_check(
    bib: Path, small_index: Path, tmp_path: Path, text: str, message: str
) -> None:
    sop = tmp_path / "bad.yaml"
    sop.write_text(text, encoding="utf-8")
    code, out, err = check(bib, "--index", small_index, "--sop", sop)
    assert code == 2
    assert out == ""
    assert message in " ".join(err.split())


def test_an_unknown_sop_name_lists_the_packaged_ones(bib: Path, small_index: Path) -> None:
    code, _, err = check(bib, "--index", small_index, "--sop", "fastest")
    assert code == 2
    assert "no packaged SOP of that name (choose citeaudit, default" in " ".join(err.split())


def test_resume_needs_a_known_run_id(small_index: Path) -> None:
    code, _, err = check("--resume", "20260101-000000-abcdef")
    assert code == 2
    assert "no run '20260101-000000-abcdef'" in err and "`refhound runs` lists the runs it holds" in err


def test_inputs_and_resume_are_exclusive(bib: Path, small_index: Path) -> None:
    code, _, err = check(bib, "--resume", "x", "--index", small_index)
    assert code == 2
    assert "not both" in err


_INTERRUPTED = """
import sys
from pathlib import Path
from refhound.index.store import IndexStore
from refhound.settings import Settings
from refhound.sop.definition import load_sop
from refhound.sop.runner import SopRunner
from tests.sop.fakes import reference
from tests.sop.test_cli_sop import _dies_on

settings = Settings()
settings.memory.enabled = False
with IndexStore.open(Path(sys.argv[1])) as store:
    runner = SopRunner(settings, store, sop=load_sop(sys.argv[2]), agents={"index": _dies_on(3)})
    runner.run([reference(i) for i in range(6)], inputs=["refs.bib"], run_id="run-x")
"""


def test_an_interrupted_run_is_finished_by_check_resume(small_index: Path, tmp_path: Path) -> None:
    """A process is interrupted (Ctrl-C) midway through a run; `check --resume` completes the run."""
    sop_file = tmp_path / "short.yaml"
    sop_file.write_text("name: short\nstages: [index, judge]\n", encoding="utf-8")
    interrupted = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED, str(small_index), str(sop_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert "KeyboardInterrupt" in interrupted.stderr
    code, out, err = check("--resume", "run-x", "--format", "json")
    assert code in (0, 1), err  # 1 when a verdict counts as hallucinated; 2 would be an error
    report = json.loads(out)
    assert [r["id"] for r in report["references"]] == [f"ref{i}" for i in range(6)]
    assert report["inputs"] == ["refs.bib"]
    # Finished and reported: the run's checkpoints are gone.
    assert check("--resume", "run-x")[0] == 2


def _dies_on(n: int) -> FakeAgent:
    class Dying(FakeAgent):
        def __call__(self, ref, context):  # type: ignore[no-untyped-def]
            if ref.id == f"ref{n}":
                raise KeyboardInterrupt
            return super().__call__(ref, context)

    return Dying("index")


class _Listening(QuietHandler):
    """Any request at all is logged and answered 503: the test only asks whether one was sent."""

    def do_GET(self) -> None:
        self.server.state.requests.append(self.path)
        self.send_response(503)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_GET


def test_a_resumed_run_repeats_its_settings_offline_included(
    small_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started offline and interrupted; resumed where the environment now says online, with every service
    on a listening loopback server: the resumed run stays offline, and nothing is asked."""
    state = SimpleNamespace(requests=[], stopping=threading.Event())
    server = LoopbackServer(state, _Listening, "listening")
    try:
        interrupted = subprocess.run(
            [sys.executable, "-c", _INTERRUPTED, str(small_index), "default"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), "REFHOUND_CHECK__OFFLINE": "true"},
            timeout=120,
        )
        assert "KeyboardInterrupt" in interrupted.stderr
        monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")
        for service in ("CROSSREF", "OPENALEX", "DBLP", "ARXIV", "SEMANTIC_SCHOLAR", "DOI"):
            monkeypatch.setenv(f"REFHOUND_SOURCES__{service}__BASE_URL", server.url)
            monkeypatch.setenv(f"REFHOUND_SOURCES__{service}__RETRIES", "0")
        code, out, err = check("--resume", "run-x", "--format", "json", "--verbose")
    finally:
        server.stop()
    assert code in (0, 1), err
    assert "stage scholar skipped: no online scholarly source is enabled (offline)" in err
    assert len(json.loads(out)["references"]) == 6
    assert state.requests == []


def test_options_that_shape_a_run_are_refused_with_resume(small_index: Path) -> None:
    code, _, err = check("--resume", "run-y", "--offline", "--index", small_index)
    assert code == 2
    assert "--resume repeats every setting run run-y started with; leave out --index, --offline" in err
