"""Names in Chinese, Japanese or Korean script against a record's romanised ones: not compared."""

from __future__ import annotations

import pytest

from refhound.agents.field_rules import check_authors
from refhound.models import FieldStatus, ParsedFields, Record


def _record(*authors: str) -> Record:
    return Record(source="acl", source_id="t", source_version="t", title="A Title", authors=list(authors))


@pytest.mark.parametrize(
    ("cited", "found"),
    [
        (["王波", "陈诚"], ("Bo Wang", "Cheng Chen")),  # a Chinese paper's names, a record's romanisation
        (["Bo Wang", "Cheng Chen"], ("王波", "陈诚")),
        (["김진섭"], ("Jin-Seop Kim",)),
    ],
)
def test_names_in_chinese_japanese_or_korean_script_are_not_compared_with_latin_ones(
    cited: list[str], found: tuple[str, ...]
) -> None:
    """One name in two scripts is no evidence of another author: the field is unchecked, not wrong."""
    check = check_authors(ParsedFields(title="t", authors=cited), _record(*found)).check
    assert check.status is FieldStatus.UNCHECKED
    assert check.level == "authors.other_script"


def test_names_in_the_same_script_are_compared() -> None:
    check = check_authors(ParsedFields(title="t", authors=["王波", "陈诚"]), _record("王波", "李华")).check
    assert check.status is FieldStatus.MISMATCH
