"""Which cited author names differ from a record's list, for the marks and corrections of the reports."""

from __future__ import annotations

from refhound.report.marks import names_not_in


def test_a_variant_is_not_a_differing_name_but_another_person_is() -> None:
    cited = "Anant K. Agarwal; Ivan Zaitsev; J Ganesh"
    assert names_not_in(cited, "Aman Agarwal; Ivan Zaitsev; Ganesh J") == ["Anant K. Agarwal"]


def test_each_record_name_pairs_with_one_cited_name() -> None:
    # Two Wangs cited, one in the record: the second is left over, whatever the name rules would allow.
    assert names_not_in("Wei Wang; Li Wang; Jun Zhu", "Wei Wang; Jun Zhu") == ["Li Wang"]
    assert names_not_in("Wei Wang; Jun Zhu", "Wei Wang; W. Wang; Jun Zhu") == []


def test_long_lists_written_otherwise_are_paired_by_spelling_only() -> None:
    # A collaboration's thousands of names, each with an initial for the given name: pairing every one by the
    # name rules would cost seconds, so past a bound only spelling pairs names. Short lists get the rules.
    record = [f"Given{i} Family{i}" for i in range(3000)]
    cited = [f"G. Family{i}" for i in range(3000)]
    assert len(names_not_in("; ".join(cited), "; ".join(record))) == 3000
    assert names_not_in("; ".join(cited[:5]), "; ".join(record[:5])) == []
    # Spelt alike, a long list is still paired name by name.
    assert names_not_in("; ".join(record[1:]), "; ".join(record)) == []
