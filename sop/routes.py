"""Typed routers: where the run fans out, and where a branch goes after each stage."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from langgraph.types import Send

from refhound.agents.judge import Judgement
from refhound.models import Reference, Stage, Verdict
from refhound.sop.state import Branch, RunState, new_branch


def fan_out(state: RunState, first_stage: str, batches: BatchSizes) -> list[Send]:
    """The chunk's references not yet checked, in batches; a resumed run skips the ones it already holds.

    A first batch names its references by position in the run (`new_branches` makes their branches from
    the run's references), so that neither the state nor the checkpointed `Send`s carry them."""
    done, offset = state.get("results", {}), state.get("offset", 0)
    pending = [position for position in range(offset, offset + state.get("count", 0)) if position not in done]
    # The first chunk's batches start small and double, so that the first verdicts come at once.
    return batches.sends(first_stage, pending, ramp=offset == 0)


def new_branches(packet: dict[str, Any], references: Sequence[Reference]) -> list[Branch]:
    """The branches a `Send` carries: made from positions in the run for a first batch (`fan_out`),
    else as sent (a branch on its way, with what it gathered)."""
    if "positions" in packet:
        return [new_branch(position, references[position]) for position in packet["positions"]]
    return cast(list[Branch], packet["branches"])


@dataclass(frozen=True)
class BatchSizes:
    """How many references go through a stage in one graph step.

    A step per batch rather than per reference is what keeps the graph cheap on local stages, where a
    reference takes a fraction of a millisecond. A stage that waits on the network gets one reference per
    step: there the step costs nothing beside the wait, and a batch would wait on its references one
    after another. Batches are cut so that each of the `concurrency` slots gets one.
    """

    batch: int
    concurrency: int
    networked: frozenset[str]

    def sends(self, stage: str, branches: list[Branch] | list[int], ramp: bool = False) -> list[Send]:
        """`branches` (or references' positions) cut into batches for `stage`; with `ramp`, batch sizes
        go 1, 2, 4, … up to the size."""
        if stage in self.networked:
            size = 1
        else:
            size = max(1, min(self.batch, -(-len(branches) // self.concurrency)))
        sends, start, step = [], 0, 1 if ramp else size
        while start < len(branches):
            sends.append(_send(stage, branches[start : start + step]))
            start, step = start + step, min(2 * step, size)
        return sends


def _send(stage: str, batch: list[Branch] | list[int]) -> Send:
    # The packet is typed loosely so LangGraph adds no channels for a branch's keys.
    return Send(stage, {"positions" if batch and isinstance(batch[0], int) else "branches": batch})


def is_decisive(judgement: Judgement) -> bool:
    """A record that verifies the citation, or shows a wrong field, settles it; anything else may
    still change with more evidence, and a borderline case is the judge's to settle."""
    return judgement.verdict in (Verdict.VERIFIED, Verdict.METADATA_ERROR) and judgement.borderline is None


@dataclass(frozen=True)
class Decided:
    """The branch ends here with this judgement."""

    judgement: Judgement


def after_stage(branch: Branch, judgement: Judgement | None, order: list[str]) -> Decided | Send:
    """End the branch on decisive evidence; else send it to the next stage (the judge after the last)."""
    if judgement is not None and is_decisive(judgement):
        return Decided(judgement)
    position = branch["next_stage"]
    following = order[position] if position < len(order) else Stage.JUDGE
    return Send(following, branch)
