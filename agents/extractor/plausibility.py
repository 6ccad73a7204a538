"""How much an extracted entry reads like a reference: the gate between extraction and verdicts.

Layout analysis can take text that is no reference for one (an author's biography after the list, an order
form, editorial dates). Judged, such a string can only come out wrong: "Room 2060 Vari Hall" gives a year
that has not come, and a fabricated verdict. Each entry gets a reference-likeness score from four signs, each
with a weight: author-like names at its start, a title-like span, venue or publisher words (or an identifier,
or volume and pages), a year where references print it. Entries below `GATE` are kept and shown as
extraction problems, but never judged. A DOI or arXiv id the entry prints lets it through on its own, and
so does a URL in a short entry: a work cited by its address (a database, software) needs no more.

The weights and the gate were set on half A of the dev PDFs' gold lists and their non-reference text
(docs/benchmarks/extraction.md gives both halves and the command).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from refhound.agents.extractor.entry_shape import opening_shape, opens_given_names_first
from refhound.models import ParsedFields

GATE = 0.5
_WEIGHTS = {"authors": 0.35, "title": 0.2, "venue": 0.25, "year": 0.2}
_VENUE_WORDS = re.compile(
    r"\b(?:journal|proceedings|proc\.|conference|symposium|workshop|review|quarterly|annals|bulletin|letters"
    r"|transactions|press|verlag|publish\w*|university|institut\w*|working\s+paper|discussion\s+paper"
    r"|report|series|studies|edition|ed(?:s)?\.|hrsg\.|hg\.|(?:in|dans|en)\s*:|vol\.|volume|no\.|nr\.|pp?\."
    r"|pages|s\.\s*\d|jg\.|bd\.|heft|zeitschrift|revue|revista|rivista|tidsskrift|thesis|dissertation"
    r"|arxiv|preprint|doi|https?://|www\.)"
    # an imprint: "London: Routledge", "Cambridge, MA: MIT Press"
    r"|(?-i:\b[A-Z][a-z]+(?:,\s*[A-Z]{2})?:\s*[A-Z][\w&-]+)",
    re.IGNORECASE,
)
_VOLUME_PAGES = re.compile(r"\d+\s*(?:\(\d+\))?\s*[:,]\s*\d+\s*[-–]\s*\d+|\b\d+\s*[-–]\s*\d+\b")
# A year where references print it: in parentheses, or set off by punctuation (", 2001." / "2001:" /
# "2001a,"), or "n.d.", "forthcoming", "in press".
_PLACED_YEAR = re.compile(
    r"\((?:1[5-9]|20)\d\d[a-z]?(?:/\d{2,4})?\)|(?:^|[,.;:]\s?|\s)(?:1[5-9]|20)\d\d[a-z]?(?=[.,;:)]|\s*$)"
    r"|\bn\.\s?d\.|\bo\.\s?J\.|\bforthcoming\b|\bin\s+press\b|\bim\s+(?:Druck|Erscheinen)\b",
    re.IGNORECASE,
)
_AUTHOR_LIKE_CONFIDENCE = 0.4
_ADDRESS_MAX_WORDS = 25  # a work cited by its address is short; a paragraph that mentions a website is not
_TITLE_LIKE_CONFIDENCE = 0.4
# Words that running prose is full of and a reference's fields rarely hold: a biography, a paragraph of
# body text, a form's instructions. Titles have some ("the", "of" are not counted).
_PROSE_WORDS = frozenset(
    " ".join(
        (
            "is are was were be been being has have had it its their they them he she his her we our",
            "you your i my this these those that which who whom not but also than there then when while",
            "because however such very more most can could would should will may might must do does did",
        )
    ).split(" ")
)
_PROSE_SHARE = 0.12
_PROSE_MIN_WORDS = 12
_PROSE_PENALTY = 0.3


@dataclass(frozen=True)
class Likeness:
    """An entry's reference-likeness (0..1) and the signs of a reference it lacks."""

    score: float
    missing: tuple[str, ...]

    @property
    def passes(self) -> bool:
        return self.score >= GATE


def _has_authors(raw: str, parsed: ParsedFields, confidence: dict[str, float]) -> bool:
    if opening_shape(raw) is not None or opens_given_names_first(raw):
        return True
    return bool(parsed.authors) and confidence.get("authors", 0.0) >= _AUTHOR_LIKE_CONFIDENCE


def _has_title(parsed: ParsedFields, confidence: dict[str, float]) -> bool:
    title = parsed.title or ""
    return len(title.split()) >= 2 and confidence.get("title", 0.0) >= _TITLE_LIKE_CONFIDENCE


def _has_venue(raw: str, parsed: ParsedFields) -> bool:
    return bool(
        _VENUE_WORDS.search(raw)
        or _VOLUME_PAGES.search(raw)
        or parsed.url
        or (parsed.volume and parsed.pages)
    )


def reference_likeness(raw: str, parsed: ParsedFields, confidence: dict[str, float]) -> Likeness:
    """The entry's reference-likeness from its printed text, the parser's fields and their confidence."""
    if parsed.doi or parsed.arxiv_id or (parsed.url and len(raw.split()) <= _ADDRESS_MAX_WORDS):
        return Likeness(1.0, ())
    signs = {
        "authors": _has_authors(raw, parsed, confidence),
        "title": _has_title(parsed, confidence),
        "venue": _has_venue(raw, parsed),
        "year": bool(_PLACED_YEAR.search(raw)),
    }
    score = sum(_WEIGHTS[name] for name, present in signs.items() if present)
    missing = tuple(name for name, present in signs.items() if not present)
    if not signs["authors"] and _reads_as_prose(
        raw
    ):  # a title may hold prose words, a reference opens with names
        score, missing = score - _PROSE_PENALTY, (*missing, "prose")
    return Likeness(round(max(score, 0.0), 3), missing)


def _reads_as_prose(raw: str) -> bool:
    words = [word.strip(".,;:()[]\"'“”‘’").lower() for word in raw.split()]
    return len(words) >= _PROSE_MIN_WORDS and sum(w in _PROSE_WORDS for w in words) > _PROSE_SHARE * len(
        words
    )


_MISSING_WORDS = {
    "authors": "no author names",
    "title": "no title",
    "venue": "no venue, publisher or identifier",
    "year": "no year where references print one",
    "prose": "reads as running prose",
}


def describe_missing(missing: Sequence[str]) -> str:
    """'no author names, no title' — what an entry lacks, for the report."""
    return ", ".join(_MISSING_WORDS[name] for name in missing) or "nothing"
