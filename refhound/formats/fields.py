"""Reading the fields of bibliographic formats: names, years, DOIs and arXiv ids as services and dumps
write them."""

from __future__ import annotations

import re

from refhound.normalize.text import collapse_whitespace

ARXIV_ID = r"(?:\d{4}\.\d{4,5}|[a-z][a-z.\-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
_DBLP_SUFFIX = re.compile(r"\s+\d{4}$")
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|2[01]\d\d)(?!\d)")
_DOI = re.compile(r"10\.\d{4,9}/\S+")
_DOI_RESOLVER = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
_ARXIV_URL = re.compile(rf"arxiv\.org/(?:abs|pdf)/({ARXIV_ID})", re.IGNORECASE)
_ARXIV_DOI = re.compile(rf"^10\.48550/arxiv\.({ARXIV_ID})$", re.IGNORECASE)


def strip_final_period(title: str) -> str:
    """dblp and MEDLINE end every title with a period of their own; an ellipsis is kept."""
    return title[:-1].rstrip() if title.endswith(".") and not title.endswith("..") else title


def strip_dblp_suffix(name: str) -> str:
    """dblp tells homonyms apart with a number ("Chenglong Li 0002"); it is not part of the name."""
    return _DBLP_SUFFIX.sub("", name)


def person_name(given: str | None, family: str | None, suffix: str | None = None) -> str:
    """Join name parts from structured sources (XML, JSON) into a display name."""
    return collapse_whitespace(" ".join(p for p in (given, family, suffix) if p))


def year_of(text: str | None) -> int | None:
    """The first plausible four-digit year in a date or year string."""
    match = _YEAR.search(text or "")
    return int(match.group(1)) if match else None


def doi_of(text: str | None) -> str | None:
    """A DOI from a DOI field or a doi.org link, resolver prefix removed; None when it holds no DOI."""
    if not text:
        return None
    match = _DOI.search(_DOI_RESOLVER.sub("", text.strip()))
    return match.group(0) if match else None


def arxiv_of_url(url: str | None) -> str | None:
    """The arXiv id in an arxiv.org abs/pdf link."""
    match = _ARXIV_URL.search(url or "")
    return match.group(1) if match else None


def arxiv_of_doi(doi: str | None) -> str | None:
    """arXiv's own DOIs (10.48550/arXiv.1810.04805) name the arXiv id."""
    match = _ARXIV_DOI.match(doi or "")
    return match.group(1) if match else None
