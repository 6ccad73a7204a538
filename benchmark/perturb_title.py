"""Title errors of the CiteAudit taxonomy: a keyword substituted, the title paraphrased, or a new title
fabricated from the topic of the record's venue.

Each function takes a real record's `Cited` fields and returns them with a wrong title and a note saying what
changed, or None when the record's title does not lend itself to that error (the generator then takes
another record). A change the DESIGN counts as benign — case, punctuation, articles, hyphenation, i.e. the
same title key — is never returned: that would be a correct citation labelled hallucinated.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from refhound.benchmark.sample import Cited, IndexSampler, Pools
from refhound.normalize.titles import title_key

_WORD = re.compile(r"^([^\w]*)([A-Za-z][A-Za-z-]*[A-Za-z])([^\w]*)$")
# Words that carry no topic: never replaced, never offered as a replacement.
_FUNCTION_WORDS = frozenset({
    "a", "an", "the", "of", "for", "and", "or", "in", "on", "to", "with", "by", "from", "via", "at", "as",
    "is", "are", "be", "its", "into", "over", "under", "through", "using", "based", "towards", "toward",
    "we", "our", "what", "how", "why", "when", "can", "do", "does", "not", "no", "between", "about",
    "against", "without",
})  # fmt: skip
_MIN_VOCABULARY = 30
_ATTEMPTS = 20

# Word groups a paraphrase may swap: close enough in meaning that the citation reads as the same work,
# different enough that the title's words are wrong (never spelling variants such as "toward(s)").
_SYNONYM_GROUPS = (
    ("approach", "method", "technique"),
    ("approaches", "methods", "techniques"),
    ("improving", "enhancing", "boosting"),
    ("improve", "enhance", "boost"),
    ("improved", "enhanced"),
    ("efficient", "fast"),
    ("robust", "resilient"),
    ("automatic", "automated"),
    ("novel", "new"),
    ("evaluation", "assessment"),
    ("evaluating", "assessing"),
    ("generation", "synthesis"),
    ("understanding", "comprehension"),
    ("exploring", "investigating", "examining"),
    ("study", "investigation"),
    ("classification", "categorization"),
    ("prediction", "forecasting"),
    ("recognition", "identification"),
    ("detecting", "identifying"),
    ("framework", "paradigm"),
    ("simple", "straightforward"),
    ("unified", "joint"),
    ("accurate", "precise"),
    ("scalable", "large-scale"),
    ("leveraging", "exploiting"),
    ("task", "problem"),
    ("tasks", "problems"),
    ("system", "architecture"),
    ("using", "leveraging"),
)
_SYNONYMS = {word: [w for w in group if w != word] for group in _SYNONYM_GROUPS for word in group}
# "Image Segmentation using Graph Cuts" -> "Graph Cuts for Image Segmentation", and back.
_CONNECTIVE = re.compile(r"^(.+?)\s+(using|via|with|through|for)\s+(.+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Perturbed:
    """A citation with one error put in, and a note for the JSONL's `perturbation` field."""

    cited: Cited
    note: str


@dataclass
class TitleVocabulary:
    """Real titles and their content words, per venue series, for title errors that stay on topic.

    A venue series with fewer than `_MIN_VOCABULARY` titles in the pools borrows from all of them.
    """

    pools: Pools
    _words: dict[str, list[str]] = field(default_factory=dict)

    def titles(self, venue_key: str | None) -> list[str]:
        titles: list[str] = self.pools.titles_by_venue.get(venue_key or "", [])
        if len(titles) >= _MIN_VOCABULARY:
            return titles
        return [t for ts in self.pools.titles_by_venue.values() for t in ts]

    def words(self, venue_key: str | None) -> list[str]:
        key = venue_key or ""
        if key not in self._words:
            self._words[key] = sorted({w for t in self.titles(venue_key) for w in _content_words(t)})
        return self._words[key]


def _content_words(title: str) -> list[str]:
    out = []
    for token in title.split():
        match = _WORD.match(token)
        if match and len(match.group(2)) >= 4 and match.group(2).lower() not in _FUNCTION_WORDS:
            out.append(match.group(2))
    return out


def _same_case(word: str, like: str) -> str:
    """`word` capitalised as `like` is: "graph" like "Neural" -> "Graph"; acronyms are kept."""
    if word.isupper() or any(c.isupper() for c in word[1:]):
        return word
    return word[:1].upper() + word[1:].lower() if like[:1].isupper() else word.lower()


def _changed(old: str, new: str) -> bool:
    return title_key(old) != title_key(new)


def keyword_substitution(
    c: Cited, rng: random.Random, vocabulary: TitleVocabulary, venue_key: str | None
) -> Perturbed | None:
    """One content word replaced (two in titles with six or more content words) by a content word of
    another title of the same venue series."""
    tokens = c.title.split(" ")
    slots = [
        i
        for i, t in enumerate(tokens)
        if (m := _WORD.match(t)) and m.group(2).lower() not in _FUNCTION_WORDS and len(m.group(2)) >= 4
    ]
    if not slots:
        return None
    words = vocabulary.words(venue_key)
    present = {t.lower() for t in _content_words(c.title)}
    swaps = []
    for i in rng.sample(slots, 2 if len(slots) >= 6 else 1):
        match = _WORD.match(tokens[i])
        assert match is not None
        choice = next(
            (w for w in (rng.choice(words) for _ in range(_ATTEMPTS)) if w.lower() not in present), None
        )
        if choice is None:
            return None
        new = _same_case(choice, match.group(2))
        swaps.append(f"{match.group(2)!r} -> {new!r}")
        tokens[i] = match.group(1) + new + match.group(3)
    title = " ".join(tokens)
    return (
        Perturbed(c.but(title=title), "title words replaced: " + ", ".join(swaps))
        if _changed(c.title, title)
        else None
    )


