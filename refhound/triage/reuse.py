"""Cross-paper reuse: a cited work already looked up in this run is not looked up again.

Submissions to one conference cite the same popular works. Each evidence stage's agent is wrapped: its
findings (the candidate records it found, the services that did not answer, the identifiers found dead) are
stored in a SQLite file of the run, keyed by the stage and the cited work — its DOI, else its normalized
title and first author's surname (and any arXiv id or URL it carries, which the identifier stage probes).
Another reference to the same work, in any paper and any worker process, gets the stored candidates
without a look-up. Only the look-up is reused: the judge still compares *this* reference's cited fields to
the candidates, so two papers citing one work with different years get their own verdicts. Findings with an
unreachable service are not stored (the next reference asks again).

The verified-citation memory (`agents/memory.py`) is a different thing: it keeps, across runs, records
that *verified* a citation, found by slow sources, and nominates them by vector similarity. This store
keeps every stage's findings, verified or not, for one run only, and matches by exact key.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refhound.agents.candidates import best_first
from refhound.agents.context import Agent, AgentContext, Candidate, Findings
from refhound.models import ParsedFields, Record, Reference
from refhound.normalize.identifiers import normalize_arxiv_id, normalize_doi
from refhound.normalize.names import name_key
from refhound.normalize.titles import title_key, title_similarity

_SCHEMA = """
CREATE TABLE IF NOT EXISTS findings (
    stage TEXT NOT NULL,
    work TEXT NOT NULL,
    cited_title TEXT NOT NULL,
    findings TEXT NOT NULL,
    PRIMARY KEY (stage, work)
)
"""


def work_key(cited: ParsedFields) -> str | None:
    """The cited work's key: its DOI, else normalized title + first author; None when neither is there.

    An arXiv id and a URL join the key: the identifier stage probes them, so they change its findings."""
    doi = normalize_doi(cited.doi) if cited.doi else None
    if doi:
        key = f"doi:{doi}"
    else:
        title = title_key(cited.title) if cited.title else ""
        first = name_key(cited.authors[0]) if cited.authors else ""
        if not title or not first:
            return None
        key = f"title:{title}|{first}"
    arxiv = normalize_arxiv_id(cited.arxiv_id) if cited.arxiv_id else None
    extra = "".join(f"|{part}" for part in (arxiv, cited.url) if part)
    return key + extra


def _dump(findings: Findings) -> str:
    return json.dumps(
        {
            "candidates": [
                {
                    "record": c.record.model_dump(mode="json"),
                    "title_similarity": c.title_similarity,
                    "via": c.via,
                    "stage": c.stage,
                    "note": c.note,
                }
                for c in findings.candidates
            ],
            "note": findings.note,
            "unreachable": list(findings.unreachable),
            "dead_identifiers": list(findings.dead_identifiers),
        }
    )


def _load(text: str) -> Findings:
    data: dict[str, Any] = json.loads(text)
    candidates = tuple(
        Candidate(
            record=Record.model_validate(c["record"]),
            title_similarity=float(c["title_similarity"]),
            via=str(c["via"]),
            stage=str(c["stage"]),
            note=str(c["note"]),
        )
        for c in data["candidates"]
    )
    return Findings(
        candidates,
        note=str(data["note"]),
        unreachable=tuple(data["unreachable"]),
        dead_identifiers=tuple(data["dead_identifiers"]),
    )


def prepare_lookups(path: Path) -> Path:
    """The shared file in WAL mode with its table, made by the process that starts the workers before any
    starts: two processes switching a new file to WAL at once may get "database is locked" at once, without
    the busy timeout's wait. Again in a worker, it changes nothing."""
    with closing(sqlite3.connect(path, timeout=60, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(_SCHEMA)
    return path


class LookupStore:
    """The run's findings per (stage, work), in a SQLite file several processes share (WAL, busy timeout).

    One connection per thread: the SOP may run agents in a thread pool."""

    def __init__(self, path: Path) -> None:
        self.path = prepare_lookups(path)
        self._local = threading.local()

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self._local.db = db
        return db

    def get(self, stage: str, work: str) -> tuple[str, Findings] | None:
        row = (
            self._connection()
            .execute("SELECT cited_title, findings FROM findings WHERE stage = ? AND work = ?", (stage, work))
            .fetchone()
        )
        return None if row is None else (str(row[0]), _load(row[1]))

    def put(self, stage: str, work: str, cited_title: str, findings: Findings) -> None:
        self._connection().execute(
            "INSERT OR IGNORE INTO findings VALUES (?, ?, ?, ?)", (stage, work, cited_title, _dump(findings))
        )


@dataclass
class ReuseCounter:
    """Look-ups asked for in this process, and how many of them the store answered; thread-safe."""

    lookups: int = 0
    reused: int = 0

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def count(self, *, reused: bool) -> None:
        with self._lock:
            self.lookups += 1
            self.reused += int(reused)

    def take(self) -> tuple[int, int]:
        """The counts since the last `take`."""
        with self._lock:
            counts = (self.lookups, self.reused)
            self.lookups = self.reused = 0
            return counts


def _for_this_citation(
    stored_title: str, findings: Findings, cited: ParsedFields, context: AgentContext
) -> Findings:
    """Stored findings re-scored against this reference's own cited title (a DOI key may join citations
    whose titles differ), best first as the stage would have ranked them."""
    if (cited.title or "") == stored_title or not findings.candidates:
        return findings
    rescored = [
        Candidate(
            c.record,
            title_similarity(cited.title, c.record.title) if cited.title else 0.0,
            c.via,
            c.stage,
            c.note,
        )
        for c in findings.candidates
    ]
    ranked = best_first(cited, rescored, context.settings.judge.candidates)
    return Findings(tuple(ranked), findings.note, findings.unreachable, findings.dead_identifiers)


def reusing(stage: str, agent: Agent, store: LookupStore, counter: ReuseCounter) -> Agent:
    """`agent` whose look-ups are shared through `store` (see the module's docstring)."""

    def reused(reference: Reference, context: AgentContext) -> Findings:
        work = work_key(reference.parsed)
        if work is None:
            return agent(reference, context)
        stored = store.get(stage, work)
        if stored is not None:
            counter.count(reused=True)
            title, findings = stored
            found = _for_this_citation(title, findings, reference.parsed, context)
            note = f"{found.note} (look-up reused from earlier in this triage run)".strip()
            return Findings(found.candidates, note, found.unreachable, found.dead_identifiers)
        counter.count(reused=False)
        findings = agent(reference, context)
        if not findings.unreachable:
            store.put(stage, work, reference.parsed.title or "", findings)
        return findings

    reused.__name__ = f"reusing_{stage}"
    return reused
