"""`refhound extract --format bib`: each reference gets the entry type its printed form shows."""

from __future__ import annotations

from pathlib import Path

import bibtexparser
import pytest

from refhound.agents.extractor import extract_pdf
from refhound.agents.extractor.bib_type import bib_type, publisher_of
from refhound.agents.extractor.render import to_bibtex
from refhound.refstring import parse_reference_string
from tests.agents.extractor.pdfmaker import LINE, Text, body, write_pdf


@pytest.mark.parametrize(
    ("raw", "entry_type", "venue_field", "extra"),
    [
        (
            "J. Devlin, M. Chang, K. Lee, and K. Toutanova. BERT: Pre-training of deep bidirectional "
            "transformers for language understanding. In NAACL, 2019.",
            "inproceedings",
            "booktitle",
            {},
        ),
        (
            "K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. In "
            "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition, pages 770-778, "
            "2016.",
            "inproceedings",
            "booktitle",
            {},
        ),
        (
            "Bluhm, K. (2001): Exporting or Abandoning the German Model? European Journal of Industrial "
            "Relations, 7(2): 153-74.",
            "article",
            "journal",
            {},
        ),
        (
            "A. Vaswani et al. Attention is all you need. arXiv preprint arXiv:1706.03762, 2017.",
            "misc",
            None,
            {},
        ),
        (
            "Blau, Peter M. 1964. Exchange and power in social life. New York: Wiley.",
            "book",
            None,
            {"publisher": "Wiley", "address": "New York"},
        ),
        (
            "MÜLLER, Hans, 2001, The governance of regional labour markets, Berlin, Campus Verlag.",
            "book",
            None,
            {"publisher": "Campus Verlag", "address": "Berlin"},
        ),
        (
            "Kohli, Martin. 2001. Partizipation und Engagement. In Lebenslagen im Alter, edited by Peter "
            "Krause. Opladen: Leske & Budrich.",
            "incollection",
            "booktitle",
            {"publisher": "Leske & Budrich", "address": "Opladen"},
        ),
        (
            "Smith, J. 2010. Wages in the long run. Working paper, University of Somewhere.",
            "techreport",
            None,
            {"institution": "University of Somewhere"},
        ),
    ],
)
def test_entry_types(raw: str, entry_type: str, venue_field: str | None, extra: dict[str, str]) -> None:
    kind = bib_type(raw, parse_reference_string(raw))
    assert (kind.entry_type, kind.venue_field, kind.extra) == (entry_type, venue_field, extra)


def test_no_publisher_is_invented() -> None:
    raw = "Smith, J. (2001): Some thoughts on labour markets."
    assert publisher_of(raw, parse_reference_string(raw)) == (None, None)


PRINTED = [
    "[1] J. Devlin, M. Chang, K. Lee, and K. Toutanova. BERT: Pre-training of deep bidirectional",
    "transformers for language understanding. In NAACL, 2019.",
    "[2] K. Bluhm. Exporting or abandoning the German model? European Journal of Industrial Relations,",
    "7(2):153-174, 2001.",
    "[3] A. Vaswani, N. Shazeer, and N. Parmar. Attention is all you need. arXiv preprint arXiv:1706.03762,",
    "2017.",
    "[4] P. M. Blau. Exchange and Power in Social Life. New York: Wiley, 1964.",
]


def test_bibtex_of_a_pdf_has_one_typed_entry_per_reference(tmp_path: Path) -> None:
    page = [*body(20), Text(72, 360, "References", 12, True)]
    page += [Text(72 if line.startswith("[") else 87, 385 + i * LINE, line) for i, line in enumerate(PRINTED)]
    extraction = extract_pdf(write_pdf(tmp_path / "paper.pdf", [page]))
    library = bibtexparser.parse_string(to_bibtex(extraction))
    assert library.failed_blocks == []
    entries = library.entries
    assert [entry.entry_type for entry in entries] == ["inproceedings", "article", "misc", "book"]
    assert entries[0]["booktitle"] == "NAACL"
    assert entries[1]["journal"] == "European Journal of Industrial Relations"
    assert entries[1]["volume"] == "7" and entries[1]["pages"] == "153--174"
    assert entries[2]["eprint"] == "1706.03762" and entries[2]["archiveprefix"] == "arXiv"
    assert "journal" not in entries[2].fields_dict and "howpublished" not in entries[2].fields_dict
    assert (entries[3]["publisher"], entries[3]["address"]) == ("Wiley", "New York")


def test_bibtex_says_when_authors_were_repeated_by_a_dash(tmp_path: Path) -> None:
    lines = [
        "Smith, J. (2001): Labour markets in transition. Journal of Economics 3: 1-10.",
        "—— (2003): Wages in the long run. Economic Review 12: 33-59.",
        "Taylor, S. (2008): Unions and employers. Industrial Relations 7: 1-9.",
    ]
    page = [*body(20), Text(72, 360, "References", 12, True)]
    page += [Text(72, 385 + i * LINE, line) for i, line in enumerate(lines)]
    library = bibtexparser.parse_string(to_bibtex(extract_pdf(write_pdf(tmp_path / "paper.pdf", [page]))))
    second = library.entries[1]
    assert second["author"] == "Smith, J."
    assert "authors printed as a dash run" in second["note"]
