"""Reference lists in → `Reference`s out: BibTeX, `.bbl`, CSL-JSON and plain text, with per-entry problems.

    read_input(path) -> InputRead          one file; the format from its extension, else from its content
    read_inputs(paths) -> InputRead        several files, concatenated; ids stay per file

A file that cannot be a reference list at all (missing, a directory, empty, binary, too large, broken JSON)
raises `InputError` with a one-line message naming it; anything smaller becomes an `InputProblem` and
every good entry is still returned.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path

from refhound.inputs.base import InputRead
from refhound.inputs.files import DEFAULT_MAX_BYTES, load_text
from refhound.inputs.screen import DEFAULT_LIMITS, EntryLimits, TooManyEntries
from refhound.models import InputProblem

__all__ = [
    "DEFAULT_MAX_BYTES",
    "EntryLimits",
    "InputFormat",
    "InputRead",
    "TooManyEntries",
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
    # Each reader is imported when its format comes: the reference-string grammar that .bbl and plain
    # text need (some 80 regexes, compiled on import) is not loaded for a .bib file.
    if fmt is InputFormat.BIBTEX:
        from refhound.inputs.bib import read_bibtex

        read = read_bibtex(text, source, limits)
    elif fmt is InputFormat.BBL:
        from refhound.inputs.bbl import read_bbl

        read = read_bbl(text, source, limits)
    elif fmt is InputFormat.CSL_JSON:
        from refhound.inputs.csl import read_csl_json

        read = read_csl_json(text, source, limits)
    else:
        from refhound.inputs.plaintext import read_plain_text

        read = read_plain_text(text, source, markdown=fmt is InputFormat.MARKDOWN, limits=limits)
    if not read.references:
        problems.append(
            InputProblem(input=source, location=None, message=f"no references found (read as {fmt})")
        )
    read.problems[:0] = problems
    return read


def read_inputs(paths: Iterable[Path], max_bytes: int = DEFAULT_MAX_BYTES) -> InputRead:
    """The references of several inputs in order; each keeps its own ids and its file in `input`."""
    combined = InputRead()
    for path in paths:
        combined.extend(read_input(path, max_bytes))
    return combined
