"""Where the items of a CSL-JSON list stand, found by a scan of its text rather than a parse.

A scan needs no stack: it counts a file's items before any is decoded (the cap on entries), and it lets a
list whose one item is nested too deeply for Python's decoder keep its other items, each decoded alone.
"""

from __future__ import annotations

import re

# A string (escapes skipped whole, so a quoted bracket is no bracket) or a character that structures JSON.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},:]')
_SPACE = " \t\r\n"


def item_spans(text: str) -> list[tuple[int, int]] | None:
    """The (start, end) of every item of the list a CSL-JSON file holds: the top-level array, or the
    `"items"` array of a top-level object; a single object with no `"items"` is its one item. None when
    the text is no such list, or ends before the list closes (the decoder says what is wrong)."""
    start = len(text) - len(text.lstrip(_SPACE))
    if text.startswith("[", start):
        return _array_items(text, start)
    if not text.startswith("{", start):
        return None
    opening = _items_array(text, start)
    if opening is not None:
        return _array_items(text, opening)
    return [_stripped(text, start, len(text))]


def _items_array(text: str, start: int) -> int | None:
    """Where the array of the object's `"items"` key opens, when it has one."""
    depth, key = 0, None
    for match in _TOKEN.finditer(text, start):
        token = match.group(0)
        if token in "[{":
            if depth == 1 and token == "[" and key == '"items"':
                return match.start()
            depth += 1
        elif token in "]}":
            depth -= 1
            if depth == 0:
                return None
        elif depth == 1 and token.startswith('"'):
            key = token
        elif depth == 1 and token == ",":
            key = None
    return None


def _array_items(text: str, opening: int) -> list[tuple[int, int]] | None:
    spans: list[tuple[int, int]] = []
    depth, item_start = 0, opening + 1
    for match in _TOKEN.finditer(text, opening):
        token = match.group(0)
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
        if depth == 0 or (depth == 1 and token == ","):
            first, end = _stripped(text, item_start, match.start())
            if first < end:
                spans.append((first, end))
            item_start = match.end()
            if depth == 0:
                return spans
    return None


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    """`start` and `end` moved past the whitespace at either side of `text[start:end]`."""
    while start < end and text[start] in _SPACE:
        start += 1
    while end > start and text[end - 1] in _SPACE:
        end -= 1
    return start, end
