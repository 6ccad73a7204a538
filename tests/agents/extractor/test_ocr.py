"""Scanned PDFs: pages without a text layer are OCR'd with Tesseract, and the warnings say which.

A text PDF is built with `pdfmaker`, each page rendered to an image (200 dpi) and placed alone on a page of a
new PDF, so the result has no text at all. OCR is imperfect, so the references' raw strings are compared with
what was printed by similarity (rapidfuzz ratio ≥ 85), not equality.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pymupdf
import pytest
from rapidfuzz import fuzz
from typer.testing import CliRunner

from refhound.agents.extractor import Extraction, extract_pdf
from refhound.agents.extractor.plausibility import GATE
from refhound.cli import app
from refhound.pdf.document import ocr_resolution
from refhound.pdf.ocr_regions import Region, column_regions, ink_of
from refhound.settings import Settings
from tests.agents.extractor.pdfmaker import Text, body, column, write_pdf

needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None,
    reason="tesseract is not on PATH (Debian package tesseract-ocr): OCR cannot be exercised",
)

HEADING = Text(72, 90, "References", size=12, bold=True)
PRINTED = [  # one line each
    "[1] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. CVPR, 2016.",
    "[2] S. Jain and B. C. Wallace. Attention is not explanation. In NAACL-HLT, 2019.",
    "[3] A. Smith and B. Jones. A study of imaginary things. Journal of Examples, 12:1-10, 2021.",
    "[4] D. P. Kingma and J. Ba. Adam: a method for stochastic optimization. In ICLR, 2015.",
]
RAWS = [line.split("] ", 1)[1] for line in PRINTED]
NO_SECTION = "no reference section found (no heading such as 'References' and no numbered list)"


def scanned(source: Path, path: Path, pages: Sequence[int] | None = None) -> Path:
    """`source` with the given pages (0-based; default all) replaced by images of themselves, no text."""
    with pymupdf.open(source) as original, pymupdf.open() as document:
        for number, page in enumerate(original):
            if pages is not None and number not in pages:
                document.insert_pdf(original, from_page=number, to_page=number)
                continue
            image = page.get_pixmap(dpi=200).tobytes("png")
            new = document.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, stream=image)
        document.save(path)
    return path


def manuscript(path: Path, lines: Sequence[str] = PRINTED) -> Path:
    """A body text page, then the reference list."""
    return write_pdf(path, [body(30), [HEADING, *column(lines, 72, 110, indent=14)]])


@pytest.fixture(scope="module")
def scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("ocr")
    return scanned(manuscript(directory / "typeset.pdf"), directory / "scan.pdf")


@pytest.fixture(scope="module")
def ocr_extraction(scan: Path) -> Extraction:
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not on PATH (Debian package tesseract-ocr): OCR cannot be exercised")
    return extract_pdf(scan)


def assert_similar(found: Sequence[str], expected: Sequence[str]) -> None:
    assert len(found) == len(expected), found
    for raw, printed in zip(found, expected, strict=True):
        assert fuzz.ratio(raw, printed) >= 85, (raw, printed)


def test_the_scan_has_no_text_layer(scan: Path) -> None:
    with pymupdf.open(scan) as document:
        assert document.page_count == 2
        assert all(page.get_text().strip() == "" and page.get_images() for page in document)


@needs_tesseract
def test_references_of_an_image_only_pdf_are_found_by_ocr(ocr_extraction: Extraction) -> None:
    assert_similar([r.raw for r in ocr_extraction.references], RAWS)
    assert [r.page for r in ocr_extraction.references] == [2, 2, 2, 2]
    assert ocr_extraction.pages == 2
    assert all("\n" not in r.raw for r in ocr_extraction.references)


@needs_tesseract
def test_the_warning_says_which_pages_were_ocrd(ocr_extraction: Extraction) -> None:
    assert ocr_extraction.warnings[0] == "pages 1, 2 were read by OCR (Tesseract)"


@needs_tesseract
def test_the_report_says_how_many_references_came_from_ocr_and_how_sure_it_is(
    ocr_extraction: Extraction,
) -> None:
    assert ocr_extraction.ocr_pages == [1, 2]
    # every entry read there reads as a reference (likeness at or above the gate)
    assert ocr_extraction.ocr_certainty is not None and ocr_extraction.ocr_certainty >= GATE
    assert ocr_extraction.warnings[1].startswith(
        f"4 of the 4 references come from OCR of page images (Tesseract): extraction certainty "
        f"{ocr_extraction.ocr_certainty:.2f}"
    )


@needs_tesseract
def test_a_two_column_reference_list_is_read_column_by_column(tmp_path: Path) -> None:
    """Tesseract reads a left-column line and the right-column line beside it as one line; the words'
    boxes cut it at the gutter, so each column's entries come out whole and in order."""
    left = [
        f"[{n}] A. Smith{chr(96 + n)} and B. Jones. Study {n} of things. In ACL, 20{10 + n}."
        for n in range(1, 9)
    ]
    right = [
        f"[{n}] C. Brown{chr(96 + n)} and D. White. Paper {n} on words. In EMNLP, 20{n + 4}."
        for n in range(9, 17)
    ]
    pieces = [Text(40, 90, "References", size=12, bold=True)]
    pieces += [Text(40, 110 + i * 14, line, size=7.5) for i, line in enumerate(left)]
    pieces += [Text(305, 110 + i * 14, line, size=7.5) for i, line in enumerate(right)]
    path = scanned(write_pdf(tmp_path / "typeset.pdf", [body(30), pieces]), tmp_path / "scan.pdf", pages=[1])
    raws = [r.raw for r in extract_pdf(path).references]
    assert_similar(raws, [line.split("] ", 1)[1] for line in [*left, *right]])


