"""Finding the reference list and splitting it into references, on real PDFs written with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from refhound.agents.extractor import extract_pdf
from refhound.agents.extractor.entry_shape import opening_shape
from refhound.agents.extractor.segment import _opens_with_authors
from tests.agents.extractor.pdfmaker import LINE, Text, body, column, write_pdf

AUTHOR_YEAR = [
    "Bartlett, C. and Ghoshal, S. (1989): Managing Across Borders. The Transnational",
    "\tSolution. Boston: Harvard Business School Press.",
    "Birkinshaw, J., Hood, N. and Jonsson, S. (1998): Building Firm-specific Advantages in",
    "\tMultinational Corporations. Strategic Management Journal, 19: 221-41.",
    "Bluhm, K. (2001): Exporting or Abandoning the German Model? European Journal of",
    "\tIndustrial Relations, 7(2): 153-74.",
]
NUMBERED = [
    "[1] A. Vaswani, N. Shazeer, and N. Parmar. Attention is all you need. In NeurIPS, 2017.",
    "[2] J. Devlin, M. Chang, K. Lee, and K. Toutanova. BERT: Pre-training of deep bidirec-",
    "\ttional transformers for language understanding. In NAACL, 2019.",
    "[3] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition.",
    "\tIn CVPR, pages 770-778, 2016.",
]


def _raws(path: Path) -> list[str]:
    return [reference.raw for reference in extract_pdf(path).references]


def _paper(tmp_path: Path, heading: str, entries: list[str], **layout: float | bool) -> Path:
    heading_line = Text(72, 360, heading, 12, True)
    page = [*body(20), heading_line, *column(entries, 72, 385, indent=15, **layout)]  # type: ignore[arg-type]
    return write_pdf(tmp_path / "paper.pdf", [page])


@pytest.mark.parametrize(
    "heading",
    [
        "References",
        "REFERENCES",
        "7 References",
        "VII. REFERENCES",
        "Bibliography",
        "Literature Cited",
        "Works Cited",
        "Literatur",
        "Literaturverzeichnis",
        "Références",
        "Bibliografía",
        "Referencias",
        "Riferimenti bibliografici",
    ],
)
def test_the_list_is_found_by_its_heading(tmp_path: Path, heading: str) -> None:
    extraction = extract_pdf(_paper(tmp_path, heading, AUTHOR_YEAR))
    assert extraction.section.startswith(f"heading: {heading}")
    assert len(extraction.references) == 3


def test_hanging_indents_split_author_year_entries(tmp_path: Path) -> None:
    raws = _raws(_paper(tmp_path, "References", AUTHOR_YEAR))
    assert raws == [
        "Bartlett, C. and Ghoshal, S. (1989): Managing Across Borders. The Transnational Solution. Boston: "
        "Harvard Business School Press.",
        "Birkinshaw, J., Hood, N. and Jonsson, S. (1998): Building Firm-specific Advantages in Multinational "
        "Corporations. Strategic Management Journal, 19: 221-41.",
        "Bluhm, K. (2001): Exporting or Abandoning the German Model? European Journal of Industrial "
        "Relations, 7(2): 153-74.",
    ]


def test_first_line_indents_split_entries(tmp_path: Path) -> None:
    raws = _raws(_paper(tmp_path, "References", AUTHOR_YEAR, hanging=False))
    assert [raw.split(",")[0] for raw in raws] == ["Bartlett", "Birkinshaw", "Bluhm"]


def test_numbered_entries_lose_their_number_and_hyphenation(tmp_path: Path) -> None:
    raws = _raws(_paper(tmp_path, "References", NUMBERED))
    assert len(raws) == 3
    assert raws[1] == (
        "J. Devlin, M. Chang, K. Lee, and K. Toutanova. BERT: Pre-training of deep bidirectional "
        "transformers for language understanding. In NAACL, 2019."
    )


@pytest.mark.parametrize("marker", ["{n}.", "({n})", "{n}"])
def test_other_numbering_styles(tmp_path: Path, marker: str) -> None:
    # Surnames, not "Author1": a name with a digit in it reads as no author, and the entry as no reference.
    names = ["Adams", "Baker", "Clark", "Davis"]
    entries = [
        f"{marker.format(n=n)} {names[n - 1]}, A. Title number {n} of a paper. Journal {n}, 20{10 + n}."
        for n in range(1, 5)
    ]
    raws = _raws(_paper(tmp_path, "References", entries))
    assert raws == [
        f"{names[n - 1]}, A. Title number {n} of a paper. Journal {n}, 20{10 + n}." for n in range(1, 5)
    ]


def test_a_year_opening_a_wrapped_line_does_not_split_a_numbered_entry(tmp_path: Path) -> None:
    entries = [
        "1. Smith, J. A very long title that wraps onto the next line, Journal of Things,",
        "\t2019. Volume 3.",
        "2. Jones, K. Another title. Some Venue, 2020.",
        "3. Brown, L. A third title. Other Venue, 2021.",
    ]
    raws = _raws(_paper(tmp_path, "References", entries))
    assert len(raws) == 3
    assert raws[0].endswith("Journal of Things, 2019. Volume 3.")


def test_entries_run_across_columns_and_pages(tmp_path: Path) -> None:
    """An entry that starts at the foot of the left column ends at the top of the right one; the last one
    starts at the foot of the right column and ends on the next page."""
    entries = [f"Author{n}, A. (20{10 + n}): Paper {n}, a title that wraps" for n in range(1, 7)]
    continuation = "\tonto a line. Journal of Examples, {n}: 1-10."
    left = [*body(30, x=56, width_chars=40), Text(56, 470, "References", 12, True)]
    left += column([entries[0], continuation.format(n=1), entries[1]], 56, 495, indent=12)
    right_lines = [continuation.format(n=2)]
    for n in range(3, 6):
        right_lines += [entries[n - 1], continuation.format(n=n)]
    right_lines.append(entries[5])
    right = column(right_lines, 310, 100, indent=12)
    page_two = [Text(322, 100, "onto a line. Journal of Examples, 6: 1-10.")]
    raws = _raws(write_pdf(tmp_path / "across.pdf", [left + right, page_two]))
    assert len(raws) == 6
    for n, raw in enumerate(raws, start=1):
        assert raw.startswith(f"Author{n}, A.")
        assert raw.endswith(f"a title that wraps onto a line. Journal of Examples, {n}: 1-10.")


def test_the_list_ends_at_an_appendix(tmp_path: Path) -> None:
    page = [*body(10), Text(72, 250, "References", 12, True), *column(NUMBERED, 72, 275, indent=15)]
    page += [Text(72, 360, "A Appendix: Proofs", 12, True), *body(5, y=385)]
    raws = _raws(write_pdf(tmp_path / "appendix.pdf", [page]))
    assert len(raws) == 3
    assert not any("corpora" in raw for raw in raws)


def test_a_numbered_list_without_heading_is_found_by_its_shape(tmp_path: Path) -> None:
    page = body(20) + column(NUMBERED, 72, 385, indent=15)
    extraction = extract_pdf(write_pdf(tmp_path / "noheading.pdf", [page]))
    assert extraction.section.startswith("numbered list")
    assert len(extraction.references) == 3


def test_a_numbered_list_of_long_entries_in_a_narrow_column_is_found_by_its_shape(tmp_path: Path) -> None:
    """Without a heading to find it by, a numbered list whose entries run to eleven lines each (long author
    lists and editors, set in a narrow column in large type) is still one list: the next number is due
    after a long entry's text, not after a fixed count of lines."""
    names = ["Lee", "Chen", "Garcia", "Novak", "Okafor", "Silva", "Tanaka", "Weber", "Rossi", "Kowalski"]
    lines: list[str] = []
    for n in range(1, 5):
        lines.append(f"[{n}] Ann {names[n]}, Ben {names[n - 1]},")
        lines += [f"\tCara {names[k]}, Dan {names[k + 1]}," for k in range(8)]
        lines += [f"\tand Eve Moreau. A long title of entry {n}.", "\tIn Proceedings of Examples, 2019."]
    extraction = extract_pdf(write_pdf(tmp_path / "narrow-list.pdf", [body(5) + column(lines, 72, 170, 15)]))
    assert extraction.section.startswith("numbered list")
    assert [ref.raw.split(",")[0] for ref in extraction.references] == [
        f"Ann {names[n]}" for n in range(1, 5)
    ]
    assert all(ref.raw.endswith("In Proceedings of Examples, 2019.") for ref in extraction.references)


