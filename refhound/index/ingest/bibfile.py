"""A user's own .bib file, taken as a trusted bibliography (e.g. a lab's curated references)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from refhound.bibtex import iter_bibtex_batches
from refhound.errors import IngestError
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import bib_record, dump_version, read_head, require_file
from refhound.models import Record


def read_bibtex_file(path: Path, complete: bool = False, version: str | None = None) -> Dump:
    """Stream the entries of a .bib file; source "bibtex:<file name>".

    The file is streamed line by line and parsed a few thousand entries at a time, so memory stays
    flat on large bibliographies. Lines are read as UTF-8, else as Latin-1 (noted once in
    `problems`). Only the caller knows whether it holds every paper of its venues, hence
    `complete`. The version is the caller's, else the file's mtime date (a date in the file name
    is taken too).
    """
    require_file(path)
    head = read_head(path, 65536)
    if b"\x00" in head:
        raise IngestError(path, "binary file, not BibTeX")
    if b"@" not in head and b"@" not in path.read_bytes():
        raise IngestError(path, "no BibTeX entries (no '@' in the file)")
    problems: list[str] = []
    source = f"bibtex:{path.name}"
    version = dump_version(path, version)
    return Dump(
        source=source,
        version=version,
        complete=complete,
        records=_records(path, source, version, problems),
        location=str(path),
        problems=problems,
    )


def _lines(path: Path, problems: list[str]) -> Iterator[str]:
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                if not any("not UTF-8" in p for p in problems):
                    problems.append(f"line {number}: not UTF-8; such lines read as Latin-1")
                yield raw.decode("latin-1")


def _records(path: Path, source: str, version: str, problems: list[str]) -> Iterator[Record]:
    for parsed in iter_bibtex_batches(_lines(path, problems)):
        for failure in parsed.failures:
            problems.append(f"line {failure.line or '?'}: {failure.message.strip()}")
        for entry in parsed.entries:
            record = bib_record(entry, source, version)
            if record is None:
                problems.append(f"line {entry.line or '?'}: entry {entry.key} has no title")
            else:
                yield record