@needs_tesseract
def test_only_pages_without_text_are_ocrd(tmp_path: Path) -> None:
    """Page 1 keeps its text layer, page 2 (the references) is a scan: only page 2 is OCR'd."""
    path = scanned(manuscript(tmp_path / "typeset.pdf"), tmp_path / "mixed.pdf", pages=[1])
    extraction = extract_pdf(path)
    assert extraction.warnings[0] == "page 2 was read by OCR (Tesseract)"
    assert extraction.ocr_pages == [2]
    assert_similar([r.raw for r in extraction.references], RAWS)


@needs_tesseract
def test_a_scanned_page_without_a_list_is_reported_as_no_reference_section(tmp_path: Path) -> None:
    """Nothing read, so no OCR certainty to report: the last warning, the one `check` shows as the error,
    says that no list was found, not "0 of the 0 references come from OCR"."""
    typeset = write_pdf(tmp_path / "typeset.pdf", [body(30), body(30)])
    extraction = extract_pdf(scanned(typeset, tmp_path / "scan.pdf", pages=[0]))
    assert extraction.references == []
    assert extraction.warnings == ["page 1 was read by OCR (Tesseract)", NO_SECTION]


def test_with_ocr_off_the_warning_says_so_and_nothing_is_found(scan: Path) -> None:
    extraction = extract_pdf(scan, Settings(extract={"ocr": False}))
    assert extraction.references == []
    assert extraction.warnings == [
        "pages 1, 2 have no text layer and were not OCR'd: OCR is switched off",
        NO_SECTION,
    ]


