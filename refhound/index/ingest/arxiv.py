"""arXiv's OAI metadata snapshot (the Kaggle `arxiv-metadata-oai-snapshot.json`): one JSON object a line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from refhound.formats.fields import doi_of, person_name, year_of
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import dump_version, iter_json_lines, require_json_lines
from refhound.models import Record, Retraction
from refhound.normalize.identifiers import normalize_arxiv_id
from refhound.normalize.text import latex_to_unicode
from refhound.retractions import Notice, arxiv_withdrawal

SOURCE = "arxiv"


def read_arxiv_snapshot(path: Path, complete: bool = False, version: str | None = None) -> Dump:
    """Stream the preprints of an arXiv OAI snapshot (plain or gzip JSON lines).

    Every record is the arXiv preprint itself: venue "arXiv", year of the first version. The
    `journal-ref` names a different (published) record and is not used. Only the caller knows
    whether the file is the full snapshot, hence `complete`.
    """
    require_json_lines(path)
    version = dump_version(path, version)
    problems: list[str] = []
    notices: list[Notice] = []  # withdrawals the listings' comments state
    return Dump(
        source=SOURCE,
        version=version,
        complete=complete,
        records=_records(path, version, problems, notices),
        location=str(path),
        problems=problems,
        notices=notices,
    )


def _records(path: Path, version: str, problems: list[str], notices: list[Notice]) -> Iterator[Record]:
    for number, work in iter_json_lines(path, problems):
        arxiv_id = work.get("id")
        title = latex_to_unicode(str(work.get("title") or ""))
        if not isinstance(arxiv_id, str) or not arxiv_id or not title:
            problems.append(f"line {number}: record without an id or title")
            continue
        versions = work.get("versions")
        first = (
            versions[0] if isinstance(versions, list) and versions and isinstance(versions[0], dict) else {}
        )
        withdrawal = _withdrawal(work)
        if withdrawal is not None and (key := normalize_arxiv_id(arxiv_id)):
            notices.append(Notice("arxiv", key, withdrawal))
        yield Record(
            source=SOURCE,
            source_id=arxiv_id,
            source_version=version,
            title=title,
            authors=_authors(work.get("authors_parsed")),
            venue="arXiv",
            year=year_of(first.get("created")),
            doi=doi_of(str(work.get("doi") or "")),  # the first of several (erratum DOIs follow)
            arxiv_id=arxiv_id,
            url=f"https://arxiv.org/abs/{arxiv_id}",
            entry_type="preprint",
            retraction=withdrawal,
        )


def _withdrawal(work: dict[str, Any]) -> Retraction | None:
    versions = work.get("versions")
    last = versions[-1] if isinstance(versions, list) and versions and isinstance(versions[-1], dict) else {}
    return arxiv_withdrawal(str(work.get("comments") or ""), last.get("created"))


def _authors(parsed: Any) -> list[str]:
    """`authors_parsed` holds [last, first, suffix] lists; names may still carry LaTeX accents."""
    names = []
    for name in parsed if isinstance(parsed, list) else []:
        if isinstance(name, list) and name:
            last, first, suffix = [latex_to_unicode(str(part)) for part in [*name, "", ""][:3]]
            names.append(person_name(first, last, suffix))
    return names
