"""PDF page → text lines with coordinates, in reading order, without running headers, footers, page numbers.

Reading order is rebuilt from line coordinates rather than taken from `get_text(sort=True)`, which interleaves
the two columns of a two-column page line by line. A page counts as two-column when enough lines sit wholly in
each half of its text area; lines that reach across the gutter into the next column (titles, wide figures)
cut the page into bands, and inside a band the left column is read before the right one. A strip left blank
across the whole page also ends a band.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate, pairwise
from typing import Any

import pymupdf

# Ligatures expanded; whitespace kept so word gaps survive; images skipped (they are not text).
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
# Characters read as others: Unicode's ligatures expanded; and the old-style figures and small capitals that
# Adobe's expert fonts put in the private use area (the Adobe Glyph List's "zerooldstyle" U+F730 …
# "nineoldstyle" U+F739, "Asmall" U+F761 … "Zsmall" U+F77A), which would otherwise read as no characters: a
# year set in old-style figures, a name in small capitals.
_CHARACTERS = str.maketrans(
    {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
    | {chr(0xF730 + n): str(n) for n in range(10)}
    | {chr(0xF761 + n): chr(ord("a") + n) for n in range(26)}
)
# pdfTeX prints an accent as its own spacing character before the letter: "J¨org", "ˇReh˚uˇrek", "Lo¨ıc".
_SPACING_ACCENTS = {
    "¨": "\u0308", "´": "\u0301", "`": "\u0300", "ˆ": "\u0302", "˜": "\u0303", "ˇ": "\u030c",
    "˚": "\u030a", "¸": "\u0327", "˘": "\u0306", "˙": "\u0307", "˝": "\u030b", "¯": "\u0304",
}  # fmt: skip
# A backtick is also TeX's opening quote, so it counts as an accent only inside a word, before a vowel.
_ACCENTS_BUT_BACKTICK = "".join(accent for accent in _SPACING_ACCENTS if accent != "`")
_ACCENT_THEN_LETTER = re.compile(f"([{_ACCENTS_BUT_BACKTICK}])([^\\W\\d_])|(?<=\\w)(`)([aeiouAEIOU])")
# TeX's Cork (T1) encoding puts the ligatures and dashes among the control codes; a font without a Unicode
# map (the EC fonts pdfTeX embeds, dvips' bitmap fonts) prints those codes as they are: "di\x1berent",
# "in\x1duence", "507\x1528". Read inside words (a letter or digit beside them), they are the glyphs; a
# control code is never text. Python also splits at 0x1c-0x1f as whitespace, which cut "Kalb eisch".
_CORK_GLYPHS = {
    "\x15": "–",
    "\x16": "—",
    "\x1b": "ff",
    "\x1c": "fi",
    "\x1d": "fl",
    "\x1e": "ffi",
    "\x1f": "ffl",
}
_CORK_CODES = "".join(_CORK_GLYPHS)
_CORK_IN_WORD = re.compile(f"(?<=[^\\W_])[{_CORK_CODES}]|[{_CORK_CODES}](?=[^\\W_])")
_BOLD_FLAG = 16
_SMALL_CAPS_SCALE = (0.6, 0.9)  # the range of small capitals' size against the capitals' size
_SUPERSCRIPT_FLAG = 1
_ITALIC_FLAG = 2
_MARGIN_SHARE = 0.1  # top/bottom share of the page where running headers and footers live
_MIN_COLUMN_LINES = 4
_MIN_BAND_ROWS = 3  # a band's columns, each beginning at an edge, show their gutter on fewer rows
_PAGE_NUMBER = re.compile(
    r"^\s*(?:(?:page|seite|p\.)\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:/|of|von)\s*\d{1,4})?\s*$", re.IGNORECASE
)
_DIGITS = re.compile(r"\d+")
_LIST_MARKER = re.compile(r"^(?:\[\d{1,4}\]|\(?\d{1,4}[.)]?|[•▪■●◦‣∙·*–-])$")
_LABEL = re.compile(r"^\[[^\[\]\s]{1,12}\]$")  # a list label alone: "[EAS+24]", "[Har14]"


@dataclass(frozen=True)
class Line:
    """One printed line: its page (0-based), box, text, dominant font size and style, and column."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float
    bold: bool
    column: int = 0  # 0 for the leftmost (or only) column; -1 for a line across a gutter
    marker: str = ""  # a leading superscript number printed smaller than the line, e.g. a footnote mark
    italic: bool = False  # most of its letters in an italic or oblique face

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def _attach_accent(match: re.Match[str]) -> str:
    accent, letter = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    return ("i" if letter == "ı" else "j" if letter == "ȷ" else letter) + _SPACING_ACCENTS[accent]


def clean_text(text: str) -> str:
    """Ligatures expanded (Unicode's and the Cork encoding's codes), Adobe's private-use old-style figures
    and small capitals read as digits and letters, TeX's separate accents put on their letters ("J¨org" →
    "Jörg"), soft hyphens and zero-width characters removed, whitespace runs collapsed."""
    text = text.translate(_CHARACTERS)
    text = _CORK_IN_WORD.sub(lambda match: _CORK_GLYPHS[match.group(0)], text)
    text = unicodedata.normalize("NFC", _ACCENT_THEN_LETTER.sub(_attach_accent, text))
    text = text.replace("\u00ad", "").replace("\u200b", "").replace("\ufeff", "")
    return " ".join(text.split())


