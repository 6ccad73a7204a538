"""BibTeX lines → parsed batches of entries, so that a large file is never held or parsed whole.

The file is cut into blocks where a line opens an entry ("@type{" first on its line): the parser ends
every entry there too (one that never closed included), so cutting there changes nothing it reads. No
cut falls inside an "@comment{…}" block, whose entries are comments. A block longer than the cap is left
out unparsed (its line ends kept, so later line numbers stay right) and reported, as
`refhound.inputs.screen` does for a whole text. Blocks are parsed a batch at a time; every "@string" of
earlier batches goes before each batch, line numbers are the file's, and a key an earlier batch used is a
duplicate, as in one parse of the whole file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from refhound.bibtex import LINE_OPEN, BibFailure, BibParse, parse_bibtex
from refhound.inputs.screen import too_long
from refhound.models import InputProblem


@dataclass
class _Block:
    """From one line that opens an entry to the next (what `screen_blocks` cuts a whole text into)."""

    line: int  # where it starts, counting "\n" as the parser does
    kind: str  # its entry type, lower case ("" for the text before the first entry)
    opener: int = 0  # where its delimiter stands in its first line
    lines: list[str] = field(default_factory=list)
    size: int = 0  # characters
    newlines: int = 0


class _Batch:
    """Blocks waiting to be parsed together."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.parts: list[str] = []
        self.entries = 0
        self.strings: list[str] = []  # its "@string" blocks, for the batches after it


def bibtex_batches(
    lines: Iterable[str], source: str, max_entry_chars: int | None, batch: int | None = None
) -> Iterator[tuple[BibParse, list[InputProblem]]]:
    """Each batch of at most `batch` entries (None: all in one) parsed, with the blocks left out as too
    long. `lines` keep their line ends. (A batch is cut only outside an "@comment{" block: one that never
    closes keeps the rest of the file in its batch, as it would be in one parse.)"""
    strings: list[str] = []
    keys: set[str] = set()
    pending = _Batch(1)
    problems: list[InputProblem] = []
    comment: tuple[str, int] | None = None  # an open "@comment{" of the kept text: its opener and depth
    for block in _blocks(lines, max_entry_chars):
        if max_entry_chars is not None and block.size > max_entry_chars:
            if block.kind:  # text before the first entry holds none: left out silently
                problems.append(too_long(source, f"line {block.line}", block.size, max_entry_chars))
            pending.parts.append("\n" * block.newlines)
            continue
        if batch is not None and block.kind and comment is None and pending.entries >= batch:
            yield _parse(pending, strings, keys), problems
            strings += pending.strings
            pending, problems = _Batch(block.line), []
        pending.parts += block.lines
        pending.entries += bool(block.kind)
        if block.kind == "string":
            pending.strings += block.lines
        comment = _comment_after(block, comment)
    yield _parse(pending, strings, keys), problems


def _blocks(lines: Iterable[str], cap: int | None) -> Iterator[_Block]:
    """The blocks of `lines`; one longer than `cap` keeps no text (it is left out), only its counts, so
    that 200 MB of comments before the first entry are never held."""
    block = _Block(1, "")
    line_number = 1
    for line in lines:
        opening = LINE_OPEN.match(line)
        if opening:
            yield block
            block = _Block(line_number, opening.group(1).lower(), opening.end() - 1)
        if cap is None or block.size + len(line) <= cap:
            block.lines.append(line)
        else:
            block.lines.clear()
        block.size += len(line)
        newlines = line.count("\n")
        block.newlines += newlines
        line_number += newlines
    yield block


def _comment_after(block: _Block, comment: tuple[str, int] | None) -> tuple[str, int] | None:
    """The "@comment{" still open after a kept block: its delimiters balanced as the parser balances
    them (`strip_comments`), None once it closed."""
    if comment is None:
        if block.kind != "comment":
            return None
        opener = block.lines[0][block.opener]
        text, depth = "".join(block.lines)[block.opener :], 0
    else:
        (opener, depth), text = comment, "".join(block.lines)
    closer = "}" if opener == "{" else ")"
    for char in text:
        if char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth == 0:
                return None
    return opener, depth


def _parse(pending: _Batch, strings: list[str], keys: set[str]) -> BibParse:
    prefix = "".join(strings)
    parsed = parse_bibtex(prefix + "".join(pending.parts))
    skipped = prefix.count("\n")  # the prefix's lines, before the batch's own
    shift = pending.line - 1 - skipped

    def moved(line: int | None) -> int | None:
        return line + shift if line else None

    result = BibParse()
    for failure in parsed.failures:
        if failure.line is None or failure.line > skipped:  # the prefix's own went with its batch
            result.failures.append(replace(failure, line=moved(failure.line)))
    for entry in parsed.entries:
        entry = replace(entry, line=moved(entry.line))
        if entry.key in keys:  # used in an earlier batch: what one parse of the whole file says
            message = f"malformed BibTeX entry: Duplicate entry key '{entry.key}'"
            result.failures.append(BibFailure(raw=entry.raw, line=entry.line, message=message))
            continue
        keys.add(entry.key)
        result.entries.append(entry)
    return result
