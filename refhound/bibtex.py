"""BibTeX text → entries with decoded field values, and the blocks that could not be parsed.

Both the `.bib` input reader and the index's BibTeX-based ingesters use this one parser (bibtexparser 2).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from bibtexparser.entrypoint import parse_string

from refhound.normalize.text import collapse_whitespace, latex_to_unicode, unescape_latex_specials


@dataclass(frozen=True)
class BibEntry:
    key: str
    entry_type: str
    # lower-case field name -> value, LaTeX decoded except identifiers and name lists (author, editor),
    # which keep their braces so that `split_bibtex_names` can split them correctly.
    fields: dict[str, str]
    raw: str
    line: int | None = None


@dataclass(frozen=True)
class BibFailure:
    raw: str
    line: int | None
    message: str


@dataclass
class BibParse:
    entries: list[BibEntry] = field(default_factory=list)
    failures: list[BibFailure] = field(default_factory=list)


# Fields whose value is an identifier or address: keep them verbatim, only trim braces and spaces.
_VERBATIM = {"url", "doi", "eprint", "arxiv", "arxivid", "howpublished_url", "biburl"}


_NAME_LISTS = {"author", "editor"}


def decode_field(name: str, value: str) -> str:
    if name in _NAME_LISTS:
        return collapse_whitespace(value)
    if name in _VERBATIM:
        return collapse_whitespace(unescape_latex_specials(value).replace("{", "").replace("}", ""))
    return latex_to_unicode(value)


# bibtexparser logs every malformed block itself; refhound reports them through `BibParse.failures`.
logging.getLogger("bibtexparser").setLevel(logging.ERROR)


def parse_bibtex(text: str) -> BibParse:
    """Parse BibTeX text; malformed blocks are reported, never silently dropped."""
    library = parse_string(text)
    result = BibParse()
    for entry in library.entries:
        fields: dict[str, str] = {}
        for f in entry.fields:
            value = f.value if isinstance(f.value, str) else str(f.value)
            fields[f.key.lower()] = decode_field(f.key.lower(), value)
        result.entries.append(
            BibEntry(
                key=entry.key,
                entry_type=entry.entry_type.lower(),
                fields=fields,
                raw=entry.raw or "",
                line=entry.start_line + 1 if entry.start_line is not None else None,
            )
        )
    for block in library.failed_blocks:
        error = getattr(block, "error", None)
        reason = getattr(error, "abort_reason", None) or str(error or "").split(". Note:")[0]
        message = f"malformed BibTeX entry: {reason}" if reason else "malformed BibTeX entry"
        line = block.start_line + 1 if block.start_line is not None else None
        result.failures.append(BibFailure(raw=block.raw or "", line=line, message=message))
    return result


def split_bibtex_names(value: str) -> tuple[list[str], bool]:
    """Split a BibTeX name list on top-level ``and``; say whether it ended in ``and others``.

    Braced groups are respected: ``{Barnes and Noble, Inc.}`` is one name.
    """
    names: list[str] = []
    depth = 0
    start = 0
    for match in re.finditer(r"[{}]|\s+and\s+", value, re.IGNORECASE):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            names.append(value[start : match.start()])
            start = match.end()
    names.append(value[start:])
    cleaned = [collapse_whitespace(latex_to_unicode(n)).strip(" ,") for n in names]
    cleaned = [n for n in cleaned if n]
    truncated = bool(cleaned) and cleaned[-1].casefold() in {"others", "et al.", "et al"}
    if truncated:
        cleaned.pop()
    return cleaned, truncated


_ENTRY_START = re.compile(r"^\s*@")
_STRING_START = re.compile(r"^\s*@string\s*[{(]", re.IGNORECASE)


def iter_bibtex_batches(lines: Iterable[str], batch_entries: int = 2000) -> Iterator[BibParse]:
    """Parse BibTeX from a stream of lines, a few thousand entries at a time, so memory stays flat.

    Batches are cut only where a line starts a new ``@`` block; line numbers in the results are those
    of the whole stream. Every ``@string`` abbreviation seen so far is put before each later batch, so
    an entry far down the file still resolves ``booktitle = nips``.
    """
    chunk: list[str] = []
    chunk_start = 0  # 0-based line number of the chunk's first line
    strings: list[str] = []  # lines of the @string blocks of earlier batches
    blocks = 0
    for number, line in enumerate(lines):
        if _ENTRY_START.match(line):
            if blocks >= batch_entries:
                yield _parse_chunk(chunk, chunk_start, strings)
                strings.extend(_string_lines(chunk))
                chunk, chunk_start, blocks = [], number, 0
            blocks += 1
        chunk.append(line)
    if chunk:
        yield _parse_chunk(chunk, chunk_start, strings)


def _string_lines(lines: list[str]) -> list[str]:
    """The lines of the ``@string`` blocks in `lines` (a block runs until the next ``@`` line)."""
    kept: list[str] = []
    inside = False
    for line in lines:
        if _ENTRY_START.match(line):
            inside = bool(_STRING_START.match(line))
        if inside:
            kept.append(line)
    return kept


def _parse_chunk(lines: list[str], offset: int, prefix: list[str]) -> BibParse:
    parsed = parse_bibtex("".join(prefix) + "".join(lines))
    shift = offset - len(prefix)  # prefix lines come first in the parsed text but not in the stream

    def moved(line: int | None) -> int | None:
        return line + shift if line else None

    return BibParse(
        entries=[replace(e, line=moved(e.line)) for e in parsed.entries],
        # The prefix's own failures were reported with the batch that held them.
        failures=[
            replace(f, line=moved(f.line)) for f in parsed.failures if not f.line or f.line > len(prefix)
        ],
    )
