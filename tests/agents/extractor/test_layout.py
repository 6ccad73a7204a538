"""Reading order, running headers and joined lines, on real PDFs written with PyMuPDF."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from refhound.agents.extractor.segment import join_lines
from refhound.pdf.document import open_pdf, read_pages
from refhound.pdf.layout import (
    Line,
    _joined,
    _joins,
    _line_from_spans,
    _merge_same_baseline,
    clean_text,
    reading_order,
)
from refhound.settings import ExtractSettings
from tests.agents.extractor.pdfmaker import LINE, Text, body, write_pdf, write_unmapped_type3_pdf


def _texts(path: Path) -> list[str]:
    document = open_pdf(path, ExtractSettings().max_bytes)
    try:
        return [line.text for line in read_pages(document, ExtractSettings()).lines]
    finally:
        document.close()


def test_two_columns_are_read_one_after_the_other(tmp_path: Path) -> None:
    title = [
        Text(72, 60, "A full-width title line that runs across both of the columns of the page", 12, True)
    ]
    left = [Text(56, 100 + i * LINE, f"left column line {i} with enough words to fill") for i in range(10)]
    right = [Text(310, 100 + i * LINE, f"right column line {i} with enough words to fill") for i in range(10)]
    texts = _texts(write_pdf(tmp_path / "two.pdf", [title + right + left]))
    assert texts[0].startswith("A full-width title")
    assert texts[1:11] == [f"left column line {i} with enough words to fill" for i in range(10)]
    assert texts[11:] == [f"right column line {i} with enough words to fill" for i in range(10)]


def _column(x: float, name: str, count: int) -> list[Text]:
    """`count` lines of one column at `x`, a line apart from the page's head."""
    return [Text(x, 100 + i * LINE, f"{name} column line {i} with enough words") for i in range(count)]


def test_a_column_of_few_lines_takes_the_gutter_of_the_page_before(tmp_path: Path) -> None:
    """On a list's last page the right column holds three lines (a contact block), too few to show the
    gutter: the page takes the previous page's gutter, which none of its lines crosses, and its columns are
    read one after the other instead of joined line by line."""

    first = _column(56, "left", 10) + _column(310, "right", 10)
    last = _column(56, "left", 10) + _column(310, "contact", 3)
    texts = _texts(write_pdf(tmp_path / "last.pdf", [first, last]))
    assert texts[20:] == [
        *(f"left column line {i} with enough words" for i in range(10)),
        *(f"contact column line {i} with enough words" for i in range(3)),
    ]


def test_a_lists_last_rows_in_two_columns_over_text_in_one_take_the_gutter_of_the_page_before(
    tmp_path: Path,
) -> None:
    """A list in two columns ends at the head of the next page with two rows a column, over an appendix
    whose lines run across the page: too few rows to show a gutter of their own, and the page's text
    crosses it, but the band they make takes the previous page's gutter, which none of its lines
    crosses; its columns are read one after the other, not row across row."""

    first = _column(56, "left", 10) + _column(310, "right", 10)
    text = "The appendix opens with a paragraph whose lines run across the whole width of the page here."
    last = _column(56, "end-left", 2) + _column(310, "end-right", 2)
    last += [Text(56, 100 + (4 + i) * LINE, text) for i in range(4)]
    texts = _texts(write_pdf(tmp_path / "last-rows.pdf", [first, last]))
    assert texts[20:] == [
        *(f"end-left column line {i} with enough words" for i in range(2)),
        *(f"end-right column line {i} with enough words" for i in range(2)),
        *[text] * 4,
    ]


def test_a_page_number_under_a_band_in_columns_does_not_keep_its_gutter_from_the_next_page(
    tmp_path: Path,
) -> None:
    """A list in two columns under text in one, with a page number centred under it, goes on at the head
    of the next page in two rows a column over an appendix: the page number is no text across the page
    after the columns, so the band's gutter still passes to the next page's head."""
    text = body(1)[0].text
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=10)
    right_x = 72 + width / 2 + 10
    first = [Text(72, 100 + i * LINE, text) for i in range(20)]
    first += [Text(72, 100 + (21 + i) * LINE, f"Left entry {i}, a line") for i in range(6)]
    first += [Text(right_x, 100 + (21 + i) * LINE, f"Right entry {i}, a line") for i in range(6)]
    first.append(Text(195, 760, "7"))  # under the gutter's left edge, far below the first column
    last = [Text(72, 100 + i * LINE, f"Left end {i}, a line") for i in range(2)]
    last += [Text(right_x, 100 + i * LINE, f"Right end {i}, a line") for i in range(2)]
    last += [Text(72, 100 + (3 + i) * LINE, text) for i in range(4)]
    texts = _texts(write_pdf(tmp_path / "page-number.pdf", [first, last]))
    start = texts.index("Left end 0, a line")
    assert texts[start : start + 4] == [
        "Left end 0, a line",
        "Left end 1, a line",
        "Right end 0, a line",
        "Right end 1, a line",
    ]


def test_a_lists_first_rows_in_two_columns_at_a_pages_foot_take_the_gutter_of_the_page_after(
    tmp_path: Path,
) -> None:
    """A list in a two-column section opens at the foot of a page under the body in one column, with two
    rows a column there, and fills the next page in two columns: too few rows to show a gutter of their
    own, the band at the foot takes the next page's gutter, and its columns are read one after the
    other, not row across row."""
    text = body(1)[0].text
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=10)
    right_x = 72 + width / 2 + 10
    first = [Text(72, 100 + i * LINE, text) for i in range(30)]
    first.append(Text(72, 100 + 31 * LINE, "References", 12, True))
    first += [Text(72, 100 + (33 + i) * LINE, f"Left start {i}, a line") for i in range(2)]
    first += [Text(right_x, 100 + (33 + i) * LINE, f"Right start {i}, a line") for i in range(2)]
    second = [Text(72, 100 + i * LINE, f"Left entry {i}, a line") for i in range(10)]
    second += [Text(right_x, 100 + i * LINE, f"Right entry {i}, a line") for i in range(10)]
    texts = _texts(write_pdf(tmp_path / "foot-rows.pdf", [first, second]))
    start = texts.index("Left start 0, a line")
    assert texts[start : start + 4] == [
        "Left start 0, a line",
        "Left start 1, a line",
        "Right start 0, a line",
        "Right start 1, a line",
    ]


def test_three_columns(tmp_path: Path) -> None:
    pieces = [
        Text(40 + 180 * c, 100 + i * LINE, f"col{c} line{i} some words here")
        for c in range(3)
        for i in range(6)
    ]
    texts = _texts(write_pdf(tmp_path / "three.pdf", [pieces]))
    assert texts == [f"col{c} line{i} some words here" for c in range(3) for i in range(6)]


