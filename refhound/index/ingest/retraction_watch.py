"""Retraction Watch's database as Crossref publishes it (`retraction_watch.csv`, one row a notice, the
20-column header: Record ID, Title, …, Author, …, RetractionDate, RetractionDOI, …, OriginalPaperDate,
OriginalPaperDOI, …, RetractionNature, Reason, Paywalled, Notes).

Each row's original paper becomes a record (its title, authors separated by ";", journal, year, DOI), so
that an offline check finds the cited work, and its notice a mark keyed by the paper's DOI: "Retraction"
→ retracted, "Expression of concern" → expression_of_concern, "Reinstatement" lifts earlier marks;
"Correction" is no mark. A DOI written "unavailable" is none. The database is not complete for any venue.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import IO, cast

from refhound.errors import IngestError
from refhound.formats.fields import year_of
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import dump_version, open_binary, require_file
from refhound.models import Record, Retraction
from refhound.normalize.identifiers import normalize_doi
from refhound.normalize.text import collapse_whitespace
from refhound.retractions import REINSTATEMENT, Notice, iso_date, nature_kind

SOURCE = "retraction-watch"
_REQUIRED = ("Record ID", "Title", "Author", "OriginalPaperDOI", "RetractionNature", "RetractionDOI")


def read_retraction_watch(path: Path, version: str | None = None) -> Dump:
    """Stream the original papers of a Retraction Watch CSV (plain or gzip) with their marks."""
    require_file(path)
    version = dump_version(path, version)
    problems: list[str] = []
    notices: list[Notice] = []
    return Dump(
        source=SOURCE,
        version=version,
        complete=False,
        records=_records(path, version, problems, notices),
        location=str(path),
        problems=problems,
        notices=notices,
    )


def _records(path: Path, version: str, problems: list[str], notices: list[Notice]) -> Iterator[Record]:
    with open_binary(path) as binary:
        # utf-8-sig: the file may start with a byte-order mark; a stray byte must not end the ingest.
        text = io.TextIOWrapper(cast(IO[bytes], binary), encoding="utf-8-sig", errors="replace", newline="")
        reader = csv.DictReader(text)
        missing = [name for name in _REQUIRED if name not in (reader.fieldnames or [])]
        if missing:
            raise IngestError(path, f"not a Retraction Watch CSV (no column {', '.join(missing)})")
        for number, row in enumerate(reader, start=2):
            record_id, title = (
                (row.get("Record ID") or "").strip(),
                collapse_whitespace(row.get("Title") or ""),
            )
            if not record_id or not title:
                problems.append(f"row {number}: no Record ID or Title")
                continue
            doi = normalize_doi(row.get("OriginalPaperDOI") or "")
            if doi:
                notices.extend(_notices(doi, row))
            yield Record(
                source=SOURCE,
                source_id=record_id,
                source_version=version,
                title=title,
                authors=[
                    a for a in (collapse_whitespace(n) for n in (row.get("Author") or "").split(";")) if a
                ],
                venue=collapse_whitespace(row.get("Journal") or "") or None,
                year=year_of(row.get("OriginalPaperDate")),
                doi=doi,
                url=f"https://doi.org/{doi}" if doi else None,
                entry_type="article",
            )


def _notices(doi: str, row: dict[str, str]) -> list[Notice]:
    nature = (row.get("RetractionNature") or "").strip()
    date = iso_date(row.get("RetractionDate"))
    if nature.lower() == REINSTATEMENT:
        return [Notice("doi", doi, reinstated=date or "0000")]
    kind = nature_kind(nature)
    if kind is None:
        return []
    notice = normalize_doi(row.get("RetractionDOI") or "")
    return [Notice("doi", doi, Retraction(kind=kind, notice_doi=notice, date=date, source=SOURCE))]
