"""The HTML report of `refhound check`: problems first, the wrong field marked, a header about the run."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from refhound.cli import app

ROOT = Path(__file__).resolve().parents[2]
BIB = """
@inproceedings{he, title={Deep Residual Learning for Image Recognition},
  author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, booktitle={CVPR}, year={2011}}
@inproceedings{jain, title={Attention is not Explanation},
  author={Jain, Sarthak and Wallace, Byron C.}, booktitle={NAACL}, year={2019}}
"""


def test_check_html_puts_problems_first_with_the_wrong_field_marked(
    small_index: Path, tmp_path: Path
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    out = tmp_path / "report.html"
    args = ["check", str(bib), "--format", "html", "-o", str(out), "--index", str(small_index), "--offline"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code in (0, 1), result.output  # whether the likelihood flags the year: not tested here
    page = out.read_text()
    # The header: version, the index with its record count and coverage, offline.
    header = page[page.index('id="run"') : page.index("</p>", page.index('id="run"'))]
    assert "refhound 0." in header and "small.sqlite (7 records)" in header
    assert "complete for" in header and "offline" in header
    # The wrong year first, marked inside the cited BibTeX, with the correct value and the dblp link.
    assert page.index('id="problems"') < page.index('id="verified"')
    problems = page[page.index('id="problems"') : page.index('id="verified"')]
    assert '<mark class="wrong" title="year: should be 2016">2011</mark>' in problems
    assert 'href="https://dblp.org/rec/conf/cvpr/HeZRS16"' in problems
    assert "Attention is not Explanation" not in problems
