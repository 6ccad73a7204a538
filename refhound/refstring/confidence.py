"""How far to trust each field that `parse_reference_string` read from a reference string.

The parser is a chain of heuristics; some of its cuts rest on clear evidence (a quoted title, a year right
after the author block, a DOI), others on a fallback (the first comma, whatever text was left). The scores
here turn that evidence, which `parse_reference_string_detailed` reports as `Provenance`, and a few checks
of the values themselves (a title's length, names that split into family and given name) into a number in
0..1 per field. They rank references for a second look (an LLM re-parse); they are not probabilities,
though docs/benchmarks.md shows how often a field is right at each level.

Every field is always in the result; a field the parse does not have scores 0.0, so a caller can index
without checking and read 0.0 as "nothing to trust".
"""

from __future__ import annotations

import re

from refhound.models import ParsedFields
from refhound.normalize.names import parse_name
from refhound.refstring.parse import Provenance, parse_reference_string_detailed

FIELDS = ("title", "authors", "venue", "year", "doi", "arxiv_id", "volume", "pages")
LOW_CONFIDENCE = 0.5

# Base scores per way of finding a field, set near how often that way gives the right value on the two
# benchmark corpora (docs/benchmarks.md): how the title was bounded, from a delimiter that cannot be misread
# to the text that was left over; what closed the author block; where the year stood; how the venue began.
_TITLE_BASE = {
    "quoted": 0.95,
    "sentence": 0.85,
    "imprint": 0.8,
    "before_journal": 0.85,  # 57 of 59 GROBID corpus titles found so soft-match
    "comma": 0.6,
    "last_sentence": 0.45,
    "whole_rest": 0.3,
}
_AUTHORS_BASE = {
    "year": 0.95,
    "quote": 0.95,
    "delimiter": 0.85,
    "comma": 0.75,
    "weak": 0.7,
    "organization": 0.6,
}
_YEAR_BASE = {"after_authors": 0.97, "parenthesized": 0.9, "free": 0.85}
_VENUE_BASE = {"introduced": 0.8, "after_title": 0.7, "arxiv": 0.95}

_YEAR = re.compile(r"(?<![\d.])(?:1[5-9]|20)\d\d(?!\d|\.\d)")  # not the "2005" of arXiv:2005.14165
# Signs that a title swallowed part of the author block or of the venue.
_NAME_IN_TITLE = re.compile(r"\b[A-Z]\.\s?(?:[A-Z]\.\s?)*,|,\s[A-Z]\.(?:\s|$)|\((?:1[5-9]|20)\d\d[a-z]?\)")
_VENUE_IN_TITLE = re.compile(r"\b(?:In:|pp\.|vol\.|Proceedings of)\s", re.IGNORECASE)
# A reference set in capitals has lost the case that tells a name from a title word and a sentence's end
# from an abbreviation: its cuts are guesses more often.
_CAPITALS_FACTOR = 0.75


def _in_capitals(raw: str) -> bool:
    """Whether nine in ten of the cased letters of `raw` (ten at least) are capitals."""
    upper = sum(c.isupper() for c in raw)
    cased = upper + sum(c.islower() for c in raw)
    return cased >= 10 and upper >= 0.9 * cased


def _title(title: str, provenance: Provenance, has_authors: bool) -> float:
    score = _TITLE_BASE.get(provenance.title, 0.3)
    if provenance.authors_end in ("year", "quote"):
        score += 0.05  # the title's start is certain too
    words = title.split()
    if len(words) < 2 or len(title) < 10:
        score *= 0.6  # "Introduction", "Lord": possible, but often a fragment
    elif len(words) > 40:
        score *= 0.6  # more than a title: the cut came too late
    if sum(c.isdigit() for c in title) > 0.3 * len(title):
        score *= 0.3
    if _NAME_IN_TITLE.search(title):
        score *= 0.4
    if _VENUE_IN_TITLE.search(title):
        score *= 0.5
    if provenance.subtitles:
        score *= 0.9  # the subtitle rule can take a venue's first sentence
    if not has_authors and provenance.authors_end != "placeholder":
        score *= 0.8  # with no author block found, the title's start is a guess
    return min(score, 1.0)


