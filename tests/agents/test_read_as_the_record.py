"""A list's punctuation that the parser read one way and the record's names read the other."""

from __future__ import annotations

import pytest

from refhound.agents.field_rules import check_authors, read_as_the_record
from refhound.models import FieldStatus, ParsedFields, Record
from refhound.refstring import parse_reference_string


def _record(*authors: str) -> Record:
    return Record(
        source="acl",
        source_id="test",
        source_version="test",
        title="A Title",
        authors=list(authors),
        year=2015,
    )


CONLL = _record("Erik F. Tjong Kim Sang", "Fien De Meulder")
SEM = _record("Oier Lopez de Lacalle", "Eneko Agirre")
OLLIE = _record("Mausam", "Michael Schmitz", "Stephen Soderland", "Robert Bart", "Oren Etzioni")


@pytest.mark.parametrize(
    ("cited", "record", "read"),
    [
        # Chicago's inverted first name with a family name of several words, cut at its comma
        (["Lopez de Lacalle", "Oier", "Eneko Agirre"], SEM, ["Lopez de Lacalle, Oier", "Eneko Agirre"]),
        (
            ["Tjong Kim Sang", "Erik F", "Fien De Meulder"],
            CONLL,
            ["Tjong Kim Sang, Erik F", "Fien De Meulder"],
        ),
        # a person known by one name taken for the family name of the next
        (
            ["Mausam, Michael Schmitz", "Stephen Soderland", "Robert Bart", "Oren Etzioni"],
            OLLIE,
            ["Mausam", "Michael Schmitz", "Stephen Soderland", "Robert Bart", "Oren Etzioni"],
        ),
        # ... written without the dump's marks (dblp's ". Chandrahas")
        (
            ["Chandrahas, Sengupta T", "Talukdar P"],
            _record(". Chandrahas", "Tathagata Sengupta", "Partha Talukdar"),
            ["Chandrahas", "Sengupta T", "Talukdar P"],
        ),
        # two record authors read as one inverted name, the first opening with a particle ("Le")
        (
            ["Le Song, Evian Gordon", "Elly Gysels"],
            _record("Le Song", "Evian Gordon", "Elly Gysels"),
            ["Le Song", "Evian Gordon", "Elly Gysels"],
        ),
        # ... but an inverted name that is one record author stays one
        (["Lin, Di", "Hui Huang"], _record("Di Lin", "Hui Huang"), ["Lin, Di", "Hui Huang"]),
        # a record author with dblp's number for namesakes is the same name
        (
            ["Tjong Kim Sang", "Erik F", "Fien De Meulder"],
            _record("Erik F. Tjong Kim Sang 0001", "Fien De Meulder"),
            ["Tjong Kim Sang, Erik F", "Fien De Meulder"],
        ),
        # readings that need no change stay as they are
        (["Oier Lopez de Lacalle", "Eneko Agirre"], SEM, ["Oier Lopez de Lacalle", "Eneko Agirre"]),
        (["Lopez de Lacalle, Oier", "Eneko Agirre"], SEM, ["Lopez de Lacalle, Oier", "Eneko Agirre"]),
        # an invented name is read into nothing
        (["Tjong Kim Sang", "Erik F", "John Q. Public"], CONLL, ["Tjong Kim Sang, Erik F", "John Q. Public"]),
        (["Petra Quillfeather", "Oier"], SEM, ["Petra Quillfeather", "Oier"]),
        # whole names in natural order are never joined, even where a lenient name match would take them
        (
            ["I. Mani", "Y. Hitzeman", "J. Richer"],
            _record("Inderjeet Mani", "Janet Hitzeman", "Justin Richer"),
            ["I. Mani", "Y. Hitzeman", "J. Richer"],
        ),
        (["H. Larkin", "H. Musha"], _record("Henry Larkin"), ["H. Larkin", "H. Musha"]),
        # a piece that is a record author by itself is not taken as another's given names
        (["Smith", "John Doe"], _record("John Smith", "John Doe"), ["Smith", "John Doe"]),
    ],
)
def test_the_record_cuts_the_list_where_its_names_are(
    cited: list[str], record: Record, read: list[str]
) -> None:
    assert read_as_the_record(cited, record) == read


def test_a_chicago_list_with_a_long_family_name_matches_the_record() -> None:
    cited = parse_reference_string(
        'Lopez de Lacalle, Oier, and Eneko Agirre. 2015. "A Methodology for Word Sense Disambiguation at 90% '
        'Based on Large-Scale Crowdsourcing." In Proceedings of *SEM 2015, 61–70.'
    )
    assert check_authors(cited, SEM).check.status is FieldStatus.MATCH


def test_an_invented_name_in_such_a_list_stays_a_mismatch() -> None:
    cited = ParsedFields(title="A Title", authors=["Tjong Kim Sang", "Erik F", "John Q. Public"])
    comparison = check_authors(cited, CONLL)
    assert comparison.check.status is FieldStatus.MISMATCH
    assert comparison.unmatched == ("John Q. Public",)
