"""Bytes on disk → text, with a clear one-line error for files that are no reference list at all.

Missing files, directories, oversized, empty and binary files raise `InputError`; text that is not UTF-8 is
still read (as cp1252, else latin-1) and the assumption is reported as an `InputProblem`.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from refhound.errors import InputError
from refhound.models import InputProblem

DEFAULT_MAX_BYTES = 200 * 1024 * 1024
_SAMPLE = 64 * 1024
_PDF_MAGIC = b"%PDF-"
# Control characters plain text does carry: tab, newline, vertical tab, form feed, carriage return, escape.
_TEXT_CONTROLS = frozenset(b"\t\n\x0b\x0c\r\x1b")
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def _size_text(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB" if size >= 1024 * 1024 else f"{size} bytes"


def check_input_file(path: Path, max_bytes: int, kind: str = "reference list") -> None:
    """Raise `InputError` when `path` is missing, a directory, or larger than `max_bytes`."""
    if not path.exists():
        raise InputError(path, "no such file")
    if path.is_dir():
        raise InputError(path, f"is a directory, not a {kind}")
    size = path.stat().st_size
    if size > max_bytes:
        raise InputError(path, f"file is {_size_text(size)}, larger than the {_size_text(max_bytes)} limit")


def is_pdf(path: Path) -> bool:
    """Whether the file is a PDF: by its `.pdf` extension, or by the %PDF- header at its start."""
    if path.suffix.lower() == ".pdf":
        return True
    try:
        with path.open("rb") as handle:
            return handle.read(1024).lstrip().startswith(_PDF_MAGIC)
    except OSError:
        return False


def check_pdf_file(path: Path, max_bytes: int) -> None:
    """Raise `InputError` when `path` cannot be a readable PDF, judged without opening it: missing, a
    directory, too large, empty, or without the %PDF- header."""
    check_input_file(path, max_bytes, kind="PDF")
    with path.open("rb") as handle:
        head = handle.read(1024)
    if not head:
        raise InputError(path, "empty file")
    if _PDF_MAGIC not in head:
        raise InputError(path, "not a PDF (no %PDF- header)")


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    check_input_file(path, max_bytes)
    try:
        return path.read_bytes()
    except OSError as error:
        raise InputError(path, f"cannot be read: {error.strerror or error}") from error


def looks_binary(data: bytes) -> bool:
    """NUL bytes, or more than 10% control characters in the first 64 KB, mean binary."""
    sample = data[:_SAMPLE]
    if b"\x00" in sample or sample.startswith(_PDF_MAGIC):
        return True
    controls = sum(1 for byte in sample if byte < 0x20 and byte not in _TEXT_CONTROLS)
    return controls > len(sample) // 10


def _decode(data: bytes, source: str) -> tuple[str, list[InputProblem]]:
    if data.startswith(_UTF16_BOMS):
        return data.decode("utf-16"), []
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as error:
        offset = error.start
    try:
        text, encoding = data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:  # cp1252 leaves five bytes undefined; latin-1 decodes every byte
        text, encoding = data.decode("latin-1"), "latin-1"
    return text, [not_utf8(source, offset, encoding)]


def not_utf8(source: str, offset: int, encoding: str) -> InputProblem:
    message = f"not valid UTF-8 (first bad byte at offset {offset}); read as {encoding}"
    return InputProblem(input=source, location=None, message=message)


def load_text(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, list[InputProblem]]:
    """The text of `path`, and a problem when its encoding had to be guessed."""
    data = _read_bytes(path, max_bytes)
    if not data.startswith(_UTF16_BOMS) and looks_binary(data):
        raise InputError(path, "binary file, not a reference list")
    text, problems = _decode(data, str(path))
    if not text.strip():
        raise InputError(path, "empty file")
    return text, problems
