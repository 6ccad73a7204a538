"""Where a reference's wrong fields are printed in its cited string, for the page to mark them.

A wrong field's cited value is marked where the string prints it (case and spacing aside). A wrong author
list printed otherwise ("A, B, and C" for "A; B; C") marks the cited names that can be no record author,
as the judge's name rules say (`names_match`): a nickname or an initial is not marked, another person is.
"""

from __future__ import annotations

import re
from typing import TypedDict

from refhound.models import FieldStatus, ReferenceResult
from refhound.normalize.names import NameMatch, names_match
from refhound.report.html import printed_span


class Mark(TypedDict):
    start: int
    end: int
    field: str
    severity: str | None


def printed_marks(result: ReferenceResult) -> list[Mark]:
    """The places to mark in `result.raw`, in order and without overlaps."""
    marks: list[Mark] = []
    for check in result.fields:
        if check.status is not FieldStatus.MISMATCH or not check.cited:
            continue
        whole = printed_span(result.raw, check.cited)
        places = [whole] if whole else []
        if whole is None and check.field == "authors":
            record = _names(check.found or "")
            places = [
                place
                for name in _names(check.cited)
                if all(names_match(name, other) is NameMatch.NONE for other in record)
                and (place := printed_span(result.raw, name))
            ]
        severity = check.severity.value if check.severity else None
        for start, end in places:
            if all(end <= mark["start"] or start >= mark["end"] for mark in marks):
                marks.append(Mark(start=start, end=end, field=check.field, severity=severity))
    return sorted(marks, key=lambda mark: mark["start"])


def _names(value: str) -> list[str]:
    """The names of an author list: "; "-separated as the checks write it, else as printed."""
    separator = r";" if ";" in value else r",| and "
    return [part.strip() for part in re.split(separator, value) if part.strip()]
