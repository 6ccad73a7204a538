"""The memory stage: records verified earlier from slower sources, nominated by vector similarity.

`recall_from_memory` is the SOP agent: it asks the verified-citation memory for the records nearest to
the citation and hands those above the configured similarity to the judge as candidates. The similarity
only nominates; the judge's rules decide whether a record is the cited work and whether every field
agrees. `remember_verified` writes a verified record back, and `memory_opener` opens the memory on first
use, once per run, so runs that never reach this stage never start chromadb.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from contextlib import closing
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from refhound.agents.context import AgentContext, Candidate, Findings
from refhound.errors import MemoryUnavailable
from refhound.models import Record, Reference, ReferenceResult, Stage, Verdict
from refhound.normalize.titles import title_similarity
from refhound.settings import MemorySettings

if TYPE_CHECKING:  # chromadb takes most of a second to import: only a run that opens the memory pays it
    from refhound.memory.store import Recollection, VerifiedMemory

logger = logging.getLogger(__name__)

STAGE = Stage.MEMORY
# Stages whose records are already fast to find again: remembering them would only duplicate them.
_NOT_REMEMBERED = frozenset({Stage.INDEX, STAGE})


def recall_from_memory(reference: Reference, context: AgentContext) -> Findings:
    """Remembered records close to the citation, as candidates for the judge."""
    settings = context.settings.memory
    cited = reference.parsed
    opened = getattr(context.open_memory, "opened", False)  # a memory opener says; a test's stand-in may not
    if settings.enabled and not opened and _nothing_remembered(settings.path):
        # Opening chromadb and the embedding model (seconds) to learn that the memory is empty would be the
        # slowest step of a small offline run. A record remembered later in the run opens it.
        return Findings(note="memory empty: nothing remembered yet")
    try:
        memory = context.open_memory()
        if memory is None:
            return Findings(note="memory off")
        if not cited.title:
            return Findings(note="no title to recall by")
        recollections = memory.recall(cited, settings.candidates)
    except MemoryUnavailable as exc:
        # The memory is a shortcut, never the only evidence: without it the later stages still decide.
        return Findings(note=f"memory unusable: {exc}")
    kept = [r for r in recollections if r.similarity >= settings.similarity]
    if not kept:
        return Findings(note=f"no remembered record above {settings.similarity:.2f}")
    candidates = tuple(_candidate(cited.title, r) for r in kept)
    best = max(r.similarity for r in kept)
    plural = "s" if len(kept) != 1 else ""
    return Findings(candidates, note=f"{len(kept)} remembered candidate{plural} (best {best:.2f})")


def _nothing_remembered(path: Path) -> bool:
    """Whether the memory at `path` certainly holds no record: there is no such directory, or chromadb's
    own database counts no embedding. Anything else (another chromadb layout, a file being written) is
    "perhaps", and the memory is opened as usual."""
    path = path.expanduser()
    if not path.exists():
        return True
    try:
        uri = f"{(path / 'chroma.sqlite3').as_uri()}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True)) as database:
            return int(database.execute("SELECT count(*) FROM embeddings").fetchone()[0]) == 0
    except sqlite3.Error:
        return False


def _candidate(cited_title: str, recollection: Recollection) -> Candidate:
    record = recollection.record
    return Candidate(
        record=record,
        title_similarity=title_similarity(cited_title, record.title),
        via="title",
        stage=STAGE,
        note=f"remembered: verified by {recollection.stage} on {recollection.verified_at.isoformat()}",
    )


def remember_verified(result: ReferenceResult, record: Record, found_by: str, context: AgentContext) -> None:
    """Remember `record`, found by the stage `found_by`, as the verified work of `result`, when the
    memory is on and the record worth writing.

    Only verified results are remembered, and not records the index or the memory itself found
    (they are already fast to find). A memory that cannot be written is logged, never fatal: the verdict
    stands without it.
    """
    if not context.settings.memory.enabled or result.verdict is not Verdict.VERIFIED:
        return
    if found_by in _NOT_REMEMBERED:
        return
    try:
        memory = context.open_memory()
        if memory is not None:
            memory.remember(record, stage=found_by, verified_at=date.today(), cited=result.parsed)
    except MemoryUnavailable as exc:
        logger.warning("not remembered: %s", exc)


class MemoryOpener:
    """Opens the memory on its first call and returns the same one after; thread-safe.

    Returns None when the memory is disabled. A memory that cannot be opened raises `MemoryUnavailable`
    on every call (it is tried once, not once per reference). `close()` closes it if it was opened.
    """

    def __init__(self, settings: MemorySettings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._memory: VerifiedMemory | None = None
        self._failure: MemoryUnavailable | None = None

    def __call__(self) -> VerifiedMemory | None:
        if not self.settings.enabled:
            return None
        with self._lock:
            if self._failure is not None:
                raise MemoryUnavailable(self._failure.path, self._failure.problem)
            if self._memory is None:
                from refhound.memory.store import VerifiedMemory

                try:
                    self._memory = VerifiedMemory.open(self.settings.path)
                except MemoryUnavailable as exc:
                    self._failure = exc
                    raise
            return self._memory

    @property
    def opened(self) -> bool:
        return self._memory is not None

    def close(self) -> None:
        with self._lock:
            if self._memory is not None:
                self._memory.close()
                self._memory = None


def memory_opener(settings: MemorySettings) -> MemoryOpener:
    """A callable for `AgentContext.open_memory` that opens the memory lazily, once (see `MemoryOpener`)."""
    return MemoryOpener(settings)
