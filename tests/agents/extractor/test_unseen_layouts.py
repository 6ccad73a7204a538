"""Reference lists in layouts the extractor has no rule for by name: found by what they look like, and split
by the shape their entries open with. Each test builds one class of layout as a real PDF with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from refhound.agents.extractor import extract_pdf
from refhound.agents.extractor.entry_shape import opening_shape
from refhound.agents.extractor.segment import split_entries
from refhound.pdf.layout import Line
from tests.agents.extractor.pdfmaker import LINE, Text, body, column, write_pdf

# Surnames in capitals, then the given name; fields separated by commas; no final full stop on some.
CAPITALS = [
    "MÜLLER, Hans, SCHMIDT, Peter, 2001, The governance of regional labour markets,",
    "Berlin, Campus Verlag",
    "BAUER, Anna, 1998, Social policy and the welfare state in comparison, Frankfurt,",
    "Suhrkamp.",
    "KELLER, Berndt, WEBER, Tom, 2005, Trade unions in transition, London, Routledge.",
    "ZIMMER, Eva, 2010, Migration and integration in European cities, Opladen, Leske",
    "und Budrich.",
    "ABEL, Karl, 2012, Works councils and collective bargaining in Germany, Berlin,",
    "Duncker und Humblot.",
]
# "Surname I. (year) 'Title', Journal": a run of dashes stands for the previous entry's authors.
REPEATED = [
    "Smith J. (2001) 'The structure of labour markets', Journal of Economics 3: 1-10.",
    "—— (2003) 'Wages and work in the long run', Economic Review 12: 33-59.",
    "Brown K. and Green L. (1999) 'Schools and families in the city', Sociology 7:",
    "101-120.",
    "---- (2004) 'Families revisited', Sociology 12: 1-20.",
    "___ (2006) 'Families, once more', Sociology 14: 5-25.",
    "Jones P. (2010) 'Health and wealth', Social Science Quarterly 44: 800-820.",
]
# Vancouver style set flush left: "Surname AB, Surname C. Title. Journal year;vol:pages."
VANCOUVER = [
    "Smith JA, Jones B. Outcomes of early treatment in a cohort of adults with chronic",
    "disease. J Clin Epidemiol 2001;54:100-110.",
    "Brown K, Green L, White M. Screening for risk factors in primary care: a trial.",
    "BMJ 2005;330:1-5.",
    "Miller R. Costs of care in the last year of life. Health Econ 2010;19:33-41.",
    "Taylor S, Moore D. Adherence to guidelines among general practitioners in three",
    "countries. Fam Pract 2012;29:200-210.",
]
# "I. Surname" style set flush left.
INITIALS_FIRST = [
    "J. Smith and K. Brown. 2001. Parsing citations with rules. Journal of Documents, 4:",
    "1-20.",
    "L. Green. 2003. A survey of layout analysis. In Proceedings of the Conference on",
    "Document Engineering, pages 5-9.",
    "M. White, N. Black, and O. Grey. 2010. Reading order in two-column pages. Pattern",
    "Recognition, 43:100-110.",
    "P. Stone. 2015. Tables and figures in scientific articles. Information Retrieval, 18:1-9.",
]


def _flush_left(entries: list[str], x: float = 72.0, y: float = 385.0) -> list[Text]:
    return [Text(x, y + i * LINE, line) for i, line in enumerate(entries)]


def _extract(tmp_path: Path, pages: list[list[Text]]) -> tuple[str, list[str], list[list[str]]]:
    extraction = extract_pdf(write_pdf(tmp_path / "paper.pdf", pages))
    return (
        extraction.section,
        [reference.raw for reference in extraction.references],
        [reference.parsed.authors for reference in extraction.references],
    )


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("MÜLLER, Hans, SCHMIDT, Peter, 2001,", "capitals"),
        ("VAN DER BERG, J. (1999)", "capitals"),
        ("Smith, J. (2001):", "surname-comma"),
        ("de Vries, Anna, 2001.", "surname-comma"),
        ("Smith J. (2001) 'Title'", "surname-initials"),
        ("Smith JA, Jones B. Title.", "surname-initials"),
        ("J. Smith and K. Brown. 2001.", "initials-surname"),
        ("J.-P. Sartre. 1943.", "initials-surname"),
        ("World Bank (2003) Report", "name-year"),
        ("Statistisches Bundesamt. 2013a. Daten", "name-year"),
        ("—— (2003) 'Title'", "dashes"),
        ("---- (2004)", "dashes"),
        ("___ 2006.", "dashes"),
        ("Anant K. Agarwal, Ivan Zaitsev", None),  # given name first: no shape of its own
        ("Waleed Ammar, Dirk Groeneveld", None),
        ("In 2001, the government", None),
        ("The method is evaluated", None),
        ("As of 2001, the", None),
        ("Cambridge, MA: MIT Press, 1999.", None),  # a publisher's place opening a wrapped line
        ("Cambridge, Mass.: Harvard University Press", None),
        ("Stanford, California: Stanford University Press", None),
        ("Smith, J.: Title. In: Proceedings", "surname-comma"),  # initials with full stops, then a colon
    ],
)
def test_opening_shapes(text: str, shape: str | None) -> None:
    assert opening_shape(text) == shape


def test_capital_surnames_under_an_unknown_heading(tmp_path: Path) -> None:
    page = [*body(20), Text(72, 360, "Cited Material", 12, True), *_flush_left(CAPITALS)]
    section, raws, authors = _extract(tmp_path, [page])
    assert section.startswith("entry-like lines (capitals)")
    assert [raw.split(",")[0] for raw in raws] == ["MÜLLER", "BAUER", "KELLER", "ZIMMER", "ABEL"]
    assert raws[0].endswith("labour markets, Berlin, Campus Verlag")
    assert authors[0] == ["MÜLLER, Hans", "SCHMIDT, Peter"]


def test_a_list_without_heading_is_taken_before_footnotes(tmp_path: Path) -> None:
    """Footnotes cite on every page, but a list-like block at the end is the reference list."""
    pages = []
    for n in range(1, 3):
        page = body(40)
        page.append(
            Text(72, 720, f"{n} Smith, J., The History of Law, Oxford University Press, 19{80 + n}.", 8)
        )
        pages.append(page)
    pages.append([*body(10), *_flush_left(REPEATED, y=250)])
    extraction = extract_pdf(write_pdf(tmp_path / "paper.pdf", pages))
    assert extraction.section.startswith("entry-like lines (surname-initials)")
    assert not any("footnotes" in warning for warning in extraction.warnings)
    assert [r.raw[:8] for r in extraction.references] == [
        "Smith J.",
        "—— (2003",
        "Brown K.",
        "---- (20",
        "___ (200",
        "Jones P.",
    ]


def test_dashes_carry_the_previous_entrys_authors(tmp_path: Path) -> None:
    page = [*body(20), Text(72, 360, "References", 12, True), *_flush_left(REPEATED)]
    references = extract_pdf(write_pdf(tmp_path / "paper.pdf", [page])).references
    assert [r.authors_from_previous for r in references] == [False, True, False, True, True, False]
    assert [r.parsed.authors for r in references] == [
        ["Smith J"],
        ["Smith J"],
        ["Brown K", "Green L"],
        ["Brown K", "Green L"],
        ["Brown K", "Green L"],
        ["Jones P"],
    ]
    assert references[1].raw.startswith("—— (2003)")  # the string stays as printed
    assert references[3].confidence["authors"] == references[2].confidence["authors"]
    assert references[1].parsed.title == "Wages and work in the long run"
    assert references[1].parsed.year == 2003
    assert references[3].parsed.year == 2004


def test_dashes_followed_by_a_co_author(tmp_path: Path) -> None:
    entries = [
        "Smith, J. (2001): Labour markets in transition. Journal of Economics 3: 1-10.",
        "——— and Brown, K. (2004): Wages revisited. Economic Review 12: 33-59.",
        "Taylor, S. (2008): Unions and employers. Industrial Relations 7: 1-9.",
    ]
    page = [*body(20), Text(72, 360, "References", 12, True), *_flush_left(entries)]
    references = extract_pdf(write_pdf(tmp_path / "paper.pdf", [page])).references
    assert references[1].parsed.authors == ["Smith, J.", "Brown, K."]
    assert references[1].authors_from_previous


def test_single_em_dashes_are_repeated_authors_not_bullets(tmp_path: Path) -> None:
    entries = [
        "Weber, M. (1904): Die protestantische Ethik. Tübingen: Mohr.",
        "— (1919): Politik als Beruf. München: Duncker und Humblot.",
        "— (1921): Wirtschaft und Gesellschaft. Tübingen: Mohr.",
        "— (1922): Gesammelte Aufsätze zur Wissenschaftslehre. Tübingen: Mohr.",
        "Simmel, G. (1900): Philosophie des Geldes. Leipzig: Duncker und Humblot.",
    ]
    page = [*body(20), Text(72, 360, "References", 12, True), *_flush_left(entries)]
    references = extract_pdf(write_pdf(tmp_path / "paper.pdf", [page])).references
    assert len(references) == 5
    assert [r.parsed.authors for r in references[1:4]] == [["Weber, M."]] * 3


@pytest.mark.parametrize(
    ("entries", "shape", "first_words"),
    [
        (VANCOUVER, "surname-initials", ["Smith", "Brown", "Miller", "Taylor"]),
        (INITIALS_FIRST, "initials-surname", ["J.", "L.", "M.", "P."]),
        (CAPITALS, "capitals", ["MÜLLER,", "BAUER,", "KELLER,", "ZIMMER,", "ABEL,"]),
    ],
)
def test_flush_left_lists_split_by_the_shape_of_their_entries(
    tmp_path: Path, entries: list[str], shape: str, first_words: list[str]
) -> None:
    """Set ragged, an entry's short last line tells where it ends, and the shape where a line's end cannot;
    set justified with every line reaching the column's edge, as an entry's last line may, only the shape
    its entries open with does."""
    page = [*body(20), Text(72, 360, "References", 12, True), *_flush_left(entries)]
    section, raws, _ = _extract(tmp_path, [page])
    assert section == "heading: References; split by line ends"
    assert [raw.split()[0] for raw in raws] == first_words
    justified = [
        Line(0, 72, 385 + i * LINE, 500, 395 + i * LINE, text, 10, False) for i, text in enumerate(entries)
    ]
    split, cue = split_entries(justified)
    assert cue == f"entry shape ({shape})"
    assert [entry.lines[0].text.split()[0] for entry in split] == first_words


def test_blank_lines_between_groups_do_not_make_one_entry_per_group(tmp_path: Path) -> None:
    """Wide gaps only between groups of a flush-left list: the gaps are not the entries' separators."""
    first, second = VANCOUVER[:4], VANCOUVER[4:]
    pieces = _flush_left(first, y=385) + _flush_left(second, y=385 + 4 * LINE + 20)
    third = ["Clark T. Sleep and memory in older adults. Sleep Med 2015;16:1-9."]
    pieces += _flush_left(third, y=385 + 7 * LINE + 40)
    page = [*body(20), Text(72, 360, "References", 12, True), *pieces]
    _, raws, _ = _extract(tmp_path, [page])
    assert [raw.split()[0] for raw in raws] == ["Smith", "Brown", "Miller", "Taylor", "Clark"]


