"""Titles: a clean display form, and a comparison key that ignores case, punctuation, accents and articles."""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import Indel

from refhound.normalize.text import fold, latex_to_unicode

_QUOTES = "\"'“”‘’«»„‟‹›`"
_TRAILING = re.compile(r"\s*[.,;:]+$")
# The next three open with the mark and look behind after it: the search then skips to the marks instead
# of testing a look-behind at every position (three to five times faster on titles).
# A word broken at a line end ("multi- task"); not "pre- and post-training", where the hyphen is meant.
_LINE_BREAK_HYPHEN = re.compile(r"[-‐‑](?<=\w[-‐‑])\s+(?!(?:and|or|nor|to|vs|versus)\b)(?=\w)")
# Hyphens inside a word are dropped so "pre-training" and "pretraining" give one key.
_WORD_HYPHEN = re.compile(r"[-‐‑–](?<=\w[-‐‑–])(?=\w)")
_APOSTROPHE = re.compile(r"['’](?<=\w['’])(?=\w)")
_NON_WORD = re.compile(r"[\W_]+")
_ARTICLES = frozenset({"a", "an", "the"})
_AMPERSAND = re.compile(r"\\?&")
# British spellings folded to American ones, for deciding that two titles are one: "optimisation",
# "analyse", "behaviour", "modelling", "dialogue", "centre". Applied to both titles alike, so a title
# may only be merged with one differing from it in these spellings alone. ("-wise" is no British spelling.)
_BRITISH_ENDINGS = (
    (r"is(?<=\w\wis)(?<!wis)(?=(?:e|es|ed|ing|ation|ations|er|ers)\b)", "iz"),
    (r"ys(?<=\w\wys)(?=(?:e|es|ed|ing|er|ers)\b)", "yz"),
    (r"our(?<=\w\w\wour)(?=(?:s|ed|ing|ite|ites|able)?\b)", "or"),
    (r"ll(?<=\w\wll)(?=(?:ing|ed|er|ers)\b)", "l"),
    (r"ogue(?<=\w\wogue)(?=s?\b)", "og"),
    (r"tre(?<=\w\wtre)(?=s?\b)", "ter"),
)
# Greek letters by name, as titles without math write them: "β-VAEs" and "beta-VAEs" are one title.
_GREEK_NAMES = str.maketrans({
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi",
    "ο": "omicron", "π": "pi", "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon",
    "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
})  # fmt: skip
# One pass over a lower-case title for all of them (each alternative a group, its American spelling by
# group number). Each opens with its letters and looks behind after them, so the search skips to where
# they are instead of testing the look-behinds at every position (three times faster).
_BRITISH = re.compile("|".join(f"({pattern})" for pattern, _ in _BRITISH_ENDINGS))
_AMERICAN = tuple(american for _, american in _BRITISH_ENDINGS)


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
    return " ".join(token for token in _tokens(text) if token not in _ARTICLES)


@lru_cache(maxsize=1 << 16)
def _tokens(text: str) -> tuple[str, ...]:
    """The title's folded words, articles too (shared by `title_key` and `_glued`)."""
    out = fold(latex_to_unicode(text))
    out = _LINE_BREAK_HYPHEN.sub("", out)
    out = _WORD_HYPHEN.sub("", out)
    out = _APOSTROPHE.sub("", out)
    return tuple(_NON_WORD.sub(" ", out).split())


@lru_cache(maxsize=1 << 16)
def _compact(text: str, american: bool) -> str:
    """The key with "&" read as "and", Greek letters by name and no spaces: "few-shot", "few shot" and
    "fewshot" are one title.
    With `american`, British spellings are read as American ones ("modelling" as "modeling"), word by
    word with hyphens read as spaces, so that a word is folded alike however it is joined ("chunk-wise",
    "chunk wise")."""
    text = _AMPERSAND.sub(" and ", latex_to_unicode(text).lower().translate(_GREEK_NAMES))
    if american:
        text = _BRITISH.sub(_american, _WORD_HYPHEN.sub(" ", text))
    return numbers_as_digits(title_key(text)).replace(" ", "")


# Numbers titles write as words or in digits alike ("Three Things …", "3 Things …").
_NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate([
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    ])
}  # fmt: skip
_NUMBER_WORD_SET = frozenset(_NUMBER_WORDS)


def numbers_as_digits(key: str) -> str:
    """A title key (folded words) with the numbers zero to twenty in digits."""
    words = key.split()
    if _NUMBER_WORD_SET.isdisjoint(words):  # most titles: a set test, 4x cheaper than a regex pass
        return key
    return " ".join(_NUMBER_WORDS.get(word, word) for word in words)


