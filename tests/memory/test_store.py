"""The verified-citation memory on real papers: persisted, found again across citation styles, upserted,
thread-safe, and a clear error for a directory that is not a memory."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

import chromadb
import pytest
from chromadb.config import Settings as ChromaSettings

from refhound.errors import MemoryUnavailable
from refhound.memory.embedding import MiniLMEmbeddingFunction
from refhound.memory.store import COLLECTION, VerifiedMemory, cited_key, record_key
from refhound.models import ParsedFields, Record
from tests.conftest import RECORDS

THRESHOLD = 0.80  # MemorySettings().similarity
DAY = date(2025, 3, 14)
BERT = next(r for r in RECORDS if r.source_id == "conf/naacl/DevlinCLT19")
RESNET = next(r for r in RECORDS if r.source_id == "conf/cvpr/HeZRS16")


@pytest.fixture()
def memory(tmp_path: Path) -> Iterator[VerifiedMemory]:
    with VerifiedMemory.open(tmp_path / "memory") as opened:
        opened.remember_many(RECORDS, stage="scholar", verified_at=DAY)
        yield opened


# The same works as another citation style writes them (APA, IEEE, Vancouver): case, initials,
# abbreviated venues, a trailing period, hyphens.
RECITED = [
    (
        BERT,
        ParsedFields(
            title="Bert: pre-training of deep bidirectional transformers for language understanding.",
            authors=["Devlin, J.", "Chang, M.-W.", "Lee, K.", "Toutanova, K."],
            venue="Proc. NAACL-HLT",
            year=2019,
        ),
    ),
    (
        RESNET,
        ParsedFields(
            title='"Deep residual learning for image recognition,"',
            authors=["K. He", "X. Zhang", "S. Ren", "J. Sun"],
            venue="in Proc. IEEE CVPR",
            year=2016,
        ),
    ),
    (
        next(r for r in RECORDS if r.source == "arxiv"),
        ParsedFields(
            title="Language models are few-shot learners",
            authors=["Brown TB", "Mann B", "Ryder N"],
            authors_truncated=True,
            venue="arXiv",
            year=2020,
        ),
    ),
]


def test_text_key_is_the_same_for_a_record_and_its_citation() -> None:
    _, cited = RECITED[0]
    assert record_key(BERT) == cited_key(cited)
    assert (
        record_key(BERT)
        == "bert pre training of deep bidirectional transformers for language understanding. devlin 2019"
    )
    assert cited_key(ParsedFields(authors=["Devlin, J."], year=2019)) == ""


def test_empty_memory_recalls_nothing_quickly_without_loading_the_model(tmp_path: Path) -> None:
    embedding = MiniLMEmbeddingFunction()
    with VerifiedMemory.open(tmp_path / "memory", embedding) as memory:
        started = time.perf_counter()
        assert memory.recall(RECITED[0][1], k=5) == []
        assert time.perf_counter() - started < 0.1
        assert memory.count() == 0
    assert embedding._loaded is None


def test_round_trip_across_reopen(tmp_path: Path) -> None:
    path = tmp_path / "memory"
    with VerifiedMemory.open(path) as memory:
        memory.remember(BERT, stage="scholar", verified_at=DAY, cited=RECITED[0][1])
    with VerifiedMemory.open(path) as memory:
        assert memory.count() == 1
        (found,) = memory.recall(ParsedFields(title=BERT.title, authors=BERT.authors, year=2019), k=5)
    assert found.record == BERT
    assert (found.stage, found.verified_at) == ("scholar", DAY)
    assert found.similarity == pytest.approx(1.0, abs=1e-4)


def test_persisted_collection_is_cosine_and_reopens_with_its_embedding_function(tmp_path: Path) -> None:
    path = tmp_path / "memory"
    VerifiedMemory.open(path).close()
    client = chromadb.PersistentClient(path=str(path), settings=ChromaSettings(anonymized_telemetry=False))
    try:
        configuration = client.get_collection(COLLECTION).configuration
        assert (configuration.get("hnsw") or {}).get("space") == "cosine"
        assert isinstance(configuration.get("embedding_function"), MiniLMEmbeddingFunction)
    finally:
        client.close()


def test_memory_sends_no_telemetry(memory: VerifiedMemory) -> None:
    assert memory._client.get_settings().anonymized_telemetry is False


@pytest.mark.parametrize(("record", "cited"), RECITED, ids=[r.source_id for r, _ in RECITED])
def test_same_work_in_another_citation_style_is_recalled(
    memory: VerifiedMemory, record: Record, cited: ParsedFields
) -> None:
    best = memory.recall(cited, k=3)[0]
    assert best.record == record
    assert best.similarity >= THRESHOLD


def test_unrelated_citation_is_not_above_the_threshold(memory: VerifiedMemory) -> None:
    cited = ParsedFields(
        title="Crystal structure prediction of organic semiconductors with evolutionary algorithms",
        authors=["Maria Garcia"],
        year=2021,
    )
    found = memory.recall(cited, k=5)
    assert len(found) == 5
    assert all(r.similarity < THRESHOLD for r in found)
    assert [r.similarity for r in found] == sorted((r.similarity for r in found), reverse=True)


def test_remembering_again_replaces_the_entry(memory: VerifiedMemory) -> None:
    held = memory.count()
    later = date(2026, 1, 2)
    memory.remember(BERT, stage="web", verified_at=later)
    memory.remember(BERT, stage="web", verified_at=later)
    assert memory.count() == held == len(RECORDS)
    best = memory.recall(RECITED[0][1], k=1)[0]
    assert (best.record, best.stage, best.verified_at) == (BERT, "web", later)


def test_many_threads_share_one_memory(tmp_path: Path) -> None:
    with VerifiedMemory.open(tmp_path / "memory") as memory:

        def work(i: int) -> int:
            record = RECORDS[i % len(RECORDS)]
            memory.remember(record, stage="scholar", verified_at=DAY)
            cited = ParsedFields(title=record.title, authors=record.authors, year=record.year)
            return len(memory.recall(cited, k=2))

        with ThreadPoolExecutor(max_workers=6) as pool:
            found = list(pool.map(work, range(24)))
        assert all(n >= 1 for n in found)
        assert memory.count() == len(RECORDS)


def test_closed_memory_says_so(tmp_path: Path) -> None:
    memory = VerifiedMemory.open(tmp_path / "memory")
    memory.close()
    memory.close()
    with pytest.raises(MemoryUnavailable, match="is closed"):
        memory.count()


def _file(path: Path) -> None:
    path.write_text("not a directory")


def _garbage_database(path: Path) -> None:
    path.mkdir()
    (path / "chroma.sqlite3").write_bytes(b"garbage" * 1000)


def _damaged_database(path: Path) -> None:
    VerifiedMemory.open(path).close()
    data = bytearray((path / "chroma.sqlite3").read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)  # a valid SQLite header, then nothing readable
    (path / "chroma.sqlite3").write_bytes(bytes(data))


def _foreign_directory(path: Path) -> None:
    path.mkdir()
    (path / "thesis.tex").write_text("\\documentclass{article}")


def _database_is_a_directory(path: Path) -> None:
    (path / "chroma.sqlite3").mkdir(parents=True)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (_file, "is a file, not a memory directory"),
        (_garbage_database, "is not an SQLite database"),
        (_damaged_database, "not a readable refhound memory"),
        (_foreign_directory, "non-empty directory without a memory"),
        (_database_is_a_directory, "chroma.sqlite3 is not a file"),
    ],
)
def test_unusable_directory_is_a_clear_error(tmp_path: Path, damage, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "memory"
    damage(path)
    with pytest.raises(MemoryUnavailable, match=message) as caught:
        VerifiedMemory.open(path)
    assert str(path) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_repaired_directory_opens_after_a_failure(tmp_path: Path) -> None:
    path = tmp_path / "memory"
    _garbage_database(path)
    with pytest.raises(MemoryUnavailable):
        VerifiedMemory.open(path)
    (path / "chroma.sqlite3").unlink()
    with VerifiedMemory.open(path) as memory:
        assert memory.count() == 0


def test_a_valid_sqlite_file_of_another_program_is_not_mistaken_for_a_memory(tmp_path: Path) -> None:
    path = tmp_path / "memory"
    path.mkdir()
    with sqlite3.connect(path / "chroma.sqlite3") as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
    connection.close()
    # chromadb migrates any SQLite file it is given; what matters is that no chromadb error escapes.
    try:
        VerifiedMemory.open(path).close()
    except MemoryUnavailable as error:
        assert str(path) in str(error)
