"""Crossref `work` records: API responses (one work or a work list), the public data file's
`{"items": [...]}` files, or JSON lines of either; plain or gzip."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from refhound.errors import IngestError
from refhound.formats.crossref import SOURCE, work_records
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import (
    dump_version,
    iter_json_lines,
    open_binary,
    read_head,
    require_file,
)
from refhound.retractions import Notice


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
    notices: list[Notice] = []  # the retraction marks the works state, filled as they are read
    return Dump(
        source=SOURCE,
        version=version,
        complete=False,
        records=work_records(works, version, problems, notices),
        location=str(path),
        problems=problems,
        notices=notices,
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