def _printed_sizes(spans: Sequence[dict[str, Any]]) -> list[float]:
    """Each span's type size, small capitals counted at the size of their word's first capital: a word
    processor prints "Smith" in small capitals as "S" then "MITH" about a fifth smaller, and a list whose
    authors are so set would otherwise read as set in that smaller size."""
    sizes: list[float] = []
    for i, span in enumerate(spans):
        size, text = span["size"], span["text"]
        if i and text[:1].isalpha() and spans[i - 1]["text"][-1:].isalpha():  # the span goes on a word
            before = sizes[-1]
            if text.isupper() and _SMALL_CAPS_SCALE[0] * before <= size <= _SMALL_CAPS_SCALE[1] * before:
                size = before
        sizes.append(size)
    return sizes


def _line_from_spans(page_number: int, bbox: Sequence[float], spans: list[dict[str, Any]]) -> Line | None:
    if not any(span["text"].strip() for span in spans):
        return None
    weights: Counter[float] = Counter()
    bold_chars = italic_chars = 0
    for size, span in zip(_printed_sizes(spans), spans, strict=True):
        weights[round(size, 1)] += len(span["text"].strip())
        font = span["font"].lower()
        if span["flags"] & _BOLD_FLAG or "bold" in font:
            bold_chars += len(span["text"].strip())
        if span["flags"] & _ITALIC_FLAG or "italic" in font or "oblique" in font:
            italic_chars += len(span["text"].strip())
    size = weights.most_common(1)[0][0]
    marker = ""
    first = spans[0]
    first_text = first["text"].strip()
    raised = first["flags"] & _SUPERSCRIPT_FLAG or first["size"] < size * 0.8
    if len(spans) > 1 and raised and first_text.isdecimal() and len(first_text) <= 3:
        marker, spans = first_text, spans[1:]
    text = clean_text("".join(span["text"] for span in spans))
    if not text:
        return None
    total = sum(len(span["text"].strip()) for span in spans) or 1
    x0, y0, x1, y1 = bbox
    bold, italic = bold_chars * 2 > total, italic_chars * 2 > total
    return Line(page_number, x0, y0, x1, y1, text, size, bold, marker=marker, italic=italic)


def raw_lines(page: pymupdf.Page, page_number: int, textpage: pymupdf.TextPage | None = None) -> list[Line]:
    """The text lines of a page as it reads (`page_pieces`), in the order PyMuPDF stores them."""
    return merge_pieces(page_pieces(page, page_number, textpage)[0])


def merge_pieces(pieces: Sequence[Line]) -> list[Line]:
    """A page's pieces joined into lines where they share a baseline (see `_merge_same_baseline`)."""
    return _merge_same_baseline(pieces)


def page_pieces(
    page: pymupdf.Page, page_number: int, textpage: pymupdf.TextPage | None = None
) -> tuple[list[Line], float]:
    """The text pieces of a page as PyMuPDF stores them, before pieces on one baseline join, and the height
    of the page as it reads.

    A page reads horizontally, its rotated text (axis labels, margin stamps) left out; unless most of its
    characters are set turned a quarter, the same way (a landscape page drawn on a portrait sheet, as
    dvips sets one): then that text is the page's, its boxes turned upright, and the horizontal text left out.
    """
    data = page.get_text("dict", flags=_TEXT_FLAGS, textpage=textpage)
    found = [line for block in data["blocks"] for line in block.get("lines", ())]
    turn = _turn_of(found)
    width, height = page.rect.width, page.rect.height
    lines: list[Line] = []
    for line in found:
        if _quarter(line["dir"]) != turn:
            continue
        box = line["bbox"] if turn is None else _UPRIGHT[turn](line["bbox"], width, height)
        made = _line_from_spans(page_number, box, line["spans"])
        if made is not None:
            lines.append(made)
    return lines, height if turn is None else width


# A box of text turned a quarter, in the frame where it reads left to right: (x0, y0, x1, y1) of the page.
# Read upwards, a line's glyphs lean left and the next line stands to its right; read downwards, the reverse.
_UPRIGHT: dict[str, Callable[[Sequence[float], float, float], tuple[float, float, float, float]]] = {
    "upwards": lambda b, width, height: (height - b[3], b[0], height - b[1], b[2]),
    "downwards": lambda b, width, height: (b[1], width - b[2], b[3], width - b[0]),
}
_TURNED_SHARE = 2 / 3  # of a page's characters, set turned the same way, for the page to read that way


def _quarter(direction: Sequence[float]) -> str | None:
    """How a line runs: None when horizontal, "upwards" or "downwards" when turned a quarter, else
    "slanted"."""
    dx, dy = direction
    if abs(dy) <= 0.1:
        return None
    if abs(dx) <= 0.1:
        return "upwards" if dy < 0 else "downwards"
    return "slanted"


def _turn_of(lines: Sequence[dict[str, Any]]) -> str | None:
    """The quarter turn most of the page's characters share, or None: the page reads horizontally."""
    chars: Counter[str | None] = Counter()
    for line in lines:
        chars[_quarter(line["dir"])] += sum(len(span["text"].strip()) for span in line["spans"])
    total = sum(chars.values())
    turned = [(count, turn) for turn, count in chars.items() if turn in _UPRIGHT]
    if not turned:
        return None
    count, turn = max(turned)
    return turn if count > _TURNED_SHARE * total else None