def _authors(names: list[str], provenance: Provenance) -> float:
    score = _AUTHORS_BASE.get(provenance.authors_end, 0.5)
    if provenance.authors_end == "organization":
        return score
    parsed = [parse_name(name) for name in names]
    complete = sum(bool(name.family and name.given) for name in parsed) / len(parsed)
    # A name of more than four words, or with lower-case words, is likely a title fragment.
    odd = sum(len(n.split()) > 4 or sum(w[:1].islower() for w in n.split()) > 1 for n in names)
    return score * (0.5 + 0.5 * complete) * (0.5 if odd else 1.0)


def _venue(venue: str, parsed: ParsedFields, provenance: Provenance) -> float:
    score = _VENUE_BASE.get(provenance.venue, 0.5)
    if provenance.venue == "arxiv":
        return score if parsed.arxiv_id else 0.7
    if provenance.venue == "after_title" and (parsed.volume or parsed.pages):
        score += 0.1  # a journal's numbers follow it
    if len(venue.split()) > 12 or re.search(r"\w{2}\.\s+[A-Z][a-z]+\s", venue):
        score *= 0.6  # long, or holds a sentence end: probably a subtitle or a note as well
    if provenance.title in ("comma", "last_sentence", "whole_rest"):
        score *= 0.8  # the venue starts where an uncertain title ended
    return min(score, 1.0)


def _year(raw: str, provenance: Provenance) -> float:
    score = _YEAR_BASE.get(provenance.year, 0.5)
    if provenance.year != "after_authors" and len(set(_YEAR.findall(raw))) > 1:
        score *= 0.85  # several years in the string: the first may be a page number or a later edition
    return score


def field_confidence(
    raw: str, parsed: ParsedFields, *, provenance: Provenance | None = None
) -> dict[str, float]:
    """A 0..1 confidence for each of title, authors, venue, year, doi, arxiv_id, volume and pages.

    `parsed` is what `parse_reference_string(raw)` returned; `provenance` is the parser's account of how
    it found each field (from `parse_reference_string_detailed`), re-derived from `raw` when not given. A
    field that `parsed` does not hold scores 0.0; one whose value differs from the parser's own reading
    of `raw` (edited after parsing) scores 0.5: nothing argues for or against it.
    """
    if provenance is None:
        detailed = parse_reference_string_detailed(raw)
        provenance, reference = detailed.provenance, detailed.fields
    else:
        reference = parsed
    scores = {
        "title": _title(parsed.title, provenance, bool(parsed.authors)) if parsed.title else 0.0,
        "authors": _authors(parsed.authors, provenance) if parsed.authors else 0.0,
        "venue": _venue(parsed.venue, parsed, provenance) if parsed.venue else 0.0,
        "year": _year(raw, provenance) if parsed.year else 0.0,
        # Identifiers come from their own patterns, anywhere in the string.
        "doi": 0.95 if parsed.doi else 0.0,
        "arxiv_id": 0.95 if parsed.arxiv_id else 0.0,
        "volume": (0.7 if parsed.venue and parsed.pages else 0.5) if parsed.volume else 0.0,
        "pages": (0.8 if re.search(r"\bpp?\.|\bpages?\b|[-–]", raw) else 0.6) if parsed.pages else 0.0,
    }
    if _in_capitals(raw):
        for field in ("title", "authors", "venue"):
            scores[field] *= _CAPITALS_FACTOR
    attributes = {"title": "title", "authors": "authors", "venue": "venue", "year": "year"}
    for field, attribute in attributes.items():
        if scores[field] and getattr(parsed, attribute) != getattr(reference, attribute):
            scores[field] = 0.5
    return {field: round(scores[field], 3) for field in FIELDS}


def is_low_confidence(confidence: dict[str, float]) -> bool:
    """Whether a reference needs a second reading: no title, or a title or author list scored below 0.5."""
    return confidence.get("title", 0.0) < LOW_CONFIDENCE or confidence.get("authors", 0.0) < LOW_CONFIDENCE
