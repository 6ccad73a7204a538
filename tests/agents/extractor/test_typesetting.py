"""How journals and working papers set a list, beyond its layout: authors in small capitals as a word
processor prints them (a capital, then capitals a fifth smaller), and a list in parts under sub-headings
("Primary sources", "Reports and documents"), bold, italic or plain with space above. Each test builds a real
PDF with PyMuPDF and fails without its fix."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from refhound.agents.extractor import extract_pdf
from refhound.agents.extractor.result import Extraction
from tests.agents.extractor.pdfmaker import LINE, Text, body, column, entry_lines, write_pdf

SIZE = 10.0
SMALL = 0.8 * SIZE

# (authors, rest of the first line, second line): long author lists, so that small capitals fill most of the
# first line.
SMALL_CAPS = [
    (
        "Abelson, Harold, Gerald Jay Sussman, Julie Sussman, and Peter Norvig.",
        "1996.",
        "Structure and interpretation of computer programs. Cambridge, MA: MIT Press.",
    ),
    (
        "Bernstein, Basil, Pierre Bourdieu, Jean-Claude Passeron, and Mary Douglas.",
        "1977.",
        "Reproduction in education, society and culture. London: Sage.",
    ),
    (
        "Coleman, James, Ernest Campbell, Carol Hobson, and Frederic Weinfeld.",
        "1966.",
        "Equality of educational opportunity. Washington, DC: Government Printing Office.",
    ),
    (
        "Durkheim, Emile, Marcel Mauss, Henri Hubert, and Robert Hertz.",
        "1903.",
        "De quelques formes primitives de classification. Paris: Alcan.",
    ),
    (
        "Esping-Andersen, Gosta, Duncan Gallie, Anton Hemerijck, and John Myles.",
        "2002.",
        "Why we need a new welfare state. Oxford: Oxford University Press.",
    ),
]


def _small_capitals(x: float, y: float, text: str) -> tuple[list[Text], float]:
    """`text` as a word processor prints small capitals: each capital at the type size, each lower-case
    letter as a capital a fifth smaller; returns the pieces and the x after them."""
    pieces = []
    run, small = "", False
    for char in [*text, None]:
        is_small = char is not None and char.islower()
        if char is None or (run and is_small != small):
            size = SMALL if small else SIZE
            pieces.append(Text(x, y, run, size=size))
            x += pymupdf.get_text_length(run, fontname="helv", fontsize=size)
            run = ""
        if char is not None:
            run, small = run + char.upper(), is_small
    return pieces, x


def test_a_list_whose_authors_are_in_small_capitals_reads_as_one_type_size(tmp_path: Path) -> None:
    # A numbered list: read as set in the small capitals' size, the last entry's first line is another size
    # than its second, which was then lost.
    pieces = [Text(72, 90, "References", size=12, bold=True)]
    y = 90 + 2 * LINE
    for n, (authors, year, second) in enumerate(SMALL_CAPS, start=1):
        label = f"{n}. "
        caps, x = _small_capitals(
            72 + pymupdf.get_text_length(label, fontname="helv", fontsize=SIZE), y, authors
        )
        pieces += [Text(72, y, label), *caps, Text(x + 3, y, year), Text(72, y + LINE, second)]
        y += 2 * LINE + 4
    extraction = extract_pdf(write_pdf(tmp_path / "small-caps.pdf", [body(50), pieces]))
    raws = [reference.raw for reference in extraction.references]
    assert [raw.casefold() for raw in raws] == [
        f"{authors} {year} {second}".casefold() for authors, year, second in SMALL_CAPS
    ]


PARTS = {  # part heading → its entries, two lines each (hanging indents)
    "Primary sources": [
        (
            "Abel, K. (2012). Works councils and collective bargaining in Germany.",
            "Berlin: Duncker und Humblot.",
        ),
        (
            "Bauer, A. (1998). Social policy and the welfare state in comparison.",
            "Journal of Social Policy 12.",
        ),
    ],
    "Reports and documents": [
        ("Keller, B. and Weber, T. (2005). Trade unions in transition. London:", "Routledge."),
        ("Müller, H. (2001). The governance of regional labour markets. Berlin:", "Campus Verlag."),
    ],
    "Online sources": [
        ("Zimmer, E. (2010). Migration and integration in European cities.", "Opladen: Leske und Budrich."),
        ("Young, P. (2016). Wage inequality in the regions of Europe, online edition.", "Eurostat."),
    ],
}
RAWS = [f"{first} {second}" for entries in PARTS.values() for first, second in entries]


def _list_in_parts(style: dict[str, bool], space_above: float) -> list[Text]:
    """The parts under their headings, the entries numbered on through the parts: a heading not left out
    joins the entry before it."""
    pieces = [Text(72, 90, "References", size=12, bold=True)]
    y, n = 90 + LINE, 0
    for part, entries in PARTS.items():
        y += space_above + LINE
        pieces.append(Text(72, y, part, **style))
        for first, second in entries:
            n += 1
            pieces += [Text(72, y + LINE, f"[{n}] {first}"), Text(90, y + 2 * LINE, second)]
            y += 2 * LINE
    return pieces


def test_a_list_in_parts_under_bold_sub_headings_is_read_whole(tmp_path: Path) -> None:
    pieces = _list_in_parts({"bold": True}, space_above=0.0)
    extraction = extract_pdf(write_pdf(tmp_path / "bold-parts.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == RAWS


def test_a_list_in_parts_under_italic_sub_headings_leaves_them_out(tmp_path: Path) -> None:
    pieces = _list_in_parts({"italic": True}, space_above=0.0)
    extraction = extract_pdf(write_pdf(tmp_path / "italic-parts.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == RAWS


def test_plain_sub_headings_with_space_above_them_are_left_out(tmp_path: Path) -> None:
    pieces = _list_in_parts({}, space_above=6.0)
    extraction = extract_pdf(write_pdf(tmp_path / "plain-parts.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == RAWS


def test_a_bold_heading_followed_by_body_text_still_ends_the_list(tmp_path: Path) -> None:
    pieces = _list_in_parts({"bold": True}, space_above=0.0)
    y = max(piece.y for piece in pieces) + 2 * LINE
    remarks = "The results of Weber (2004) on collective bargaining are compared with the survey below."
    pieces += [
        Text(72, y, "Further remarks", bold=True),
        Text(72, y + LINE, remarks),
        *body(3, y=y + 2 * LINE),
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "then-body.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == RAWS


CAPITAL_SURNAMES = {  # entries opening with initials and a surname in capitals, "A. L. YUILLE"
    "Primary sources": [
        (
            "A. L. YUILLE. Deformable templates for faces. Journal of Cognitive",
            "Neuroscience, 3(1):59-70, 1991.",
        ),
        (
            "K. MURTHY, “A trajectory method for close range surveys,” Ph.D.",
            "dissertation, Stanford University, 2012.",
        ),
    ],
    "Reports and documents": [
        (
            "M. M. HAMMOND AND S. M. ROCK, “Underwater mapping with poor inertial",
            "information,” in AUV, 2014, pp. 1-8.",
        ),
        ("J.-P. SARTRE. L'être et le néant. Essai d'ontologie phénoménologique.", "Paris: Gallimard, 1943."),
    ],
}


def test_a_part_heading_is_read_before_entries_opening_with_initials_and_a_surname_in_capitals(
    tmp_path: Path,
) -> None:
    pieces = [Text(72, 90, "References", size=12, bold=True)]
    y = 90 + LINE
    for part, entries in CAPITAL_SURNAMES.items():
        y += LINE
        pieces.append(Text(72, y, part, bold=True))
        for first, second in entries:
            pieces += [Text(72, y + LINE, first), Text(86, y + 2 * LINE, second)]
            y += 2 * LINE
    extraction = extract_pdf(write_pdf(tmp_path / "capitals.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == [
        f"{first} {second}" for entries in CAPITAL_SURNAMES.values() for first, second in entries
    ]


QUOTED_FIRST = [  # a part whose first entry opens with a quoted title (an anonymous work)
    ("“Aeronautical Information Manual,” Federal Aviation Administration, Washington, DC,", "February 2012."),
    (
        "GREEF, ALBERT D. The Commercial Paper House in the United States. Cambridge:",
        "Harvard University Press, 1938.",
    ),
    ("TRINER, GAIL D. Banking and Economic Development: Brazil, 1889-1930. New York:", "Palgrave, 2000."),
]


def _under_one_part_heading(path: Path, entries: list[tuple[str, str]]) -> Extraction:
    """A list under "References" whose one part, under "Data sources" in bold, holds `entries` in hanging
    indents, extracted."""
    pieces = [
        Text(72, 90, "References", size=12, bold=True),
        Text(72, 90 + 2 * LINE, "Data sources", bold=True),
        *column(entry_lines(entries), 72, 90 + 3 * LINE, indent=14),
    ]
    return extract_pdf(write_pdf(path, [body(50), pieces]))


def test_a_part_heading_before_an_entry_opening_with_a_quoted_title_is_left_out(tmp_path: Path) -> None:
    extraction = _under_one_part_heading(tmp_path / "quoted.pdf", QUOTED_FIRST)
    # The anonymous work, with no authors and no venue read, is set aside by the plausibility gate: the
    # list is whole when every entry was read, whichever side of the gate it fell on.
    read = sorted([*extraction.references, *extraction.set_aside], key=lambda reference: int(reference.id))
    assert [reference.raw for reference in read] == [f"{a} {b}" for a, b in QUOTED_FIRST]


GIVEN_NAMES_FIRST_IN_CAPITALS = [  # a part whose first entry names its authors given name first, in capitals
    (
        "JENNIFER LEES-MARSHMENT, BRIAN CONLEY, AND KENNETH COSGROVE. Political Marketing in the",
        "United States. Routledge, 2014.",
    ),
    (
        "GREEF, ALBERT D. The Commercial Paper House in the United States. Cambridge:",
        "Harvard University Press, 1938.",
    ),
    ("TRINER, GAIL D. Banking and Economic Development: Brazil, 1889-1930. New York:", "Palgrave, 2000."),
]


def test_a_part_heading_before_authors_in_capitals_given_name_first_is_left_out(tmp_path: Path) -> None:
    extraction = _under_one_part_heading(tmp_path / "given-first.pdf", GIVEN_NAMES_FIRST_IN_CAPITALS)
    assert [reference.raw for reference in extraction.references] == [
        f"{a} {b}" for a, b in GIVEN_NAMES_FIRST_IN_CAPITALS
    ]


FIRST_LINE_INDENTED = [
    (
        "GREEF, ALBERT D. The Commercial Paper House in the United States. Cambridge: Harvard",
        "University Press, 1938.",
    ),
    ("TRINER, GAIL D. Banking and Economic Development: Brazil. New York: Palgrave, 2000.", None),
    (
        "ZIV, JACOB AND ABRAHAM LEMPEL. A universal algorithm for sequential data compression.",
        "TIT, 23(3):337-343, 1977.",
    ),
    ("DUDDINGTON, J. eSpeak Text to Speech. Technical report, 2007.", None),
    ("FONIO, FILIPPO. Rassegna bibliografica foscoliana. Franco-Italica, n. 29-30 (2006),", "p. 234-237."),
]


def test_a_list_set_with_first_line_indents_is_read_so_when_its_first_line_is_not_indented(
    tmp_path: Path,
) -> None:
    """An unindented line ahead of the first entry (here a part heading with dates, which reads as no part
    heading) does not turn a list set with first-line indents into one with hanging indents: the lines
    after an entry's short last line say where entries open."""
    pieces = [
        Text(72, 90, "References", size=12, bold=True),
        Text(72, 90 + 2 * LINE, "Newspapers, 1890-1910"),
    ]
    pieces += column(entry_lines(FIRST_LINE_INDENTED), 72, 90 + 3 * LINE, indent=14, hanging=False)
    extraction = extract_pdf(write_pdf(tmp_path / "first-line.pdf", [body(50), pieces]))
    raws = [reference.raw for reference in extraction.references]
    for first, second in FIRST_LINE_INDENTED:
        assert " ".join(filter(None, [first, second])) in raws


