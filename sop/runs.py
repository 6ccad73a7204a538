"""Where runs are kept so they can be resumed: one SQLite file holding LangGraph's checkpoints and a
table of run manifests (what was read, which SOP, how the references were cut into chunks).

A run is checked chunk by chunk; each chunk is its own LangGraph thread (`RUN_ID/chunk-N`), so a
checkpoint holds one chunk's references and verdicts, not the whole run's again at every step.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

import aiosqlite
import ormsgpack
from langgraph.checkpoint.serde.jsonplus import (
    EXT_CONSTRUCTOR_KW_ARGS,
    EXT_CONSTRUCTOR_POS_ARGS,
    EXT_CONSTRUCTOR_SINGLE_ARG,
    EXT_PYDANTIC_V2,
    JsonPlusSerializer,
)
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.types import Send
from pydantic import BaseModel

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


class CheckpointSerializer(JsonPlusSerializer):
    """LangGraph's msgpack format, written faster: a checkpoint is read back by LangGraph's own reader.

    LangGraph dumps a pydantic model with `model_dump()`, whose enums, and every nested model's, come
    back to Python one by one to be packed (nine models a reference, each with enums: most of what the
    checkpointer cost, 0.15 to 0.3 ms a reference). Here a model is dumped in JSON mode, in pydantic's
    own code, into the same envelope (module, class, fields), which LangGraph's reader validates back
    into the model; the branches' dataclasses and the `Send`s that carry them are packed as LangGraph
    packs them. Anything else, or anything that cannot be packed so, goes to LangGraph's writer."""

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        if obj is None or isinstance(obj, bytes | bytearray):
            return super().dumps_typed(obj)
        try:
            return "msgpack", _pack(obj)
        except (ormsgpack.MsgpackEncodeError, TypeError):
            return super().dumps_typed(obj)


# LangGraph's packing options (`jsonplus._option`): the types passed through come to `_packed_ext`.
_OPTIONS = (
    ormsgpack.OPT_NON_STR_KEYS
    | ormsgpack.OPT_PASSTHROUGH_DATACLASS
    | ormsgpack.OPT_PASSTHROUGH_DATETIME
    | ormsgpack.OPT_PASSTHROUGH_ENUM
    | ormsgpack.OPT_PASSTHROUGH_UUID
    | ormsgpack.OPT_REPLACE_SURROGATES
)


def _pack(obj: Any) -> bytes:
    return ormsgpack.packb(obj, default=_packed_ext, option=_OPTIONS)


def _packed_ext(obj: Any) -> ormsgpack.Ext:
    cls = type(obj)
    if isinstance(obj, BaseModel):
        fields = obj.model_dump(mode="json")
        return ormsgpack.Ext(
            EXT_PYDANTIC_V2, _pack((cls.__module__, cls.__name__, fields, "model_validate_json"))
        )
    if isinstance(obj, Send):
        timeout = getattr(obj, "timeout", None)
        args = (obj.node, obj.arg) if timeout is None else (obj.node, obj.arg, timeout)
        return ormsgpack.Ext(EXT_CONSTRUCTOR_POS_ARGS, _pack((cls.__module__, cls.__name__, args)))
    if isinstance(obj, Enum):
        return ormsgpack.Ext(EXT_CONSTRUCTOR_SINGLE_ARG, _pack((cls.__module__, cls.__name__, obj.value)))
    if dataclasses.is_dataclass(obj):
        fields = {field.name: getattr(obj, field.name) for field in dataclasses.fields(obj)}
        return ormsgpack.Ext(EXT_CONSTRUCTOR_KW_ARGS, _pack((cls.__module__, cls.__name__, fields)))
    raise TypeError(f"left to LangGraph's writer: {cls.__name__}")


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
            connection, serde=CheckpointSerializer(allowed_msgpack_modules=_CHECKPOINT_TYPES)
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
