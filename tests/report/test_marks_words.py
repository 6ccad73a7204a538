"""A wrong field is marked where its value is printed as whole words, never inside another word."""

from __future__ import annotations

from refhound.report.marks import printed_span

ENTRY = "@inproceedings{he2015resnet,\n  title = {Deep Residual Learning},\n  year = {2015}\n}"


def test_a_year_is_marked_in_its_field_not_inside_the_key() -> None:
    start, end = printed_span(ENTRY, "2015") or (0, 0)
    assert ENTRY[start - 1 : end + 1] == "{2015}"


def test_a_value_printed_only_inside_a_word_is_not_marked() -> None:
    assert printed_span("He2015resnet: a paper.", "2015") is None
    assert printed_span("In Proc. ICML, 2019.", "Proc. ICML") == (3, 13)
