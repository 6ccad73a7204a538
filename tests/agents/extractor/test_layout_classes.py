"""Layout classes that once cost whole reference lists, each built as a real PDF with PyMuPDF: line numbers
down the margin, back matter after the list (editorial dates, contact blocks, order forms, biographies), a
table's "Sources" after the real "Bibliography" whose entries open with family names in capitals, a short
hanging-indent list whose entries open in mixed shapes."""

from __future__ import annotations

import statistics
import textwrap
from collections.abc import Collection
from pathlib import Path

import pytest

from refhound.agents.extractor import extract_pdf
from refhound.agents.extractor.section import _float_at
from refhound.agents.extractor.segment import _gap_opener, _narrower_group
from refhound.pdf.layout import Line
from tests.agents.extractor.pdfmaker import LINE, Text, body, column, entry_lines, write_pdf

ENTRIES = [  # two lines each, the second indented (hanging indents)
    ("Abel, K. (2012). Works councils and collective bargaining in Germany.", "Berlin: Duncker und Humblot."),
    (
        "Bauer, A. (1998). Social policy and the welfare state in comparison.",
        "Journal of Social Policy 12: 1-20.",
    ),
    ("Keller, B. and Weber, T. (2005). Trade unions in transition. London:", "Routledge."),
    ("Müller, H. (2001). The governance of regional labour markets. Berlin:", "Campus Verlag."),
    ("Zimmer, E. (2010). Migration and integration in European cities.", "Opladen: Leske und Budrich."),
]
RAWS = [f"{first} {second}" for first, second in ENTRIES]


def _hanging(entries: list[tuple[str, str]], x: float, y: float) -> list[Text]:
    pieces = []
    for i, (first, second) in enumerate(entries):
        pieces += [Text(x, y + 2 * i * LINE, first), Text(x + 14, y + (2 * i + 1) * LINE, second)]
    return pieces


def _numbered_margin(pieces: list[Text], start: int) -> list[Text]:
    """A proof's line numbers: one right-aligned number beside every line slot, 26 pt left of the text."""
    baselines = sorted({piece.y for piece in pieces})
    first, last = baselines[0], baselines[-1]
    slots = int((last - first) / LINE) + 1
    numbers = []
    for slot in range(slots):
        label = str(start + slot)
        numbers.append(Text(46 - 5.6 * len(label), first + slot * LINE, label))
    return numbers


