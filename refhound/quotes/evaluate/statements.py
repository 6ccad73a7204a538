"""The statement a quote of a document is cited for: what the entailment gate tests the quote against.

In a triples file the statement is given. In a document it is the writer's own words around the quote: the
sentence holding the quotation with the quotation itself taken out ("The drug cures cancer: “…” [1]" → "The
drug cures cancer: … [1]"); when little is left (the quote is the whole sentence), the sentence before it in
the same paragraph. None when neither has three words: the gate then says it did not run, and why.
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+")
_PARAGRAPH = re.compile(r"\n\s*\n")
_WORDS = re.compile(r"[^\W_]{2,}")
_MARKS = "\"'\u201c\u201d\u201e\u00ab\u00bb \u2018\u2019"
_CITATION = re.compile(r"\s*\[\^?[\w .,;\u2013-]{1,30}\](?!\()")  # "[1]", "[1, 4]", "[^note]": no claim
MIN_WORDS = 3
MAX_CHARS = 1000


def _paragraph(text: str, start: int, end: int) -> tuple[int, int]:
    low = max((m.end() for m in _PARAGRAPH.finditer(text, 0, start)), default=0)
    after = _PARAGRAPH.search(text, end)
    return low, after.start() if after else len(text)


def _sentence_bounds(text: str, low: int, high: int, start: int, end: int) -> tuple[int, int]:
    begin = max((m.end() for m in _SENTENCE_END.finditer(text, low, start)), default=low)
    after = _SENTENCE_END.search(text, end, high)
    return begin, after.end() if after else high


def _clean(text: str) -> str:
    return " ".join(_CITATION.sub("", text).split())[:MAX_CHARS]


def statement_of(text: str, start: int, end: int) -> str | None:
    """The writer's claim around the quote at `text[start:end]` (see the module docstring)."""
    low, high = _paragraph(text, start, end)
    begin, finish = _sentence_bounds(text, low, high, start, end)
    while start > begin and text[start - 1] in _MARKS:
        start -= 1
    while end < finish and text[end] in _MARKS:
        end += 1
    around = _clean(f"{text[begin:start]} … {text[end:finish]}")
    if len(_WORDS.findall(around)) >= MIN_WORDS:
        return around
    if begin > low:
        before = _sentence_bounds(text, low, high, begin - 1, begin - 1)
        previous = _clean(text[before[0] : begin])
        if len(_WORDS.findall(previous)) >= MIN_WORDS:
            return previous
    return None
