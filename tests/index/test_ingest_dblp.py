"""dblp XML: entity decoding through the DTD, gzip, skipped non-papers, bad records."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from refhound.errors import IngestError
from refhound.index.ingest.dblp import read_dblp
from tests.conftest import shared_path

FIXTURES = Path(__file__).parent / "fixtures" / "dblp"
XML = FIXTURES / "dblp-2025-05-01.xml"


def test_reads_papers_and_skips_volumes_and_person_pages() -> None:
    dump = read_dblp(XML)
    records = list(dump.records)
    assert (dump.source, dump.version, dump.complete) == ("dblp", "2025-05-01", True)
    assert [r.source_id for r in records] == [
        "conf/naacl/JainW19",
        "journals/corr/abs-2101-00001",
        "phd/Doe2020",
    ]
    jain = records[0]
    assert jain.title == "Attention is not Explanation"
    assert jain.authors == ["Sarthak Jain", "Byron C. Wallace"]
    assert jain.venue == "NAACL-HLT (1)"
    assert jain.year == 2019
    assert jain.doi == "10.18653/v1/n19-1357"
    assert jain.arxiv_id == "1902.10186"
    assert jain.url == "https://dblp.org/db/conf/naacl/naacl2019-1.html#JainW19"
    assert jain.entry_type == "inproceedings"
    corr = records[1]
    assert corr.authors == ["Chenglong Li", "Jürgen Möller"]
    assert corr.title == "On x2 Models"
    assert (corr.venue, corr.entry_type, corr.arxiv_id) == ("CoRR", "preprint", "2101.00001")
    assert records[2].title == "Why Ellipses Stay..."
    assert records[2].entry_type == "phdthesis"
    assert len(dump.problems) == 1
    assert "without a key" in dump.problems[0]


def test_streams() -> None:
    dump = read_dblp(XML)
    assert next(dump.records).source_id == "conf/naacl/JainW19"
    assert dump.problems == []  # the bad record further down has not been read yet


def test_gzip_finds_the_dtd_beside_it(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "dblp.dtd", tmp_path)
    packed = tmp_path / "dblp.xml.gz"
    packed.write_bytes(gzip.compress(XML.read_bytes()))
    dump = read_dblp(packed, version="2025-06")
    records = list(dump.records)
    assert dump.version == "2025-06"
    assert records[1].authors == ["Chenglong Li", "Jürgen Möller"]


def test_missing_dtd_is_named(tmp_path: Path) -> None:
    packed = tmp_path / "dblp.xml.gz"
    packed.write_bytes(gzip.compress(XML.read_bytes()))
    with pytest.raises(IngestError, match=r"DTD dblp\.dtd is missing"):
        read_dblp(packed)
    assert len(list(read_dblp(packed, dtd=FIXTURES / "dblp.dtd").records)) == 3


def test_unusable_files(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        read_dblp(tmp_path / "dblp.xml")
    other = tmp_path / "other.xml"
    other.write_text("<?xml version='1.0'?><PubmedArticleSet/>")
    with pytest.raises(IngestError, match="not a dblp XML dump"):
        read_dblp(other)


def test_truncated_dump_raises(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "dblp.dtd", tmp_path)
    cut = tmp_path / "dblp.xml"
    cut.write_bytes(XML.read_bytes()[:1500])
    dump = read_dblp(cut)
    with pytest.raises(IngestError, match="broken XML"):
        list(dump.records)


@pytest.mark.shared
def test_real_sample() -> None:
    dump = read_dblp(shared_path("index", "dblp-sample.xml"))
    records = list(dump.records)
    assert len(records) == 131
    assert dump.problems == []
    authors = {a for r in records for a in r.authors}
    assert {"Jürgen Beyerer", "Matti Pietikäinen", "François Chaumette", "Manish Singh"} <= authors
    first = records[0]
    assert (first.source_id, first.title, first.doi) == (
        "reference/vision/X14bd",
        "Curvedness",
        "10.1007/978-0-387-31439-6_100117",
    )
    assert all(r.venue == "Computer Vision, A Reference Guide" and r.year == 2014 for r in records)
