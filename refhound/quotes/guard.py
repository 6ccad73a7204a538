"""The guard: the words a quote must never change, compared between the quote and the span it matched.

Numbers (digits and number words), dates (month and weekday names; years are numbers), negations and modal
verbs are what turn a true quotation into a false one with a one-word edit — "may reduce" → "reduces",
"12%" → "21%", "was effective" → "was [not] effective". Every layer that can verify a quote with some
freedom (brackets stand for any short span, an ellipsis drops text) is checked here, and any difference
downgrades the result: a quote is `verified` only when these words agree exactly, in number and kind.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_NUMBER = re.compile(r"(?<![\d.,])(?:(?:^|(?<=[\s(\[]))[-\u2212])?\d+(?:[.,]\d+)*")
_JOIN = re.compile(r"(?<=[^\W\d_])[-\u00ad\u2010-\u2015\u2212]+\s*(?=[^\W\d_])")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
_NUMBER_WORDS = frozenset((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million",
    "billion", "trillion", "dozen", "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
    "eighth", "ninth", "tenth", "half", "quarter", "twice", "thrice", "single", "double", "triple",
))  # fmt: skip
_DATE_WORDS = frozenset((
    "january", "february", "march", "april", "june", "july", "august", "september", "october", "november",
    "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
))  # fmt: skip
_NEGATIONS = frozenset((
    "not", "no", "never", "none", "nor", "neither", "nobody", "nothing", "nowhere", "without", "cannot",
    "hardly", "scarcely", "barely",
))  # fmt: skip
_MODALS = frozenset(["can", "could", "may", "might", "must", "shall", "should", "will", "would", "ought"])
# Contractions that carry a modal: "won't" is "will not", "can't" is "can not".
_CONTRACTED_MODALS = {"won't": "will", "can't": "can", "shan't": "shall", "cannot": "can"}


def _number_form(token: str) -> str:
    """'1,000' and '1000' are one number; the sign and decimal point are kept."""
    return token.replace("\u2212", "-").replace(",", "")


@dataclass(frozen=True)
class Guarded:
    """The guarded words of a text, by kind, with their counts."""

    numbers: Counter[str]
    dates: Counter[str]
    negations: Counter[str]
    modals: Counter[str]


def join_broken_words(text: str) -> str:
    """Words hyphenated across a line made whole, as normalization does: "of-\\nten" is "often", not "of"
    and "ten"."""
    return _JOIN.sub("", text)


def guarded_words(text: str) -> Guarded:
    text = join_broken_words(text)
    numbers: Counter[str] = Counter(_number_form(m.group()) for m in _NUMBER.finditer(text))
    dates: Counter[str] = Counter()
    negations: Counter[str] = Counter()
    modals: Counter[str] = Counter()
    for match in _WORD.finditer(text):
        word = match.group().lower().replace("\u2019", "'")
        if word in _CONTRACTED_MODALS:
            modals[_CONTRACTED_MODALS[word]] += 1
            negations["not"] += 1
            continue
        if word.endswith("n't"):
            negations["not"] += 1
            stem = word[:-3]
            if stem in _MODALS:
                modals[stem] += 1
            continue
        if word in _NUMBER_WORDS:
            numbers[word] += 1
        elif word in _DATE_WORDS:
            dates[word] += 1
        elif word in _NEGATIONS:
            negations["not" if word == "not" else word] += 1
        elif word in _MODALS:
            modals[word] += 1
    return Guarded(numbers, dates, negations, modals)


def _describe(kind: str, quote: Counter[str], source: Counter[str]) -> str | None:
    if quote == source:
        return None
    only_quote = sorted((quote - source).elements())
    only_source = sorted((source - quote).elements())
    parts = []
    if only_quote:
        parts.append(f"quote has {', '.join(repr(w) for w in only_quote)}")
    if only_source:
        parts.append(f"source has {', '.join(repr(w) for w in only_source)}")
    return f"{kind} differ ({'; '.join(parts)})"


def guard_differences(quote_text: str, source_span: str) -> list[str]:
    """What differs between the guarded words of the quote and of the matched source span; empty if none."""
    quote, source = guarded_words(quote_text), guarded_words(source_span)
    found = [
        _describe("numbers", quote.numbers, source.numbers),
        _describe("dates", quote.dates, source.dates),
        _describe("negations", quote.negations, source.negations),
        _describe("modal verbs", quote.modals, source.modals),
    ]
    return [item for item in found if item]


_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s")


def omitted_meaning(gap: str) -> list[str]:
    """Negations and modal verbs an ellipsis drops from the sentences of the fragments around it.

    Only the clause text next to each fragment counts (up to the first and from the last sentence end in the
    gap): a "not" that governed a quoted fragment sits in its own sentence; whole sentences left out between
    fragments are what an ellipsis is for."""
    ends = list(_SENTENCE_END.finditer(gap))
    near = [gap] if not ends else [gap[: ends[0].end()], gap[ends[-1].end() :]]
    words = guarded_words(" ".join(near))
    dropped = sorted(words.negations.elements()) + sorted(words.modals.elements())
    return dropped
