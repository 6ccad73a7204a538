"""Line numbers printed down a margin (a submission system's proof: 1, 2, 3, … beside every line).

Left in, they join the lines they stand beside ("12 Smith, J. (2001) …") or form a column of their own, and
a reference list then reads as numbered by them. They are found before lines are merged: on a page, a
column of bare numbers aligned on one edge, outside the text's margin, counting up by one from line to
line (a two-column review copy has one in each outer margin). A document is taken as numbered when at
least half its pages with text carry such a column, and two pages do or the numbers stand beside most lines
of the one that does (a short piece); a reference list numbered in its margin shows the pattern on its own
pages only, and beside each entry's first line rather than every line. Once a margin is known to be
numbered, a page's few numbers in it go too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from refhound.pdf.layout import Line

_MIN_NUMBERS = 8  # per page, where a column is first found
_MIN_KNOWN = 2  # per page, in a margin the document's other pages number
_STEP_SHARE = 0.8  # of neighbouring numbers (top to bottom) that count up by exactly one
_ALIGN = 3.0  # points: how far the numbers' common edge may wander

Position = tuple[str, int]  # the numbers' common edge ("x0" or "x1") and its bin of _ALIGN points


def _columns_on_page(
    pieces: Sequence[Line], minimum: int = _MIN_NUMBERS, only: set[Position] | None = None
) -> dict[Position, set[int]]:
    """The line-number columns of one page (a two-column review copy has one in each outer margin), each
    with the indices of its pieces: bare numbers aligned on one edge, outside the text, counting up by one.
    `only` limits the search to positions already known."""
    numbers = [i for i, piece in enumerate(pieces) if piece.text.isdigit() and len(piece.text) <= 4]
    taken = set(numbers)
    others = [piece for i, piece in enumerate(pieces) if i not in taken]
    if len(numbers) < minimum or not others:
        return {}
    text_left = sorted(piece.x0 for piece in others)[len(others) // 20]
    text_right = sorted(piece.x1 for piece in others)[-1 - len(others) // 20]
    # Every candidate column on either edge (right-aligned numbers share x1, left-aligned ones x0), the
    # largest taken first: left-aligned numbers from 1 to 10 share x0, while x1 holds 1 to 9 only.
    candidates: list[tuple[Position, list[int]]] = []
    for edge in ("x1", "x0"):
        bins = Counter(round(getattr(pieces[i], edge) / _ALIGN) for i in numbers)
        for common, count in bins.most_common():
            if 3 * count < minimum:  # a column's numbers fill at most three neighbouring bins
                break
            if only is not None and (edge, common) not in only:
                continue
            column = [i for i in numbers if abs(round(getattr(pieces[i], edge) / _ALIGN) - common) <= 1]
            outside = all(pieces[i].x1 <= text_left + 1 for i in column) or all(
                pieces[i].x0 >= text_right - 1 for i in column
            )
            ordered = [int(pieces[i].text) for i in sorted(column, key=lambda i: pieces[i].y0)]
            steps = [b - a for a, b in pairwise(ordered)]
            if (
                len(column) >= minimum
                and outside
                and sum(step == 1 for step in steps) >= _STEP_SHARE * len(steps)
            ):
                candidates.append(((edge, common), column))
    found: dict[Position, set[int]] = {}
    placed: set[int] = set()
    for position, column in sorted(candidates, key=lambda candidate: -len(candidate[1])):
        if placed.isdisjoint(column):
            found[position] = set(column)
            placed.update(column)
    return found


def _beside_most_lines(pieces: Sequence[Line], column: set[int]) -> bool:
    """Whether the numbers stand beside most of the page's text lines, as a proof's do; a list numbered in
    its margin has a number beside each entry's first line only."""
    baselines = {round(piece.y1) for i, piece in enumerate(pieces) if i not in column}
    return len(column) >= 0.6 * len(baselines)


def line_number_columns(pages: Sequence[Sequence[Line]]) -> list[set[int]]:
    """For each page, the indices of its line-number pieces: empty unless at least half the pages with text
    have them, and two pages do or the numbers stand beside most lines of the one page that has them (a
    short piece). Once a margin is known to be numbered, a page's few numbers in it go too (a column ending
    a list after a few lines)."""
    found = [_columns_on_page(pieces) for pieces in pages]
    with_text = sum(1 for pieces in pages if pieces)
    numbered = [i for i, columns in enumerate(found) if columns]
    if not numbered or len(numbered) < 0.5 * with_text:
        return [set() for _ in pages]
    if len(numbered) == 1:  # one numbered page: only numbers beside most of its lines are a proof's
        only = numbered[0]
        if not _beside_most_lines(pages[only], set().union(*found[only].values())):
            return [set() for _ in pages]
    known = {
        (edge, near)
        for columns in found
        for edge, common in columns
        for near in (common - 1, common, common + 1)
    }
    columns = [set().union(*_columns_on_page(pieces, _MIN_KNOWN, known).values()) for pieces in pages]
    return [_with_the_run_continued(pieces, column) for pieces, column in zip(pages, columns, strict=True)]


def _with_the_run_continued(pieces: Sequence[Line], column: set[int]) -> set[int]:
    """A page's line numbers with those that continue their count elsewhere on the page: LaTeX's lineno
    sets the numbers of a column's first or last lines in the gutter when it misjudges which column they
    stand in ("153", "154" beside a column numbered 155 to 194 in its left margin). A bare number of the
    column's type size whose value is one more or one less than a number taken is taken in turn."""
    if not column:
        return column
    sizes = {round(pieces[i].size, 1) for i in column}
    taken = {int(pieces[i].text) for i in column}
    loose = {
        i: int(piece.text)
        for i, piece in enumerate(pieces)
        if i not in column and piece.text.isdigit() and len(piece.text) <= 4 and round(piece.size, 1) in sizes
    }
    found = set(column)
    while next_to := {i for i, value in loose.items() if value - 1 in taken or value + 1 in taken}:
        found |= next_to
        taken |= {loose.pop(i) for i in next_to}
    return found
