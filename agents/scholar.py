"""The scholar stage: records from the online scholarly APIs (Crossref for now), as candidates for the judge.

The agent only gathers: it asks the run's `SourcesRuntime` tier by tier, keeps the records whose title is
close to the cited one (or that carry the cited DOI / arXiv id, whatever their title: the judge tells a
DOI of another work from a typo), and names the services that gave no answer, whose silence proves nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from refhound.agents.context import AgentContext, Candidate, Findings

from refhound.models import ParsedFields, Record, Reference
from refhound.normalize.names import name_key
from refhound.normalize.titles import title_similarity
from refhound.sources.aggregate import Lookup
from refhound.sources.base import same_identifier
from refhound.sources.runtime import unavailable_reason

if TYPE_CHECKING:
    from refhound.sources.runtime import SourcesRuntime

STAGE = "scholar"


def search_scholarly_sources(reference: Reference, context: AgentContext) -> Findings:
    """Candidates from the online sources, with a one-line note and the services that could not answer."""
    runtime: SourcesRuntime | None = getattr(context, "sources", None)
    if runtime is None:
        reason = unavailable_reason(context.settings) or "no sources runtime in this run"
        return Findings(note=f"skipped: {reason}")
    cited = reference.parsed
    if not (cited.title or cited.doi or cited.arxiv_id):
        return Findings(note="skipped: no title or identifier to look up")
    lookup = runtime.lookup(cited)
    candidates = _candidates(cited, lookup.records, context)
    return Findings(tuple(candidates), note=_note(lookup, candidates), unreachable=lookup.unreachable)


def _candidates(cited: ParsedFields, records: tuple[Record, ...], context: AgentContext) -> list[Candidate]:
    settings = context.settings.judge
    seen: set[tuple[str, str]] = set()
    candidates = []
    for record in records:
        key = (record.source, record.source_id.casefold())
        if key in seen:
            continue
        seen.add(key)
        similarity = title_similarity(cited.title, record.title) if cited.title else 0.0
        via = same_identifier(cited, record) or "title"
        if via != "title" or similarity >= settings.title_candidate_similarity:
            candidates.append(Candidate(record, similarity, via, stage=STAGE))
    cited_names = {name_key(a) for a in cited.authors}
    candidates.sort(
        key=lambda c: (
            c.title_similarity,
            c.record.year == cited.year,
            len(cited_names.intersection(name_key(a) for a in c.record.authors)),
        ),
        reverse=True,
    )
    return candidates[: settings.candidates]


def _note(lookup: Lookup, candidates: list[Candidate]) -> str:
    """E.g. "crossref: 3 records, 1 candidate (best 0.97)"; "crossref unreachable: crossref: HTTP 503 …"."""
    parts = []
    for answer in lookup.answers:
        if answer.problem is not None:
            parts.append(f"{answer.source} unreachable ({answer.problem})")
            continue
        mine = [c for c in candidates if c.record.source == answer.source]
        count = len(answer.records)
        text = f"{answer.source}: {count} record{'s' if count != 1 else ''}"
        if mine:
            best = max(c.title_similarity for c in mine)
            text += f", {len(mine)} candidate{'s' if len(mine) != 1 else ''} (best {best:.2f})"
        elif count:
            text += ", none close"
        parts.append(text)
    return "; ".join(parts) or "no online source asked"
