"""`refhound check` on a LaTeX project: verdicts with citation sites, missing and uncited keys in reports."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from refhound.cli import app
from tests.latex.test_scan import BIB, natbib_project

runner = CliRunner()


def test_a_project_folder_in_json_and_markdown(tmp_path: Path, small_index: Path) -> None:
    natbib_project(tmp_path)
    args = ["check", str(tmp_path), "--index", str(small_index), "--offline", "-f", "json"]
    result = runner.invoke(app, args)
    report = json.loads(result.stdout)
    assert [(r["id"], r["verdict"], r["cited_at"]) for r in report["references"]] == [
        ("he2016deep", "verified", ["paper.tex:4", "paper.tex:5"]),
        ("jain2019", "verified", ["paper.tex:4"]),
    ]
    assert report["references"][0]["record"]["source_id"] == "conf/cvpr/HeZRS16"
    assert report["missing"] == [{"key": "ghost2020", "cited_at": ["paper.tex:5"]}]
    assert report["uncited"] == ["unused"]
    assert result.exit_code == 3  # a \cite with no entry: an entry that could not be read
    md = runner.invoke(app, ["check", str(tmp_path / "paper.tex"), "--index", str(small_index), "-f", "md"])
    assert "## Citation keys" in md.stdout and "ghost2020" in md.stdout
    assert "cited at paper.tex:4, paper.tex:5" in md.stdout


def test_an_uncited_entry_alone_is_no_problem(tmp_path: Path, small_index: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\parencite{he2016deep}\n\\bibliography{refs}\n"
        "\\end{document}\n"
    )
    result = runner.invoke(app, ["check", str(tmp_path), "--index", str(small_index), "--offline"])
    assert "citation keys:" in result.stdout and "jain2019, unused" in result.stdout
    assert "cited at main.tex:3" in result.stdout
    assert result.exit_code == 0, result.stdout
    html = runner.invoke(app, ["check", str(tmp_path), "--index", str(small_index), "-f", "html"])
    assert 'id="keys"' in html.stdout and "cited at main.tex:3" in html.stdout


def test_the_text_report_says_where_each_key_is_cited(tmp_path: Path, small_index: Path) -> None:
    natbib_project(tmp_path)
    args = ["check", str(tmp_path), "--index", str(small_index), "--offline", "-f", "text"]
    result = runner.invoke(app, args)
    blocks = result.stdout.split("\n\n")
    he2016 = next(block for block in blocks if block.startswith("[he2016deep]"))
    assert "\n  cited at paper.tex:4, paper.tex:5\n" in he2016
    keys = result.stdout.split("citation keys:\n", 1)[1]
    assert "  missing: ghost2020 (cited at paper.tex:5) has no bibliography entry\n" in keys
    assert "  uncited (not checked): unused\n" in keys
    assert "never cited" not in result.stdout and "has no entry in" not in result.stdout  # not twice
    assert result.exit_code == 3
