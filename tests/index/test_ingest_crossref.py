"""Crossref works: single API response, work lists, JSON lines, gzip, bad lines."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from refhound.errors import IngestError
from refhound.index.ingest.crossref import read_crossref
from tests.conftest import shared_path

FIXTURES = Path(__file__).parent / "fixtures"


def test_single_pretty_printed_work() -> None:
    dump = read_crossref(FIXTURES / "crossref-work.json", version="2024-03")
    (record,) = list(dump.records)
    assert (dump.source, dump.version, dump.complete) == ("crossref", "2024-03", False)
    assert record.source_id == record.doi == "10.18653/v1/n19-1423"
    assert record.title == "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
    assert record.authors == ["Jacob Devlin", "Ming-Wei Chang", "The BERT Team"]
    assert record.venue == "Proceedings of the 2019 Conference of the North"  # the event: no container title
    assert (record.year, record.entry_type) == (2019, "inproceedings")
    assert record.url == "http://dx.doi.org/10.18653/v1/n19-1423"


def test_json_lines_of_envelopes_lists_and_bare_works() -> None:
    dump = read_crossref(FIXTURES / "crossref-works.jsonl")
    records = {r.source_id: r for r in dump.records}
    # The journal issue has no title and is skipped silently.
    assert sorted(records) == [
        "10.1007/978-3-030-00001-1_1",
        "10.1037/0003-066x.59.1.29",
        "10.1101/2020.01.01.000001",
        "10.5555/thesis.1",
    ]
    preprint = records["10.1101/2020.01.01.000001"]
    assert (preprint.title, preprint.venue, preprint.year, preprint.entry_type) == (
        "A & B: a preprint",
        "bioRxiv",
        2020,
        "preprint",
    )
    chapter = records["10.1007/978-3-030-00001-1_1"]
    assert (chapter.venue, chapter.year, chapter.entry_type) == ("A Book", 2018, "incollection")
    assert records["10.5555/thesis.1"].entry_type == "phdthesis"
    assert len(dump.problems) == 2
    assert dump.problems[0].startswith("line 3: not valid JSON")
    assert dump.problems[1] == "line 4: not a Crossref work (no DOI)"


def test_streams_and_reads_gzip(tmp_path: Path) -> None:
    packed = tmp_path / "works.jsonl.gz"
    packed.write_bytes(gzip.compress((FIXTURES / "crossref-works.jsonl").read_bytes()))
    dump = read_crossref(packed)
    assert next(dump.records).doi == "10.1037/0003-066x.59.1.29"
    assert dump.problems == []
    assert len(list(dump.records)) == 3


def test_unusable_files(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        read_crossref(tmp_path / "missing.json")
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(IngestError, match="not Crossref JSON"):
        read_crossref(text)
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "message": {\n')
    with pytest.raises(IngestError, match="not valid JSON"):
        read_crossref(broken)


@pytest.mark.shared
def test_real_sample() -> None:
    dump = read_crossref(shared_path("index", "crossref-work-sample.json"))
    records = list(dump.records)
    assert dump.problems == []
    assert [r.doi for r in records] == ["10.1037/0003-066x.59.1.29", "10.1037/0003-066x.59.1.41"]
    assert records[0].title == "How the Mind Hurts and Heals the Body."
    assert records[0].authors == ["Oakley Ray"]
    assert (records[0].venue, records[0].year, records[0].entry_type) == (
        "American Psychologist",
        2004,
        "article",
    )
    assert records[1].authors == ["Allan Barclay", "Fred L. Alberts"]
