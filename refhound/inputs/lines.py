"""A text file read line by line in bounded memory, for readers that stream a large reference list.

`open_text(path)` judges the file as `load_text` does (missing, a directory, binary or empty is an
`InputError`; text that is not UTF-8 is read as cp1252, else latin-1, with a problem saying so) in a first
pass that keeps nothing; `TextFile.lines()` then gives its lines, as `str.splitlines(keepends=True)` cuts
the whole text, reporting the bytes read as it goes.
"""

from __future__ import annotations

import codecs
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from refhound.errors import InputError
from refhound.inputs.files import check_input_file, looks_binary, not_utf8
from refhound.models import InputProblem

_BLOCK = 1024 * 1024
_HEAD = 64 * 1024
_CP1252_UNDEFINED = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")  # bytes cp1252 leaves undefined


@dataclass(frozen=True)
class TextFile:
    path: Path
    size: int  # bytes
    encoding: str
    head: str  # the first 64 KB of its text, to tell its format by
    problems: list[InputProblem] = field(default_factory=list)

    def lines(self, on_read: Callable[[int], None] | None = None) -> Iterator[str]:
        """Every line with its line end, as `str.splitlines(keepends=True)` gives them; `on_read` is
        told the bytes read so far after each block."""
        decoder = codecs.getincrementaldecoder(self.encoding)()
        pending = ""
        read = 0
        with self.path.open("rb") as handle:
            while block := handle.read(_BLOCK):
                read += len(block)
                pending += decoder.decode(block)
                # The last piece may go on in the next block (a "\r" may be half of "\r\n"): kept back.
                pieces = pending.splitlines(keepends=True)
                pending = pieces.pop() if pieces else ""
                yield from pieces
                if on_read is not None:
                    on_read(read)
        pending += decoder.decode(b"", final=True)
        yield from pending.splitlines(keepends=True)


def open_text(path: Path) -> TextFile:
    """The file as text to stream, judged in one pass that holds one block at a time."""
    check_input_file(path, sys.maxsize)
    size = path.stat().st_size
    with path.open("rb") as handle:
        first = handle.read(_BLOCK)
        utf16 = first.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        if not utf16 and looks_binary(first):
            raise InputError(path, "binary file, not a reference list")
        encoding, bad_at = ("utf-16", None) if utf16 else _encoding(handle, first)
    problems = [] if bad_at is None else [not_utf8(str(path), bad_at, encoding)]
    head = codecs.getincrementaldecoder(encoding)().decode(first[:_HEAD])
    if not _has_text(path, encoding):
        raise InputError(path, "empty file")
    return TextFile(path, size, encoding, head, problems)


def _encoding(handle: BinaryIO, first: bytes) -> tuple[str, int | None]:
    """UTF-8 when every byte decodes, else cp1252 (latin-1 when a byte cp1252 leaves undefined occurs);
    and the offset of the first byte that is not UTF-8, counted after a byte-order mark as `load_text`
    counts it."""
    block = first.removeprefix(codecs.BOM_UTF8)
    carry, offset, bad_at, cp1252 = b"", 0, None, True  # `offset`: where `carry` starts
    while block:
        cp1252 = cp1252 and not _CP1252_UNDEFINED.search(block)
        if bad_at is None:
            data, carry = carry + block, b""
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as error:
                if error.reason == "unexpected end of data":  # a character the next block ends
                    carry = data[error.start :]
                else:
                    bad_at = offset + error.start
            offset += len(data) - len(carry)
        block = handle.read(_BLOCK)
    if bad_at is None and carry:  # the file ends inside a character
        bad_at = offset
    if bad_at is None:
        return "utf-8-sig", None
    return ("cp1252" if cp1252 else "latin-1"), bad_at


def _has_text(path: Path, encoding: str) -> bool:
    """Whether the file holds more than white space (read until it does)."""
    decoder = codecs.getincrementaldecoder(encoding)()
    with path.open("rb") as handle:
        while block := handle.read(_BLOCK):
            if decoder.decode(block).strip():
                return True
    return bool(decoder.decode(b"", final=True).strip())
