"""DOIs and arXiv identifiers: canonical forms, and finding them in running text.

Canonical forms: a DOI is lower-case ``10.prefix/suffix`` (DOIs are case-insensitive); an arXiv id has no
version and, for old-style ids, no subject class: ``math.GT/0309136`` becomes ``math/0309136``, the form
arXiv's own listings and DOIs (``10.48550/arXiv.math/0309136``) use.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote

from refhound.normalize.text import unescape_latex_specials

_DOI_PREFIX = re.compile(r"^(?:doi\s*:?\s*|info:doi/|(?:https?://)?(?:dx\.|www\.)?doi\.org/)+", re.IGNORECASE)
_DOI = re.compile(r"10\.\d{4,9}(?:\.\d+)*/[^\s\"{}]+")  # old SICI DOIs hold "<>", "()", ";" and ":"
_DOI_IN_TEXT = re.compile(r"(?<![\w.])" + _DOI.pattern)
_DOI_TRAILING = ".,;:'\"”’"
_CLOSING = {")": "(", "]": "[", ">": "<"}

# arXiv's archives from before April 2007, when ids looked like "hep-th/9901001".
_ARCHIVES = (
    "acc-phys", "adap-org", "alg-geom", "ao-sci", "astro-ph", "atom-ph", "bayes-an", "chao-dyn", "chem-ph",
    "cmp-lg", "comp-gas", "cond-mat", "cs", "dg-ga", "funct-an", "gr-qc", "hep-ex", "hep-lat", "hep-ph",
    "hep-th", "math", "math-ph", "mtrl-th", "nlin", "nucl-ex", "nucl-th", "patt-sol", "physics",
    "plasm-ph", "q-alg", "q-bio", "q-fin", "quant-ph", "solv-int", "stat", "supr-con",
)  # fmt: skip
_ARCHIVE = "|".join(sorted(_ARCHIVES, key=len, reverse=True))
_NEW_ID = r"(?P<yymm>\d{4})\.(?P<number>\d{4,5})(?:v(?P<version>\d+))?"
_OLD_ID = rf"(?P<archive>{_ARCHIVE})(?:\.[A-Za-z-]{{2,}})?/(?P<old>\d{{7}})(?:v(?P<oldversion>\d+))?"
_ARXIV_ID = re.compile(rf"(?:{_NEW_ID}|{_OLD_ID})", re.IGNORECASE)
_ARXIV_PREFIX = re.compile(
    r"^(?:arxiv\s*:?\s*|(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html|format)/|abs/)+",
    re.IGNORECASE,
)
_ARXIV_SUFFIX = re.compile(r"(?:\.pdf|/|\s*\[[\w.-]+\])+$", re.IGNORECASE)
# Not inside another number or word, except the id part of an arXiv DOI ("10.48550/arXiv.2310.01362").
_ARXIV_IN_TEXT = re.compile(rf"(?:(?<=arxiv\.)|(?<![\w.-]))(?:{_NEW_ID}|{_OLD_ID})(?!\d)", re.IGNORECASE)
_ARXIV_CONTEXT = re.compile(r"arxiv|corr\b|abs/", re.IGNORECASE)
ARXIV_VENUE = "arXiv"
# How citations name arXiv as a venue: "arXiv preprint arXiv:2005.14165", "ArXiv", "CoRR" (dblp's name).
_ARXIV_VENUE = re.compile(r"\barxiv\b|^corr$", re.IGNORECASE)
_ARXIV_DOI_PREFIX = "10.48550/arxiv."
_ARXIV_LABEL_BEFORE = re.compile(r"(?:arxiv\s*:?\s*|abs/)$", re.IGNORECASE)
# A template's stand-in after the label: a month's number written as a run of X ("arXiv:2407.XXXX").
_ARXIV_FILLER_AFTER_LABEL = re.compile(r"(?:arxiv\s*:?\s*|abs/)(\d{4}\.x{4,5})(?![\w.])", re.IGNORECASE)


def _trim_doi(doi: str) -> str:
    """Drop punctuation that running text glued to the DOI, keeping balanced brackets that belong to it."""
    while doi:
        last = doi[-1]
        if last in _DOI_TRAILING or (last in _CLOSING and doi.count(last) > doi.count(_CLOSING[last])):
            doi = doi[:-1]
        else:
            break
    return doi


@lru_cache(maxsize=1 << 14)
def normalize_doi(text: str) -> str | None:
    """Canonical lower-case DOI from a bare DOI, ``doi:`` form or doi.org URL; None if it is not a DOI."""
    value = unescape_latex_specials(text.strip().lstrip("([<\"'"))
    if "%" in value:
        value = unquote(value)
    match = _DOI.fullmatch(_DOI_PREFIX.sub("", value))
    if match is None:
        return None
    doi = _trim_doi(match.group(0))
    return doi.lower() if _DOI.fullmatch(doi) else None


def find_doi(text: str) -> str | None:
    """The first DOI in free text, normalized."""
    if "%2f" in text.lower():
        text = unquote(text)
    for match in _DOI_IN_TEXT.finditer(text):
        doi = normalize_doi(match.group(0))
        if doi is not None:
            return doi
    return None


def _canonical(match: re.Match[str]) -> tuple[str, int | None] | None:
    """The versionless id and the version of a matched arXiv id, or None if the date part is impossible."""
    if match.group("yymm"):
        year, month = int(match.group("yymm")[:2]), int(match.group("yymm")[2:])
        # Four-digit sequence numbers from April 2007 to December 2014, five digits since.
        digits = 4 if year < 15 else 5
        if not 1 <= month <= 12 or (year, month) < (7, 4) or len(match.group("number")) != digits:
            return None
        version = match.group("version")
        return f"{match.group('yymm')}.{match.group('number')}", int(version) if version else None
    old = match.group("old")
    month = int(old[2:4])
    if not 1 <= month <= 12:
        return None
    version = match.group("oldversion")
    return f"{match.group('archive').lower()}/{old}", int(version) if version else None


@lru_cache(maxsize=1 << 14)
def _parse_arxiv(text: str) -> tuple[str, int | None] | None:
    value = _ARXIV_SUFFIX.sub("", _ARXIV_PREFIX.sub("", text.strip()))
    match = _ARXIV_ID.fullmatch(value)
    return _canonical(match) if match else None


def normalize_arxiv_id(text: str) -> str | None:
    """Versionless arXiv id from an id, ``arXiv:`` form or arxiv.org URL; None if it is not an arXiv id."""
    parsed = _parse_arxiv(text)
    return parsed[0] if parsed else None


def arxiv_year(text: str) -> int | None:
    """The year a possible arXiv id was given ("1711.05101" -> 2017, "cs/9901001" -> 1999), or None."""
    canonical = normalize_arxiv_id(text)
    if canonical is None:
        return None
    archive, _, number = canonical.rpartition("/")
    year = int(number[:2])
    return (1900 if archive and year >= 91 else 2000) + year


def impossible_arxiv_id(text: str, cited_year: int | None = None) -> str | None:
    """Why a cited arXiv id cannot exist, or None when it can: a month 13–99, a new-style id before April
    2007 or with the wrong number of digits for its year, or (given `cited_year`) an id posted after it."""
    value = _ARXIV_SUFFIX.sub("", _ARXIV_PREFIX.sub("", text.strip()))
    match = _ARXIV_ID.fullmatch(value)
    if match is None:
        return None  # not shaped like an arXiv id: nothing to say about its date
    if match.group("yymm"):
        year, month = 2000 + int(match.group("yymm")[:2]), int(match.group("yymm")[2:])
        digits = 4 if year < 2015 else 5
        if not 1 <= month <= 12:
            return f"arXiv ids have no month {month:02d}"
        if (year, month) < (2007, 4):
            return "new-style arXiv ids (yymm.number) start in April 2007"
        if len(match.group("number")) != digits:
            return f"arXiv ids of {year} have {digits}-digit numbers"
    else:
        old = match.group("old")
        century = 1900 if int(old[:2]) >= 91 else 2000
        year, month = century + int(old[:2]), int(old[2:4])
        if not 1 <= month <= 12:
            return f"arXiv ids have no month {month:02d}"
    if cited_year is not None and year > cited_year:
        return f"the id was given in {year}, after the cited year {cited_year}"
    return None


def arxiv_version(text: str) -> int | None:
    """The version number an arXiv id or URL carries ("2005.14165v3" -> 3), or None."""
    parsed = _parse_arxiv(text)
    return parsed[1] if parsed else None


def find_arxiv_id(text: str) -> str | None:
    """The first arXiv id in free text, versionless.

    A new-style id ("1810.04805") counts only where the text mentions arXiv, CoRR or ``abs/``: on its own
    such a number could be anything. Old-style ids ("hep-th/9901001") are distinctive enough anywhere.
    An id right after "arXiv:" or "abs/" whose date cannot exist (month 13) is returned as printed, so
    that the judge can call the cited id wrong (`impossible_arxiv_id`) instead of never seeing it; so is a
    template's stand-in there ("arXiv:2407.XXXX", refhound/normalize/placeholders.py).
    """
    has_context = _ARXIV_CONTEXT.search(text) is not None
    for match in _ARXIV_IN_TEXT.finditer(text):
        if match.group("yymm") and not has_context:
            continue
        parsed = _canonical(match)
        if parsed is not None:
            return parsed[0]
        if _ARXIV_LABEL_BEFORE.search(text, 0, match.start()):
            return re.sub(r"v\d+$", "", match.group(0))
    filler = _ARXIV_FILLER_AFTER_LABEL.search(text)
    return filler.group(1) if filler else None


# `not_a_title`'s pieces: a web address anywhere in a text; what every identifier or address holds; and
# what may stand beside them in a field that holds nothing else, their labels and a class tag ("[cs.CV]").
_ADDRESS = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_DIGIT_OR_SLASH = re.compile(r"[\d/]")
_LABELS_ONLY = re.compile(
    r"(?:(?:arxiv|corr|e-?print|preprint|doi|abs|url|available|online|at)\b|\[[\w.-]+\]|[^\w\[])*",
    re.IGNORECASE,
)


def not_a_title(text: str) -> bool:
    """Whether the text holds nothing but an arXiv id, a DOI or a web address and their labels
    ("arXiv:1409.1556", "arXiv preprint arXiv:1512.03385", "doi:10.1145/…", "https://…"), or the labels
    alone ("arXiv preprint"): where a work is, not what it is called."""
    if not text.strip():
        return False
    if _DIGIT_OR_SLASH.search(text) is None:
        # Each identifier holds a digit and each address a slash; the match stops at a title's first word.
        return _LABELS_ONLY.fullmatch(text) is not None
    if not (find_arxiv_id(text) or find_doi(text) or _ADDRESS.search(text)):
        return False
    rest = _ADDRESS.sub(" ", text)
    rest = _DOI_IN_TEXT.sub(" ", rest)
    return _LABELS_ONLY.fullmatch(_ARXIV_IN_TEXT.sub(" ", rest)) is not None


def arxiv_id_from_doi(doi: str) -> str | None:
    """The arXiv id behind an arXiv DOI ("10.48550/arXiv.2310.01362" -> "2310.01362"), else None."""
    normalized = normalize_doi(doi)
    if normalized is None or not normalized.startswith(_ARXIV_DOI_PREFIX):
        return None
    return normalize_arxiv_id(normalized[len(_ARXIV_DOI_PREFIX) :])


def is_arxiv_venue(venue: str | None) -> bool:
    """Whether a cited venue names arXiv; such citations all get the venue "arXiv"."""
    return bool(venue and _ARXIV_VENUE.search(venue.strip()))