def test_a_line_ending_with_an_initial_does_not_end_an_entry(tmp_path: Path) -> None:
    """Authors in capitals wrap after an initial ("ELIZABETH C.") and the next line opens with a surname and
    a year ("BOTHA, 1993,"): that line goes on the entry the hanging indent says it belongs to."""
    entries = [
        (
            "WHITE, JEANNETTE S. Baring Slavery's Darkest Secrets: Charles",
            "Chesnutt's Conjure Tales. The Southern Literary Journal 27 (1994): 85-103.",
        ),
        (
            "GEGGUS, KARL MICHAEL, ANDREW JOHNSON, ELIZABETH C.",
            "BOTHA, 1993, A model-based approach to sheet music recognition, Elektron 10(1): 25-29.",
        ),
        ("———. Distant Reading. London: Verso, 2013.", None),
        (
            "MORETTI, FRANCO, MATTHEW JOCKERS, AND JOHN V.",
            "PRICE, 2012, Graphs, Maps, Trees: Abstract Models for Literary History.",
        ),
    ]
    pieces = [
        Text(72, 90, "Literature Cited", size=12, bold=True),
        *column(entry_lines(entries), 72, 90 + 2 * LINE, indent=14),
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "initials.pdf", [body(50), pieces]))
    assert [reference.raw for reference in extraction.references] == [
        " ".join(filter(None, entry)) for entry in entries
    ]