def test_a_numbered_list_in_the_body_is_not_taken_for_references(tmp_path: Path) -> None:
    steps = [f"{n}. Step number {n} of the procedure described above in words" for n in range(1, 6)]
    extraction = extract_pdf(write_pdf(tmp_path / "steps.pdf", [body(10) + column(steps, 72, 300)]))
    assert extraction.references == []
    assert extraction.warnings == [
        "no reference section found (no heading such as 'References' and no numbered list)"
    ]


def test_sub_headings_inside_the_list_are_not_references(tmp_path: Path) -> None:
    entries = ["Primary sources", *AUTHOR_YEAR[:2], "Secondary literature", *AUTHOR_YEAR[2:]]
    raws = _raws(_paper(tmp_path, "References", entries))
    assert [raw.split(",")[0] for raw in raws] == ["Bartlett", "Birkinshaw", "Bluhm"]


def test_link_annotations_fill_identifiers(tmp_path: Path) -> None:
    page = [*body(10), Text(72, 250, "References", 12, True)]
    page += [
        Text(72, 275, "[1] A. Vaswani et al. Attention is all you need. In NeurIPS, 2017. [link]"),
        Text(
            72,
            275 + LINE,
            "[2] J. Devlin et al. BERT. In NAACL, 2019. arXiv",
            link="https://arxiv.org/abs/1810.04805",
        ),
        Text(
            72,
            275 + 2 * LINE,
            "[3] K. He et al. Deep residual learning. In CVPR, 2016. DOI",
            link="https://doi.org/10.1109/CVPR.2016.90",
        ),
    ]
    references = extract_pdf(write_pdf(tmp_path / "links.pdf", [page])).references
    assert [r.links for r in references] == [
        [],
        ["https://arxiv.org/abs/1810.04805"],
        ["https://doi.org/10.1109/CVPR.2016.90"],
    ]
    assert references[1].parsed.arxiv_id == "1810.04805"
    assert references[2].parsed.doi == "10.1109/cvpr.2016.90"
    assert [r.page for r in references] == [1, 1, 1]


