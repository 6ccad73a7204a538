"""The SQLite index: idempotent ingest, provenance, coverage, lookups and clear errors for bad files."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.errors import IndexCorrupt, IndexMissing
from refhound.index import store as store_module
from refhound.index.ingest.base import Dump
from refhound.index.store import IndexStore
from refhound.models import Record
from refhound.normalize.titles import title_key
from tests.conftest import RECORDS, build_index


def test_reingesting_the_same_dump_changes_nothing(tmp_path: Path) -> None:
    path = build_index(tmp_path / "i.sqlite", RECORDS[:3])
    build_index(path, RECORDS[:3])
    with IndexStore.open(path) as store:
        info = store.stats()
        assert info["records"] == 3
        hits = [h.record.source_id for h in store.search_title(title_key("deep residual learning"), 10)]
        assert hits.count("conf/cvpr/HeZRS16") == 1


def test_records_keep_their_provenance(store: IndexStore) -> None:
    (row,) = store.by_doi("10.1109/cvpr.2016.90")
    assert (row.record.source, row.record.source_id, row.record.source_version) == (
        "dblp",
        "conf/cvpr/HeZRS16",
        "2021-09",
    )
    assert row.venue_key == "cvpr"
    dumps = store.stats()["dumps"]
    assert {d["source"] for d in dumps} == {"dblp", "arxiv"}  # type: ignore[attr-defined]


def test_lookups_by_identifier_and_title(store: IndexStore) -> None:
    assert store.by_arxiv_id("2005.14165")[0].record.title == "Language Models are Few-Shot Learners"
    assert store.by_title_key(title_key("attention is all you need"))[0].record.year == 2017
    hits = store.search_title(title_key("Attention is not explanation"), 5)
    assert hits[0].record.source_id == "conf/naacl/JainW19"


def test_search_tolerates_a_typo_and_a_missing_word(store: IndexStore) -> None:
    hits = store.search_title(title_key("Adam: a methd for stochastic optimisation"), 5)
    assert hits and hits[0].record.source_id == "conf/iclr/KingmaB14"


def test_who_has_written_with_whom(store: IndexStore) -> None:
    # Devlin, Chang, Lee and Toutanova wrote BERT together: initials and full names both find it.
    assert store.co_authorship("K. Lee", ["Jacob Devlin"]) == (
        "dblp conf/naacl/DevlinCLT19 lists K. Lee with Jacob Devlin"
    )
    assert store.co_authorship("Kristina Toutanova", ["Ashish Vaswani", "M.-W. Chang"])
    # The same family name with another given name is another person; one name alone proves nothing.
    assert store.co_authorship("Peter Lee", ["Jacob Devlin"]) is None
    assert store.co_authorship("Kenton Lee", []) is None
    assert store.co_authorship("Kenton Lee", ["Ashish Vaswani"]) is None


def test_which_names_some_author_has(store: IndexStore) -> None:
    assert store.knows_name("Jacob Devlin") and store.knows_name("J. Devlin")
    # A misspelt family name, and another given name with a known family name, are nobody's.
    assert not store.knows_name("Jacob Devlni")
    assert not store.knows_name("Peter Devlin")


def test_which_cited_names_are_words_of_titles(store: IndexStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # A word of one title counts here, where a real index asks for 20.
    monkeypatch.setattr(store_module, "_TITLE_WORD_DOCS", 1)
    assert store.is_title_text("Learning, Residual")
    # A word some author has for a family name makes a person's name, whatever titles say.
    assert not store.is_title_text("Lee, Learning")
    # Words no title has are no text of titles: an unknown person.
    assert not store.is_title_text("Xyzzy, Plugh")
    monkeypatch.setattr(store_module, "_TITLE_WORD_DOCS", 10**6)
    assert not store.is_title_text("Learning, Residual")


def test_family_names_found_together_often_need_the_names_in_full(
    store: IndexStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Above the bound (200 records on a real index; none here) an initial could be anyone of that name.
    monkeypatch.setattr("refhound.index.store._FEW_COAUTHOR_RECORDS", 0)
    assert store.co_authorship("K. Lee", ["Jacob Devlin"]) is None
    assert store.co_authorship("Kenton Lee", ["Jacob Devlin"])


def test_coverage_comes_only_from_complete_sources(store: IndexStore) -> None:
    assert store.coverage("icml", 2019) == [("dblp", 1)]
    assert store.coverage("icml", 2020) == []
    assert store.coverage("arxiv", 2020) == []  # the arXiv dump here is a sample, not complete


def test_bad_records_do_not_stop_a_dump(tmp_path: Path) -> None:
    def records() -> Iterator[Record]:
        yield RECORDS[0]
        yield RECORDS[1]

    dump = Dump(source="dblp", version="x", complete=True, records=records(), problems=["line 7: no title"])
    with IndexStore.create(tmp_path / "i.sqlite") as store:
        result = store.ingest(dump)
    assert result.records == 2 and result.problems == ["line 7: no title"]


def test_missing_index_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(IndexMissing, match="no such file"):
        IndexStore.open(tmp_path / "nope.sqlite")


@pytest.mark.parametrize("content", [b"this is not a database at all" * 100, b""])
def test_corrupt_or_foreign_file_is_a_clear_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.sqlite"
    path.write_bytes(content)
    with pytest.raises(IndexCorrupt, match="not a refhound index"):
        IndexStore.open(path)


def test_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(IndexCorrupt):
        IndexStore.open(path)
