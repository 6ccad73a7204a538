"""Caps on an input's entries, checked by a scan of its text before any entry is parsed.

A server reads files anyone sends: a 200,000-entry BibTeX file or a 45 MB one-line "reference" must cost a
scan, not a parse (parsing either took tens of seconds and a gigabyte). Too many entries refuses the file
whole; an entry too long to be one is reported and skipped, and the entries around it are still read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from refhound.errors import InputError
from refhound.models import InputProblem


@dataclass(frozen=True)
class EntryLimits:
    """How many entries one input may hold and how long one may be, in characters (None: no cap)."""

    max_entries: int | None = None
    max_entry_chars: int | None = None


#: The longest text read as one entry. Real references run to a few hundred characters (a BibTeX entry with
#: its abstract to a few thousand); parsing a 20 MB "reference" took 22 s and 500 MB, so longer ones are
#: skipped unparsed, whoever reads them (the CLI, triage, the server).
MAX_ENTRY_CHARS = 50_000
DEFAULT_LIMITS = EntryLimits(max_entry_chars=MAX_ENTRY_CHARS)


class TooManyEntries(InputError):
    """The input holds more entries than `EntryLimits.max_entries`, counted without parsing them."""

    def __init__(self, path: str | Path, count: int, limit: int, what: str) -> None:
        self.count = count
        self.limit = limit
        self.what = what
        super().__init__(path, f"{count:,} {what}; at most {limit:,} are read")


def check_count(source: str, count: int, limits: EntryLimits, what: str) -> None:
    if limits.max_entries is not None and count > limits.max_entries:
        raise TooManyEntries(source, count, limits.max_entries, what)


def too_long(source: str, location: str, size: int, limit: int) -> InputProblem:
    message = f"{size:,} characters long, too long for one reference (at most {limit:,}): skipped"
    return InputProblem(input=source, location=location, message=message)


def screen_blocks(
    text: str, starts: re.Pattern[str], cap: int | None, source: str, first_line: int = 1
) -> tuple[str, list[InputProblem]]:
    """`text` with each block longer than `cap` characters left out (its newlines kept, so later line
    numbers stay right), and a problem naming each (its line counted from `first_line`). A block runs from
    one match of `starts` to the next; text before the first holds no entry and is left out silently when
    that long."""
    if cap is None:
        return text, []
    bounds = [0, *(m.start() for m in starts.finditer(text)), len(text)]
    kept: list[str] = []
    problems: list[InputProblem] = []
    line = first_line
    for index, (start, end) in enumerate(pairwise(bounds)):
        newlines = text.count("\n", start, end)
        if end - start > cap:
            kept.append("\n" * newlines)
            if index:
                problems.append(too_long(source, f"line {line}", end - start, cap))
        else:
            kept.append(text[start:end])
        line += newlines
    return "".join(kept), problems
