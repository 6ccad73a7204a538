"""`refhound fix` end to end on a committed fixture: right entries byte for byte, wrong fields from the
record, a preprint's published version, comments (never changes) on entries refhound is not sure of."""

from __future__ import annotations

from pathlib import Path

from bibtexparser.entrypoint import parse_string
from typer.testing import CliRunner

from refhound.cli import app
from refhound.fix.apply import COMMENT_PREFIX
from refhound.fix.bibtext import entry_spans

runner = CliRunner()
DATA = Path(__file__).parent / "data"


def _entries_only(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith(COMMENT_PREFIX)]


def _fix(tmp_path: Path, small_index: Path, *extra: str) -> tuple[int, str, str, Path]:
    out = tmp_path / "refs.fixed.bib"
    args = ["fix", str(DATA / "refs.bib"), "-o", str(out), "--index", str(small_index), "--offline", *extra]
    result = runner.invoke(app, args)
    return result.exit_code, result.stdout, result.stderr, out


def test_the_fixture_is_corrected_as_expected(tmp_path: Path, small_index: Path) -> None:
    code, _, err, out = _fix(tmp_path, small_index)
    assert code == 0, err
    fixed = out.read_text(encoding="utf-8")
    expected = (DATA / "refs.fixed.bib").read_text(encoding="utf-8")
    assert _entries_only(fixed) == _entries_only(expected)
    # Right entries and entries refhound is not sure of: the same bytes.
    before, after = entry_spans((DATA / "refs.bib").read_text()), entry_spans(fixed)
    original = (DATA / "refs.bib").read_text()
    for key in ("he2016deep", "vaswani2017", "invented2016", "kolesnikov2019"):
        old, new = before[key], after[key]
        assert fixed[new.start : new.end] == original[old.start : old.end], key
    # The entries it was not sure of carry a comment right above them; the output parses.
    for key in ("invented2016", "kolesnikov2019"):
        above = fixed[: after[key].start].splitlines()[-1]
        assert above.startswith(COMMENT_PREFIX + "unverified, not corrected")
    library = parse_string(fixed)
    assert not library.failed_blocks and len(library.entries) == 6
    assert "jain2019: year '2018' -> '2019' (wrong year per dblp conf/naacl/JainW19)" in err
    assert "devlin2018bert: entry type -> @inproceedings" in err
    assert "2 of 6 entries corrected, 2 left with a comment" in err


def test_keep_preprints_leaves_the_preprint(tmp_path: Path, small_index: Path) -> None:
    code, _, err, out = _fix(tmp_path, small_index, "--keep-preprints")
    assert code == 0, err
    fixed = out.read_text()
    assert "journal={arXiv preprint arXiv:1810.04805},\n  year={2018}" in fixed
    assert "@article{devlin2018bert" in fixed and "Year = 2019" in fixed


def test_dry_run_prints_a_diff_and_writes_nothing(tmp_path: Path, small_index: Path) -> None:
    code, out_text, _, out = _fix(tmp_path, small_index, "--dry-run")
    assert code == 0 and not out.exists()
    assert "-  Year = 2018\n+  Year = 2019" in out_text
    assert out_text.startswith("--- a/refs.bib\n+++ b/refs.bib\n")


def test_a_second_run_changes_nothing_more(tmp_path: Path, small_index: Path) -> None:
    _, _, _, once = _fix(tmp_path, small_index)
    twice = tmp_path / "twice.bib"
    args = ["fix", str(once), "-o", str(twice), "--index", str(small_index), "--offline"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    assert twice.read_text() == once.read_text()
