"""Reference lists in → `Reference`s out: BibTeX, `.bbl`, CSL-JSON and plain text, with per-entry problems.

    read_input(path) -> InputRead          one file; the format from its extension, else from its content
    read_inputs(paths) -> InputRead        several files, concatenated; ids stay per file
    count_entries(path) -> (count, what)   its entries, counted by a scan before any is parsed

A file that cannot be a reference list at all (missing, a directory, empty, binary, too large, broken JSON,
nested too deeply for its parser) raises `InputError` with a one-line message naming it; anything smaller
becomes an `InputProblem` and every good entry is still returned.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path

from refhound.errors import InputError
from refhound.inputs.base import DECODE_ERRORS, InputRead, decode_problem
from refhound.inputs.files import DEFAULT_MAX_BYTES, is_pdf, load_text
from refhound.inputs.screen import DEFAULT_LIMITS, EntryLimits, TooManyEntries
from refhound.models import InputProblem

__all__ = [
    "DEFAULT_MAX_BYTES",
    "EntryLimits",
    "InputFormat",
    "InputRead",
    "TooManyEntries",
    "count_entries",
    "detect_format",
    "read_input",
    "read_inputs",
]


class InputFormat(StrEnum):
    BIBTEX = "bibtex"
    BBL = "bbl"
    CSL_JSON = "csl-json"
    TEXT = "text"
    MARKDOWN = "markdown"


_BY_EXTENSION = {
    ".bib": InputFormat.BIBTEX,
    ".bibtex": InputFormat.BIBTEX,
    ".bbl": InputFormat.BBL,
    ".json": InputFormat.CSL_JSON,
    ".csljson": InputFormat.CSL_JSON,
}
_TEXT_EXTENSIONS = {".md": InputFormat.MARKDOWN, ".markdown": InputFormat.MARKDOWN}
_BIBTEX_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.MULTILINE)
_BBL = re.compile(r"\\begin\s*\{thebibliography\}|\\bibitem\b|\\entry\s*\{|\\refsection\s*\{")
_JSON = re.compile(r"\s*(?:\{|\[\s*[{\]])")  # "[1] Devlin …" is a numbered list, not JSON


def detect_format(path: Path, text: str) -> InputFormat:
    """The format the extension names (`.bib`, `.bbl`, `.json`); else the one the content looks like."""
    known = _BY_EXTENSION.get(path.suffix.lower())
    if known:
        return known
    head = text[:65536]
    if _JSON.match(head):
        return InputFormat.CSL_JSON
    if _BBL.search(head):
        return InputFormat.BBL
    if _BIBTEX_ENTRY.search(head):
        return InputFormat.BIBTEX
    return _TEXT_EXTENSIONS.get(path.suffix.lower(), InputFormat.TEXT)


def read_input(
    path: Path, max_bytes: int = DEFAULT_MAX_BYTES, limits: EntryLimits = DEFAULT_LIMITS
) -> InputRead:
    """The references of one input file, and the problems met reading it; `limits` caps its entries
    (`TooManyEntries` past the count), checked before any entry is parsed."""
    text, problems = load_text(path, max_bytes)
    source = str(path)
    fmt = detect_format(path, text)
    try:
        read = _read_format(fmt, text, source, limits)
    except DECODE_ERRORS as error:  # a parser's own, on the whole file (each reader guards its entries)
        raise InputError(path, f"cannot be read as {fmt}: {decode_problem(error)}") from error
    if not read.references:
        problems.append(
            InputProblem(input=source, location=None, message=f"no references found (read as {fmt})")
        )
    read.problems[:0] = problems
    return read


def _read_format(fmt: InputFormat, text: str, source: str, limits: EntryLimits) -> InputRead:
    # Each reader is imported when its format comes: the reference-string grammar that .bbl and plain
    # text need (some 80 regexes, compiled on import) is not loaded for a .bib file.
    if fmt is InputFormat.BIBTEX:
        from refhound.inputs.bib import read_bibtex

        return read_bibtex(text, source, limits)
    if fmt is InputFormat.BBL:
        from refhound.inputs.bbl import read_bbl

        return read_bbl(text, source, limits)
    if fmt is InputFormat.CSL_JSON:
        from refhound.inputs.csl import read_csl_json

        return read_csl_json(text, source, limits)
    from refhound.inputs.plaintext import read_plain_text

    return read_plain_text(text, source, markdown=fmt is InputFormat.MARKDOWN, limits=limits)


def count_entries(
    path: Path, max_bytes: int = DEFAULT_MAX_BYTES, max_entry_chars: int | None = None
) -> tuple[int, str] | None:
    """How many entries a reference list holds, counted by its reader's scan, before anything is parsed
    (the count `EntryLimits.max_entries` caps), and what it calls them. None for a file that is no
    reference list (a PDF, a binary or broken one: reading it says why) and for a list with no count."""
    if is_pdf(path):
        return None
    try:
        text, _ = load_text(path, max_bytes)
    except InputError:
        return None
    fmt = detect_format(path, text)
    if fmt is InputFormat.BIBTEX:
        from refhound.inputs.bib import count_bibtex_entries

        return count_bibtex_entries(text), "BibTeX entries"
    if fmt is InputFormat.BBL:
        from refhound.inputs.bbl import count_bbl_items

        return count_bbl_items(text), "bibliography items"
    if fmt is InputFormat.CSL_JSON:
        from refhound.inputs.csl import count_csl_items

        items = count_csl_items(text)
        return None if items is None else (items, "CSL items")
    from refhound.inputs.plaintext import count_references

    return count_references(text, fmt is InputFormat.MARKDOWN, max_entry_chars), "references"


def read_inputs(paths: Iterable[Path], max_bytes: int = DEFAULT_MAX_BYTES) -> InputRead:
    """The references of several inputs in order; each keeps its own ids and its file in `input`."""
    combined = InputRead()
    for path in paths:
        combined.extend(read_input(path, max_bytes))
    return combined