def test_a_part_heading_at_the_foot_of_a_page_is_left_out_of_the_list_on_the_next(tmp_path: Path) -> None:
    """The reference heading and the first part's heading end a page, the entries begin on the next: the
    part heading is measured against the list's column there, not against itself alone."""
    first_page = [
        *body(50),
        Text(72, 100 + 51 * LINE, "REFERENCES"),
        Text(72, 100 + 52.5 * LINE, "Secondary sources", size=9, bold=True),
    ]
    parts = [entries[:1] for entries in PARTS.values()][:3]  # a short list: too few entries to stand alone
    pieces, y = [], 100.0
    for part, entries in zip(PARTS, parts, strict=False):
        if pieces:
            pieces.append(Text(72, y, part, size=9, bold=True))
            y += 1.5 * LINE
        for first, second in entries:
            pieces += [Text(72, y, first), Text(86, y + LINE, second)]
            y += 2.5 * LINE
    extraction = extract_pdf(write_pdf(tmp_path / "foot.pdf", [body(50), first_page, pieces]))
    assert [reference.raw for reference in extraction.references] == [
        f"{first} {second}" for entries in parts for first, second in entries
    ]


def test_a_part_heading_at_the_foot_of_a_column_is_left_out_of_the_list_in_the_next(tmp_path: Path) -> None:
    """The reference heading and a plain part heading end the left column, the numbered entries fill the
    right one: the part heading is measured against the list's lines in the next column."""
    left = [Text(72, 100 + i * LINE, f"left column body text line {i} and so on") for i in range(50)]
    left += [Text(72, 100 + 51 * LINE, "References", bold=True), Text(72, 100 + 52 * LINE, "Data sources")]
    entries = [
        ("[1] PATE, C. MARVIN. What Does the Future", "Hold? Views on the End Times. Baker, 2010."),
        ("[2] BOGGIANO, A. K., & KATZ, P. (1991).", "Maladaptive achievement patterns. JSI, 47."),
        ("[3] T. R. LAPP, “Guidance and control using", "predictive control,” thesis, MIT, 2004."),
        ("[4] MACPHERSON, JAMES. 1765. The Works of", "Ossian. London: Becket and Dehondt."),
    ]
    right = []
    for i, (first, second) in enumerate(entries):
        right += [Text(318, 100 + 2 * i * LINE, first), Text(306, 100 + (2 * i + 1) * LINE, second)]
    extraction = extract_pdf(write_pdf(tmp_path / "column-foot.pdf", [left + right]))
    assert [reference.raw for reference in extraction.references] == [
        f"{a.split('] ', 1)[1]} {b}" for a, b in entries
    ]


