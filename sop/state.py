"""The graph's state: one run over many references, and one branch per reference.

`RunState` is LangGraph's channel state; its `results` are merged from every branch by a reducer, keyed
by the reference's position so a resumed run never holds a reference twice. A `Branch` travels from
stage to stage inside a `Send`; its list fields are merged by the reducers declared on them, through
`merge`, the one way a branch is updated.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Annotated, Any, TypedDict, cast, get_type_hints

from refhound.agents.context import Candidate
from refhound.models import Reference, ReferenceResult, StageRun


def merge_results(
    left: dict[int, ReferenceResult], right: dict[int, ReferenceResult]
) -> dict[int, ReferenceResult]:
    return {**left, **right}


class RunState(TypedDict, total=False):
    """One chunk of a run: which references it holds and the verdicts so far, keyed by position in the run.

    The references themselves are not in the state: they are in the run's manifest (`refhound.sop.runs`),
    and the graph reads them from there (`build_graph`); in the state, each checkpoint would write them
    again. (A checkpoint of an earlier version still holds them; they are not read.)"""

    offset: int  # the run position of the chunk's first reference
    count: int  # how many references the chunk holds
    results: Annotated[dict[int, ReferenceResult], merge_results]


def add_candidates(left: list[Candidate], right: list[Candidate]) -> list[Candidate]:
    """Candidates found again by a later stage are kept once, as first found."""
    seen = {(c.record.source, c.record.source_id) for c in left}
    return left + [c for c in right if (c.record.source, c.record.source_id) not in seen]


def add_unique(left: list[str], right: list[str]) -> list[str]:
    return left + [x for x in right if x not in left]


class Branch(TypedDict):
    """One reference on its way through the SOP."""

    position: int  # in the run's reference list
    reference: Reference
    next_stage: int  # index into the SOP's stages
    candidates: Annotated[list[Candidate], add_candidates]
    unreachable: Annotated[list[str], add_unique]  # services that gave no answer
    dead_identifiers: Annotated[list[str], add_unique]  # cited identifiers that do not exist
    stages: Annotated[list[StageRun], operator.add]


def new_branch(position: int, reference: Reference) -> Branch:
    return Branch(
        position=position,
        reference=reference,
        next_stage=0,
        candidates=[],
        unreachable=[],
        dead_identifiers=[],
        stages=[],
    )


def _reducers(state_type: type) -> dict[str, Callable[[Any, Any], Any]]:
    hints = get_type_hints(state_type, include_extras=True)
    return {key: hint.__metadata__[0] for key, hint in hints.items() if hasattr(hint, "__metadata__")}


_BRANCH_REDUCERS = _reducers(Branch)


def merge(branch: Branch, update: dict[str, Any]) -> Branch:
    """A new branch with `update` applied: reduced where the field declares a reducer, else replaced."""
    merged: dict[str, Any] = dict(branch)
    for key, value in update.items():
        reducer = _BRANCH_REDUCERS.get(key)
        # A branch checkpointed by an earlier version may lack a newer list field.
        merged[key] = reducer(merged[key], value) if reducer and key in merged else value
    return cast(Branch, merged)