_BAND = 4.0  # points: the height of the horizontal bands merged lines are filed under
_CROSSING = -1  # the column of a line that runs across a gutter


def _bands(line: Line) -> range:
    return range(int(line.y0 // _BAND), int(line.y1 // _BAND) + 1)


def _merge_same_baseline(
    lines: Sequence[Line], any_gap: bool = False, gutters: Sequence[Gutter] = ()
) -> list[Line]:
    """Join pieces PyMuPDF split on one baseline (a number set apart, words of justified text).

    Pieces join when they overlap vertically by most of their height and, before columns are known, the gap
    between them is under a font size (three after a list marker such as "[12]" or "•"), narrower than any
    gutter; once columns are known (`any_gap`), every piece of one column on one baseline joins, and pieces
    of two columns join only across a word's space (a full-width line set in pieces), into a line across
    the gutter, and never when the left one ends flush with its column (see `_flush_with_its_column`). A
    piece joins the latest merged line that qualifies.

    Merged lines are filed under the horizontal bands they cover, so a piece is compared only with lines
    that share a band with it (two boxes that overlap vertically share one): near-linear time on pages of
    thousands of pieces (plots, tables), where comparing every pair was quadratic.
    """
    merged: list[Line] = []
    by_band: dict[int, list[int]] = {}
    for line in sorted(lines, key=lambda line: line.x0):
        candidates = sorted({index for band in _bands(line) for index in by_band.get(band, ())}, reverse=True)
        for index in candidates:
            if _joins(merged[index], line, any_gap, gutters):
                merged[index] = _joined(merged[index], line)
                for band in _bands(merged[index]):  # the merged box may reach a band further up or down
                    filed = by_band.setdefault(band, [])
                    if index not in filed:
                        filed.append(index)
                break
        else:
            merged.append(line)
            for band in _bands(line):
                by_band.setdefault(band, []).append(len(merged) - 1)
    return merged


def _joins(left: Line, line: Line, any_gap: bool, gutters: Sequence[Gutter] = ()) -> bool:
    """Whether `line`, to the right of `left`, goes on it (the rule `_merge_same_baseline` describes)."""
    if not _on_one_baseline(left, line):
        return False
    gap = line.x0 - left.x1
    if gap < -1:
        return False
    if left.column != line.column:  # a word's space of the smaller type: a heading beside a narrow gutter
        return gap < min(left.size, line.size) * 0.6 and not _flush_with_its_column(left, gutters)
    reach = 3.0 if _LIST_MARKER.match(left.text) else 0.8
    return any_gap or gap < max(left.size, line.size) * reach


def _joined(left: Line, line: Line) -> Line:
    """`left` with `line` joined on: one line across the gutter when they stand in two columns."""
    return replace(
        left,
        column=left.column if left.column == line.column else _CROSSING,
        x1=max(left.x1, line.x1),
        y0=min(left.y0, line.y0),
        y1=max(left.y1, line.y1),
        text=f"{left.text} {line.text}",
        size=left.size if len(left.text) >= len(line.text) else line.size,
        bold=left.bold and line.bold,
        italic=left.italic and line.italic,
    )


@dataclass(frozen=True)
class Gutter:
    x: float  # the middle of the strip few lines cross: a line starting right of it is in the next column
    text_from: float  # where that strip ends, and the next column's text begins
    text_to: float  # where that strip begins: where the text of the column before it ends


def _flush_with_its_column(line: Line, gutters: Sequence[Gutter]) -> bool:
    """Whether `line` ends where its column's text ends, at the gutter after it, or past it: a justified
    line of that column (a large heading set out to the measure beside a heading of the next column, its
    word spaces stretched wider than the gutter), or an overfull one (a link that would not break; a line
    past the gutter keeps its column only when what runs past is one token, see `_column`), not a piece of
    a full-width line, whose word breaks fall on a column's edge only by chance."""
    if not 0 <= line.column < len(gutters):
        return False
    return line.x1 >= gutters[line.column].text_to - 1.5


def _gutters(
    lines: Sequence[Line], pieces: Sequence[Line] = (), min_lines: int = _MIN_COLUMN_LINES
) -> list[Gutter]:
    """The gutters between text columns, left to right (none on a one-column page).

    A gutter is a vertical strip that few lines cross (full-width titles and captions may) compared with the
    columns on either side, with at least `_MIN_COLUMN_LINES` lines wholly on each side of it. In a ragged
    column the strip begins where most lines end, before the longest ones do; it ends where the next
    column's text begins (`_next_column_from`, read on the `pieces` the lines were joined from, if given).
    """
    if len(lines) < 2 * min_lines:
        return []
    left_edge = int(min(line.x0 for line in lines))
    right_edge = int(max(line.x1 for line in lines)) + 1
    starts_ends = [0] * (right_edge - left_edge + 2)
    for line in lines:  # a difference array: +1 where a line starts, -1 just after it ends
        starts_ends[int(line.x0) - left_edge] += 1
        starts_ends[int(line.x1) - left_edge + 1] -= 1
    coverage = list(accumulate(starts_ends[:-1]))
    # Low: far below the densest column on each side (the columns may hold very different numbers of lines).
    peak_left = list(accumulate(coverage, max))
    peak_right = list(accumulate(reversed(coverage), max))[::-1]
    low = [
        count <= 0.3 * min(left, right)
        for count, left, right in zip(coverage, peak_left, peak_right, strict=True)
    ]
    width = right_edge - left_edge
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for x, is_low in enumerate([*low, False]):
        if is_low and start is None:
            start = x
        elif not is_low and start is not None:
            if x - start >= 4 and start > width * 0.15 and x < width * 0.85:
                runs.append((start, x))
            start = None
    gutters: list[Gutter] = []
    for run_start, strip_end in runs:
        run_end = _next_column_from(lines, left_edge, run_start, strip_end, pieces)
        gutter = left_edge + (run_start + run_end) / 2
        left = sum(1 for line in lines if line.x1 <= gutter and (not gutters or line.x0 >= gutters[-1].x))
        right = sum(1 for line in lines if line.x0 >= gutter)
        if left >= min_lines and right >= min_lines:
            gutters.append(Gutter(gutter, left_edge + run_end, left_edge + run_start))
    return [
        gutter
        for k, gutter in enumerate(gutters)
        if not _labels_only(lines, gutters[k - 1].x if k else None, gutter)
    ]


def _labels_only(lines: Sequence[Line], after: float | None, gutter: Gutter) -> bool:
    """Whether what stands between the gutter before (`after`; the page's left edge when None) and `gutter`
    is list labels alone ("[EAS+24]", "[12]"): the labels of a list set with hanging indents, each a piece
    of its own, beside the text they begin (a DVI driver places them so), not a column of their own."""
    column = [line for line in lines if (after is None or line.x0 >= after) and line.x1 <= gutter.x]
    return bool(column) and all(_LIST_MARKER.match(line.text) or _LABEL.match(line.text) for line in column)


def _next_column_from(
    lines: Sequence[Line], left_edge: int, start: int, end: int, pieces: Sequence[Line] = ()
) -> int:
    """Where the next column's text begins in a low strip (offsets from `left_edge`): the leftmost x at
    which two lines or more start inside it, or its end. In a column set with hanging indents the strip
    also takes in the labels and first lines that stand out left of the indent ("[12]" over the indented
    lines under it), which begin the column.

    With `pieces`, starts are read on them: a label set beside the previous column's line, across a gutter
    narrower than the first joining's reach, starts no joined line. A piece set after another on its
    baseline at less than half its type's size is a word inside a line (a full-width title's), and starts
    nothing."""
    if pieces:
        inside = [piece for piece in pieces if start <= piece.x0 - left_edge < end]
        before = [piece for piece in pieces if start - 20 <= piece.x1 - left_edge < end]  # what may precede
        lines = [piece for piece in inside if not _follows_a_word(piece, before)]
    starting = [line for line in lines if start <= line.x0 - left_edge < end]
    starts = Counter(int(line.x0) - left_edge for line in starting)
    shared = [x for x, count in starts.items() if count >= 2]
    if shared:
        return min(shared)
    # A label with its line's text beside it at the indent begins the column on its own: the column may
    # hold one entry (a list's last, alone at the head of the last page's right column).
    indented = [piece for piece in pieces if abs(piece.x0 - left_edge - end) <= 2]
    labels = [
        line.x0 - left_edge
        for line in starting
        if any(piece.x0 > line.x1 and _on_one_baseline(line, piece) for piece in indented)
    ]
    return int(min(labels, default=end))


def _on_one_baseline(one: Line, other: Line) -> bool:
    """Whether two boxes overlap down by more than half the smaller one's height: pieces of one line."""
    return min(one.y1, other.y1) - max(one.y0, other.y0) > 0.5 * min(one.height, other.height)


def _follows_a_word(piece: Line, pieces: Sequence[Line]) -> bool:
    return any(
        0 <= piece.x0 - other.x1 < 0.5 * piece.size and _on_one_baseline(other, piece) for other in pieces
    )


def _column(line: Line, gutters: Sequence[Gutter], left_edge: float, pieces: Sequence[Line]) -> int:
    """The line's column, or `_CROSSING` for a line that reaches across a gutter into the next column's text
    (a line that only ends inside the gutter's strip is its column's longest, and one set in its column
    that runs on into the next as a single token is its column's overfull line)."""
    for k, gutter in enumerate(gutters):
        if line.x0 < gutter.x - 2 and line.x1 > gutter.text_from + 2:
            column_from = gutters[k - 1].text_from if k else left_edge
            overfull = _overfull(line, gutter, column_from, pieces)
            return _column_at(line.x0, gutters) if overfull else _CROSSING
    return _column_at(line.x0, gutters)


def _overfull(line: Line, gutter: Gutter, column_from: float, pieces: Sequence[Line]) -> bool:
    """Whether the line starts in its column (within three ems of where the column's text starts: an entry's
    indent, not a centred line) and what runs past the gutter is printed over the next column's text, or
    is one token reaching four ems or more into that column, or eight ems or more long in all with the
    column's text going on under it (a link ending just past the gutter inside an entry; a full-width
    footnote ending in a link has full-width lines under it): no line is set over another, and only a word
    that cannot be broken, such as a URL, runs out of its column, where a full-width line has spaces and
    words shorter than that. An overfull line printed over the next column may hold more than one word
    past the gutter ("transformation-based learning," in a narrow column). Where the gutter falls in the
    text, and where the token starts, are estimated from the line's width."""
    if not line.text or not 0 <= line.x0 - column_from <= 3 * line.size:
        return False
    if _collides(line, gutter, pieces):
        return True
    per_char = (line.x1 - line.x0) / len(line.text)
    at = int((gutter.x - line.x0) / per_char)
    if " " in line.text[at:].strip():
        return False
    if line.x1 >= gutter.text_from + 4 * line.size:
        return True
    token_x0 = line.x0 + (line.text.rfind(" ", 0, at) + 1) * per_char
    return line.x1 - token_x0 >= 8 * line.size and _column_goes_on_under(line, gutter, pieces)


def _column_goes_on_under(line: Line, gutter: Gutter, pieces: Sequence[Line]) -> bool:
    """Whether the next line down that starts left of the gutter (its pieces on that baseline) ends before
    it, as a line of the column does."""
    below = [piece for piece in pieces if piece.y0 >= line.y1 - 0.25 * line.height and piece.x0 < gutter.x]
    if not below:
        return False
    top = min(piece.y0 for piece in below)
    row = [piece for piece in below if piece.y0 < top + 0.5 * piece.height]
    return max(piece.x1 for piece in row) <= gutter.text_from + 2


def _collides(line: Line, gutter: Gutter, pieces: Sequence[Line]) -> bool:
    """Whether the part of `line` past the gutter is printed over a piece of the next column's text (the
    boxes overlap across by more than a point, and down by a quarter of a line's height or more)."""
    return any(
        piece.x0 >= gutter.x
        and piece.x0 < line.x1 - 1
        and min(line.y1, piece.y1) - max(line.y0, piece.y0) >= 0.25 * min(line.height, piece.height)
        for piece in pieces
    )


def _column_at(x: float, gutters: Sequence[Gutter]) -> int:
    return sum(1 for gutter in gutters if x >= gutter.x - 2)


def _blank_strips(by_y: Sequence[Line], pitch: float) -> list[float]:
    """The y where text resumes after a strip left blank across the whole page (all columns at once).

    Strips taller than three lines, and than two of the page's line pitches (`pitch`), separate blocks read
    one after the other, such as a two-column section followed by a two-column reference list that starts
    below it on the same page; the blank line between the entries of a double-spaced list does not.
    """
    if not by_y:
        return []
    line_height = sorted(line.height for line in by_y)[len(by_y) // 2]
    tallest = max(3 * line_height, 2 * pitch)
    cuts: list[float] = []
    bottom = by_y[0].y1
    for line in by_y[1:]:
        if line.y0 - bottom > tallest:
            cuts.append(line.y0)
        bottom = max(bottom, line.y1)
    return cuts


def _line_pitch(by_y: Sequence[Line]) -> float:
    """The median distance from a line to the next one down in its column (0 with too few lines)."""
    last: dict[int, Line] = {}
    pitches: list[float] = []
    for line in by_y:
        above = last.get(line.column)
        if above is not None and line.y0 > above.y0:
            pitches.append(line.y0 - above.y0)
        last[line.column] = line
    return sorted(pitches)[len(pitches) // 2] if pitches else 0.0


def own_gutters(pieces: Sequence[Line]) -> list[Gutter]:
    """The gutters a page's pieces show by themselves (none carried from another page)."""
    return _gutters(_merge_same_baseline(pieces), pieces) or _gutters(pieces)


def reading_order(
    pieces: Sequence[Line],
    before: Sequence[Gutter] = (),
    in_bands: bool = True,
    after: Callable[[], Sequence[Gutter]] = tuple,
) -> tuple[list[Line], list[Gutter]]:
    """The lines of one page in reading order, each tagged with its column (0 = leftmost), and the gutters
    between its columns.

    Gutters are found on the pieces joined as before columns are known; then each piece, not each joined
    line, takes its column and the pieces are joined again, so that no line joins two columns across a
    gutter wider than a word's space (a number ending a justified line, set apart like a list marker, beside
    the next column's line). A page with too few lines in a column to show its gutter (a list's last lines,
    or a contact block, alone at the head of the right column) takes the gutters of the page `before` it,
    when none of its lines crosses them and lines stand on each side; a band at its foot too short to
    show its gutter takes those of the page after it (`after`, called only then).
    """
    joined = _merge_same_baseline(pieces)
    # The pieces themselves where joined lines show no gutter: a gutter narrower than the joining reach
    # (LaTeX's default 10 pt beside 12 pt type, or less where a hyphen protrudes into it).
    gutters = _gutters(joined, pieces) or _gutters(pieces) or _carried(joined, before)
    if not gutters and in_bands:  # a page read band by band reads each band as a page
        bands = _bands_in_columns(joined, pieces, before, after)
        if bands:
            return bands
    if gutters:
        left_edge = min(piece.x0 for piece in pieces)
        joined = _merge_same_baseline(
            [replace(piece, column=_column(piece, gutters, left_edge, pieces)) for piece in pieces],
            gutters=gutters,
        )
    by_y = sorted(
        _merge_same_baseline(joined, any_gap=True, gutters=gutters), key=lambda line: (line.y0, line.x0)
    )
    if not gutters:
        return by_y, gutters
    ordered: list[Line] = []
    band: list[list[Line]] = [[] for _ in range(len(gutters) + 1)]

    def flush() -> None:
        for column in band:
            ordered.extend(column)
            column.clear()

    pitch = _line_pitch(by_y)
    blank_strips = _blank_strips(by_y, pitch)
    cuts = iter(blank_strips)
    next_cut = next(cuts, None)
    under_the_columns = _headings_under_the_columns(by_y, blank_strips, pitch)
    for line in by_y:
        while next_cut is not None and line.y0 >= next_cut:  # a strip blank across the page: a new band
            flush()
            next_cut = next(cuts, None)
        if id(line) in under_the_columns:  # the heading of what follows the columns opens a new band
            flush()
            ordered.append(line)
        elif line.column == _CROSSING:  # a full-width line (title, wide caption) ends the current band
            # A bold heading printed just above it in one column ("About the Authors" beside its text) opens
            # the new band rather than ending the column it sits in.
            headings = [
                piece
                for column in band
                for piece in column
                if piece.bold and piece.y0 > line.y0 - 2.5 * line.height and piece.y0 <= line.y0
            ]
            for column in band:
                column[:] = [piece for piece in column if piece not in headings]
            flush()
            ordered.extend(headings)
            ordered.append(line)
        else:
            band[line.column].append(line)
    flush()
    return ordered, gutters


def _headings_under_the_columns(by_y: Sequence[Line], cuts: Sequence[float], pitch: float) -> set[int]:
    """The ids of lines of words in bold or in a larger type than the line above them in their column,
    set apart from it by more than one and a half line pitches, that stand last in their band (no text
    goes on under them down to the next full-width line or strip blank across the page, `cuts`:
    `_stands_last`), where all the columns end together (within two pitches) above them: the heading of
    what follows a block in balanced columns (an appendix after a list), too short to cross the gutter,
    whose text runs across the page or on the next one. Read as the end of its column, it would end the
    list there, before the next column's entries. A heading inside a column keeps with the text under
    it, and the other columns' text goes on beside it. `pitch`: the page's line pitch (`_line_pitch`)."""
    found: set[int] = set()
    above: dict[int, Line] = {}  # the last line of each column since the last full-width one
    for index, line in enumerate(by_y):
        if line.column == _CROSSING:
            above.clear()
            continue
        previous = above.get(line.column)
        if (
            previous is not None
            and (line.bold or line.size > 1.1 * previous.size)
            and any(char.isalpha() for char in line.text)  # a heading's words, not a page number
            and line.y0 - previous.y0 > 1.5 * pitch > 0
            and any(column != line.column for column in above)
            and all(abs(last.y0 - previous.y0) <= 2 * pitch for last in above.values())
            and _stands_last(by_y, index, cuts)
        ):
            found.add(id(line))
            above.clear()
        above[line.column] = line
    return found


def _stands_last(by_y: Sequence[Line], index: int, cuts: Sequence[float]) -> bool:
    """Whether no text goes on under `by_y[index]` before the next full-width line or blank strip across
    the page: nothing follows it there but a page number (a heading in one column has its text under it,
    however far a heading's space sets it apart, or the other column's text beside it)."""
    line = by_y[index]
    end = min((cut for cut in cuts if cut > line.y0), default=float("inf"))
    for following in by_y[index + 1 :]:
        if following.column == _CROSSING or following.y0 >= end:
            return True
        if following.column != line.column or not _PAGE_NUMBER.match(following.text):
            return False
    return True


def _bands_in_columns(
    joined: Sequence[Line],
    pieces: Sequence[Line],
    before: Sequence[Gutter] = (),
    after: Callable[[], Sequence[Gutter]] = tuple,
) -> tuple[list[Line], list[Gutter]] | None:
    """A page whose full-width text shows no gutter, read band by band where a band between full-width
    lines is set in columns (a list in two columns under a section in one, as word processors set a
    section with columns): the page's lines in that order and the last band's gutters (none when
    full-width text follows it; a page number does not count), or None when no band shows a gutter.

    A full-width line covers the middle fifth of the page's text, where a gutter between two columns lies;
    lines of a column, and the short last lines of paragraphs, do not. A band is a run of the other lines,
    top to bottom, and is read in columns when its own lines show a gutter with lines on three rows or more
    on each side (the words of one stretched line, each a piece of its own, show a gutter on one row), and
    its columns begin at an edge (stretched lines, row after row, may leave a strip blank too), down to
    where its last column ends (`_set_in_columns`). The band at the head of the page, too short to show a
    gutter (a list's last rows in two columns over an appendix in one), takes the gutters of the page
    `before` it when none of its lines crosses them, lines stand on each side (`_carried`) and it reads as
    columns (`_reads_as_columns`); the band at its foot (a list's first rows under the body in one column)
    those of the page `after` it."""
    if not joined:
        return None
    left = min(line.x0 for line in joined)
    width = max(line.x1 for line in joined) - left
    middle = (left + 0.4 * width, left + 0.6 * width)
    by_y = [line for row in _row_groups(joined) for line in row]
    runs: list[list[Line]] = [[]]
    for line in by_y:
        if line.x0 <= middle[0] and line.x1 >= middle[1]:
            runs.append([])
        else:
            runs[-1].append(line)
    banded = [(band, found) for band, found in map(_set_in_columns, runs) if found]
    head, foot = runs[0], runs[-1]
    if lent := _lent_gutters(head, banded, lambda: before):
        banded.insert(0, (head, lent))
    if lent := _lent_gutters(foot, banded, after):
        banded.append((foot, lent))
    if not banded:
        return None
    starts = {id(band[0]): (band, found) for band, found in banded}
    banded_lines = {id(line) for band, _ in banded for line in band}
    ordered: list[Line] = []
    gutters: list[Gutter] = []
    for line in by_y:  # full-width lines and bands in their places, each band read in its columns
        if id(line) in starts:
            band, found = starts[id(line)]
            lines, gutters = reading_order(_pieces_of(band, pieces), found, in_bands=False)
            ordered.extend(lines)
        elif id(line) not in banded_lines:
            ordered.append(line)
            if line.x0 <= middle[0] and line.x1 >= middle[1]:  # text across the page after the columns
                gutters = []
    return ordered, gutters


def _pieces_of(lines: Sequence[Line], pieces: Sequence[Line]) -> list[Line]:
    """The pieces the joined `lines` were made of: those inside one of their boxes."""
    top, bottom = min(line.y0 for line in lines), max(line.y1 for line in lines)
    return [
        piece
        for piece in pieces
        if top - 0.5 <= piece.y0
        and piece.y1 <= bottom + 0.5
        and any(
            line.x0 - 0.5 <= piece.x0
            and piece.x1 <= line.x1 + 0.5
            and line.y0 - 0.5 <= piece.y0
            and piece.y1 <= line.y1 + 0.5
            for line in lines
        )
    ]


def _set_in_columns(run: Sequence[Line]) -> tuple[list[Line], list[Gutter]]:
    """The lines of `run` set in columns and their gutters: down to where its last column ends, and the
    lines that run on in the first column at its pitch (`_first_column_runs_on`; what else it holds below
    that, such as the heading of an appendix in one column, follows the columns), when they show a gutter
    with lines on three rows or more on each side, and each column after a gutter begins at an edge
    (`_begins_at_an_edge`); else no gutters."""
    gutters = _gutters(run, min_lines=_MIN_BAND_ROWS)
    if not gutters:
        return [], []
    last_column_ends = max(line.y1 for line in run if line.x0 >= gutters[-1].x)
    band = [line for line in run if line.y0 < last_column_ends]
    band += _first_column_runs_on(band, [line for line in run if line.y0 >= last_column_ends], gutters[0])
    left = len(_row_groups([line for line in band if line.x1 <= gutters[0].x]))
    right = len(_row_groups([line for line in band if line.x0 >= gutters[0].x]))
    if min(left, right) < _MIN_BAND_ROWS:
        return [], []
    found = _gutters(band, min_lines=_MIN_BAND_ROWS)
    if not found:
        return [], []
    if not _columns_begin_at_edges(band, found):
        return [], []
    return band, found


def _lent_gutters(
    run: Sequence[Line],
    banded: Sequence[tuple[list[Line], list[Gutter]]],
    gutters: Callable[[], Sequence[Gutter]],
) -> list[Gutter]:
    """Another page's `gutters` for `run`, too short to show its own, when none of its lines crosses them
    and it reads as columns under them; none when it is a band already. Columns need three lines at
    least (two rows in one, a line in the other): only then is `gutters` called (the next page's are
    found for it), not under the last lines of every page in one column."""
    if len(run) < 3 or any(band[0] is run[0] for band, _ in banded):
        return []
    carried = _carried(run, gutters())
    return carried if carried and _reads_as_columns(run, carried) else []


def _reads_as_columns(lines: Sequence[Line], gutters: Sequence[Gutter]) -> bool:
    """Whether `lines` stand in the columns another page's `gutters` part: two rows or more in one of
    them (a running footer and a page number beside it, a row each, are no columns), and each column
    after a gutter beginning at an edge."""
    bounds = [float("-inf"), *(gutter.x for gutter in gutters), float("inf")]
    rows = [
        len(_row_groups([line for line in lines if a <= line.x0 and line.x1 <= b]))
        for a, b in pairwise(bounds)
    ]
    return max(rows) >= 2 and _columns_begin_at_edges(lines, gutters)


def _row_groups(lines: Sequence[Line]) -> list[list[Line]]:
    """`lines` in rows, top to bottom, each left to right: lines whose tops stand less than half a line
    below the row's first are in its row (the words of one line, placed one by one, may stand a tenth of
    a point apart, either side of a whole point)."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda line: line.y0):
        if rows and line.y0 - rows[-1][0].y0 < 0.5 * min(line.height, rows[-1][0].height):
            rows[-1].append(line)
        else:
            rows.append([line])
    return [sorted(row, key=lambda line: line.x0) for row in rows]


def _columns_begin_at_edges(lines: Sequence[Line], gutters: Sequence[Gutter]) -> bool:
    """Whether the rows of `lines` in each column after a gutter begin at an edge (`_begins_at_an_edge`)."""
    ends = [gutter.x for gutter in gutters[1:]] + [float("inf")]
    return all(
        _begins_at_an_edge(_row_starts([line for line in lines if gutter.x <= line.x0 < end]))
        for gutter, end in zip(gutters, ends, strict=True)
    )


def _first_column_runs_on(band: Sequence[Line], below: Sequence[Line], gutter: Gutter) -> list[Line]:
    """The lines of `below` (under the band's last column) that go on in its first column, each less than
    one and a half of that column's line pitches under the one before and not in bold: balanced columns
    leave the first one a line or more longer than the last. A heading after the columns stands apart
    from them, or is set in bold, and ends the run."""
    first = sorted((line for line in band if line.x1 <= gutter.x), key=lambda line: line.y0)
    steps = sorted(b.y0 - a.y0 for a, b in pairwise(first) if b.y0 - a.y0 > 0.5 * b.height)
    if not steps:
        return []
    pitch, last = steps[len(steps) // 2], first[-1].y0
    taken: list[Line] = []
    for line in sorted(below, key=lambda line: line.y0):
        if line.x1 > gutter.x or line.bold or line.y0 - last > 1.5 * pitch:
            break
        taken.append(line)
        last = line.y0
    return taken


def _row_starts(lines: Sequence[Line]) -> list[Line]:
    """The lines of `lines` with none of them beside them on the left: where each row begins (a justified
    line's words spaced wider than the first joining's reach stay pieces until columns are known). Lines
    are filed under the horizontal bands they cover, as in `_merge_same_baseline`, so that a page of
    thousands of pieces is not compared pair by pair."""
    by_band: dict[int, list[Line]] = {}
    for line in lines:
        for band in _bands(line):
            by_band.setdefault(band, []).append(line)
    return [
        line
        for line in lines
        if not any(
            other.x1 <= line.x0 and min(other.y1, line.y1) - max(other.y0, line.y0) > 0.5 * line.height
            for band in _bands(line)
            for other in by_band[band]
        )
    ]


def _begins_at_an_edge(lines: Sequence[Line]) -> bool:
    """Whether three in four of `lines` begin at one or two x (within a point): a column's edge and its
    indent (a hanging or first-line one, or the text after a label's tab). The words of justified lines
    stretched wide, each a piece of its own, begin wherever the stretching put them, though they may
    leave one strip blank row after row as a gutter does."""
    groups: list[int] = []
    last: float | None = None
    for x in sorted(line.x0 for line in lines):
        if last is not None and x - last <= 1.0:
            groups[-1] += 1
        else:
            groups.append(1)
        last = x
    return sum(sorted(groups)[-2:]) >= 0.75 * len(lines)


def _carried(lines: Sequence[Line], gutters: Sequence[Gutter]) -> list[Gutter]:
    """`gutters` (another page's) when no line crosses them and lines stand on each side; else none."""
    for gutter in gutters:
        if any(line.x0 < gutter.x - 2 and line.x1 > gutter.text_from + 2 for line in lines):
            return []
        if not any(line.x1 <= gutter.x for line in lines) or not any(line.x0 >= gutter.x for line in lines):
            return []
    return list(gutters)


def _margin_key(line: Line) -> str:
    return _DIGITS.sub("#", line.text.lower())


def _in_margin(lines: Sequence[Line], height: float) -> list[bool]:
    """Which lines stand where running headers and footers do: in the page's top or bottom tenth, or
    above or below all its other text with a blank of two lines' height between (LaTeX's article sets its
    page number at 88% of a letter page), or of one line's height for a bare number centred under or over
    the text (elsarticle's page number, 1.4 lines below its text)."""
    apart: set[int] = set()
    if len(lines) > 1:
        text_left, text_right = min(line.x0 for line in lines), max(line.x1 for line in lines)
        middle, width = (text_left + text_right) / 2, text_right - text_left

        def blank_needed(line: Line) -> float:
            centred = abs((line.x0 + line.x1) / 2 - middle) <= 0.05 * width
            return line.height if centred and _PAGE_NUMBER.match(line.text) else 2 * line.height

        top = min(lines, key=lambda line: line.y0)
        bottom = max(lines, key=lambda line: line.y1)
        if min(line.y0 for line in lines if line is not top) - top.y1 >= blank_needed(top):
            apart.add(id(top))
        if bottom.y0 - max(line.y1 for line in lines if line is not bottom) >= blank_needed(bottom):
            apart.add(id(bottom))
    return [
        line.y0 < height * _MARGIN_SHARE or line.y1 > height * (1 - _MARGIN_SHARE) or id(line) in apart
        for line in lines
    ]


def strip_running_text(pages: Sequence[Sequence[Line]], page_heights: Sequence[float]) -> list[list[Line]]:
    """Drop page numbers, and headers/footers that repeat (digits aside) on several pages."""
    in_margin = [_in_margin(lines, height) for lines, height in zip(pages, page_heights, strict=True)]
    margin_keys: Counter[str] = Counter()
    for lines, flags in zip(pages, in_margin, strict=True):
        margin_keys.update({_margin_key(line) for line, flag in zip(lines, flags, strict=True) if flag})
    repeated_on = max(2, len(pages) // 5)
    return [
        [
            line
            for line, flag in zip(lines, flags, strict=True)
            if not flag
            or not (_PAGE_NUMBER.match(line.text) or margin_keys[_margin_key(line)] >= repeated_on)
        ]
        for lines, flags in zip(pages, in_margin, strict=True)
    ]


def body_font_size(lines: Iterable[Line]) -> float:
    """The font size most characters are set in."""
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0
