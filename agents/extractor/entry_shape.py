"""The shapes a reference entry opens with, and whether a printed line reads like the start of one.

A reference list is set in one style, so its entries open alike: with the surname in capitals ("MÜLLER, Hans,
…"), "Surname, I." or "Surname, Given", "Surname I." (Vancouver style), "I. Surname" (or "I. SURNAME"), an
organisation followed by its year ("World Bank (2003)"), or a run of dashes standing for the previous entry's
authors ("——", "----", "___"). `opening_shape` names the shape of a line's start; the segmenter learns which
shapes a list uses, and the section finder looks for runs of lines that open like entries and carry a year.
"""

from __future__ import annotations

import re

from refhound.refstring.authors import LOWER, UPPER
from refhound.refstring.repeated_authors import REPEATED_AUTHORS

_PARTICLE = r"(?:van|von|de|der|den|da|di|du|la|le|del|della|dos|ten|ter|zu|al|el|bin|ibn|mc|mac|o’|o')"
_SURNAME = rf"[{UPPER}][{LOWER}{UPPER}'’]*[{LOWER}][{LOWER}{UPPER}'’]*(?:-[{UPPER}][{LOWER}'’]+)?"
_CAPS_SURNAME = rf"[{UPPER}][{UPPER}'’]+(?:[-\s][{UPPER}][{UPPER}'’]+)?"
_INITIALS = rf"[{UPPER}](?:\.|[{UPPER}]{{0,2}}\b)(?:\s?-?[{UPPER}]\.)*"
_YEAR = r"(?<!\d)(?:1[5-9]|20)\d\d[a-z]?(?!\d)"


_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dashes", REPEATED_AUTHORS),
    # "MÜLLER, Hans", "VAN DER BERG, J.", "SMITH J.": a surname in capitals, then a comma or initials.
    # "APPELBAUM Eileen, BATT, Rosemary": the given name after the capitals, then a comma.
    (
        "capitals",
        re.compile(
            rf"^(?:{_PARTICLE}\s+)*{_CAPS_SURNAME}\s*(?:,|\s{_INITIALS}[\s,.]|\s[{UPPER}][{LOWER}]+(?:-[{UPPER}][{LOWER}]+)?,)"
        ),
    ),
    # "Smith, J." / "Smith, John" / "de Vries, A." / "Müller-Lüdenscheidt, H.-J." (a one-word surname: "Waleed
    # Ammar, Dirk …" is a given name first). Not a publisher's place opening a wrapped line: "Cambridge, MA:",
    # "Cambridge, Mass.:", "Stanford, California:" (a colon after initials with no full stop or after a word).
    (
        "surname-comma",
        re.compile(
            rf"^(?:(?i:{_PARTICLE})\s+)*{_SURNAME},\s*"
            rf"(?:{_INITIALS}(?!(?<!\.)\s*:)|[{UPPER}][{LOWER}]+\b(?!\.?\s*:))"
        ),
    ),
    # "Smith J. (2001)", "Smith JA, Jones B", "Smith J and Jones K", "Miller R. Costs of care" (a title after
    # the initials' full stop); not "Anant K. Agarwal, …" nor "Diederik P. Kingma and …"
    (
        "surname-initials",
        re.compile(
            rf"^(?:(?i:{_PARTICLE})\s+)*{_SURNAME}\s+[{UPPER}]{{1,3}}\.?(?:\s?[{UPPER}]\.)*"
            r"(?=\s*(?:[,;(:]|and\b|&|et\s+al|\d|$)"
            rf"|(?<=\.)\s+[{UPPER}][{LOWER}]+\s+(?!(?:and|und|et)\s+[{UPPER}])[{LOWER}])"
        ),
    ),
    # "J. Smith", "A. B. Smith", "J.-P. Sartre", "J.P. Smith", "A. L. YUILLE" (the surname in capitals)
    (
        "initials-surname",
        re.compile(
            rf"^(?:[{UPPER}]\.\s?-?){{1,3}}\s?(?:(?i:{_PARTICLE})\s+)*(?:{_SURNAME}|{_CAPS_SURNAME}\b)"
        ),
    ),
    # "World Bank (2003)", "Smith and Jones (1999)", "Federal Ministry of Labour (2004)", "Statistisches
    # Bundesamt. 2013a.", "OECD 2001.": capitalised words (two at least, or an acronym), then the year, in
    # parentheses or followed by punctuation and a space ("In 2001, the …" and "BMJ 2005;330" open no entry).
    (
        "name-year",
        re.compile(
            rf"^[{UPPER}][\w'’.-]*(?:,?\s+(?:[{UPPER}][\w'’.-]*|of|for|and|the|&|de|du|des|für|und))"
            rf"{{0,6}},?\s*\({_YEAR}\)"
            rf"|^(?:[{UPPER}][\w'’-]*(?:\s+(?:of|for|and|the|&|de|du|des|für|und))*"
            rf"(?:\s+(?:[{UPPER}][\w'’-]*|of|for|and|the|&|de|du|des|für|und)){{0,5}}\s+[{UPPER}][\w'’-]*"
            rf"|[{UPPER}]{{2,8}})[.,]?\s+{_YEAR}[.,:;]\s"
        ),
    ),
)