def test_a_blank_strip_across_the_page_starts_a_new_band(tmp_path: Path) -> None:
    """A two-column section above a two-column list on the same page: the section is read first."""
    top = [Text(56, 100 + i * LINE, f"top left {i} words words words") for i in range(5)]
    top += [Text(310, 100 + i * LINE, f"top right {i} words words words") for i in range(3)]
    low = [Text(56, 300 + i * LINE, f"low left {i} words words words") for i in range(5)]
    low += [Text(310, 300 + i * LINE, f"low right {i} words words words") for i in range(5)]
    texts = _texts(write_pdf(tmp_path / "bands.pdf", [top + low]))
    order = [text.rsplit(" ", 3)[0] for text in texts]
    assert order == (
        [f"top left {i}" for i in range(5)]
        + [f"top right {i}" for i in range(3)]
        + [f"low left {i}" for i in range(5)]
        + [f"low right {i}" for i in range(5)]
    )


def test_running_headers_footers_and_page_numbers_are_removed(tmp_path: Path) -> None:
    pages = [
        [Text(72, 40, "Journal of Examples, Vol. 3"), Text(290, 810, str(n)), *body(10)] for n in range(1, 6)
    ]
    texts = _texts(write_pdf(tmp_path / "running.pdf", pages))
    assert not any("Journal of Examples" in text for text in texts)
    assert not any(text.strip().isdigit() for text in texts)
    assert len(texts) == 50


@pytest.mark.parametrize(("centred", "dropped"), [(True, True), (False, False)])
def test_a_bare_number_centred_a_blank_line_under_the_text_is_a_page_number(
    tmp_path: Path, centred: bool, dropped: bool
) -> None:
    """elsarticle sets its page number 1.4 lines under the text, above the page's bottom tenth: centred
    under the text it is the page's number; at the text's left edge it is the text's."""
    text = body(1)[0]
    width = pymupdf.get_text_length(text.text, fontname="helv", fontsize=text.size)
    x = text.x + width / 2 - 3 if centred else text.x
    pages = [[*body(45), Text(x, 100 + 44 * LINE + 2.4 * LINE, str(n))] for n in range(1, 4)]
    texts = _texts(write_pdf(tmp_path / "page-numbers.pdf", pages))
    assert any(text.strip().isdigit() for text in texts) is not dropped
    assert len([text for text in texts if not text.strip().isdigit()]) == 135


def test_pieces_of_one_line_are_joined(tmp_path: Path) -> None:
    pieces = [Text(72, 100, "[12]"), Text(100, 100, "A. Author. A title."), Text(250, 100, "Venue, 2020.")]
    assert _texts(write_pdf(tmp_path / "pieces.pdf", [pieces])) == ["[12] A. Author. A title. Venue, 2020."]


def test_rotated_text_is_ignored(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "rotated.pdf", [body(3)])
    document = open_pdf(path, ExtractSettings().max_bytes)
    document[0].insert_text((20, 500), "arXiv:2401.00001v1 [cs.CL] 1 Jan 2024", rotate=90)
    document.save(tmp_path / "rotated2.pdf")
    document.close()
    assert not any("arXiv" in text for text in _texts(tmp_path / "rotated2.pdf"))


@pytest.mark.parametrize("rotate", [90, 270])
def test_a_page_set_turned_a_quarter_reads_as_its_text_runs(tmp_path: Path, rotate: int) -> None:
    """A landscape page drawn on a portrait sheet (dvips sets one so): every line turned a quarter, read
    upwards (90) or downwards (270), the next line to its right or left. The page reads that way; its one
    horizontal line (a stamp) is left out, as turned text is on an upright page."""
    lines = [f"[{i + 1}] A. Author. A title of paper number {i + 1}. Journal, 2001." for i in range(8)]
    document = pymupdf.open()
    page = document.new_page(width=612, height=792)
    for i, text in enumerate(lines):
        x = 100 + i * 16 if rotate == 90 else 512 - i * 16
        page.insert_text((x, 700 if rotate == 90 else 92), text, fontsize=10, rotate=rotate)
    page.insert_text((20, 780), "stamp", fontsize=6)
    document.save(tmp_path / "turned.pdf")
    assert _texts(tmp_path / "turned.pdf") == lines


def test_a_page_with_some_turned_text_reads_horizontally(tmp_path: Path) -> None:
    """Turned lines under two thirds of the characters (a table's turned column heads, a wide figure's
    labels) leave the page upright."""
    path = write_pdf(tmp_path / "upright.pdf", [body(6)])
    document = pymupdf.open(path)
    for i in range(3):
        document[0].insert_text((40 + 12 * i, 700), "a turned column head", fontsize=8, rotate=90)
    document.save(tmp_path / "upright2.pdf")
    texts = _texts(tmp_path / "upright2.pdf")
    assert texts and not any("turned column head" in text for text in texts)


def test_ligatures_and_dashes_of_teXs_cork_encoding_read_as_text(tmp_path: Path) -> None:
    # survival's vignette: "J. D. Kalbfleisch", "Assessing influence", "Biometrics, 48:507--28"
    path = write_unmapped_type3_pdf(
        tmp_path / "cork.pdf",
        [b"Kalb\x1deisch Assessing in\x1duence", b"di\x1berent coe\x1ecient Biometrics 507\x1528"],
    )
    assert _texts(path) == ["Kalbfleisch Assessing influence", "different coefficient Biometrics 507–28"]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("ﬁne-tuning eﬀect", "fine-tuning effect"),
        ("soft\u00adhyphen", "softhyphen"),
        ("  spaced   out\ttext ", "spaced out text"),
        ("Lo¨ıc Barrault and J¨org Sander", "Loïc Barrault and Jörg Sander"),  # pdfTeX's separate accents
        ("Radim ˇReh˚uˇrek, D´ej`a vu", "Radim Řehůřek, Déjà vu"),
        ("``Quoted'' and `single'", "``Quoted'' and `single'"),  # TeX quotes are no accents
        # Adobe's expert fonts: old-style figures and small capitals in the private use area
        ("S\uf76d\uf769\uf774\uf768, J. (\uf731\uf739\uf739\uf738)", "Smith, J. (1998)"),
        ("\uf8eb\uf8ed", "\uf8eb\uf8ed"),  # a bracket's pieces, also private use, stay as they are
    ],
)
def test_clean_text(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["Deep resid-", "ual learning"], "Deep residual learning"),
        (["state-of-the-", "art results"], "state-of-the-art results"),
        (["Jean-", "Pierre Dupont"], "Jean-Pierre Dupont"),
        (["https://doi.org/10.1000/", "abc.123"], "https://doi.org/10.1000/abc.123"),
        (["pages 10--", "20"], "pages 10--20"),
        (["https://example.org/a-", "long-path"], "https://example.org/a-long-path"),
        (["one", "two"], "one two"),
        # a web address broken inside its host name, after a dot
        (["URL https://doi.", "org/10.18637/jss.v052.i05."], "URL https://doi.org/10.18637/jss.v052.i05."),
        (
            ["http://www.kdd.", "org/News/view/award. (Accessed"],
            "http://www.kdd.org/News/view/award. (Accessed",
        ),
        (["URL http://www.", "jstatsoft.org/v33/i09."], "URL http://www.jstatsoft.org/v33/i09."),
        (["URL https://www.scopus.", "com/."], "URL https://www.scopus.com/."),
        (["URL http://arxiv.org/abs/1.", "Smith, J."], "URL http://arxiv.org/abs/1. Smith, J."),  # a path: no
        (["an end of sentence.", "org/x"], "an end of sentence. org/x"),
    ],
)
def test_join_lines(lines: list[str], joined: str) -> None:
    assert join_lines(lines) == joined


