"""OCR'd words → line pieces the layout analysis can read like a text layer's.

Tesseract, run on a whole page, often reads a line of the left column and the line beside it in the right
column as one line ("… do not consider __ tions. We achieve …"): such a line crosses the gutter, so the page
reads as one column and the reference list comes out interleaved. Lines are therefore rebuilt from the
words' own boxes and cut wherever the gap between two words is wider than a gutter can be narrow (far
wider than a word space); specks read at the gutter ("_", "|", "—_") are dropped. Each piece keeps the
size its words' height says (see `ocr_pieces`).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

import pymupdf

from refhound.pdf.layout import Line, clean_text

_GUTTER_GAP = 1.2  # line heights: a gap between two words wider than this splits the line
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
_SPECKS = "_|—~"  # what a gutter, a rule or dirt reads as, stuck to a word's ends


def _stripped(word: tuple[float, float, float, float, str]) -> tuple[float, float, float, float, str] | None:
    """The word without specks stuck to it ("—_References" → "References"), its box shrunk in proportion;
    None for a speck alone ("_", "|", "—_")."""
    x0, y0, x1, y1, text = word
    core = text.lstrip(_SPECKS).rstrip(_SPECKS + "_|")
    if not core or (len(text) <= 3 and not any(char.isalnum() for char in text)):
        return None
    if core == text:
        return word
    width = (x1 - x0) / max(1, len(text))
    lead = len(text) - len(text.lstrip(_SPECKS))
    return (x0 + lead * width, y0, x0 + (lead + len(core)) * width, y1, core)


def ocr_pieces(page: pymupdf.Page, page_number: int, textpage: pymupdf.TextPage) -> list[Line]:
    """The page's OCR'd text as line pieces, each cut at gutter-wide gaps between its words.

    A piece's size is the page's usual Tesseract size scaled by how tall the piece's shortest word is against
    the page's usual word: Tesseract's own line sizes swell when a line's box reaches into its neighbours,
    and a swollen size reads as a heading or as the end of a list."""
    by_line: dict[tuple[int, int], list[tuple[float, float, float, float, str]]] = defaultdict(list)
    for x0, y0, x1, y1, text, block, line, _number in page.get_text("words", textpage=textpage):
        word = _stripped((x0, y0, x1, y1, text))
        if word is not None:
            by_line[(block, line)].append(word)
    heights = [y1 - y0 for words in by_line.values() for _x0, y0, _x1, y1, _text in words]
    if not heights:
        return []
    usual_height = statistics.median(heights)
    usual_size = _usual_size(page, textpage) or usual_height
    pieces: list[Line] = []
    for words in by_line.values():
        words.sort()
        height = statistics.median(y1 - y0 for _x0, y0, _x1, y1, _text in words)
        run = [words[0]]
        for word in words[1:]:
            if word[0] - run[-1][2] > _GUTTER_GAP * height:
                pieces.append(_piece(page_number, run, usual_size, usual_height))
                run = []
            run.append(word)
        pieces.append(_piece(page_number, run, usual_size, usual_height))
    return pieces


def _usual_size(page: pymupdf.Page, textpage: pymupdf.TextPage) -> float | None:
    """The median size Tesseract gave the page's lines, weighted by their characters."""
    data: dict[str, Any] = page.get_text("dict", flags=_TEXT_FLAGS, textpage=textpage)
    sizes = [
        span["size"]
        for block in data["blocks"]
        for line in block.get("lines", ())
        for span in line["spans"]
        for _char in span["text"].strip()
    ]
    return statistics.median(sizes) if sizes else None


def _piece(
    page_number: int,
    words: list[tuple[float, float, float, float, str]],
    usual_size: float,
    usual_height: float,
) -> Line:
    # The shortest word: a box that swallowed part of the next line swells some words of a line, not all.
    height = min(y1 - y0 for _x0, y0, _x1, y1, _text in words)
    return Line(
        page_number,
        min(w[0] for w in words),
        min(w[1] for w in words),
        max(w[2] for w in words),
        max(w[3] for w in words),
        clean_text(" ".join(word[4] for word in words)),
        round(usual_size * height / usual_height, 1),
        False,
    )
