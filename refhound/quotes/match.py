"""Locating one quote in one source, in layers from the strictest to the loosest.

1. exact — the quote's text as it stands, at word edges;
2. normalized — quote and dash characters, case, whitespace and line breaks, PDF hyphenation, trailing
   punctuation forgiven (see `normalize`);
3. ellipsis — "…", "...", ". . ." and "[...]" split the quote into fragments that must all appear, in order,
   each at most `ellipsis_max_gap_chars` after the previous one;
4. brackets — "[T]he", "[the defendant]" stand for any short span (see `brackets`);
5. fuzzy — the closest span within an edit-distance bound (see `fuzzy`): `near_match` at best.

Layers 1–4 can verify; each of their matches goes through the guard (numbers, dates, negations, modal
verbs of quote and span must agree; an ellipsis must not drop a "not" or a "may" from the clause it cuts),
and a match the guard objects to is reported as `near_match` with the reason. The whole source is searched
at once, never in chunks, so a quote that straddles a page or paragraph break is found like any other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Literal

from refhound.quotes import brackets
from refhound.quotes.fuzzy import GramIndex, describe_differences, fuzzy_find
from refhound.quotes.guard import (
    ALTERATIONS,
    Alteration,
    Difference,
    entity_differences,
    match_findings,
    omitted_findings,
)
from refhound.quotes.models import Layer, Located
from refhound.quotes.normalize import NormText, find_word_aligned, normalize, normalize_needle
from refhound.settings import QuotesSettings

ELLIPSIS = re.compile(r"\s*(?:\[\s*(?:\u2026|\.(?:\s?\.){2})\s*\]|\u2026|\.(?:\s?\.){2,3})\s*")
_MAX_TRIES = 200  # fragment look-ups when placing an elided quote's fragments
_HAS_TEXT = re.compile(r"\w")


class Haystack:
    """A source's text, normalized once (lazily) and shared by every quote checked against it."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def norm(self) -> NormText:
        return normalize(self.text)

    @cached_property
    def grams(self) -> GramIndex:
        return GramIndex(self.norm.text)


@dataclass(frozen=True)
class Outcome:
    status: Literal["verified", "near_match", "not_found"]
    located: Located | None
    note: str
    alterations: tuple[Alteration, ...] = ()


def kinds(differences: list[Difference]) -> tuple[Alteration, ...]:
    """The kinds of `differences`, each once, in `ALTERATIONS`' order."""
    found = {item.kind for item in differences}
    return tuple(kind for kind in ALTERATIONS if kind in found)


def fragments_of(quote: str) -> list[str]:
    """The parts of a quote between ellipses (a leading or trailing ellipsis only says it is partial)."""
    return [part for part in ELLIPSIS.split(quote.strip()) if _HAS_TEXT.search(part)]


def _guarded(layer: Layer, note: str, quote: str, hay: Haystack, start: int, end: int) -> Outcome:
    """A strict layer's match, verified unless the guard finds a difference."""
    differences = match_findings(brackets.flatten(quote), hay.text, start, end)
    located = Located(layer, start, end)
    if differences:
        shown = "; ".join(item.text for item in differences)
        return Outcome("near_match", located, f"{layer} match, but {shown}", kinds(differences))
    return Outcome("verified", located, note)


def locate(quote: str, hay: Haystack, settings: QuotesSettings) -> Outcome:
    """Where `quote` is in `hay`, by the first layer that finds it (see the module docstring)."""
    text = quote.strip()
    fragments = fragments_of(text)
    if not fragments:
        return Outcome("not_found", None, "the quote has no words to look for")
    position = find_word_aligned(hay.text, text)
    if position >= 0:
        return _guarded("exact", "exact", text, hay, position, position + len(text))
    norm = hay.norm
    needle = normalize_needle(text)
    position = find_word_aligned(norm.text, needle)
    if position >= 0:
        start, end = norm.to_original(position, position + len(needle))
        note = "normalized (spacing, case, quote or dash characters, hyphenation)"
        return _guarded("normalized", note, text, hay, start, end)
    if len(fragments) > 1 or brackets.has_brackets(text):
        structural = _structural(fragments, hay, settings)
        if structural is not None:
            return structural  # verified, or the guard's near_match with its reason
    fuzzy = _fuzzy(fragments, hay, settings)
    if fuzzy is not None:
        return fuzzy
    return Outcome("not_found", None, "not in the source, not even approximately")


# --- ellipsis and brackets ------------------------------------------------------------------------------

_Finder = str | brackets.BracketPattern


def _compile(fragments: list[str], settings: QuotesSettings, source: str) -> list[_Finder] | None:
    finders: list[_Finder] = []
    for fragment in fragments:
        if brackets.has_brackets(fragment):
            pattern = brackets.compile_fragment(fragment, settings.bracket_max_chars, source)
            if pattern is None:
                return None
            finders.append(pattern)
        else:
            finders.append(normalize_needle(fragment))
    return finders


