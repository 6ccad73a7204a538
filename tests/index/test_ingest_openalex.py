"""OpenAlex works JSON lines: venues, conference papers, arXiv ids, untitled and bad lines, gzip."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from refhound.errors import IngestError
from refhound.index.ingest.openalex import read_openalex

WORKS = Path(__file__).parent / "fixtures" / "openalex-works.jsonl"


def test_reads_works() -> None:
    dump = read_openalex(WORKS, version="2024-05-01")
    records = list(dump.records)
    assert (dump.source, dump.version, dump.complete) == ("openalex", "2024-05-01", False)
    assert [r.source_id for r in records] == ["W2741809807", "W2896457183", "W3000000003"]
    nature = records[0]
    assert (nature.title, nature.venue, nature.year) == ("Deep learning", "Nature", 2015)
    assert nature.authors == ["Yann LeCun", "Yoshua Bengio", "Geoffrey E. Hinton"]
    assert (nature.doi, nature.arxiv_id, nature.entry_type) == ("10.1038/nature14539", None, "article")
    assert nature.url == "https://openalex.org/W2741809807"
    bert = records[1]
    assert bert.entry_type == "inproceedings"
    assert bert.arxiv_id == "1810.04805"
    assert bert.authors == ["Jacob Devlin", "Ming‐Wei Chang", "K. Lee"]
    gpt3 = records[2]
    assert (gpt3.title, gpt3.entry_type, gpt3.arxiv_id) == (
        "Language Models are Few-Shot Learners",
        "preprint",
        "2005.14165",
    )
    # The untitled paratext record is skipped silently; the two unreadable lines are reported.
    assert len(dump.problems) == 2
    assert dump.problems[0].startswith("line 3: not valid JSON")
    assert dump.problems[1].startswith("line 5: not an OpenAlex work")


def test_streams_and_reads_gzip(tmp_path: Path) -> None:
    folder = tmp_path / "updated_date=2024-03-27"
    folder.mkdir()
    packed = folder / "part_000.gz"
    packed.write_bytes(gzip.compress(WORKS.read_bytes()))
    dump = read_openalex(packed)
    assert dump.version == "2024-03-27"
    assert next(dump.records).source_id == "W2741809807"
    assert dump.problems == []
    assert len(list(dump.records)) == 2


def test_unusable_files(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        read_openalex(tmp_path / "missing.jsonl")
    csv = tmp_path / "works.csv"
    csv.write_text("id,title\n")
    with pytest.raises(IngestError, match="not JSON lines"):
        read_openalex(csv)
