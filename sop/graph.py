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
    slots: asyncio.Semaphore | None,
    checkpointer: BaseCheckpointSaver[str] | None = None,
    references: Sequence[Reference] = (),
) -> Graph:
    """`slots` bounds how many batches run at once in worker threads, `sop.batch` references each
    (LangGraph's own `max_concurrency` would also hold back the checkpoint writes of finished references
    behind the queued ones); without `slots`, batches are checked on the graph's own event loop, as large
    as the chunk once the first ones have doubled up to it (for a run `on_the_loop`). `references` are the
    run's, which a chunk's state (`RunState`) points into by position."""
    order = plan.order
    sop = context.settings.sop
    networked = networked_stages(plan, context)
    if slots is None:
        batches = BatchSizes(max(1, len(references)), 1, networked)
    else:
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


def on_the_loop(plan: StagePlan, context: AgentContext, *, checkpointed: bool, streamed: bool) -> bool:
    """Whether a run checks its references on the graph's own event loop, in one chunk: a run of local
    stages only, without checkpoints, whose verdicts are not streamed as they come. Nothing else on its
    loop waits; worker threads would only hand the GIL back and forth with the loop (0.02 ms a reference
    on exact-key look-ups, a tenth of the work); and with nothing to resume, smaller chunks and batches
    would bound nothing but add graph steps. Otherwise batches stay small and in worker threads, so that
    the loop goes on while the next one is checked: it writes the checkpoints of finished batches (they
    bound what a killed run checks again), and it hands their verdicts to the progress callback (the web
    server's page shows them as they come, and stops a job at its time limit from there)."""
    return not checkpointed and not streamed and not networked_stages(plan, context)


def networked_stages(plan: StagePlan, context: AgentContext) -> frozenset[str]:
    """The stages that wait on a service: every online stage, and the judge when it asks an LLM."""
    stages = {stage for stage in plan.order if Stage(stage).waits_on_a_service}
    if context.llm is not None:
        stages.add(Stage.JUDGE)
    return frozenset(stages)
