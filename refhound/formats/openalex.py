"""OpenAlex's `work` objects (its API's answers and its snapshot's lines) as records."""

from __future__ import annotations

from typing import Any

from refhound.formats.fields import arxiv_of_doi, arxiv_of_url, doi_of
from refhound.models import Record, Retraction, RetractionKind
from refhound.normalize.text import collapse_whitespace

SOURCE = "openalex"
OPENALEX = "https://openalex.org/"  # every work id starts with it
_TYPES = {
    "review": "article",
    "letter": "article",
    "preprint": "preprint",
    "book": "book",
    "book-chapter": "incollection",
    "reference-entry": "incollection",
    "dissertation": "phdthesis",
}


def work_record(work: Any, version: str) -> Record | None:
    """An OpenAlex work as a record; None without an OpenAlex id or a title (no citable work)."""
    if not isinstance(work, dict):
        return None
    work_id = work.get("id")
    title = collapse_whitespace(str(work.get("title") or work.get("display_name") or ""))
    if not isinstance(work_id, str) or not work_id.startswith(OPENALEX) or not title:
        return None
    doi = doi_of(work.get("doi") if isinstance(work.get("doi"), str) else None)
    source = _dig(work, "primary_location", "source")
    year = work.get("publication_year")
    return Record(
        source=SOURCE,
        source_id=work_id.removeprefix(OPENALEX),
        source_version=version,
        title=title,
        authors=[name for authorship in _list(work.get("authorships")) if (name := _author(authorship))],
        venue=str(_dig(source, "display_name") or "") or None,
        year=year if isinstance(year, int) and not isinstance(year, bool) else None,
        doi=doi,
        arxiv_id=_arxiv_id({**work, "locations": _list(work.get("locations"))}, doi),
        url=work_id,
        entry_type=_entry_type(work, source),
        # OpenAlex says only that the work is retracted: no notice, no date.
        retraction=(
            Retraction(kind=RetractionKind.RETRACTED, source=SOURCE)
            if work.get("is_retracted") is True
            else None
        ),
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


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
