"""The PDF's own link annotations: each URI link attached to the reference whose printed lines it covers.

A DOI or arXiv link is often the most reliable identifier a reference carries (the text may be cut by a line
break or printed as "[link]"), so its target fills the DOI / arXiv id the text did not give.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import pymupdf

from refhound.agents.extractor.segment import Entry
from refhound.models import ParsedFields
from refhound.normalize.identifiers import find_arxiv_id, normalize_doi

_MIN_OVERLAP = 0.3  # share of the link's area that must lie on the entry's lines


def page_links(document: pymupdf.Document, pages: set[int]) -> dict[int, list[tuple[pymupdf.Rect, str]]]:
    """The URI links of the given pages (0-based), with the rectangle each covers."""
    found: dict[int, list[tuple[pymupdf.Rect, str]]] = defaultdict(list)
    for number in sorted(pages):
        for link in document.load_page(number).get_links():
            uri = link.get("uri")
            if link.get("kind") == pymupdf.LINK_URI and uri:
                found[number].append((pymupdf.Rect(link["from"]), uri.strip()))
    return found


def links_of_entries(
    entries: Sequence[Entry], links: dict[int, list[tuple[pymupdf.Rect, str]]]
) -> list[list[str]]:
    """For each entry, the link targets lying on its lines, in printed order, without repeats."""
    attached: list[list[str]] = [[] for _ in entries]
    for page, page_links_ in links.items():
        boxes = [
            (index, pymupdf.Rect(line.x0, line.y0, line.x1, line.y1))
            for index, entry in enumerate(entries)
            for line in entry.lines
            if line.page == page
        ]
        for rect, uri in page_links_:
            area = rect.get_area() or 1.0
            best, best_overlap = None, 0.0
            for index, box in boxes:
                overlap = (rect & box).get_area() / area if rect.intersects(box) else 0.0
                if overlap > best_overlap:
                    best, best_overlap = index, overlap
            if best is not None and best_overlap >= _MIN_OVERLAP and uri not in attached[best]:
                attached[best].append(uri)
    return attached


def fill_from_links(parsed: ParsedFields, links: Sequence[str]) -> ParsedFields:
    """The parsed fields with DOI, arXiv id and URL taken from link targets where the text gave none."""
    update: dict[str, str] = {}
    for uri in links:
        doi = normalize_doi(uri) if "doi.org/" in uri.lower() or uri.lower().startswith("doi:") else None
        arxiv = find_arxiv_id(uri) if "arxiv.org/" in uri.lower() else None
        if doi and not parsed.doi and "doi" not in update:
            update["doi"] = doi
        elif arxiv and not parsed.arxiv_id and "arxiv_id" not in update:
            update["arxiv_id"] = arxiv
        elif (
            not doi
            and not arxiv
            and uri.lower().startswith(("http://", "https://"))
            and not parsed.url
            and "url" not in update
        ):
            update["url"] = uri
    return parsed.model_copy(update=update) if update else parsed
