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
    run's, which a chunk's state (`RunState`) points into by position.

    A run `on_the_loop` checks a whole chunk a batch on the graph's own event loop; any other run sends
    batches of `sop.batch` references to worker threads, `slots` at a time."""
    order = plan.order
    sop = context.settings.sop
    networked = networked_stages(plan, context)
    if on_the_loop(plan, context, checkpointed=checkpointer is not None):
        batches, node_slots = BatchSizes(max(1, len(references)), 1, networked), None
    else:
        batches, node_slots = BatchSizes(sop.batch, sop.concurrency, networked), slots
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
        node = stage_node(stage, steps[stage], local, node_slots, batches, references)
        # A node takes a plain dict, not a TypedDict: LangGraph would add a channel for each key of one.
        builder.add_node(stage, node, destinations=later)  # type: ignore[call-overload]
    builder.add_node(Stage.JUDGE, judge_node(judge, node_slots, references))  # type: ignore[call-overload]
    first = order[0] if order else Stage.JUDGE
    builder.add_conditional_edges(START, partial(fan_out, first_stage=first, batches=batches), [first])
    for stage in order:
        builder.add_edge(stage, END)
    builder.add_edge(Stage.JUDGE, END)
    return builder.compile(checkpointer=checkpointer)


def on_the_loop(plan: StagePlan, context: AgentContext, *, checkpointed: bool) -> bool:
    """Whether a run checks its references on the graph's own event loop, in one chunk and one batch
    (after the first few): a run of local stages only and without checkpoints. Nothing else on its loop
    waits (no service, no checkpoint write); worker threads would only hand the GIL back and forth with
    the loop (0.02 ms a reference on exact-key look-ups, a tenth of the work); and with nothing to resume,
    smaller chunks and batches would bound nothing but add graph steps. With checkpoints, batches stay
    small and in worker threads, so that the writes of finished batches go on while the next one is
    checked: they bound what a killed run checks again."""
    return not checkpointed and not networked_stages(plan, context)


def networked_stages(plan: StagePlan, context: AgentContext) -> frozenset[str]:
    """The stages that wait on a service: every online stage, and the judge when it asks an LLM."""
    stages = {stage for stage in plan.order if Stage(stage).waits_on_a_service}
    if context.llm is not None:
        stages.add(Stage.JUDGE)
    return frozenset(stages)
