"""Re-reading a printed reference around the title of the work its identifier leads to.

A reference string the parser misread (a name it did not know taken for the title, the real title pushed
into the venue) still prints its real title. When the cited DOI or arXiv id leads to a record whose title
the string prints word for word, while the parsed title is another, the string is read again with that
title: judging the misread fields would call a correct citation's DOI "another work's", or the work
fabricated. Fields from structured entries (BibTeX, CSL JSON) are never re-read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from refhound.agents.context import Candidate

from refhound.models import Reference
from refhound.normalize.titles import title_similarity
from refhound.refstring import parse_reference_string_around
from refhound.settings import JudgeSettings


@dataclass(frozen=True)
class Reread:
    reference: Reference
    candidates: list[Candidate]  # every candidate given, its title similarity to the re-read title
    note: str


def reread_by_identifier(
    reference: Reference, candidates: Sequence[Candidate], settings: JudgeSettings
) -> Reread | None:
    """The reference re-read, with `candidates` scored against it; None when the parse stands."""
    led_to = [c for c in candidates if c.via in ("doi", "arxiv_id")]
    # Fields from a structured entry stand; so does a parsed title that is the record's, but for a typo.
    typo_at_most = settings.title_borderline_similarity
    if reference.structured or any(c.title_similarity >= typo_at_most for c in led_to):
        return None
    for candidate in led_to:
        fields = parse_reference_string_around(reference.raw, candidate.record.title)
        if fields is None:
            continue
        # Identifiers taken from a PDF's links stay: the string alone may not print them.
        kept = reference.parsed
        fields = fields.model_copy(
            update={
                "doi": fields.doi or kept.doi,
                "arxiv_id": fields.arxiv_id or kept.arxiv_id,
                "url": fields.url or kept.url,
            }
        )
        title = fields.title or ""
        rescored = [replace(c, title_similarity=title_similarity(title, c.record.title)) for c in candidates]
        via = "DOI" if candidate.via == "doi" else "arXiv id"
        return Reread(
            reference.model_copy(update={"parsed": fields}),
            rescored,
            f"fields re-read around the title of the work its {via} leads to",
        )
    return None
