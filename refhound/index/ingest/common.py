"""Helpers every ingester shares: names, identifiers, years, dump versions, opening files, streaming XML."""

from __future__ import annotations

import datetime as dt
import gzip
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from lxml import etree

from refhound.bibtex import BibEntry, split_bibtex_names
from refhound.errors import IngestError
from refhound.formats.fields import (
    ARXIV_ID,
    arxiv_of_doi,
    arxiv_of_url,
    doi_of,
    strip_dblp_suffix,
    year_of,
)
from refhound.models import Record
from refhound.normalize.text import collapse_whitespace

_DATE_IN_NAME = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_ARXIV_TEXT = re.compile(rf"(?:arxiv[:\s]*|abs/)({ARXIV_ID})", re.IGNORECASE)
_ARXIV_BARE = re.compile(rf"^{ARXIV_ID}$")
# A placeholder for commas inside braces, which are part of a name ("{Barnes and Noble, Inc.}").
_PROTECTED_COMMA = "\x00"

# BibTeX entry types → refhound's entry types; any other type is "misc".
_BIB_ENTRY_TYPES = {
    "article": "article",
    "inproceedings": "inproceedings",
    "conference": "inproceedings",
    "book": "book",
    "inbook": "incollection",
    "incollection": "incollection",
    "phdthesis": "phdthesis",
    "proceedings": "proceedings",
}


def require_file(path: Path) -> None:
    """Refuse a path that is not a readable file, with a one-line reason."""
    if not path.exists():
        raise IngestError(path, "no such file")
    if not path.is_file():
        raise IngestError(path, "not a file")


