"""Evaluator verdicts kept between runs, keyed by (evaluator, claim, source hash, model, prompt version), and
the MiniLM vectors of claims and passages, keyed by (model, text).

A verdict depends on exactly those: the same claim judged against the same text by the same model under the
same rubric gets the same answer at temperature 0, so asking again only costs time. The source is keyed by
the SHA-256 of the text the model was shown (a quote, or the source excerpt), so a changed source is a new
key. A vector depends on its text and the embedding model alone; kept, a re-check of the same draft runs
MiniLM only on what changed. One SQLite file; look-ups are batched before a run and writes after it, in one
transaction each.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from platformdirs import user_cache_dir

if TYPE_CHECKING:
    from refhound.settings import Settings


def cache_path(settings: Settings) -> Path:
    """The setting `quotes.evaluation_cache`, else evaluations.sqlite in the user cache folder."""
    return settings.quotes.evaluation_cache or Path(user_cache_dir("refhound")) / "evaluations.sqlite"


def cache_key(evaluator: str, claim: str, source_text: str, model: str, prompt_version: str) -> str:
    source_hash = hashlib.sha256(source_text.encode("utf-8")).hexdigest()
    payload = json.dumps([evaluator, claim, source_hash, model, prompt_version], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def vector_key(model: str, text: str) -> str:
    return hashlib.sha256(json.dumps([model, text], ensure_ascii=False).encode("utf-8")).hexdigest()


class VerdictCache:
    """Verdicts by key, as JSON objects ({"verdict", "explanation"}); vectors by key, as raw float32 bytes."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, reply TEXT NOT NULL)")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")

    def get_many(self, keys: Iterable[str]) -> dict[str, dict[str, str]]:
        return {key: json.loads(reply) for key, reply in self._select("verdicts", "reply", keys).items()}

    def vectors(self, keys: Iterable[str]) -> dict[str, bytes]:
        return self._select("vectors", "vector", keys)

    def _select(self, table: str, column: str, keys: Iterable[str]) -> dict[str, Any]:
        wanted = list(dict.fromkeys(keys))
        found: dict[str, Any] = {}
        for start in range(0, len(wanted), 500):  # SQLite's bound on host parameters
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            found.update(self._db.execute(f"SELECT key, {column} FROM {table} WHERE key IN ({marks})", chunk))
        return found

    def put_many(self, items: dict[str, dict[str, str]]) -> None:
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO verdicts (key, reply) VALUES (?, ?)",
                [(key, json.dumps(reply, ensure_ascii=False)) for key, reply in items.items()],
            )

    def put_vectors(self, items: dict[str, bytes]) -> None:
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)", items.items())

    def close(self) -> None:
        self._db.close()
