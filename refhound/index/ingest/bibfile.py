"""A user's own .bib file, taken as a trusted bibliography (e.g. a lab's curated references)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from refhound.bibtex import parse_bibtex
from refhound.errors import IngestError
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import bib_record, dump_version, require_file
from refhound.models import Record


def read_bibtex_file(path: Path, complete: bool = False, version: str | None = None) -> Dump:
    """Stream the entries of a .bib file; source "bibtex:<file name>".

    The file is read as UTF-8, else as Latin-1 (noted in `problems`). Only the caller knows
    whether it holds every paper of its venues, hence `complete`. The version is the caller's,
    else the file's mtime date (a date in the file name is taken too).
    """
    require_file(path)
    problems: list[str] = []
    raw = path.read_bytes()
    if b"\x00" in raw:
        raise IngestError(path, "binary file, not BibTeX")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        text = raw.decode("latin-1")
        problems.append(f"not UTF-8 (byte {error.start}); read as Latin-1")
    if "@" not in text:
        raise IngestError(path, "no BibTeX entries (no '@' in the file)")
    source = f"bibtex:{path.name}"
    version = dump_version(path, version)
    return Dump(
        source=source,
        version=version,
        complete=complete,
        records=_records(text, source, version, problems),
        location=str(path),
        problems=problems,
    )


def _records(text: str, source: str, version: str, problems: list[str]) -> Iterator[Record]:
    parsed = parse_bibtex(text)
    for failure in parsed.failures:
        problems.append(f"line {failure.line or '?'}: {failure.message.strip()}")
    for entry in parsed.entries:
        record = bib_record(entry, source, version)
        if record is None:
            problems.append(f"line {entry.line or '?'}: entry {entry.key} has no title")
        else:
            yield record
