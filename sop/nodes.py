"""The graph's node functions: run one stage's agent on a branch, judge, and finish the branch.

Each evidence stage runs its agent, lets the judge's rules look at every candidate gathered so far,
and either ends the branch (decisive evidence) or sends it on. The judge node decides from everything
gathered, asking the LLM only where the likelihood is near the threshold. A node takes a batch of branches
on through the local stages after its own in the same graph step; only a stage that waits on a service
gets its branches in `Send`s of their own.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from langgraph.types import Command, Send

from refhound.agents.context import Agent, AgentContext, Findings
from refhound.agents.judge import Judgement, judge_gathered, what_was_not_asked
from refhound.agents.reread import reread_by_record
from refhound.agents.retraction import retraction_of
from refhound.likelihood import Policy, assess
from refhound.likelihood.model import features
from refhound.models import Reference, ReferenceResult, Stage, StageRun, Verdict
from refhound.sop.routes import BatchSizes, Decided, after_stage, new_branches
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
        if isinstance(route, Decided) and _for_the_llm(route.judgement, context):
            return Send(Stage.JUDGE, branch)
        return finish(branch, route.judgement, stage, context) if isinstance(route, Decided) else route

    return work


def _for_the_llm(judgement: Judgement, context: AgentContext) -> bool:
    """Whether a case the rules settled goes to the judge all the same: an LLM judge is configured and
    the likelihood is near the threshold, where its answer can move the flag."""
    if context.llm is None or not judgement.evidence:
        return False
    policy = Policy.from_settings(context.settings.likelihood)
    return policy.near_threshold(
        features(judgement.fields, judgement.levels), context.settings.likelihood.llm_band
    )


def stage_node(
    stage: str,
    work: Step,
    local: Mapping[str, Step],
    slots: asyncio.Semaphore | None,
    batches: BatchSizes,
    references: Sequence[Reference],
) -> Node:
    """The node of `stage`: its step on a batch of branches, each branch then taken on at once through the
    local stages that follow (`local`: the steps of the stages that wait on no service), so that one graph
    step carries a batch as far as it goes without a network wait; a branch bound for a stage that waits
    on a service is sent on, one reference per step. `references` are the run's (see `new_branches`)."""
    through_local_stages = _chained(work, local)

    async def run(packet: dict[str, Any]) -> NodeOutput:
        branches = new_branches(packet, references)
        outcomes = await _run_batch(through_local_stages, branches, slots)
        decided = {
            b["position"]: o for b, o in zip(branches, outcomes, strict=True) if not isinstance(o, Send)
        }
        if len(decided) == len(outcomes):
            return {"results": decided}
        onward: dict[str, list[Branch]] = defaultdict(list)
        for outcome in outcomes:
            if isinstance(outcome, Send):
                onward[outcome.node].append(outcome.arg)
        sends = [send for node, batch in onward.items() for send in batches.sends(node, batch)]
        return Command(update={"results": decided}, goto=sends)

    run.__name__ = f"stage_{stage}"
    return run


def _chained(work: Step, local: Mapping[str, Step]) -> Step:
    """`work`, then the steps of the local stages the branch goes on to, one after another, in this
    thread: what the plain loop over the SOP's steps does, without a graph step per stage."""

    def through(branch: Branch) -> ReferenceResult | Send:
        outcome = work(branch)
        while isinstance(outcome, Send) and (step := local.get(outcome.node)) is not None:
            outcome = step(outcome.arg)
        return outcome

    return through


def judge_step(context: AgentContext) -> Callable[[Branch], ReferenceResult]:
    """The judge on one branch, blocking: rules first, the LLM where its answer can move the flag."""

    def work(branch: Branch) -> ReferenceResult:
        from refhound.agents.judge_llm import adjudicate

        started = time.perf_counter()
        rules = _rules(branch, context)
        near = _for_the_llm(rules, context)
        judgement = adjudicate(branch["reference"].parsed, rules, context.llm, near)
        asked = "; near the threshold, asked the LLM" if near and context.llm else ""
        timing = StageRun(
            stage=Stage.JUDGE,
            elapsed_ms=_ms_since(started),
            candidates=len(branch["candidates"]),
            note=f"{judgement.verdict.value} from {len(branch['candidates'])} candidates{asked}",
        )
        return finish(merge(branch, {"stages": [timing]}), judgement, Stage.JUDGE, context)

    return work


def judge_node(
    work: Callable[[Branch], ReferenceResult],
    slots: asyncio.Semaphore | None,
    references: Sequence[Reference],
) -> Node:
    """The judge's node; branches reach it only when the judge waits on a service (asks an LLM) or the
    stage before it does: a local judge is run by the node of the stage before it (`stage_node`)."""

    async def run(packet: dict[str, Any]) -> NodeOutput:
        branches = new_branches(packet, references)
        results = await _run_batch(work, branches, slots)
        return {"results": {b["position"]: r for b, r in zip(branches, results, strict=True)}}

    return run


T = TypeVar("T")


async def _run_batch(
    work: Callable[[Branch], T], branches: list[Branch], slots: asyncio.Semaphore | None
) -> list[T]:
    """Agents are plain blocking functions: a batch runs one reference after another, in a worker thread,
    at most `slots` batches at a time; without `slots`, on the graph's own event loop (see `build_graph`
    for when)."""
    if slots is None:
        return [work(branch) for branch in branches]
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
        hallucinated=None,
        levels=list(judgement.levels),
        fields=judgement.fields,
        evidence=judgement.evidence,
        stage=decided_by,
        elapsed_ms=round(sum(s.elapsed_ms for s in branch["stages"]), 3),
        stages=branch["stages"],
        reason=reason,
        unreachable=list(branch["unreachable"]),
        input=reference.input,
        retraction=retraction_of(judgement.verdict, judgement.evidence, branch["candidates"], context.store),
        cited_at=reference.cited_at,
        # Only a verdict that rests on the record keeps it: an LLM that found it another work drops it.
        record=judgement.record if judgement.verdict in (Verdict.VERIFIED, Verdict.METADATA_ERROR) else None,
    )
    result = assess(
        result, Policy.from_settings(context.settings.likelihood), context.settings.check.unverified_as
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
