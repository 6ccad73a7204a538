"""Plain-text input: a reference list as typed, pasted or exported (`.txt`, `.md`, anything textual).

The list is cut into references by, in order of preference: sequential numbering ("[1]", "1.", "(1)"),
list bullets, blank-line separated paragraphs, or else one reference per line, where a line that cannot
end a reference (no final period, a trailing hyphen) or that starts in lower case continues the previous
one. A word hyphenated at a line end is joined as `mend_broken_word` says ("bi-" + "directional" →
"bidirectional", "retrieval-" + "augmented" → "retrieval-augmented"). Each reference is then parsed by
`parse_reference_string`; one whose authors are a dash run ("———. Title …") gets the previous one's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from refhound.inputs.base import DECODE_ERRORS, InputRead, unreadable_entry
from refhound.inputs.screen import DEFAULT_LIMITS, MAX_ENTRY_CHARS, EntryLimits, check_count, too_long
from refhound.models import InputProblem, ParsedFields, Reference
from refhound.refstring import mend_broken_word
from refhound.refstring.repeated_authors import parse_list_entry

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


@dataclass(frozen=True)
class _Line:
    """A line as the cues see it: blank when it is the list's heading or too long to read, with its
    Markdown undone."""

    text: str
    size: int  # characters as written (after Markdown); a line too long to read keeps its own length
    huge: bool = False


Line = str | int  # a line (its end kept or not), or the length of one too long to read, not copied
# What ends a line for `str.splitlines` ("\r\n" too: joined below; one class scans three times faster).
_LINE_END = re.compile(r"[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def text_lines(text: str, max_chars: int | None) -> Iterator[Line]:
    """The lines of `text` as `str.splitlines` cuts them, one longer than `max_chars` given as its length:
    a 45 MB upload of one line is measured, never copied."""
    start = 0
    for end in _LINE_END.finditer(text):
        if end.start() < start:  # the "\n" of a "\r\n"
            continue
        yield _line(text, start, end.start(), max_chars)
        start = end.end() + (end.group() == "\r" and text.startswith("\n", end.end()))
    if start < len(text):
        yield _line(text, start, len(text), max_chars)


def _line(text: str, start: int, end: int, max_chars: int | None) -> Line:
    return end - start if max_chars is not None and end - start > max_chars else text[start:end]


def _lines(raw: Iterable[Line], markdown: bool, max_chars: int | None) -> Iterator[_Line]:
    """`raw` lines as the cues see them. A line longer than `max_chars` is seen by no pattern (the line-end
    ones cost more than linear time on such a line) and becomes a reference of its own."""
    heading_checked = False
    for line in raw:
        size = line if isinstance(line, int) else len(line) - _end_length(line)
        if max_chars is not None and size > max_chars:
            yield _Line("", size, huge=True)
            continue
        assert isinstance(line, str)
        line = line[:size]
        if not heading_checked and line.strip():
            heading_checked = True
            if _HEADING.match(line):
                line = ""
        if markdown:
            line = _MARKDOWN_EMPHASIS.sub(r"\2", _MARKDOWN_LINK.sub(r"\1 \2", line))
        yield _Line(line, len(line))


def _end_length(line: str) -> int:
    """How many characters of `line` are its line end."""
    if line.endswith("\r\n"):
        return 2
    return 1 if line and _LINE_END.fullmatch(line[-1]) else 0


class _Numbered:
    """Whether a line opens a numbered reference: a label counting up by one. A wrapped line that starts
    with a year ("2019. BERT: …") neither interrupts the count nor starts it."""

    def __init__(self) -> None:
        self.expected: int | None = None

    def __call__(self, line: str) -> bool:
        match = _LABEL.match(line)
        if not match:
            return False
        number = int(next(g for g in match.groups() if g))
        if (self.expected is None and number < 1800) or number == self.expected:
            self.expected = number + 1
            return True
        return False


class _Paragraphs:
    """Whether a line opens a paragraph: filled, after a blank line (or first)."""

    def __init__(self) -> None:
        self.previous_blank = True

    def __call__(self, line: str) -> bool:
        opens = bool(line.strip()) and self.previous_blank
        self.previous_blank = not line.strip()
        return opens


def _bullet(line: str) -> bool:
    return bool(_BULLET.match(line))


class _LineStarts:
    """One reference per line, except lines that continue the one before: after a line that cannot end a
    reference, in lower case, or indented under an unindented one."""

    def __init__(self) -> None:
        self.previous = ""

    def __call__(self, line: str) -> bool:
        if not line.strip():
            return False
        hanging_indent = line[:1].isspace() and not self.previous[:1].isspace()
        stripped = line.lstrip()
        lower_case = stripped[:1].islower() and not _PARTICLE_NAME.match(stripped)
        continues = bool(self.previous) and (
            not _CAN_END.search(self.previous) or lower_case or hanging_indent
        )
        self.previous = line
        return not continues


Cue = Callable[[str], bool]
_CUES: tuple[Callable[[], Cue], ...] = (_Numbered, lambda: _bullet, _Paragraphs)


def _cue(lines: Iterable[_Line]) -> Callable[[], Cue]:
    """What cuts the list into references: the first cue, in order of preference, whose starts separate
    it (at least two, of a few lines each on average: a list of one reference a line where two lines keep
    their "54." and "55." is not a numbered list), else one reference per line. One pass, keeping counts."""
    cues = [make() for make in _CUES]
    starts = [0] * len(cues)
    filled = 0
    for line in lines:
        filled += bool(line.text.strip())
        for position, cue in enumerate(cues):
            starts[position] += cue(line.text)
    for make, count in zip(_CUES, starts, strict=True):
        if count >= 2 and count * _LINES_PER_REFERENCE >= filled:
            return make
    return _LineStarts


def _chunks(lines: Callable[[], Iterable[Line]], markdown: bool, max_chars: int | None) -> Iterator[_Chunk]:
    """The references of a plain-text list as lines, in two passes over `lines()`: the first picks the
    cue, the second cuts. A chunk is given once the next one starts, so only one is held, and only up to
    `max_chars` of it."""
    starts = _cue(_lines(lines(), markdown, max_chars))()
    chunk: _Chunk | None = None
    after_huge = False  # the first filled line after a line too long to read starts a reference
    for number, line in enumerate(_lines(lines(), markdown, max_chars), start=1):
        opens = starts(line.text)  # every line goes to the cue: its state follows the list
        if line.huge or opens or (after_huge and line.text.strip()):
            if chunk is not None:
                yield chunk
            chunk = _Chunk(number, [_BULLET.sub("", line.text)])
            after_huge = line.huge
        elif chunk is not None:
            if max_chars is None or chunk.size + line.size <= max_chars:
                chunk.lines.append(line.text)
            else:  # too long to be read: its lines are not kept, only its size
                chunk.lines.clear()
        elif line.text.strip():
            chunk = _Chunk(number, [line.text])  # text before the first label: reported as a reference
        else:
            continue
        chunk.size += line.size
    if chunk is not None:
        yield chunk


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


def count_references(text: str, markdown: bool = False, max_chars: int | None = None) -> int:
    """How many references the list is cut into (what the cap counts), none of them parsed."""
    return sum(1 for _ in _chunks(partial(text_lines, text, max_chars), markdown, max_chars))


def read_plain_text(
    text: str, source: str, markdown: bool = False, limits: EntryLimits = DEFAULT_LIMITS
) -> InputRead:
    """Every reference of a plain-text list; a fragment with no letters (a page number) is reported. More
    references than `limits` allows raise `TooManyEntries`, and one longer than it allows is reported,
    both before any reference is parsed."""
    chunks: Iterable[_Chunk] = _chunks(
        partial(text_lines, text, limits.max_entry_chars), markdown, limits.max_entry_chars
    )
    if limits.max_entries is not None:  # counted before any is parsed
        chunks = list(chunks)
        check_count(source, len(chunks), limits, "references")
    return InputRead.joined(_references(chunks, source, limits.max_entry_chars))


def stream_plain_text(
    lines: Callable[[], Iterable[Line]],
    source: str,
    markdown: bool = False,
    max_entry_chars: int | None = MAX_ENTRY_CHARS,
    batch: int | None = None,
) -> Iterator[InputRead]:
    """The references of the list `lines()` gives (called twice: one pass picks the cue, one cuts), in
    reads of at most `batch` references (None: one read), so that a long list is never held whole."""
    return _references(_chunks(lines, markdown, max_entry_chars), source, max_entry_chars, batch)


def _references(
    chunks: Iterable[_Chunk], source: str, max_entry_chars: int | None, batch: int | None = None
) -> Iterator[InputRead]:
    read = InputRead()
    position = 0
    previous: ParsedFields | None = None  # a dash run for authors repeats this entry's
    for chunk in chunks:
        location = f"line {chunk.line}"
        if max_entry_chars is not None and chunk.size > max_entry_chars:
            read.problems.append(too_long(source, location, chunk.size, max_entry_chars))
            continue
        reference = _join(chunk.lines)
        if not _THREE_LETTERS.search(reference):
            message = f"{reference!r} is not a reference, skipped"
            read.problems.append(InputProblem(input=source, location=location, message=message))
            continue
        try:
            parsed = parse_list_entry(reference, previous)
        except DECODE_ERRORS as error:
            read.problems.append(unreadable_entry(source, location, error))
            continue
        previous = parsed
        position += 1
        read.references.append(Reference(id=str(position), raw=reference, parsed=parsed, input=source))
        if batch is not None and len(read.references) >= batch:
            yield read
            read = InputRead()
    yield read