def _american(ending: re.Match[str]) -> str:
    return _AMERICAN[(ending.lastindex or 1) - 1]  # every alternative is a group: lastindex is set


def same_title(a: str, b: str) -> bool:
    """Whether two titles are one, written another way (case, punctuation, accents, articles, markup,
    hyphens and spaces, "&", Greek letters or their names, British or American spelling)."""
    return (
        _compact(a, False) == _compact(b, False)
        or _compact(a, True) == _compact(b, True)
        or _glued(a) == _glued(b)
    )


@lru_cache(maxsize=1 << 16)
def _glued(text: str) -> str:
    """The title's words, articles too, with no space: a space lost at a line break may glue an article
    to its neighbour ("Modelingthe Engagement …"), which the key, without articles, cannot undo."""
    return "".join(_tokens(_AMPERSAND.sub(" and ", text)))


# Where a subtitle starts: a colon, question or exclamation mark, a dash between spaces, or a full stop.
_SUBTITLE = re.compile(r"\s*(?:[:?!]|\s[-–—]{1,2}\s|\.\s)\s*")
# A main title this short ("Introduction", "Deep learning") is no evidence of one work.
_MIN_MAIN_TITLE_WORDS = 3
# A title left without the one-word name before its colon still names its work when the rest is this long:
# the judge's `specific_title_words` default, from which on a title names one work.
_MIN_REST_WITHOUT_NAME = 6


# A note or a translation in brackets closing a title: "… (Student Abstract)", "中文标题(English Title)".
_BRACKETED_END = re.compile(r"^(?P<before>.*[^\s(])\s*\((?P<inside>[^()]+)\)\W*$")


def main_title_of(a: str, b: str) -> bool:
    """Whether one title is the other without its subtitle: "How contextual are contextualized word
    representations?" for "… representations? Comparing the geometry of BERT, ELMo, and GPT-2 embeddings";
    or without a lead-in of several words: "Description of the FASTUS System …" for "SRI International:
    Description of the FASTUS System …" (an article type, "Survey Article: …", or a site's name before its
    report), or of one word before a rest of six words or more ("Unsupervised dual learning for
    image-to-image translation" for "DualGAN: …"); or either part of a title closed by brackets: without a
    note ("(Student Abstract)"), or one language of a bilingual title. The shorter title must have at least
    three words."""
    shorter, longer = sorted((a, b), key=len)
    if len(title_tokens(shorter)) < _MIN_MAIN_TITLE_WORDS:
        return False
    parts = _SUBTITLE.split(longer.strip(), maxsplit=1)
    if len(parts) == 2 and parts[1].strip():
        # A lead-in is words of its own ("SRI International", "Survey Article"). One word before the colon
        # is the work's name ("BERT: Pre-training of …"), which citations leave out too ("Squibs: …",
        # "DualGAN: …"), but only a rest long enough to name one work still names it.
        named_by_rest = len(title_tokens(parts[1])) >= _MIN_REST_WITHOUT_NAME
        lead_in = (len(title_tokens(parts[0])) > 1 or named_by_rest) and same_title(parts[1], shorter)
        if lead_in or same_title(parts[0], shorter):
            return True
    bracketed = bracketed_end(longer)
    return bracketed is not None and any(same_title(part, shorter) for part in bracketed)


def name_before_colon(cited: str, found: str) -> bool:
    """Whether the cited title is the found one's short name alone, the words before its colon ("GIAnT" for
    "GIAnT: Visualizing Group Interaction at Large Wall Displays"), as a reference manager's short title
    keeps it. Too short to name one work ("Introduction", "Deep learning"): only with an identifier that
    names the work (`main_title_of` takes main titles long enough to name it alone)."""
    parts = _SUBTITLE.split(found.strip(), maxsplit=1)
    key = title_key(cited)
    return len(parts) == 2 and bool(parts[1].strip()) and bool(key) and title_key(parts[0]) == key


def bracketed_end(title: str) -> tuple[str, str] | None:
    """A title closed by brackets, split: ("SATNet: …", "Student Abstract"); None for any other title."""
    if ")" not in title:
        return None  # most titles: no need to match
    bracketed = _BRACKETED_END.match(title.strip())
    return (bracketed.group("before"), bracketed.group("inside")) if bracketed else None


def title_tokens(text: str) -> list[str]:
    return title_key(text).split()


def title_similarity(a: str, b: str) -> float:
    """Similarity 0..1 of two titles' keys: normalized Indel similarity (rapidfuzz's ``fuzz.ratio``).

    Character-level rather than token-level, so a typo or a joined word costs little while an added or
    dropped word costs its length; symmetric, and 1.0 exactly for the `same_title`.
    """
    if same_title(a, b):
        return 1.0
    return float(Indel.normalized_similarity(title_key(a), title_key(b)))