# "Jacob Devlin, Ming-Wei Chang, and …", "Anant K. Agarwal, Ivan …": given names first, two names at least;
# in capitals or small capitals too ("JENNIFER LEES-MARSHMENT, BRIAN CONLEY, AND …"). Only a list's run of
# such lines says "reference list"; a single one may be a wrapped author list.
_GIVEN_NAME = rf"[{UPPER}][{LOWER}]+(?:-[{UPPER}][{LOWER}]+)?"
_CAPS_NAME = rf"[{UPPER}][{UPPER}'’]+(?:-[{UPPER}][{UPPER}'’]+)?"


def _given_first(given: str, family: str, conjunction: str) -> str:
    name = rf"{given}(?:\s+[{UPPER}]\.?)*\s+(?:(?i:{_PARTICLE})\s+)*{family}"
    return rf"{name}(?:,\s+(?:{conjunction}\s+)?|\s+{conjunction}\s+){name}"


_GIVEN_FIRST = re.compile(
    rf"^(?:{_given_first(_GIVEN_NAME, _SURNAME, 'and')}|{_given_first(_CAPS_NAME, _CAPS_NAME, 'AND')})"
)

# A line opening with a conjunction in capitals goes on with an author list wrapped before its last name
# ("S. E. CONRY, K. KUWABARA, V. R. LESSER" / "AND R. A. MEYER. (1991) …"): it opens no entry in any shape.
CONJUNCTION_START = re.compile(r"^(?:AND|UND|ET|OR|OU|&)\s")

_EARLY_YEAR = re.compile(rf"{_YEAR}|\bn\.\s?d\.|\bo\.\s?J\.|\bforthcoming\b|\bin press\b", re.IGNORECASE)
_EARLY = 160  # characters: an entry's year comes with its authors, near its start


def opening_shape(text: str) -> str | None:
    """The name of the shape `text` opens with, or None when it does not open like a reference entry."""
    if CONJUNCTION_START.match(text):
        return None
    for name, pattern in _SHAPES:
        if pattern.match(text):
            return name
    return None


def opens_given_names_first(text: str) -> bool:
    """The line opens with two names written given name first ("Jacob Devlin, Ming-Wei Chang, …")."""
    return bool(_GIVEN_FIRST.match(text))


def has_early_year(text: str) -> bool:
    """A year (or "n.d.", "forthcoming", "in press") within the first words, where an entry prints it."""
    return bool(_EARLY_YEAR.search(text[:_EARLY]))


def has_year(text: str) -> bool:
    """A year (or "n.d.", "forthcoming", "in press") anywhere in the text."""
    return bool(_EARLY_YEAR.search(text))


def repeats_authors(text: str) -> bool:
    """The entry opens with a dash run standing for the previous entry's authors."""
    return bool(REPEATED_AUTHORS.match(text))


def without_repeat_mark(text: str) -> str:
    """The entry's text after the dash run that stands for the previous entry's authors."""
    return REPEATED_AUTHORS.sub("", text, count=1)