def _merge_by_scanning_all(lines: list[Line], any_gap: bool) -> list[Line]:
    """The baseline merge written as a scan of every merged line: what the banded version must equal."""
    merged: list[Line] = []
    for line in sorted(lines, key=lambda line: line.x0):
        for index in range(len(merged) - 1, -1, -1):
            if _joins(merged[index], line, any_gap):
                merged[index] = _joined(merged[index], line)
                break
        else:
            merged.append(line)
    return merged


@pytest.mark.parametrize("any_gap", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_banded_baseline_merge_equals_the_scan_of_every_line(seed: int, any_gap: bool) -> None:
    rng = random.Random(seed)
    lines = []
    for i in range(400):  # pieces of uneven heights on nearby baselines, some of them list markers
        y0 = rng.uniform(0, 200)
        size = rng.choice([6.0, 8.0, 10.0, 14.0])
        x0 = rng.uniform(0, 500)
        text = rng.choice(["[3]", "•", f"w{i}", f"word{i} more"])
        lines.append(Line(0, x0, y0, x0 + rng.uniform(3, 60), y0 + size * rng.uniform(0.8, 1.4), text, size,
                          rng.random() < 0.2, column=rng.choice([0, 0, 1])))  # fmt: skip
    assert _merge_same_baseline(lines, any_gap) == _merge_by_scanning_all(lines, any_gap)


# Ten lines of a column set to its measure in 12 pt.
_COLUMN_LINES = [
    "the evidence of these surveys across",
    "regions shows that labour markets in",
    "most countries changed after the crisis",
    "and that the effect of training was",
    "larger where unions had a strong role",
] * 2


def _justified(x: float, y: float, words: list[str], width: float, size: float = 10) -> list[Text]:
    """One line of words each placed on its own and spread to fill `width`, as a typesetter sets them."""
    lengths = [pymupdf.get_text_length(word, fontname="helv", fontsize=size) for word in words]
    gap = (width - sum(lengths)) / (len(words) - 1)
    pieces = []
    for word, length in zip(words, lengths, strict=True):
        pieces.append(Text(x, y, word, size))
        x += length + gap
    return pieces


def test_a_number_ending_a_justified_line_does_not_join_the_next_columns_line(tmp_path: Path) -> None:
    """A volume or a year that ends a justified line stands apart like a list marker ("92", "2011."); it
    must not reach across the gutter to the line beside it, which would make one line of two columns and
    read the rest of both columns out of order."""
    lines = [
        "Journal of Optimization Theory and Applications, 92",
        "an essay in the social history of the",
        "Review of Economic Studies, which gave",
        "Cambridge University Press, pages 2011.",
        "American Sociological Review, issue of",
    ] * 2
    left = [_justified(56, 100 + i * LINE, line.split(), 230) for i, line in enumerate(lines)]
    right = [Text(306, 100 + i * LINE, f"{50 + i}. AUTHOR, A. A title of entry {50 + i}.") for i in range(10)]
    texts = _texts(write_pdf(tmp_path / "justified.pdf", [[p for line in left for p in line] + right]))
    assert texts == lines + [f"{50 + i}. AUTHOR, A. A title of entry {50 + i}." for i in range(10)]


def test_a_gutter_narrower_than_a_word_space_of_the_larger_type_still_parts_the_columns(
    tmp_path: Path,
) -> None:
    """LaTeX's two-column article leaves 10 pt between columns; beside 12 pt type, with a hyphen protruding
    into it, that is 8 pt: less than the reach at which pieces join before columns are known, so every
    line joins across it; and a heading at the head of the right column, in larger type, must not join the
    left column's line beside it once columns are known."""
    lines = _COLUMN_LINES
    left = [_justified(56, 100 + i * 15, line.split(), 242, size=12) for i, line in enumerate(lines)]
    right = [Text(306, 100, "References", 14, True)]
    right += [Text(306, 100 + i * 15, f"[{i}] Author, A. Title {i}.", 12) for i in range(1, 10)]
    texts = _texts(write_pdf(tmp_path / "narrow.pdf", [[p for line in left for p in line] + right]))
    assert texts == lines + ["References"] + [f"[{i}] Author, A. Title {i}." for i in range(1, 10)]


def test_a_large_heading_set_out_to_its_column_does_not_join_the_heading_beside_it(tmp_path: Path) -> None:
    """A section heading in large type that wraps is set out to its column's measure, its word spaces
    stretched wider than LaTeX's 10 pt gutter; the next column's "References" beside it, as large, starts
    less than a word's space of that type away. The heading ends flush with its column: it is that
    column's line, and "References" opens the next column, where it can be found."""
    lines = _COLUMN_LINES
    heading = _justified(56, 100, ["4", "Analysis", "outcome", "time"], 242, size=17)
    body = [_justified(56, 130 + i * 15, line.split(), 242, size=12) for i, line in enumerate(lines)]
    right = [Text(306, 100, "References", 17, True)]
    right += [Text(306, 130 + i * 15, f"[{i}] Author, A. Title {i}.", 12) for i in range(1, 11)]
    pieces = heading + [piece for line in body for piece in line] + right
    texts = _texts(write_pdf(tmp_path / "headings.pdf", [pieces]))
    assert texts == ["4 Analysis outcome time", *lines, "References"] + [
        f"[{i}] Author, A. Title {i}." for i in range(1, 11)
    ]


def test_labels_standing_out_of_a_hanging_column_begin_that_column(tmp_path: Path) -> None:
    """A list set with hanging indents in the right column: its few first lines, labels and all, stand
    left of the many indented lines under them, in the strip that few lines cross; they begin the right
    column, where the gutter ends, and are not read as the left column's."""
    lines = [f"left column line {i:02d} with some words to fill its measure" for i in range(16)]
    left = [Text(56, 100 + i * LINE, line) for i, line in enumerate(lines)]
    right = []
    for entry in range(4):
        top = 100 + entry * 4 * LINE
        right.append(Text(306, top, f"[{entry + 1}] Author, A. and Other, B. A title"))
        right += [Text(326, top + k * LINE, f"of entry {entry + 1}, continued {k}") for k in range(1, 4)]
    texts = _texts(write_pdf(tmp_path / "hanging.pdf", [left + right]))
    assert texts == lines + [text.text for text in right]


def test_a_lone_label_standing_out_of_a_hanging_column_begins_that_column(tmp_path: Path) -> None:
    """The right column holds one entry of a list set with hanging indents, its label set apart in the
    strip that few lines cross and its text beside it at the indent: the label begins the right column and
    is not read as the left column's."""
    lines = [f"left column line {i:02d} with some words to fill its measure" for i in range(16)]
    left = [Text(56, 100 + i * LINE, line) for i, line in enumerate(lines)]
    right = [Text(306, 100, "[WSS21]"), Text(360, 100, "Wilson Wongso, David Samuel")]
    right += [Text(360, 100 + k * LINE, f"Setiawan, and Derwin Suhartono, line {k}") for k in range(1, 6)]
    texts = _texts(write_pdf(tmp_path / "lone-label.pdf", [left + right]))
    assert texts == [*lines, "[WSS21] Wilson Wongso, David Samuel", *(text.text for text in right[2:])]


def test_a_line_run_a_little_past_its_column_does_not_join_the_next_columns_line(tmp_path: Path) -> None:
    """A line of the left column overfull by under half a font size (a link that would not break), a word's
    space from the next column's line on its baseline: it ends at its column's edge, so it is no piece of a
    full-width line, and the columns keep their order."""
    lines = [f"left column line {i:02d} with some words to fill its measure" for i in range(12)]
    edge = 56 + pymupdf.get_text_length(lines[0], fontname="helv", fontsize=10)
    overfull = "4. URL https://aclanthology.org/2022."
    lines[6] = overfull
    overfull_x = edge + 2 - pymupdf.get_text_length(overfull, fontname="helv", fontsize=10)
    right_x = edge + 2 + 5.5  # a word's space after the overfull line's end
    left = [Text(overfull_x if i == 6 else 56, 100 + i * LINE, text) for i, text in enumerate(lines)]
    right = [Text(right_x, 100 + i * LINE, f"[{17 + i}] Tahmid Hasan, Abhik {i}") for i in range(12)]
    texts = _texts(write_pdf(tmp_path / "overfull-by-a-little.pdf", [left + right]))
    assert texts == lines + [text.text for text in right]


def test_a_link_run_into_the_next_columns_indent_does_not_join_its_line(tmp_path: Path) -> None:
    """A link of the left column runs a line's indent into the right column, ending a word's space before
    that column's indented line on its baseline: it keeps its column (one token past the gutter), and a
    line run past its column's edge joins no line of the next."""
    url = "https://storage.googleapis.com/openimages/web/index.html,"
    url_end = 56 + pymupdf.get_text_length(url, fontname="helv", fontsize=10)
    lines = [f"left column line {i:02d} with some words" for i in range(12)]
    lines[7] = url  # beside an indented line of the right column, whose odd lines are indented
    indent = url_end + 1.7
    assert 306 < url_end < indent < 306 + 4 * 10
    left = [Text(56, 100 + i * LINE, text) for i, text in enumerate(lines)]
    right = [
        Text(306 if i % 2 == 0 else indent, 100 + i * LINE, f"right column line {i} with words")
        for i in range(12)
    ]
    texts = _texts(write_pdf(tmp_path / "link-into-indent.pdf", [left + right]))
    assert texts == lines + [text.text for text in right]


def test_a_line_of_several_words_printed_over_the_next_column_stays_in_its_own(tmp_path: Path) -> None:
    """A narrow column's overfull line ("transformation-based" cannot break) runs two words past the gutter,
    printed over the next column's line on its baseline: no line is set over another, so it is its
    column's line, however many words run past, and the page is not cut in two there."""
    overfull = "[12] L. Ramshaw, M. Marcus, Text chunking, transformation-based learning,"
    end = 56 + pymupdf.get_text_length(overfull, fontname="helv", fontsize=10)
    assert end > 306 + 2 * 10
    left = [f"left column line {i:02d} with some words" for i in range(12)]
    left[6] = overfull
    right = [f"right column line {i} with words" for i in range(12)]
    pieces = [Text(56, 100 + i * LINE, text) for i, text in enumerate(left)]
    pieces += [Text(306, 100 + i * LINE, text) for i, text in enumerate(right)]
    assert _texts(write_pdf(tmp_path / "overfull-words.pdf", [pieces])) == left + right


def test_labels_each_a_piece_beside_a_hanging_columns_text_are_no_column_of_their_own(tmp_path: Path) -> None:
    """The right column's list set with hanging alpha labels, each label a piece of its own well left of
    its entry's text, the wrapped lines at the text's indent: the labels, of many widths, leave a strip
    blank between them and the text, as a gutter does, but a column of labels alone is none; each label
    begins its entry's first line."""
    lines = [f"left column line {i:02d} with some words to fill its measure" for i in range(16)]
    left = [Text(56, 100 + i * LINE, line) for i, line in enumerate(lines)]
    labels = ["[EAS+24]", "[Har14]", "[IJ17]", "[MEJ+]", "[FGP+22]", "[Pop15]", "[TKV23]", "[IYC17]"]
    right, expected = [], []
    for k, label in enumerate(labels):
        top = 100 + 2 * k * LINE
        right += [Text(306, top, label), Text(366, top, f"Author {k}, A title of entry")]
        right.append(Text(366, top + LINE, f"its venue, 20{10 + k}."))
        expected += [f"{label} Author {k}, A title of entry", f"its venue, 20{10 + k}."]
    texts = _texts(write_pdf(tmp_path / "label-pieces.pdf", [left + right]))
    assert texts == lines + expected


def test_a_list_in_two_columns_under_a_section_in_one_is_read_column_by_column(tmp_path: Path) -> None:
    """A word processor's section with two columns below text in one: the full-width lines cross the
    gutter, so the page as a whole shows none; the band under the last full-width line shows its own, and
    is read column by column, after the text above it."""
    text = body(1)[0].text
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=10)
    above = [Text(72, 100 + i * LINE, text) for i in range(24)]
    heading = Text(72, 100 + 25 * LINE, "Bibliography", 12, True)
    right_x = 72 + width / 2 + 10
    left = [Text(72, 100 + (27 + i) * LINE, f"Left entry {i}, a line") for i in range(8)]
    right = [Text(right_x, 100 + (27 + i) * LINE, f"Right entry {i}, a line") for i in range(8)]
    texts = _texts(write_pdf(tmp_path / "banded.pdf", [[*above, heading, *right, *left]]))
    assert texts == [text] * 24 + ["Bibliography"] + [t.text for t in left] + [t.text for t in right]


