"""Wiring only: one node per stage the SOP runs, fanned out from START with a `Send` per batch."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import partial

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from refhound.agents.context import AgentContext
from refhound.models import Reference, Stage
from refhound.sop.nodes import Step, judge_node, judge_step, stage_node, stage_step
from refhound.sop.routes import BatchSizes, fan_out
from refhound.sop.stages import StagePlan
from refhound.sop.state import RunState

Graph = CompiledStateGraph[RunState, None, RunState, RunState]


def build_graph(
    plan: StagePlan,
    context: AgentContext,
    slots: asyncio.Semaphore,
    checkpointer: BaseCheckpointSaver[str] | None = None,
    references: Sequence[Reference] = (),
) -> Graph:
    """`slots` bounds how many agents run at once (LangGraph's own `max_concurrency` would also hold
    back the checkpoint writes of finished references behind the queued ones); `references` are the
    run's, which a chunk's state (`RunState`) points into by position."""
    order = plan.order
    sop = context.settings.sop
    networked = networked_stages(plan, context)
    batches = BatchSizes(sop.batch, sop.concurrency, networked)
    steps: dict[str, Step] = {
        stage: stage_step(stage, agent, order, context) for stage, agent in plan.agents.items()
    }
    judge = steps[Stage.JUDGE] = judge_step(context)
    # A node runs the local stages after its own in the same graph step (see `stage_node`).
    local = {stage: step for stage, step in steps.items() if stage not in networked}
    builder = StateGraph(RunState)
    for position, stage in enumerate(order):
        # A stage may send a branch to any later stage's node (the next one) or to the judge.
        later = (*order[position + 1 :], Stage.JUDGE)
        node = stage_node(stage, steps[stage], local, slots, batches, references)
        # A node takes a plain dict, not a TypedDict: LangGraph would add a channel for each key of one.
        builder.add_node(stage, node, destinations=later)  # type: ignore[call-overload]
    builder.add_node(Stage.JUDGE, judge_node(judge, slots, references))  # type: ignore[call-overload]
    first = order[0] if order else Stage.JUDGE
    builder.add_conditional_edges(START, partial(fan_out, first_stage=first, batches=batches), [first])
    for stage in order:
        builder.add_edge(stage, END)
    builder.add_edge(Stage.JUDGE, END)
    return builder.compile(checkpointer=checkpointer)


def networked_stages(plan: StagePlan, context: AgentContext) -> frozenset[str]:
    """The stages that wait on a service: every online stage, and the judge when it asks an LLM."""
    stages = {stage for stage in plan.order if Stage(stage).waits_on_a_service}
    if context.llm is not None:
        stages.add(Stage.JUDGE)
    return frozenset(stages)
