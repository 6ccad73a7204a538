"""The normalized form quotes and sources are compared in, with a map back to the original offsets.

Normalization forgives only what never changes what a passage says: quote characters (curly, straight,
guillemets, TeX ``…''), dash characters (a dash with a space before it is a separator, " - ", whatever its
kind), case, whitespace and line breaks, soft hyphens, ligatures, and a hyphen that follows a letter and
precedes one, perhaps after a line break or a space — which is how a PDF's "resid-\\nual", a copied
"resid- ual" and a quote's "residual" meet (and "state-of-the-\\nart" meets "state-of-the-art": all lose
their hyphens). Digits, letters and every other punctuation mark are kept as they are, so a
changed number or word can never be normalized away.

The source is normalized once, whole; the map is kept as segments (a copied run, or a replacement such as a
collapsed whitespace run) so a span found in the normalized text maps back to the original in O(log n).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

from refhound.normalize.text import LIGATURES

_DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033\u301d\u301e\uff02"
_SINGLE_QUOTES = "\u2018\u2019\u201a\u201b\u2032`\u00b4"
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d"
_SPACES = "\t\r\f\v\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
_SPACES += "\u202f\u205f\u3000\x1c\x1d\x1e\x1f\x85"
_BREAKS = "\u2028\u2029"

_ONE_TO_ONE = (
    {c: '"' for c in _DOUBLE_QUOTES}
    | {c: "'" for c in _SINGLE_QUOTES}
    | {c: "-" for c in _DASHES}
    | {c: " " for c in _SPACES}
    | {c: "\n" for c in _BREAKS}
)
# A regular expression finds the few characters to map: 15 times faster than str.translate on 300 KB.
_MAPPED = re.compile("[" + "".join(re.escape(c) for c in _ONE_TO_ONE) + "]")
_LIGATURES = {chr(code): letters for code, letters in LIGATURES.items()}  # the shared table, by character
_LETTER = r"[^\W\d_]"
# Rewrites, each its own scan that starts on a character class or literal (a combined alternation is three
# times slower on 300 KB); where two start at the same place, the earlier in this order wins: a hyphen inside
# a word (at a line end or not), a dash with whitespace at either side, a whitespace run.
_JOIN = re.compile(rf"-(?<={_LETTER}-)-*[ \n]*(?={_LETTER})")  # "resid-\nual", "resid- ual", "well-known"
_DASH = re.compile(r"-+[ \n]*")  # extended over the whitespace before it in `_edits`
_SPACE = re.compile(r" [ \n]+|\n[ \n]+")  # a lone line break becomes a space in place (no edit)
_OTHER_CHARS = "\u00ad\u200b\u200c\u200d\u2060\ufeff\u2026" + "".join(_LIGATURES)
_OTHER = re.compile(f"[{_OTHER_CHARS}]|''")
_OTHER_REPLACEMENT = {"\u2026": "...", "''": '"'} | _LIGATURES  # soft hyphens, zero-width spaces: gone


def _lower(text: str) -> str:
    """Lower case without changing the length (a handful of characters, e.g. 'İ', lower to two)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(low if len(low := char.lower()) == 1 else char for char in text)


@dataclass(frozen=True)
class NormText:
    """`text` normalized, and the segments that map its offsets back to `original`'s.

    Segment i starts at `norm_starts[i]` in the normalized text and covers `original[orig_starts[i]:
    orig_ends[i]]`; a copied segment maps character by character, a replacement maps as a whole."""

    original: str
    text: str
    norm_starts: tuple[int, ...]
    orig_starts: tuple[int, ...]
    orig_ends: tuple[int, ...]
    copied: tuple[bool, ...]

    def _segment(self, position: int) -> int:
        return max(0, bisect_right(self.norm_starts, position) - 1)

    def to_original_start(self, position: int) -> int:
        """The original offset where the normalized character at `position` comes from."""
        if position >= len(self.text):
            return len(self.original)
        index = self._segment(position)
        if self.copied[index]:
            return self.orig_starts[index] + position - self.norm_starts[index]
        return self.orig_starts[index]

    def to_original_end(self, end: int) -> int:
        """The original offset just after the normalized character at `end - 1`."""
        if end <= 0:
            return 0
        index = self._segment(end - 1)
        if self.copied[index]:
            return self.orig_starts[index] + end - self.norm_starts[index]
        return self.orig_ends[index]

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        return self.to_original_start(start), max(self.to_original_start(start), self.to_original_end(end))

    @cached_property
    def alphabet(self) -> frozenset[str]:
        return frozenset(self.text)