def test_a_list_in_two_columns_of_three_rows_under_a_section_in_one_is_read_column_by_column(
    tmp_path: Path,
) -> None:
    """The last three rows of a list in two columns, over an author's note in one column (or the first
    three at a page's foot): too few rows for a page's gutter, but each column begins at an edge, so the
    band is read column by column, not row across row."""
    text = body(1)[0].text
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=10)
    above = [Text(72, 100 + i * LINE, text) for i in range(12)]
    right_x = 72 + width / 2 + 10
    left = [Text(72, 100 + (13 + i) * LINE, f"Left entry {i}, a line") for i in range(3)]
    right = [Text(right_x, 100 + (13 + i) * LINE, f"Right entry {i}, a line") for i in range(3)]
    note = Text(72, 100 + 18 * LINE, "About the Author", 12, True)
    texts = _texts(write_pdf(tmp_path / "three-rows.pdf", [[*above, *left, *right, note]]))
    assert texts == [text] * 12 + [t.text for t in left] + [t.text for t in right] + ["About the Author"]


def test_a_heading_under_a_section_in_columns_follows_the_columns(tmp_path: Path) -> None:
    """Under a list set in a two-column section, an appendix heading in one column opens the text after
    the section: it is read after both columns, not at the end of the first."""
    text = body(1)[0].text
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=10)
    above = [Text(72, 100 + i * LINE, text) for i in range(10)]
    left = [Text(72, 100 + (11 + i) * LINE, f"Left entry {i}, a line") for i in range(6)]
    right = [Text(72 + width / 2 + 10, 100 + (11 + i) * LINE, f"Right entry {i}, a line") for i in range(6)]
    heading = Text(72, 100 + 19 * LINE, "Appendix A", 12, True)
    below = [Text(72, 100 + (21 + i) * LINE, text) for i in range(5)]
    texts = _texts(write_pdf(tmp_path / "after-columns.pdf", [[*above, *left, *right, heading, *below]]))
    assert (
        texts == [text] * 10 + [t.text for t in left] + [t.text for t in right] + ["Appendix A"] + [text] * 5
    )


