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

# Name pairs the rules may compare for one list: beyond it (a collaboration of thousands of authors against
# another), names are paired by spelling only, so that a report never spends seconds on one reference.
_MAX_RULE_PAIRINGS = 20_000


def printed_span(raw: str, value: str) -> tuple[int, int] | None:
    """Where `value` is printed in `raw` (case and spacing aside), as whole words: a year is not marked
    inside a BibTeX key such as he2015resnet."""
    words = [re.escape(word) for word in value.split()]
    if not words:
        return None
    match = re.search(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", raw, re.IGNORECASE)
    return (match.start(), match.end()) if match else None


def author_names(value: str) -> list[str]:
    """The names of an author list: "; "-separated as the checks write it, else as printed."""
    separator = r";" if ";" in value else r",| and "
    return [part.strip() for part in re.split(separator, value) if part.strip()]


def names_not_in(value: str, other: str) -> list[str]:
    """The names of the author list `value` that no name of the list `other` can be, each name of `other`
    taken once: the same name written alike first, then by the judge's name rules (an initial, a
    nickname). Lists too long to pair by the rules (collaborations of thousands) are paired by spelling
    only."""
    names, others = author_names(value), author_names(other)
    spelt: dict[str, list[str]] = {}
    for name in others:
        spelt.setdefault(_folded(name), []).append(name)
    unpaired = []
    for name in names:
        if same := spelt.get(_folded(name)):
            same.pop()
        else:
            unpaired.append(name)
    left = [name for same in spelt.values() for name in same]
    if len(unpaired) * len(left) > _MAX_RULE_PAIRINGS:
        return unpaired
    differing = []
    for name in unpaired:
        partner = next((o for o in left if names_match(name, o) is not NameMatch.NONE), None)
        if partner is None:
            differing.append(name)
        else:
            left.remove(partner)
    return differing


def _folded(name: str) -> str:
    """A name as written, folded: "K. He" and "k he" are alike, "Anant K. Agarwal" and "Aman Agarwal" not."""
    return " ".join(re.sub(r"[^\w\s]", " ", name.casefold()).split())


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
