"""scripts/bench_debian_bibs.py gathers every BibTeX file of the unpacked packages, gzipped or not."""

from __future__ import annotations

import gzip
from pathlib import Path

from tests.scripts import load_script


def test_every_bib_is_gathered_once_decompressed_under_a_name_of_its_own(tmp_path: Path) -> None:
    entry = b"@article{k, title={A title}, author={A. Author}, year={2001}}\n"
    (tmp_path / "x" / "a" / "doc").mkdir(parents=True)
    (tmp_path / "x" / "b").mkdir(parents=True)
    (tmp_path / "x" / "a" / "doc" / "refs.bib").write_bytes(entry)
    (tmp_path / "x" / "b" / "refs.bib.gz").write_bytes(gzip.compress(entry))
    (tmp_path / "x" / "b" / "notes.txt").write_text("not BibTeX")
    files = load_script("bench_debian_bibs").collect([tmp_path / "x"], tmp_path / "bibs")
    assert [f.name for f in files] == ["b0001-refs.bib", "b0002-refs.bib"]
    assert all(f.read_bytes() == entry for f in files)
