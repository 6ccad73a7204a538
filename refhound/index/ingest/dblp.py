"""The dblp XML dump (`dblp.xml` or `dblp.xml.gz`, ISO-8859-1, with entities declared in `dblp.dtd`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lxml import etree

from refhound.errors import IngestError
from refhound.formats.fields import (
    arxiv_of_doi,
    arxiv_of_url,
    doi_of,
    strip_dblp_suffix,
    strip_final_period,
    year_of,
)
from refhound.index.completeness import Proof
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import (
    dump_version,
    iter_xml_records,
    open_binary,
    read_head,
    require_file,
    text_of,
)
from refhound.models import Record

SOURCE = "dblp"
# Every top-level element dblp.dtd allows; all are streamed so that each is freed after use.
_TAGS = (
    "article", "inproceedings", "proceedings", "book", "incollection",
    "phdthesis", "mastersthesis", "www", "person", "data",
)  # fmt: skip
_ENTRY_TYPES = {
    "article": "article",
    "inproceedings": "inproceedings",
    "book": "book",
    "incollection": "incollection",
    "phdthesis": "phdthesis",
    "mastersthesis": "misc",
    "data": "misc",
}
_DOCTYPE = re.compile(rb"<!DOCTYPE\s+dblp\s+SYSTEM\s+[\"']([^\"']+)[\"']")


class _DtdResolver(etree.Resolver):  # type: ignore[misc]
    """Points the parser at the DTD wherever the XML is read from (a gzip stream has no folder)."""

    def __init__(self, dtd: Path) -> None:
        super().__init__()
        self.dtd = dtd

    def resolve(self, system_url: str | None, public_id: str | None, context: Any) -> Any:
        if system_url and system_url.replace("\\", "/").rsplit("/", 1)[-1] == self.dtd.name:
            return self.resolve_filename(str(self.dtd), context)
        return None


def read_dblp(path: Path, version: str | None = None, dtd: Path | None = None) -> Dump:
    """Stream the publications of a dblp XML dump.

    The DTD the dump names (`dblp.dtd`) must sit next to it, or be given as `dtd`: without it
    the character entities (`&uuml;` …) cannot be decoded. Person pages (`www`, `person`) and
    proceedings volumes are skipped silently: they are not papers. A full dump is an official complete
    dump of the proceedings it indexes: dblp takes a conference's table of contents whole. Not of its
    journals and preprints: dblp indexes only the computer-science papers of many journals (Nature, PNAS)
    and of arXiv, so those records prove no journal-year complete.
    """
    require_file(path)
    head = read_head(path)
    if b"<dblp" not in head:
        raise IngestError(path, "not a dblp XML dump (no <dblp> root)")
    declared = _DOCTYPE.search(head)
    resolver = None
    if declared:
        dtd = dtd or path.parent / Path(declared.group(1).decode("latin-1")).name
        if not dtd.is_file():
            raise IngestError(path, f"the DTD {dtd.name} is missing (expected at {dtd})")
        resolver = _DtdResolver(dtd)
    version = dump_version(path, version)
    problems: list[str] = []
    return Dump(
        source=SOURCE,
        version=version,
        complete=True,
        records=_records(path, resolver, version, problems),
        location=str(path),
        problems=problems,
        official="dblp proceedings",
        proof=_proof,
    )


def _proof(record: Record) -> Proof:
    return Proof.OFFICIAL if record.entry_type == "inproceedings" else Proof.NONE


def _records(
    path: Path, resolver: _DtdResolver | None, version: str, problems: list[str]
) -> Iterator[Record]:
    options = {"load_dtd": resolver is not None, "resolve_entities": resolver is not None, "huge_tree": True}
    with open_binary(path) as handle:
        try:
            for element in iter_xml_records(handle, _TAGS, resolver, **options):
                record = _record(element, version)
                if isinstance(record, str):
                    problems.append(f"line {element.sourceline}: {record}")
                elif record is not None:
                    yield record
        except etree.XMLSyntaxError as error:
            raise IngestError(path, f"broken XML, stopped reading: {error}") from error


def _record(element: etree._Element, version: str) -> Record | str | None:
    """The record; None for elements that are not papers; a string saying why it cannot be read."""
    entry_type = _ENTRY_TYPES.get(element.tag)
    if entry_type is None:
        return None
    key = element.get("key")
    if not key:
        return f"<{element.tag}> without a key"
    title = strip_final_period(text_of(element.find("title")))
    if not title:
        return f"{key}: no title"
    venue = text_of(element.find("booktitle")) or text_of(element.find("journal")) or None
    if entry_type == "article" and "informal" in (element.get("publtype") or "").split():
        entry_type = "preprint"  # CoRR and other preprint servers
    doi = arxiv_id = None
    for ee in element.iterfind("ee"):
        link = text_of(ee)
        link_doi = doi_of(link) if "doi.org/" in link else None
        doi = doi or link_doi
        arxiv_id = arxiv_id or arxiv_of_url(link) or arxiv_of_doi(link_doi)
    url = text_of(element.find("url")) or None
    if url and not url.startswith(("http://", "https://")):
        url = f"https://dblp.org/{url}"
    return Record(
        source=SOURCE,
        source_id=key,
        source_version=version,
        title=title,
        authors=[strip_dblp_suffix(text_of(a)) for a in element.iterfind("author")],
        venue=venue,
        year=year_of(text_of(element.find("year"))),
        doi=doi,
        arxiv_id=arxiv_id,
        url=url,
        entry_type=entry_type,
    )
