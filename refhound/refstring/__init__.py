"""Reference strings → fields, without a model: the deterministic parser and how sure it is of each field.

    parse_reference_string(text) -> ParsedFields          title, authors, venue, year, identifiers
    parse_reference_string_detailed(text)                 the same, with where each field came from
    parse_reference_string_around(text, title)            the string read again around a known title

`parse` holds the parser, `authors` the name lists it reads, `confidence` the per-field confidence that
decides which references an LLM parses again.
"""

from refhound.normalize.identifiers import ARXIV_VENUE, is_arxiv_venue
from refhound.refstring.parse import (
    CITATION_LABEL,
    Provenance,
    mend_broken_word,
    parse_author_list,
    parse_reference_string,
    parse_reference_string_around,
    parse_reference_string_detailed,
    strip_numbering,
)

__all__ = [
    "ARXIV_VENUE",
    "CITATION_LABEL",
    "Provenance",
    "is_arxiv_venue",
    "mend_broken_word",
    "parse_author_list",
    "parse_reference_string",
    "parse_reference_string_around",
    "parse_reference_string_detailed",
    "strip_numbering",
]
