"""The guard: the words a quote must never change, compared between the quote and the span it matched.

Numbers (digits and number words, "twenty-one" and "thousands" too), dates (month and weekday names; years
are numbers), negations (words, "n't", and a negating prefix a bracket glues on: "[in]effective") and modal
verbs are what turn a true quotation into a false one with a one-word edit — "may reduce" → "reduces",
"12%" → "21%", "was effective" → "was [not] effective". Every layer that can verify a quote with some
freedom (brackets stand for any short span, an ellipsis drops text) is checked here, and any difference
downgrades the result: a quote is `verified` only when these words agree exactly, in number and kind.

Named entities (capitalised words inside a sentence: "German", "Smith", "WHO") are compared too, but only
for near matches (`entity_differences`): a bracketed alteration may rightly put a name for a pronoun
("[Smith] said"), while a fuzzy match that swaps "French" for "German" is a misquote. Each difference has a
kind (`Alteration`: number, date, negation, modal, entity), which fills a quote's `alterations`.

A match that starts or ends inside a number of the source ("5 percent" in "12.5 percent", "12." in
"12.5", "5 degrees" in "-5 degrees") is compared with the whole number (`guard_match`), so a quote that
cuts a number never agrees with it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal

Alteration = Literal["number", "date", "negation", "modal", "entity"]
ALTERATIONS: tuple[Alteration, ...] = ("number", "date", "negation", "modal", "entity")

_NUMBER = re.compile(r"(?<![\d.,])(?:(?:^|(?<=[\s(\[]))[-\u2212])?\d+(?:[.,]\d+)*")
_JOIN = re.compile(r"(?<=[^\W\d_])[-\u00ad\u2010-\u2015\u2212]+\s*(?=[^\W\d_])")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
_NUMBER_WORDS = frozenset((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million",
    "billion", "trillion", "dozen", "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
    "eighth", "ninth", "tenth", "half", "quarter", "twice", "thrice", "single", "double", "triple",
    "hundreds", "thousands", "millions", "billions", "trillions", "dozens", "halves", "quarters",
))  # fmt: skip
# "twenty-one", "ninety-ninth" (the hyphen is gone once broken words are joined), "twofold", "tenfold";
# `_COMPOUND_ENDS` is a quick test before the expression (every such word ends so).
_COMPOUND_ENDS = ("ty", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "first",
                  "second", "third", "th", "fold")  # fmt: skip
_COMPOUND_NUMBER = re.compile(
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    r"(?:one|two|three|four|five|six|seven|eight|nine|first|second|third|fourth|fifth|sixth|seventh|eighth"
    r"|ninth)?|one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|million)(?:fold)?"
)
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
# Prefixes that turn a word into its negation: a quote's "ineffective" for the source's "effective".
_NEGATING_PREFIXES = ("non", "un", "in", "im", "il", "ir", "dis", "a")
# "May" is a month, not a modal verb, next to a day or a year ("3 May", "May 2020", "May 3").
_MAY_DATE = re.compile(r"(?<=\d\s)may\b|\bmay(?=\s\d)", re.IGNORECASE)


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
    words: Counter[str]  # every word, lower case: for the negating prefixes


_LINE_BREAK = re.compile(r"(?<=[^\W\d_])(?:\u00ad\s*|[-\u2010\u2011]\s*\n\s*)(?=[^\W\d_])")


def join_line_breaks(text: str) -> str:
    """Only words a line end (or a soft hyphen) broke made whole: "English-to-French" keeps its hyphens, as a
    note shown to people must."""
    return _LINE_BREAK.sub("", text)


def join_broken_words(text: str) -> str:
    """Words hyphenated across a line made whole, as normalization does: "of-\\nten" is "often", not "of"
    and "ten"."""
    return _JOIN.sub("", text)


def guarded_words(text: str) -> Guarded:
    """The numbers, dates, negations and modal verbs of `text`, counted."""
    text = join_broken_words(text)
    numbers: Counter[str] = Counter(_number_form(m.group()) for m in _NUMBER.finditer(text))
    dates: Counter[str] = Counter()
    negations: Counter[str] = Counter()
    modals: Counter[str] = Counter()
    words: Counter[str] = Counter()
    month_may = {match.start() for match in _MAY_DATE.finditer(text)}
    for match in _WORD.finditer(text):
        word = match.group().lower().replace("\u2019", "'")
        words[word] += 1
        if match.start() in month_may:
            dates["may"] += 1
            continue
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
        if word in _NUMBER_WORDS or (word.endswith(_COMPOUND_ENDS) and _COMPOUND_NUMBER.fullmatch(word)):
            numbers[word] += 1
        elif word in _DATE_WORDS:
            dates[word] += 1
        elif word in _NEGATIONS:
            negations["not" if word == "not" else word] += 1
        elif word in _MODALS:
            modals[word] += 1
    return Guarded(numbers, dates, negations, modals, words)


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


def _negated_words(quote: Counter[str], source: Counter[str]) -> str | None:
    """A word one side has with a negating prefix where the other has it without ("ineffective" for
    "effective", "non-toxic" for "toxic"), as a brackets match allows: "[in]effective"."""
    if quote == source:
        return None
    only_quote, only_source = quote - source, source - quote
    pairs = [
        (longer, shorter, side)
        for longer_side, shorter_side, side in (
            (only_quote, only_source, "quote"),
            (only_source, only_quote, "source"),
        )
        for longer in longer_side
        for shorter in shorter_side
        if len(shorter) > 2 and any(longer == prefix + shorter for prefix in _NEGATING_PREFIXES)
    ]
    if not pairs:
        return None
    shown = "; ".join(f"{side} has {longer!r} for {shorter!r}" for longer, shorter, side in pairs)
    return f"negations differ ({shown})"


@dataclass(frozen=True)
class Difference:
    """One guarded difference: its kind and the words, for people."""

    kind: Alteration
    text: str


def guard_findings(quote_text: str, source_span: str) -> list[Difference]:
    """What differs between the guarded words of the quote and of the matched source span, by kind."""
    if quote_text == source_span:
        return []
    quote, source = guarded_words(quote_text), guarded_words(source_span)
    found: list[tuple[Alteration, str | None]] = [
        ("number", _describe("numbers", quote.numbers, source.numbers)),
        ("date", _describe("dates", quote.dates, source.dates)),
        ("negation", _describe("negations", quote.negations, source.negations)),
        ("negation", _negated_words(quote.words, source.words)),
        ("modal", _describe("modal verbs", quote.modals, source.modals)),
    ]
    return [Difference(kind, text) for kind, text in found if text]


def guard_differences(quote_text: str, source_span: str) -> list[str]:
    """What differs between the guarded words of the quote and of the matched source span; empty if none."""
    return [item.text for item in guard_findings(quote_text, source_span)]


# What may stand before a sentence's first word: a capital there is no sign of a name.
_SENTENCE_OPENERS = frozenset(".!?:;\"'([\u201c\u201d\u2018\u2019\u00ab\u00bb")


def _opens_sentence(text: str, start: int) -> bool:
    before = text[max(0, start - 40) : start]
    stripped = before.rstrip()
    if start < 40 and not stripped:
        return True
    return bool(stripped) and (stripped[-1] in _SENTENCE_OPENERS or "\n\n" in before[len(stripped) :])


def entities(text: str) -> list[str]:
    """The capitalised words of `text` that do not open a sentence (names, places, languages, acronyms), as
    written; month and number words are left to the date and number checks."""
    text = join_line_breaks(text)
    found: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group()
        if not word[0].isupper() or _opens_sentence(text, match.start()):
            continue
        if word.lower() not in _DATE_WORDS and word.lower() not in _NUMBER_WORDS:
            found.append(word)
    return found


def entity_differences(quote_text: str, source_span: str) -> list[Difference]:
    """Names one side has and the other lacks in any case ("French" for "German"); a name that only changes
    case or opens a sentence on one side is no difference."""
    quote_words = Counter(w.lower() for w in _WORD.findall(join_line_breaks(quote_text)))
    span_words = Counter(w.lower() for w in _WORD.findall(join_line_breaks(source_span)))
    only_quote = sorted({e for e in entities(quote_text) if e.lower() not in span_words})
    only_source = sorted({e for e in entities(source_span) if e.lower() not in quote_words})
    if not only_quote and not only_source:
        return []
    parts = []
    if only_quote:
        parts.append(f"quote has {', '.join(repr(w) for w in only_quote)}")
    if only_source:
        parts.append(f"source has {', '.join(repr(w) for w in only_source)}")
    return [Difference("entity", f"names differ ({'; '.join(parts)})")]


def whole_numbers(text: str, start: int, end: int) -> tuple[int, int]:
    """`text[start:end]` widened to every number it cuts at either edge ("5" of "12.5", "-5", "1,000")."""
    for match in _NUMBER.finditer(text, max(0, start - 64), min(len(text), end + 64)):
        if match.start() < start < match.end():
            start = match.start()
        if match.start() < end < match.end():
            end = match.end()
    return start, end


def match_findings(quote_text: str, source: str, start: int, end: int) -> list[Difference]:
    """`guard_findings` between a quote and the span `source[start:end]` it matched, the span widened to
    the whole of any number it cuts: "rose by 12" never agrees with "rose by 12.5"."""
    low, high = whole_numbers(source, start, end)
    return guard_findings(quote_text, source[low:high])


def guard_match(quote_text: str, source: str, start: int, end: int) -> list[str]:
    """`match_findings` as text."""
    return [item.text for item in match_findings(quote_text, source, start, end)]


_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s")


def _near_gap(gap: str) -> Guarded:
    ends = list(_SENTENCE_END.finditer(gap))
    near = [gap] if not ends else [gap[: ends[0].end()], gap[ends[-1].end() :]]
    return guarded_words(" ".join(near))


def omitted_meaning(gap: str) -> list[str]:
    """Negations and modal verbs an ellipsis drops from the sentences of the fragments around it.

    Only the clause text next to each fragment counts (up to the first and from the last sentence end in the
    gap): a "not" that governed a quoted fragment sits in its own sentence; whole sentences left out between
    fragments are what an ellipsis is for."""
    words = _near_gap(gap)
    return sorted(words.negations.elements()) + sorted(words.modals.elements())


def omitted_findings(gap: str) -> list[Difference]:
    """`omitted_meaning` as differences: a dropped negation, a dropped modal verb."""
    words = _near_gap(gap)
    dropped = sorted(words.negations.elements()) + sorted(words.modals.elements())
    if not dropped:
        return []
    text = f"the ellipsis leaves out {', '.join(repr(w) for w in dropped)}"
    found: list[Difference] = []
    if words.negations:
        found.append(Difference("negation", text))
    if words.modals:
        found.append(Difference("modal", text))
    return found