def test_the_longer_first_column_of_a_balanced_section_stays_in_its_column(tmp_path: Path) -> None:
    """Balanced columns (a word processor's section, CSS columns) leave the first column a line longer
    than the second: that line, at the column's pitch under the one before, ends the first column, before
    the second is read; the heading after the section, set apart, still follows both."""
    text = body(1)[0].text
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=10)
    above = [Text(72, 100 + i * LINE, text) for i in range(10)]
    pitch = 2 * LINE  # double-spaced: the longer column's last line starts below the other's last ends
    left = [Text(72, 100 + 11 * LINE + i * pitch, f"Left entry {i}, a line") for i in range(7)]
    right = [Text(72 + width / 2 + 10, 100 + 11 * LINE + i * pitch, f"Right {i}, a line") for i in range(6)]
    heading = Text(72, 100 + 11 * LINE + 9 * pitch, "Appendix A", 12, True)
    below = [Text(72, 100 + 11 * LINE + 10 * pitch + i * LINE, text) for i in range(5)]
    texts = _texts(write_pdf(tmp_path / "balanced.pdf", [[*above, *left, *right, heading, *below]]))
    assert (
        texts == [text] * 10 + [t.text for t in left] + [t.text for t in right] + ["Appendix A"] + [text] * 5
    )


def test_a_heading_under_balanced_columns_on_a_page_in_columns_follows_both(tmp_path: Path) -> None:
    """A list in CSS columns fills a page from its top, the columns ending together; the appendix's
    heading under them, short and in bold, stands in the first column's place, its text running across
    the page under it: it is read after both columns, not as the first column's end, which would end the
    list before the second column."""
    left = [Text(72, 100 + i * LINE, f"left entry line {i}, some words") for i in range(8)]
    right = [Text(320, 100 + i * LINE, f"right entry line {i}, some words") for i in range(8)]
    heading = Text(72, 100 + 10 * LINE, "Appendix A. Results", 12, True)
    text = "The appendix opens with a paragraph whose lines run across the whole width of the page here."
    after = [Text(72, 100 + (12 + i) * LINE, text) for i in range(3)]
    texts = _texts(write_pdf(tmp_path / "under.pdf", [[*left, *right, heading, *after]]))
    assert texts == [t.text for t in left] + [t.text for t in right] + [heading.text] + [text] * 3


def test_a_heading_low_in_the_first_column_beside_a_short_second_column_stays_in_its_column(
    tmp_path: Path,
) -> None:
    """A list that opens low in the first column, under a bold part heading, goes on at the top of the
    second, which ends high up: the part heading stands below every line of the second column, but the
    columns do not end together, so it stays in its column, before the entries under it."""
    body_lines = [Text(72, 100 + i * LINE, f"body text line {i} of the section") for i in range(20)]
    heading = Text(72, 100 + 22 * LINE, "Books and articles", 10, True)
    entries = [Text(72, 100 + (23 + i) * LINE, f"[{i + 1}] Author, A. A title {i + 1}.") for i in range(6)]
    right = [Text(320, 100 + i * LINE, f"[{i + 7}] Author, B. A title {i + 7}.") for i in range(5)]
    texts = _texts(write_pdf(tmp_path / "low.pdf", [[*body_lines, heading, *entries, *right]]))
    assert texts == [t.text for t in [*body_lines, heading, *entries, *right]]


