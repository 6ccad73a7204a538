"""Typed routers: where the run fans out, and where a branch goes after each stage."""

from __future__ import annotations

from dataclasses import dataclass

from langgraph.types import Send
from refhound.agents.judge import Judgement
from refhound.sop.state import Branch, RunState, new_branch

from refhound.models import Verdict

JUDGE = "judge"  # every stage's node is named after the stage


def fan_out(state: RunState, first_stage: str) -> list[Send]:
    """One branch per reference not yet checked; a resumed run skips the ones it already holds."""
    done, offset = state.get("results", {}), state.get("offset", 0)
    return [
        Send(first_stage, new_branch(position, reference))
        for position, reference in enumerate(state.get("references", []), start=offset)
        if position not in done
    ]


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
    following = order[position] if position < len(order) else JUDGE
    return Send(following, branch)
