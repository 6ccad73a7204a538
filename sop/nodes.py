"""The graph's node functions: run one stage's agent on a branch, judge, and finish the branch.

Each evidence stage runs its agent, lets the judge's rules look at every candidate gathered so far,
and either ends the branch (decisive evidence) or sends it on. The judge node decides from everything
gathered, asking the LLM only when the rules call the case borderline.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from langgraph.types import Command, Send

from refhound.agents.context import Agent, AgentContext, Findings
from refhound.agents.judge import Judgement, judge_gathered, what_was_not_asked
from refhound.agents.reread import reread_by_record
from refhound.models import ReferenceResult, Stage, StageRun, Verdict, is_hallucinated
from refhound.sop.routes import BatchSizes, Decided, after_stage
from refhound.sop.state import Branch, merge

logger = logging.getLogger(__name__)
NodeOutput = Command[Any] | dict[str, Any]
Node = Callable[[dict[str, Any]], Awaitable[NodeOutput]]
Step = Callable[[Branch], ReferenceResult | Send]


def _rules(branch: Branch, context: AgentContext, current: str = Stage.JUDGE) -> Judgement:
    """The rules' verdict on what the branch has gathered, the stage `current` included."""
    return judge_gathered(
        branch["reference"].parsed,
        branch["candidates"],
        {current, *(run.stage for run in branch["stages"])},
        context,
        branch.get("dead_identifiers", ()),
        branch["unreachable"],
    )


def stage_step(stage: str, agent: Agent, order: list[str], context: AgentContext) -> Step:
    """One stage on one branch, blocking: the verdict when the stage settles it, else where to go next."""

    def work(branch: Branch) -> ReferenceResult | Send:
        started = time.perf_counter()
        try:
            findings = agent(branch["reference"], context)
        except Exception as exc:  # one reference's failure must not end a run over thousands
            logger.exception("stage %s failed on reference %s", stage, branch["reference"].id)
            findings = Findings(note=f"failed: {type(exc).__name__}: {exc}", unreachable=(stage,))
        candidates, note = list(findings.candidates), findings.note
        # Only new candidates can call for a re-reading: the earlier ones were weighed at their own stage.
        found_so_far = [*branch["candidates"], *candidates] if candidates else []
        if reread := reread_by_record(branch["reference"], found_so_far, context.settings.judge):
            # Re-read fields give every candidate another title similarity: the list is built again.
            branch = merge(branch, {"reference": reread.reference})
            branch["candidates"], candidates = [], reread.candidates
            note = "; ".join(filter(None, (note, reread.note)))
        branch = merge(
            branch,
            {
                "candidates": candidates,
                "unreachable": list(findings.unreachable),
                "dead_identifiers": list(findings.dead_identifiers),
                "next_stage": branch["next_stage"] + 1,
            },
        )
        # New evidence may settle the case; without new evidence nothing changed since the last stage.
        judgement = (
            _rules(branch, context, stage) if findings.candidates or findings.dead_identifiers else None
        )
        timing = StageRun(
            stage=stage,
            elapsed_ms=_ms_since(started),
            candidates=len(findings.candidates),
            note=note,
        )
        branch = merge(branch, {"stages": [timing]})
        route = after_stage(branch, judgement, order)
        return finish(branch, route.judgement, stage, context) if isinstance(route, Decided) else route

    return work


def stage_node(
    stage: str,
    agent: Agent,
    order: list[str],
    context: AgentContext,
    slots: asyncio.Semaphore,
    batches: BatchSizes,
) -> Node:
    work = stage_step(stage, agent, order, context)

    async def run(packet: dict[str, Any]) -> NodeOutput:
        branches = _branches(packet)
        outcomes = await _in_a_thread(work, branches, slots)
        decided = {
            b["position"]: o for b, o in zip(branches, outcomes, strict=True) if not isinstance(o, Send)
        }
        onward: dict[str, list[Branch]] = defaultdict(list)
        for outcome in outcomes:
            if isinstance(outcome, Send):
                onward[outcome.node].append(outcome.arg)
        if not onward:
            return {"results": decided}
        sends = [send for node, batch in onward.items() for send in batches.sends(node, batch)]
        return Command(update={"results": decided}, goto=sends)

    run.__name__ = f"stage_{stage}"
    return run


def judge_step(context: AgentContext) -> Callable[[Branch], ReferenceResult]:
    """The judge on one branch, blocking: rules first, the LLM for what they leave borderline."""

    def work(branch: Branch) -> ReferenceResult:
        from refhound.agents.judge_llm import adjudicate

        started = time.perf_counter()
        rules = _rules(branch, context)
        judgement = adjudicate(branch["reference"].parsed, rules, context.llm)
        asked = "; borderline, asked the LLM" if rules.borderline and context.llm else ""
        timing = StageRun(
            stage=Stage.JUDGE,
            elapsed_ms=_ms_since(started),
            candidates=len(branch["candidates"]),
            note=f"{judgement.verdict.value} from {len(branch['candidates'])} candidates{asked}",
        )
        return finish(merge(branch, {"stages": [timing]}), judgement, Stage.JUDGE, context)

    return work


def judge_node(context: AgentContext, slots: asyncio.Semaphore) -> Node:
    work = judge_step(context)

    async def run(packet: dict[str, Any]) -> NodeOutput:
        branches = _branches(packet)
        results = await _in_a_thread(work, branches, slots)
        return {"results": {b["position"]: r for b, r in zip(branches, results, strict=True)}}

    return run


def _branches(packet: dict[str, Any]) -> list[Branch]:
    return cast(list[Branch], packet["branches"])


T = TypeVar("T")


async def _in_a_thread(
    work: Callable[[Branch], T], branches: list[Branch], slots: asyncio.Semaphore
) -> list[T]:
    """Agents are plain blocking functions: a batch runs in a worker thread, one reference after another,
    at most `slots` batches at a time. Even the local agents, which gain nothing from the threads'
    parallelism (docs/benchmarks.md): run on the graph's loop, they would hold back the checkpoint writes
    of the batches they follow."""
    async with slots:
        return await asyncio.to_thread(lambda: [work(branch) for branch in branches])


def finish(branch: Branch, judgement: Judgement, decided_by: str, context: AgentContext) -> ReferenceResult:
    """The verdict on the branch's reference; a verified record from a slow source is remembered."""
    reference = branch["reference"]
    reason = judgement.reason + what_was_not_asked(
        judgement, branch["unreachable"], context.settings.check.offline
    )
    result = ReferenceResult(
        id=reference.id,
        raw=reference.raw,
        parsed=reference.parsed,
        verdict=judgement.verdict,
        severity=judgement.severity,
        hallucinated=is_hallucinated(
            judgement.verdict, judgement.severity, context.settings.check.unverified_as
        ),
        fields=judgement.fields,
        evidence=judgement.evidence,
        stage=decided_by,
        elapsed_ms=round(sum(s.elapsed_ms for s in branch["stages"]), 3),
        stages=branch["stages"],
        reason=reason,
        input=reference.input,
    )
    if judgement.verdict is Verdict.VERIFIED and judgement.evidence:
        _remember(result, branch, context)
    return result


def _remember(result: ReferenceResult, branch: Branch, context: AgentContext) -> None:
    """Hand the record that decided a verified result, and the stage that found it, to the memory."""
    from refhound.agents.memory import remember_verified

    decisive = result.evidence[0]
    for candidate in branch["candidates"]:
        record = candidate.record
        if (record.source, record.source_id) == (decisive.source, decisive.record_id):
            remember_verified(result, record, candidate.stage, context)
            return


def _ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
