"""The embedded bibliographic index: an SQLite file with FTS5 over titles and authors.

Writes go through `IndexStore.ingest` (streaming, batched, idempotent: a record is keyed by its source
and source id, so re-ingesting a dump replaces rather than duplicates). Reads are the lookups the judge
needs: by DOI, by arXiv id, by exact title key, by full-text title search, and coverage.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import Any

from refhound.errors import IndexCorrupt, IndexMissing, IndexStale
from refhound.index.completeness import Proof, assess
from refhound.index.ingest.base import Dump
from refhound.index.schema import SCHEMA, SCHEMA_VERSION
from refhound.models import Record
from refhound.normalize.identifiers import normalize_arxiv_id, normalize_doi
from refhound.normalize.names import name_key
from refhound.normalize.titles import title_key
from refhound.normalize.venues import parse_venue

_BATCH = 2000
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


@dataclass(frozen=True)
class IndexedRecord:
    """A record as stored, with the normalized keys the judge compares."""

    rowid: int
    record: Record
    title_key: str
    venue_key: str | None
    venue_kind: str | None


@dataclass(frozen=True)
class IngestResult:
    source: str
    version: str
    records: int
    problems: list[str]
    seconds: float
    added: int = 0  # records of the source the index did not hold before
    withdrawn: int = 0  # records taken out (absent from a newer full dump of the source)


def _row_values(record: Record, proof: Proof) -> tuple[object, ...]:
    venue = parse_venue(record.venue) if record.venue else None
    return (
        record.source,
        record.source_id,
        record.source_version,
        record.title,
        title_key(record.title),
        json.dumps(record.authors, ensure_ascii=False),
        " ".join(k for k in (name_key(a) for a in record.authors) if k),
        record.venue,
        venue.key if venue else None,
        venue.kind.value if venue else None,
        record.year,
        normalize_doi(record.doi) if record.doi else None,
        normalize_arxiv_id(record.arxiv_id) if record.arxiv_id else None,
        record.url,
        record.entry_type,
        proof.value,
    )


def _stale(path: Path, version: str) -> IndexStale:
    return IndexStale(
        path,
        f"built by another refhound (index schema {version}, this one reads {SCHEMA_VERSION}): delete it and "
        "build it again with `refhound index build`",
    )


def _fts_phrase(token: str) -> str:
    return '"' + token.replace('"', "") + '"'


class IndexStore:
    """An open index file. Use `IndexStore.open` to read and `IndexStore.create` to build."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection
        self._doc_freq = lru_cache(maxsize=65536)(self._doc_freq_uncached)
        self._count: int | None = None

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
    ) -> IngestResult:
        """Stream a dump into the index in batches; coverage for its source is recomputed after.

        `withdraw_absent`: the dump is a newer full dump of its source (an update re-reading dblp or the
        ACL Anthology), so the source's records it no longer holds are taken out and listed in
        `withdrawn`. Only after the whole dump was read: a dump that breaks off withdraws nothing.

        If the dump breaks off (an `IngestError` from a truncated file), the batches already written stay
        (re-running the build replaces them) but the dump is not registered and its coverage is not
        updated, so a half-read dump never makes the index claim completeness.
        """
        started = time.perf_counter()
        before = self._source_count(dump.source)
        count = 0
        records: Iterator[Record] = dump.records
        if withdraw_absent:
            self._db.execute("CREATE TEMP TABLE IF NOT EXISTS seen (source_id TEXT PRIMARY KEY)")
            self._db.execute("DELETE FROM seen")
        while batch := list(islice(records, _BATCH)):
            with self._db:
                self._db.executemany(_UPSERT, [_row_values(r, dump.proof_of(r)) for r in batch])
                if withdraw_absent:
                    self._db.executemany(
                        "INSERT OR IGNORE INTO seen VALUES (?)", [(r.source_id,) for r in batch]
                    )
            count += len(batch)
            if progress:
                progress(count)
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
        return IngestResult(dump.source, dump.version, count, list(dump.problems), seconds, added, withdrawn)

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

    def by_title_key(self, key: str) -> list[IndexedRecord]:
        return self._rows(f"SELECT id, {_COLUMNS} FROM records WHERE title_key = ?", (key,))

    def search_title(self, key: str, limit: int) -> list[IndexedRecord]:
        """Full-text candidates for a title key, best BM25 first; tolerant of typos and missing words.

        The query ORs the title's most specific tokens (those in at most `_COMMON_TOKEN_SHARE` of the
        records). A token the index has never seen (often a typo) stands for a prefix query on its first
        letters, used only when fewer than two specific tokens are left. A common token ("learning" …) is
        never ORed: its posting list is a large share of the index and ranking it all costs hundreds of
        milliseconds at a million records. With one specific token the query is that token AND any of the
        common ones (ranked by all of them); with none, the two least common ANDed.
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
        common = max(1000, int(self._record_count() * _COMMON_TOKEN_SHARE))
        specific = [term for freq, term in exact if freq <= common][:_MAX_QUERY_TOKENS]
        if len(specific) < _MIN_QUERY_TOKENS:
            specific += [term for freq, term in prefixes if freq <= common][
                : _MIN_QUERY_TOKENS - len(specific)
            ]
        usual = [term for freq, term in sorted(exact + prefixes) if freq > common][:3]
        if len(specific) >= _MIN_QUERY_TOKENS:
            query = " OR ".join(specific)
        elif specific and usual:
            query = f"{specific[0]} AND ({' OR '.join(usual)})"
        elif specific:
            query = specific[0]
        else:
            query = " AND ".join(usual[:2])
        return self._rows(
            f"SELECT r.id, {', '.join('r.' + c.strip() for c in _COLUMNS.split(','))} FROM records_fts f "
            "JOIN records r ON r.id = f.rowid WHERE records_fts MATCH ? ORDER BY f.rank LIMIT ?",
            (f"title_key : ({query})", limit),
        )

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
        return {
            "path": str(self.path),
            "records": total,
            "dumps": dumps,
            # Where each source came from, its version or date, and when it was last brought up to date.
            "origins": [
                {k: v for k, v in o.items() if k != "state"} | {"harvested_to": o["state"].get("from")}
                for o in self.origins()
            ],
            "withdrawn": self.withdrawn_count(),
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
    (
        rowid,
        source,
        source_id,
        version,
        title,
        tkey,
        authors,
        _akey,
        venue,
        vkey,
        vkind,
        year,
        doi,
        arxiv,
        url,
        etype,
    ) = row
    record = Record.model_construct(
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
    return IndexedRecord(int(rowid), record, tkey, vkey, vkind)
