"""Crossref `work` records: API responses (one work or a work list), the public data file's
`{"items": [...]}` files, or JSON lines of either; plain or gzip."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from refhound.errors import IngestError
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import (
    dump_version,
    iter_json_lines,
    open_binary,
    person_name,
    read_head,
    require_file,
)
from refhound.models import Record
from refhound.normalize.text import collapse_whitespace

SOURCE = "crossref"
_TYPES = {
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "posted-content": "preprint",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "reference-book": "book",
    "book-chapter": "incollection",
    "book-section": "incollection",
    "book-part": "incollection",
    "reference-entry": "incollection",
    "dissertation": "phdthesis",
    "proceedings": "proceedings",
}
_DATE_FIELDS = ("issued", "published", "published-print", "published-online", "posted", "approved", "created")
_MARKUP = re.compile(r"<[^>]+>")


def read_crossref(path: Path, version: str | None = None) -> Dump:
    """Stream the works of a Crossref file.

    A file whose first line is a whole JSON value is read as JSON lines, one line at a time;
    otherwise it is one (pretty-printed) JSON document, which Crossref only produces in bounded
    sizes (an API page, a public-data-file part) and which is read at once. Works without a
    title (journal issues, components, …) are skipped silently: Crossref registers many and they
    are not citable papers. Crossref is never complete for a venue.
    """
    require_file(path)
    problems: list[str] = []
    version = dump_version(path, version)
    first_line = _first_line(path)
    try:
        json.loads(first_line)
        works = _line_works(path, problems)
    except ValueError:
        works = _document_works(path)
    return Dump(
        source=SOURCE,
        version=version,
        complete=False,
        records=_records(works, version, problems),
        location=str(path),
        problems=problems,
    )


def _first_line(path: Path) -> bytes:
    """The first non-blank line, after checking the file opens like JSON at all."""
    if not read_head(path, 64).lstrip().startswith((b"{", b"[")):
        raise IngestError(path, "not Crossref JSON (does not start with a JSON object or list)")
    with open_binary(path) as handle:
        return next((line for line in handle if line.strip()), b"")


def _line_works(path: Path, problems: list[str]) -> Iterator[tuple[str, Any]]:
    for number, value in iter_json_lines(path, problems):
        works = _unwrap(value)
        for index, work in enumerate(works, start=1):
            yield (f"line {number}" if len(works) == 1 else f"line {number} item {index}"), work


def _document_works(path: Path) -> Iterator[tuple[str, Any]]:
    try:
        with open_binary(path) as handle:
            document = json.load(handle)
    except (ValueError, OSError, EOFError) as error:
        raise IngestError(path, f"not valid JSON: {error}") from error
    items = document if isinstance(document, list) else _unwrap(document)
    return ((f"item {index + 1}", work) for index, work in enumerate(items))


def _unwrap(value: Any) -> list[Any]:
    """The works in an API envelope (work or work-list), an `{"items": […]}` file, or a bare work."""
    if isinstance(value, dict) and "message" in value:
        value = value["message"]
    if isinstance(value, dict) and isinstance(value.get("items"), list):
        return list(value["items"])
    return [value]


def _records(works: Iterator[tuple[str, Any]], version: str, problems: list[str]) -> Iterator[Record]:
    for where, work in works:
        doi = work.get("DOI") if isinstance(work, dict) else None
        if not isinstance(doi, str) or not doi:
            problems.append(f"{where}: not a Crossref work (no DOI)")
            continue
        title = _first(work.get("title"))
        if not title:
            continue
        kind = str(work.get("type") or "")
        yield Record(
            source=SOURCE,
            source_id=doi,
            source_version=version,
            title=title,
            authors=[name for a in work.get("author") or [] if isinstance(a, dict) and (name := _author(a))],
            venue=_venue(work, kind),
            year=_year(work),
            doi=doi,
            url=work.get("URL") or None,
            entry_type=_TYPES.get(kind, "misc"),
        )


def _first(values: Any) -> str:
    """The first entry of a Crossref string list, with its inline JATS/HTML markup removed."""
    if isinstance(values, list) and values and isinstance(values[0], str):
        return collapse_whitespace(html.unescape(_MARKUP.sub("", values[0])))
    return ""


def _author(author: dict[str, Any]) -> str:
    return person_name(author.get("given"), author.get("family")) or collapse_whitespace(
        author.get("name") or ""
    )


def _venue(work: dict[str, Any], kind: str) -> str | None:
    """The container title; for proceedings without one the event, for preprints the server."""
    venue = _first(work.get("container-title"))
    if not venue and kind in ("proceedings-article", "proceedings"):
        event = work.get("event")
        venue = (event.get("name") if isinstance(event, dict) else None) or work.get("publisher") or ""
    if not venue and kind == "posted-content":
        institutions = work.get("institution")
        if isinstance(institutions, list) and institutions and isinstance(institutions[0], dict):
            venue = institutions[0].get("name") or ""
    return venue or None


def _year(work: dict[str, Any]) -> int | None:
    for name in _DATE_FIELDS:
        date = work.get(name)
        parts = date.get("date-parts") if isinstance(date, dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = parts[0][0]
            if isinstance(year, int):
                return year
    return None
