"""What every input reader returns, and the helpers the readers share."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from refhound.models import InputProblem, ParsedFields, Reference

_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")
#: The longest text read as one reference. Real ones run to a few hundred characters (a thousand or two
#: with a long author list); parsing a 20 MB "reference" took 22 s and 500 MB, so it is refused unparsed.
MAX_REFERENCE_CHARS = 20_000


@dataclass
class InputRead:
    """The references read from one or more inputs, and the problems met on the way.

    A problem never stops the reading: the good entries around a bad one are all returned.
    """

    references: list[Reference] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)

    def extend(self, other: InputRead) -> None:
        self.references.extend(other.references)
        self.problems.extend(other.problems)


def too_long(reference: str) -> str | None:
    """Why `reference` is not parsed, when it is longer than any reference can be."""
    if len(reference) <= MAX_REFERENCE_CHARS:
        return None
    return (
        f"{len(reference):,} characters starting {reference[:60]!r}: longer than any reference "
        f"({MAX_REFERENCE_CHARS:,} at most), skipped"
    )


def year_of(text: str | None) -> int | None:
    """The first plausible year (1800–2099) in a date-like value: "2019", "2020-05-01", "2019a"."""
    match = _YEAR.search(text or "")
    return int(match.group(1)) if match else None


def missing_title(fields: ParsedFields, what: str) -> str | None:
    """The problem to report when an entry has no title ("entry has no title …"), else None."""
    if fields.title:
        return None
    unusable = not (fields.authors or fields.doi or fields.arxiv_id or fields.url)
    return f"{what} has no title" + (" and nothing else to check it by" if unusable else "")
