"""The protocol every online scholarly source implements, one module per service, and the helpers they
share to read answers (`fetch_json`, `map_items`) and combine them (`merge_new`).

`lookup` answers with the service's records that may be the cited work: an empty list is a definite
"the service has nothing like it". When the service gives no usable answer (network, timeout, server
error, an unreadable body) it raises `refhound.errors.Unreachable` instead, never returns [].
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from refhound.models import ParsedFields, Record
from refhound.normalize.identifiers import normalize_arxiv_id, normalize_doi
from refhound.normalize.titles import title_similarity

T = TypeVar("T")


@runtime_checkable
class Source(Protocol):
    """An online service that can look a citation up."""

    name: str

    async def lookup(self, cited: ParsedFields) -> list[Record]:
        """Records that may be the cited work, best first; [] when there is none. Raises Unreachable."""
        ...


@runtime_checkable
class DoiSource(Source, Protocol):
    """A service that also resolves DOIs (Crossref, OpenAlex, doi.org)."""

    async def by_doi(self, doi: str) -> Record | None:
        """The record of this DOI; None when the service definitely has none. Raises Unreachable."""
        ...


@runtime_checkable
class CitationSource(Source, Protocol):
    """A service that also matches a whole printed citation string (Crossref's `query.bibliographic`)."""

    async def by_citation(self, citation: str) -> list[Record]:
        """Its best matches for the string, best first; [] when there is none. Raises Unreachable."""
        ...


def same_identifier(cited: ParsedFields, record: Record) -> str | None:
    """ "doi" or "arxiv_id" when the record carries the identifier the citation gives, else None."""
    if cited.doi and record.doi:
        doi = normalize_doi(cited.doi)
        if doi is not None and doi == normalize_doi(record.doi):
            return "doi"
    if cited.arxiv_id and record.arxiv_id:
        arxiv = normalize_arxiv_id(cited.arxiv_id)
        if arxiv is not None and arxiv == normalize_arxiv_id(record.arxiv_id):
            return "arxiv_id"
    return None


def map_items(items: Iterable[Any], to_record: Callable[[Any], Record | None]) -> list[Record]:
    """Each item a service listed, as a record; an item without the fields a record needs is skipped.

    Services leave fields out or null them freely: one odd item must not cost the whole answer.
    """
    records = []
    for item in items:
        try:
            record = to_record(item)
        except (TypeError, ValueError, AttributeError, KeyError):  # pydantic's ValidationError: ValueError
            continue
        if record is not None:
            records.append(record)
    return records


def merge_new(records: list[Record], more: list[Record]) -> list[Record]:
    """`records`, then those of `more` with another id: a search repeats the record a DOI already gave."""
    seen = {r.source_id.casefold() for r in records}
    return records + [r for r in more if r.source_id.casefold() not in seen]


async def identified_then_searched(
    cited: ParsedFields,
    identified: Sequence[Callable[[], Awaitable[Record | None]]],
    search: Callable[[], Awaitable[list[Record]]],
    min_title_similarity: float,
) -> list[Record]:
    """What every source's `lookup` does: the records the cited identifiers name (`identified`, asked in
    order); then, unless one of them is plausibly the cited work, the records a title search finds."""
    records: list[Record] = []
    for find in identified:
        record = await find()
        if record is not None:
            records = merge_new(records, [record])
            if is_plausible(cited, record, min_title_similarity):
                return records
    if cited.title:
        records = merge_new(records, await search())
    return records


def is_plausible(cited: ParsedFields, record: Record, min_title_similarity: float) -> bool:
    """Whether a record may be the cited work: a close title, or (citation without title) its identifier."""
    if cited.title:
        return title_similarity(cited.title, record.title) >= min_title_similarity
    return same_identifier(cited, record) is not None
