"""Which agent runs each SOP stage, and whether it can run in this context.

A stage that has nothing to consult (no online source enabled, the memory switched off) is left out of
the graph and reported once for the run, rather than run as a no-op on every reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from refhound.agents.context import Agent, AgentContext
from refhound.models import Stage
from refhound.sop.definition import Sop


@dataclass(frozen=True)
class StagePlan:
    """The evidence stages that will run, in SOP order, and the ones left out with the reason."""

    agents: dict[str, Agent]
    skipped: dict[str, str]

    @property
    def order(self) -> list[str]:
        return list(self.agents)


def _index_agent(context: AgentContext, sop: Sop) -> Agent | str:
    from refhound.agents.index_search import search_index

    return search_index


def _memory_agent(context: AgentContext, sop: Sop) -> Agent | str:
    if not context.settings.memory.enabled:
        return "the memory is switched off (memory.enabled = false)"
    from refhound.agents.memory import recall_from_memory

    return recall_from_memory


def _scholar_agent(context: AgentContext, sop: Sop) -> Agent | str:
    if Stage.INDEX not in sop.evidence_stages:
        # No index stage of its own: the embedded index is one of the scholar stage's databases.
        from refhound.agents.scholar import search_index_and_scholarly_sources

        return search_index_and_scholarly_sources
    if context.sources is None:
        reason = "no online scholarly source is enabled"
        settings = context.settings
        if settings.check.offline:
            # Offline, the sources answer from the HTTP cache an online run filled: say why they cannot.
            cache = settings.sources.cache
            reason += (
                f" (offline), and no HTTP cache at {cache.path} to answer from"
                if cache.enabled
                else " (offline), and the HTTP cache is off (sources.cache.enabled)"
            )
        return reason
    if not context.sources.names:
        return "no online scholarly source is in sources.tiers"
    from refhound.agents.scholar import search_scholarly_sources

    return search_scholarly_sources


def _identifiers_agent(context: AgentContext, sop: Sop) -> Agent | str:
    if context.sources is None or not context.sources.can_probe:
        offline = " (offline)" if context.settings.check.offline else ""
        return f"no identifier resolver (doi.org, arXiv) is enabled{offline}"
    from refhound.agents.identifiers import probe_identifiers

    return probe_identifiers


def _web_agent(context: AgentContext, sop: Sop) -> Agent | str:
    from refhound.online import web_unavailable

    if reason := web_unavailable(context.settings):
        return reason
    if context.web is None:
        return "the web search could not be set up in this run"
    from refhound.agents.web_search import search_the_web

    return search_the_web


_RESOLVERS = {
    Stage.IDENTIFIERS: _identifiers_agent,
    Stage.INDEX: _index_agent,
    Stage.MEMORY: _memory_agent,
    Stage.SCHOLAR: _scholar_agent,
    Stage.WEB: _web_agent,
}


def plan_stages(sop: Sop, context: AgentContext, overrides: Mapping[str, Agent] | None = None) -> StagePlan:
    """The agents for the SOP's evidence stages; `overrides` replaces real agents (tests, benchmarks)."""
    agents: dict[str, Agent] = {}
    skipped: dict[str, str] = {}
    for stage in sop.evidence_stages:
        resolver = _RESOLVERS[Stage(stage)]
        resolved = overrides[stage] if overrides and stage in overrides else resolver(context, sop)
        if isinstance(resolved, str):
            skipped[stage] = resolved
        else:
            agents[stage] = resolved
    return StagePlan(agents, skipped)
