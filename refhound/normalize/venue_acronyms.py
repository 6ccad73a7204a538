"""Whether one venue name is the other with some of its words written as acronyms.

"NUT@EMNLP" is "the 3rd Workshop on Noisy User-generated Text" held with EMNLP, and "the 2nd Workshop on NLP
for ConvAI" is "… Natural Language Processing for Conversational AI": the venue table knows no workshop by
name, and the two names share too few letters for a string similarity to tie them. The test here reads the
shorter name's words against the longer's, in order: each is one of its words, or an acronym of a run of
consecutive words, each word giving a non-empty prefix ("Conv" + "AI", "N" + "U" + "T"; "4" may stand for
"for" and "2" for "to", as in "RepL4NLP"). Every word of the longer name that says which venue it is must be
accounted for; words every venue name has ("Proceedings of the 3rd … Workshop on") may be left over. Neither
the host named after an "@" (the other name seldom says where a workshop was held) nor the words in
parentheses (a name's own acronym and year, "(RepL4NLP-2019)") need a partner in the other name.
"""

from __future__ import annotations

import re
from functools import cache

_WORD = re.compile(r"[^\W_]+(?:[-'’](?!\d)[^\W_]+)*")  # "User-generated" one word, "SemEval-2017" two
_ASIDE = re.compile(r"\([^()]*\)")
# Words any venue name may have or lack, and ordinals and years, which the year field checks.
_GENERIC = frozenset(
    {
        *("proceedings", "proc", "of", "the", "on", "in", "at", "for", "and", "to", "a", "an"),
        *("workshop", "workshops", "international", "annual", "conference", "meeting", "joint"),
        *("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"),
    }
)
_ORDINAL_OR_NUMBER = re.compile(r"\d+(?:st|nd|rd|th)?")
_DIGIT_WORDS = {"4": "for", "2": "to"}  # "RepL4NLP", "Seq2Seq"
_LONGEST_ACRONYM = 16  # letters; a longer word is no acronym (and the search stays small)
_LONGEST_NAME = 60  # words; a longer string is no venue name (and the recursion stays shallow)


def _words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


def _generic(word: str) -> bool:
    return word in _GENERIC or _ORDINAL_OR_NUMBER.fullmatch(word) is not None


def _pieces(token: str, words: tuple[str, ...], start: int) -> frozenset[int]:
    """The ends (exclusive) of the runs of `words` from `start` that `token` is an acronym of: the token
    split into non-empty prefixes of consecutive words, a generic word inside the run left out, a digit
    standing for the word it sounds like."""
    if len(token) > _LONGEST_ACRONYM:
        return frozenset()

    @cache
    def ends(rest: str, at: int) -> frozenset[int]:
        if not rest:
            return frozenset({at})
        if at == len(words):
            return frozenset()
        word = words[at]
        found: set[int] = set()
        if word in _GENERIC and at > start:  # "on" in "International Conference on Machine Learning"
            found |= ends(rest, at + 1)
        if _DIGIT_WORDS.get(rest[0]) == word:
            found |= ends(rest[1:], at + 1)
        for size in range(1, min(len(rest), len(word)) + 1):
            if rest[:size] != word[:size]:
                break
            found |= ends(rest[size:], at + 1)
        return frozenset(found)

    return ends(token, start)


def _reads_as(short: tuple[str, ...], spare: frozenset[str], long: tuple[str, ...]) -> bool:
    """Whether the words of `short` account for every venue-naming word of `long` in order, at least one of
    them as an acronym of several words; words of `long` among `spare` need no partner."""

    @cache
    def cover(i: int, j: int, acronym: bool) -> bool:
        if j == len(long):
            return acronym and all(_generic(token) for token in short[i:])
        if i == len(short):
            return acronym and all(_generic(word) or word in spare for word in long[j:])
        token, word = short[i], long[j]
        if (_generic(word) or word in spare) and cover(i, j + 1, acronym):  # a word the other name may lack
            return True
        if _generic(token) and cover(i + 1, j, acronym):
            return True
        if token == word and cover(i + 1, j + 1, acronym):
            return True
        return any(cover(i + 1, end, True) for end in _pieces(token, long, j) if end - j > 1)

    return cover(0, 0, False)


def acronym_of(a: str, b: str) -> bool:
    """Whether one of two venue names is the other with some of its words written as an acronym."""
    names = sorted((_own_and_spare(a), _own_and_spare(b)), key=lambda name: len(name[0]))
    (short, aside), (long, long_aside) = names
    if all(_generic(word) for word in short) or len(long) > _LONGEST_NAME:
        return False
    return _reads_as(short, frozenset(aside + long_aside), long)


def _own_and_spare(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A name's words, and apart the words that need no partner in the other name: those after an "@" (the
    conference a workshop was held with) and those in parentheses (its acronym and year: "(SemEval-2017)")."""
    own, _, host = name.partition("@")
    asides = " ".join(_ASIDE.findall(own))
    return tuple(_words(_ASIDE.sub(" ", own))), tuple(_words(f"{host} {asides}"))
