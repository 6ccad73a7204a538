"""Where a reference's wrong fields are printed in its cited string: what the HTML report and the web page
mark.

A wrong field's cited value is marked where the string prints it (case and spacing aside). A wrong author
list printed otherwise ("A, B, and C" for "A; B; C") marks the cited names that can be no record author,
as the judge's name rules say (`names_match`): a nickname or an initial is not marked, another person is.
"""

from __future__ import annotations

import re

from refhound.models import FieldCheck, FieldStatus, ReferenceResult
from refhound.normalize.names import NameMatch, names_match


def printed_span(raw: str, value: str) -> tuple[int, int] | None:
    """Where `value` is printed in `raw` (case and spacing aside)."""
    words = [re.escape(word) for word in value.split()]
    if not words:
        return None
    match = re.search(r"\s+".join(words), raw, re.IGNORECASE)
    return (match.start(), match.end()) if match else None


def author_names(value: str) -> list[str]:
    """The names of an author list: "; "-separated as the checks write it, else as printed."""
    separator = r";" if ";" in value else r",| and "
    return [part.strip() for part in re.split(separator, value) if part.strip()]


def names_not_in(value: str, other: str) -> list[str]:
    """The names of the author list `value` that can be no name of the list `other`."""
    others = author_names(other)
    return [
        name
        for name in author_names(value)
        if all(names_match(name, known) is NameMatch.NONE for known in others)
    ]


def wrong_field_spans(result: ReferenceResult) -> list[tuple[int, int, FieldCheck]]:
    """The printed places of the wrong fields' cited values, in order and without overlaps."""
    spans: list[tuple[int, int, FieldCheck]] = []
    for check in result.fields:
        if check.status is not FieldStatus.MISMATCH or not check.cited:
            continue
        whole = printed_span(result.raw, check.cited)
        places = [whole] if whole else []
        if whole is None and check.field == "authors":  # the names that differ, one by one
            places = [
                place
                for name in names_not_in(check.cited, check.found or "")
                if (place := printed_span(result.raw, name))
            ]
        for start, end in places:
            if all(end <= s or start >= e for s, e, _ in spans):
                spans.append((start, end, check))
    return sorted(spans, key=lambda span: span[0])
