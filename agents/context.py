"""What every SOP agent receives and returns.

An agent is a plain function `(reference, context) -> Findings`: it looks for records that may be the
cited work and knows nothing of the graph that runs it. The judge's rules, not the agent, decide what
the records say about the citation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from refhound.index.store import IndexStore
from refhound.models import Record, Reference, Stage
from refhound.settings import Settings

if TYPE_CHECKING:
    from refhound.llm import LLMClient
    from refhound.memory.store import VerifiedMemory
    from refhound.sources.runtime import SourcesRuntime
    from refhound.web.runtime import WebRuntime


@dataclass(frozen=True)
class Candidate:
    """A record that may be the cited work, and how a stage came to it."""

    record: Record
    title_similarity: float
    # What led to it: "doi", "arxiv_id", "anthology_id" (an Anthology address), "url", "title", "raw" or
    # "authors" (the whole cited list at the cited venue and year).
    via: str
    stage: str = Stage.INDEX  # the SOP stage that found it
    note: str = ""  # provenance worth showing in the evidence (e.g. when memory verified it)


@dataclass
class AgentContext:
    """Shared, read-mostly resources of one run; built once and passed to every agent call."""

    settings: Settings
    store: IndexStore
    this_year: int
    # Opened on first use: most runs never need the memory or the LLM, and opening them costs time.
    open_memory: Callable[[], VerifiedMemory | None] = field(default=lambda: None)
    llm: LLMClient | None = None
    sources: SourcesRuntime | None = None  # the online scholarly sources; None when offline or none enabled
    web: WebRuntime | None = None  # web search and crawl; None when offline or no provider is configured

    def close(self) -> None:
        """Release what the run opened: the memory, the online sources' and the web's clients (and
        Chromium), the LLM client."""
        close_memory = getattr(self.open_memory, "close", None)
        if close_memory is not None:
            close_memory()
        if self.sources is not None:
            self.sources.close()
        if self.web is not None:
            self.web.close()
        if self.llm is not None:
            self.llm.close()


@dataclass(frozen=True)
class Findings:
    """What one stage contributes to a reference's branch."""

    candidates: tuple[Candidate, ...] = ()
    note: str = ""  # one line on what the stage did, shown in the per-stage trace
    unreachable: tuple[str, ...] = ()  # services that could not answer: their silence proves nothing
    # Cited identifier fields ("doi", "arxiv_id") whose authority says they do not exist; "url" for an
    # Anthology address the index finds no paper of.
    dead_identifiers: tuple[str, ...] = ()


Agent = Callable[[Reference, AgentContext], Findings]
