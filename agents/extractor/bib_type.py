"""The BibTeX entry type of a printed reference, and the fields its type holds.

    proceedings ("In NAACL.", "Proceedings of …", a conference the venue table knows) → @inproceedings
    a chapter in an edited book ("In J. Smith (ed.): Title. Place: Publisher")         → @incollection
    a journal (the venue table's journals; another venue not printed after "In")      → @article, journal
    an arXiv preprint (an arXiv id, and no other venue)                               → @misc, eprint
    a report ("Technical report", "Working paper", no venue)                          → @techreport
    a book (no venue; a publisher printed after the title: "Oxford: Oxford UP")       → @book, publisher
    anything else                                                                     → @misc

The parser's fields say most of it; the printed string says the rest ("In" before the venue, the editors,
the publisher and its place), since the parsed fields keep no publisher.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from refhound.models import ParsedFields
from refhound.normalize.venues import VenueKind, parse_venue

_PROCEEDINGS = re.compile(
    r"\b(?:proc|proceedings|conference|workshop|symposium|meeting|congress|colloquium|tagung|actes)\b",
    re.IGNORECASE,
)
_EDITED = re.compile(
    r"\(\s*(?:eds?|hrsg|hg|dir|coord)\.?\s*\)|\bedited\s+by\b|\b(?:eds?|hrsg)\.\s*[,:]", re.I
)
_IN = re.compile(r"(?:^|[\s.,;)])In:?\s")
_PUBLISHER_WORDS = re.compile(
    r"\b(?:press|verlag|verlags\w*|publishers?|publishing|publications|books|edition[s]?|éditions|editorial"
    r"|editora|edizioni|routledge|springer|wiley|elsevier|sage|blackwell|macmillan|palgrave|campus|suhrkamp"
    r"|budrich|westdeutscher|kohlhammer|juventa|nomos|beck|oldenbourg|gallimard|norton|penguin|harper|polity"
    r"|verso|pearson|mcgraw|prentice|addison|academic|university|universitaires?|universitätsverlag)\b",
    re.IGNORECASE,
)
_PLACE_PUBLISHER = re.compile(
    r"(?P<place>[A-ZÀ-Þ][\w '’/-]{1,40}?(?:,\s*[A-Z]{2})?)\s*:\s*"
    r"(?P<publisher>[A-ZÀ-Þ][^:;()]{1,80}?)\s*(?:[.,;]|$)"
)
_NOISE = re.compile(
    r"https?://\S+|\bdoi:?\s*\S+|\b10\.\d{4,9}/\S+|\(?\b(?:1[5-9]|20)\d\d[a-z]?\b\)?|\bpp?\.\s*[\d–-]+",
    re.IGNORECASE,
)
_REPORT = re.compile(
    r"\b(?:technical\s+report|tech\.\s*rep\.?|working\s+papers?|discussion\s+papers?|research\s+report"
    r"|report\s+no\.?|arbeitspapier|diskussionspapier)\b",
    re.IGNORECASE,
)
_PLACE = re.compile(r"^[A-ZÀ-Þ][\w'’-]+(?:[\s/-]+[A-ZÀ-Þ][\w'’-]+){0,3}(?:,\s*[A-Z]{2})?$")


@dataclass(frozen=True)
class BibType:
    """An entry type, the field the venue goes in (None when there is none), and extra fields."""

    entry_type: str
    venue_field: str | None
    extra: dict[str, str] = field(default_factory=dict)


def _after_title(raw: str, parsed: ParsedFields) -> str:
    """What the string prints after the title (the whole string when the title cannot be found in it)."""
    if parsed.title:
        at = raw.lower().find(parsed.title.lower())
        if at >= 0:
            return raw[at + len(parsed.title) :]
    return raw


def publisher_of(raw: str, parsed: ParsedFields) -> tuple[str | None, str | None]:
    """The publisher and its place printed after the title: "Boston: Harvard Business School Press",
    "Berlin, Campus Verlag", "Routledge, London"; (None, None) when none is printed."""
    tail = _NOISE.sub(" ", _after_title(raw, parsed))
    if parsed.venue:
        at = tail.find(parsed.venue)
        tail = tail[at + len(parsed.venue) :] if at >= 0 else tail
    # The last "Place: Publisher" is the imprint (an earlier colon may end the editors).
    match = next(reversed(list(_PLACE_PUBLISHER.finditer(tail))), None)
    if match is not None and not _EDITED.search(match.group("publisher")):
        return match.group("publisher").strip(), match.group("place").strip()
    parts = [part.strip() for part in re.split(r"[,.;]\s+|\.$", tail) if part.strip(" .,;")]
    for i, part in enumerate(parts):
        if _PUBLISHER_WORDS.search(part) and len(part.split()) <= 8:
            neighbours = [p for p in (parts[i - 1] if i else "", parts[i + 1] if i + 1 < len(parts) else "")]
            place = next((p for p in neighbours if _PLACE.match(p) and not _PUBLISHER_WORDS.search(p)), None)
            return part.strip(" .,;"), place
    return None, None


def _printed_in(raw: str, parsed: ParsedFields) -> bool:
    """The string prints "In" (or "In:") before the venue: a part of a larger work."""
    if not parsed.venue:
        return False
    before = _after_title(raw, parsed)
    at = before.find(parsed.venue)
    return bool(_IN.search(before[:at] if at >= 0 else before[:40]))


def bib_type(raw: str, parsed: ParsedFields) -> BibType:
    """The entry type a reference gets, from its parsed fields and its printed string."""
    venue = parsed.venue or ""
    kind = parse_venue(venue).kind if venue else VenueKind.UNKNOWN
    if (
        parsed.arxiv_id
        and kind in (VenueKind.PREPRINT, VenueKind.UNKNOWN)
        and (not venue or kind is VenueKind.PREPRINT)
    ):
        return BibType("misc", None)
    if venue and _EDITED.search(raw) and _printed_in(raw, parsed):
        publisher, place = publisher_of(raw, parsed)
        return BibType("incollection", "booktitle", _imprint(publisher, place))
    if venue and (
        kind in (VenueKind.CONFERENCE, VenueKind.WORKSHOP)
        or _PROCEEDINGS.search(venue)
        or (kind is not VenueKind.JOURNAL and _printed_in(raw, parsed))
    ):
        return BibType("inproceedings", "booktitle")
    if venue and kind is not VenueKind.BOOK:
        return BibType("article", "journal")
    publisher, place = publisher_of(raw, parsed)
    if _REPORT.search(raw):
        return BibType("techreport", None, {"institution": publisher} if publisher else {})
    if publisher is None and kind is VenueKind.BOOK:
        publisher = venue
    if publisher is not None:
        return BibType("book", None, _imprint(publisher, place))
    return BibType("misc", "howpublished" if venue else None)


def _imprint(publisher: str | None, place: str | None) -> dict[str, str]:
    return {name: value for name, value in (("publisher", publisher), ("address", place)) if value}
