"""What a finished paper is remembered by, and the names of its output files.

A paper (at one origin) is done for a re-run when its bytes (SHA-256), refhound's version, the index (path,
record count, dumps) and every setting that can change a verdict are the same: `paper_key` hashes them.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from refhound import __version__
from refhound.settings import Settings

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def slug(origin: str, display: str) -> str:
    """A file name for a paper's outputs: readable from its display name, unique by its origin."""
    stem = display.rsplit("!", 1)[-1].rsplit("/", 1)[-1]
    stem = stem[:-4] if stem.lower().endswith(".pdf") else stem
    readable = _UNSAFE.sub("-", stem).strip("-.")[:60] or "paper"
    return f"{readable}-{hashlib.sha256(origin.encode()).hexdigest()[:10]}"


def verdict_settings(settings: Settings) -> dict[str, Any]:
    """The settings a verdict depends on (not paths of caches, timeouts or rates)."""
    sources = settings.sources
    return {
        "judge": settings.judge.model_dump(mode="json"),
        "check": settings.check.model_dump(mode="json", exclude={"max_input_bytes"}),
        "extract": settings.extract.model_dump(mode="json", exclude={"max_bytes"}),
        "sop": settings.sop.name,
        "llm": [settings.llm.base_url, settings.llm.model],
        "memory": settings.memory.enabled,
        "sources": {
            "tiers": [[str(name) for name in tier] for tier in sources.tiers],
            "enabled": {
                name: [getattr(sources, name).enabled, getattr(sources, name).base_url]
                for name in ("crossref", "openalex", "dblp", "arxiv", "semantic_scholar", "doi")
            },
        },
        "web": settings.web.provider,
    }


def index_identity(stats: dict[str, object]) -> dict[str, object]:
    """What tells one index from another: its path, record count and dumps (from `IndexStore.stats()`)."""
    return {"path": stats.get("path"), "records": stats.get("records"), "dumps": stats.get("dumps")}


def run_fingerprint(settings: Settings, index_stats: dict[str, object]) -> str:
    """The version, index and verdict settings of a run, hashed: what a paper's key adds to its bytes."""
    material = {"version": __version__, "index": index_identity(index_stats), **verdict_settings(settings)}
    encoded = json.dumps(material, sort_keys=True, default=str).encode()
    return hashlib.sha256(encoded).hexdigest()


def paper_key(origin: str, digest: str, kind: str, fingerprint: str) -> str:
    """A paper's resume key. Its origin is part of it: a copy under another name is another submission,
    with its own row and report files."""
    return hashlib.sha256(f"{origin}\0{digest}:{kind}:{fingerprint}".encode()).hexdigest()[:32]
