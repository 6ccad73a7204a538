"""Fuzzy location: where in a source a quote that is not there verbatim comes closest, and how it differs.

edlib's infix mode ("HW": the quote must be used whole, the source may be entered and left anywhere) finds
the span of the normalized source with the fewest edits to the normalized quote, within a bound `k`. A full
pass of its bit-parallel algorithm costs about 15 ms for 1,000 characters against 300 KB, so a q-gram count
filter (`GramIndex`, below) first narrows the source to the regions that can hold such a span — none,
usually, for a fabricated quote. A hit is only ever `near_match`; the differing words are spelled out.

The filter is Ukkonen's q-gram lemma: a span within k edits of a quote of length m keeps at least
m − q + 1 − k·q of the quote's q-grams, so any window of m + k characters holding such a span has at least
that many positions starting a q-gram that also occurs in the quote. Counting them for every window is a
few numpy passes over the source's q-gram hashes (computed once per source); edlib then runs only on the
regions whose count reaches the bound. A hash collision only adds a region, so no match is ever lost; when
the bound is not positive (short or very loose quotes) the whole text is searched.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

import edlib
import numpy as np
import numpy.typing as npt

from refhound.quotes.guard import join_line_breaks
from refhound.quotes.normalize import NormText, normalize_needle

_ALPHABET_LIMIT = 256  # edlib's
_SENTINEL = "\x00"
_MAX_DIFFERENCES = 5
_MAX_SHOWN = 60


@dataclass(frozen=True)
class FuzzyHit:
    """A near span in normalized coordinates, with its edit distance to the quote."""

    start: int
    end: int
    distance: int


def _reduced(needle: str, haystack: str, alphabet: frozenset[str]) -> str | None:
    """The haystack with characters the needle lacks merged into one (they can never match anyway), when
    the two together exceed edlib's alphabet; None if the needle alone does."""
    symbols = set(needle)
    if len(symbols | alphabet) <= _ALPHABET_LIMIT:
        return haystack
    if len(symbols) >= _ALPHABET_LIMIT:
        return None
    others = re.compile("[^" + "".join(re.escape(char) for char in sorted(symbols)) + "]")
    return others.sub(_SENTINEL, haystack)


def _align(needle: str, source: NormText, low: int, high: int, bound: int) -> FuzzyHit | None:
    """edlib on `source.text[low:high]`, the hit in the whole text's offsets."""
    text = source.text
    whole = low == 0 and high == len(text)
    window = text if whole else text[low:high]
    target = _reduced(needle, window, source.alphabet if whole else frozenset(window))
    if target is None:
        return None
    result = edlib.align(needle, target, mode="HW", task="locations", k=bound)
    distance = int(result["editDistance"])
    if distance < 0 or not result["locations"]:
        return None
    first, last = result["locations"][0]
    return FuzzyHit(low + int(first), low + int(last) + 1, distance)


def fuzzy_find(
    needle: str, source: NormText, start: int, max_ratio: float, grams: GramIndex | None = None
) -> FuzzyHit | None:
    """The closest span to `needle` in `source.text[start:]` within `max_ratio` edits per character."""
    bound = int(len(needle) * max_ratio)
    text = source.text
    if bound < 1 or len(needle) > len(text) - start + bound:
        return None
    regions = grams.regions(needle, bound, start) if grams is not None else None
    if regions is None:
        regions = [(start, len(text))]
    best: FuzzyHit | None = None
    for low, high in regions:
        hit = _align(needle, source, low, high, bound)
        if hit is not None and (best is None or hit.distance < best.distance):
            best = hit
    if best is None:
        return None
    begin, end = best.start, best.end
    while begin > 0 and text[begin - 1].isalnum() and text[begin].isalnum():
        begin -= 1
    while end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
        end += 1
    if (begin, end) == (best.start, best.end):
        return best
    # Widened to whole words: the distance is the quote's to the span reported.
    widened = edlib.align(needle, text[begin:end], mode="NW", task="distance")
    return FuzzyHit(begin, end, int(widened["editDistance"]))


def _shown(words: list[str]) -> str:
    text = " ".join(words)
    return repr(text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…")


def describe_differences(quote: str, span: str) -> str:
    """The words that differ, quote against source: "'12%' → '21%'; quote adds 'very'; …". Words keep
    their hyphens ("English-to-French"); only words a line end broke are joined."""
    quote_words, span_words = join_line_breaks(quote).split(), join_line_breaks(span).split()
    matcher = difflib.SequenceMatcher(
        a=[normalize_needle(w) for w in quote_words],
        b=[normalize_needle(w) for w in span_words],
        autojunk=False,
    )
    parts: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace":
            parts.append(f"{_shown(quote_words[i1:i2])} → {_shown(span_words[j1:j2])}")
        elif tag == "delete":
            parts.append(f"quote adds {_shown(quote_words[i1:i2])}")
        elif tag == "insert":
            parts.append(f"source has {_shown(span_words[j1:j2])}")
    if not parts:
        return "differs only in punctuation or spacing"
    more = len(parts) - _MAX_DIFFERENCES
    shown = "; ".join(parts[:_MAX_DIFFERENCES])
    return shown + (f"; and {more} more" if more > 0 else "")


# --- the q-gram count filter ------------------------------------------------------------------------

Q = 4
_BITS = 20
_MASK = (1 << _BITS) - 1
_BASE = np.uint64(1_000_003)


def _hashes(text: str) -> npt.NDArray[np.int64]:
    """The q-gram hashes of `text`, reduced to `_BITS` bits (one per start position)."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    count = len(codes) - Q + 1
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    hashes = np.zeros(count, dtype=np.uint64)
    for offset in range(Q):
        hashes = hashes * _BASE + codes[offset : offset + count]
    return (hashes & np.uint64(_MASK)).astype(np.int64)


class GramIndex:
    """A source's q-gram hashes, for `regions`."""

    def __init__(self, text: str) -> None:
        self.size = len(text)
        self.hashes = _hashes(text)

    def regions(self, needle: str, bound: int, start: int = 0) -> list[tuple[int, int]] | None:
        """Text ranges (from `start` on) that can hold a span within `bound` edits of `needle`; None when
        the filter cannot rule anything out."""
        size = len(needle)
        threshold = size - Q + 1 - bound * Q
        if threshold <= 0 or len(self.hashes) == 0:
            return None
        table = np.zeros(_MASK + 1, dtype=np.bool_)
        table[_hashes(needle)] = True
        hits = table[self.hashes[start:]].astype(np.int32)
        width = size + bound - Q + 1  # q-gram starts in a window of size + bound characters
        sums = np.concatenate((np.zeros(1, dtype=np.int64), np.cumsum(hits, dtype=np.int64)))
        counts = sums[-1:] if len(sums) <= width else sums[width:] - sums[:-width]
        candidates = np.flatnonzero(counts >= threshold)
        if len(candidates) == 0:
            return []
        breaks = np.flatnonzero(np.diff(candidates) > size) + 1
        regions: list[tuple[int, int]] = []
        for run in np.split(candidates, breaks):
            low = start + int(run[0])
            high = min(self.size, start + int(run[-1]) + size + bound)
            regions.append((low, high))
        return regions
