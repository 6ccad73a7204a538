"""Where runs are kept so they can be resumed: one SQLite file holding LangGraph's checkpoints and a
table of run manifests (what was read, which SOP, how the references were cut into chunks).

A run is checked chunk by chunk; each chunk is its own LangGraph thread (`RUN_ID/chunk-N`), so a
checkpoint holds one chunk's references and verdicts, not the whole run's again at every step.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from refhound.agents.context import Candidate
from refhound.errors import RunNotFound
from refhound.models import (
    Evidence,
    FieldCheck,
    FieldStatus,
    InputProblem,
    ParsedFields,
    Record,
    Reference,
    ReferenceResult,
    Severity,
    StageRun,
    Verdict,
)

# The only types a checkpoint may hold; anything else is refused when a run is read back.
_CHECKPOINT_TYPES = (
    Candidate,
    Evidence,
    FieldCheck,
    FieldStatus,
    InputProblem,
    ParsedFields,
    Record,
    Reference,
    ReferenceResult,
    Severity,
    StageRun,
    Verdict,
)
_MANIFESTS = """
CREATE TABLE IF NOT EXISTS refhound_runs (
    run_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, sop TEXT NOT NULL, chunk_size INTEGER NOT NULL,
    inputs TEXT NOT NULL, problems TEXT NOT NULL, refs TEXT NOT NULL
)"""


@dataclass(frozen=True)
class Manifest:
    """What a run checks: enough to resume it without reading its inputs again."""

    run_id: str
    sop: str  # the SOP file it follows
    chunk_size: int
    inputs: list[str]
    problems: list[InputProblem]
    references: list[Reference]

    def chunks(self) -> list[tuple[str, int, list[Reference]]]:
        """(thread id, position of its first reference, references) for every chunk."""
        size = self.chunk_size
        return [
            (f"{self.run_id}/chunk-{n}", start, self.references[start : start + size])
            for n, start in enumerate(range(0, len(self.references), size))
        ]


class RunStore:
    """An open runs file: manifests and the LangGraph checkpointer over the same SQLite database."""

    def __init__(self, path: Path, connection: aiosqlite.Connection) -> None:
        self.path = path
        self._db = connection
        self.checkpointer = AsyncSqliteSaver(
            connection, serde=JsonPlusSerializer(allowed_msgpack_modules=_CHECKPOINT_TYPES)
        )

    async def save(self, manifest: Manifest) -> None:
        await self._db.execute(
            "INSERT OR REPLACE INTO refhound_runs VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                manifest.run_id,
                datetime.now(UTC).isoformat(timespec="seconds"),
                manifest.sop,
                manifest.chunk_size,
                json.dumps(manifest.inputs),
                json.dumps([p.model_dump(mode="json") for p in manifest.problems]),
                json.dumps([r.model_dump(mode="json") for r in manifest.references]),
            ),
        )
        await self._db.commit()

    async def load(self, run_id: str) -> Manifest:
        async with self._db.execute(
            "SELECT sop, chunk_size, inputs, problems, refs FROM refhound_runs WHERE run_id = ?", (run_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise RunNotFound(run_id, self.path)
        sop, chunk_size, inputs, problems, refs = row
        return Manifest(
            run_id=run_id,
            sop=sop,
            chunk_size=chunk_size,
            inputs=json.loads(inputs),
            problems=[InputProblem.model_validate(p) for p in json.loads(problems)],
            references=[Reference.model_validate(r) for r in json.loads(refs)],
        )

    async def forget(self, manifest: Manifest) -> None:
        for thread_id, _, _ in manifest.chunks():
            await self.checkpointer.adelete_thread(thread_id)
        await self._db.execute("DELETE FROM refhound_runs WHERE run_id = ?", (manifest.run_id,))
        await self._db.commit()


@asynccontextmanager
async def open_runs(path: Path) -> AsyncIterator[RunStore]:
    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(path) as connection:
        # WAL without a sync per commit: a finished reference's checkpoint write costs microseconds,
        # and a crash of the machine (not of refhound) may lose only the last few.
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA synchronous = NORMAL")
        await connection.execute(_MANIFESTS)
        await connection.commit()
        yield RunStore(path, connection)
