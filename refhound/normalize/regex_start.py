"""How a regular expression's match can start, read from the standard library's own parse: the characters
it can start with, and the literal text it always starts with.

A large table of patterns matched at many positions (the venue table) need not try every pattern at each
one: only those that can start with the position's character and whose literal start is there. Anything
this reading does not follow (classes such as ``\\w``, look-arounds, a pattern that may match the empty
string) counts as "any character" and no literal start, so the patterns tried always include every one
that matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any


@dataclass(frozen=True)
class Start:
    """What one parse of a pattern tells: the characters a match must start with (None: any, or nothing),
    the text every match starts with ("" when none is certain) and how many capturing groups it has."""

    characters: frozenset[str] | None
    groups: int
    literal: str = ""


def read_start(pattern: str) -> Start:
    """The start of `pattern`; a pattern that does not parse is re.error, as for re.compile."""
    parsed = sre_parse.parse(pattern)
    groups = parsed.state.groups - 1  # the parser counts the whole match as group 0
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return Start(None, groups)
    return Start(_first(list(parsed)), groups, _literal(list(parsed)))


def _literal(items: Sequence[tuple[Any, Any]]) -> str:
    """The literal characters the pattern begins with, after zero-width anchors (^, \\b)."""
    chars: list[str] = []
    for op, arg in items:
        if op is sre.AT and not chars:
            continue
        if op is not sre.LITERAL:
            break
        chars.append(chr(arg))
    return "".join(chars)


def _first(items: Sequence[tuple[Any, Any]]) -> frozenset[str] | None:
    chars: set[str] = set()
    for op, arg in items:
        if op is sre.AT:  # ^, \b: zero width, the next item starts the match
            continue
        if op is sre.LITERAL:
            return frozenset(chars | {chr(arg)})
        if op is sre.IN:
            members = _class_members(arg)
            return None if members is None else frozenset(chars | members)
        if op is sre.BRANCH:
            inner = _union(_first(list(alternative)) for alternative in arg[1])
            return None if inner is None else frozenset(chars | inner)
        if op is sre.SUBPATTERN:
            _, added_flags, _, body = arg
            if added_flags & re.IGNORECASE:  # (?i:…): a letter stands for both its cases
                return None
            inner = _first(list(body))
            return None if inner is None else frozenset(chars | inner)
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            least, _, body = arg
            inner = _first(list(body))
            if inner is None:
                return None
            chars |= inner
            if least == 0:  # optional: what follows may start the match as well
                continue
            return frozenset(chars)
        return None  # look-arounds, group references, categories: not followed
    return None  # every item optional: the match may be empty


def _union(parts: Iterable[frozenset[str] | None]) -> frozenset[str] | None:
    out: set[str] = set()
    for part in parts:
        if part is None:
            return None
        out |= part
    return frozenset(out)


def _class_members(items: Sequence[tuple[Any, Any]]) -> set[str] | None:
    members: set[str] = set()
    for op, arg in items:
        if op is sre.LITERAL:
            members.add(chr(arg))
        elif op is sre.RANGE:
            members.update(chr(code) for code in range(arg[0], arg[1] + 1))
        else:  # a negated class, a category such as \d
            return None
    return members
