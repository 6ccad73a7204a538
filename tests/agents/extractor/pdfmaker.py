"""Real PDFs built with PyMuPDF for the extractor's tests: text placed at given coordinates, in given fonts.

A page is a list of `Text` pieces; `write_pdf` lays them out on A4 pages (595 × 842 pt). Helpers build the
common manuscript shapes: a one-column reference list, a two-column page, running headers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pymupdf

A4 = (595.0, 842.0)
LINE = 12.0  # baseline-to-baseline distance for 10 pt text


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # baseline
    text: str
    size: float = 10.0
    bold: bool = False
    link: str | None = None  # a URI link annotation over this piece
    italic: bool = False


def _font(page: pymupdf.Page, piece: Text) -> str:
    """Helvetica; embedded (with Unicode) for text beyond Latin-1, such as dashes and curly quotes, which the
    simple encoding of the base-14 font would turn into dots."""
    font = {(False, False): "helv", (True, False): "hebo", (False, True): "heit", (True, True): "hebi"}[
        (piece.bold, piece.italic)
    ]
    if all(ord(char) < 256 for char in piece.text):
        return font
    name = f"{font}-unicode"
    page.insert_font(fontname=name, fontbuffer=pymupdf.Font(font).buffer)
    return name


def write_pdf(path: Path, pages: Sequence[Sequence[Text]]) -> Path:
    document = pymupdf.open()
    for pieces in pages:
        page = document.new_page(width=A4[0], height=A4[1])
        for piece in pieces:
            font = _font(page, piece)
            page.insert_text((piece.x, piece.y), piece.text, fontsize=piece.size, fontname=font)
            if piece.link:
                width = pymupdf.get_text_length(piece.text, fontname=font[:4], fontsize=piece.size)
                rect = pymupdf.Rect(piece.x, piece.y - piece.size, piece.x + width, piece.y + 2)
                page.insert_link({"kind": pymupdf.LINK_URI, "from": rect, "uri": piece.link})
    document.save(path)
    document.close()
    return path


def column(lines: Sequence[str], x: float, y: float, indent: float = 0.0, hanging: bool = True) -> list[Text]:
    """Lines set one under the other; "\\t" at a line's start marks a continuation line (indented)."""
    pieces = []
    for i, line in enumerate(lines):
        continuation = line.startswith("\t")
        shift = indent if continuation == hanging else 0.0
        pieces.append(Text(x + shift, y + i * LINE, line.lstrip("\t")))
    return pieces


def entry_lines(entries: Sequence[tuple[str, str | None]]) -> list[str]:
    """`column`'s lines for entries of a first line and a continuation (None or empty when there is none)."""
    return [line for first, second in entries for line in (first, f"\t{second}" if second else "") if line]


def body(count: int, x: float = 72.0, y: float = 100.0, width_chars: int = 80) -> list[Text]:
    """Filler paragraphs of body text."""
    sentence = "The method is evaluated on three corpora and compared with strong baselines in detail "
    text = (sentence * 20)[:width_chars]
    return [Text(x, y + i * LINE, text) for i in range(count)]