def test_hanging_indents_per_column_in_an_unknown_heading_list(tmp_path: Path) -> None:
    """A two-column page: the list runs from the foot of the left column into the right one."""
    names = ["Adams", "Baker", "Clarke", "Davies", "Evans", "Fisher"]
    entries = [f"{name}, A. (20{10 + n}): Paper {n}, a title that wraps" for n, name in enumerate(names, 1)]
    continuation = "\tonto a line. Journal of Examples, {n}: 1-10."
    left = [*body(30, x=56, width_chars=40), Text(56, 470, "Consulted Writings", 12, True)]
    left += column([entries[0], continuation.format(n=1), entries[1]], 56, 495, indent=12)
    right_lines = [continuation.format(n=2)]
    for n in range(3, 7):
        right_lines += [entries[n - 1], continuation.format(n=n)]
    right = column(right_lines, 310, 100, indent=12)
    section, raws, _ = _extract(tmp_path, [left + right])
    assert section.startswith("entry-like lines (surname-comma)")
    assert len(raws) == 6
    for n, (name, raw) in enumerate(zip(names, raws, strict=True), start=1):
        tail = f"a title that wraps onto a line. Journal of Examples, {n}: 1-10."
        assert raw == f"{name}, A. (20{10 + n}): Paper {n}, {tail}"


