"""The scholar stage: records from the scholarly databases — the online APIs, and the embedded index when
the SOP has no index stage of its own (CiteAudit's order: memory → web → scholar) — as candidates.

The agent only gathers: it asks the run's `SourcesRuntime` tier by tier (and, when they have nothing like
the parsed fields, Crossref with the whole printed string), keeps the records whose title is close to the
cited one, that carry the cited DOI / arXiv id whatever their title (the judge tells a DOI of another work
from a typo), or whose title and authors the printed string prints (the parse is then in doubt), and names
the services that gave no answer, whose silence proves nothing.
"""

from __future__ import annotations

from dataclasses import replace

from refhound.agents.alignment import MIN_TITLE_CHARS
from refhound.agents.candidates import records_as_candidates
from refhound.agents.context import AgentContext, Candidate, Findings
from refhound.agents.index_search import search_index
from refhound.models import Reference, Stage
from refhound.online import sources_unavailable
from refhound.sources.aggregate import Lookup

STAGE = Stage.SCHOLAR


def search_scholarly_sources(reference: Reference, context: AgentContext) -> Findings:
    """Candidates from the online sources, with a one-line note and the services that could not answer."""
    runtime = context.sources
    if runtime is None or not runtime.names:
        reason = sources_unavailable(context.settings) or "no online scholarly source in this run"
        return Findings(note=f"skipped: {reason}")
    cited = reference.parsed
    # A printed string is matched whole as well, when it prints more than the title, and enough to
    # confirm a title by.
    text = reference.raw.strip()
    printed = (
        not reference.structured and len(text) >= MIN_TITLE_CHARS and text != (cited.title or "").strip()
    )
    raw = reference.raw if printed else None
    if not (cited.title or cited.doi or cited.arxiv_id or raw):
        return Findings(note="skipped: no title or identifier to look up")
    lookup = runtime.lookup(cited, raw)
    candidates = records_as_candidates(cited, lookup.records, context.settings.judge, STAGE, raw=raw)
    return Findings(tuple(candidates), note=_note(lookup, candidates), unreachable=lookup.unreachable)


def search_index_and_scholarly_sources(reference: Reference, context: AgentContext) -> Findings:
    """The embedded index's candidates, then (when a runtime has any) the online sources' candidates."""
    indexed = search_index(reference, context)
    online = search_scholarly_sources(reference, context)
    return Findings(
        tuple(replace(c, stage=STAGE) for c in indexed.candidates) + online.candidates,
        note=f"index: {indexed.note}; {online.note}",
        unreachable=online.unreachable,
    )


def _note(lookup: Lookup, candidates: list[Candidate]) -> str:
    """E.g. "crossref: 3 records, 1 candidate (best 0.97)"; "crossref unreachable: crossref: HTTP 503 …"."""
    parts = []
    for answer in lookup.answers:
        if answer.problem is not None:
            parts.append(f"{answer.source} unreachable ({answer.problem})")
            continue
        mine = [c for c in candidates if c.record.source == answer.source]
        count = len(answer.records)
        asked = f"{answer.source} by the whole string" if answer.by_citation else answer.source
        text = f"{asked}: {count} record{'s' if count != 1 else ''}"
        if mine:
            best = max(c.title_similarity for c in mine)
            text += f", {len(mine)} candidate{'s' if len(mine) != 1 else ''} (best {best:.2f})"
        elif count:
            text += ", none close"
        parts.append(text)
    return "; ".join(parts) or "no online source asked"