ONE_AUTHOR_GIVEN_NAME_FIRST = [  # the part's first entry opens with one name, given name first: no shape
    ("Stephen H. Kellert, In the Wake of Chaos: Unpredictable Order in", "Dynamical Systems, 1993."),
    ("Butcher, J. C. General linear methods: a survey. Applied Numerical", "Mathematics, 1:273, 1985."),
    ("Suarez, L. E. and Montejo, L. A. (2005). Generation of artificial", "earthquakes. IJSS, 42:5905-5919."),
]


def test_a_part_heading_before_an_entry_of_no_shape_is_told_by_the_entry_after_it(tmp_path: Path) -> None:
    """The first entry under the part heading opens with no reference shape; the next one, a few lines on,
    does: the bold line heads a part and does not end the list."""
    extraction = _under_one_part_heading(tmp_path / "no-shape.pdf", ONE_AUTHOR_GIVEN_NAME_FIRST)
    assert [reference.raw for reference in extraction.references] == [
        f"{a} {b}" for a, b in ONE_AUTHOR_GIVEN_NAME_FIRST
    ]


def test_a_plain_part_heading_at_the_head_of_a_page_is_left_out(tmp_path: Path) -> None:
    """A plain part heading opens a page after an entry that ended: no space above it can be seen there,
    and in a list set with first-line indents its place at the margin is a continuation's, yet it heads a
    part and is no line of the entry before it."""
    end_of_page = [
        *body(50),
        Text(72, 100 + 51 * LINE, "References", size=12, bold=True),
        *column(entry_lines(FIRST_LINE_INDENTED[:3]), 72, 100 + 53 * LINE, indent=14, hanging=False),
    ]
    next_page = [
        Text(72, 90, "Archival sources"),
        *column(entry_lines(FIRST_LINE_INDENTED[3:]), 72, 90 + LINE, indent=14, hanging=False),
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "head.pdf", [end_of_page, next_page]))
    assert [reference.raw for reference in extraction.references] == [
        " ".join(filter(None, entry)) for entry in FIRST_LINE_INDENTED
    ]