def is_gzip(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(2) == b"\x1f\x8b"


def open_binary(path: Path) -> io.BufferedIOBase:
    """Open a plain or gzip-compressed file (told apart by its magic bytes, not its name)."""
    if is_gzip(path):
        return gzip.open(path, "rb")
    return path.open("rb")


def read_head(path: Path, size: int = 4096) -> bytes:
    """The first bytes of the (decompressed) file, to check its format before streaming it."""
    try:
        with open_binary(path) as handle:
            return handle.read(size)
    except (OSError, EOFError) as error:
        raise IngestError(path, f"cannot read: {error}") from error


def require_json_lines(path: Path) -> None:
    """Refuse a file whose first line does not open a JSON object: it is not a JSON-lines dump."""
    require_file(path)
    if not read_head(path, 64).lstrip().startswith(b"{"):
        raise IngestError(path, "not JSON lines (the first line is not a JSON object)")


def iter_json_lines(path: Path, problems: list[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each line of a plain or gzip JSON-lines file, one line in memory at a time.

    A line that is not a JSON object is reported in `problems` and skipped; a file that cannot
    be read on (a truncated gzip stream) raises IngestError.
    """
    number = 0
    try:
        with open_binary(path) as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except ValueError as error:  # JSONDecodeError and UnicodeDecodeError
                    problems.append(f"line {number}: not valid JSON ({error})")
                    continue
                if not isinstance(value, dict):
                    problems.append(f"line {number}: not a JSON object")
                    continue
                yield number, value
    except (OSError, EOFError) as error:
        raise IngestError(path, f"unreadable after line {number}: {error}") from error


def dump_version(path: Path, version: str | None) -> str:
    """The caller's version, else a YYYY-MM-DD date in the file or folder name, else the file's mtime date."""
    if version:
        return version
    for name in (path.name, path.parent.name):
        match = _DATE_IN_NAME.search(name)
        if match:
            return "-".join(match.groups())
    return dt.date.fromtimestamp(path.stat().st_mtime).isoformat()


def text_of(element: etree._Element | None) -> str:
    """All text inside an XML element (markup such as <i> or <fixed-case> dropped), whitespace collapsed."""
    if element is None:
        return ""
    return collapse_whitespace("".join(element.itertext()))


def iter_xml_records(
    source: IO[bytes] | io.BufferedIOBase,
    tags: tuple[str, ...],
    resolver: etree.Resolver | None = None,
    **options: bool,
) -> Iterator[etree._Element]:
    """Yield each finished element with one of `tags`, then free it and everything before it.

    Clearing the element and deleting its already-processed siblings keeps memory flat however
    large the file is. `resolver` finds external files such as a DTD when the source is a stream.
    """
    events = etree.iterparse(source, events=("end",), tag=tags, **options)
    if resolver is not None:
        events.resolvers.add(resolver)
    for _event, element in events:
        yield element
        element.clear(keep_tail=False)
        parent = element.getparent()
        while parent is not None and element.getprevious() is not None:
            del parent[0]


def display_name(name: str) -> str:
    """BibTeX's "Last, First" or "Last, Jr, First" → "First Last" / "First Last Jr"; other forms kept."""
    parts = [strip_dblp_suffix(p.strip()) for p in name.split(",")]
    if len(parts) == 2 and all(parts):
        name = f"{parts[1]} {parts[0]}"
    elif len(parts) == 3 and parts[0] and parts[2]:
        name = " ".join(p for p in (parts[2], parts[0], parts[1]) if p)
    else:
        name = ", ".join(parts)
    return collapse_whitespace(name.replace(_PROTECTED_COMMA, ","))


def bib_author_names(value: str) -> list[str]:
    """A BibTeX author list as display names; commas inside braces belong to the name."""
    if "{" in value and "," in value:
        protected = []
        depth = 0
        for char in value:
            depth += char == "{"
            depth -= char == "}" and depth > 0
            protected.append(_PROTECTED_COMMA if char == "," and depth > 0 else char)
        value = "".join(protected)
    names, _truncated = split_bibtex_names(value)
    return [display_name(n) for n in names]


def _bib_arxiv_id(fields: dict[str, str]) -> str | None:
    """arXiv id from eprint (+archivePrefix), an arxiv/arxivid field, journal/howpublished, url or DOI."""
    eprint = fields.get("eprint", "").strip()
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().casefold()
    if eprint and (prefix == "arxiv" or (not prefix and _ARXIV_BARE.match(eprint))):
        match = _ARXIV_TEXT.search(eprint)
        return match.group(1) if match else eprint
    for name in ("arxiv", "arxivid"):
        if fields.get(name):
            match = _ARXIV_TEXT.search(fields[name])
            return match.group(1) if match else fields[name].strip()
    for name in ("journal", "howpublished"):  # Google Scholar's "arXiv preprint arXiv:…", dblp's CoRR
        text = fields.get(name, "")
        if text.casefold() == "corr" or "arxiv" in text.casefold():
            match = _ARXIV_TEXT.search(f"{fields.get('volume', '')} {text}")
            if match:
                return match.group(1)
    return arxiv_of_url(fields.get("url")) or arxiv_of_doi(doi_of(fields.get("doi")))


def _is_arxiv_venue(venue: str | None) -> bool:
    folded = (venue or "").casefold()
    return folded == "corr" or folded.startswith("arxiv")


def bib_record(entry: BibEntry, source: str, version: str) -> Record | None:
    """A parsed BibTeX entry as a record; None when it has no title.

    An arXiv preprint (eprint with archivePrefix arXiv and no other venue, or a journal of
    "CoRR"/"arXiv preprint …") gets venue "arXiv" and type preprint.
    """
    fields = entry.fields
    title = collapse_whitespace(fields.get("title", ""))
    if not title:
        return None
    venue = fields.get("booktitle") or fields.get("journal") or None
    arxiv_id = _bib_arxiv_id(fields)
    entry_type = _BIB_ENTRY_TYPES.get(entry.entry_type, "misc")
    if _is_arxiv_venue(venue) or (venue is None and arxiv_id and entry_type in {"article", "misc"}):
        venue, entry_type = "arXiv", "preprint"
    return Record(
        source=source,
        source_id=entry.key,
        source_version=version,
        title=title,
        authors=bib_author_names(fields.get("author", "")),
        venue=venue,
        year=year_of(fields.get("year")),
        doi=doi_of(fields.get("doi")),
        arxiv_id=arxiv_id,
        url=fields.get("url") or None,
        entry_type=entry_type,
    )
