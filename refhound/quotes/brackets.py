"""Bracketed alterations: "[T]he court", "[the defendant] argued", "recogni[z]ed".

A bracket is the quoting writer's own text standing in for a short span of the source (a pronoun made a
name, a capital made small). It is compiled, per source, to a regular expression over the normalized source
in which the literal parts must match exactly and each bracket matches a short span: as whole words when it
stands alone, up to `max_chars` characters with no sentence or clause punctuation in them; within a word
when it is glued to one ("[T]he", "recogni[z]ed", "walk[ed]"), its own text or at most
`_GLUED_MAX_CHARS` characters — a glued bracket mends a letter or an ending, it never swaps a part of a word
("[over]estimated" for "underestimated", "care[less]" for "careful"); and nothing at all at the edges of the
quote (an edge bracket adds to the quote; it replaces nothing). A bracket whose text the source itself
prints in brackets ("[15]", a citation copied with the passage) is no alteration and must be there,
literally.

Of the matches the expression allows, the shortest is taken (the latest start), so a bracket never stands
for more than it must; the guard then compares the bracket's words with the span's, which is what keeps an
inserted "[not]" or a "[2020]" for "2019" from passing.

The search anchors on the longest literal part (plain `str.find`) and runs the expression only in a window
around each occurrence, so a 300 KB source costs a few finds, not a regex scan from every position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from refhound.quotes.normalize import at_word_edges, normalize

BRACKET = re.compile(r"\[([^\[\]\n]{0,80})\]")
_NOT_WORD_BEFORE = r"(?<![^\W_])"
_NOT_WORD_AFTER = r"(?![^\W_])"
# A bracket stands for words: never across a sentence or clause end, nor for the source's own bracketed
# text (a quote's "[a simple brand]" where the source prints "[a particular brand]" is a changed copy).
_SPAN_CHARS = r"[^.!?;:\n\[\]]"
_WORD_CHARS = r"[^ .!?;:\[\]]"  # … and a bracket glued to a word stands for part of that word
_MAX_ANCHORS = 5000  # occurrences of the anchor tried before giving up
_MIN_ANCHOR = 3
_EDGE = " .,;:!?\"'"
_STAND_IN = "\u01c2"  # a letter no quote has (Latin letter alveolar click)
_GLUED_MAX_CHARS = 2  # of a word a bracket glued to it stands for, unless it is the bracket's own text


@dataclass(frozen=True)
class BracketPattern:
    """A compiled quote fragment with brackets; `anchor` is its longest literal part (normalized)."""

    regex: re.Pattern[str]
    anchor: str
    before: int  # most normalized characters a match can have before the anchor
    after: int  # … and after it


def has_brackets(text: str) -> bool:
    return BRACKET.search(text) is not None


def flatten(text: str) -> str:
    """The quote as the reader takes it: brackets dropped, their words kept ("[T]he" → "The")."""
    return BRACKET.sub(lambda match: match.group(1), text)


def _slot(left: str, right: str, content: str, literal: str | None, max_chars: int) -> tuple[str, str, str]:
    """The slot's regex, and the neighbouring literal parts with the spaces the slot takes over.

    `content` is the bracket's text, normalized; `literal` the bracket as normalized text when the source
    prints it (then only it matches)."""
    left_glued = bool(left) and not left[-1].isspace()
    right_glued = bool(right) and not right[0].isspace()
    if left_glued or right_glued:
        if literal is not None:
            core = re.escape(literal)
        else:
            core = f"(?:{_WORD_CHARS}{{0,{_GLUED_MAX_CHARS}}}?|{re.escape(content)})"
        before = "" if left_glued else _NOT_WORD_BEFORE
        after = "" if right_glued else _NOT_WORD_AFTER
        return before + core + after, left, right
    left, right = left.rstrip(" "), right.lstrip(" ")
    if left and right:
        if literal is not None:
            return f" {re.escape(literal)} ", left, right
        return f"(?: {_SPAN_CHARS}{{1,{max_chars}}}?)?? ", left, right
    if literal is None:
        return "", left, right  # an edge bracket adds to the quote and replaces nothing
    if right:
        return f"{re.escape(literal)} ", left, right
    return (f" {re.escape(literal)}" if left else re.escape(literal)), left, right


def compile_fragment(fragment: str, max_chars: int, source: str) -> BracketPattern | None:
    """The pattern for a fragment with brackets against the normalized `source`, or None when the fragment
    has no literal text to anchor on."""
    pieces = BRACKET.split(fragment)
    # Normalized whole, with a letter standing in for each bracket, so that what normalization does next
    # to a bracket is what it does to the source there: "[e]-mail" meets "e-mail" as "email" does.
    flat = normalize(_STAND_IN.join(pieces[0::2])).text
    literals = flat.split(_STAND_IN)
    contents = [normalize(content).text for content in pieces[1::2]]
    brackets = [f"[{content}]" for content in contents]
    if literals:
        literals[0] = literals[0].lstrip(_EDGE)
        literals[-1] = literals[-1].rstrip(_EDGE)
    slots: list[str] = []
    for index, bracket in enumerate(brackets):
        printed = bracket if bracket in source else None
        slot, literals[index], literals[index + 1] = _slot(
            literals[index], literals[index + 1], contents[index], printed, max_chars
        )
        slots.append(slot)
    if not any(literal.strip() for literal in literals):
        return None
    anchor_index = max(range(len(literals)), key=lambda i: len(literals[i].strip()))
    regex_parts: list[str] = []
    for index, literal in enumerate(literals):
        regex_parts.append(re.escape(literal))
        if index < len(slots):
            regex_parts.append(slots[index])
    room = max_chars + 2
    anchor = literals[anchor_index]
    before = sum(len(x) for x in literals[:anchor_index]) + anchor_index * room
    after = sum(len(x) for x in literals[anchor_index + 1 :]) + len(slots[anchor_index:]) * room
    before += len(anchor) - len(anchor.lstrip(" "))
    after += len(anchor) - len(anchor.rstrip(" "))
    return BracketPattern(re.compile("".join(regex_parts), re.DOTALL), anchor.strip(" "), before, after)


def _is_word_start(text: str, position: int) -> bool:
    return position < len(text) and (position == 0 or not text[position - 1].isalnum())


def _shortest(pattern: BracketPattern, text: str, start: int, end: int, high: int) -> tuple[int, int]:
    """The match made as short as it can be by starting at a later word (brackets span less)."""
    best = (start, end)
    for position in range(start + 1, end):
        if not _is_word_start(text, position):
            continue
        match = pattern.regex.match(text, position, high)
        if match is not None and match.end() > match.start() and at_word_edges(text, *match.span()):
            best = match.span()
    return best


def _in_window(pattern: BracketPattern, text: str, low: int, high: int) -> tuple[int, int] | None:
    position = low
    while (match := pattern.regex.search(text, position, high)) is not None:
        if match.end() > match.start() and at_word_edges(text, match.start(), match.end()):
            return _shortest(pattern, text, match.start(), match.end(), high)
        position = match.start() + 1
    return None


def search(pattern: BracketPattern, text: str, start: int = 0) -> tuple[int, int] | None:
    """The first match at or after `start` in the normalized `text`, as (start, end), or None."""
    if len(pattern.anchor) < _MIN_ANCHOR:
        return _in_window(pattern, text, start, len(text))
    occurrence = text.find(pattern.anchor, start)
    tried = 0
    while occurrence >= 0 and tried < _MAX_ANCHORS:
        tried += 1
        low = max(start, occurrence - pattern.before - 1)
        high = min(len(text), occurrence + len(pattern.anchor) + pattern.after + 1)
        found = _in_window(pattern, text, low, high)
        if found is not None:
            return found
        occurrence = text.find(pattern.anchor, occurrence + 1)
    return None