def _edits(text: str) -> list[tuple[int, int, int, str]]:
    """The rewrites of `text` as (start, precedence, end, replacement), sorted; they may overlap."""
    edits = [(match.start(), 0, match.end(), "") for match in _JOIN.finditer(text)]
    for match in _DASH.finditer(text):
        start = match.start()
        while start > 0 and text[start - 1] in " \n":
            start -= 1
        if start < match.start() or match.end() > match.start() + len(match.group().rstrip(" \n")):
            edits.append((start, 1, match.end(), " - "))
    edits.extend((match.start(), 2, match.end(), " ") for match in _SPACE.finditer(text))
    if "''" in text or any(char in text for char in _OTHER_CHARS):
        for match in _OTHER.finditer(text):
            edits.append((match.start(), 3, match.end(), _OTHER_REPLACEMENT.get(match.group(), "")))
    edits.sort()
    return edits


def normalize(original: str) -> NormText:
    """The normalized form of `original` with its offset map (see the module docstring)."""
    translated = _lower(_MAPPED.sub(lambda match: _ONE_TO_ONE[match.group()], original))
    edits = _edits(translated)
    pieces: list[str] = []
    norm_starts: list[int] = []
    orig_starts: list[int] = []
    orig_ends: list[int] = []
    copied: list[bool] = []
    size = position = 0
    for start, _, end, replacement in [*edits, (len(translated), -1, len(translated), "")]:
        if start < position:
            continue  # inside an edit that takes precedence
        if start > position or not pieces:
            norm_starts.append(size)
            orig_starts.append(position)
            orig_ends.append(start)
            copied.append(True)
            pieces.append(translated[position:start].replace("\n", " "))
            size += start - position
        if end > start or replacement:
            norm_starts.append(size)
            orig_starts.append(start)
            orig_ends.append(end)
            copied.append(False)
            pieces.append(replacement)
            size += len(replacement)
        position = end
    return NormText(
        original, "".join(pieces), tuple(norm_starts), tuple(orig_starts), tuple(orig_ends), tuple(copied)
    )


_EDGE_PUNCTUATION = " .,;:!?\"'"


def normalize_needle(text: str) -> str:
    """A quote (or a fragment of one) as searched for: normalized, its edges' spaces and punctuation off.

    Trailing punctuation is the quoting writer's ("… was clear." for "… was clear, and"); leading punctuation
    and quote marks at the edges are the same kind of residue."""
    return normalize(text).text.strip(_EDGE_PUNCTUATION)


_COMPOUND_BEFORE = re.compile(r"[^\W\d_][-\u2010\u2011]\n?$")
_COMPOUND_AFTER = re.compile(r"[-\u2010\u2011]\n?[^\W\d_]")


def at_word_edges(haystack: str, start: int, end: int) -> bool:
    """Whether `haystack[start:end]` neither begins nor ends inside a word ("10 percent" is not in
    "110 percent", "toxic" is not in "nontoxic") or a hyphenated compound ("toxic" is not in "non-toxic",
    nor in "non-\ntoxic")."""
    if start >= end:
        return True
    if start > 0 and haystack[start].isalnum():
        before = max(0, start - 3)
        if haystack[start - 1].isalnum() or _COMPOUND_BEFORE.search(haystack, before, start):
            return False
    if end < len(haystack) and haystack[end - 1].isalnum():
        return not (haystack[end].isalnum() or _COMPOUND_AFTER.match(haystack, end))
    return True


def find_word_aligned(haystack: str, needle: str, start: int = 0, end: int | None = None) -> int:
    """The first offset of `needle` in `haystack[start:end]` at word edges, or -1."""
    stop = len(haystack) if end is None else end
    if not needle:
        return -1
    position = haystack.find(needle, start, stop)
    while position >= 0:
        if at_word_edges(haystack, position, position + len(needle)):
            return position
        position = haystack.find(needle, position + 1, stop)
    return -1
