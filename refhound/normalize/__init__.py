"""Normalizers shared by every part of refhound: text, titles, person names, venues and identifiers."""

from refhound.normalize.identifiers import (
    arxiv_id_from_doi,
    arxiv_version,
    find_arxiv_id,
    find_doi,
    normalize_arxiv_id,
    normalize_doi,
)
from refhound.normalize.names import NameMatch, PersonName, is_et_al, name_key, names_match, parse_name
from refhound.normalize.text import collapse_whitespace, fold, latex_to_unicode, strip_accents
from refhound.normalize.titles import clean_title, title_key, title_similarity, title_tokens
from refhound.normalize.venues import VenueInfo, VenueKind, parse_venue, venue_similarity

__all__ = [
    "NameMatch",
    "PersonName",
    "VenueInfo",
    "VenueKind",
    "arxiv_id_from_doi",
    "arxiv_version",
    "clean_title",
    "collapse_whitespace",
    "find_arxiv_id",
    "find_doi",
    "fold",
    "is_et_al",
    "latex_to_unicode",
    "name_key",
    "names_match",
    "normalize_arxiv_id",
    "normalize_doi",
    "parse_name",
    "parse_venue",
    "strip_accents",
    "title_key",
    "title_similarity",
    "title_tokens",
    "venue_similarity",
]