def test_a_heading_low_in_the_first_column_with_its_text_under_it_stays_in_its_column(
    tmp_path: Path,
) -> None:
    """A section heading low in the first column, set apart, its text going on under it, while the second
    column's text (the same section's end) stops level with the first column's text above the heading:
    the heading keeps with its text, in its column, before the second column."""
    left = [Text(72, 100 + i * LINE, f"left text line {i}, some words") for i in range(8)]
    heading = Text(72, 100 + 10 * LINE, "ACKNOWLEDGMENTS", 10, True)
    thanks = [Text(72, 100 + (11 + i) * LINE, f"we thank the reviewers, line {i}") for i in range(3)]
    right = [Text(320, 100 + i * LINE, f"right text line {i}, some words") for i in range(8)]
    texts = _texts(write_pdf(tmp_path / "acknowledgments.pdf", [[*left, heading, *thanks, *right]]))
    assert texts == [t.text for t in [*left, heading, *thanks, *right]]


def test_a_section_heading_in_a_full_column_stays_in_its_column(tmp_path: Path) -> None:
    """A LaTeX page in two full columns: a section heading in larger bold type, wrapped onto a second line
    set well apart, stands in the first column while the second column's text goes on beside and under
    it; it is a heading inside its column, read in its place."""
    left = [Text(72, 100 + i * LINE, f"left text line {i}, some words") for i in range(10)]
    heading = [
        Text(72, 100 + 11.5 * LINE, "3 Effects of", 14, True),
        Text(90, 100 + 13.1 * LINE, "training", 14, True),
    ]
    below = [Text(72, 100 + (15 + i) * LINE, f"left text below {i}, some words") for i in range(10)]
    # the second column breaks a paragraph beside the heading, then goes on under it
    right = [Text(320, 100 + i * LINE, f"right text line {i}, some words") for i in range(12)]
    right += [Text(320, 100 + (14.5 + i) * LINE, f"right text on {i}, some words") for i in range(10)]
    texts = _texts(write_pdf(tmp_path / "section.pdf", [[*left, *heading, *below, *right]]))
    assert texts == [t.text for t in [*left, *heading, *below, *right]]


def test_a_heading_set_far_above_its_list_in_the_first_column_stays_in_its_column(tmp_path: Path) -> None:
    """LaTeX sets "References" in the first column with more than a line and a half of space under it,
    the second column (the list's end) stopping level with the first column's text above the heading:
    what follows the heading is its list, not a page number, so the heading stays in its column."""
    left = [Text(72, 100 + i * LINE, f"left text line {i}, some words") for i in range(10)]
    heading = Text(72, 100 + 11.5 * LINE, "References", 14, True)
    entries = [Text(72, 100 + (13.8 + i) * LINE, f"[{i + 1}] Author, A. Title {i + 1}.") for i in range(8)]
    right = [Text(320, 100 + i * LINE, f"right column line {i}, some words") for i in range(10)]
    texts = _texts(write_pdf(tmp_path / "far-heading.pdf", [[*left, heading, *entries, *right]]))
    assert texts == [t.text for t in [*left, heading, *entries, *right]]


def test_the_words_of_one_stretched_line_are_no_band_in_columns(tmp_path: Path) -> None:
    """A justified line stretched so far that each word is a piece of its own, with the short last line of
    its paragraph under it, between full-width lines: its words stand on both sides of a blank strip, but
    on one row; the page is read line by line."""
    text = body(1)[0].text
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=10)
    above = [Text(72, 100 + i * LINE, text) for i in range(10)]
    words = ["Leslie.", "Gaussian", "processes", "on", "hypergraphs.", "arXiv", "preprint", "today"]
    stretched = _justified(72, 100 + 10 * LINE, words, width)
    last = Text(72, 100 + 11 * LINE, "arXiv:2106.01982, 2021.")
    below = [Text(72, 100 + (12 + i) * LINE, text) for i in range(10)]
    texts = _texts(write_pdf(tmp_path / "stretched.pdf", [[*above, *stretched, last, *below]]))
    assert texts == [text] * 10 + [" ".join(words), last.text] + [text] * 10


def test_justified_lines_stretched_row_after_row_are_no_band_in_columns(tmp_path: Path) -> None:
    """Five justified lines in a row, each stretched so far that its words are pieces of their own, whose
    word spaces happen to leave one strip blank on every row (the short last page of a list in one
    column): on each side of it stand five rows, as in a band set in two columns, but the rows right of
    the strip begin wherever the stretching put their words, at no column's edge; the page is read line
    by line."""
    text = "the evidence of these surveys across the regions shows"
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=10)
    rows = [
        ["Thompson,", "Michael", "E. and others"],
        ["nonostensive", "contexts.", "Developmental"],
        ["Technology:", "basics,", "and modelling"],
        ["Proceedings", "of the", "Royal Society"],
        ["Cambridge,", "Mass.:", "Harvard Press"],
    ]
    above = [Text(72, 100 + i * LINE, text) for i in range(6)]
    stretched = [_justified(72, 100 + (6 + i) * LINE, words, width) for i, words in enumerate(rows)]
    below = [Text(72, 100 + (11 + i) * LINE, text) for i in range(6)]
    pieces = [*above, *(piece for row in stretched for piece in row), *below]
    texts = _texts(write_pdf(tmp_path / "stretched-rows.pdf", [pieces]))
    assert texts == [text] * 6 + [" ".join(words) for words in rows] + [text] * 6


def test_the_blank_line_between_double_spaced_entries_does_not_cut_the_columns(tmp_path: Path) -> None:
    """A double-spaced list in two columns with a blank line between entries: the strip blank across both
    columns between two entries is taller than three lines of type, but no taller than the blank line of a
    double-spaced page; the columns are read one after the other, not entry row by entry row."""
    left: list[Text] = []
    right: list[Text] = []
    for entry in range(4):
        for k in range(3):
            y = 100 + (entry * 4 + k) * 28
            left.append(Text(72, y, f"left entry {entry}, line {k}"))
            right.append(Text(320, y, f"right entry {entry}, line {k}"))
    texts = _texts(write_pdf(tmp_path / "double-spaced.pdf", [left + right]))
    assert texts == [t.text for t in left] + [t.text for t in right]


