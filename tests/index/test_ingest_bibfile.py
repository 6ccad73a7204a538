"""A user's .bib file as a source: fields, arXiv preprints, failed blocks, Latin-1 files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from refhound.bibtex import iter_bibtex_batches
from refhound.errors import IngestError
from refhound.index.ingest.bibfile import read_bibtex_file

BIB = Path(__file__).parent / "fixtures" / "refs.bib"


def test_reads_entries_and_reports_failures() -> None:
    dump = read_bibtex_file(BIB, version="v1")
    records = {r.source_id: r for r in dump.records}
    assert (dump.source, dump.version, dump.complete) == ("bibtex:refs.bib", "v1", False)
    assert list(records) == ["jain-wallace-2019-attention", "devlin2018bert", "brown2020language", "doe2019"]
    jain = records["jain-wallace-2019-attention"]
    assert (jain.title, jain.authors) == (
        "Attention is not Explanation",
        ["Sarthak Jain", "Byron C. Wallace"],
    )
    assert (jain.venue, jain.year, jain.entry_type) == (
        "Proceedings of NAACL-HLT 2019",
        2019,
        "inproceedings",
    )
    assert (jain.doi, jain.url) == ("10.18653/v1/N19-1357", "https://aclanthology.org/N19-1357")
    bert = records["devlin2018bert"]
    assert bert.authors == ["Jacob Devlin", "Ming-Wei Chang", "Barnes and Noble, Inc."]
    assert (bert.venue, bert.arxiv_id, bert.entry_type) == ("arXiv", "1810.04805", "preprint")
    brown = records["brown2020language"]
    assert (brown.venue, brown.arxiv_id, brown.authors) == (
        "arXiv",
        "2005.14165",
        ["Tom B. Brown", "Jörg Müller"],
    )
    thesis = records["doe2019"]
    assert (thesis.title, thesis.authors) == ("A Thesis on Things", ["John von Neumann Jr."])
    assert (thesis.doi, thesis.entry_type) == ("10.5555/THESIS.2019", "phdthesis")
    assert dump.problems == [
        "line 16: malformed BibTeX entry: Unexpected block start: `@misc`. "
        "Was still looking for field-value closing `}`",
        "line 36: entry notitle2021 has no title",
    ]


def test_streams_and_versions_by_mtime(tmp_path: Path) -> None:
    copy = tmp_path / "mine.bib"
    copy.write_bytes(BIB.read_bytes())
    os.utime(copy, (1_600_000_000, 1_600_000_000))
    dump = read_bibtex_file(copy, complete=True)
    assert (dump.source, dump.version, dump.complete) == ("bibtex:mine.bib", "2020-09-13", True)
    assert next(dump.records).source_id == "jain-wallace-2019-attention"


def test_latin1_file_is_read_with_a_note(tmp_path: Path) -> None:
    latin = tmp_path / "old.bib"
    latin.write_bytes(
        "@article{k, title={Caf\u00e9 Studies}, author={Mu\u00f1oz, Ana}, year={1999}}".encode("latin-1")
    )
    dump = read_bibtex_file(latin)
    (record,) = list(dump.records)
    assert (record.title, record.authors) == ("Café Studies", ["Ana Muñoz"])
    assert dump.problems == ["line 1: not UTF-8; such lines read as Latin-1"]


def test_unusable_files(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        read_bibtex_file(tmp_path / "missing.bib")
    binary = tmp_path / "paper.bib"
    binary.write_bytes(b"%PDF-1.5\x00\x01")
    with pytest.raises(IngestError, match="binary file"):
        read_bibtex_file(binary)
    empty = tmp_path / "empty.bib"
    empty.write_text("% nothing here\n")
    with pytest.raises(IngestError, match="no BibTeX entries"):
        read_bibtex_file(empty)


def test_large_files_are_parsed_in_batches_with_true_line_numbers(tmp_path: Path) -> None:
    entries = [
        f"@article{{k{i},\n  title = {{Paper number {i}}},\n  year = {{2001}}\n}}\n" for i in range(5000)
    ]
    entries[4321] = "@article{broken, title = {no end\n"
    path = tmp_path / "big.bib"
    path.write_text("".join(entries), encoding="utf-8")
    dump = read_bibtex_file(path)
    records = list(dump.records)
    assert len(records) == 4999
    assert records[-1].source_id == "k4999"
    assert any(p.startswith(f"line {4321 * 4 + 1}:") for p in dump.problems), dump.problems


def test_string_abbreviations_reach_every_batch() -> None:
    text = '@string{nips = "Advances in Neural Information Processing Systems"}\n' + "".join(
        f"@inproceedings{{k{i},\n  title = {{Paper {i}}},\n  booktitle = nips,\n  year = 2001\n}}\n"
        for i in range(7)
    )
    batches = list(iter_bibtex_batches(text.splitlines(keepends=True), batch_entries=2))
    entries = [e for batch in batches for e in batch.entries]
    assert len(batches) > 2 and not any(batch.failures for batch in batches)
    assert [e.key for e in entries] == [f"k{i}" for i in range(7)]
    assert {e.fields["booktitle"] for e in entries} == {"Advances in Neural Information Processing Systems"}
    assert entries[-1].line == 2 + 6 * 5  # line numbers of the whole stream, not of the batch text
