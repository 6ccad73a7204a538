"""The persistent cache of the services' answers: one SQLite file, so re-runs are reproducible and offline
runs can reuse what an online run was told.

Only answers are kept: a 2xx body, and a 404 the caller declared a definite "no such work". Failures
(no connection, timeouts, 429, 5xx, unusable bodies) are never stored: they say nothing about the work,
and a later run must ask again. An entry is keyed by what changes the answer: the method, the URL with its
query parameters sorted, and the Accept header. Credentials (API keys, tokens) and the contact address
never change the answer, so they are left out of the key, and nothing else of a request is stored: the
file holds no secret.

The cache is a convenience, never a reason to fail: a file that cannot be read or written (corrupt, not
a refhound cache, read-only, locked) is reported once through `logging` and the run goes on without it.
It is used from one event-loop thread; the calls block, but a primary-key look-up or an insert in WAL
mode takes well under a millisecond, and several processes may share one file (SQLite's locking, with a
busy timeout).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import httpx

logger = logging.getLogger(__name__)

#: `PRAGMA user_version` of a refhound HTTP cache; another value is another file, left alone.
SCHEMA_VERSION = 1
#: Query parameters that identify the caller, not the question (lower case).
IGNORED_PARAMS = frozenset({"mailto", "api_key", "apikey", "key", "token", "access_token", "email"})
#: The request headers that change the answer (content negotiation); any other header is left out.
KEYED_HEADERS = ("accept",)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    status INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    body BLOB NOT NULL,
    fetched_at REAL NOT NULL
)
"""


@dataclass(frozen=True)
class CachedAnswer:
    """A stored answer and when it was fetched (seconds since the epoch)."""

    status: int
    content_type: str
    body: bytes
    fetched_at: float


def cache_key(method: str, url: httpx.URL, headers: Mapping[str, str]) -> str:
    """E.g. "GET http://host:80/works?query=a&rows=5 accept=*/*": credentials and contact left out."""
    params = sorted(
        (name, value) for name, value in url.params.multi_items() if name.lower() not in IGNORED_PARAMS
    )
    port = url.port or {"http": 80, "https": 443}.get(url.scheme, 0)
    query = f"?{urlencode(params)}" if params else ""
    path = url.raw_path.split(b"?", 1)[0].decode("ascii")
    keyed = " ".join(f"{name}={headers.get(name, '')}" for name in KEYED_HEADERS)
    return f"{method.upper()} {url.scheme}://{url.host}:{port}{path}{query} {keyed}"


class HttpCache:
    """The cache file at `path`; entries younger than `ttl_s` are fresh. Opened on first use."""

    def __init__(self, path: Path, ttl_s: float, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.ttl_s = ttl_s
        self._clock = clock
        self._db: sqlite3.Connection | None = None
        self._broken: str | None = None

    def is_fresh(self, answer: CachedAnswer) -> bool:
        return self._clock() - answer.fetched_at < self.ttl_s

    def get(self, key: str) -> CachedAnswer | None:
        """The stored answer for `key`, of any age; None when there is none (or no usable cache)."""
        db = self._connect(create=False)
        if db is None:
            return None
        try:
            row = db.execute(
                "SELECT status, content_type, body, fetched_at FROM answers WHERE key = ?", (key,)
            ).fetchone()
        except sqlite3.Error as error:
            self._give_up(error)
            return None
        return None if row is None else CachedAnswer(int(row[0]), str(row[1]), bytes(row[2]), float(row[3]))

    def put(self, key: str, status: int, content_type: str, body: bytes) -> None:
        """Store an answer fetched now (replacing an older one); creates the file on the first write."""
        db = self._connect(create=True)
        if db is None:
            return
        try:
            with db:
                db.execute(
                    "INSERT OR REPLACE INTO answers (key, status, content_type, body, fetched_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (key, status, content_type, body, self._clock()),
                )
        except sqlite3.Error as error:
            self._give_up(error)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _connect(self, *, create: bool) -> sqlite3.Connection | None:
        if self._db is not None or self._broken is not None:
            return self._db
        if not create and not self.path.exists():
            return None  # nothing stored yet: a miss, and no empty file left behind by a read
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            self._give_up(error)
            return None
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if version != SCHEMA_VERSION and (version != 0 or tables):
                db.close()
                self._give_up(f"not a refhound HTTP cache (schema version {version}, {tables} tables)")
                return None
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            if version == 0:  # one transaction: another process never sees a table without the version
                db.execute("BEGIN IMMEDIATE")
                db.execute(_SCHEMA)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
        except sqlite3.Error as error:
            db.close()
            self._give_up(error)
            return None
        self._db = db
        return db

    def _give_up(self, problem: object) -> None:
        if self._broken is None:
            self._broken = str(problem) or type(problem).__name__
            logger.warning(
                "the HTTP cache %s cannot be used (%s): going on without it", self.path, self._broken
            )
        self.close()
