"""What every input reader returns, and the helpers the readers share."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from refhound.models import InputProblem, ParsedFields, Reference

_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")


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
