"""The extractor agent's pipeline: PDF → lines → reference section → entries → parsed fields (+ links, LLM)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from refhound.agents.extractor.layout import Line
from refhound.agents.extractor.links import fill_from_links, links_of_entries, page_links
from refhound.agents.extractor.pdf import open_pdf, read_pages
from refhound.agents.extractor.result import ExtractedReference, Extraction
from refhound.agents.extractor.section import find_reference_section
from refhound.agents.extractor.segment import Entry, join_lines, split_entries
from refhound.refstring import parse_reference_string
from refhound.settings import ExtractSettings

_YEAR_OR_ID = re.compile(r"(?<!\d)(?:1[6-9]\d\d|20\d\d)(?!\d)|\b10\.\d{4,9}/|arxiv|https?://|n\.\s?d\.", re.IGNORECASE)
_MIN_WORDS = 4


@dataclass(frozen=True)
class PrintedReference:
    """One reference as printed, before parsing: its one-line text, first page (1-based) and link targets."""

    raw: str
    page: int
    links: list[str]


@dataclass(frozen=True)
class LayoutResult:
    references: list[PrintedReference]
    warnings: list[str]
    section: str
    pages: int


def _looks_like_reference(text: str) -> bool:
    """Sub-headings ("Primary sources"), stray page furniture and captions are not references."""
    return len(text.split()) >= _MIN_WORDS and bool(_YEAR_OR_ID.search(text))


def _printed(entries: Sequence[Entry], document: pymupdf.Document) -> list[PrintedReference]:
    links = links_of_entries(entries, page_links(document, {line.page for e in entries for line in e.lines}))
    printed: list[PrintedReference] = []
    for entry, targets in zip(entries, links, strict=True):
        raw = join_lines([line.text for line in entry.lines])
        if _looks_like_reference(raw) or targets:
            printed.append(PrintedReference(raw, entry.page + 1, targets))
    return printed


def read_printed_references(path: Path, settings: ExtractSettings) -> LayoutResult:
    """The references a PDF prints, as one-line strings with their page and links (no parsing yet)."""
    document = open_pdf(path)
    try:
        text = read_pages(document, settings)
        lines: list[Line] = text.lines
        warnings = list(text.warnings)
        if text.ocr_pages:
            warnings.append(f"pages {', '.join(map(str, text.ocr_pages))} were read by OCR (Tesseract)")
        section = find_reference_section(lines)
        if not section.lines:
            warnings.append("no reference section found (no heading such as 'References' and no numbered list)")
            return LayoutResult([], warnings, "none", len(text.pages))
        entries, cue = split_entries(section.lines)
        return LayoutResult(_printed(entries, document), warnings, f"{section.found_by}; split by {cue}", len(text.pages))
    finally:
        document.close()


def extract_pdf(path: Path, settings: ExtractSettings | None = None) -> Extraction:
    """The references of a manuscript PDF with parsed fields, per-field confidence, page and links."""
    settings = settings or ExtractSettings()
    layout = read_printed_references(path, settings)
    references = []
    for position, printed in enumerate(layout.references, start=1):
        parsed = fill_from_links(parse_reference_string(printed.raw), printed.links)
        references.append(
            ExtractedReference(
                id=str(position), raw=printed.raw, parsed=parsed, page=printed.page, confidence={}, links=printed.links
            )
        )
    return Extraction(
        input=str(path), references=references, warnings=layout.warnings, section=layout.section, pages=layout.pages
    )
