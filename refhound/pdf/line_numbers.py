"""Line numbers printed down a margin (a submission system's proof: 1, 2, 3, … beside every line).

Left in, they join the lines they stand beside ("12 Smith, J. (2001) …") or form a column of their own, and
a reference list then reads as numbered by them. They are found before lines are merged: on a page, a
column of bare numbers aligned on one edge, outside the text's margin, counting up by one from line to
line; and only when most pages of the document carry such a column, since a reference list numbered in its
margin shows the pattern on its own pages only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from refhound.pdf.layout import Line

_MIN_NUMBERS = 8  # per page
_STEP_SHARE = 0.8  # of neighbouring numbers (top to bottom) that count up by exactly one
_ALIGN = 3.0  # points: how far the numbers' common edge may wander


def _column_on_page(pieces: Sequence[Line]) -> set[int]:
    """Indices of the pieces that form a line-number column on one page, or none."""
    numbers = [i for i, piece in enumerate(pieces) if piece.text.isdigit() and len(piece.text) <= 4]
    taken = set(numbers)
    others = [piece for i, piece in enumerate(pieces) if i not in taken]
    if len(numbers) < _MIN_NUMBERS or not others:
        return set()
    text_left = sorted(piece.x0 for piece in others)[len(others) // 20]
    text_right = sorted(piece.x1 for piece in others)[-1 - len(others) // 20]
    for edge in ("x1", "x0"):  # right-aligned numbers share x1, left-aligned ones x0
        bins = Counter(round(getattr(pieces[i], edge) / _ALIGN) for i in numbers)
        common, _count = bins.most_common(1)[0]
        column = [i for i in numbers if abs(round(getattr(pieces[i], edge) / _ALIGN) - common) <= 1]
        if len(column) < _MIN_NUMBERS:
            continue
        outside = all(pieces[i].x1 <= text_left + 1 for i in column) or all(
            pieces[i].x0 >= text_right - 1 for i in column
        )
        ordered = [int(pieces[i].text) for i in sorted(column, key=lambda i: pieces[i].y0)]
        steps = [b - a for a, b in pairwise(ordered)]
        if outside and sum(step == 1 for step in steps) >= _STEP_SHARE * len(steps):
            return set(column)
    return set()


def line_number_columns(pages: Sequence[Sequence[Line]]) -> list[set[int]]:
    """For each page, the indices of its line-number pieces: empty unless most pages with text have them."""
    found = [_column_on_page(pieces) for pieces in pages]
    with_text = sum(1 for pieces in pages if pieces)
    numbered = sum(1 for column in found if column)
    if numbered < 2 or numbered < 0.5 * with_text:
        return [set() for _ in pages]
    return found
