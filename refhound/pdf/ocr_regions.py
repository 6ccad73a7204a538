"""A page image → the regions Tesseract reads one at a time: each column of a two-column stretch on its own.

Tesseract, given a whole two-column page, takes a left-column line and the line beside it in the right column
for one line whenever their baselines nearly meet, and reads the pair as one skewed line: the words of both
come out garbled or interleaved ("Wang, Yizhe znane an an“in canee"), and no later step can undo that. So the
gutter is found in the image itself before OCR: a vertical strip, at least `_GUTTER_POINTS` wide, in the
middle of the page, that the rows of a stretch of the page leave blank while each side holds several lines.
Such a stretch is read as two crops, left and right, each searched again the same way (a list set in three
columns); what crosses the strip (a title, a wide table, a page number set in the gutter) is read full width.
A page with no such stretch is read whole, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pymupdf

_GUTTER_POINTS = 8.0  # the narrowest gutter: wider than any word space, narrower than any column gap
_MIDDLE = (0.3, 0.7)  # the share of the page width a gutter may lie in
_MIN_SIDE_LINES = 3  # lines a stretch needs on each side of the gutter to be read as two columns
# ... and inside a column: a table's or a figure's few lines side by side are no third column
_MIN_INNER_LINES = 10
_PAD_POINTS = 6.0  # how far a cut between stretches may move to a blank row (a full-width line's ascenders)
_INK = 160  # grey levels below this are ink


@dataclass(frozen=True)
class Region:
    """A rectangle of the page image, in pixels: x0, y0 inclusive, x1, y1 exclusive."""

    x0: int
    y0: int
    x1: int
    y1: int


def ink_of(pixmap: pymupdf.Pixmap) -> npt.NDArray[np.bool_]:
    """The pixmap's ink as a boolean array of rows × columns (grey level below `_INK`)."""
    grey = pymupdf.Pixmap(pymupdf.csGRAY, pixmap) if pixmap.n - pixmap.alpha != 1 or pixmap.alpha else pixmap
    samples = np.frombuffer(grey.samples, dtype=np.uint8).reshape(grey.height, grey.stride)
    return np.asarray(samples[:, : grey.width] < _INK)