def test_footnote_references_are_reported_as_such(tmp_path: Path) -> None:
    pages = []
    for n in range(1, 3):
        page = body(40)
        page += [
            Text(
                72,
                720,
                f"{n} Smith, J., The History of Law in Europe, Oxford University Press, 19{80 + n}, p. 12.",
                8,
            ),
            Text(72, 730, "  continued on a second footnote line.", 8),
            Text(72, 745, f"{n + 10} Ibid., p. 14.", 8),
        ]
        pages.append(page)
    extraction = extract_pdf(write_pdf(tmp_path / "footnotes.pdf", pages))
    assert extraction.section == "footnotes"
    assert [r.raw for r in extraction.references] == [
        f"Smith, J., The History of Law in Europe, Oxford University Press, 19{80 + n}, p. 12. "
        "continued on a second footnote line."
        for n in range(1, 3)
    ]
    assert [r.page for r in extraction.references] == [1, 2]
    assert "taken from footnotes" in extraction.warnings[-1]


def test_marks_after_an_entrys_full_stop_do_not_hide_its_end(tmp_path: Path) -> None:
    """ "2013. *†" (a study of the meta-analysis, a note) ends an entry: the next line at the margin of a
    list set with hanging indents opens one, though its one author, given name first, has no shape."""
    entries = [
        "Wilson, I. and B. Gick. Bilinguals use language-specific articulatory settings. Journal",
        "\tof Speech, Language and Hearing Research. 2013. *†",
        "Theodor W. Adorno. Minima Moralia: Reflections from Damaged Life, trans. E. Jephcott",
        "\t(London: NLB, 1974), p. 19.",
        "Baskin, D. A parametrix for the fundamental solution of the Klein-Gordon equation.",
        "\tJournal of Functional Analysis, 259(7):1673-1719, 2010.",
    ]
    assert _raws(_paper(tmp_path, "References", entries)) == [
        f"{entries[i]} {entries[i + 1].lstrip()}" for i in range(0, 6, 2)
    ]


