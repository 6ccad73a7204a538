"""The retraction mark of a cited work: what the record that decided the verdict, the other records of the
same work and the index's marks say of it.

A mark is about the work, not the citation: it is given only where a record was taken for the cited work
(a verified reference, or a metadata error found on its record) and never changes the verdict. The same
work is told by its DOI; an arXiv withdrawal marks only a citation of the preprint itself (a withdrawn
preprint's journal version stands).
"""

from __future__ import annotations

from collections.abc import Sequence

from refhound.agents.context import Candidate
from refhound.index.store import IndexStore
from refhound.models import Evidence, Record, Retraction, Verdict
from refhound.normalize.identifiers import normalize_arxiv_id, normalize_doi
from refhound.retractions import Notice, most_serious


def retraction_of(
    verdict: Verdict, evidence: Sequence[Evidence], candidates: Sequence[Candidate], store: IndexStore
) -> Retraction | None:
    """The most serious mark on the work the verdict's first evidence names; None when it has none or
    no record was taken for the cited work."""
    if verdict not in (Verdict.VERIFIED, Verdict.METADATA_ERROR) or not evidence:
        return None
    decisive = evidence[0]
    record = next(
        (
            c.record
            for c in candidates
            if (c.record.source, c.record.source_id) == (decisive.source, decisive.record_id)
        ),
        None,
    )
    if record is None:
        return None
    doi = normalize_doi(record.doi) if record.doi else None
    arxiv = normalize_arxiv_id(record.arxiv_id) if record.arxiv_id and _is_preprint(record) else None
    marks: list[Notice | Retraction | None] = [record.retraction]
    for candidate in candidates:  # another source's record of the same work may carry the mark
        other = candidate.record
        if other is not record and other.retraction is not None and _same_work(other, doi, arxiv):
            marks.append(other.retraction)
    marks.extend(store.retraction_notices(doi, arxiv))
    return most_serious(marks)


def _is_preprint(record: Record) -> bool:
    return record.entry_type == "preprint" or (record.venue or "").strip().lower() == "arxiv"


def _same_work(record: Record, doi: str | None, arxiv: str | None) -> bool:
    """Whether another record is of the decided work. A preprint is told by its arXiv id alone: arXiv
    listings carry their journal version's DOI, and that version is not withdrawn with the preprint."""
    if _is_preprint(record):
        return bool(arxiv and record.arxiv_id and normalize_arxiv_id(record.arxiv_id) == arxiv)
    return bool(doi and record.doi and normalize_doi(record.doi) == doi)