def _runs(flags: npt.NDArray[np.bool_]) -> list[tuple[int, int]]:
    """The [start, end) runs of True in a 1-d array."""
    padded = np.concatenate(([False], flags, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


def _line_count(ink: npt.NDArray[np.bool_], min_height: int) -> int:
    """How many lines of text a block of ink holds: runs of inked rows at least `min_height` tall."""
    inked: npt.NDArray[np.bool_] = np.asarray(ink.any(axis=1))
    return sum(1 for start, end in _runs(inked) if end - start >= min_height)


def _gutter(ink: npt.NDArray[np.bool_], width: int) -> tuple[int, npt.NDArray[np.bool_]] | None:
    """The left x of the `width`-wide strip in the middle of the page that the fewest rows put ink in, and
    which rows do; None when the page is too narrow to hold one."""
    rows, columns = ink.shape
    low, high = int(columns * _MIDDLE[0]), int(columns * _MIDDLE[1])
    if high - low <= width:
        return None
    totals = np.zeros((rows, high - low + 1), dtype=np.int32)
    np.cumsum(ink[:, low:high], axis=1, out=totals[:, 1:])
    inked = (totals[:, width:] - totals[:, :-width]) > 0
    crossed = inked.sum(axis=0)
    best = int(crossed.min())
    # The middle of the widest run of least-crossed strips: the gutter's centre, not its edge.
    start, end = max(_runs(crossed == best), key=lambda run: run[1] - run[0])
    x = low + (start + end - 1) // 2
    return x, inked[:, x - low]


def column_regions(ink: npt.NDArray[np.bool_], dpi: float, min_lines: int = _MIN_SIDE_LINES) -> list[Region]:
    """The regions to OCR one by one, top to bottom, each stretch's left column before its right one (each
    column split again where it holds a gutter of its own); a single region, the whole page, when no
    stretch reads as two columns."""
    rows, columns = ink.shape
    whole = [Region(0, 0, columns, rows)]
    width = max(2, round(_GUTTER_POINTS * dpi / 72))
    found = _gutter(ink, width)
    if found is None:
        return whole
    x, crossing = found
    cut = x + width // 2
    min_line = max(2, round(2 * dpi / 72))  # ink runs shorter than 2 points are specks or rules, not lines
    stretches = [
        (start, end)
        for start, end in _runs(~crossing)
        if _line_count(ink[start:end, :x], min_line) >= min_lines
        and _line_count(ink[start:end, x + width :], min_line) >= min_lines
    ]
    if not stretches:
        return whole
    blank: npt.NDArray[np.bool_] = np.asarray(~ink.any(axis=1))
    pad = round(_PAD_POINTS * dpi / 72)
    regions: list[Region] = []
    top = 0
    for start, end in stretches:
        start, end = _blank_row_near(blank, start, end, pad), _blank_row_near(blank, end, start, -pad)
        if start > top:
            regions.append(Region(0, top, columns, start))
        # Each side is searched again: a list set in three columns splits at one gutter, then the other.
        for x0, x1 in ((0, cut), (cut, columns)):
            inside = column_regions(ink[start:end, x0:x1], dpi, _MIN_INNER_LINES)
            regions += [Region(x0 + r.x0, start + r.y0, x0 + r.x1, start + r.y1) for r in inside]
        top = end
    if top < rows:
        regions.append(Region(0, top, columns, rows))
    return [region for region in regions if ink[region.y0 : region.y1, region.x0 : region.x1].any()]


def _blank_row_near(blank: npt.NDArray[np.bool_], edge: int, other_edge: int, pad: int) -> int:
    """A stretch's edge moved inwards (down for its top, `pad` > 0; up for its bottom) to the nearest row
    blank across the page, at most `pad` rows and never past its other edge; unmoved if there is none."""
    if pad > 0:
        inside = range(edge, min(edge + pad, other_edge))
    else:
        inside = range(edge - 1, max(edge + pad, other_edge) - 1, -1)
    for row in inside:
        if blank[row]:
            return row if pad > 0 else row + 1
    return edge


def crop(pixmap: pymupdf.Pixmap, region: Region) -> pymupdf.Pixmap:
    """The region of the pixmap as a pixmap of its own, at the same resolution."""
    if (region.x0, region.y0, region.x1, region.y1) == (0, 0, pixmap.width, pixmap.height):
        return pixmap
    samples = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(pixmap.height, pixmap.stride)
    pixels = samples[:, : pixmap.width * pixmap.n].reshape(pixmap.height, pixmap.width, pixmap.n)
    part = np.ascontiguousarray(pixels[region.y0 : region.y1, region.x0 : region.x1])
    cropped = pymupdf.Pixmap(
        pixmap.colorspace, region.x1 - region.x0, region.y1 - region.y0, part.tobytes(), bool(pixmap.alpha)
    )
    cropped.set_dpi(pixmap.xres, pixmap.yres)
    return cropped


_BULLET_SHARE = (0.2, 0.7)  # a bullet's width and height, as shares of its line's height
_BULLET_FILL = 0.6  # the share of its box a bullet's ink fills (a disc: 0.79; a letter's far less)


def bullet_left_of(ink: npt.NDArray[np.bool_], x0: int, y0: int, y1: int) -> int | None:
    """The left x of a bullet ("•") printed just left of a line whose text starts at `x0` (pixels), or None.

    Tesseract drops a bullet as a speck, and a bulleted list whose entries continue flush with their first
    line's text then reads as one run of lines. A bullet is the first ink within four line heights left of
    the text: one solid, roughly round blob, a fraction of the line's height, in its middle, set apart from
    what follows, and nothing else before the text (whose box may start a letter late)."""
    height = y1 - y0
    if height <= 0:
        return None
    left = max(0, x0 - 4 * height)
    strip = ink[y0:y1, left:x0]
    marks = _runs(np.asarray(strip.any(axis=0)))
    if not marks:
        return None
    first, last = marks[0]
    after = marks[1][0] if len(marks) > 1 else x0 - left
    if after - last < 0.3 * height or any(start < x0 - left - height for start, _end in marks[1:]):
        return None
    rows = np.flatnonzero(strip[:, first:last].any(axis=1))
    width, tall = last - first, int(rows[-1] - rows[0] + 1)
    low, high = _BULLET_SHARE[0] * height, _BULLET_SHARE[1] * height
    blob = strip[rows[0] : rows[-1] + 1, first:last]
    middle = (rows[0] + rows[-1]) / 2 / height
    if (
        low <= width <= high
        and low <= tall <= high
        and abs(width - tall) <= 0.35 * max(width, tall)
        and blob.mean() >= _BULLET_FILL
        and 0.25 <= middle <= 0.75
    ):
        return left + first
    return None
