"""PubMed XML: PubmedArticleSet and MedlineCitationSet, dates, DOIs, authors, bad articles, gzip."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from refhound.errors import IngestError
from refhound.index.ingest.pubmed import read_pubmed
from tests.conftest import shared_path

FIXTURES = Path(__file__).parent / "fixtures"


def test_reads_articles() -> None:
    dump = read_pubmed(FIXTURES / "pubmed-articles.xml", version="2025")
    records = list(dump.records)
    assert (dump.source, dump.version, dump.complete) == ("pubmed", "2025", False)
    assert [r.source_id for r in records] == ["29768149", "10000002", "10000003"]
    nejm = records[0]
    assert nejm.title == "Inhaled Combined Budesonide-Formoterol as Needed in Mild Asthma"
    assert nejm.authors == ["Paul M O'Byrne", "J Smith Jr", "SYGMA 1 Investigators"]
    assert (nejm.venue, nejm.year, nejm.doi) == (
        "The New England journal of medicine",
        2018,
        "10.1056/NEJMoa1715274",
    )
    assert nejm.url == "https://pubmed.ncbi.nlm.nih.gov/29768149/"
    assert nejm.entry_type == "article"
    ras = records[1]
    assert ras.title == "The role of RAS in colorectal cancer"
    assert (ras.venue, ras.year) == ("Journal of Testing", 1998)
    assert ras.doi == "10.1000/testing.2"  # from PubmedData, not from the reference list
    assert ras.authors == ["Jürgen Müller"]
    assert records[2].title == "Ein deutscher Titel"
    assert dump.problems == ["line 66: article without a PMID or <Article>"]


def test_medline_citation_set() -> None:
    (record,) = list(read_pubmed(FIXTURES / "medline-citations.xml").records)
    assert (record.source_id, record.title, record.authors, record.year) == (
        "12345678",
        "An old-format citation",
        ["Jane Doe"],
        2005,
    )


def test_streams_and_reads_gzip(tmp_path: Path) -> None:
    packed = tmp_path / "pubmed25n0001.xml.gz"
    packed.write_bytes(gzip.compress((FIXTURES / "pubmed-articles.xml").read_bytes()))
    dump = read_pubmed(packed)
    assert next(dump.records).source_id == "29768149"
    assert dump.problems == []
    assert len(list(dump.records)) == 2


def test_unusable_files(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        read_pubmed(tmp_path / "missing.xml")
    other = tmp_path / "dblp.xml"
    other.write_text("<?xml version='1.0'?><dblp/>")
    with pytest.raises(IngestError, match="not PubMed XML"):
        read_pubmed(other)


@pytest.mark.shared
@pytest.mark.parametrize(
    ("name", "pmid", "doi", "year"),
    [
        ("pubmed-medline-sample.xml", "31388315", "10.2147/CMAR.S186042", 2019),
        ("pubmed-efetch-sample.xml", "29768149", "10.1056/NEJMoa1715274", 2018),
    ],
)
def test_real_samples(name: str, pmid: str, doi: str, year: int) -> None:
    dump = read_pubmed(shared_path("index", name))
    (record,) = list(dump.records)
    assert dump.problems == []
    assert (record.source_id, record.doi, record.year) == (pmid, doi, year)
    assert record.authors
