"""The memory remembers only what is true: records of authoritative sources, each with its provenance;
and `refhound memory stats|forget|clear` look after it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import chromadb
import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.memory.maintenance import clear, forget, memory_stats
from refhound.memory.store import COLLECTION, VerifiedMemory, record_key
from refhound.models import ParsedFields
from tests.conftest import RECORDS

BERT = next(r for r in RECORDS if r.source_id == "conf/naacl/DevlinCLT19")
USERS_OWN = BERT.model_copy(update={"source": "bibtex:mine.bib", "source_id": "devlin2019", "year": 2018})
FROM_A_WEB_PAGE = BERT.model_copy(update={"source": "web", "source_id": "https://example.org/bert"})


@pytest.fixture()
def memory(tmp_path: Path) -> Iterator[VerifiedMemory]:
    with VerifiedMemory.open(tmp_path / "memory") as opened:
        yield opened


def test_only_records_of_authoritative_sources_are_remembered(memory: VerifiedMemory) -> None:
    written = memory.remember_many(
        [USERS_OWN, FROM_A_WEB_PAGE, BERT], stage="scholar", verified_at=date(2025, 1, 2)
    )
    assert written == 1
    ((entry_id, metadata),) = memory.entries()
    assert entry_id == "dblp:conf/naacl/DevlinCLT19"
    assert (metadata["source"], metadata["source_version"], metadata["verified_at"]) == (
        "dblp",
        BERT.source_version,
        "2025-01-02",
    )


def test_a_record_an_older_version_remembered_from_a_users_bib_is_never_recalled(tmp_path: Path) -> None:
    path = tmp_path / "memory"
    VerifiedMemory.open(path).close()
    # Written as an older refhound did, straight into the collection.
    client = chromadb.PersistentClient(path=str(path))
    collection = client.get_collection(COLLECTION)
    from refhound.memory.embedding import default_embedding

    key = record_key(USERS_OWN)
    collection.upsert(
        ids=["bibtex:mine.bib:devlin2019"],
        documents=[key],
        embeddings=default_embedding().encode([key]),
        metadatas=[{"record": USERS_OWN.model_dump_json(), "stage": "scholar", "verified_at": "2024-05-01",
                    "source": USERS_OWN.source, "source_id": USERS_OWN.source_id, "source_version": "x"}],
    )  # fmt: skip
    client.close()
    with VerifiedMemory.open(path) as memory:
        assert memory.count() == 1
        assert memory.recall(ParsedFields(title=BERT.title, authors=BERT.authors, year=2019), 5) == []
        assert memory_stats(memory).never_recalled == 1


def test_stats_forget_and_clear(memory: VerifiedMemory) -> None:
    memory.remember_many(RECORDS[:3], stage="scholar", verified_at=date(2024, 1, 1))
    memory.remember_many(RECORDS[3:5], stage="web", verified_at=date(2025, 6, 1))
    stats = memory_stats(memory)
    assert stats.records == 5 and (stats.oldest, stats.newest) == ("2024-01-01", "2025-06-01")
    assert stats.by_stage == {"scholar": 3, "web": 2}
    with pytest.raises(ValueError, match="at least one"):
        forget(memory)
    assert forget(memory, before=date(2025, 1, 1)) == 3
    assert forget(memory, record_id=RECORDS[3].source_id) == 1
    assert clear(memory) == 1 and memory.count() == 0


def test_the_memory_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "memory"
    monkeypatch.setenv("REFHOUND_MEMORY__PATH", str(path))
    with VerifiedMemory.open(path) as memory:
        memory.remember_many(RECORDS[:3], stage="scholar", verified_at=date(2024, 1, 1))
    runner = CliRunner()
    result = runner.invoke(app, ["memory", "stats", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["records"] == 3
    assert runner.invoke(app, ["memory", "forget"]).exit_code == 2
    assert runner.invoke(app, ["memory", "forget", "--before", "yesterday"]).exit_code == 2
    result = runner.invoke(app, ["memory", "forget", "--source", RECORDS[0].source, "--before", "2030-01-01"])
    assert result.exit_code == 0 and "forgot" in result.stdout
    assert runner.invoke(app, ["memory", "clear"], input="n\n").exit_code == 1
    result = runner.invoke(app, ["memory", "clear", "--yes"])
    assert result.exit_code == 0 and "removed" in result.stdout
    assert json.loads(runner.invoke(app, ["memory", "stats", "--json"]).stdout)["records"] == 0
