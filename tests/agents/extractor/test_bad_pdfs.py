"""Bad PDFs: each gets a clear one-line message (an `InputError`, or a warning with what could be read),
never a traceback, from `extract_pdf`, `refhound extract` and `refhound check` alike.

What PyMuPDF 2.0 does with a truncated file: it rebuilds the cross-reference table and opens what survives, so
the first half of a generated manuscript is a *partial* result (its pages are read; the references, at the
end, are lost: "no reference section found", `refhound extract` exits 2). Where the cut falls inside some
compressed streams, MuPDF cannot open the file at all: then it is an `InputError` "corrupt PDF, cannot be
opened". Either way, one clear line and no traceback.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner, Result

from refhound.agents.extractor import extract_pdf, read_pdf_references
from refhound.cli import app
from refhound.errors import InputError
from refhound.settings import Settings
from tests.agents.extractor.pdfmaker import LINE, Text, body, column, write_pdf

runner = CliRunner()

HEADING = Text(72, 90, "References", size=12, bold=True)
REFERENCE_LINES = [
    "[1] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition.",
    "\tIn CVPR, 2016.",
    "[2] S. Jain and B. C. Wallace. Attention is not explanation. In Proceedings of NAACL-HLT,",
    "\t2019.",
    "[3] A. Smith and B. Jones. A study of imaginary things. Journal of Examples, 12:1-10, 2021.",
]
RAWS = [
    "K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. In CVPR, 2016.",
    "S. Jain and B. C. Wallace. Attention is not explanation. In Proceedings of NAACL-HLT, 2019.",
    "A. Smith and B. Jones. A study of imaginary things. Journal of Examples, 12:1-10, 2021.",
]
MORE_LINES = [  # the list continued on the next page
    "[4] C. Doe and E. Roe. Another imaginary paper on things. Journal of Examples, 13:1-10, 2022.",
    "[5] F. Poe. Yet another study of imaginary things. Journal of Examples, 14:1-10, 2023.",
]
GOOD_BIB = """@inproceedings{he2016deep,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR}, year = {2016}
}
"""

REPAIRED = "the PDF is damaged (truncated or corrupt) and was repaired: pages or text may be missing"


def reference_page() -> list[Text]:
    return [HEADING, *column(REFERENCE_LINES, 72, 110, indent=14)]


def manuscript(path: Path, body_pages: int = 2) -> Path:
    """Body text pages, then a page with the reference list."""
    return write_pdf(path, [*(body(40) for _ in range(body_pages)), reference_page()])


def cli(*args: str | Path) -> Result:
    """`refhound ARGS`, asserting that it ended by an exit code, never by an uncaught exception."""
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


def error_lines(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


# --- inputs that cannot be read at all: InputError -----------------------------------------------------


def _encrypted(tmp: Path) -> Path:
    document = pymupdf.open(manuscript(tmp / "plain.pdf"))
    path = tmp / "encrypted.pdf"
    document.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="x", owner_pw="y")
    document.close()
    return path


def _corrupt(tmp: Path) -> Path:
    path = tmp / "corrupt.pdf"
    path.write_bytes(b"%PDF-1.7\n" + os.urandom(8192))
    return path


def _text(tmp: Path) -> Path:
    path = tmp / "notes.pdf"
    path.write_text("Just some notes, no PDF here.\n[1] A. Smith. A paper. 2020.\n", encoding="utf-8")
    return path


def _text_without_pdf_suffix(tmp: Path) -> Path:
    path = tmp / "notes.txt"
    path.write_text("Just some notes.\n", encoding="utf-8")
    return path


def _empty(tmp: Path) -> Path:
    path = tmp / "empty.pdf"
    path.write_bytes(b"")
    return path


def _directory(tmp: Path) -> Path:
    path = tmp / "paper.pdf"
    path.mkdir()
    return path


def _missing(tmp: Path) -> Path:
    return tmp / "missing.pdf"


UNREADABLE: list[tuple[Callable[[Path], Path], str]] = [
    (_encrypted, "encrypted PDF: it needs a password"),
    (_corrupt, "corrupt PDF, cannot be opened"),
    (_text, "not a PDF (no %PDF- header)"),
    (_text_without_pdf_suffix, "not a PDF (no %PDF- header)"),
    (_empty, "empty file"),
    (_directory, "is a directory, not a PDF"),
    (_missing, "no such file"),
]
IDS = ["encrypted", "corrupt", "text", "text-no-suffix", "empty", "directory", "missing"]


@pytest.mark.parametrize(("make", "message"), UNREADABLE, ids=IDS)
def test_unreadable_input_is_an_input_error_naming_the_file(
    tmp_path: Path, make: Callable[[Path], Path], message: str
) -> None:
    path = make(tmp_path)
    with pytest.raises(InputError) as raised:
        extract_pdf(path)
    assert str(raised.value) == f"{path}: {raised.value.problem}"
    assert message in raised.value.problem
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(("make", "message"), UNREADABLE, ids=IDS)
def test_refhound_extract_prints_one_error_line_and_exits_2(
    tmp_path: Path, make: Callable[[Path], Path], message: str
) -> None:
    path = make(tmp_path)
    result = cli("extract", path, "--format", "json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]  # exactly one line
    assert result.stderr.startswith(f"error: {path}: ")
    assert message in result.stderr


@pytest.mark.parametrize(  # a .txt file is a plain-text reference list to `check`, not a bad PDF
    ("make", "message"),
    [case for case, name in zip(UNREADABLE, IDS, strict=True) if name != "text-no-suffix"],
    ids=[name for name in IDS if name != "text-no-suffix"],
)
def test_refhound_check_reports_the_bad_pdf_and_still_checks_the_bib(
    tmp_path: Path, small_index: Path, make: Callable[[Path], Path], message: str
) -> None:
    bad = make(tmp_path)
    good = tmp_path / "good.bib"
    good.write_text(GOOD_BIB, encoding="utf-8")
    result = cli("check", bad, good, "--index", small_index, "--format", "json")
    assert result.exit_code == 3  # an input could not be read; the other was checked
    (line,) = error_lines(result)
    assert line.startswith(f"error: {bad}: ") and message in line
    report = json.loads(result.stdout)
    assert [(r["id"], r["verdict"]) for r in report["references"]] == [("he2016deep", "verified")]
    assert any(p["input"] == str(bad) and message in p["message"] for p in report["problems"])


def test_in_a_real_process_mupdf_adds_nothing_to_stderr(tmp_path: Path) -> None:
    """MuPDF's own messages go to the C stderr, which CliRunner does not see: run `python -m refhound`."""
    corrupt = _corrupt(tmp_path)
    truncated = truncate(manuscript(tmp_path / "whole.pdf"), tmp_path / "truncated.pdf", 0.5)
    done = subprocess.run(
        [sys.executable, "-m", "refhound", "extract", str(corrupt)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"error: {corrupt}: corrupt PDF, cannot be opened (Failed to open file '{corrupt}' as type pdf.)"
    ]
    done = subprocess.run(
        [sys.executable, "-m", "refhound", "extract", str(truncated), "--format", "text"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"warning: {truncated}: {REPAIRED}",
        f"warning: {truncated}: no reference section found (no heading such as 'References' and no "
        "numbered list)",
        f"error: {truncated}: no references could be extracted",
    ]


def test_a_pdf_with_only_an_owner_password_is_read(tmp_path: Path) -> None:
    """Permissions-only encryption (empty user password) opens without asking for a password."""
    document = pymupdf.open(manuscript(tmp_path / "plain.pdf"))
    path = tmp_path / "owner-only.pdf"
    document.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="", owner_pw="y")
    document.close()
    assert "AES" in (pymupdf.open(path).metadata or {}).get("encryption", "")  # it is encrypted
    extraction = extract_pdf(path)
    assert [r.raw for r in extraction.references] == RAWS


# --- truncated: PyMuPDF repairs what it can, the result is partial -------------------------------------


def truncate(whole: Path, path: Path, share: float = 0.5, at_object: bool = False) -> Path:
    """The first `share` of the file's bytes; with `at_object`, cut after the last object that is whole."""
    data = whole.read_bytes()
    cut = int(len(data) * share)
    if at_object:
        cut = data.rfind(b"endobj\n", 0, cut) + len(b"endobj\n")
    path.write_bytes(data[:cut])
    return path


@pytest.mark.parametrize("share", [0.1, 0.25, 0.4, 0.5, 0.75, 0.85, 0.9])
def test_a_truncated_pdf_is_a_clear_error_or_a_partial_result(tmp_path: Path, share: float) -> None:
    """Cut anywhere, even inside a compressed stream: MuPDF repairs the file (a partial result, with what
    the surviving objects hold) or cannot open it at all (InputError "corrupt PDF"). Which one depends on
    where the cut falls; here 0.25, 0.4 and 0.85 cannot be opened, the other shares are repaired."""
    path = truncate(manuscript(tmp_path / "whole.pdf"), tmp_path / "truncated.pdf", share)
    try:
        extraction = extract_pdf(path)
    except InputError as error:
        assert error.problem.startswith("corrupt PDF, cannot be opened")
        expected_exit, expected_errors = 2, [f"error: {path}: {error.problem}"]
    else:
        assert extraction.pages == 3  # the page tree comes first in the file and survives
        # What is found is found whole (a list cut to two entries keeps its "[n]" markers: see below).
        assert {re.sub(r"^\[\d\] ", "", r.raw) for r in extraction.references} <= set(RAWS)
        if extraction.references:
            expected_exit, expected_errors = 0, []
        else:
            assert extraction.warnings[-1].startswith("no reference section found")
            expected_exit, expected_errors = 2, [f"error: {path}: no references could be extracted"]
    result = cli("extract", path, "--format", "json")
    assert result.exit_code == expected_exit
    assert error_lines(result) == expected_errors


def test_the_first_half_of_a_pdf_is_repaired_into_a_partial_result(tmp_path: Path) -> None:
    """The references sit at the end, in the lost half: the pages are still read, no reference is found."""
    whole = manuscript(tmp_path / "whole.pdf", body_pages=2)
    path = truncate(whole, tmp_path / "truncated.pdf", 0.5)
    assert pymupdf.open(path).is_repaired  # PyMuPDF opens it by rebuilding the cross-reference table

    extraction = extract_pdf(path)
    assert extraction.references == []
    assert extraction.pages == 3
    assert extraction.warnings == [
        REPAIRED,
        "no reference section found (no heading such as 'References' and no numbered list)",
    ]
    result = cli("extract", path, "--format", "text")
    assert result.exit_code == 2
    assert error_lines(result) == [f"error: {path}: no references could be extracted"]


def test_a_truncated_pdf_keeps_the_references_of_the_surviving_half(tmp_path: Path) -> None:
    """References on page 1, an appendix after them: the first half of the file still holds the list."""
    appendix = [Text(72, 90, "Appendix A", size=12, bold=True), *body(50, y=110)]
    whole = write_pdf(tmp_path / "whole.pdf", [reference_page(), appendix, *(body(50) for _ in range(5))])
    assert [r.raw for r in extract_pdf(whole).references] == RAWS
    path = truncate(whole, tmp_path / "truncated.pdf", 0.5, at_object=True)

    extraction = extract_pdf(path)
    assert [r.raw for r in extraction.references] == RAWS
    assert [r.page for r in extraction.references] == [1, 1, 1]
    result = cli("extract", path, "--format", "json")
    assert result.exit_code == 0
    assert [r["raw"] for r in json.loads(result.stdout)["references"]] == RAWS


@pytest.mark.parametrize("marker", ["[{}] ", "{}. "])
def test_a_reference_list_cut_down_to_two_entries(tmp_path: Path, marker: str) -> None:
    lines = [marker.format(1) + RAWS[0], marker.format(2) + RAWS[1]]
    path = write_pdf(tmp_path / "two.pdf", [body(20), [HEADING, *column(lines, 72, 110)]])
    assert [r.raw for r in extract_pdf(path).references] == RAWS[:2]


def test_a_truncated_pdf_is_reported_as_damaged(tmp_path: Path) -> None:
    path = truncate(manuscript(tmp_path / "whole.pdf"), tmp_path / "truncated.pdf", 0.5)
    warnings = extract_pdf(path).warnings
    assert any("damaged" in w or "repaired" in w or "truncated" in w for w in warnings), warnings


# --- no reference section -------------------------------------------------------------------------------


@pytest.fixture()
def no_references(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "essay.pdf", [body(40), body(30)])


def test_no_reference_section_is_a_warning_and_zero_references(no_references: Path) -> None:
    extraction = extract_pdf(no_references)
    assert extraction.references == []
    assert extraction.section == "none"
    assert extraction.pages == 2
    assert extraction.warnings == [
        "no reference section found (no heading such as 'References' and no numbered list)"
    ]
    with pytest.raises(InputError, match="no reference section found"):
        read_pdf_references(no_references, Settings())


def test_refhound_extract_exits_2_when_no_reference_is_found(no_references: Path) -> None:
    result = cli("extract", no_references, "--format", "json")
    assert result.exit_code == 2
    extraction = json.loads(result.stdout)  # the (empty) result is still written
    assert extraction["references"] == []
    assert extraction["warnings"][0].startswith("no reference section found")
    assert result.stderr.splitlines() == [
        f"warning: {no_references}: no reference section found (no heading such as 'References' "
        "and no numbered list)",
        f"error: {no_references}: no references could be extracted",
    ]


def test_refhound_check_exits_3_and_still_checks_the_good_bib(
    no_references: Path, tmp_path: Path, small_index: Path
) -> None:
    good = tmp_path / "good.bib"
    good.write_text(GOOD_BIB, encoding="utf-8")
    result = cli("check", no_references, good, "--index", small_index, "--format", "json")
    assert result.exit_code == 3
    assert error_lines(result) == [f"error: {no_references}: no reference section found (no heading such "
                                   "as 'References' and no numbered list)"]  # fmt: skip
    report = json.loads(result.stdout)
    assert report["inputs"] == [str(no_references), str(good)]
    assert [(r["id"], r["verdict"]) for r in report["references"]] == [("he2016deep", "verified")]
    assert [p["input"] for p in report["problems"]] == [str(no_references)]


# --- more pages than extract.max_pages ------------------------------------------------------------------


@pytest.fixture()
def three_pages(tmp_path: Path) -> Path:
    """Body text; the reference list on page 2, continued on page 3."""
    return write_pdf(tmp_path / "long.pdf", [body(40), reference_page(), column(MORE_LINES, 72, 90)])


def test_every_page_is_read_below_max_pages(three_pages: Path) -> None:
    extraction = extract_pdf(three_pages)
    assert len(extraction.references) == 5
    assert [r.page for r in extraction.references] == [2, 2, 2, 3, 3]
    assert extraction.warnings == []


def test_more_pages_than_max_pages_gives_a_warning_and_the_partial_result(three_pages: Path) -> None:
    extraction = extract_pdf(three_pages, Settings(extract={"max_pages": 2}))
    assert extraction.warnings == ["only the first 2 of 3 pages were read (max_pages)"]
    assert extraction.pages == 2
    assert [r.raw for r in extraction.references] == RAWS


def test_max_pages_from_the_environment(three_pages: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFHOUND_EXTRACT__MAX_PAGES", "2")
    result = cli("extract", three_pages, "--format", "json")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"warning: {three_pages}: only the first 2 of 3 pages were read (max_pages)"
    ]
    extraction = json.loads(result.stdout)
    assert extraction["warnings"] == ["only the first 2 of 3 pages were read (max_pages)"]
    assert [r["raw"] for r in extraction["references"]] == RAWS


# --- a 500-page PDF -------------------------------------------------------------------------------------


def long_manuscript(path: Path, pages: int) -> Path:
    """`pages - 1` pages of body text (one insertion per page: quick to write), then the reference list."""
    document = pymupdf.open()
    for number in range(1, pages):
        page = document.new_page(width=595, height=842)
        lines = [
            f"Section {number}.{row}: the method is evaluated on three corpora against strong baselines."
            for row in range(60)
        ]
        page.insert_text((72, 90), lines, fontsize=10, lineheight=LINE / 10)
    last = document.new_page(width=595, height=842)
    for piece in reference_page():
        last.insert_text(
            (piece.x, piece.y), piece.text, fontsize=piece.size, fontname="hebo" if piece.bold else "helv"
        )
    document.save(path)
    document.close()
    return path


@pytest.mark.slow  # about 1.5 s to write and 3.5 s to read
def test_a_500_page_pdf_is_read_to_its_reference_list(tmp_path: Path) -> None:
    path = long_manuscript(tmp_path / "thesis.pdf", 500)
    started = time.perf_counter()
    extraction = extract_pdf(path)
    elapsed = time.perf_counter() - started
    assert extraction.pages == 500
    assert extraction.warnings == []
    assert [r.raw for r in extraction.references] == RAWS
    assert [r.page for r in extraction.references] == [500, 500, 500]
    assert elapsed < 60, f"500 pages took {elapsed:.1f}s"


def test_the_page_cap_is_named_when_it_hid_the_reference_list(
    tmp_path: Path, small_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`check`, like `extract`, says the page cap stopped the reading before the list."""
    late = write_pdf(tmp_path / "late.pdf", [body(40), body(30), reference_page()])
    monkeypatch.setenv("REFHOUND_EXTRACT__MAX_PAGES", "2")
    result = cli("check", late, "--index", small_index, "--format", "json")
    assert result.exit_code == 2
    assert error_lines(result) == [
        f"error: {late}: no reference section found (no heading such as 'References' and no numbered list) "
        "in the first 2 of 3 pages: extract.max_pages stopped the reading there, and the list may come later"
    ]
    with pytest.raises(InputError, match=r"first 2 of 3 pages: extract\.max_pages stopped the reading"):
        read_pdf_references(late, Settings())