def test_line_numbers_down_the_margin_are_removed_before_segmentation(tmp_path: Path) -> None:
    first_page = body(50)
    heading = Text(72, 90, "References", size=12, bold=True)
    second_page = [heading, *_hanging(ENTRIES, 72, 90 + 2 * LINE)]
    pages = [
        [*first_page, *_numbered_margin(first_page, 1)],
        [*second_page, *_numbered_margin(second_page, 51)],
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "proof.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS
    assert any("line numbers" in warning for warning in extraction.warnings)


def _numbers_beside(pieces: list[Text], start: int, x: float, align: str) -> list[Text]:
    """A number beside every line of `pieces`, counting up from `start`, at `x`: its left edge ("left") or
    its right edge ("right"); 10 pt, so that numbers of one and two digits end 5.6 pt apart."""
    numbers = []
    for i, baseline in enumerate(sorted({piece.y for piece in pieces})):
        label = str(start + i)
        numbers.append(Text(x if align == "left" else x - 5.6 * len(label), baseline, label))
    return numbers


def test_left_aligned_line_numbers_are_removed_from_one_to_two_digits(tmp_path: Path) -> None:
    # Numbers 1-9 and 10-60 share their left edge, not their right one: both runs are the margin's.
    heading = Text(72, 90, "References", size=12, bold=True)
    list_page = [heading, *_hanging(ENTRIES, 72, 90 + 2 * LINE)]
    first_page = body(50)
    pages = [
        [*first_page, *_numbers_beside(first_page, 1, 36, "left")],
        [*list_page, *_numbers_beside(list_page, 1, 36, "left")],
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "left.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS


def test_left_aligned_line_numbers_of_a_page_of_ten_lines_go_from_one_to_ten(tmp_path: Path) -> None:
    # The list's page has ten lines numbered 1-10 at their left edge: the right edges of 1-9 make a column
    # of their own, and 10 is alone at its right edge; the column of the left edge, 1-10, is the larger one
    # and wins, and 10 no longer joins the line it stands beside.
    list_page = [*body(1, y=78), Text(72, 90, "References", size=12, bold=True)]
    list_page += _hanging(ENTRIES[:4], 72, 90 + LINE)
    first_page = body(50)
    pages = [
        [*first_page, *_numbers_beside(first_page, 1, 36, "left")],
        [*list_page, *_numbers_beside(list_page, 1, 36, "left")],
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "ten.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS[:4]


def _entries(entries: list[list[str]], x: float, y: float) -> list[Text]:
    """Entries one under the other, every line after an entry's first indented."""
    pieces = []
    for lines in entries:
        for i, line in enumerate(lines):
            pieces.append(Text(x + (14 if i else 0), y, line))
            y += LINE
    return pieces


def test_a_two_column_review_copy_loses_the_numbers_of_both_outer_margins(tmp_path: Path) -> None:
    # A conference's review copy: the left column numbered in the left margin, the right column in the right
    # margin, the count running on from one column to the next.
    def page(left: list[Text], right: list[Text], start: int) -> list[Text]:
        count = len({piece.y for piece in left})
        return [
            *left,
            *right,
            *_numbers_beside(left, start, 50, "right"),
            *_numbers_beside(right, start + count, 530, "left"),
        ]

    left = body(55, x=72, width_chars=38)
    right = body(55, x=310, width_chars=38)
    narrow = [textwrap.wrap(raw, 40) for raw in RAWS]  # each entry in lines that fit a column
    list_left = [Text(72, 100, "References", size=12, bold=True), *_entries(narrow[:3], 72, 100 + 2 * LINE)]
    list_right = _entries(narrow[3:], 310, 100)
    pages = [page(left, right, 1), page(list_left, list_right, 200)]
    extraction = extract_pdf(write_pdf(tmp_path / "review.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS
    assert any("line numbers" in warning for warning in extraction.warnings)


def test_line_numbers_set_in_the_gutter_go_with_the_run_they_continue(tmp_path: Path) -> None:
    # LaTeX's lineno may set the numbers of a column's first lines beside its right edge, in the gutter,
    # when it misjudges the column they stand in: "200" and "201" there, 202 on down the left margin.
    def page(left: list[Text], right: list[Text], start: int, strays: int) -> list[Text]:
        count = len({piece.y for piece in left})
        numbers = _numbers_beside(left, start, 50, "right")
        moved = [Text(292, number.y, number.text) for number in numbers[:strays]]
        return [*left, *right, *moved, *numbers[strays:], *_numbers_beside(right, start + count, 530, "left")]

    left = body(55, x=72, width_chars=38)
    right = body(55, x=310, width_chars=38)
    narrow = [textwrap.wrap(raw, 40) for raw in RAWS]
    list_left = [Text(72, 100, "References", size=12, bold=True), *_entries(narrow[:3], 72, 100 + 2 * LINE)]
    list_right = _entries(narrow[3:], 310, 100)
    pages = [page(left, right, 1, 0), page(list_left, list_right, 200, 2)]
    extraction = extract_pdf(write_pdf(tmp_path / "gutter-numbers.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS


def test_a_one_page_piece_with_line_numbers_loses_them(tmp_path: Path) -> None:
    heading = Text(72, 100 + 22 * LINE, "References", size=12, bold=True)
    text = [*body(20), heading, *_hanging(ENTRIES, 72, 100 + 24 * LINE)]
    pages = [[*text, *_numbers_beside(text, 1, 50, "right")]]
    extraction = extract_pdf(write_pdf(tmp_path / "one-page.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS


def test_a_two_page_piece_numbered_beside_most_lines_of_its_first_page_loses_them(tmp_path: Path) -> None:
    # The second page holds the list's last entries only: too few numbers there to be a column of their own.
    heading = Text(72, 100 + 44 * LINE, "References", size=12, bold=True)
    first = [*body(42), heading, *_hanging(ENTRIES[:2], 72, 100 + 46 * LINE)]
    second = _hanging(ENTRIES[2:], 72, 100)
    pages = [
        [*first, *_numbers_beside(first, 1, 50, "right")],
        [*second, *_numbers_beside(second, 1, 50, "right")],
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "two-pages.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS


def test_a_one_page_list_numbered_in_its_margin_keeps_its_numbers(tmp_path: Path) -> None:
    # Eight entries of two lines, a number beside each first line only: the list's style, not a proof's.
    entries = [*ENTRIES, *ENTRIES[:3]]
    pieces = [Text(72, 90, "References", size=12, bold=True), *_hanging(entries, 76, 90 + 2 * LINE)]
    numbers = [Text(60, 90 + (2 + 2 * i) * LINE, str(i + 1)) for i in range(len(entries))]
    extraction = extract_pdf(write_pdf(tmp_path / "numbered.pdf", [[*pieces, *numbers]]))
    assert len(extraction.references) == len(entries)
    assert not any("line numbers" in warning for warning in extraction.warnings)


def test_a_numbered_reference_list_keeps_its_numbers(tmp_path: Path) -> None:
    # Bare numbers in the margin of the list's own page only: a list style, not line numbers.
    numbered = [Text(60, 120 + i * LINE, f"{i + 1}") for i in range(len(RAWS))]
    entries = [Text(76, 120 + i * LINE, raw) for i, raw in enumerate(RAWS)]
    pages = [body(50), [Text(72, 90, "References", size=12, bold=True), *numbered, *entries]]
    extraction = extract_pdf(write_pdf(tmp_path / "numbered.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS
    assert not any("line numbers" in warning for warning in extraction.warnings)


BACK_MATTER = [
    ["Received: 12 March 2014 / Accepted: 3 June 2015 / Published online: 30 June 2015"],
    [
        "E-mail: jane.doe@example.org",
        "Department of Sociology, Example University, 12 Main Street, 2060 Town",
    ],
    ["ORDER FORM", "Please send me the following discussion papers (5 EUR per copy, 2014 price list):"],
    # A journal's affiliation block (the Journal of Statistical Software's, after every list)
    ["Affiliation:", "Michael Hahsler", "Lyle School of Engineering", "Southern Methodist University"],
    ["Jane Doe is Associate Professor of Sociology at Example University. Her research since 2004 is on"],
    ["JANE DOE is Associate Professor of Sociology at Example University. Her research since 2004 is on"],
    ["Jane DOE is Associate Professor of Sociology at Example University. Her research since 2004 is on"],
]


def test_back_matter_after_the_list_ends_it(tmp_path: Path) -> None:
    for number, block in enumerate(BACK_MATTER):
        top = 110 + 2 * len(ENTRIES) * LINE
        after = [Text(72, top + i * LINE, line) for i, line in enumerate(block)]
        pages = [
            body(50),
            [Text(72, 90, "References", size=12, bold=True), *_hanging(ENTRIES, 72, 110), *after],
        ]
        extraction = extract_pdf(write_pdf(tmp_path / f"back{number}.pdf", pages))
        assert [reference.raw for reference in extraction.references] == RAWS, block
        assert not extraction.set_aside, block


def test_a_references_line_reading_like_a_biography_does_not_end_the_list(tmp_path: Path) -> None:
    # "treatment goal is …" opens like "Jane Doe is …" but for the case of its words: it continues an entry.
    entries = [
        *ENTRIES[:2],
        (
            "Gattellari, M. and Voigt, K. (2002). When the",
            "treatment goal is not cure. Journal of Oncology 20: 503-13.",
        ),
        *ENTRIES[2:],
    ]
    pages = [body(50), [Text(72, 90, "References", size=12, bold=True), *_hanging(entries, 72, 110)]]
    extraction = extract_pdf(write_pdf(tmp_path / "continued.pdf", pages))
    assert [reference.raw for reference in extraction.references] == [f"{a} {b}" for a, b in entries]


def test_first_line_indents_are_read_on_a_page_whose_lines_all_open_entries(tmp_path: Path) -> None:
    # The list starts at the foot of a page with three one-line entries, each indented: that page has no line
    # at the margin, which the next page shows. Years come last and openings differ: no shape splits the list.
    one_line = [
        "J. Ziv and A. Lempel. A universal algorithm for data compression. TIT 23: 337-343, 1977.",
        "Chen X, Zitnick CL. Minds eye: a recurrent visual representation. CVPR, 2015.",
        "Duddington, J., “eSpeak Text to Speech,” 2007.",
    ]
    two_lines = [
        ("Greef, Albert D. The Commercial Paper House in the United States.", "Cambridge: Harvard, 1938."),
        ("Triner, Gail D. Banking and Economic Development: Brazil. New", "York: Palgrave, 2000."),
        ("______. In Ioannis epistulam ad Parthos tractatus x. PL 25: 1977–", "2."),
        (
            "Fonio, Filippo. Rassegna bibliografica foscoliana. Franco-Italica,",
            "n. 29-30 (2006), p. 234-237.",
        ),
    ]
    first = [*body(50), Text(72, 100 + 52 * LINE, "References", size=12, bold=True)]
    first += [Text(86, 100 + (54 + i) * LINE, line) for i, line in enumerate(one_line)]
    second = []
    for i, (opening, rest) in enumerate(two_lines):
        second += [Text(86, 100 + 2 * i * LINE, opening), Text(72, 100 + (2 * i + 1) * LINE, rest)]
    extraction = extract_pdf(write_pdf(tmp_path / "first-line.pdf", [first, second]))
    assert len(extraction.references) == len(one_line) + len(two_lines)
    assert [reference.raw for reference in extraction.references][: len(one_line)] == one_line


def test_a_short_list_in_small_type_before_an_appendix_in_body_text_is_read(tmp_path: Path) -> None:
    # Three entries in 9 pt, then an appendix in 10 pt: the list's size is read up to the appendix heading,
    # not from the forty lines after the heading, most of which are the appendix's.
    pieces = [Text(72, 90, "References", size=12, bold=True)]
    pieces += [Text(72, 110 + i * LINE, raw[:95], size=9) for i, raw in enumerate(RAWS[:3])]
    pieces.append(Text(72, 110 + 4 * LINE, "Appendix A. Additional results", size=12, bold=True))
    pieces += body(40, y=110 + 6 * LINE)
    extraction = extract_pdf(write_pdf(tmp_path / "short.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == [raw[:95] for raw in RAWS[:3]]
    assert extraction.section.startswith("heading: References")


def _with_gaps(
    entries: list[list[str]], x: float = 72.0, heading: bool = True, top: float = 110.0
) -> list[Text]:
    """A list (under "References" when `heading`), entries flush left at `x` from the baseline `top`, one set
    apart from the next by a 6 pt gap."""
    pieces = [Text(x, 90, "References", size=12, bold=True)] if heading else []
    y = top
    for lines in entries:
        for line in lines:
            pieces.append(Text(x, y, line))
            y += LINE
        y += 6
    return pieces


def test_gaps_win_over_a_shape_that_merges_an_entry_of_another_shape(tmp_path: Path) -> None:
    # Splitting by the "Surname, A.," shape merges "Lipinski J.: …" into the entry before and opens a false
    # entry at "Criticism, Volume Two, …"; the merged entry no longer counts as plausible, so the gaps, which
    # keep the three apart, are the cue.
    entries = [
        [
            "Nair-Roberts, R.G., Chatelain-Badie, S.D.,",
            "Benson, E., and Ungless, M.A. (2008).",
            "Stereological estimates of neurons in the rat.",
            "Neuroscience 152, 1024-1031.",
        ],
        [
            "Lipinski J.: Spolki pracownicze w badaniach Unii",
            "Wlasnosci Pracowniczej. ISP PAN, Warszawa 1999.",
        ],
        [
            "-----. Charles Baudelaire. In Literary",
            "Criticism, Volume Two, 152-158. New York:",
            "Library of America, 1984.",
        ],
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "merged.pdf", [body(50), _with_gaps(entries)]))
    assert len(extraction.references) == 3
    assert extraction.references[1].raw.startswith("Lipinski J.:")


def test_a_numbered_entry_without_a_year_is_kept(tmp_path: Path) -> None:
    # "(October 94)" is no year the filter of stray lines knows; a numbered entry is the list's all the same.
    undated = "Lamaire, R. O. and Serpanos, D. N. Round Robin Schedulers. IEEE/ACM Trans. (October 94)."
    numbered = [f"{i + 1}. {raw}" for i, raw in enumerate([*RAWS[:3], undated])]
    pieces = [
        Text(72, 90, "References", size=12, bold=True),
        *[Text(72, 110 + i * LINE, t) for i, t in enumerate(numbered)],
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "undated.pdf", [body(50), pieces]))
    kept = [reference.raw for reference in extraction.references] + [
        entry.raw for entry in extraction.set_aside
    ]
    assert kept == [*RAWS[:3], undated]


def test_an_entry_of_two_lines_without_a_year_is_kept(tmp_path: Path) -> None:
    # The same year-less entry in a list set with hanging indents: two lines make it one of the list's
    # entries, as a number does; a one-line sub-heading or page furniture has one.
    undated = (
        "Lamaire, R. O. and Serpanos, D. N. Round Robin Schedulers for Packet",
        "Switches. (October 94).",
    )
    pieces = [Text(72, 90, "References", size=12, bold=True), *_hanging([*ENTRIES[:3], undated], 72, 110)]
    extraction = extract_pdf(write_pdf(tmp_path / "undated-lines.pdf", [body(50), pieces]))
    kept = [reference.raw for reference in extraction.references] + [
        entry.raw for entry in extraction.set_aside
    ]
    assert kept == [*RAWS[:3], " ".join(undated)]


@pytest.mark.parametrize(
    ("gaps", "usual"),
    [
        ([-4.0, -2.5, 0.3, 1.4, *[1.8] * 20, *[7.6] * 10, 16.9], 1.8),  # OCR's ragged boxes: outliers below
        ([-1.7, -1.7, *[4.3] * 9], -1.7),  # most entries on one line: most gaps are between entries
        # one far wider gap (a part heading's space, left out of the list) is not the only wide one
        ([*[3.83] * 40, *[9.23] * 44, 34.43], 3.83),
    ],
)
def test_the_usual_spacing_is_the_narrower_groups(gaps: list[float], usual: float) -> None:
    assert statistics.median(_narrower_group(gaps)) == usual


def test_two_ragged_gaps_under_evenly_spaced_lines_are_no_gap_cue() -> None:
    # OCR's boxes: thirty lines 2 pt apart, two of them overlapping the line above. The two make a narrower
    # group of their own; a tenth of the gaps must be narrow for gaps to be a cue, or every line would open
    # an entry.
    lines, y = [], 100.0
    for i in range(32):
        lines.append(Line(page=0, x0=72, y0=y, x1=300, y1=y + 10, text=f"line {i}", size=10, bold=False))
        y += 8 if i in (5, 20) else 12
    assert _gap_opener(lines) is None


def test_a_list_of_mostly_one_line_entries_set_apart_by_gaps_is_split_at_them(tmp_path: Path) -> None:
    # Most entries fit on one line, so most gaps between lines are gaps between entries: the usual spacing is
    # the narrow one inside the two-line entries, not the median.
    # Two entries print their year near the start; the others at the end, so no opening shape splits them.
    one_line = [
        "Culler, Jonathan. 1976. Saussure. London: Fontana Collins.",
        "Buxton MJ, Lacey LA. Mapping disease-specific measures to utility. Value Health 10: 214-20, 2007.",
        "B. Claus and R. Bachmayer. Terrain-aided navigation for a glider. J. Field Robotics, 2015.",
        "Rowland, Susan. Jung: A Feminist Revision. Malden, MA: Blackwell, 2002.",
        "Schultz W. Updating dopamine reward signals. Curr Opin Neurobiol 23: 229-238, 2013.",
        "Nickle, K.F., The Collection (London: SCM, 1966).",
        "Leser, E. V. Econometric Techniques and Problems. New York: Hofner, 1966.",
        "Thomas, Downing A., Aesthetics of Opera (Cambridge University Press, 2002).",
    ]
    entries = [[line] for line in one_line] + [list(ENTRIES[0]), list(ENTRIES[1])]
    extraction = extract_pdf(write_pdf(tmp_path / "gaps.pdf", [body(50), _with_gaps(entries)]))
    assert [reference.raw for reference in extraction.references] == [" ".join(lines) for lines in entries]


CAPITALS = [
    ("APPELBAUM Eileen, BATT, Rosemary, 1994, The new American workplace, Ithaca,", "ILR Press."),
    ("BOYER Robert, 1995, Capital-labour relations in OECD countries, Paris, CEPREMAP.", ""),
    ("FREEMAN Richard, MEDOFF James, 1984, What do unions do?, New York, Basic", "Books."),
    ("PIORE Michael, SABEL Charles, 1984, The second industrial divide, New York,", "Basic Books."),
]


def test_a_bibliography_in_capitals_wins_over_a_tables_sources(tmp_path: Path) -> None:
    bibliography = [
        Text(72, 90, "Bibliography", size=12, bold=True),
        *column(entry_lines(CAPITALS), 72, 110, indent=14),
    ]
    table = [
        Text(72, 90, "Table 3: Union density in six countries, 1980-2000", size=10, bold=True),
        *[
            Text(72, 110 + i * LINE, f"Country {i}   {30 + i}.{i}   {25 + i}.{i}   {20 + i}.{i}")
            for i in range(6)
        ],
        Text(72, 110 + 7 * LINE, "Sources", size=12, bold=True),
        Text(
            72, 110 + 8 * LINE, "OECD (2001), Employment Outlook, Paris; national statistical offices, 2002."
        ),
        Text(72, 110 + 9 * LINE, "ILO (2000), World Labour Report, Geneva."),
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "paper.pdf", [body(50), bibliography, table]))
    assert extraction.section.startswith("heading: Bibliography")
    raws = [reference.raw for reference in extraction.references]
    assert raws == [f"{first} {second}".strip() for first, second in CAPITALS]


SPANISH = [
    ("García, J. (2004). Políticas sociales y mercado de trabajo en España.", "Madrid: Siglo XXI."),
    ("López, M. (2009). La reforma laboral y sus efectos sobre el empleo.", "Revista de Economía 12: 5-30."),
    ("Ruiz, P. (2011). Sindicatos y negociación colectiva en Europa del Sur.", "Barcelona: Ariel."),
]


def test_a_heading_in_two_languages_opens_the_list(tmp_path: Path) -> None:
    heading = Text(72, 90, "Referencias bibliográficas / References", size=12, bold=True)
    pages = [body(50), [heading, *_hanging(ENTRIES, 72, 110)]]
    extraction = extract_pdf(write_pdf(tmp_path / "bilingual.pdf", pages))
    assert extraction.section.startswith("heading: Referencias bibliográficas / References;")
    assert [reference.raw for reference in extraction.references] == RAWS


def test_a_list_in_two_parts_under_two_headings_is_read_whole(tmp_path: Path) -> None:
    # One part per language, each under its own heading: the last heading alone would lose the first part.
    first = [Text(72, 90, "Bibliografía", size=12, bold=True), *_hanging(SPANISH, 72, 110)]
    second_top = 110 + (2 * len(SPANISH) + 1) * LINE
    second = [Text(72, second_top, "References", size=12, bold=True), *_hanging(ENTRIES, 72, second_top + 20)]
    extraction = extract_pdf(write_pdf(tmp_path / "two-parts.pdf", [body(50), [*first, *second]]))
    raws = [reference.raw for reference in extraction.references]
    assert raws == [f"{a} {b}" for a, b in SPANISH] + RAWS


def test_a_table_of_contents_naming_references_does_not_join_the_body(tmp_path: Path) -> None:
    contents = [Text(72, 90, "Contents", size=12, bold=True), Text(72, 110, "References", size=12, bold=True)]
    pages = [
        contents + body(40, y=140),
        [Text(72, 90, "References", size=12, bold=True), *_hanging(ENTRIES, 72, 110)],
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "contents.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS


MIXED_SHAPES = [  # a hanging-indent list whose entries open in three shapes, "Surname, I." the commonest
    [
        "Adler, P. S., and Kwon, S. (2002). Social capital: prospects",
        "for a new concept. Academy of Management Review, 27, 17-40.",
    ],
    [
        "Baker, W. E. (1990). Market networks and corporate behavior.",
        "American Journal of Sociology, 96(3), 589-625.",
    ],
    [
        "Hall PA, Soskice D. 2001. Varieties of capitalism: the",
        "institutional foundations of comparative advantage. Oxford: OUP.",
    ],
    [
        "Holzer, H. J., Lane, J. I., and Vilhuber, L. (2004). Escaping",
        "poverty for low-wage workers: the role of employer characteristics.",
        "Washington, DC: The Urban Institute.",
    ],
    [
        "Labour markets in transition: a European reader, edited by",
        "the Institute of Social Research. Roma, 2004.",
    ],
    ["Zimmer, E. (2010). Migration and integration in European cities.", "Opladen: Leske und Budrich."],
]


def _hanging_under_references(
    entries: list[list[str]], x: float, indent_x: float, italic: Collection[str] = ()
) -> list[Text]:
    """A list under "References" in 9 pt, each entry's first line at `x` and the rest at `indent_x`; the
    lines in `italic` set in italics."""
    pieces = [Text(72, 90, "References", size=12, bold=True)]
    y = 90 + 2 * LINE
    for lines in entries:
        for k, line in enumerate(lines):
            pieces.append(Text(x if k == 0 else indent_x, y, line, size=9, italic=line in italic))
            y += LINE
    return pieces


def test_hanging_indents_win_over_the_shape_of_a_list_whose_entries_open_in_mixed_shapes(
    tmp_path: Path,
) -> None:
    # Split by the "Surname, I." shape, "Hall PA, …" (another shape) merges into the entry before, and
    # "Washington, DC:" at the start of a wrapped line opens a false entry that takes the title-first entry
    # after it. The hanging indents split every entry as printed, and each piece reads as one reference.
    pieces = _hanging_under_references(MIXED_SHAPES, 72, 86)
    extraction = extract_pdf(write_pdf(tmp_path / "mixed.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == [
        " ".join(lines) for lines in MIXED_SHAPES
    ]
    assert extraction.section.endswith("split by indentation")


PLACE_WRAPPED = [  # hanging indents; a wrapped line opens with a publisher's place and its state or country
    [
        "H. Takesue, “Single-photon frequency down-conversion experiment,” Physical Review A 82, 013833",
        "(2010).",
    ],
    ["Eco, Umberto. Il nome della rosa. Milan: Bompiani, 1985."],
    [
        "———. A Tropical Belle Époque: Elite Culture and Society in Turn-of-the-Century Rio de Janeiro.",
        "Cambridge, UK: Cambridge University Press, 1987.",
    ],
    ["Fiedler, Leslie. Love and Death in the American Novel. Champaign: Dalkey Archive, 2003."],
    [
        "Lacoste, Debra and Alison Altstatt. “An EnCHANTed Evening: Singing Vespers with CANTUS (A",
        "Workshop).” Presented at the International Congress on Medieval Studies, Kalamazoo, MI, 8 May",
        "2014.",
    ],
    [
        "Rouyet, L., Kristensen, L., Derron, M.-H., Michoud, C., Blikra, L.H., Jaboyedoff, M., Lauknes, T.R.",
        "(2016), Evidence of rock slope breathing using Ground-Based InSAR. Geomorphology.",
    ],
    [
        "Alfieri, K. N.; Vienneau, A. R.; Londergan, C. H. “Using infrared spectroscopy of "
        "cyanylated cysteine",
        "to map the membrane binding structure and orientation of the hybrid antimicrobial peptide CM15.”",
        "Biochemistry 2011, 50, 11097–11108.",
    ],
]


def test_a_wrapped_line_opening_with_a_place_and_its_state_opens_no_entry(tmp_path: Path) -> None:
    # "Cambridge, UK:" reads like "Surname, I."; taken for an entry's opening, it made the dash entry hold
    # two references, so the hanging indents lost to a split by shape that opened an entry at the place and
    # merged the entries of other shapes. A place followed by a colon is no author.
    pieces = _hanging_under_references(PLACE_WRAPPED, 56, 68)
    extraction = extract_pdf(write_pdf(tmp_path / "place.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == [
        " ".join(lines) for lines in PLACE_WRAPPED
    ]


GIVEN_NAME_FIRST_AT_A_BREAK = [  # set apart by gaps, over two columns: entries open in shapes of their own
    [
        "Andras Vasy. Microlocal analysis of asymptotically",
        "hyperbolic spaces. Inventiones, pages 1–133, 2013.",
    ],
    ["Lockhart, John Gibson. 1850. Memoirs of the Life of", "Sir Walter Scott. Edinburgh: Cadell."],
    ["Ruslan Salakhutdinov. Learning deep generative", "models, 2009."],
    ["Hovland, C. I., Janis, I. L. (1953). Communication", "and persuasion. Yale University Press."],
]


def test_an_entry_of_no_known_opening_at_the_head_of_a_column_of_a_gap_list_opens_there(
    tmp_path: Path,
) -> None:
    # A column break hides the gap before the entry at the new column's head, and "Ruslan Salakhutdinov." is
    # no author shape: the lines before the break (from the last gap) and those after it (to the next gap)
    # each read as a whole reference, so an entry opens there.
    left = GIVEN_NAME_FIRST_AT_A_BREAK[:2] + [
        [f"Keller, B. ({1990 + i}). Trade unions and the state in", "transition, part {i}. Routledge."]
        for i in range(3)
    ]
    right = GIVEN_NAME_FIRST_AT_A_BREAK[2:] + [
        [f"Zimmer, E. ({2000 + i}). Migration and integration in", f"European cities, part {i}. Campus."]
        for i in range(3)
    ]
    raws = _gap_list_over_two_columns(tmp_path, left, right)
    assert raws[:2] == [" ".join(lines) for lines in GIVEN_NAME_FIRST_AT_A_BREAK[:2]]
    assert raws[5:7] == [" ".join(lines) for lines in GIVEN_NAME_FIRST_AT_A_BREAK[2:]]
    assert len(raws) == 10


def test_a_link_running_on_at_the_head_of_a_column_of_a_gap_list_continues_its_entry(tmp_path: Path) -> None:
    # The link ending the left column reads as an entry's end, and the lines on each side of the break read
    # as references; the line overleaf opens with a hyphen, not a capital, so it goes on the entry.
    link = [
        "Moloney, A., 2015a. “Gang violence fuels child",
        "marriage”, Reuters, 5 June 2015. Available at",
        "http://www.reuters.com/article/us-centralamerica",
    ]
    rest = ["-childmarriage-idUSKBN0OL1Z9 [accessed 2016]"]
    others = [
        [f"Keller, B. ({1990 + i}). Trade unions and the state in", f"transition, part {i}. Routledge."]
        for i in range(4)
    ]
    raws = _gap_list_over_two_columns(tmp_path, [*others, link], [rest, *others])
    assert raws[4] == " ".join(link + rest)
    assert len(raws) == 9


def _gap_list_over_two_columns(tmp_path: Path, left: list[list[str]], right: list[list[str]]) -> list[str]:
    """The references of a list under "References" set with 6 pt gaps over two columns."""
    pieces = [*_with_gaps(left, 56), *_with_gaps(right, 306, heading=False)]
    extraction = extract_pdf(write_pdf(tmp_path / "break.pdf", [body(50), pieces]))
    return [reference.raw for reference in extraction.references]


def test_an_entrys_last_lines_alone_at_the_head_of_the_next_pages_column_continue_it(tmp_path: Path) -> None:
    # Hanging indents in the right column; the last entry runs over to the left column of the next page,
    # where its two last lines stand alone at one x: that column shows no margin, so indentation cannot
    # tell, and "CM15.” Biochemistry 2011, …" (a year among its first words) is no entry's opening.
    entries = [
        ("Harvey, David. Social Justice and the City. London:", ["Edward Arnold, 1973."]),
        ("Rzepka, Charles. Detective Fiction. Cambridge:", ["Polity Press, 2005."]),
        (
            "Alfieri, K. N.; Vienneau, A. R.; Londergan, C.",
            [
                "H. “Using infrared spectroscopy of cyanylated",
                "cysteine to map the membrane binding structure",
            ],
        ),
    ]
    lines = [line for opening, rest in entries for line in (opening, *(f"\t{line}" for line in rest))]
    first = [
        *body(50, width_chars=40),
        Text(306, 100, "References", size=12, bold=True),
        *column(lines, 306, 100 + 2 * LINE, indent=12),
    ]
    overleaf = [
        "and orientation of the hybrid antimicrobial peptide",
        "CM15.” Biochemistry 2011, 50, 11097–11108.",
    ]
    second = [Text(84, 100 + i * LINE, line) for i, line in enumerate(overleaf)]
    extraction = extract_pdf(write_pdf(tmp_path / "overleaf.pdf", [first, second]))
    assert [reference.raw for reference in extraction.references] == [
        " ".join([opening, *rest]) for opening, rest in entries[:2]
    ] + [" ".join([entries[2][0], *entries[2][1], *overleaf])]


WRAPPED_AFTER_A_BROKEN_PHRASE = [  # hanging indents; wrapped lines that read like an entry's opening
    [
        "Wilson, I. and B. Gick. Bilinguals use language-specific articulatory settings. Journal of",
        "Speech, Language and Hearing Research. doi: 10.1044/2013_JSLHR-S-12-0345. 2013.",
    ],
    [
        "Kaufmann, G., M. David, G. D. Borasio, A.",
        "Teichmann, A. Paz, and M. Amitsur. 1986. Phage and host genetic determinants of the specific",
        "anticodon loop cleavages in bacteriophage T4-infected Escherichia coli. J Mol Biol 188: 15-22.",
    ],
    [
        "Lamaire, R. O, and D. N. Serpanos, Two Dimensional Round Robin Schedulers for Packet Switches with",
        "Multiple Input Queues, IEEE/ACM Trans. on Networking, pp. 471-482. (October 94).",
    ],
    ["Childs, W.; Boxer, S. G. Solvation response along the reaction coordinate. J. Am. Chem. Soc 2010."],
    [
        "Murthy, S. K., Kasif, S., Salzberg, S., & Beigel, R. (1993). Randomized induction of oblique",
        "decision trees. In Proceedings of the Eleventh National Conference on Artificial Intelligence,",
        "pp. 322-327.",
    ],
    ["Owen, D. B. (1962). Handbook of Statistical Tables. Reading, Massachusetts: Addison-Wesley."],
]


def test_a_wrapped_line_after_a_preposition_or_an_initial_opens_no_entry(tmp_path: Path) -> None:
    # "Speech, Language and …" after "Journal of", and "Teichmann, A. Paz, …" after the lone initial of a
    # wrapped author list, read like "Surname, I." lines with a year near their start; taken for openings,
    # they made the hanging-indent split look implausible (an entry without a year stops the shortcut) and
    # the shape split won, cutting both entries in two. A line breaking off at a preposition, an article or
    # an initial goes on.
    pieces = _hanging_under_references(WRAPPED_AFTER_A_BROKEN_PHRASE, 72, 84)
    extraction = extract_pdf(write_pdf(tmp_path / "broken-phrase.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == [
        " ".join(lines) for lines in WRAPPED_AFTER_A_BROKEN_PHRASE
    ]


def test_a_part_heading_right_under_the_heading_over_a_symbol_font_bullet_is_a_part_heading(
    tmp_path: Path,
) -> None:
    # A bullet set in a symbol font has no character (it reads as U+FFFD): the line after "Books and
    # articles" then opened no entry, the bold line ended the list before its first entry, and another
    # block was taken for the list. A symbol glyph before an entry is a list mark like "•".
    entries = [
        ["\uf02d P. Bourdieu, Language et pouvoir symbolique, Paris, Seuil, 2001."],
        *[
            [f"Keller, B. ({1990 + i}). Trade unions and the state in", f"transition, part {i}. Routledge."]
            for i in range(4)
        ],
    ]
    pieces = [
        *_with_gaps(entries, top=90 + 3.5 * LINE),
        Text(72, 90 + 2 * LINE, "Books and articles", bold=True, italic=True),
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "symbol-bullet.pdf", [body(50), pieces]))
    assert extraction.section.startswith("heading: References")
    raws = [reference.raw for reference in extraction.references]
    assert len(raws) == 5
    assert raws[0].endswith("P. Bourdieu, Language et pouvoir symbolique, Paris, Seuil, 2001.")


def test_a_title_in_italics_at_an_entrys_indent_is_no_part_heading(tmp_path: Path) -> None:
    # "Theories of Learning. New York:" in italics, short of the margin, after a line that ends with a full
    # stop and before "Appleton-Century-Crofts, 1966." (a "Surname, …" shape): it read as a part heading
    # and was dropped, and the entry lost its title. A line at the indent of the entry above it goes on
    # with that entry.
    title = "Theories of Learning. New York:"
    entries = [
        ["HILGARD, ERNEST R. AND GORDON H. BOWER.", title, "Appleton-Century-Crofts, 1966."],
        *[
            [f"KELLER, B. ({1990 + i}). Trade unions and the state in transition,", f"part {i}."]
            for i in range(3)
        ],
    ]
    pieces = _hanging_under_references(entries, 72, 84, italic={title})
    extraction = extract_pdf(write_pdf(tmp_path / "italic-title.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == [" ".join(lines) for lines in entries]


def test_a_container_title_in_italics_on_a_wrapped_line_of_its_own_is_no_part_heading(tmp_path: Path) -> None:
    # A journal's name in italics wrapped onto a line of its own at the hanging indent, after a wrapped line
    # that ends with a full stop and before "Psychology, 89 (4), …" (a "Surname, …" shape): it read as a
    # part heading and was dropped. The line above it is a wrapped line at the same indent, so it is not
    # right of it; it is right of where the entries open, at the indent where the list wraps them.
    journal = "Journal of Educational"
    entries = [
        [
            "Osborne, J. W. (1997). Race and",
            "academic disidentification.",
            journal,
            "Psychology, 89, 728–735.",
        ],
        *[
            [f"Keller, B. ({1990 + i}). Trade unions and the state in transition,", f"part {i}."]
            for i in range(3)
        ],
    ]
    pieces = _hanging_under_references(entries, 72, 84, italic={journal})
    extraction = extract_pdf(write_pdf(tmp_path / "italic-journal.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == [" ".join(lines) for lines in entries]


def test_a_one_line_entry_without_a_year_opening_as_an_entry_does_is_kept(tmp_path: Path) -> None:
    # A chapter cited by its anthology's editors and pages, with no year, alone in its part of the list: one
    # line without a year was taken for a sub-heading and dropped without a word. It opens as an entry does
    # ("Surname, Given."), so it is kept for the plausibility gate to judge.
    entries = [
        ["Aldiss, Brian. “Total Environment.” In Clem, Greenberg, and Olander, 24–65."],
        *[
            [f"Keller, B. ({1990 + i}). Trade unions and the state in transition,", f"part {i}. Routledge."]
            for i in range(3)
        ],
    ]
    pieces = _hanging_under_references(entries, 72, 84)
    extraction = extract_pdf(write_pdf(tmp_path / "one-line.pdf", [body(50), pieces]))
    raws = [reference.raw for reference in extraction.references + extraction.set_aside]
    assert raws[0] == entries[0][0]
    assert len(raws) == 4


def test_entries_opening_with_a_latex_label_are_split_at_each_label(tmp_path: Path) -> None:
    """An alpha-style list ("[AAN+21]") in a narrow column: one entry's author list takes more lines than any
    entry shape allows, and every year stands at the end; each label opens an entry all the same."""
    authors = ", ".join(f"Author{i} Surname{i}" for i in range(40))
    raws = [
        f"[AAN+21] {authors}, and Last Author. A dataset of many hands. ArXiv, abs/2103.11811, 2021.",
        "[AP84] Richard C Anderson and P David Pearson. A schema-theoretic view of reading. Handbook, 1984.",
        "[BKKP13] Ann Baker, Ken Kim, Kai Koh and Pat Park. Reading in context. In Proceedings of X, 2013.",
        "[Rüc20] Andreas Rücklé. Retrieval across languages. In Proceedings of EMNLP, pages 1–9, 2020.",
    ]
    pieces = _list_under_a_heading(raws, width=40, indent=110, gap=0.3)
    extraction = extract_pdf(write_pdf(tmp_path / "labels.pdf", [body(30), pieces]))
    assert [reference.raw for reference in extraction.references] == raws
    assert extraction.section.endswith("split by labels")


def test_labels_with_the_year_in_parentheses_open_entries(tmp_path: Path) -> None:
    """A hand-made `thebibliography` whose labels carry the year in parentheses ("[Gower and Hand (1996)]"),
    each entry's text running on under its label: each label opens an entry."""
    raws = [
        "[Anderson (1984)] Anderson, T. W. (1984) An Introduction to Multivariate Statistical Analysis John "
        "Wiley, Second edition, New York.",
        "[Gower and Hand (1996)] Gower, J. C. and Hand, D. J. (1996) Biplots Chapman & Hall, London.",
        "[Graffelman and Aluja-Banet (2003)] Graffelman, J. and Aluja-Banet, T. (2003) Optimal "
        "Representation of Supplementary Variables in Biplots. Journal of Applied Statistics 30(2) "
        "pp. 173-188.",
        "[Mardia et al.(1979)] Mardia, K. V. and Kent, J. T. and Bibby, J. M. (1979) Multivariate Analysis "
        "Academic Press London.",
    ]
    pieces = _list_under_a_heading(raws, width=70, indent=72, gap=0.0)
    extraction = extract_pdf(write_pdf(tmp_path / "parenthesised-labels.pdf", [body(30), pieces]))
    assert [reference.raw for reference in extraction.references] == raws
    assert extraction.section.endswith("split by labels")


def test_an_undated_alpha_label_opens_an_entry_where_the_labels_stand(tmp_path: Path) -> None:
    """BibTeX's alpha style labels an undated work without a year ("[RRVeS+]"): at the labels' left edge
    it opens an entry like the dated labels; a bracketed word at the indent of the lines under them
    ("[Online]") goes on the entry it is in."""
    raws = [
        "[RM95] Lance Ramshaw and Mitch Marcus. Text chunking using transformation-based learning. In Third "
        "Workshop on Very Large Corpora, 1995.",
        "[RRVeS+] Livy Real, Ana Rodrigues, Andressa Vieira e Silva, Beatriz Albiero, and Bruna Thalenberg. "
        "The assin 2 shared task. In Proceedings of the Workshop on Semantic Textual Similarity.",
        "[SHH18] Ian Soboroff, Shudong Huang, and Donna Harman. Trec 2018 news track overview. In TREC, "
        "2018.",
        "[WCM+24] Orion Weller and Benjamin Chang. Followir: Evaluating and teaching retrieval models to "
        # "[Online]" opens a wrapped line, at the indent.
        "follow instructions. [Online] Available at the workshop, 2024.",
    ]
    pieces = _list_under_a_heading(raws, width=42, indent=120, gap=0.3)
    extraction = extract_pdf(write_pdf(tmp_path / "undated-label.pdf", [body(30), pieces]))
    # Without a year the entry may stand below the plausibility gate: set aside, not lost.
    raws_found = [reference.raw for reference in extraction.references + extraction.set_aside]
    assert sorted(raws_found) == sorted(raws)
    assert extraction.section.endswith("split by labels")


def test_author_year_labels_of_works_without_authors_or_year_open_entries(tmp_path: Path) -> None:
    """An author-year style without natbib labels a work without authors by its key ("[wmt19, 2019]") and
    an undated one with the comma before no year ("[Foundation, ]"): these labels open entries like the
    others, the list's first one too, and an entry ending in a question mark does not run into the next."""
    raws = [
        "[wmt19, 2019] (2019). Findings of the fourth conference on machine translation. In Proceedings of "
        "WMT, pages 1–61.",
        "[Etxaniz et al., 2024] Etxaniz, J., Azkune, G., and Artetxe, M. (2024). Bertaqa: How much do "
        "language models know about local culture?",
        "[Fonseca et al., 2016] Fonseca, E., Santos, L., and Aluisio, S. (2016). Assin: Avaliacao de "
        "similaridade semantica e inferencia textual. In Proceedings of PROPOR, pages 13–15.",
        "[Foundation, ] Foundation, W. Acl 2019 fourth conference on machine translation (wmt19), shared "
        "task: Machine translation of news.",
        "[Greaves et al., 2021] Greaves, J., Candido, S., and Dumoulin, V. (2021). Balloon navigation with "
        "reinforcement learning. Nature, 588:77–82.",
    ]
    pieces = _list_under_a_heading(raws, width=70, indent=84, gap=0.5)
    extraction = extract_pdf(write_pdf(tmp_path / "author-year-labels.pdf", [body(30), pieces]))
    raws_found = [reference.raw for reference in extraction.references + extraction.set_aside]
    assert sorted(raws_found) == sorted(raws)
    assert extraction.section.endswith("split by labels")


def _list_under_a_heading(raws: list[str], width: int, indent: float, gap: float) -> list[Text]:
    """A heading, then each raw string wrapped at `width` characters, its lines after the first at `indent`
    points, `gap` lines between entries."""
    pieces = [Text(72, 90, "References", size=12, bold=True)]
    y = 90 + 2 * LINE
    for raw in raws:
        lines = textwrap.wrap(raw, width)
        pieces += [Text(72 if k == 0 else indent, y + k * LINE, line) for k, line in enumerate(lines)]
        y += (len(lines) + gap) * LINE
    return pieces


MORE_ENTRIES = [
    ("Nagel, P. (2003). Collective action in small firms. Frankfurt:", "Campus Verlag."),
    ("Otto, R. (2007). Labour market reforms in comparison.", "Industrial Relations Journal 38: 1-19."),
    ("Pohl, S. (2011). Regional policy and the European funds.", "Regional Studies 45: 77-93."),
]


def _plot(y: float) -> list[Text]:
    """A figure's text: tick labels and axis titles in small type, scattered as a plot sets them."""
    ticks = [Text(110, y + 14 * i, f"{0.2 * (5 - i):.1f}", size=6) for i in range(6)]
    return [
        *ticks,
        Text(150, y + 90, "0 500 1000 1500 2000 2500", size=6),
        Text(250, y + 102, "Time [days]", size=7),
    ]


@pytest.mark.parametrize("where", ["page of floats", "floats at the next page's head"])
def test_a_list_goes_on_after_floats_set_among_its_entries(tmp_path: Path, where: str) -> None:
    # LaTeX puts figures held back by the text on pages of their own or at a page's head, among the entries;
    # the plot's small type used to end the list there.
    caption = [
        Text(72, 230, "Figure 6: Epidemic proportion of the fitted intensity process accumulated over"),
        Text(72, 230 + LINE, "time by type, with the observed numbers."),
    ]
    first = [Text(72, 90, "References", size=12, bold=True), *_hanging(ENTRIES, 72, 110)]
    rest = _hanging(MORE_ENTRIES, 72, 290)
    if where == "page of floats":
        pages = [
            body(50),
            first,
            [*_plot(100), *caption, *_plot(400), Text(72, 530, "Figure 7: The residuals.")],
        ]
        pages.append(_hanging(MORE_ENTRIES, 72, 100))
    else:
        pages = [body(50), first, [*_plot(100), *caption, *rest]]
    extraction = extract_pdf(write_pdf(tmp_path / "floats.pdf", pages))
    assert [reference.raw for reference in extraction.references] == [
        *RAWS,
        *(f"{a} {b}" for a, b in MORE_ENTRIES),
    ]


def test_a_figure_after_the_list_and_before_an_appendix_stays_out_of_it(tmp_path: Path) -> None:
    # The list resumes after a float only where entries open in its type size at its edges: an appendix after
    # a figure is no part of it.
    appendix = [
        Text(72, 300, "Appendix A. Proofs", size=12, bold=True),
        *[Text(72, 320 + i * LINE, line.text) for i, line in enumerate(body(5))],
        *_hanging(MORE_ENTRIES, 72, 400),
    ]
    pages = [
        body(50),
        [Text(72, 90, "References", size=12, bold=True), *_hanging(ENTRIES, 72, 110)],
        [*_plot(100), Text(72, 230, "Figure 6: The fitted intensity."), *appendix],
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "appendix.pdf", pages))
    assert [reference.raw for reference in extraction.references] == RAWS


def test_a_numbered_list_goes_on_after_a_float_with_code_above_its_plot(tmp_path: Path) -> None:
    # A numbered style puts the year at an entry's end, three lines down, so only the numbers show the list
    # going on; labels set flush right stand further left from "[10]" on; the float's code lines stand at the
    # heading's margin.
    raws = [
        f"[{n}] A. Author{n}, C. Second, D. Third, and B. Writer. Local polynomial estimation number {n} for "
        f"sensitivity analysis on models with correlated inputs. Journal of Statistics, {n}:1–9, 19{70 + n}."
        for n in range(1, 13)
    ]

    def entry(raw: str, y: float) -> list[Text]:
        label, text = raw.split("] ", 1)
        lines = textwrap.wrap(text, 75)
        return [
            Text(96 - 6 * len(label), y, f"{label}] {lines[0]}"),
            *(Text(96, y + k * LINE, line) for k, line in enumerate(lines[1:], start=1)),
        ]

    first = [Text(72, 90, "References", size=12, bold=True)]
    for i, raw in enumerate(raws[:4]):
        first += entry(raw, 110 + 3.5 * i * LINE)
    second = [
        Text(72, 80, "> plot(fit, main='trace of tree heights')"),
        Text(72, 80 + LINE, "> legend('topright', c('tempered', 'reg MCMC'))"),
        *_plot(120),
        Text(72, 250, "Figure 23: Traces of the tree heights under the two Markov chains."),
    ]
    for i, raw in enumerate(raws[4:]):
        second += entry(raw, 290 + 3.5 * i * LINE)
    extraction = extract_pdf(write_pdf(tmp_path / "numbered-float.pdf", [body(50), first, second]))
    assert [reference.raw for reference in extraction.references] == [raw.split("] ", 1)[1] for raw in raws]


def test_a_float_right_under_the_heading_is_no_float_of_the_list() -> None:
    # With no entry before it, nothing shows where the list stands (bibunits' manual failed here).
    rest = [
        Line(1, 110, 100, 300, 106, "0.0 0.2 0.4 0.6", 6.0, False),
        Line(1, 72, 240, 400, 250, "Figure 1: The fitted intensity.", 10.0, False),
        *(
            Line(1, 72, 280 + 24 * i, 500, 290 + 24 * i, f"[{i + 1}] {raw}", 10.0, False)
            for i, raw in enumerate(RAWS)
        ),
    ]
    assert _float_at(rest, 0, 10.0) is None


def test_a_bracket_label_that_lost_a_bracket_still_opens_its_entry(tmp_path: Path) -> None:
    # OCR reads "[7]" as "7" and "[10]" as "10]": the label expected next, before text that opens as a
    # reference does, opens its entry; a wrapped line opening with a volume number does not.
    raws = [
        f"[{n}] A. Author{n} and B. Writer. Spatial point patterns, part {n}. Journal of Statistics, "
        f"12:1–9, 2001."
        for n in range(1, 12)
    ]
    raws[6] = raws[6].replace("[7] ", "7 ")
    raws[9] = raws[9].replace("[10] ", "10] ")
    # Entry 6 wraps before "7 (2)", the number expected next.
    raws[5] = "[6] C. Writer. Regression in practice. Annals of Statistics, 7 (2): 45–67, 1979, with notes."
    assert textwrap.wrap(raws[5], 60)[1].startswith("7 (2)")
    pieces = _list_under_a_heading(raws, width=60, indent=90, gap=0.0)
    extraction = extract_pdf(write_pdf(tmp_path / "damaged-labels.pdf", [body(30), pieces]))
    expected = [raw.split(" ", 1)[1] for raw in raws]
    assert [reference.raw for reference in extraction.references] == expected


def test_numbered_entries_that_are_a_web_address_alone_are_kept(tmp_path: Path) -> None:
    # "[3] http://www.junit.org/": a web source's reference, not page furniture (RUnit's vignette lists five).
    raws = [
        "[1] http://www.xprogramming.com",
        "[2] K. Beck. Simple Smalltalk testing: with patterns. The Smalltalk Report, 4(2), 1994.",
        "[3] http://www.junit.org/",
        "[4] https://sourceforge.net/projects/runit/",
    ]
    pieces = _list_under_a_heading(raws, width=90, indent=90, gap=0.5)
    extraction = extract_pdf(write_pdf(tmp_path / "web-addresses.pdf", [body(30), pieces]))
    found = [reference.raw for reference in extraction.references + extraction.set_aside]
    assert sorted(found) == sorted(raw.split(" ", 1)[1] for raw in raws)


def test_a_footnote_of_the_body_ending_a_column_of_the_list_stays_out_of_its_entries(tmp_path: Path) -> None:
    # ACL's two columns: the list starts under the body text of a page that has a footnote, so the left
    # column ends with the footnote (a raised "19", smaller type) inside an entry that runs on at the head
    # of the right column.
    left = [
        "Riaz Ahmad and Muhammad Tanvir Afzal. 2018. Cad: an",
        "\talgorithm for citation-anchors detection. Scientometrics.",
        "Waleed Ammar, Dirk Groeneveld, Chandra Bhagavatula,",
        "\tIz Beltagy, Miles Crawford, Doug Downey,",
    ]
    right = [
        "\tKyle Lo, and Oren Etzioni. 2018. Construction of the",
        "\tliterature graph in semantic scholar. In Proceedings of NAACL.",
        *[
            line
            for k in range(14)
            for line in (
                f"Author{k} Smith and Jane Doe. 2019. A study of",
                f"\ttopic {k}. In Proceedings of ACL.",
            )
        ],
    ]
    page = [
        *body(20, width_chars=40),
        Text(72, 100 + 21 * LINE, "References", size=12, bold=True),
        *column(left, 72, 100 + 23 * LINE, indent=12),
        Text(72, 100 + 28 * LINE - 3, "19", size=6),
        Text(76, 100 + 28 * LINE, "The Kaggle CORD-19 and TREC-COVID competitions.", size=9),
        Text(72, 100 + 28 * LINE + 10, "See Wang et al. (2020) for details.", size=9),
        *column(right, 306, 100, indent=12),
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "footnote.pdf", [page]))
    raws = [reference.raw for reference in extraction.references]
    assert not any("Kaggle" in raw or "for details" in raw for raw in raws)
    assert raws[1].startswith("Waleed Ammar, Dirk Groeneveld") and "Construction of the literature" in raws[1]
    assert len(raws) == 16
