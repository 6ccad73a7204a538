"""Where each entry and each of its fields stands in a `.bib` file's text, so that a fix can replace one
value and leave every other character (spacing, delimiters, field order, comments) as it was."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from refhound.bibtex import LINE_OPEN

_NAME = re.compile(r"\s*([A-Za-z][\w:.+-]*)\s*=\s*")
_KEY = re.compile(r"\s*([^\s,]+)\s*,")
_BARE = re.compile(r"[^\s,#{}\"]+")


@dataclass
class FieldSpan:
    name: str  # as written (case kept)
    start: int  # the field's name
    value_start: int
    value_end: int
    delimiter: str  # "{", '"' or "" (a number or a macro, or a concatenation)


@dataclass
class EntrySpan:
    entry_type: str  # as written
    type_start: int
    key: str
    start: int  # the "@"
    end: int  # after the closing delimiter
    fields: list[FieldSpan] = field(default_factory=list)

    def find(self, name: str) -> FieldSpan | None:
        return next((f for f in self.fields if f.name.lower() == name), None)


def _group_end(text: str, pos: int, closer: str) -> int:
    """The index after the delimiter closing the value opened at `text[pos]`."""
    depth = 0
    i = pos + 1
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            if depth == 0 and closer == "}":
                return i + 1
            depth -= 1
        elif char == '"' and closer == '"' and depth == 0:
            return i + 1
        i += 1
    raise ValueError("unclosed value")


def _value_end(text: str, pos: int) -> tuple[int, str]:
    """The end of the value starting at `pos` (concatenations with `#` included) and its delimiter."""
    delimiters: list[str] = []
    while True:
        char = text[pos] if pos < len(text) else ""
        if char in '{"':
            pos = _group_end(text, pos, "}" if char == "{" else '"')
            delimiters.append(char)
        elif bare := _BARE.match(text, pos):
            pos = bare.end()
            delimiters.append("")
        else:
            raise ValueError("no value")
        after = re.compile(r"\s*#\s*").match(text, pos)
        if not after:
            return pos, delimiters[0] if len(delimiters) == 1 else ""
        pos = after.end()


def _entry(text: str, at: int, entry_type: str, type_start: int, opener_pos: int) -> EntrySpan | None:
    closer = "}" if text[opener_pos] == "{" else ")"
    key = _KEY.match(text, opener_pos + 1)
    if not key:
        return None
    span = EntrySpan(entry_type=entry_type, type_start=type_start, key=key.group(1), start=at, end=at)
    pos = key.end()
    while True:
        name = _NAME.match(text, pos)
        if not name:
            break
        value_start = name.end()
        try:
            value_end, delimiter = _value_end(text, value_start)
        except (ValueError, IndexError):
            return None
        span.fields.append(FieldSpan(name.group(1), name.start(1), value_start, value_end, delimiter))
        comma = re.compile(r"\s*,").match(text, value_end)
        pos = comma.end() if comma else value_end
        if not comma:
            break
    close = re.compile(r"\s*" + re.escape(closer)).match(text, pos)
    if not close:
        return None
    span.end = close.end()
    return span


def entry_spans(text: str) -> dict[str, EntrySpan]:
    """Every well-formed entry of `text` by key (the first one of a key: BibTeX's); a block this reader
    cannot follow is left out, and a fix leaves it untouched."""
    spans: dict[str, EntrySpan] = {}
    for match in LINE_OPEN.finditer(text):
        entry_type = match.group(1)
        if entry_type.lower() in ("comment", "string", "preamble"):
            continue
        at = text.index("@", match.start())
        span = _entry(text, at, entry_type, match.start(1), match.end() - 1)
        if span is not None:
            spans.setdefault(span.key, span)
    return spans


def duplicate_keys(text: str) -> set[str]:
    """Keys that open more than one entry (the BibTeX reader keeps one of them and reports the other)."""
    seen: set[str] = set()
    twice: set[str] = set()
    for match in LINE_OPEN.finditer(text):
        if match.group(1).lower() in ("comment", "string", "preamble"):
            continue
        key = _KEY.match(text, match.end())
        if key:
            (twice if key.group(1) in seen else seen).add(key.group(1))
    return twice


@dataclass(frozen=True)
class Style:
    """How an entry writes its fields, for a field it does not have yet."""

    indent: str
    equals: str  # " = " or "="
    delimiter: str
    name_case: str  # "lower", "upper" or "title"


def style_of(text: str, span: EntrySpan) -> Style:
    if not span.fields:
        return Style("  ", " = ", "{", "lower")
    first = span.fields[0]
    line_start = text.rfind("\n", 0, first.start) + 1
    indent = text[line_start : first.start] if line_start > span.start else "  "
    equals = text[first.start + len(first.name) : first.value_start]
    delimiters = Counter(f.delimiter for f in span.fields if f.delimiter)
    names = [f.name for f in span.fields]
    case = (
        "upper"
        if all(n.isupper() for n in names)
        else "title"
        if all(n[0].isupper() for n in names)
        else "lower"
    )
    return Style(
        indent if indent.strip() == "" else "  ",
        equals.replace("\n", " ") or " = ",
        delimiters.most_common(1)[0][0] if delimiters else "{",
        case,
    )


def cased(name: str, style: Style) -> str:
    return (
        name.upper() if style.name_case == "upper" else name.title() if style.name_case == "title" else name
    )
