"""OpenAlex works as JSON lines (the snapshot's `works/updated_date=…/part_*.gz` files or API exports)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import (
    arxiv_of_doi,
    arxiv_of_url,
    doi_of,
    dump_version,
    iter_json_lines,
    require_json_lines,
)
from refhound.models import Record
from refhound.normalize.text import collapse_whitespace

SOURCE = "openalex"
_TYPES = {
    "review": "article",
    "letter": "article",
    "preprint": "preprint",
    "book": "book",
    "book-chapter": "incollection",
    "reference-entry": "incollection",
    "dissertation": "phdthesis",
}
_OPENALEX = "https://openalex.org/"


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
        if not isinstance(work_id, str) or not work_id.startswith(_OPENALEX):
            problems.append(f"line {number}: not an OpenAlex work (no https://openalex.org/W… id)")
            continue
        title = collapse_whitespace(str(work.get("title") or work.get("display_name") or ""))
        if not title:
            continue
        doi = doi_of(work.get("doi"))
        source = _dig(work, "primary_location", "source")
        yield Record(
            source=SOURCE,
            source_id=work_id.removeprefix(_OPENALEX),
            source_version=version,
            title=title,
            authors=[name for authorship in work.get("authorships") or [] if (name := _author(authorship))],
            venue=(source.get("display_name") if isinstance(source, dict) else None) or None,
            year=work.get("publication_year") if isinstance(work.get("publication_year"), int) else None,
            doi=doi,
            arxiv_id=_arxiv_id(work, doi),
            url=work_id,
            entry_type=_entry_type(work, source),
        )


def _author(authorship: Any) -> str:
    """The author's display name; the name as printed on the work when OpenAlex has no author for it."""
    name = _dig(authorship, "author", "display_name") or _dig(authorship, "raw_author_name") or ""
    return collapse_whitespace(str(name))


def _dig(value: Any, *keys: str) -> Any:
    """value[k1][k2]…, or None where a level is missing or null (OpenAlex uses null freely)."""
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _arxiv_id(work: dict[str, Any], doi: str | None) -> str | None:
    """From `ids.arxiv` when present, arXiv's own DOI, or an arxiv.org location."""
    given = _dig(work, "ids", "arxiv")
    if isinstance(given, str) and given:
        return arxiv_of_url(given) or given
    found = arxiv_of_doi(doi)
    for location in work.get("locations") or []:
        for key in ("landing_page_url", "pdf_url"):
            found = found or arxiv_of_url(_dig(location, key))
    return found


def _entry_type(work: dict[str, Any], source: Any) -> str:
    """OpenAlex calls conference papers "article"; Crossref's type or the source type tells them apart."""
    kind = str(work.get("type") or "")
    if kind == "article":
        conference = (
            work.get("type_crossref") == "proceedings-article" or _dig(source, "type") == "conference"
        )
        return "inproceedings" if conference else "article"
    return _TYPES.get(kind, "misc")
