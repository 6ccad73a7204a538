"""scripts/rescore_reports.py: a saved report's references scored again give the likelihood `check` gave."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from refhound.cli import app
from refhound.likelihood.model import load_model
from tests.scripts import load_script

rescore = load_script("rescore_reports")

BIB = r"""
@inproceedings{he2016deep,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR}, year = {2016}
}
@inproceedings{he2016wrong,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Smith, Alice and Jones, Bob and Sun, Jian},
  booktitle = {ICML}, year = {2014}
}
@inproceedings{jain2019,
  title = {Attention is not Explanation},
  author = {Jain, Sarthak and Wallace, Byron C.},
  booktitle = {NAACL}, year = {2018}
}
"""


def _reports(tmp_path: Path, small_index: Path, copies: int) -> Path:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    folder = tmp_path / "reports"
    folder.mkdir()
    for n in range(copies):
        out = folder / f"{n}.json"
        result = CliRunner().invoke(
            app, ["check", str(bib), "--index", str(small_index), "--offline", "-f", "json", "-o", str(out)]
        )
        assert result.exit_code in (0, 1), result.stderr
    return folder


def test_a_saved_reference_scores_as_check_scored_it(tmp_path: Path, small_index: Path) -> None:
    folder = _reports(tmp_path, small_index, copies=1)
    references = json.loads((folder / "0.json").read_text())["references"]
    assert len(references) == 3
    assert len({r["likelihood"] for r in references}) == 3  # each with evidence of its own, not the prior
    model = load_model()
    for reference in references:
        assert abs(rescore.rescored(reference, model) - reference["likelihood"]) < 1e-4


def test_each_title_counts_once(tmp_path: Path, small_index: Path) -> None:
    folder = _reports(tmp_path, small_index, copies=2)
    distinct = rescore.distinct_references(folder)
    # Two files with the same three references, two of them one title: two titles, the first file's.
    assert sorted(r["id"] for r in distinct) == ["he2016deep", "jain2019"]
    assert {r["file"] for r in distinct} == {"0"}
