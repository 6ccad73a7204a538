"""Where the page marks a wrong field inside the cited string."""

from __future__ import annotations

from refhound.models import FieldCheck, FieldStatus, ParsedFields, ReferenceResult, Severity, Verdict
from refhound.server.marks import printed_marks

RAW = (
    "Anant K. Agarwal, Ivan Zaitsev, and J Ganesh. 2019. Estimating position bias without intrusive "
    "interventions. In WSDM, 2020."
)


def result(*checks: FieldCheck) -> ReferenceResult:
    return ReferenceResult(
        id="1",
        raw=RAW,
        parsed=ParsedFields(),
        verdict=Verdict.METADATA_ERROR,
        hallucinated=True,
        fields=list(checks),
        stage="index",
    )


def test_a_wrong_value_is_marked_where_it_is_printed() -> None:
    year = FieldCheck(
        field="year", status=FieldStatus.MISMATCH, severity=Severity.MINOR, cited="2020", found="2019"
    )
    (mark,) = printed_marks(result(year))
    assert RAW[mark["start"] : mark["end"]] == "2020"
    assert (mark["field"], mark["severity"]) == ("year", "minor")


def test_only_the_authors_no_record_author_can_be_are_marked() -> None:
    authors = FieldCheck(
        field="authors",
        status=FieldStatus.MISMATCH,
        severity=Severity.MAJOR,
        cited="Anant K. Agarwal; Ivan Zaitsev; J Ganesh",
        found="Aman Agarwal; Ivan Zaitsev; Ganesh J",
    )
    marks = printed_marks(result(authors))
    # Another given name is another person; "J Ganesh" for "Ganesh J" is the same one, in another order.
    assert [RAW[m["start"] : m["end"]] for m in marks] == ["Anant K. Agarwal"]


def test_matching_and_unprinted_fields_are_not_marked() -> None:
    title = FieldCheck(field="title", status=FieldStatus.MATCH, cited="Estimating position bias")
    venue = FieldCheck(field="venue", status=FieldStatus.MISMATCH, cited="SIGIR", found="WSDM")
    assert printed_marks(result(title, venue)) == []
