"""The index's retraction marks (the `retractions` table): written from what a dump states, read by DOI or
arXiv id when a check names the cited work's record."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from refhound.models import Retraction, RetractionKind
from refhound.retractions import Notice

_REINSTATED = "reinstated"


def write_notices(db: sqlite3.Connection, notices: Iterable[Notice]) -> int:
    """Upsert the marks (the caller commits); the same notice read again replaces its row."""
    rows = [_row(notice) for notice in notices]
    db.executemany("INSERT OR REPLACE INTO retractions VALUES (?, ?, ?, ?, ?, ?)", rows)
    return len(rows)


def read_notices(db: sqlite3.Connection, doi: str | None, arxiv_id: str | None) -> list[Notice]:
    """The marks kept for this DOI and this arXiv id (both normalized); [] from an index without the
    table (built before it existed: it holds no marks)."""
    keys = [(kind, key) for kind, key in (("doi", doi), ("arxiv", arxiv_id)) if key]
    if not keys or not _has_table(db):
        return []
    notices = []
    for key_kind, key in keys:
        rows = db.execute(
            "SELECT kind, notice_doi, date, source FROM retractions WHERE key_kind = ? AND key = ?",
            (key_kind, key),
        ).fetchall()
        notices += [_notice(key_kind, key, *row) for row in rows]
    return notices


def count_notices(db: sqlite3.Connection) -> int:
    if not _has_table(db):
        return 0
    return int(db.execute("SELECT count(*) FROM retractions WHERE kind != ?", (_REINSTATED,)).fetchone()[0])


def holds_notices(db: sqlite3.Connection) -> bool:
    """Whether the index keeps any mark at all (reinstatements included)."""
    return _has_table(db) and db.execute("SELECT 1 FROM retractions LIMIT 1").fetchone() is not None


def _has_table(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE name = 'retractions'").fetchone() is not None


def _row(notice: Notice) -> tuple[str, str, str, str, str, str]:
    mark = notice.retraction
    if mark is None:  # a reinstatement
        return (notice.key_kind, notice.key, _REINSTATED, "", notice.reinstated or "", "retraction-watch")
    return (notice.key_kind, notice.key, mark.kind.value, mark.notice_doi or "", mark.date or "", mark.source)


def _notice(key_kind: str, key: str, kind: str, notice_doi: str, date: str, source: str) -> Notice:
    if kind == _REINSTATED:
        return Notice(key_kind, key, reinstated=date or "0000")
    mark = Retraction(
        kind=RetractionKind(kind), notice_doi=notice_doi or None, date=date or None, source=source
    )
    return Notice(key_kind, key, mark)
