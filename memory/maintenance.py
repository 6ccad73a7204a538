"""Looking after the memory: what it holds, and forgetting what should not be relied on.

`refhound memory stats|forget|clear` call these; they work on an open `VerifiedMemory`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from refhound.memory.store import AUTHORITATIVE_SOURCES, VerifiedMemory


@dataclass
class MemoryStats:
    path: str
    records: int
    by_source: dict[str, int] = field(default_factory=dict)
    by_stage: dict[str, int] = field(default_factory=dict)
    oldest: str | None = None  # verification dates, ISO
    newest: str | None = None
    never_recalled: int = 0  # entries of a source that is not authoritative (written by older versions)


def memory_stats(memory: VerifiedMemory) -> MemoryStats:
    entries = [metadata for _, metadata in memory.entries()]
    dates = sorted(str(m["verified_at"]) for m in entries if m.get("verified_at"))
    sources = Counter(str(m.get("source", "?")) for m in entries)
    return MemoryStats(
        path=str(memory.path),
        records=len(entries),
        by_source=dict(sources.most_common()),
        by_stage=dict(Counter(str(m.get("stage", "?")) for m in entries).most_common()),
        oldest=dates[0] if dates else None,
        newest=dates[-1] if dates else None,
        never_recalled=sum(n for source, n in sources.items() if source not in AUTHORITATIVE_SOURCES),
    )


def forget(
    memory: VerifiedMemory,
    source: str | None = None,
    record_id: str | None = None,
    before: date | None = None,
) -> int:
    """Remove the entries matching every selector given (at least one); returns how many went."""
    if source is None and record_id is None and before is None:
        raise ValueError("give at least one of source, record_id, before")
    chosen = [
        entry_id
        for entry_id, metadata in memory.entries()
        if (source is None or metadata.get("source") == source)
        and (record_id is None or metadata.get("source_id") == record_id)
        and (before is None or str(metadata.get("verified_at", "")) < before.isoformat())
    ]
    return memory.delete(chosen)


def clear(memory: VerifiedMemory) -> int:
    """Remove every entry; returns how many went."""
    return memory.delete([entry_id for entry_id, _ in memory.entries()])