@pytest.mark.parametrize(
    "opening",
    [
        "Trevor Hastie, Robert Tibshirani, and J. H. Friedman. The elements of statistical",
        "—. Illuminations. Edited by Hannah Arendt. Translated by Harry Zohn. London: Random",
        "Replogle K, Reader A, Nist R, et al: Cardiovascular effects of intraosseous injections. Random",
    ],
    ids=["given-names-first", "a-lone-dash", "surname-initials"],
)
def test_authors_open_an_entry_at_the_head_of_a_page_in_any_shape(tmp_path: Path, opening: str) -> None:
    """A list set flush with a gap between entries: at the head of a page no gap can be seen, and an entry
    opens there after a line that ended one when its authors open it, in any shape an entry opens with:
    given names first, the dash that stands for the previous entry's, "Surname AB" initials."""
    entries = [
        (f"Author{n}, A. ({2000 + n}). A study of the {n}th kind, with a title that runs on", "Journal, 1.")
        for n in range(1, 8)
    ]
    pieces, y = [*body(20), Text(72, 360, "References", 12, True)], 385.0
    for first, second in entries:
        pieces += [Text(72, y, first), Text(72, y + LINE, second)]
        y += 2.6 * LINE
    next_page = [Text(72, 90, opening), Text(72, 90 + LINE, "House, 2001.")]
    raws = _raws(write_pdf(tmp_path / "gaps.pdf", [pieces, next_page]))
    assert raws[-2:] == [
        "Author7, A. (2007). A study of the 7th kind, with a title that runs on Journal, 1.",
        f"{opening} House, 2001.",
    ]


def test_a_wrapped_line_opening_with_an_appendix_word_goes_on_with_its_entry(tmp_path: Path) -> None:
    """A title that breaks off ("Handbook of Statistical") goes on with "Tables. Reading, Massachusetts:" on
    the next line: a short plain line naming an appendix ends the list only as a heading's words alone or
    after a line that ended an entry."""
    entries = [
        "[1] D. B. Owen. Handbook of Statistical",
        "\tTables. Reading, Massachusetts:",
        "\tAddison-Wesley, 1962.",
        *NUMBERED[1:],
    ]
    raws = _raws(_paper(tmp_path, "References", entries))
    assert (
        raws[0] == "D. B. Owen. Handbook of Statistical Tables. Reading, Massachusetts: Addison-Wesley, 1962."
    )
    assert len(raws) == 3


def test_a_wrapped_line_opening_with_the_next_but_one_number_goes_on_with_its_entry(tmp_path: Path) -> None:
    """ "volume" / "4. American Mathematical Society" wraps before entry 3: a number one past the expected
    one opens an entry only when the expected one does not follow within an entry's length."""
    entries = [
        "1. A. Author. A first paper on the subject. Journal of Examples, 2001.",
        "2. L. Bieri and N. Zipser. Extensions of the stability theorem of the Minkowski space, volume",
        "\t4. American Mathematical Society, 2009.",
        "3. C. Heylman. Modeling oxygen distribution in bone defects. Med Biol Eng Comput, 2014.",
        "4. S. Keri. Sharing secrets: oxytocin and trust. Social Neuroscience, 4(4): 287-293, 2009.",
    ]
    assert _raws(_paper(tmp_path, "References", entries)) == [
        entries[0][3:],
        f"{entries[1][3:]} {entries[2].lstrip()}",
        entries[3][3:],
        entries[4][3:],
    ]


def test_an_entry_of_one_line_opening_with_a_dash_run_is_kept(tmp_path: Path) -> None:
    """ "———. As Minas de Prata. In Obra Completa, 2: 407–1258." takes one line and prints no year: the dash
    that stands for the previous entry's authors says it is an entry, not a sub-heading or page furniture."""
    entries = [*AUTHOR_YEAR[:2], "———. As Minas de Prata. In Obra Completa, 2: 407–1258.", *AUTHOR_YEAR[2:]]
    raws = _raws(_paper(tmp_path, "References", entries))
    assert "———. As Minas de Prata. In Obra Completa, 2: 407–1258." in raws
    assert len(raws) == 4


@pytest.mark.parametrize(
    "line", ["AND R. A. MEYER. (1991) Multistage Negotiation", "& JONES, K. (2001). A title"]
)
def test_a_line_opening_with_a_conjunction_in_capitals_opens_no_entry(line: str) -> None:
    """ "S. E. CONRY, K. KUWABARA, V. R. LESSER" / "AND R. A. MEYER. (1991) …": an author list in capitals
    wrapped before its last name. Read as "AND" a surname in capitals and "R. A." initials, the line opened
    an entry, and a list split by that shape won over the gaps between its entries (18 entries read as 8);
    a line opening with a conjunction in capitals opens no entry in any shape."""
    assert opening_shape(line) is None
    assert not _opens_with_authors(line)
    assert opening_shape("ANDERSON, J. (2001). A title") == "capitals"
