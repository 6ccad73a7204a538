"""Which citation each quote is checked against.

1. A quote in a footnote belongs to that footnote; a paragraph of a quotation that runs over several
   paragraphs is cited as the paragraph the quotation ends in is.
2. The link whose text holds the quotation ("[as “…” says](url)", "“[…](url)”"); else the citation that
   immediately follows the quote in its sentence ("… ” [3].").
3. Otherwise, the citation that ends a later sentence of the same passage, when the sentences in between
   are uncited: a citation at the end of a passage covers the uncited sentences before it.
4. Otherwise the citation carries forward over consecutive quotes until a new one appears: the last one
   before the quote in its passage ("Smith [1] wrote “…” and “…”"), or — for a block quote or after a
   passage ending in ":" — the last citation of the passage that introduces it. It does not carry into
   another paragraph of running text: a quote there with no citation of its own is uncited.
5. Otherwise the quote is uncited.

Adjacent markers ("[1][2]", "[1], [4]") form one citation group; markers inside a quotation are part of
the quoted text, not citations.

Sentences: one ends at ".", "!" or "?" (with closing quote marks or brackets) before whitespace and a
capital, digit or opening mark — but not after an abbreviation ("e.g.", "et al.", "Fig.") or an initial
("J. Smith"), and never inside a quotation: a quoted passage of several sentences stays in the sentence
that quotes it. Citation markers printed after the full stop ("… was clear. [3]") belong to the sentence
before them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from refhound.quotes.layout import Layout, Span, inside
from refhound.quotes.models import CitationGroup, Marker, Quote

Rule = Literal["footnote", "quotation_end", "follows", "passage_end", "carried", "uncited"]
_BETWEEN_ADJACENT = frozenset(" \t,;")


@dataclass(frozen=True)
class Pairing:
    group: CitationGroup | None
    rule: Rule


def group_markers(markers: list[Marker], quotes: list[Quote], text: str) -> list[CitationGroup]:
    """Markers outside quotations, adjacent ones grouped."""
    spans = sorted((quote.start, quote.end) for quote in quotes)
    outside = [m for m in sorted(markers, key=lambda m: m.start) if not inside(m.start, spans)]
    groups: list[list[Marker]] = []
    for marker in outside:
        if groups and set(text[groups[-1][-1].end : marker.start]) <= _BETWEEN_ADJACENT:
            groups[-1].append(marker)
        else:
            groups.append([marker])
    return [CitationGroup(tuple(members)) for members in groups]


def _footnote_group(key: str, quote: Quote) -> CitationGroup:
    marker = Marker(quote.end, quote.end, f"[{key}]", "footnote", (key,))
    return CitationGroup((marker,))


class _Passages:
    """Sentences of each passage, computed once."""

    def __init__(self, text: str, layout: Layout, quotes: list[Quote], groups: list[CitationGroup]) -> None:
        self.text = text
        self.layout = layout
        self.quote_spans = sorted((quote.start, quote.end) for quote in quotes)
        self.groups = groups
        self._starts = [group.start for group in groups]
        self._ends = [group.end for group in groups]
        self._sentences: dict[int, list[tuple[int, int]]] = {}

    def sentences(self, index: int) -> list[tuple[int, int]]:
        if index not in self._sentences:
            low, high = self.layout.passages[index]
            spans = self.quote_spans
            inner = spans[bisect_left(spans, (low, low)) : bisect_left(spans, (high, high))]
            self._sentences[index] = sentence_spans(self.text, (low, high), inner, self.in_span(low, high))
        return self._sentences[index]

    def in_span(self, low: int, high: int) -> list[CitationGroup]:
        return self.groups[bisect_left(self._starts, low) : bisect_left(self._starts, high)]

    def enclosing(self, quote: Quote) -> CitationGroup | None:
        """The group whose span holds the quote: a link whose text is (or holds) the quotation."""
        index = bisect_right(self._starts, quote.start) - 1
        if index >= 0 and self.groups[index].end >= quote.end:
            return self.groups[index]
        return None

    def last_before(self, position: int) -> CitationGroup | None:
        """The last group ending at or before `position` (groups do not overlap)."""
        index = bisect_right(self._ends, position) - 1
        return self.groups[index] if index >= 0 else None


def pair_quotes(
    text: str,
    layout: Layout,
    quotes: list[Quote],
    groups: list[CitationGroup],
    runs_on: dict[int, int] | None = None,
) -> list[Pairing]:
    """One pairing per quote, in the quotes' order (see the module docstring). `runs_on` maps the start of
    a paragraph of a quotation that goes on in the next paragraph to where that paragraph starts."""
    passages = _Passages(text, layout, quotes, groups)
    pairings = [_pair(quote, passages) for quote in quotes]
    starts = [quote.start for quote in quotes]
    for index in reversed(range(len(quotes))):  # the last paragraph first: a chain ends in it
        following = (runs_on or {}).get(quotes[index].start)
        if following is None:
            continue
        after = bisect_left(starts, following)
        if after >= len(quotes) or layout.passage_of(starts[after]) != layout.passage_of(following):
            continue  # the paragraph it runs on into has no quote checked (too short, say)
        if pairings[after].group is not None:
            pairings[index] = Pairing(pairings[after].group, "quotation_end")
    return pairings


def _pair(quote: Quote, passages: _Passages) -> Pairing:
    if quote.footnote:
        return Pairing(_footnote_group(quote.footnote, quote), "footnote")
    index = passages.layout.passage_of(quote.start)
    if index is None:
        return Pairing(None, "uncited")
    sentences = passages.sentences(index)
    position = max(0, bisect_right(sentences, quote.start, key=lambda span: span[0]) - 1)
    sentence = sentences[position]
    if (link := passages.enclosing(quote)) is not None:
        return Pairing(link, "follows")
    following = passages.in_span(quote.end, sentence[1])
    if following:
        return Pairing(following[0], "follows")
    for later in sentences[position + 1 :]:
        cited = passages.in_span(*later)
        if cited:
            if ends_sentence(passages.text, cited[-1], later):
                return Pairing(cited[-1], "passage_end")
            break
    return _carried(quote, index, passages)


def _carried(quote: Quote, index: int, passages: _Passages) -> Pairing:
    last = passages.last_before(quote.start)
    if last is None:
        return Pairing(None, "uncited")
    passage_start = passages.layout.passages[index][0]
    if last.start >= passage_start:
        return Pairing(last, "carried")
    if index > 0:
        introducing = passages.layout.passages[index - 1]
        intro_text = passages.text[introducing[0] : introducing[1]].rstrip()
        in_intro = introducing[0] <= last.start < introducing[1]
        if in_intro and (quote.style == "block" or intro_text.endswith(":")):
            return Pairing(last, "carried")
    return Pairing(None, "uncited")


# --- sentences ---------------------------------------------------------------------------------------

_END = re.compile(
    r"[.!?]+[\"'\u201d\u2019)\]]*(?=\s+[\"'\u201c\u2018(\[]?[A-Z0-9\u00c0-\u024f\[])|[.!?]+\s*$"
)
_ABBREVIATIONS = frozenset((
    "e.g", "i.e", "al", "etc", "fig", "figs", "eq", "eqs", "no", "nos", "vol", "vols", "pp", "p", "cf",
    "vs", "dr", "mr", "mrs", "ms", "prof", "inc", "ltd", "co", "corp", "jr", "sr", "st", "art", "arts",
    "sec", "secs", "ch", "chap", "ed", "eds", "approx", "ca", "op", "cit", "ibid", "viz", "resp", "dept",
    "univ", "est",
))  # fmt: skip
_WORD_BEFORE = re.compile(r"([\w.]+)$")


def _is_abbreviation(text: str, position: int) -> bool:
    """Whether the full stop at `position` ends an abbreviation or an initial rather than a sentence."""
    if text[position] != ".":
        return False
    match = _WORD_BEFORE.search(text, max(0, position - 20), position)
    if match is None:
        return False
    word = match.group(1).lower().strip(".")
    return word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha())


def sentence_spans(text: str, passage: Span, quotes: list[Span], groups: list[CitationGroup]) -> list[Span]:
    """The sentences of `passage`, in order, covering it without gaps; `quotes` (sorted) are the spans of
    its quotations, in which no sentence ends."""
    begin, end = passage
    cuts: list[int] = []
    starts = {group.start: group for group in groups if begin <= group.start < end}
    for match in _END.finditer(text, begin, end):
        if _within(match.start(), quotes) or _is_abbreviation(text, match.start()):
            continue
        cut = match.end()
        while True:  # markers after the full stop are the ending sentence's
            following = cut
            while following < end and text[following] in " \t":
                following += 1
            group = starts.get(following)
            if group is None:
                break
            cut = group.end
        if begin < cut < end:
            cuts.append(cut)
    bounds = [begin, *sorted(set(cuts)), end]
    return [(low, high) for low, high in pairwise(bounds) if high > low]


def _within(position: int, spans: list[Span]) -> bool:
    """Whether `position` lies strictly inside one of the sorted, non-overlapping `spans`."""
    index = bisect_left(spans, (position,)) - 1
    return index >= 0 and spans[index][0] < position < spans[index][1]


def ends_sentence(text: str, group: CitationGroup, sentence: Span) -> bool:
    """Whether nothing but punctuation and spaces follows `group` to the end of its sentence."""
    rest = text[group.end : sentence[1]]
    return not any(char.isalnum() for char in rest)
