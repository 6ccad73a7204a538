"""Crossref's `work` objects (its API's answers and its public data file's items) as records."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

from refhound.formats.fields import person_name
from refhound.models import Record, Retraction
from refhound.normalize.identifiers import normalize_doi
from refhound.normalize.text import collapse_whitespace
from refhound.retractions import Notice, crossref_kind, crossref_source, date_of_parts, most_serious

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


def work_records(
    works: Iterator[tuple[str, Any]],
    version: str,
    problems: list[str],
    notices: list[Notice] | None = None,
) -> Iterator[Record]:
    """The works as records, each with the mark its `updated-by` states; with `notices`, the marks every
    work states (its own `updated-by`, and a notice's `update-to` on the works it updates) are appended
    to it, for the index to keep."""
    for where, work in works:
        doi = work.get("DOI") if isinstance(work, dict) else None
        if not isinstance(doi, str) or not doi:
            problems.append(f"{where}: not a Crossref work (no DOI)")
            continue
        title = first_text(work.get("title"))
        if not title:
            continue
        kind = str(work.get("type") or "")
        if notices is not None:
            notices.extend(work_notices(work))
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
            retraction=most_serious(_updates(work.get("updated-by"), doi)),
        )


def work_notices(work: dict[str, Any]) -> list[Notice]:
    """The marks a work states: on itself (`updated-by`: the notices that update it) and, when it is a
    notice, on the works it updates (`update-to`: each entry's DOI is the updated work)."""
    doi = normalize_doi(str(work.get("DOI") or ""))
    notices = [Notice("doi", doi, mark) for mark in _updates(work.get("updated-by"), doi)] if doi else []
    for entry in work.get("update-to") or []:
        target = normalize_doi(str(entry.get("DOI") or "")) if isinstance(entry, dict) else None
        if target and (mark := _update(entry, notice_doi=doi)):
            notices.append(Notice("doi", target, mark))
    return notices


def _updates(entries: Any, work_doi: str | None) -> list[Retraction]:
    """The marks of a work's `updated-by` entries (each names the notice by its DOI)."""
    marks = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict):
            notice = normalize_doi(str(entry.get("DOI") or ""))
            if notice != normalize_doi(work_doi or "") and (mark := _update(entry, notice_doi=notice)):
                marks.append(mark)
    return marks


def _update(entry: dict[str, Any], notice_doi: str | None) -> Retraction | None:
    """One Crossref `Update` ({DOI, type, label, source, updated: Partial Date, record-id}) as a mark;
    None for an update that is no mark (a correction, an erratum, a new version)."""
    kind = crossref_kind(entry.get("type"))
    if kind is None:
        return None
    return Retraction(
        kind=kind,
        notice_doi=notice_doi or None,
        date=date_of_parts(entry.get("updated")),
        source=crossref_source(entry.get("source")),
    )


def first_text(values: Any) -> str:
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
    venue = first_text(work.get("container-title"))
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
