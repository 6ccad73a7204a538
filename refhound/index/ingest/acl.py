"""The ACL Anthology's XML metadata (`data/xml/*.xml`), from a checkout folder or a tarball."""

from __future__ import annotations

import tarfile
from collections.abc import Iterator
from io import BufferedIOBase
from pathlib import Path
from typing import IO

from lxml import etree

from refhound.errors import IngestError
from refhound.formats.fields import person_name, year_of
from refhound.index.anthology import SOURCE, anthology_id_of
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import dump_version, text_of
from refhound.models import Record

_TARBALL_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2")


def read_acl_anthology(path: Path, version: str | None = None) -> Dump:
    """Stream every paper of an ACL Anthology `data/xml` folder (or a repository checkout holding one,
    or a tarball of it).

    The Anthology's own XML holds whole proceedings volumes, so it is an official complete dump of each
    volume it has (refhound/index/completeness.py). Front matter and event
    talks are skipped: they are not papers. An event's co-located volumes (its workshops, Findings and
    satellite conferences) fill the dump's `colocated`, and volumes of front matter alone (a non-archival
    workshop's) its `empty_volumes`. The version is the caller's, else a date in the
    tarball's or folder's name, else its mtime date.
    """
    if not path.exists():
        raise IngestError(path, "no such file or folder")
    version = dump_version(path, version)
    problems: list[str] = []
    colocated: set[tuple[str, str]] = set()
    empty: set[str] = set()
    if path.is_dir():
        folder = path / "data" / "xml" if (path / "data" / "xml").is_dir() else path
        files = sorted(folder.glob("*.xml"))
        if not files:
            raise IngestError(path, "no ACL Anthology collection files (*.xml) here")
        records = _folder_records(files, version, problems, colocated, empty)
    elif path.name.endswith(_TARBALL_SUFFIXES):
        try:
            with tarfile.open(path, mode="r|*") as tar:
                tar.next()
        except (tarfile.TarError, OSError, EOFError) as error:
            raise IngestError(path, f"not a readable tarball: {error}") from error
        records = _tarball_records(path, version, problems, colocated, empty)
    else:
        raise IngestError(path, "expected an ACL Anthology data/xml folder or a tarball of it")
    return Dump(
        source=SOURCE,
        version=version,
        complete=True,
        records=records,
        location=str(path),
        problems=problems,
        official="acl-anthology volume",
        colocated=colocated,
        empty_volumes=empty,
    )


def _folder_records(
    files: list[Path], version: str, problems: list[str], colocated: set[tuple[str, str]], empty: set[str]
) -> Iterator[Record]:
    for file in files:
        with file.open("rb") as handle:
            yield from _collection_records(handle, file.name, version, problems, colocated, empty)


def _tarball_records(
    path: Path, version: str, problems: list[str], colocated: set[tuple[str, str]], empty: set[str]
) -> Iterator[Record]:
    """Read the members in archive order: `r|*` streams, so nothing is unpacked to disk or memory."""
    found = False
    try:
        with tarfile.open(path, mode="r|*") as tar:
            for member in tar:
                name = member.name.rsplit("/", 1)[-1]
                if not (member.isfile() and name.endswith(".xml") and "/xml/" in f"/{member.name}"):
                    continue
                handle = tar.extractfile(member)
                if handle is None:
                    continue
                found = True
                yield from _collection_records(handle, name, version, problems, colocated, empty)
    except (tarfile.TarError, OSError, EOFError) as error:
        raise IngestError(path, f"tarball broken: {error}") from error
    if not found:
        raise IngestError(path, "the tarball holds no data/xml/*.xml collection files")


def _collection_records(
    handle: IO[bytes] | BufferedIOBase,
    file_name: str,
    version: str,
    problems: list[str],
    colocated: set[tuple[str, str]],
    empty: set[str],
) -> Iterator[Record]:
    """One collection file; an unreadable file is reported and skipped, the others still count."""
    collection = ""
    volume_id = ""
    papers = 0  # of the volume being read
    event_id = ""
    meta: dict[str, str] = {}
    try:
        for event, element in etree.iterparse(handle, events=("start", "end")):
            tag = element.tag
            if event == "start":
                if tag == "collection":
                    collection = element.get("id", "")
                elif tag == "volume":
                    volume_id, meta = element.get("id", ""), {"type": element.get("type", "")}
                    papers = 0
                elif tag == "event":
                    event_id = element.get("id", "")
            elif tag == "volume-id" and event_id and _parent_tag(element) == "colocated":
                if volume := _volume_key(text_of(element)):
                    colocated.add((volume, event_id))
            elif tag == "meta" and _parent_tag(element) == "volume":
                meta["booktitle"] = text_of(element.find("booktitle"))
                meta["year"] = text_of(element.find("year"))
            elif tag == "paper":
                record = _paper(element, collection, volume_id, meta, version)
                papers += 1  # unreadable or not, a paper the volume holds
                if isinstance(record, str):
                    problems.append(f"{file_name} line {element.sourceline}: {record}")
                else:
                    yield record
                element.clear(keep_tail=False)
            elif tag in ("volume", "event"):
                if tag == "volume" and not papers and (volume := _volume_key(f"{collection}-{volume_id}")):
                    empty.add(volume)
                element.clear(keep_tail=False)
    except etree.XMLSyntaxError as error:
        problems.append(f"{file_name}: broken XML ({error}); rest of the file skipped")


def _parent_tag(element: etree._Element) -> object:
    parent = element.getparent()
    return None if parent is None else parent.tag


def _paper(
    paper: etree._Element, collection: str, volume_id: str, meta: dict[str, str], version: str
) -> Record | str:
    """The paper's record, or why it cannot be read."""
    paper_id = paper.get("id", "")
    try:
        anthology_id = anthology_id_of(collection, volume_id, paper_id)
    except ValueError:
        return f"no Anthology ID from collection {collection!r}, volume {volume_id!r}, paper {paper_id!r}"
    title = text_of(paper.find("title"))
    if not title:
        return f"paper {anthology_id} has no title"
    return Record(
        source=SOURCE,
        source_id=anthology_id,
        source_version=version,
        title=title,
        authors=[
            person_name(text_of(a.find("first")), text_of(a.find("last"))) for a in paper.iterfind("author")
        ],
        venue=meta.get("booktitle") or None,
        year=year_of(meta.get("year")),
        doi=text_of(paper.find("doi")) or None,
        url=f"https://aclanthology.org/{anthology_id}",
        entry_type="article" if meta.get("type") == "journal" else "inproceedings",
    )


def _volume_key(volume_id: str) -> str | None:
    """An event's `<volume-id>` ("W19-43", "W19-05", "2022.findings-acl") keyed as `anthology_volume` keys
    a paper's volume."""
    if volume_id[:1].isdigit():
        return volume_id or None
    collection, _, number = volume_id.partition("-")
    return f"{collection}-{int(number)}" if collection and number.isdecimal() else None
