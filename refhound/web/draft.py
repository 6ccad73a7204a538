"""A record in the making, gathered from one flavour of page metadata, and the clean-up every flavour shares.

Pages describe their work in several vocabularies at once (Highwire `citation_*`, Dublin Core, JSON-LD,
the site's own markup); each yields a `Draft`, drafts of the same title are merged (the first flavour
wins a field, later ones fill what it lacks), and only then does a draft become a `Record`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from refhound.models import Record
from refhound.normalize.identifiers import find_arxiv_id, normalize_arxiv_id, normalize_doi
from refhound.normalize.names import is_et_al, parse_name
from refhound.normalize.text import collapse_whitespace
from refhound.normalize.titles import clean_title, title_key

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|2[01]\d\d)(?!\d)")
_DBLP_NUMBER = re.compile(r"\s+\d{4}$")  # dblp tells namesakes apart: "Wei Wang 0001"
_DOI_URL = re.compile(r"(?:doi\.org/|^doi:\s*|^10\.)", re.IGNORECASE)
MAX_AUTHORS = 500


@dataclass
class Draft:
    """Fields one flavour of metadata gave; `flavour` names it ("citation_*", "json-ld", "arxiv" …), which
    shows in a draft's repr when a page's records are traced back to their tags."""

    flavour: str
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    venue: str | None = None
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    entry_type: str | None = None

    def fill_from(self, other: Draft) -> None:
        """Take the fields this draft lacks from `other` (a draft of the same work)."""
        if not self.authors:
            self.authors = list(other.authors)
        for name in ("venue", "year", "doi", "arxiv_id", "url", "entry_type"):
            if getattr(self, name) is None:
                setattr(self, name, getattr(other, name))

    def record(self, source: str, source_id: str, version: str) -> Record | None:
        if not self.title:
            return None
        return Record(
            source=source,
            source_id=source_id,
            source_version=version,
            title=self.title,
            authors=self.authors,
            venue=self.venue,
            year=self.year,
            doi=self.doi,
            arxiv_id=self.arxiv_id,
            url=self.url or source_id,
            entry_type=self.entry_type,
        )


def merge(drafts: list[Draft]) -> list[Draft]:
    """One draft per distinct title, in order of first appearance; later drafts fill missing fields."""
    merged: dict[str, Draft] = {}
    for draft in drafts:
        if not draft.title:
            continue
        key = title_key(draft.title)
        if not key:
            continue
        if key in merged:
            merged[key].fill_from(draft)
        else:
            merged[key] = draft
    return list(merged.values())


def text(value: str | None) -> str | None:
    """Whitespace collapsed; None for nothing."""
    if value is None:
        return None
    out = collapse_whitespace(value).strip()
    return out or None


def title(value: str | None) -> str | None:
    """A display title: LaTeX decoded, outer quotes and dblp's trailing period removed."""
    out = text(value)
    if out is None:
        return None
    return clean_title(out) or None


def author(value: str | None) -> str | None:
    """A display name: "Vaswani, Ashish" → "Ashish Vaswani"; dblp's "Wei Wang 0001" → "Wei Wang"."""
    name = text(value)
    if not name or is_et_al(name):
        return None
    name = _DBLP_NUMBER.sub("", name)
    if "," in name:
        parsed = parse_name(name)
        name = parsed.display or name
    return name


def authors(values: list[str]) -> list[str]:
    out: list[str] = []
    for value in values[:MAX_AUTHORS]:
        name = author(value)
        if name and name not in out:
            out.append(name)
    return out


def year(value: str | int | None) -> int | None:
    """The first plausible year in a date ("2017/06/12", "2019-6", "June 2020", 2021)."""
    if isinstance(value, int):
        return value if 1500 <= value <= 2199 else None
    match = _YEAR.search(value or "")
    return int(match.group(1)) if match else None


def doi(value: str | None) -> str | None:
    """A DOI from a bare DOI, "doi:…" or a doi.org link (a publisher's other links are not DOIs)."""
    if not value or not _DOI_URL.search(value.strip()):
        return None
    return normalize_doi(value)


def arxiv_id(value: str | None) -> str | None:
    if not value:
        return None
    return normalize_arxiv_id(value) or find_arxiv_id(value)
