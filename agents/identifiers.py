"""The identifiers stage: a citation's DOI, arXiv id or URL is asked of its authority before anything else.

An identifier is the cheapest decisive evidence: doi.org's record for the cited DOI, arXiv's for the
cited id, or the metadata of the cited page becomes a candidate that the judge compares field by field
(a DOI that names another work is a wrong identifier). An identifier its authority says does not exist
is reported as dead: the judge reads that as a wrong field of a work found by its title, or, with no such
work anywhere, as evidence of fabrication. An authority that gives no answer proves nothing.
"""

from __future__ import annotations

from refhound.agents.context import AgentContext, Candidate, Findings
from refhound.models import Reference, Stage
from refhound.normalize.titles import title_similarity
from refhound.sources.probes import CitedIdentifiers, Outcome, Probe

STAGE = Stage.IDENTIFIERS


def probe_identifiers(reference: Reference, context: AgentContext) -> Findings:
    """Candidates from the cited identifiers' authorities, the dead identifiers, and who gave no answer."""
    runtime = context.sources
    if runtime is None:
        return Findings(note="skipped: no online source in this run")
    cited = reference.parsed
    if not CitedIdentifiers.of(cited):
        return Findings(note="skipped: no DOI, arXiv id or URL")
    probes = runtime.probe(cited)
    if not probes:
        return Findings(note="skipped: no resolver enabled for the cited identifiers")
    candidates = tuple(
        Candidate(
            record,
            title_similarity(cited.title, record.title) if cited.title else 0.0,
            via=probe.field,
            stage=STAGE,
            note=f"the cited {_LABELS[probe.field]} leads to this record",
        )
        for probe in probes
        if probe.outcome is Outcome.FOUND
        for record in probe.records
    )
    return Findings(
        candidates,
        note="; ".join(p.describe() for p in probes),
        unreachable=tuple(dict.fromkeys(p.service for p in probes if p.outcome is Outcome.UNKNOWN)),
        dead_identifiers=tuple(p.field for p in probes if _is_dead(p)),
    )


_LABELS = {"doi": "DOI", "arxiv_id": "arXiv id", "url": "URL"}


def _is_dead(probe: Probe) -> bool:
    # Only an identifier's own authority can say it does not exist; a page that fails proves nothing.
    return probe.outcome is Outcome.MISSING and probe.field in ("doi", "arxiv_id")