def test_wide_labels_beside_the_previous_columns_lines_begin_their_column(tmp_path: Path) -> None:
    """Alpha labels ("[KKS22]") of a right column set with hanging indents, LaTeX's 10 pt from the left
    column, less a protruding hyphen: before columns are known each label joins the left column's line
    beside it, so no joined line starts where the labels do. The pieces show where the right column begins:
    the labels begin it and stay with their entries."""
    sentences = [
        "the evidence of these surveys across all",
        "regions shows that labour markets in",
        "most countries changed after the crisis",
        "and that the effect of training was larger",
    ]
    lines = [sentences[i % 4] + ("-" if i % 3 == 0 else "") for i in range(16)]
    left = [
        piece
        for i, line in enumerate(lines)
        for piece in _justified(56, 100 + i * 15, line.split(), 246 if line.endswith("-") else 242, 12)
    ]
    right: list[Text] = []
    expected: list[str] = []
    for entry in range(4):
        top = 100 + entry * 4 * 15
        label = f"[{'ABCD'[entry]}KS2{entry}]"
        right += [Text(306, top, label, 12), Text(356, top, "Author, A. and Other, B.", 12)]
        continued = [f"title of entry {entry + 1}, line {k}" for k in range(1, 4)]
        right += [Text(356, top + k * 15, text, 12) for k, text in enumerate(continued, start=1)]
        expected += [f"{label} Author, A. and Other, B.", *continued]
    texts = _texts(write_pdf(tmp_path / "wide-labels.pdf", [left + right]))
    assert texts == lines + expected


def test_the_longest_line_of_a_ragged_left_column_stays_in_its_column(tmp_path: Path) -> None:
    """Most lines of a ragged column end well short of its measure, so the strip few lines cross begins
    before the gutter does; a line filling the measure ends in that strip, not in the next column."""
    short = "a shorter line of the left column"
    left = [
        Text(
            56,
            100 + i * LINE,
            "a longer line of the left column, filling its measure" if i % 4 == 3 else short,
        )
        for i in range(12)
    ]
    right = [Text(306, 100 + i * LINE, f"right column line {i} with words") for i in range(12)]
    texts = _texts(write_pdf(tmp_path / "ragged.pdf", [left + right]))
    assert texts == [text.text for text in left] + [text.text for text in right]


@pytest.mark.parametrize("beside", [12, 4])
def test_a_long_url_overrunning_its_column_stays_in_it(tmp_path: Path, beside: int) -> None:
    """A URL that cannot be broken runs out of its column over the gutter, under the next column's text or
    where that column has none (an overfull line): one token past the gutter is no full-width line, and the
    page's columns keep their order."""
    url = "http://www.pbs.org/newshour/bb/vermont-city-come-rely-100-percent-renewable-energy/"
    left = [f"left column line {i} with enough words" for i in range(12)]
    left[6] = url
    right = [f"right column line {i} with words" for i in range(beside)]
    pieces = [Text(56, 100 + i * LINE, text) for i, text in enumerate(left)]
    pieces += [Text(306, 100 + i * LINE, text) for i, text in enumerate(right)]
    assert _texts(write_pdf(tmp_path / "overfull.pdf", [pieces])) == left + right


def test_a_url_printed_over_the_next_column_stays_in_its_own(tmp_path: Path) -> None:
    """A URL running only two ems past the gutter, printed over the next column's line on its baseline: no
    full-width line is set over another line, so it stays in its column and the columns keep their order."""
    url = "http://ojs.lib.swin.edu.au/index.php/ejap/article/view/71/100/2017"
    left = [f"left column line {i} with enough words" for i in range(12)]
    left[6] = url
    right = [f"right column line {i} with words" for i in range(12)]
    pieces = [Text(56, 100 + i * LINE, text) for i, text in enumerate(left)]
    pieces += [Text(306, 100 + i * LINE, text) for i, text in enumerate(right)]
    url_end = 56 + pymupdf.get_text_length(url, fontname="helv", fontsize=10)
    assert 306 < url_end < 306 + 4 * 10  # over the next column's text, less than four ems into it
    assert _texts(write_pdf(tmp_path / "overprinted.pdf", [pieces])) == left + right


@pytest.mark.parametrize(
    ("last", "in_its_column"),
    [
        ("DOI:https://dx.doi.org/10.1076/csed.13.2.137.14200/full", True),
        ("a line of words that runs on until it ends just past the gutter", False),
    ],
)
def test_a_link_ending_just_past_the_gutter_beside_no_text_stays_in_its_column(
    tmp_path: Path, last: str, in_its_column: bool
) -> None:
    """A link that cannot be broken ends a little (under four ems) past the gutter where the next column has
    no text: one token eight ems long or more is no full-width line, and the columns keep their order. A
    line of words ending there is read across the page, between what is above it and what is below."""
    end = 68 + pymupdf.get_text_length(last, fontname="helv", fontsize=10)
    assert 306 < end < 306 + 4 * 10
    left = [f"left column line {i} with enough words" for i in range(12)]
    right = [f"right column line {i} with words" for i in range(4)]
    pieces = [Text(56, 100 + i * LINE, text) for i, text in enumerate(left)]
    pieces.append(Text(68, 100 + 12 * LINE, last))
    pieces += [Text(56, 100 + i * LINE, text) for i, text in enumerate(left, start=13)]
    pieces += [Text(306, 100 + i * LINE, text) for i, text in enumerate(right)]
    texts = _texts(write_pdf(tmp_path / "link-past-gutter.pdf", [pieces]))
    expected = [*left, last, *left, *right] if in_its_column else [*left, *right, last, *left]
    assert texts == expected


def test_a_full_width_footnote_ending_in_a_link_just_past_the_gutter_stays_across_the_page(
    tmp_path: Path,
) -> None:
    """A footnote under both columns whose first line ends in a link a little past the gutter: full-width
    lines go on under it, not the column's, so it is read across the page after both columns."""
    note = "For more, see http://old.example.org/en/milestones-1938-1989"
    end = 56 + pymupdf.get_text_length(note, fontname="helv", fontsize=10)
    assert 306 < end < 306 + 4 * 10
    wide = "a full-width footnote line that runs on from the left margin across the gutter to the right one"
    left = [f"left column line {i} with enough words" for i in range(12)]
    right = [f"right column line {i} with words" for i in range(12)]
    pieces = [Text(56, 100 + i * LINE, text) for i, text in enumerate(left)]
    pieces += [Text(306, 100 + i * LINE, text) for i, text in enumerate(right)]
    pieces += [Text(56, 100 + (13 + i) * LINE, text) for i, text in enumerate([note, wide, wide])]
    texts = _texts(write_pdf(tmp_path / "footnote-link.pdf", [pieces]))
    assert texts == [*left, *right, note, wide, wide]


