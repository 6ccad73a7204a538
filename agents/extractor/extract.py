"""The extractor pipeline: PDF → lines → reference section → entries → parsed fields (+ links, LLM)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pymupdf

from refhound.agents.extractor.entry_shape import opening_shape
from refhound.agents.extractor.footnotes import footnote_entries
from refhound.agents.extractor.links import fill_from_links, links_of_entries, page_links
from refhound.agents.extractor.llm_backend import LLMReferenceParser
from refhound.agents.extractor.nougat_backend import nougat_references
from refhound.agents.extractor.plausibility import GATE, reference_likeness
from refhound.agents.extractor.result import ExtractedReference, Extraction
from refhound.agents.extractor.section import Section, find_reference_section
from refhound.agents.extractor.segment import Entry, join_lines, split_entries
from refhound.errors import LLMError, LLMUnavailable
from refhound.llm import client_from_settings
from refhound.pdf.document import open_pdf, read_pages
from refhound.pdf.nougat import nougat_problem
from refhound.refstring import parse_reference_string
from refhound.refstring.confidence import field_confidence, is_low_confidence
from refhound.refstring.repeated_authors import carry_over, with_stand_in
from refhound.settings import ExtractSettings, Settings

_YEAR_OR_ID = re.compile(
    r"(?<!\d)(?:1[6-9]\d\d|20\d\d)(?!\d)|\b10\.\d{4,9}/|arxiv|https?://|n\.\s?d\.|\bo\.\s?J\."
    r"|\b(?:in\s+press|forthcoming|im\s+(?:Druck|Erscheinen)|sous\s+presse|en\s+prensa|no\s+date)\b",
    re.IGNORECASE,
)
_MIN_WORDS = 4
_WEB_ADDRESS = re.compile(r"^(?:https?://|www\.)\S+$", re.IGNORECASE)


@dataclass(frozen=True)
class PrintedReference:
    """One reference as printed, before parsing: its one-line text, first page (1-based) and link targets."""

    raw: str
    page: int
    links: list[str]


@dataclass(frozen=True)
class Layout:
    """What the layout stage found: the printed references, warnings, how the list was found, pages read."""

    references: list[PrintedReference]
    warnings: list[str]
    section: str
    pages: int
    ocr_pages: tuple[int, ...] = ()  # 1-based pages read by OCR
    ocr_engine: str = "Tesseract"  # what read them: "Tesseract" or "nougat"


def _looks_like_reference(text: str) -> bool:
    """Sub-headings ("Primary sources"), stray page furniture and captions are not references."""
    return len(text.split()) >= _MIN_WORDS and bool(_YEAR_OR_ID.search(text))


def _printed(entries: Sequence[Entry], document: pymupdf.Document) -> list[PrintedReference]:
    links = links_of_entries(entries, page_links(document, {line.page for e in entries for line in e.lines}))
    printed: list[PrintedReference] = []
    for entry, targets in zip(entries, links, strict=True):
        raw = join_lines([line.text for line in entry.lines])
        # A numbered entry, one of several lines, or one opening as an entry does ("ALDISS, BRIAN. “Total
        # Environment.” In Clem, …", a dash run) is one of the list's entries even without a year ("(October
        # 94)"): the plausibility gate judges it, and sets it aside in view rather than losing it here.
        # Sub-headings and page furniture take one line and open in no entry's shape. A numbered entry that is
        # a web address alone ("[3] http://www.junit.org/") is a web source's reference all the same.
        listed = entry.number is not None or len(entry.lines) > 1 or opening_shape(raw) is not None
        worded = len(raw.split()) >= _MIN_WORDS or (
            entry.number is not None and bool(_WEB_ADDRESS.match(raw))
        )
        if _looks_like_reference(raw) or targets or (listed and worded):
            printed.append(PrintedReference(raw, entry.page + 1, targets))
    return printed


def _footnotes_only(section: Section, footnotes: Sequence[Entry]) -> bool:
    """A list found by its shape alone (no heading) whose lines are all footnotes of one page, while other
    pages have footnotes too: the document cites in footnotes."""
    if section.found_by.startswith("heading") or not section.lines:
        return False
    footnote_lines = {(line.page, line.y0) for entry in footnotes for line in entry.lines}
    in_footnotes = all((line.page, line.y0) in footnote_lines for line in section.lines)
    return in_footnotes and len({entry.page for entry in footnotes}) > len(
        {line.page for line in section.lines}
    )


def read_printed_references(path: Path, settings: ExtractSettings) -> Layout:
    """The references a PDF prints, as one-line strings with their page and links (no parsing yet)."""
    document = open_pdf(path, settings.max_bytes)
    try:
        nougat = (
            settings.ocr
            and settings.ocr_backend == "nougat"
            and nougat_problem(settings.nougat_checkpoint) is None
        )
        text = read_pages(document, settings, defer_ocr=nougat)
        fallback: list[str] = []
        if nougat and text.scanned_pages and settings.nougat_checkpoint is not None:
            by_nougat = _read_by_nougat(
                document, text.scanned_pages, settings.nougat_checkpoint, text.warnings
            )
            if by_nougat is not None:
                return by_nougat
            fallback = ["nougat found no reference list on the scanned pages; Tesseract reads them instead"]
            text = read_pages(document, settings)
        warnings = [*text.warnings, *fallback]
        if text.ocr_pages:
            pages, verb = ("page", "was") if len(text.ocr_pages) == 1 else ("pages", "were")
            warnings.append(f"{pages} {', '.join(map(str, text.ocr_pages))} {verb} read by OCR (Tesseract)")
        section = find_reference_section(text.lines)
        footnotes = footnote_entries(text.pages)
        if _footnotes_only(section, footnotes):
            section = replace(section, lines=[])  # a page's footnotes, not a list: every footnote counts
        if not section.lines:
            from_footnotes = _printed(footnotes, document)
            if from_footnotes:
                warnings.append(
                    f"no reference list: {len(from_footnotes)} references were taken from footnotes "
                    "(footnote-style citations)"
                )
                return Layout(from_footnotes, warnings, "footnotes", len(text.pages), tuple(text.ocr_pages))
            # The one message `check`, triage and the server pass on: it names the page cap when one applied.
            read = len(text.pages)
            capped = (
                f" in the first {read} of {document.page_count} pages: extract.max_pages stopped the reading "
                "there, and the list may come later"
                if document.page_count > read
                else ""
            )
            warnings.append(
                f"no reference section found (no heading such as 'References' and no numbered list){capped}"
            )
            return Layout([], warnings, "none", len(text.pages), tuple(text.ocr_pages))
        entries, cue = split_entries(section.lines)
        found = f"{section.found_by}; split by {cue}"
        return Layout(_printed(entries, document), warnings, found, len(text.pages), tuple(text.ocr_pages))
    finally:
        document.close()


def _read_by_nougat(
    document: pymupdf.Document, scanned: list[int], checkpoint: Path, warnings: list[str]
) -> Layout | None:
    """The references nougat reads on the scanned pages, or None when it finds no list."""
    found = nougat_references(document, scanned, checkpoint)
    if not found:
        return None
    pages = f"pages {', '.join(map(str, scanned))} were" if len(scanned) > 1 else f"page {scanned[0]} was"
    notes = [*warnings, f"{pages} read by OCR (nougat, checkpoint {checkpoint})"]
    printed = [PrintedReference(raw, page, []) for raw, page in found if _looks_like_reference(raw)]
    return Layout(printed, notes, "nougat markdown", document.page_count, tuple(scanned), "nougat")


def _parse(
    reference_id: str,
    printed: PrintedReference,
    llm: LLMReferenceParser | None,
    use_llm_for_all: bool,
    warnings: list[str],
    previous: ExtractedReference | None = None,
) -> ExtractedReference:
    """Fields by the deterministic parser; by the LLM where it is unsure (or for all), if an LLM is set up.

    An entry whose authors are a dash run gets the previous entry's authors (and the confidence in them). An
    LLM that fails leaves the deterministic fields in place, with a warning: never a guess."""
    stand_in = with_stand_in(printed.raw) if previous is not None else None
    text = stand_in or printed.raw
    parsed = parse_reference_string(text)
    confidence = field_confidence(text, parsed)
    parser = "rules"
    if llm is not None and (use_llm_for_all or is_low_confidence(confidence)):
        try:
            parsed = llm.parse(text)
        except LLMUnavailable as error:
            if not any(w.startswith("LLM parser unavailable") for w in warnings):
                warnings.append(f"LLM parser unavailable ({error}); the rule-based fields are kept")
        except LLMError as error:
            warnings.append(
                f"reference {reference_id}: the LLM parser failed ({error}); the rule-based fields are kept"
            )
        else:
            confidence = field_confidence(text, parsed)
            parser = "llm"
    if stand_in is not None and previous is not None:
        parsed = carry_over(parsed, previous.parsed)
        confidence = {**confidence, "authors": previous.confidence.get("authors", 0.0)}
    parsed = fill_from_links(parsed, printed.links)
    likeness = reference_likeness(text, parsed, confidence)
    return ExtractedReference(
        id=reference_id,
        raw=printed.raw,
        parsed=parsed,
        page=printed.page,
        confidence=confidence,
        links=printed.links,
        parser=parser,
        authors_from_previous=stand_in is not None,
        likeness=likeness.score,
        lacks=list(likeness.missing),
    )


def extract_pdf(
    path: Path, settings: Settings | None = None, llm: LLMReferenceParser | None = None
) -> Extraction:
    """The references of a manuscript PDF with parsed fields, per-field confidence, page and links.

    The LLM backend is used when one is given or `settings.llm.base_url` is set, unless `extract.llm` is
    "off": for every entry ("all") or for those the deterministic parser is unsure of ("low_confidence").
    """
    settings = settings or Settings()
    layout = read_printed_references(path, settings.extract)
    warnings = list(layout.warnings)
    client = None
    if settings.extract.llm == "off":
        llm = None
    elif llm is None and (client := client_from_settings(settings.llm)) is not None:
        llm = LLMReferenceParser(client)
    references: list[ExtractedReference] = []
    try:
        for position, printed in enumerate(layout.references, start=1):
            previous = references[-1] if references else None
            references.append(
                _parse(str(position), printed, llm, settings.extract.llm == "all", warnings, previous)
            )
    finally:
        if client is not None:
            client.close()
    # Below the gate: kept and shown, never judged (a biography's "Room 2060" is no year of publication).
    kept = [reference for reference in references if reference.likeness >= GATE]
    set_aside = [reference for reference in references if reference.likeness < GATE]
    certainty = _ocr_certainty(references, layout.ocr_pages)
    if certainty is not None and references:  # with none read, the layout's warning says why
        from_ocr = sum(1 for reference in kept if reference.page in layout.ocr_pages)
        warnings.append(
            f"{from_ocr} of the {len(kept)} references come from OCR of page images ({layout.ocr_engine}): "
            f"extraction certainty {certainty:.2f} (the mean reference-likeness of the entries read there; "
            f"{sum(1 for r in set_aside if r.page in layout.ocr_pages)} did not read as references): OCR "
            "misreads names, years and where entries end, so compare the list with the PDF"
        )
    return Extraction(
        input=str(path),
        references=kept,
        set_aside=set_aside,
        warnings=warnings,
        section=layout.section,
        pages=layout.pages,
        ocr_pages=list(layout.ocr_pages),
        ocr_certainty=certainty,
    )


def _ocr_certainty(references: Sequence[ExtractedReference], ocr_pages: Sequence[int]) -> float | None:
    """How sure extraction is of the entries it read from OCR'd pages: their mean reference-likeness (an
    entry OCR broke or merged reads less like a reference); None when no page was OCR'd, 0.0 when OCR'd
    pages gave no entry."""
    if not ocr_pages:
        return None
    read = [reference.likeness for reference in references if reference.page in ocr_pages]
    return round(sum(read) / len(read), 3) if read else 0.0