def test_body_text_that_cites_is_no_list(tmp_path: Path) -> None:
    sentences = [
        "Smith (2001) argues that labour markets in transition differ from those of the west,",
        "and this view has been widely shared in the literature since the late nineties.",
        "Brown and Green (1999) found the opposite in their study of schools and families,",
        "which covered three cities and two decades of administrative records in detail.",
        "Jones (2010) compares the two views and concludes that both are partly right, and",
        "that the differences come from the data each of them used rather than the method.",
    ]
    extraction = extract_pdf(write_pdf(tmp_path / "paper.pdf", [[*body(20), *_flush_left(sentences)]]))
    assert extraction.references == []
    assert extraction.section == "none"


@pytest.mark.parametrize(
    "heading",
    [
        "Reference List",
        "List of References",
        "Works Consulted",
        "Sources Cited",
        "Bibliographical References",
        "Quellen- und Literaturverzeichnis",
        "Verwendete Literatur",
        "Obras citadas",
        "R EFERENCES",  # small capitals as pdfTeX prints them
    ],
)
def test_widened_headings(tmp_path: Path, heading: str) -> None:
    entries = ["Bartlett, C. and Ghoshal, S. (1989): Managing Across Borders. Boston: HBS Press."]
    entries += ["Bluhm, K. (2001): Exporting the German Model? European Journal of Industrial Relations."]
    page = [*body(20), Text(72, 360, heading, 12, True), *_flush_left(entries)]
    section, raws, _ = _extract(tmp_path, [page])
    assert section.startswith(f"heading: {heading}")
    assert len(raws) == 2