def test_without_tesseract_the_warning_names_the_debian_package(
    scan: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("refhound.pdf.document.tesseract_available", lambda: False)
    extraction = extract_pdf(scan)
    assert extraction.references == []
    assert extraction.warnings == [
        "pages 1, 2 have no text layer and were not OCR'd: "
        "Tesseract (Debian package tesseract-ocr) is not installed",
        NO_SECTION,
    ]


def test_without_tesseract_on_path_refhound_extract_says_what_to_install(
    scan: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real lookup (`shutil.which`) with a PATH that holds no tesseract: a warning, then exit 2."""
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    result = CliRunner().invoke(app, ["extract", str(scan), "--format", "json"])
    assert result.exit_code == 2, result.exception
    assert result.stderr.splitlines() == [
        f"warning: {scan}: pages 1, 2 have no text layer and were not OCR'd: "
        "Tesseract (Debian package tesseract-ocr) is not installed",
        f"warning: {scan}: {NO_SECTION}",
        f"error: {scan}: no references could be extracted",
    ]


@needs_tesseract
def test_wrapped_references_of_a_scan_are_found(tmp_path: Path) -> None:
    printed = [
        "[1] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition.",
        "\tIn CVPR, 2016.",
        "[2] S. Jain and B. C. Wallace. Attention is not explanation. In Proceedings of NAACL-HLT,",
        "\t2019.",
        "[3] A. Smith and B. Jones. A study of imaginary things. Journal of Examples, 12:1-10, 2021.",
    ]
    expected = [
        "K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. In CVPR, 2016.",
        "S. Jain and B. C. Wallace. Attention is not explanation. In Proceedings of NAACL-HLT, 2019.",
        "A. Smith and B. Jones. A study of imaginary things. Journal of Examples, 12:1-10, 2021.",
    ]
    path = scanned(manuscript(tmp_path / "typeset.pdf", printed), tmp_path / "scan.pdf", pages=[1])
    assert_similar([r.raw for r in extract_pdf(path).references], expected)


@needs_tesseract
def test_nougat_without_a_checkpoint_says_why_and_tesseract_reads_the_scan(tmp_path: Path) -> None:
    path = scanned(manuscript(tmp_path / "typeset.pdf", PRINTED), tmp_path / "scan.pdf", pages=[1])
    extraction = extract_pdf(path, Settings(extract={"ocr_backend": "nougat"}))
    assert extraction.warnings[0] == (
        "the nougat OCR backend cannot run (no nougat checkpoint directory is set (extract.nougat_checkpoint "
        "or --nougat-checkpoint DIR)); Tesseract is used instead"
    )
    assert len(extraction.references) == len(PRINTED)


def _entries(first: int, count: int, venue: str) -> list[tuple[str, str]]:
    """Author-year entries of two lines each (ACL style, unnumbered): the printed lines."""
    return [
        (
            f"Author{chr(96 + n)} Smith, Bertram Jones, and Carla Brown. 20{10 + n % 10}. A study of",
            f"things number {n} in their natural habitat. In Proceedings of {venue}.",
        )
        for n in range(first, first + count)
    ]


def _two_columns(left: list[tuple[str, str]], right: list[tuple[str, str]], offset: float) -> list[Text]:
    """Two columns of hanging-indent entries, the right one's baselines `offset` points lower."""
    pieces: list[Text] = []
    for x, entries, shift in ((40, left, 0.0), (300, right, offset)):
        for i, (first, second) in enumerate(entries):
            y = 110 + i * 24 + shift
            pieces += [Text(x, y, first, size=7.5), Text(x + 10, y + 9, second, size=7.5)]
    return pieces


@needs_tesseract
def test_two_columns_whose_baselines_do_not_meet_are_read_one_column_at_a_time(tmp_path: Path) -> None:
    """Beside each other, Tesseract reads a left-column line and the right-column line a few points lower as
    one skewed line and garbles both; the gutter is found in the image and each column is OCR'd alone."""
    left, right = _entries(1, 8, "ACL"), _entries(9, 8, "EMNLP")
    pieces = [Text(40, 90, "References", size=12, bold=True), *_two_columns(left, right, offset=4.5)]
    path = scanned(write_pdf(tmp_path / "typeset.pdf", [body(30), pieces]), tmp_path / "scan.pdf", pages=[1])
    raws = [r.raw for r in extract_pdf(path).references]
    assert_similar(raws, [f"{first} {second}" for first, second in [*left, *right]])


@needs_tesseract
def test_a_list_keeps_its_size_across_a_page_of_body_text_and_a_page_of_references(tmp_path: Path) -> None:
    """The list starts under the body text of one page (10 pt) and goes on over the next (8 pt): OCR'd type
    sizes are evened to the document's usual size, not each page's, so the list does not seem to change
    size, and end, at the page break."""
    entries = _entries(1, 14, "ACL")
    first_page = [
        *body(40),
        Text(72, 600, "References", size=12, bold=True),
        *[
            Text(72 + indent, 620 + i * 20 + indent * 0.9, line, size=8)
            for i, (first, second) in enumerate(entries[:3])
            for indent, line in ((0, first), (10, second))
        ],
    ]
    second_page = [
        Text(72 + indent, 90 + i * 20 + indent * 0.9, line, size=8)
        for i, (first, second) in enumerate(entries[3:])
        for indent, line in ((0, first), (10, second))
    ]
    path = scanned(write_pdf(tmp_path / "typeset.pdf", [first_page, second_page]), tmp_path / "scan.pdf")
    raws = [r.raw for r in extract_pdf(path).references]
    assert_similar(raws, [f"{first} {second}" for first, second in entries])


def _regions(page: Sequence[Text], tmp_path: Path) -> tuple[list[Region], int, int]:
    """The regions a page (rendered at 150 dpi) is read as, and the image's width and height."""
    with pymupdf.open(write_pdf(tmp_path / "page.pdf", [page])) as document:
        image = document[0].get_pixmap(dpi=150)
        return column_regions(ink_of(image), 150), image.width, image.height


def test_a_one_column_page_is_read_whole(tmp_path: Path) -> None:
    regions, width, height = _regions(body(50), tmp_path)
    assert regions == [Region(0, 0, width, height)]


def test_a_title_across_the_page_is_read_whole_and_the_columns_under_it_one_by_one(tmp_path: Path) -> None:
    left, right = _entries(1, 8, "ACL"), _entries(9, 8, "EMNLP")
    title = Text(40, 80, "A Title Printed Across the Whole Width of the Page, Over Both Columns", size=14)
    left_end = max(pymupdf.get_text_length(line, fontsize=7.5) + 50 for entry in left for line in entry)
    regions, width, height = _regions([title, *_two_columns(left, right, offset=4.5)], tmp_path)
    assert len(regions) == 3
    top, left_column, right_column = regions
    dots = 150 / 72
    assert (top.x0, top.y0, top.x1) == (0, 0, width)
    gutter = left_column.x1
    assert left_column.x0 == 0 and right_column.x0 == gutter and right_column.x1 == width
    assert left_end * dots < gutter < 300 * dots  # between the columns' text
    assert top.y1 == left_column.y0 == right_column.y0 < 100 * dots  # above the first entry's line
    assert top.y1 > 80 * dots  # below the title's baseline
    assert left_column.y1 == right_column.y1 == height


def _three_columns() -> tuple[list[Text], list[str]]:
    """A list set in three narrow columns of 12 two-line entries each, as some journals print it, baselines
    level across the columns: the pieces and each entry's text."""
    pieces: list[Text] = [Text(30, 80, "References", size=12, bold=True)]
    texts = []
    for number, x in enumerate((30, 220, 410)):
        for i in range(12):
            n = number * 12 + i + 1
            first = f"{n}. Surname{chr(96 + n % 26)} A, Other B (20{10 + n % 10}) A study"
            second = f"of things number {n}. J Exam {n}:1-9"
            y = 110 + i * 22
            pieces += [Text(x, y, first, size=7), Text(x + 8, y + 9, second, size=7)]
            texts.append(f"{first} {second}")
    return pieces, texts


def test_a_list_in_three_columns_is_read_one_column_at_a_time(tmp_path: Path) -> None:
    pieces, _ = _three_columns()
    regions, width, _height = _regions(pieces, tmp_path)
    dots = 150 / 72
    columns = [r for r in regions if r.y0 < 110 * dots < r.y1]
    assert len(columns) == 3
    assert columns[0].x0 == 0 and columns[-1].x1 == width
    ends = [
        max(t.x + pymupdf.get_text_length(t.text, fontsize=7) for t in pieces[1:] if t.x in xs)
        for xs in ((30, 38), (220, 228))
    ]
    # Each cut lies between one column's text and the next column's.
    assert ends[0] * dots < columns[1].x0 < 220 * dots and ends[1] * dots < columns[2].x0 < 410 * dots


def test_a_few_lines_side_by_side_inside_a_column_are_no_third_column(tmp_path: Path) -> None:
    """A column holding a small table (three rows of two cells) is read whole: it is no column pair."""
    left, right = _entries(1, 8, "ACL"), _entries(9, 8, "EMNLP")
    table = [Text(x, 330 + row * 10, f"cell {row}{x}", size=7) for row in range(3) for x in (300, 480)]
    regions, _width, _height = _regions([*_two_columns(left, right, offset=4.5), *table], tmp_path)
    assert len(regions) == 2


@needs_tesseract
def test_a_scanned_list_in_three_columns_is_read_in_order(tmp_path: Path) -> None:
    pieces, texts = _three_columns()
    path = scanned(write_pdf(tmp_path / "typeset.pdf", [body(30), pieces]), tmp_path / "scan.pdf", pages=[1])
    assert_similar([r.raw for r in extract_pdf(path).references], texts)


@needs_tesseract
def test_bullets_tesseract_drops_are_found_in_the_image(tmp_path: Path) -> None:
    """A bulleted list whose lines all start at one x: Tesseract drops the bullets as specks, and the entries
    would run together; the bullets are found in the image, left of each entry's first line."""
    entries = [
        (
            f"Surname{chr(96 + n)} A., Beta B., Displacement and resettlement in development: case {n}",
            f"of the region, University Press, City, 20{10 + n}.",
        )
        for n in range(1, 9)
    ]
    pieces = [Text(72, 90, "Bibliography:", size=12, bold=True)]
    for i, (first, second) in enumerate(entries):
        y = 115 + i * 26
        pieces += [Text(75, y, "•"), Text(93, y, first), Text(93, y + 13, second)]
    path = scanned(write_pdf(tmp_path / "typeset.pdf", [pieces]), tmp_path / "scan.pdf")
    extraction = extract_pdf(path)
    assert extraction.section.endswith("split by bullets")
    assert_similar([r.raw for r in extraction.references], [f"{first} {second}" for first, second in entries])


@pytest.mark.parametrize(
    ("scan_dpi", "rotation", "expected"),
    [
        (200, 0, 200),  # read at its own resolution: 300 would only interpolate
        (200, 90, 200),  # a page turned a quarter: the same pixels per inch
        (400, 0, 300),  # finer than configured: the configured resolution
        (150, 0, 300),  # under the floor: the configured resolution, as before
        (None, 0, 300),  # no image: the configured resolution
    ],
)
def test_a_scan_is_rendered_for_ocr_at_its_own_resolution_at_most(
    scan_dpi: int | None, rotation: int, expected: int
) -> None:
    with pymupdf.open() as document:
        page = document.new_page(width=612, height=792)
        if scan_dpi is not None:
            pixels = pymupdf.IRect(0, 0, 612 * scan_dpi // 72, 792 * scan_dpi // 72)
            blank = pymupdf.Pixmap(pymupdf.csGRAY, pixels)
            blank.clear_with(255)
            page.insert_image(page.rect, pixmap=blank)
        page.set_rotation(rotation)
        assert ocr_resolution(page, 300) == expected


# Where a font without a Unicode map sends its glyphs: Dingbats, or Latin-1's letters and signs, which
# read as letters.
UNDECODED_TO = {"dingbats": "2720", "latin-1": "00A1"}


def without_unicode(source: Path, path: Path, to: str = "2720") -> Path:
    """`source` with every font's printable codes mapped from U+`to` on, as a font without a Unicode map
    reads: the page shows the same glyphs, its text layer none of them."""
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Undecoded def "
        f"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <20> <7E> <{to}> endbfrange "
        "endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    with pymupdf.open(source) as document:
        for page in document:
            for font in page.get_fonts():
                stream = document.get_new_xref()
                document.update_object(stream, "<<>>")
                document.update_stream(stream, cmap.encode())
                document.xref_set_key(font[0], "ToUnicode", f"{stream} 0 R")
        document.save(path)
    return path


@needs_tesseract
@pytest.mark.parametrize("to", UNDECODED_TO.values(), ids=UNDECODED_TO.keys())
def test_pages_whose_text_layer_does_not_decode_are_ocrd(tmp_path: Path, to: str) -> None:
    path = without_unicode(manuscript(tmp_path / "typeset.pdf"), tmp_path / "undecoded.pdf", to)
    with pymupdf.open(path) as document:
        assert "References" not in document[1].get_text()
    extraction = extract_pdf(path)
    assert_similar([r.raw for r in extraction.references], RAWS)
    assert extraction.ocr_pages == [1, 2]
    assert (
        "pages 1, 2 have a text layer that does not decode to text (fonts without a Unicode map)"
        in extraction.warnings
    )


def test_with_ocr_off_an_undecoded_text_layer_is_named_and_not_read_as_text(tmp_path: Path) -> None:
    path = without_unicode(manuscript(tmp_path / "typeset.pdf"), tmp_path / "undecoded.pdf")
    extraction = extract_pdf(path, Settings(extract={"ocr": False}))
    assert extraction.references == [] and extraction.set_aside == []
    assert extraction.warnings == [
        "pages 1, 2 have a text layer that does not decode to text (fonts without a Unicode map) and were "
        "not OCR'd: OCR is switched off",
        NO_SECTION,
    ]


def test_one_page_left_without_text_is_named_in_the_singular(tmp_path: Path) -> None:
    path = scanned(manuscript(tmp_path / "typeset.pdf"), tmp_path / "mixed.pdf", pages=[1])
    extraction = extract_pdf(path, Settings(extract={"ocr": False}))
    assert extraction.warnings[0] == "page 2 has no text layer and was not OCR'd: OCR is switched off"