def test_a_url_touching_the_next_columns_first_letter_stays_in_its_column(tmp_path: Path) -> None:
    """An overfull URL whose full stop ends half a point past where the next column's line begins, on its
    baseline: the two touch but no space parts them, so they are no full-width line set in pieces, and
    the columns keep their order."""
    url = "http://www.aclweb.org/anthology/W/W14/W14-3302."
    url_x = 306.6 - pymupdf.get_text_length(url, fontname="helv", fontsize=10)
    assert 56 < url_x < 56 + 3 * 10  # set in its column, at an entry's indent
    left = [f"left column line {i} with enough words" for i in range(12)]
    right = [f"right column line {i} with words" for i in range(12)]
    pieces = [
        Text(url_x if i == 6 else 56, 100 + i * LINE, url if i == 6 else text) for i, text in enumerate(left)
    ]
    pieces += [Text(306, 100 + i * LINE, text) for i, text in enumerate(right)]
    left[6] = url
    assert _texts(write_pdf(tmp_path / "touching.pdf", [pieces])) == left + right


def test_two_stretched_rows_whose_words_stand_at_two_heights_are_no_band_in_columns() -> None:
    """Three justified lines of an entry stretched round a link that would not break, each word a piece of
    its own (a DVI driver places every word), between full-width lines, on a page where an overfull URL
    runs far into the right margin (the boxes of a real PDF, 9 pt, its short lines among them): their word
    spaces leave strips blank on the rows, and right of the first only two rows stand, the second's words
    at two heights a tenth of a point apart, either side of a whole point. Those are two rows, not the
    three a band in columns needs on each side: the page is read line by line."""
    rows = [
        [
            *[
                (125.8, 155.5, "Andika"),
                (165.6, 196.9, "William"),
                (207.0, 222.1, "and"),
                (232.2, 258.0, "Yunita"),
            ],
            *[
                (268.0, 285.6, "Sari."),
                (313.8, 347.7, "Click-id:"),
                (366.1, 373.1, "A"),
                (383.1, 405.2, "novel"),
            ],
            *[(415.2, 443.6, "dataset"), (453.7, 465.1, "for"), (475.1, 485.9, "in-")],
        ],
        [
            *[(136.6, 172.6, "donesian"), (182.1, 215.2, "clickbait"), (224.7, 264.9, "headlines.")],
            *[
                (291.2, 309.2, "Data"),
                (318.6, 326.1, "in"),
                (335.5, 355.2, "Brief,"),
                (366.5, 406.8, "32:106231,"),
            ],
            *[(418.1, 438.3, "2020."), (464.6, 484.5, "ISSN")],
        ],
        [
            (136.6, 177.7, "2352-3409."),
            (216.5, 231.7, "doi:"),
            (256.7, 427.5, "https://doi.org/10.1016/j.dib.2020.10."),
            (466.3, 484.7, "URL"),
        ],
    ]
    text = "Bushra Jawaid and Daniel Zeman. Word-order issues in English-to-Urdu statistical machine"
    url = (
        "https://science.lpnu.ua/sisn/all-volumes-and-issues/volume-17-2025/sed-ua-small-ukrainian-synthetic"
    )

    def line(x0: float, x1: float, y: float, words: str) -> Line:
        return Line(0, x0, y, x1, y + 9.0, words, 9.0, False)

    above = [line(125.8, 484.5, 100 + i * 11, text) for i in range(7)] + [
        line(136.6, 205.0, 177, "translation. 2011.")
    ]
    # The second row's pieces stand at two heights a tenth of a point apart, as they do in the PDF.
    shifted = {"Data", "in", "Brief,"}
    stretched = [
        line(x0, x1, 188.5 + i * 11 - (0.06 if word in shifted else 0), word)
        for i, row in enumerate(rows)
        for x0, x1, word in row
    ]
    below = [line(136.6, 616.2, 221, url), *(line(125.8, 484.5, 232 + i * 11, text) for i in range(8))]
    lines, _ = reading_order([*above, *stretched, *below])
    assert [line.text for line in lines] == [
        *[text] * 7,
        "translation. 2011.",
        *(" ".join(word for *_, word in row) for row in rows),
        url,
        *[text] * 8,
    ]


def test_the_pieces_of_a_row_between_bands_in_columns_are_read_left_to_right(tmp_path: Path) -> None:
    """Above a list set in two columns (a band the page reads column by column), two full-width lines each
    in two pieces a font size apart or more (a DVI driver places every word; these pieces are too far
    apart to join before columns are known), the second piece of the second line set a tenth of a point
    higher than its first, and a full-width line under them: the pieces of each row are read left to
    right, row after row."""
    text = body(1)[0].text
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=10)
    first = ["Kenton Lee, Ming-Wei Chang, and Kristina Toutanova, with others.", "Latent retrieval for su-"]
    second = ["pervised open domain question answering and retrieval.", "In Proceedings of the 57th"]
    y = 100 + 20 * LINE
    pieces = [Text(72, 100 + i * LINE, text) for i in range(20)]
    for row, (left, right) in enumerate((first, second)):
        left_end = 72 + pymupdf.get_text_length(left, fontname="helv", fontsize=10)
        assert left_end > 72 + 0.6 * width  # across the middle of the page: a full-width line
        pieces += [Text(72, y + row * LINE, left), Text(left_end + 12, y + row * LINE - 0.1 * row, right)]
    after = "ing of the Association for Computational Linguistics, pages 6086-6096, Florence, Italy, 2019."
    pieces.append(Text(72, y + 2 * LINE, after))
    heading = Text(72, 100 + 23 * LINE, "Bibliography", 12, True)
    right_x = 72 + width / 2 + 10
    left = [Text(72, 100 + (25 + i) * LINE, f"Left entry {i}, a line") for i in range(8)]
    right = [Text(right_x, 100 + (25 + i) * LINE, f"Right entry {i}, a line") for i in range(8)]
    texts = _texts(write_pdf(tmp_path / "between-bands.pdf", [[*pieces, heading, *right, *left]]))
    assert texts == [text] * 20 + [
        *first,
        *second,
        after,
        "Bibliography",
        *(t.text for t in left),
        *(t.text for t in right),
    ]


def test_a_raised_circled_digit_stays_in_the_text_rather_than_becoming_a_footnote_number() -> None:
    # "①" is a digit to str.isdigit, but no number: a footnote numbered so once failed with ValueError.
    spans = [
        {"text": "①", "size": 6.0, "flags": 1, "font": "Song"},
        {"text": "Smith, J. 2001. A title. Journal 3: 1-9.", "size": 9.0, "flags": 0, "font": "Song"},
    ]
    line = _line_from_spans(0, (72, 700, 400, 710), spans)
    assert line is not None and line.marker == "" and line.text.startswith("①")
    numbered = _line_from_spans(0, (72, 700, 400, 710), [{**spans[0], "text": "12"}, spans[1]])
    assert numbered is not None and numbered.marker == "12"