def test_footnotes_that_look_like_a_list_on_each_page_stay_footnotes(tmp_path: Path) -> None:
    """Four reference-like footnotes on each page chain like a list, but only within one page: the paper
    cites in footnotes, and every page's footnotes are taken."""
    pages = []
    for n in range(2):
        page = body(40)
        for k, name in enumerate(["Adams", "Baker", "Clarke", "Davies"]):
            number = 4 * n + k + 1
            text = f"{number} {name}, J. (19{80 + number}): The History of Law in Europe, Oxford UP, p. 12."
            page.append(Text(72, 700 + 10 * k, text, 8))
        pages.append(page)
    extraction = extract_pdf(write_pdf(tmp_path / "paper.pdf", pages))
    assert extraction.section == "footnotes"
    assert len(extraction.references) == 8


def test_a_flush_left_list_whose_first_line_is_indented_is_not_one_entry(tmp_path: Path) -> None:
    """Only the first entry is set indented (a paragraph indent): read as first-line indents, the list would
    be one entry. The lines after the entries' last lines open at the margin, as under hanging indents, and
    a margin line after one that broke off mid-sentence goes on its entry."""
    pieces = _flush_left(INITIALS_FIRST)
    pieces[0] = Text(90, pieces[0].y, pieces[0].text)
    page = [*body(20), Text(72, 360, "References", 12, True), *pieces]
    section, raws, _ = _extract(tmp_path, [page])
    assert section.startswith("heading: References; split by ")
    assert raws == [
        f"{INITIALS_FIRST[0]} {INITIALS_FIRST[1]}",
        f"{INITIALS_FIRST[2]} {INITIALS_FIRST[3]}",
        f"{INITIALS_FIRST[4]} {INITIALS_FIRST[5]}",
        INITIALS_FIRST[6],
    ]


def test_given_names_first_without_heading(tmp_path: Path) -> None:
    """ACL style ("Jacob Devlin, Ming-Wei Chang, and …") with hanging indents and no heading at all."""
    entries = [
        "Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT:",
        "\tPre-training of deep bidirectional transformers for language understanding. In NAACL.",
        "Diederik P. Kingma and Jimmy Ba. 2015. Adam: A method for stochastic optimization.",
        "\tIn ICLR.",
        "Iz Beltagy, Kyle Lo, and Arman Cohan. 2019. SciBERT: A pretrained language model",
        "\tfor scientific text. In EMNLP.",
        "Thomas N. Kipf and Max Welling. 2017. Semi-supervised classification with graph",
        "\tconvolutional networks. In ICLR.",
        "Alec Radford, Karthik Narasimhan, and Tim Salimans. 2018. Improving language",
        "\tunderstanding by generative pre-training. Technical report, OpenAI.",
    ]
    section, raws, authors = _extract(tmp_path, [[*body(20), *column(entries, 72, 385, indent=12)]])
    assert section.startswith("entry-like lines (given-names-first)")
    assert [raw.split(",")[0].split(" and")[0] for raw in raws] == [
        "Jacob Devlin",
        "Diederik P. Kingma",
        "Iz Beltagy",
        "Thomas N. Kipf",
        "Alec Radford",
    ]
    assert authors[1] == ["Diederik P. Kingma", "Jimmy Ba"]