def test_a_short_italic_line_of_a_title_is_no_part_heading(tmp_path: Path) -> None:
    """A title in italics wraps after "Policing Rio de Janeiro:" onto a short line, "Repression and
    Resistance in a", and the entry after it opens a few lines on: the line does not stand between two
    entries (the line before it broke off), so it is no part heading and stays in its entry."""
    lines = [
        Text(72, 90, "References", size=12, bold=True),
        Text(72, 90 + 2 * LINE, "Butcher, J. C. General linear methods: a survey. Applied Numerical"),
        Text(86, 90 + 3 * LINE, "Mathematics, 1:273, 1985."),
        Text(72, 90 + 4 * LINE, "Holloway, Thomas. Policing Rio de Janeiro:"),
        Text(86, 90 + 5 * LINE, "Repression and Resistance in a", italic=True),
        Text(86, 90 + 6 * LINE, "Nineteenth-Century City. Stanford, CA: Stanford University Press, 1993."),
        Text(72, 90 + 7 * LINE, "Suarez, L. E. and Montejo, L. A. (2005). Generation of artificial"),
        Text(86, 90 + 8 * LINE, "earthquakes. IJSS, 42:5905-5919."),
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "italic.pdf", [body(50), lines]))
    assert [reference.raw for reference in extraction.references][1] == (
        "Holloway, Thomas. Policing Rio de Janeiro: Repression and Resistance in a Nineteenth-Century City. "
        "Stanford, CA: Stanford University Press, 1993."
    )
