"""OpenAlex works as JSON lines (the snapshot's `works/updated_date=…/part_*.gz` files or API exports)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from refhound.formats.openalex import OPENALEX, SOURCE, work_record
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import (
    dump_version,
    iter_json_lines,
    require_json_lines,
)
from refhound.models import Record


def read_openalex(path: Path, version: str | None = None) -> Dump:
    """Stream OpenAlex works (plain or gzip JSON lines, one work a line).

    Works without a title are skipped silently: OpenAlex holds many (paratext, deleted
    duplicates) and they are not citable papers. OpenAlex is never complete for a venue.
    """
    require_json_lines(path)
    version = dump_version(path, version)
    problems: list[str] = []
    return Dump(
        source=SOURCE,
        version=version,
        complete=False,
        records=_records(path, version, problems),
        location=str(path),
        problems=problems,
    )


def _records(path: Path, version: str, problems: list[str]) -> Iterator[Record]:
    for number, work in iter_json_lines(path, problems):
        work_id = work.get("id")
        if not isinstance(work_id, str) or not work_id.startswith(OPENALEX):
            problems.append(f"line {number}: not an OpenAlex work (no https://openalex.org/W… id)")
            continue
        if record := work_record(work, version):  # None: a work without a title, not a citable paper
            yield record
