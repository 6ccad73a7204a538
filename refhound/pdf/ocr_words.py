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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pymupdf

from refhound.pdf.layout import Line, clean_text

_GUTTER_GAP = 1.2  # line heights: a gap between two words wider than this splits the line
_SPECKS = "_|—~"  # what a gutter, a rule or dirt reads as, stuck to a word's ends
_Word = tuple[float, float, float, float, str]  # x0, y0, x1, y1, text


def _stripped(word: _Word) -> _Word | None:
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


@dataclass(frozen=True)
class OcrRegion:
    """Tesseract's reading of one region of a page: its words, in points from the region's corner, which
    lies at (`x`, `y`) on the page. A region that is one column of a two-column stretch (`one_column`)
    holds no gutter: Tesseract splits a widely spaced justified line into blocks there, and its words are
    joined again by their baseline alone."""

    textpage: pymupdf.TextPage
    x: float = 0.0
    y: float = 0.0
    one_column: bool = False


def ocr_pieces(page_number: int, regions: Sequence[OcrRegion]) -> list[Line]:
    """A page's OCR'd text, read as one or more regions, as line pieces, each cut at gutter-wide gaps
    between its words (except in a column of its own).

    A piece's size is the page's usual Tesseract size scaled by how tall the piece's shortest word is against
    the page's usual word: Tesseract's own line sizes swell when a line's box reaches into its neighbours,
    and a swollen size reads as a heading or as the end of a list."""
    lines: list[tuple[list[_Word], bool]] = []
    for region in regions:
        by_line: dict[tuple[int, int], list[_Word]] = defaultdict(list)
        for x0, y0, x1, y1, text, block, line, _number in region.textpage.extractWORDS():
            word = _stripped((x0 + region.x, y0 + region.y, x1 + region.x, y1 + region.y, text))
            if word is not None:
                by_line[(block, line)].append(word)
        if region.one_column:
            lines += [(words, True) for words in _by_baseline([w for ws in by_line.values() for w in ws])]
        else:
            lines += [(words, False) for words in by_line.values()]
    heights = [y1 - y0 for words, _ in lines for _x0, y0, _x1, y1, _text in words]
    if not heights:
        return []
    usual_height = statistics.median(heights)
    usual_size = _usual_size([region.textpage for region in regions]) or usual_height
    pieces: list[Line] = []
    for words, whole in lines:
        words.sort()
        height = statistics.median(y1 - y0 for _x0, y0, _x1, y1, _text in words)
        run = [words[0]]
        for word in words[1:]:
            if not whole and word[0] - run[-1][2] > _GUTTER_GAP * height:
                pieces.append(_piece(page_number, run, usual_size, usual_height))
                run = []
            run.append(word)
        pieces.append(_piece(page_number, run, usual_size, usual_height))
    return pieces


def _by_baseline(words: list[_Word]) -> list[list[_Word]]:
    """Words grouped into lines: a word whose middle lies within the box of a line's first word joins it."""
    lines: list[list[_Word]] = []
    for word in sorted(words, key=lambda word: word[1] + word[3]):
        if lines and lines[-1][0][1] <= (word[1] + word[3]) / 2 <= lines[-1][0][3]:
            lines[-1].append(word)
        else:
            lines.append([word])
    return lines


def _usual_size(textpages: Sequence[pymupdf.TextPage]) -> float | None:
    """The median size Tesseract gave the page's lines, weighted by their characters."""
    data: list[dict[str, Any]] = [textpage.extractDICT() for textpage in textpages]
    sizes = [
        span["size"]
        for page in data
        for block in page["blocks"]
        for line in block.get("lines", ())
        for span in line["spans"]
        for _char in span["text"].strip()
    ]
    return statistics.median(sizes) if sizes else None


def _piece(
    page_number: int,
    words: list[_Word],
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
