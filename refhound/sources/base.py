"""The protocol every online scholarly source implements, one module per service.

`lookup` answers with the service's records that may be the cited work: an empty list is a definite
"the service has nothing like it". When the service gives no usable answer (network, timeout, server
error, an unreadable body) it raises `refhound.errors.Unreachable` instead, never returns [].
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from refhound.models import ParsedFields, Record
from refhound.normalize.identifiers import normalize_arxiv_id, normalize_doi
from refhound.normalize.titles import title_similarity


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


def is_plausible(cited: ParsedFields, record: Record, min_title_similarity: float) -> bool:
    """Whether a record may be the cited work: a close title, or (citation without title) its identifier."""
    if cited.title:
        return title_similarity(cited.title, record.title) >= min_title_similarity
    return same_identifier(cited, record) is not None
