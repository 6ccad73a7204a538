"""The nougat OCR backend: scanned pages → nougat's Markdown (`refhound.pdf.nougat`) → reference strings."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pymupdf

from refhound.agents.extractor.nougat_markdown import clean_markdown, references_from_markdown
from refhound.pdf import nougat


def nougat_references(
    document: pymupdf.Document, pages: Sequence[int], checkpoint: Path
) -> list[tuple[str, int]]:
    """The references nougat reads on the given pages (1-based), each with the page its text starts on."""
    images = [nougat.page_image(document.load_page(number - 1)) for number in pages]
    markdown = nougat.page_markdown(images, checkpoint)
    found: list[tuple[str, int]] = []
    for reference in references_from_markdown("\n\n".join(markdown)):
        opening = reference[:40]
        texts = zip(pages, markdown, strict=True)
        found.append((reference, next((n for n, text in texts if opening in clean_markdown(text)), pages[0])))
    return found
