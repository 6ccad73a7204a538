"""The plausibility gate: entries that do not read as references are shown as extraction problems, never
judged. The PDF is built with PyMuPDF: a reference list followed by an author's biography set like one more
entry (no heading between them), as a journal prints it."""

from __future__ import annotations

from pathlib import Path

import pytest

from refhound.agents.extractor import extract_pdf, read_pdf_references
from refhound.agents.extractor.plausibility import GATE, reference_likeness
from refhound.refstring import parse_reference_string
from refhound.refstring.confidence import field_confidence
from refhound.settings import Settings
from tests.agents.extractor.pdfmaker import LINE, Text, body, write_pdf

BIOGRAPHY = [  # the case; set without a name-and-verb opening, which ends a list by itself
    "Our author, Associate Professor of Sociology at York University. Her research focuses on labour",
    "markets and migration. Address: Department of Sociology, Room 2060 Vari Hall, York University, 4700",
    "Keele Street, Toronto, Ontario M3J 1P3, Canada. E-mail: jdoe@yorku.ca",
]
PRINTED = [  # two lines each, entries set apart by a blank line's worth of space
    ("Abel, K. (2012). Works councils and collective bargaining in Germany.", "Berlin: Duncker und Humblot."),
    (
        "Bauer, A. (1998). Social policy and the welfare state in comparison.",
        "Journal of Social Policy 12: 1-20.",
    ),
    ("Keller, B. and Weber, T. (2005). Trade unions in transition.", "London: Routledge."),
    ("Müller, H. (2001). The governance of regional labour markets.", "Berlin: Campus Verlag."),
]
REFERENCES = [" ".join(lines) for lines in PRINTED]


def likeness(raw: str) -> float:
    parsed = parse_reference_string(raw)
    return reference_likeness(raw, parsed, field_confidence(raw, parsed)).score


@pytest.mark.parametrize(
    "raw",
    [
        *REFERENCES,
        "Jan Marco Ruiz de Vargas, Kirtan Padh, and Niki Kilbertus. Cluster-Dags as Powerful Background "
        "Knowledge For Causal Discovery. 2024.",
        "OpenAI. Gpt-4o mini: advancing cost-efficient intelligence, July 2024.",
        # Invented, with a year to come: it reads as a reference, so the judge must see it.
        "Seo, W. (2061). Contrastive curriculum distillation for sparse mixture models. In Proceedings of "
        "ICML.",
        "A. Nobody. Untitled. doi:10.1234/abcd.5678",
    ],
)
def test_references_pass_the_gate(raw: str) -> None:
    assert likeness(raw) >= GATE


@pytest.mark.parametrize(
    "raw",
    [
        " ".join(BIOGRAPHY),
        "Received: 12 March 2014 / Accepted: 3 June 2015 / Published online: 30 June 2015",
        "Please send me the following discussion papers at a price of 5 EUR per copy, which will be invoiced "
        "with the shipping costs in 2014 to the address given below",
    ],
)
def test_biographies_dates_and_forms_do_not(raw: str) -> None:
    assert likeness(raw) < GATE


def _paper(tmp_path: Path) -> Path:
    heading = Text(72, 90, "References", size=12, bold=True)
    entries = [
        Text(72, 110 + i * 3 * LINE + j * LINE, line)
        for i, lines in enumerate(PRINTED)
        for j, line in enumerate(lines)
    ]
    bio_top = 110 + len(PRINTED) * 3 * LINE
    bio = [Text(72, bio_top + i * LINE, line) for i, line in enumerate(BIOGRAPHY)]
    return write_pdf(tmp_path / "paper.pdf", [body(40), [heading, *entries, *bio]])


def test_a_biography_after_the_list_is_an_extraction_problem_not_a_reference(tmp_path: Path) -> None:
    path = _paper(tmp_path)
    extraction = extract_pdf(path)
    assert [reference.raw for reference in extraction.references] == REFERENCES
    assert len(extraction.set_aside) == 1 and "Room 2060" in extraction.set_aside[0].raw
    assert extraction.set_aside[0].likeness < GATE

    references, problems = read_pdf_references(path, Settings())
    assert all("2060" not in reference.raw for reference in references)
    (problem,) = [p for p in problems if p.message.startswith("extraction problem")]
    assert problem.location == f"entry {extraction.set_aside[0].id} (page 2)"
    assert "not checked" in problem.message and "Room 2060 Vari Hall" in problem.message


def test_a_list_of_which_no_entry_reads_as_a_reference_shows_each_entry(tmp_path: Path) -> None:
    # "References" over a biography and an order form alone: nothing to judge, every entry still shown.
    heading = Text(72, 90, "References", size=12, bold=True)
    bio = [Text(72, 110 + i * LINE, line) for i, line in enumerate(BIOGRAPHY)]
    form = Text(
        72,
        110 + 4 * LINE,
        "Please send me the following discussion papers at a price of 5 EUR per copy, to the address below",
    )
    path = write_pdf(tmp_path / "none.pdf", [body(40), [heading, *bio, form]])
    extraction = extract_pdf(path)
    assert extraction.references == [] and extraction.set_aside

    references, problems = read_pdf_references(path, Settings())
    assert references == []
    assert problems[0].message.endswith(
        "1 entry did not read as a reference"
        if len(extraction.set_aside) == 1
        else f"{len(extraction.set_aside)} entries did not read as references"
    )
    shown = [p for p in problems[1:] if p.message.startswith("extraction problem, not checked")]
    assert len(shown) == len(extraction.set_aside)
    assert any("Room 2060 Vari Hall" in p.message for p in shown)
