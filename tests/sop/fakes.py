"""Fake SOP agents for graph tests: they find what they are told to, record every call, and can be slow."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from refhound.agents.context import AgentContext, Candidate, Findings
from refhound.models import ParsedFields, Record, Reference
from refhound.normalize.titles import title_similarity


def reference(n: int, title: str | None = None) -> Reference:
    title = title or f"A Study of Topic Number {n} in Depth"
    return Reference(
        id=f"ref{n}",
        raw=title,
        parsed=ParsedFields(title=title, authors=["Ada Lovelace"], venue="Journal of Tests", year=2020),
    )


def record_for(ref: Reference, source: str = "fake", **changes: object) -> Record:
    fields = {
        "source": source,
        "source_id": ref.id,
        "source_version": "test",
        "title": ref.parsed.title or "",
        "authors": ref.parsed.authors,
        "venue": ref.parsed.venue,
        "year": ref.parsed.year,
    }
    fields.update(changes)
    return Record.model_validate(fields)


class FakeAgent:
    """Finds a record for the references whose ids it knows; counts calls and concurrency."""

    def __init__(
        self,
        stage: str,
        knows: Iterable[str] = (),
        *,
        delay_s: float = 0.0,
        unreachable: bool = False,
        log: Path | None = None,
        changes: dict[str, object] | None = None,
    ) -> None:
        self.stage = stage
        self.knows = set(knows)
        self.delay_s = delay_s
        self.unreachable = unreachable
        self.log = log
        self.changes = changes or {}
        self.calls: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()

    def __call__(self, ref: Reference, context: AgentContext) -> Findings:
        with self._lock:
            self.calls.append(ref.id)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay_s:
                time.sleep(self.delay_s)
            if self.log is not None:
                with self.log.open("a", encoding="utf-8") as handle:
                    handle.write(ref.id + "\n")
            if self.unreachable:
                return Findings(note="no answer", unreachable=(self.stage,))
            if ref.id not in self.knows:
                return Findings(note="nothing")
            record = record_for(ref, source=self.stage, **self.changes)
            similarity = title_similarity(ref.parsed.title or "", record.title)
            return Findings((Candidate(record, similarity, "title", stage=self.stage),), note="found")
        finally:
            with self._lock:
                self.in_flight -= 1


def agents(*fakes: FakeAgent) -> dict[str, Callable[[Reference, AgentContext], Findings]]:
    return {fake.stage: fake for fake in fakes}
