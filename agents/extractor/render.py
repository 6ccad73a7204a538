"""An `Extraction` as BibTeX or as plain text (its JSON form is `Extraction.to_json`)."""

from __future__ import annotations

import re

from refhound.agents.extractor.bib_type import bib_type
from refhound.agents.extractor.result import ExtractedReference, Extraction
from refhound.normalize.names import parse_name
from refhound.normalize.text import fold

_PAGE_RANGE = re.compile(r"\s*[-–—]+\s*")
_BIBTEX_SPECIALS = str.maketrans(
    {"&": r"\&", "%": r"\%", "#": r"\#", "$": r"\$", "_": r"\_", "{": "", "}": ""}
)


def _key(reference: ExtractedReference, used: set[str]) -> str:
    """author-year-word keys ("vaswani2017attention"), made unique with a, b, … suffixes."""
    parsed = reference.parsed
    family = parse_name(parsed.authors[0]).family if parsed.authors else "anon"
    first_word = next((w for w in re.findall(r"[a-z]+", fold(parsed.title or "")) if len(w) > 3), "")
    base = (
        re.sub(r"[^a-z0-9]", "", fold(family)) + str(parsed.year or "") + first_word or f"ref{reference.id}"
    )
    key, suffix = base, ord("a")
    while key in used:
        key, suffix = f"{base}{chr(suffix)}", suffix + 1
    used.add(key)
    return key


def to_bibtex(extraction: Extraction) -> str:
    """One entry per reference, of the type its printed form shows (`bib_type`)."""
    used: set[str] = set()
    entries = []
    for reference in extraction.references:
        parsed = reference.parsed
        kind = bib_type(reference.raw, parsed)
        venue_field = kind.venue_field or "howpublished"
        extra = {name: value.translate(_BIBTEX_SPECIALS) for name, value in kind.extra.items()}
        fields = {
            "title": f"{{{parsed.title.translate(_BIBTEX_SPECIALS)}}}" if parsed.title else None,
            "author": " and ".join(name.translate(_BIBTEX_SPECIALS) for name in parsed.authors)
            + (" and others" if parsed.authors_truncated else "")
            or None,
            venue_field: parsed.venue.translate(_BIBTEX_SPECIALS)
            if parsed.venue and kind.venue_field
            else None,
            **extra,
            "year": str(parsed.year) if parsed.year else None,
            "volume": parsed.volume,
            "pages": _PAGE_RANGE.sub("--", parsed.pages) if parsed.pages else None,
            "doi": parsed.doi,
            "eprint": parsed.arxiv_id,
            "archiveprefix": "arXiv" if parsed.arxiv_id else None,
            "url": parsed.url,
            "note": f"Extracted from {extraction.input}, page {reference.page}; "
            f"confidence: {confidence_summary(reference) or 'no field found'}"
            + (
                "; authors printed as a dash run, taken from the entry before"
                if reference.authors_from_previous
                else ""
            ),
        }
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items() if value)
        entries.append(f"@{kind.entry_type}{{{_key(reference, used)},\n{body}\n}}\n")
    return "\n".join(entries)


def confidence_summary(reference: ExtractedReference) -> str:
    """The parser's confidence in each field it found: "title 0.85, authors 0.95, year 0.95"."""
    return ", ".join(f"{name} {value:.2f}" for name, value in reference.confidence.items() if value > 0)


def to_text(extraction: Extraction) -> str:
    """Per reference, its id, page and text as printed, then the confidence in each parsed field."""
    return "".join(
        f"[{r.id}] (p. {r.page}) {r.raw}\n    confidence: {confidence_summary(r) or 'no field found'}\n"
        for r in extraction.references
    )