def _find(finder: _Finder, norm: NormText, start: int) -> tuple[int, int] | None:
    if isinstance(finder, str):
        position = find_word_aligned(norm.text, finder, start)
        return (position, position + len(finder)) if position >= 0 else None
    return brackets.search(finder, norm.text, start)


def _structural(fragments: list[str], hay: Haystack, settings: QuotesSettings) -> Outcome | None:
    """The ellipsis and bracket layers: every fragment in order; verified if the guard agrees."""
    norm = hay.norm
    finders = _compile(fragments, settings, norm.text)
    if finders is None:
        return None
    layer: Layer = "ellipsis" if len(fragments) > 1 else "brackets"
    fallback: Outcome | None = None
    budget = [_MAX_TRIES]
    for spans in _placements(finders, norm, settings.ellipsis_max_gap_chars, 0, [], budget):
        outcome = _judge_spans(layer, fragments, spans, hay)
        if outcome.status == "verified":
            return outcome
        fallback = fallback or outcome
    return fallback


def _placements(
    finders: list[_Finder],
    norm: NormText,
    max_gap: int,
    start: int,
    spans: list[tuple[int, int]],
    budget: list[int],
) -> Iterator[list[tuple[int, int]]]:
    """Every way (within `budget` look-ups) to place the fragments in order, each within `max_gap` of the
    one before: a short fragment ("He") can occur more than once, and only one placement may pass the
    guard."""
    finder = finders[len(spans)]
    position = start
    while budget[0] > 0:
        budget[0] -= 1
        found = _find(finder, norm, position)
        if found is None or (spans and found[0] - spans[-1][1] > max_gap):
            return  # later occurrences are farther still
        placed = [*spans, found]
        if len(placed) == len(finders):
            yield placed
        else:
            yield from _placements(finders, norm, max_gap, found[1], placed, budget)
        position = found[0] + 1


def _judge_spans(layer: Layer, fragments: list[str], spans: list[tuple[int, int]], hay: Haystack) -> Outcome:
    norm = hay.norm
    original = [norm.to_original(start, end) for start, end in spans]
    problems: list[Difference] = []
    for fragment, (start, end) in zip(fragments, original, strict=True):
        problems.extend(match_findings(brackets.flatten(fragment), hay.text, start, end))
    for (_, gap_start), (gap_end, _) in pairwise(original):
        problems.extend(omitted_findings(hay.text[gap_start:gap_end]))
    located = Located(layer, original[0][0], original[-1][1])
    if problems:
        shown = "; ".join(dict.fromkeys(item.text for item in problems))
        return Outcome("near_match", located, f"{layer} match, but {shown}", kinds(problems))
    if layer == "ellipsis":
        note = f"ellipsis: {len(fragments)} fragments found in order"
        if any(brackets.has_brackets(fragment) for fragment in fragments):
            note += ", with bracketed alterations"
        return Outcome("verified", located, note)
    return Outcome("verified", located, "bracketed alteration(s) matched a short span")


# --- fuzzy ----------------------------------------------------------------------------------------------


def _fuzzy(fragments: list[str], hay: Haystack, settings: QuotesSettings) -> Outcome | None:
    """Every fragment located approximately, in order: `near_match` with the differing words."""
    norm = hay.norm
    start = 0
    located: list[tuple[str, int, int, int]] = []  # fragment, original start, end, distance
    for fragment in fragments:
        flat = brackets.flatten(fragment)
        needle = normalize_needle(flat)
        if not needle:
            continue
        hit = fuzzy_find(needle, norm, start, settings.fuzzy_max_ratio, hay.grams)
        if hit is None:
            return None
        if located and norm.to_original_start(hit.start) - located[-1][2] > settings.ellipsis_max_gap_chars:
            return None
        begin, end = norm.to_original(hit.start, hit.end)
        located.append((flat, begin, end, hit.distance))
        start = hit.end
    if not located:
        return None
    distance = sum(item[3] for item in located)
    size = sum(len(normalize_needle(item[0])) for item in located)
    notes = [f"fuzzy: {distance} edit(s), {distance / max(size, 1):.1%} of the quote"]
    differences: list[Difference] = []
    for flat, begin, end, _ in located:
        span = hay.text[begin:end]
        notes.append(describe_differences(flat, span))
        found = match_findings(flat, hay.text, begin, end) + entity_differences(flat, span)
        notes.extend(item.text for item in found)
        differences.extend(found)
    spot = Located("fuzzy", located[0][1], located[-1][2])
    return Outcome("near_match", spot, "; ".join(dict.fromkeys(notes)), kinds(differences))
