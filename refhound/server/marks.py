"""The marks the web page puts on a reference's cited string: `refhound.report.marks` as JSON."""

from __future__ import annotations

from typing import TypedDict

from refhound.models import ReferenceResult
from refhound.report.marks import wrong_field_spans


class Mark(TypedDict):
    start: int
    end: int
    field: str
    severity: str | None


def printed_marks(result: ReferenceResult) -> list[Mark]:
    """The places to mark in `result.raw`, in order and without overlaps."""
    return [
        Mark(
            start=start, end=end, field=check.field, severity=check.severity.value if check.severity else None
        )
        for start, end, check in wrong_field_spans(result)
    ]
