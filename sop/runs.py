"""Where runs are kept so they can be resumed: one SQLite file holding LangGraph's checkpoints and a
table of run manifests (what was read, which SOP and settings, which index, how the references were cut
into chunks).

A run is checked chunk by chunk; each chunk is its own LangGraph thread (`RUN_ID/chunk-N`), so a
checkpoint holds one chunk's references and verdicts, not the whole run's again at every step. A finished
chunk's verdicts are kept compressed (`refhound_chunks`) and its thread deleted: LangGraph keeps a
checkpoint for every step, and only the chunks in flight need them. The references are stored once, a
chunk a row (`refhound_refs`), so a run can be written as its input is read and checked a chunk at a time
without holding it whole; the settings once, compressed; secrets (API keys) never are.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import sqlite3
import zlib
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
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
from pydantic import BaseModel, TypeAdapter

from refhound.agents.context import Candidate
from refhound.errors import RunMismatch, RunNotFound
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
from refhound.settings import Settings

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
# Added since the first version; a run stored before has none of them (and cannot be resumed).
_ADDED_COLUMNS = {
    "settings": "BLOB",
    "index_path": "TEXT NOT NULL DEFAULT ''",
    "total": "INTEGER NOT NULL DEFAULT 0",
    "host": "TEXT NOT NULL DEFAULT ''",
    "pid": "INTEGER NOT NULL DEFAULT 0",
    "finished_at": "TEXT",
    # 0 while a streamed input is still being written: such a run cannot be resumed (its input was cut off)
    "read_done": "INTEGER NOT NULL DEFAULT 1",
}
_CHUNKS = """
CREATE TABLE IF NOT EXISTS refhound_chunks (
    run_id TEXT NOT NULL, chunk INTEGER NOT NULL, results BLOB NOT NULL, PRIMARY KEY (run_id, chunk)
)"""
_REFS = """
CREATE TABLE IF NOT EXISTS refhound_refs (
    run_id TEXT NOT NULL, chunk INTEGER NOT NULL, refs BLOB NOT NULL, PRIMARY KEY (run_id, chunk)
)"""
_RESULTS = TypeAdapter(dict[int, ReferenceResult])
_REFERENCES = TypeAdapter(list[Reference])
#: Settings never written to the runs file: a resumed run takes them from its environment and config file.
SECRETS = frozenset({"api_key", "brave_api_key", "google_api_key", "serpapi_key"})


def run_settings(settings: Settings) -> dict[str, Any]:
    """The settings a run stores to be resumed with: every one but the secrets and the runs file itself
    (a run is resumed from the file it is found in)."""
    dumped: dict[str, Any] = _without_secrets(settings.model_dump(mode="json"))
    dumped["sop"].pop("runs_path", None)
    return dumped


def _without_secrets(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _without_secrets(item) for key, item in value.items() if key not in SECRETS}
    return value


def _zipped(text: str | bytes) -> bytes:
    return zlib.compress(text.encode() if isinstance(text, str) else text, 6)


def _unzipped(stored: str | bytes) -> bytes:
    return zlib.decompress(stored) if isinstance(stored, bytes) else stored.encode()  # text: an older run


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
    settings: dict[str, Any] | None = None  # `run_settings`; None for a run stored by an older version
    index: str = ""  # the index file it checks against
    # How many references it checks, when they are not all in `references` (stored a chunk a row, and
    # read back a chunk at a time).
    total: int | None = None

    @property
    def count(self) -> int:
        return len(self.references) if self.total is None else self.total

    @property
    def chunk_count(self) -> int:
        return -(-self.count // self.chunk_size)

    def thread(self, chunk: int) -> str:
        """The LangGraph thread of a chunk."""
        return f"{self.run_id}/chunk-{chunk}"


@dataclass(frozen=True)
class RunInfo:
    """One stored run, as `refhound runs` lists it."""

    run_id: str
    created_at: str
    status: str  # running, interrupted or finished
    inputs: list[str]
    references: int
    done: int  # references whose verdicts are stored
    sop: str


class RunStore:
    """An open runs file: manifests and the LangGraph checkpointer over the same SQLite database."""

    def __init__(self, path: Path, connection: aiosqlite.Connection) -> None:
        self.path = path
        self._db = connection
        self.checkpointer = AsyncSqliteSaver(
            connection, serde=CheckpointSerializer(allowed_msgpack_modules=_CHECKPOINT_TYPES)
        )

    async def save(self, manifest: Manifest, *, reading: bool = False) -> None:
        """A new run and its references, a chunk a row; `reading`: more will come (`add_references`), and
        it cannot be resumed until `read_done` says they all have."""
        await self._db.execute(
            "INSERT OR REPLACE INTO refhound_runs (run_id, created_at, sop, chunk_size, inputs, problems, "
            "refs, settings, index_path, total, host, pid, read_done) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                manifest.run_id,
                datetime.now(UTC).isoformat(timespec="seconds"),
                manifest.sop,
                manifest.chunk_size,
                json.dumps(manifest.inputs),
                json.dumps([p.model_dump(mode="json") for p in manifest.problems]),
                _zipped("[]"),  # the references are in refhound_refs
                _zipped(json.dumps(manifest.settings)) if manifest.settings is not None else None,
                manifest.index,
                manifest.count,
                socket.gethostname(),
                os.getpid(),
                int(not reading),
            ),
        )
        size = manifest.chunk_size
        for chunk, start in enumerate(range(0, len(manifest.references), size)):
            await self._insert_references(manifest.run_id, chunk, manifest.references[start : start + size])
        await self._db.commit()

    async def add_references(self, run_id: str, chunk: int, references: list[Reference]) -> None:
        """One more chunk of a run being read (`save(..., reading=True)`)."""
        await self._insert_references(run_id, chunk, references)
        await self._db.commit()

    async def read_done(self, run_id: str, total: int, problems: list[InputProblem]) -> None:
        """Every reference of a run being read is stored: it can be checked, and resumed."""
        await self._db.execute(
            "UPDATE refhound_runs SET total = ?, problems = ?, read_done = 1 WHERE run_id = ?",
            (total, json.dumps([p.model_dump(mode="json") for p in problems]), run_id),
        )
        await self._db.commit()

    async def _insert_references(self, run_id: str, chunk: int, references: list[Reference]) -> None:
        await self._db.execute(
            "INSERT OR REPLACE INTO refhound_refs VALUES (?, ?, ?)",
            (run_id, chunk, _zipped(_REFERENCES.dump_json(references))),
        )

    async def load_references(self, run_id: str, chunk: int) -> list[Reference]:
        async with self._db.execute(
            "SELECT refs FROM refhound_refs WHERE run_id = ? AND chunk = ?", (run_id, chunk)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise RunNotFound(run_id, self.path)
        return _REFERENCES.validate_json(_unzipped(row[0]))

    async def load(self, run_id: str) -> Manifest:
        """A run's manifest; its references stay in the file (`load_references`) unless an older version
        stored them with it. `RunMismatch` for a run cut off while its input was read."""
        async with self._db.execute(
            "SELECT sop, chunk_size, inputs, problems, refs, settings, index_path, total, read_done "
            "FROM refhound_runs WHERE run_id = ?",
            (run_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise RunNotFound(run_id, self.path)
        sop, chunk_size, inputs, problems, refs, settings, index, total, read_done = row
        if not read_done:
            raise RunMismatch(run_id, "was stopped while its input was read: start it again")
        references = _REFERENCES.validate_json(_unzipped(refs))  # [] but for an older version's run
        return Manifest(
            run_id=run_id,
            sop=sop,
            chunk_size=chunk_size,
            inputs=json.loads(inputs),
            problems=[InputProblem.model_validate(p) for p in json.loads(problems)],
            references=references,
            settings=json.loads(_unzipped(settings)) if settings is not None else None,
            index=index,
            total=None if references else total,
        )

    async def claim(self, run_id: str) -> None:
        """This process is the one working on the run now (what `status` reads)."""
        await self._db.execute(
            "UPDATE refhound_runs SET host = ?, pid = ? WHERE run_id = ?",
            (socket.gethostname(), os.getpid(), run_id),
        )
        await self._db.commit()

    async def save_chunk(self, run_id: str, chunk: int, thread_id: str, results: dict[int, Any]) -> None:
        """A finished chunk's verdicts, compressed; its LangGraph checkpoints are no longer needed."""
        await self._db.execute(
            "INSERT OR REPLACE INTO refhound_chunks VALUES (?, ?, ?)",
            (run_id, chunk, _zipped(_RESULTS.dump_json(results))),
        )
        await self._db.commit()
        await self.checkpointer.adelete_thread(thread_id)

    async def load_chunk(self, run_id: str, chunk: int) -> dict[int, ReferenceResult] | None:
        async with self._db.execute(
            "SELECT results FROM refhound_chunks WHERE run_id = ? AND chunk = ?", (run_id, chunk)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _RESULTS.validate_json(_unzipped(row[0]))

    async def finish(self, run_id: str) -> None:
        await self._db.execute(
            "UPDATE refhound_runs SET finished_at = ? WHERE run_id = ?",
            (datetime.now(UTC).isoformat(timespec="seconds"), run_id),
        )
        await self._db.commit()

    async def runs(self) -> list[RunInfo]:
        """Every stored run, oldest first."""
        query = (
            "SELECT r.run_id, r.created_at, r.finished_at, r.host, r.pid, r.inputs, r.total, r.refs, r.sop, "
            "(SELECT COUNT(*) FROM refhound_chunks c WHERE c.run_id = r.run_id), r.chunk_size "
            "FROM refhound_runs r ORDER BY r.created_at, r.run_id"
        )
        found: list[RunInfo] = []
        async with self._db.execute(query) as cursor:
            async for row in cursor:
                run_id, created, finished, host, pid, inputs, total, refs, sop, chunks, size = row
                if not total and isinstance(refs, str):  # stored by an older version
                    total = len(json.loads(refs))
                status = "finished" if finished else "running" if _alive(host, pid) else "interrupted"
                done = total if finished else min(total, chunks * size)
                found.append(RunInfo(run_id, created, status, json.loads(inputs), total, done, sop))
        return found

    async def prune(self, older_than: timedelta, *, interrupted_only: bool) -> list[str]:
        """Forget the runs started at least `older_than` ago (only the interrupted ones, or finished ones
        too); a run still going is never pruned. Returns their ids. Times are kept to the second, so a run
        started in this very second is as old as the cutoff: `<=` lets an age of 0 forget every run."""
        cutoff = (datetime.now(UTC) - older_than).isoformat(timespec="seconds")
        statuses = {"interrupted"} if interrupted_only else {"interrupted", "finished"}
        pruned = [r.run_id for r in await self.runs() if r.created_at <= cutoff and r.status in statuses]
        for run_id in pruned:
            await self.forget_id(run_id)
        return pruned

    async def compact(self) -> None:
        """Give the free pages back to the file system. A file made before `auto_vacuum` was set keeps
        them after an incremental vacuum: it is rewritten (VACUUM), and has the setting from then on."""
        await self._vacuum()
        async with self._db.execute("PRAGMA freelist_count") as cursor:
            row = await cursor.fetchone()
        if row is not None and row[0]:
            await self._db.execute("VACUUM")

    async def forget_id(self, run_id: str) -> None:
        """Delete a run: its manifest, references, chunks' verdicts and checkpoints; the file gives the
        space back."""
        async with self._db.execute(
            "SELECT total, chunk_size FROM refhound_runs WHERE run_id = ?", (run_id,)
        ) as cursor:
            row = await cursor.fetchone()
        chunks = -(-row[0] // max(row[1], 1)) if row else 0
        for n in range(chunks):
            await self.checkpointer.adelete_thread(f"{run_id}/chunk-{n}")
        await self._db.execute("DELETE FROM refhound_chunks WHERE run_id = ?", (run_id,))
        await self._db.execute("DELETE FROM refhound_refs WHERE run_id = ?", (run_id,))
        await self._db.execute("DELETE FROM refhound_runs WHERE run_id = ?", (run_id,))
        await self._db.commit()
        await self._vacuum()

    async def _vacuum(self) -> None:
        """Give the free pages back (none in a file made without auto_vacuum). Run as a script: a
        statement stepped once, as `execute` steps a pragma that returns no rows, frees a single page,
        and a 400,000-reference run left its 38 MB in the file."""
        await self._db.executescript("PRAGMA incremental_vacuum;")


def stored_results(path: Path, run_id: str) -> Iterator[ReferenceResult]:
    """A run's verdicts in the order of its references, read back a chunk at a time: the report of a run
    that did not keep them (`SopRunner.run(..., keep=False)`) is written from here."""
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT results FROM refhound_chunks WHERE run_id = ? ORDER BY chunk", (run_id,))
        for (stored,) in rows:
            chunk = _RESULTS.validate_json(_unzipped(stored))
            yield from (chunk[position] for position in sorted(chunk))


def _alive(host: str, pid: int) -> bool:
    """Whether the process that started (or resumed) a run is still running on this machine."""
    if not pid or host != socket.gethostname():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


@asynccontextmanager
async def open_runs(path: Path) -> AsyncIterator[RunStore]:
    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(path) as connection:
        # Pages freed by a forgotten run go back to the file system (set before any table is made; an
        # older file is converted by `refhound runs prune`).
        await connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
        # WAL without a sync per commit: a finished reference's checkpoint write costs microseconds,
        # and a crash of the machine (not of refhound) may lose only the last few.
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA synchronous = NORMAL")
        await connection.execute(_MANIFESTS)
        await connection.execute(_CHUNKS)
        await connection.execute(_REFS)
        async with connection.execute("PRAGMA table_info(refhound_runs)") as cursor:
            present = {row[1] async for row in cursor}
        for column, kind in _ADDED_COLUMNS.items():
            if column not in present:
                await connection.execute(f"ALTER TABLE refhound_runs ADD COLUMN {column} {kind}")
        await connection.commit()
        yield RunStore(path, connection)
