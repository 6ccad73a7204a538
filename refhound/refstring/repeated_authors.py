"""Entries of a list whose authors are a dash run ("——", "----", "___"): the previous entry's authors,
repeated. Lists of every kind print them: PDFs, plain-text lists, `.bbl` files (`\\bysame`).

The parser cannot read a dash as a name, so the dash run is replaced by a one-word stand-in that every
citation style's parsing reads as one author ("—— (2003) 'Title' …" → "Anonymous, A. (2003) 'Title' …"); after
parsing, the stand-in is replaced by the previous entry's authors, and co-authors printed after the dash run
("—— and K. Brown (2004) …") follow them.
"""

from __future__ import annotations

import re

from refhound.models import ParsedFields
from refhound.refstring.parse import parse_reference_string

# The dash run that stands for the previous entry's authors: two or more dashes or underscores (a lone em
# dash too, when punctuation or a year follows it).
REPEATED_AUTHORS = re.compile(r"^\s*(?:(?:[—–-]\s?){2,}|_{2,}|—(?=\s*[.,:;(]|\s+\(?\d))[\s.,:;]*")

STAND_IN = "Anonymous, A."  # surname and initial: read as one name before "(2003)", ", 2003", "and K. Brown"
# IEEE's dash run drawn as a rule, not typed: the entry's text opens with the comma after it and the quoted
# title (", “Cost analyzes for VBR video servers,” IEEE Multimedia, …"). Not one of REPEATED_AUTHORS'
# shapes: a line opening with a comma opens no entry, so only an entry split otherwise (its label) has it.
_DRAWN_RULE = re.compile(r"^\s*,\s*(?=[“\"‘'])")


def with_stand_in(raw: str) -> str | None:
    """`raw` with its leading dash run replaced by the stand-in author, or None when it has no dash run."""
    match = REPEATED_AUTHORS.match(raw) or _DRAWN_RULE.match(raw)
    if match is None:
        return None
    rest = raw[match.end() :]
    dashes_and_punctuation = match.group(0).strip()
    punctuation = dashes_and_punctuation.lstrip("—–-_ ").removeprefix(".")  # the initial's dot ends the name
    return f"{STAND_IN}{punctuation} {rest}".replace("  ", " ").strip()


def carry_over(parsed: ParsedFields, previous: ParsedFields) -> ParsedFields:
    """`parsed` with the stand-in author replaced by the previous entry's authors."""
    authors = list(parsed.authors)
    if authors and authors[0].strip(" .,") == STAND_IN.strip(" .,"):
        authors = authors[1:]
    return parsed.model_copy(
        update={
            "authors": [*previous.authors, *authors],
            "authors_truncated": previous.authors_truncated or parsed.authors_truncated,
        }
    )


def parse_list_entry(raw: str, previous: ParsedFields | None) -> ParsedFields:
    """`parse_reference_string` for an entry of a list, read after the `previous` entry: a dash run for its
    authors is that entry's authors."""
    stand_in = with_stand_in(raw) if previous is not None else None
    if stand_in is None or previous is None:
        return parse_reference_string(raw)
    return carry_over(parse_reference_string(stand_in), previous)