def _balanced(text: str) -> bool:
    """No bracket or quotation mark left open or closed alone: a piece that can be moved or joined."""
    pairs = (("(", ")"), ("[", "]"), ("{", "}"), ("“", "”"))
    return all(text.count(o) == text.count(c) for o, c in pairs) and text.count('"') % 2 == 0


def _swap_connective(text: str) -> str | None:
    match = _CONNECTIVE.match(text)
    if not match or len(match.group(1).split()) > 6 or len(match.group(3).split()) > 6:
        return None
    if not (_balanced(match.group(1)) and _balanced(match.group(3))):
        return None
    left, word, right = match.groups()
    joiner = "with" if word.lower() == "for" else "for"
    first = right[:1].upper() + right[1:]
    rest = left if left.split()[0].isupper() or len(left) < 2 else left[:1].lower() + left[1:]
    return f"{first} {joiner} {rest}"


def paraphrase(c: Cited, rng: random.Random) -> Perturbed | None:
    """The title (or its subtitle) reworded by rules: its two halves swapped around a connective ("A using
    B" -> "B for A") and/or words replaced by near-synonyms; without a swap at least two words must change,
    so that it reads as a rewording."""
    head, colon, tail = c.title.partition(": ")
    target_is_tail = bool(colon) and rng.random() < 0.5
    part = tail if target_is_tail else head
    notes = []
    swapped = _swap_connective(part)
    if swapped:
        part = swapped
        notes.append("halves swapped around a connective")
    tokens = part.split(" ")
    replaced = 0
    for i, token in enumerate(tokens):
        match = _WORD.match(token)
        alternatives = _SYNONYMS.get(match.group(2).lower(), []) if match else []
        if match and alternatives:
            tokens[i] = match.group(1) + _same_case(rng.choice(alternatives), match.group(2)) + match.group(3)
            replaced += 1
    if replaced:
        notes.append(f"{replaced} word(s) replaced by near-synonyms")
    part = " ".join(tokens)
    if not swapped and replaced < 2:
        return None
    title = f"{head}: {part}" if target_is_tail else (f"{part}: {tail}" if colon else part)
    return (
        Perturbed(c.but(title=title), "title paraphrased: " + "; ".join(notes))
        if _changed(c.title, title)
        else None
    )


def _halves(title: str) -> tuple[str, str] | None:
    """The title cut in two at its first separator, else in the middle (never right after a function word);
    None when a half would leave a bracket or quotation mark unmatched."""
    for separator in (": ", " for ", " with ", " using ", " via "):
        left, found, right = title.partition(separator)
        if found and left and right:
            break
    else:
        words = title.split()
        if len(words) < 4:
            return None
        middle = len(words) // 2
        while middle < len(words) - 1 and words[middle - 1].lower() in _FUNCTION_WORDS:
            middle += 1
        left, right, separator = " ".join(words[:middle]), " ".join(words[middle:]), " "
    return (left, separator + right) if _balanced(left) and _balanced(right) else None


def topic_fabrication(
    c: Cited,
    rng: random.Random,
    vocabulary: TitleVocabulary,
    venue_key: str | None,
    exists: Callable[[str], bool],
) -> Perturbed | None:
    """A new title in the venue's topic: the first half of one real title of the venue joined to the second
    half of another ("Neural Architecture Search" + " for Low-Resource Speech Recognition"); never a title the
    index holds."""
    titles = vocabulary.titles(venue_key)
    for _ in range(_ATTEMPTS):
        first, second = rng.choice(titles), rng.choice(titles)
        a, b = _halves(first), _halves(second)
        if a is None or b is None or first == second:
            continue
        title = a[0] + b[1]
        if _changed(c.title, title) and not exists(title):
            return Perturbed(c.but(title=title), f"title fabricated from {first!r} and {second!r}")
    return None


def title_error(
    kind: str,
    c: Cited,
    rng: random.Random,
    vocabulary: TitleVocabulary,
    venue_key: str | None,
    sampler: IndexSampler,
) -> Perturbed | None:
    """Apply the title error `kind` (one of `TITLE_ERRORS`)."""
    if kind == "title_keyword_substitution":
        return keyword_substitution(c, rng, vocabulary, venue_key)
    if kind == "title_paraphrase":
        return paraphrase(c, rng)
    if kind == "title_topic_fabrication":
        return topic_fabrication(c, rng, vocabulary, venue_key, sampler.title_exists)
    raise ValueError(f"unknown title error {kind!r}")


TITLE_ERRORS = ("title_keyword_substitution", "title_paraphrase", "title_topic_fabrication")
