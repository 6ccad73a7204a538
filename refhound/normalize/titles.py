"""Titles: a clean display form, and a comparison key that ignores case, punctuation, accents and articles."""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import Indel

from refhound.normalize.text import fold, latex_to_unicode

_QUOTES = "\"'“”‘’«»„‟‹›`"
_TRAILING = re.compile(r"\s*[.,;:]+$")
# A word broken at a line end ("multi- task"); not "pre- and post-training", where the hyphen is meant.
_LINE_BREAK_HYPHEN = re.compile(r"(\w)[-‐‑]\s+(?!(?:and|or|nor|to|vs|versus)\b)(?=\w)")
# Hyphens inside a word are dropped so "pre-training" and "pretraining" give one key.
_WORD_HYPHEN = re.compile(r"(?<=\w)[-‐‑–](?=\w)")
_APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)")
_NON_WORD = re.compile(r"[\W_]+")
_ARTICLES = frozenset({"a", "an", "the"})


def clean_title(text: str) -> str:
    """Display form: LaTeX decoded, whitespace collapsed, outer quotes and a trailing period/comma removed."""
    out = latex_to_unicode(text)
    while True:
        before = out
        out = _TRAILING.sub("", out).strip()
        if len(out) >= 2 and out[0] in _QUOTES and out[-1] in _QUOTES:
            out = out[1:-1].strip()
        if out == before:
            return out


@lru_cache(maxsize=1 << 16)
def title_key(text: str) -> str:
    """Comparison key: folded tokens without punctuation or articles; equal keys mean the same title."""
    out = fold(latex_to_unicode(text))
    out = _LINE_BREAK_HYPHEN.sub(r"\1", out)
    out = _WORD_HYPHEN.sub("", out)
    out = _APOSTROPHE.sub("", out)
    return " ".join(token for token in _NON_WORD.sub(" ", out).split() if token not in _ARTICLES)


def title_tokens(text: str) -> list[str]:
    return title_key(text).split()


def title_similarity(a: str, b: str) -> float:
    """Similarity 0..1 of two titles' keys: normalized Indel similarity (rapidfuzz's ``fuzz.ratio``).

    Character-level rather than token-level, so a typo or a joined word costs little while an added or
    dropped word costs its length; symmetric, and 1.0 exactly when the keys are equal.
    """
    key_a, key_b = title_key(a), title_key(b)
    if key_a == key_b:
        return 1.0
    return float(Indel.normalized_similarity(key_a, key_b))
