"""What every input reader returns, and the helpers the readers share."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from refhound.models import InputProblem, ParsedFields, Reference
from refhound.normalize.identifiers import arxiv_id_from_doi, find_arxiv_id, find_doi, not_a_title

_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")
#: A field that is a web address and nothing else.
WEB_ADDRESS = re.compile(r"^\s*(?:https?://|www\.)\S+\s*$", re.IGNORECASE)
#: What a decoder raises on text it cannot read: a `ValueError` (JSON's errors; a number of over 4,300
#: digits) or a `RecursionError` (nesting deeper than Python's stack, `'[' * 100000`). On a user's file
#: either is an input problem naming the file and the cause, never a crash.
DECODE_ERRORS = (ValueError, RecursionError)


@dataclass
class InputRead:
    """The references read from one or more inputs, and the problems met on the way.

    A problem never stops the reading: the good entries around a bad one are all returned.
    """

    references: list[Reference] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)

    def extend(self, other: InputRead) -> None:
        self.references.extend(other.references)
        self.problems.extend(other.problems)

    @classmethod
    def joined(cls, batches: Iterable[InputRead]) -> InputRead:
        """The batches of one streamed reading, as one."""
        read = cls()
        for batch in batches:
            read.extend(batch)
        return read


def decode_problem(error: BaseException) -> str:
    """What a decoder's error says about the text, in a few words."""
    if isinstance(error, RecursionError):
        return "nested too deeply to be read"
    return str(error).split("; use sys.")[0]  # Python's hint for the digit limit is no user's business


def unreadable_entry(source: str, location: str | None, error: BaseException) -> InputProblem:
    return InputProblem(input=source, location=location, message=f"{decode_problem(error)}: skipped")


def year_of(text: str | None) -> int | None:
    """The first plausible year (1800–2099) in a date-like value: "2019", "2020-05-01", "2019a"."""
    match = _YEAR.search(text or "")
    return int(match.group(1)) if match else None


def identifier_as_title(title: str | None, what: str) -> str | None:
    """The problem to report when a title field holds only an identifier, an address or their labels
    ("arXiv:1409.1556", "arXiv preprint"), else None. Searched as a title it is found nowhere, and the
    identifier's own record then reads as another work: the reader takes any identifier from it and leaves
    the entry without a title."""
    if title and not_a_title(title):
        return f"{what}'s title {title!r} is an identifier or a label, not a title: checked without it"
    return None


def identifiers_from_title(
    title: str, doi: str | None, arxiv_id: str | None, url: str | None
) -> tuple[str | None, str | None, str | None]:
    """An entry's DOI, arXiv id and web address, each taken from a title that `identifier_as_title` found
    to be only an identifier where the entry's own fields lack it."""
    doi = doi or find_doi(title)
    arxiv_id = arxiv_id or find_arxiv_id(title) or (arxiv_id_from_doi(doi) if doi else None)
    url = url or (title.strip() if WEB_ADDRESS.match(title) else None)
    return doi, arxiv_id, url


def missing_title(fields: ParsedFields, what: str) -> str | None:
    """The problem to report when an entry has no title ("entry has no title …"), else None."""
    if fields.title:
        return None
    unusable = not (fields.authors or fields.doi or fields.arxiv_id or fields.url)
    return f"{what} has no title" + (" and nothing else to check it by" if unusable else "")
