"""Layout classes that once cost whole reference lists, each built as a real PDF with PyMuPDF: line numbers
down the margin, back matter after the list (editorial dates, contact blocks, order forms, biographies), a
table's "Sources" after the real "Bibliography" whose entries open with family names in capitals."""

from __future__ import annotations

from pathlib import Path

from refhound.agents.extractor import extract_pdf
from tests.agents.extractor.pdfmaker import LINE, Text, body, write_pdf

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
    ["Jane Doe is Associate Professor of Sociology at Example University. Her research since 2004 is on"],
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


CAPITALS = [
    ("APPELBAUM Eileen, BATT, Rosemary, 1994, The new American workplace, Ithaca,", "ILR Press."),
    ("BOYER Robert, 1995, Capital-labour relations in OECD countries, Paris, CEPREMAP.", ""),
    ("FREEMAN Richard, MEDOFF James, 1984, What do unions do?, New York, Basic", "Books."),
    ("PIORE Michael, SABEL Charles, 1984, The second industrial divide, New York,", "Basic Books."),
]


def test_a_bibliography_in_capitals_wins_over_a_tables_sources(tmp_path: Path) -> None:
    bibliography = [Text(72, 90, "Bibliography", size=12, bold=True)]
    y = 110.0
    for first, second in CAPITALS:
        bibliography.append(Text(72, y, first))
        y += LINE
        if second:
            bibliography.append(Text(86, y, second))
            y += LINE
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
