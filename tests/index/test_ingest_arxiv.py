"""arXiv OAI snapshot lines: preprint records, LaTeX titles, bad lines, gzip."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from refhound.errors import IngestError
from refhound.index.ingest.arxiv import read_arxiv_snapshot
from tests.conftest import shared_path

SNAPSHOT = Path(__file__).parent / "fixtures" / "arxiv-snapshot.jsonl"


def test_reads_preprints_and_reports_bad_lines() -> None:
    dump = read_arxiv_snapshot(SNAPSHOT, version="2024-06-01")
    records = list(dump.records)
    assert (dump.source, dump.version, dump.complete) == ("arxiv", "2024-06-01", False)
    assert [r.source_id for r in records] == ["0704.0001", "1810.04805"]
    first = records[0]
    assert (
        first.title == "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies"
    )
    assert first.authors == ["C. Balázs", "E. L. Berger"]
    assert (first.venue, first.year, first.entry_type) == ("arXiv", 2007, "preprint")
    assert (first.doi, first.arxiv_id) == ("10.1103/PhysRevD.76.013009", "0704.0001")
    assert first.url == "https://arxiv.org/abs/0704.0001"
    bert = records[1]
    assert bert.title.startswith(
        "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding in"
    )
    assert "Gödel's" in bert.title
    assert bert.authors == ["Jacob Devlin", "Ming-Wei Chang", "Neal J. Evans II"]
    assert bert.doi is None
    assert bert.year == 2018
    assert len(dump.problems) == 1
    assert dump.problems[0].startswith("line 2: not valid JSON")


def test_streams_and_reads_gzip(tmp_path: Path) -> None:
    packed = tmp_path / "arxiv.jsonl.gz"
    packed.write_bytes(gzip.compress(SNAPSHOT.read_bytes()))
    dump = read_arxiv_snapshot(packed, complete=True)
    assert dump.complete
    assert next(dump.records).source_id == "0704.0001"
    assert dump.problems == []
    assert [r.source_id for r in dump.records] == ["1810.04805"]


def test_unusable_files(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        read_arxiv_snapshot(tmp_path / "missing.jsonl")
    xml = tmp_path / "dump.xml"
    xml.write_text("<?xml version='1.0'?><x/>")
    with pytest.raises(IngestError, match="not JSON lines"):
        read_arxiv_snapshot(xml)


@pytest.mark.shared
def test_real_sample() -> None:
    dump = read_arxiv_snapshot(shared_path("index", "arxiv-oai-snapshot-sample-200.jsonl"))
    records = list(dump.records)
    assert len(records) == 200
    assert dump.problems == []
    first = records[0]
    assert (first.source_id, first.year, first.doi) == ("0704.0001", 2007, "10.1103/PhysRevD.76.013009")
    assert first.authors[:2] == ["C. Balázs", "E. L. Berger"]
    assert records[1].title == "Sparsity-certifying Graph Decompositions"
    assert records[1].authors == ["Ileana Streinu", "Louis Theran"]
