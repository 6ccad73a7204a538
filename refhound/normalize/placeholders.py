"""A template's fillers where a citation's names or identifiers belong.

"Jane Doe", "First Author", "arXiv:2407.XXXX", "10.xxxx/xxxxx": the stand-ins a template or a generator
writes where it had no real value. A person copying a real reference has the value and writes it. Only
stand-ins that name nobody and number nothing count: "John Smith" is a real author too, and one arXiv
paper a month is numbered YYMM.12345.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from refhound.models import ParsedFields
from refhound.normalize.names import parse_name

# (given, family), folded: the stand-in names of forms (English, German), and the labels a template prints
# in their place.
_FILLER_NAMES = frozenset(
    {
        ("john", "doe"),
        ("jane", "doe"),
        ("joe", "bloggs"),
        ("max", "mustermann"),
        ("erika", "mustermann"),
        ("first", "author"),
        ("second", "author"),
        ("third", "author"),
        ("author", "name"),
        ("firstname", "lastname"),
    }
)

# The labels a template prints where a given or a family name belongs ("Author Song", "AnotherAuthor Zhang",
# "Author1 Lastname1"). "Author" as a family name is left out: "Anonymous Author" is a real double-blind
# self-citation.
_GIVEN_LABEL = re.compile(r"^(?:(?:another|co-?)?author|(?:first|given)-?name)\d*$")
_FAMILY_LABEL = re.compile(r"^(?:last|sur|family)-?name\d*$")

# A number written as a run of the letter X.
_ARXIV_FILLER = re.compile(r"^(?:arxiv:)?\d{4}\.x{4,5}(?:v\d+)?$", re.IGNORECASE)
_ARXIV_URL_FILLER = re.compile(r"arxiv\.org/(?:abs|pdf)/(\d{4}\.x{4,5})(?![\w.])", re.IGNORECASE)
_DOI_FILLER = re.compile(r"^10\.(?:x{4,}|\d{4,9})/(?:x+|.*(?<![a-z])x{4,}(?![a-z]).*)$", re.IGNORECASE)


def filler_names(names: Sequence[str]) -> list[str]:
    """The cited names that are a template's stand-ins: a given and a family name of the list, nothing
    more (a middle name or initial makes a person: "Jane Q. Doe"), or a name with a label in place of its
    given or family name ("Author Song")."""
    out = []
    for name in names:
        parsed = parse_name(name)
        given, family = parsed.given.strip().lower(), parsed.family.strip().lower()
        listed = " " not in given and (given, family) in _FILLER_NAMES
        if listed or _GIVEN_LABEL.match(given) or _FAMILY_LABEL.match(family):
            out.append(name)
    return out


def filler_arxiv_id(cited: ParsedFields) -> str | None:
    """The cited arXiv id, as the id or in an arXiv address, when its number is a run of X."""
    if cited.arxiv_id and _ARXIV_FILLER.match(cited.arxiv_id.strip()):
        return cited.arxiv_id
    in_url = _ARXIV_URL_FILLER.search(cited.url or "")
    return in_url.group(1) if in_url else None


def filler_doi(cited: ParsedFields) -> str | None:
    """The cited DOI when its prefix or suffix is a run of X."""
    return cited.doi if cited.doi and _DOI_FILLER.match(cited.doi.strip()) else None
