"""Finding a record inside a printed reference string: its title and its authors, approximately.

A parser can misread a reference string (authors swallowed into the title, a title cut at an inner
question mark, a hyphen lost at a line break), and a misread title must not become a verdict. So a record
found from the raw string is confirmed the way biblio-glutton validates its candidates: the record's own
title is aligned inside the string (approximate substring alignment, so a typo or a lost hyphen costs
little), and the record's authors are looked for in what the string prints. A record confirmed so reads the
string better than a parse that disagrees with it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

from refhound.models import Record
from refhound.normalize.names import parse_name
from refhound.normalize.text import fold, latex_to_unicode, reattach_accents
from refhound.normalize.titles import bracketed_end

# Share (0..100) of the record's title that must align with a span of the string.
MIN_TITLE_ALIGNMENT = 90.0
# Shorter titles ("Deep learning") align inside too many strings to confirm anything by themselves.
MIN_TITLE_CHARS = 20
# Share of a record title's words that must be printed as they are before an alignment is tried.
_MIN_WORDS_PRINTED = 0.6
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class PrintedRecord:
    """Where a string prints a record's title, and which of its authors the rest of it names."""

    title: str  # the record's title as the string prints it (typos and all)
    score: float  # 0..100
    first_author_printed: bool
    authors_printed: int
    authors: int

    def confirms(self) -> bool:
        """The title aligns and, when the record names authors, the string names its first author or
        half of them: a title alone is what an invented reference borrows."""
        if self.score < MIN_TITLE_ALIGNMENT:
            return False
        return self.authors == 0 or self.first_author_printed or 2 * self.authors_printed >= self.authors


def _as_text(raw: str) -> str:
    """The string as it is searched: accents composed with their letters, whether the text layer decomposed
    them ("Sjo\u0308green": a word split at the mark) or set them apart ("Sch ̈olkopf"), LaTeX decoded."""
    return latex_to_unicode(reattach_accents(unicodedata.normalize("NFC", raw)))


def _folded_words(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The text's words folded and joined by single spaces, with each word's span in `text`."""
    spans = [m.span() for m in _WORD.finditer(text)]
    return " ".join(fold(text[a:b]).lower() for a, b in spans), spans


def folded_words(text: str) -> list[str]:
    """The words of `text`, LaTeX decoded and folded (case, accents and punctuation aside), as a record's
    title is compared with a printed string."""
    return _folded_words(latex_to_unicode(text))[0].split()


class PrintedString:
    """A reference string prepared once for aligning many records inside it."""

    def __init__(self, raw: str) -> None:
        self.text = _as_text(raw)
        self.folded, self._spans = _folded_words(self.text)
        self._words = frozenset(self.folded.split())

    def find(self, record: Record) -> PrintedRecord | None:
        """The best alignment of `record`'s title in the string, with its authors counted; None for a
        title too short to align on its own, or one most of whose words the string does not print."""
        words = folded_words(_as_printed(record.title, self._words))
        title = " ".join(words)
        if len(title) < MIN_TITLE_CHARS or len(self.folded) < len(title):
            return None
        # Cheap first: an alignment of 90% needs most of the title's words printed as such (a word glued
        # to its neighbour by a lost hyphen is one of the few that are not).
        if sum(word in self._words for word in words) < _MIN_WORDS_PRINTED * len(words):
            return None
        alignment = fuzz.partial_ratio_alignment(title, self.folded)
        if alignment is None:
            return None
        start, end = _word_span(self.folded, self._spans, alignment.dest_start, alignment.dest_end)
        outside = f"{self.text[:start]} {self.text[end:]}"
        printed = {fold(word).lower() for word in _WORD.findall(outside)}
        counted = record.authors[:10]  # a long list is cited with "et al." after its first names
        named = [_family_printed(author, printed) for author in counted]
        return PrintedRecord(
            self.text[start:end], alignment.score, bool(named) and named[0], sum(named), len(counted)
        )


def _as_printed(title: str, printed: frozenset[str]) -> str:
    """The record's title without a bracketed note the string does not print ("… (Student Abstract)"):
    aligned with it, the note would stretch the title over the words after it. A note printed in part (a
    translation with a word changed) stays, so that the change is seen."""
    parts = bracketed_end(title)
    if parts is None:
        return title
    before, note = parts
    words = _folded_words(note)[0].split()
    return before if sum(word in printed for word in words) * 2 < len(words) else title


def printed_words(raw: str, text: str) -> str | None:
    """The span of `raw` that prints `text` word for word (case, accents and punctuation aside), if any."""
    words = " ".join(folded_words(text))
    if not words:
        return None
    raw = _as_text(raw)
    folded, spans = _folded_words(raw)
    at = f" {folded} ".find(f" {words} ")
    if at < 0:
        return None
    start, end = _word_span(folded, spans, at, at + len(words))
    # Marks around the words that the text has too ("*SEM", "(SemEval 2012)") are part of what it prints.
    text = text.strip()
    lead = len(text) - len(re.sub(r"^[\W_]+", "", text))
    trail = len(text) - len(re.sub(r"[\W_]+$", "", text))
    if lead and raw[max(start - lead, 0) : start] == text[:lead]:
        start -= lead
    if trail and raw[end : end + trail] == text[len(text) - trail :]:
        end += trail
    return raw[start:end]


def printed_spaces_aside(raw: str, text: str) -> str | None:
    """The span of `raw` that prints `text` letter for letter with spaces and punctuation aside, from a word's
    start to a word's end: a text layer's lost space ("Environmentfor") or a hyphen kept at a line break
    ("Representa- tion") inside it. None when no such span is printed."""
    letters = "".join(folded_words(text))
    if not letters:
        return None
    raw = _as_text(raw)
    folded, spans = _folded_words(raw)
    words = folded.split(" ")  # one per span, even a word that folds to nothing
    word_of = [i for i, word in enumerate(words) for _ in word]  # the word each letter belongs to
    joined = "".join(words)
    at = joined.find(letters)
    while at >= 0:
        end = at + len(letters)
        first, last = word_of[at], word_of[end - 1]
        if (at == 0 or word_of[at - 1] != first) and (end == len(joined) or word_of[end] != last):
            return raw[spans[first][0] : spans[last][1]]
        at = joined.find(letters, at + 1)
    return None


def find_printed_record(raw: str, record: Record) -> PrintedRecord | None:
    """`PrintedString(raw).find(record)`, for one record."""
    return PrintedString(raw).find(record)


def _family_printed(author: str, printed: set[str]) -> bool:
    """Whether every word of the author's family name is printed ("Tjong Kim Sang" as three words)."""
    family = [fold(word).lower() for word in _WORD.findall(parse_name(author).family)]
    return bool(family) and all(word in printed for word in family)


def _word_span(folded: str, spans: list[tuple[int, int]], start: int, end: int) -> tuple[int, int]:
    """The raw span of the words the folded range [start, end) touches. A space at either end touches
    no word: an alignment one character longer than what the string prints (a space lost in it) may
    begin on the space before the title, and the word before it is no part of it."""
    while start < end and folded[start] == " ":
        start += 1
    while end > start and folded[end - 1] == " ":
        end -= 1
    first = folded.count(" ", 0, start)
    last = folded.count(" ", 0, max(start, end - 1))
    return spans[first][0], spans[min(last, len(spans) - 1)][1]
