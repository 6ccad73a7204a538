"""A template's fillers for names and identifiers, told from the people and ids they stand for."""

from __future__ import annotations

import pytest

from refhound.models import ParsedFields
from refhound.normalize.placeholders import filler_arxiv_id, filler_doi, filler_names


@pytest.mark.parametrize(
    "names, fillers",
    [
        (["Alex Bornmanica", "Jane Doe"], ["Jane Doe"]),
        (["Doe, John", "Bloggs, Joe"], ["Doe, John", "Bloggs, Joe"]),
        (["First Author", "Max Mustermann"], ["First Author", "Max Mustermann"]),
        # real people: a middle name or initial, an initial for the given name, a common real name
        (["Jane Q. Doe", "J. Doe", "John Smith", "Jane Smith"], []),
        (["Jacob Devlin", "Doe Kim"], []),
        # a label where a given or a family name belongs; "Anonymous Author" is a double-blind self-citation
        (
            ["Author Song", "AnotherAuthor Zhang", "Wei Lastname"],
            ["Author Song", "AnotherAuthor Zhang", "Wei Lastname"],
        ),
        (["Anonymous Author", "Anonymous Authors", "Authorson Li"], []),
    ],
)
def test_stand_in_names_are_fillers_and_people_are_not(names: list[str], fillers: list[str]) -> None:
    assert filler_names(names) == fillers


@pytest.mark.parametrize(
    "fields, filler",
    [
        ({"url": "https://arxiv.org/abs/2407.XXXX"}, "2407.XXXX"),
        ({"arxiv_id": "arXiv:2310.xxxxx"}, "arXiv:2310.xxxxx"),
        # real ids: digits, the keyboard's run (a real paper's each month) too
        ({"arxiv_id": "2205.12345", "url": "https://arxiv.org/abs/2205.12345"}, None),
        ({"url": "https://arxiv.org/abs/1810.04805"}, None),
    ],
)
def test_filler_arxiv_ids(fields: dict[str, str], filler: str | None) -> None:
    assert filler_arxiv_id(ParsedFields(**fields)) == filler  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "doi, filler",
    [
        ("10.xxxx/xxxxx", True),
        ("10.1145/xxxxxxx", True),
        ("10.1016/j.xxxx.2020.01.001", True),
        ("10.18653/v1/N19-1423", False),
        ("10.1109/TPAMI.2016.2577031", False),
        ("10.1007/978-3-030-xxxxy", False),
    ],
)
def test_filler_dois(doi: str, filler: bool) -> None:
    assert (filler_doi(ParsedFields(doi=doi)) is not None) is filler
