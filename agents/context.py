"""What every SOP agent receives and returns.

An agent is a plain function `(reference, context) -> Findings`: it looks for records that may be the
cited work and knows nothing of the graph that runs it. The judge's rules, not the agent, decide what
the records say about the citation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from refhound.agents.index_search import Candidate
from refhound.index.store import IndexStore
from refhound.models import Reference
from refhound.settings import Settings

if TYPE_CHECKING:
    from refhound.llm import LLMClient
    from refhound.memory.store import VerifiedMemory


@dataclass
class AgentContext:
    """Shared, read-mostly resources of one run; built once and passed to every agent call."""

    settings: Settings
    store: IndexStore
    this_year: int
    # Opened on first use: most runs never need the memory or the LLM, and opening them costs time.
    open_memory: Callable[[], VerifiedMemory | None] = field(default=lambda: None)
    llm: LLMClient | None = None


@dataclass(frozen=True)
class Findings:
    """What one stage contributes to a reference's branch."""

    candidates: tuple[Candidate, ...] = ()
    note: str = ""  # one line on what the stage did, shown in the per-stage trace
    unreachable: tuple[str, ...] = ()  # services that could not answer: their silence proves nothing


Agent = Callable[[Reference, AgentContext], Findings]
