"""Plain-text input: a reference list as typed, pasted or exported (`.txt`, `.md`, anything textual).

The list is cut into references by, in order of preference: sequential numbering ("[1]", "1.", "(1)"),
list bullets, blank-line separated paragraphs, or else one reference per line, where a line that cannot
end a reference (no final period, a trailing hyphen) or that starts in lower case continues the previous
one. A word hyphenated at a line end is joined as `mend_broken_word` says ("bi-" + "directional" →
"bidirectional", "retrieval-" + "augmented" → "retrieval-augmented"). Each reference is then parsed by
`parse_reference_string`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from refhound.inputs.base import DECODE_ERRORS, InputRead, unreadable_entry
from refhound.inputs.screen import DEFAULT_LIMITS, EntryLimits, check_count, too_long
from refhound.models import InputProblem, Reference
from refhound.refstring import mend_broken_word, parse_reference_string

_HEADING = re.compile(
    r"^\s*(?:#+\s*)?(?:references|bibliography|works cited|literature(?: cited)?|sources|citations)\s*:?\s*$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^\s*(?:\[(\d{1,6})\]|\((\d{1,6})\)|(\d{1,6})[.)])\s+\S")
_BULLET = re.compile(r"^\s*[-*+•]\s+(?=\S)")
_CAN_END = re.compile(r"(?:[.?!)\]\d]|https?://\S+|\w/)\s*$")  # a line a reference can end with
_MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\((\S+?)\)")
_MARKDOWN_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,2}|_{1,2})(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_THREE_LETTERS = re.compile(r"[^\W\d_].*?[^\W\d_].*?[^\W\d_]")
_LAST_WORD = re.compile(r"([^\W_]+)-$")
_FIRST_WORD = re.compile(r"[^\W\d_]+")
# A line that opens with a family name's lower-case particles ("van der Goot, R.", "de Vries, A.") starts a
# reference although it starts in lower case.
_PARTICLE_NAME = re.compile(
    r"^(?:(?:van|von|der|den|de|del|della|di|da|dos|du|la|le|ter|ten)\s+)+[A-Z][\w'’-]*[,\s]"
)
# More lines than this a reference on average: the cue (labels, bullets, blank lines) is incidental, not
# what separates the references.
_LINES_PER_REFERENCE = 6


@dataclass
class _Chunk:
    line: int  # 1-based line where the reference starts
    lines: list[str]
    size: int = 0  # characters of its lines as written


def _numbered_starts(lines: list[str]) -> set[int]:
    """Lines that open a numbered reference: labels counting up by one.

    A wrapped line that starts with a year ("2019. BERT: …") neither interrupts the count nor starts it.
    """
    starts: set[int] = set()
    expected: int | None = None
    for index, line in enumerate(lines):
        match = _LABEL.match(line)
        if not match:
            continue
        number = int(next(g for g in match.groups() if g))
        if (expected is None and number < 1800) or number == expected:
            starts.add(index)
            expected = number + 1
    return starts


def _paragraph_starts(lines: list[str]) -> set[int]:
    return {i for i, line in enumerate(lines) if line.strip() and (i == 0 or not lines[i - 1].strip())}


def _separates(starts: set[int], lines: list[str]) -> bool:
    """Whether a cue's starts cut the list into references: at least two, of a few lines each on average
    (a list of one reference a line where two lines keep their "54." and "55." is not a numbered list)."""
    filled = sum(1 for line in lines if line.strip())
    return len(starts) >= 2 and len(starts) * _LINES_PER_REFERENCE >= filled


def _line_starts(lines: list[str]) -> set[int]:
    """One reference per line, except lines that continue the one before."""
    starts: set[int] = set()
    previous = ""
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        hanging_indent = line[:1].isspace() and not previous[:1].isspace()
        stripped = line.lstrip()
        lower_case = stripped[:1].islower() and not _PARTICLE_NAME.match(stripped)
        continues = bool(previous) and (not _CAN_END.search(previous) or lower_case or hanging_indent)
        if not continues:
            starts.add(index)
        previous = line
    return starts


def _join(lines: list[str]) -> str:
    """Lines of one reference on one line; a word broken at a line end is mended ("bi-" + "directional")."""
    parts: list[str] = []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        broken = _LAST_WORD.search(parts[-1]) if parts and line[:1].islower() else None
        first = _FIRST_WORD.match(line) if broken else None
        if broken and first:
            left, right = broken.group(1), first.group(0)
            parts[-1] = parts[-1][: broken.start()] + mend_broken_word(left, right)
            line = line[first.end() :]
        elif parts:
            parts.append(" ")
        parts.append(line)
    return "".join(parts)


def split_references(text: str, markdown: bool = False) -> list[tuple[int, str]]:
    """The reference strings of a plain-text list, each with the line it starts on."""
    return [(chunk.line, _join(chunk.lines)) for chunk in _chunks(text, markdown, None)]


def _chunks(text: str, markdown: bool, max_chars: int | None) -> list[_Chunk]:
    """The references of a plain-text list as lines. A line longer than `max_chars` is a chunk of its own,
    seen by no pattern (the line-end ones cost more than linear time on such a line), and kept as blank."""
    lines = text.splitlines()
    huge = {i: len(line) for i, line in enumerate(lines) if max_chars is not None and len(line) > max_chars}
    for index in huge:
        lines[index] = ""
    first = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if first < len(lines) and _HEADING.match(lines[first]):
        lines[first] = ""
    if markdown:
        lines = [_MARKDOWN_EMPHASIS.sub(r"\2", _MARKDOWN_LINK.sub(r"\1 \2", line)) for line in lines]
    bullets = {i for i, line in enumerate(lines) if _BULLET.match(line)}
    cues = (_numbered_starts(lines), bullets, _paragraph_starts(lines))
    starts = next((cue for cue in cues if _separates(cue, lines)), None) or _line_starts(lines)
    starts |= {*huge, *(_next_filled(lines, i) for i in huge)}
    chunks: list[_Chunk] = []
    for index, line in enumerate(lines):
        if index in starts:
            chunks.append(_Chunk(index + 1, [_BULLET.sub("", line)]))
        elif chunks:
            chunks[-1].lines.append(line)
        elif line.strip():
            chunks.append(_Chunk(index + 1, [line]))  # text before the first label: reported as a reference
        else:
            continue
        chunks[-1].size += huge.get(index, len(line))
    return chunks


def _next_filled(lines: list[str], index: int) -> int:
    """The first line after `index` that is not blank (`len(lines)` if none)."""
    return next((i for i in range(index + 1, len(lines)) if lines[i].strip()), len(lines))


def count_references(text: str, markdown: bool = False, max_chars: int | None = None) -> int:
    """How many references the list is cut into (what the cap counts), none of them parsed."""
    return len(_chunks(text, markdown, max_chars))


def read_plain_text(
    text: str, source: str, markdown: bool = False, limits: EntryLimits = DEFAULT_LIMITS
) -> InputRead:
    """Every reference of a plain-text list; a fragment with no letters (a page number) is reported. More
    references than `limits` allows raise `TooManyEntries`, and one longer than it allows is reported,
    both before any reference is parsed."""
    chunks = _chunks(text, markdown, limits.max_entry_chars)
    check_count(source, len(chunks), limits, "references")
    read = InputRead()
    for chunk in chunks:
        location = f"line {chunk.line}"
        if limits.max_entry_chars is not None and chunk.size > limits.max_entry_chars:
            read.problems.append(too_long(source, location, chunk.size, limits.max_entry_chars))
            continue
        reference = _join(chunk.lines)
        if not _THREE_LETTERS.search(reference):
            message = f"{reference!r} is not a reference, skipped"
            read.problems.append(InputProblem(input=source, location=location, message=message))
            continue
        position = str(len(read.references) + 1)
        try:
            parsed = parse_reference_string(reference)
        except DECODE_ERRORS as error:
            read.problems.append(unreadable_entry(source, location, error))
            continue
        read.references.append(Reference(id=position, raw=reference, parsed=parsed, input=source))
    return read