# Entries in mixed shapes set flush left, ragged, with no space between them: only where a line ends tells
# them apart. A title first, given names first, a year at the end: no shape is shared by enough of them.
NO_CUE = [
    "RICOEUR, P. (1983), Temps et recit. Tome 1: L'intrigue et le recit historique. Editions",
    "du Seuil, Paris.",
    "Barboni, T., Cannac, M., Pasqualini, V., Simeoni, A., Leoni, E., and Chiaramonti, N.:",
    "Volatile organic compounds in smoke exposure of firefighters during prescribed burning,",
    "Int. J. Wildland Fire, 19, 606-612, 2010.",
    'Picone, J., "Signal modeling techniques in speech recognition," Proceedings of the IEEE,',
    "Vol. 81, No. 9, 1993, pp. 1215-1247.",
    "Robert Tibshirani, Jacob Bien, Jerome Friedman, Trevor Hastie, Noah Simon, Jonathan",
    "Taylor, and Ryan J. Tibshirani. Strong rules for discarding predictors in lasso-type",
    "problems, 2010.",
    "Global report on diabetes. World Health Organization, Geneva, 2016.",
    "Arriaga, Rose I.; Fenson, Larry; Cronan, Terry; & Pethick, Stephen J. 1998. Scores on",
    "the MacArthur Communicative Development Inventory of children from middle-income",
    "families. Applied Psycholinguistics 19, 209-223.",
]


def test_entries_without_a_cue_between_them_open_after_a_line_that_ended_early(tmp_path: Path) -> None:
    """A line ending short of the column by more than the next line's first word was broken by an entry's
    end: the word would have fitted."""
    page = [*body(20), Text(72, 360, "References", 12, True), *_flush_left(NO_CUE)]
    section, raws, _ = _extract(tmp_path, [page])
    assert section == "heading: References; split by line ends"
    assert [raw.split()[0] for raw in raws] == [
        "RICOEUR,",
        "Barboni,",
        "Picone,",
        "Robert",
        "Global",
        "Arriaga,",
    ]


def test_a_line_ending_before_a_word_too_long_for_it_goes_on(tmp_path: Path) -> None:
    """A line broken before a link that would not have fitted on it is no entry's end, full stop or not."""
    entries = [
        *NO_CUE[:2],
        "Lee, K. (2019). Open data portals of the world. Retrieved 2019-03-08.",
        "https://www.example.org/open-data/portals/of/the/world/2019/index.html",
        *NO_CUE[2:7],
    ]
    page = [*body(20), Text(72, 360, "References", 12, True), *_flush_left(entries)]
    _, raws, _ = _extract(tmp_path, [page])
    assert [raw.split()[0] for raw in raws] == ["RICOEUR,", "Lee,", "Barboni,", "Picone,"]
    assert raws[1].endswith("index.html")


def test_a_dash_run_drawn_as_a_rule_carries_the_previous_entrys_authors(tmp_path: Path) -> None:
    # IEEE's "———, “Title,” …" with the dashes drawn as a line, not typed: the entry's text opens with the
    # comma after them.
    entries = [
        "[1] E. Chang and A. Zakhor, “Scalable video data placement on parallel disk arrays,” in Proc. SPIE,",
        "1994, pp. 208–221.",
        "[2] , “Cost analyzes for VBR video servers,” IEEE Multimedia, vol. 4, no. 3, pp. 56–71, 1996.",
        "[3] M. S. Chen, D. Kandlur, and P. Yu, “Support for interactive playout in a video server,” in",
        "Proc. ACM Multimedia, 1994, pp. 391–398.",
    ]
    page = [*body(20), Text(72, 360, "References", 12, True), *_flush_left(entries)]
    references = extract_pdf(write_pdf(tmp_path / "paper.pdf", [page])).references
    assert len(references) == 3
    assert references[1].authors_from_previous
    assert references[1].parsed.authors == ["E. Chang", "A. Zakhor"]
    assert references[1].parsed.title == "Cost analyzes for VBR video servers"
