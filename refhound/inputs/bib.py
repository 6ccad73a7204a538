"""BibTeX input: entries → references, BibTeX field conventions → `ParsedFields`.

The field mapping is shared with biblatex `.bbl` files, whose `\\field{…}` names are BibTeX's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from refhound.bibtex import BibParse, split_bibtex_names
from refhound.inputs.base import (
    DECODE_ERRORS,
    WEB_ADDRESS,
    InputRead,
    identifier_as_title,
    identifiers_from_title,
    missing_title,
    unreadable_entry,
    year_of,
)
from refhound.inputs.bibstream import bibtex_batches
from refhound.inputs.screen import DEFAULT_LIMITS, MAX_ENTRY_CHARS, EntryLimits, check_count
from refhound.models import InputProblem, ParsedFields, Reference
from refhound.normalize.identifiers import (
    ARXIV_VENUE,
    arxiv_id_from_doi,
    find_arxiv_id,
    find_doi,
    is_arxiv_venue,
    normalize_arxiv_id,
    normalize_doi,
)
from refhound.normalize.titles import clean_title
from refhound.normalize.venues import names_thesis

# Entry types whose venue, if any, is in `howpublished` or `publisher` rather than a journal or booktitle.
_MISC_TYPES = {"misc", "online", "electronic", "www", "unpublished"}
_THESIS_TYPES = {"phdthesis": "PhD thesis", "mastersthesis": "Master's thesis", "thesis": "Thesis"}
# Any "@type{" counts towards the entry cap, wherever it stands: an upper bound a file cannot slip under by
# putting entries on one line.
_ANY_OPEN = re.compile(r"@[ \t]*([A-Za-z][\w-]*)\s*[{(]")
_NO_ENTRY = {"string", "comment", "preamble"}
_ARXIV_FIELDS = ("url", "journal", "journaltitle", "booktitle", "note", "volume", "howpublished")
# EndNote's BibTeX export runs its refer tag for the journal into the value of the field before it: "Jia, J.
# %J IEEE Conference on …", "6 %J Commun. ACM".
_ENDNOTE_JOURNAL = re.compile(r"\s+%J\s+(.*)$", re.DOTALL)


def _arxiv_id(fields: dict[str, str], doi: str | None) -> str | None:
    """From `eprint` (when the archive is arXiv or unnamed), `arxiv`/`arxivid`, a URL or note, or the DOI."""
    archive = (fields.get("archiveprefix") or fields.get("eprinttype") or "arxiv").lower()
    candidates = [
        fields.get("eprint") if archive == "arxiv" else None,
        fields.get("arxiv"),
        fields.get("arxivid"),
    ]
    for value in candidates:
        found = normalize_arxiv_id(value) if value else None
        if found:
            return found
    for name in _ARXIV_FIELDS:
        found = find_arxiv_id(fields.get(name, ""))
        if found:
            return found
    return arxiv_id_from_doi(doi) if doi else None


def _endnote_journal(fields: dict[str, str]) -> dict[str, str]:
    """The fields with EndNote's "%J journal" cut from the value it was run into; the journal becomes the
    `journal` field where the entry has no venue. Not from an author list, though: there EndNote read the
    journal's "… and …" as names and turned them round ("Pattern Analysis and Intelligence, Machine")."""
    out, journal = dict(fields), None
    for name, value in fields.items():
        if match := _ENDNOTE_JOURNAL.search(value):
            out[name] = value[: match.start()]
            name_list = name in ("author", "editor") and " and " in match.group(1)
            journal = journal or (None if name_list else match.group(1).strip())
    if journal and not any(out.get(name) for name in ("journal", "booktitle", "journaltitle")):
        out["journal"] = journal
    return out


def _venue(entry_type: str, fields: dict[str, str], arxiv_id: str | None) -> str | None:
    venue = fields.get("booktitle") or fields.get("journal") or fields.get("journaltitle")
    if not venue:
        # A thesis is named as a printed reference names it ("PhD thesis, Stanford University"), from its
        # entry type, its type field or a note that says so: a thesis is a work of its own.
        school = fields.get("school") or fields.get("institution")
        kind = fields.get("type") if names_thesis(fields.get("type", "")) else _THESIS_TYPES.get(entry_type)
        if kind:
            venue = f"{kind}, {school}" if school else kind
        elif names_thesis(fields.get("note", "")):
            venue = fields["note"]
    if not venue and entry_type in _MISC_TYPES:
        venue = next(
            (
                value
                for value in (fields.get("howpublished"), fields.get("publisher"))
                if value and not WEB_ADDRESS.match(value)
            ),
            None,
        )
    if is_arxiv_venue(venue) or (not venue and arxiv_id):
        return ARXIV_VENUE
    return venue or None


def map_fields(
    entry_type: str, fields: dict[str, str], authors: list[str], truncated: bool
) -> tuple[ParsedFields, list[str]]:
    """`ParsedFields` from decoded BibTeX fields (lower-case names), and what was wrong with them."""
    notes: list[str] = []
    doi_text = fields.get("doi")
    doi = normalize_doi(doi_text) if doi_text else None
    if doi_text and doi is None:
        notes.append(f"doi {doi_text!r} is not a DOI")
    howpublished = fields.get("howpublished", "")
    url = fields.get("url") or (howpublished.strip() if WEB_ADDRESS.match(howpublished) else None)
    doi = doi or (find_doi(url) if url else None)
    arxiv_id = _arxiv_id(fields, doi)
    title = clean_title(fields["title"]) if fields.get("title") else None
    as_identifier = identifier_as_title(title, "entry")
    if title and as_identifier:
        notes.append(as_identifier)
        doi, arxiv_id, url = identifiers_from_title(title, doi, arxiv_id, url)
        title = None
    parsed = ParsedFields(
        title=title or None,
        authors=authors,
        authors_truncated=truncated,
        venue=_venue(entry_type, fields, arxiv_id),
        year=year_of(fields.get("year")) or year_of(fields.get("date")),
        doi=doi,
        arxiv_id=arxiv_id,
        url=url,
        volume=fields.get("volume") or None,
        pages=fields.get("pages") or None,
    )
    no_title = None if as_identifier else missing_title(parsed, "entry")
    return parsed, [*notes, no_title] if no_title else notes


def count_bibtex_entries(text: str) -> int:
    """Every "@type{" but @string, @comment and @preamble, wherever it stands: what the cap counts."""
    return sum(1 for m in _ANY_OPEN.finditer(text) if m.group(1).lower() not in _NO_ENTRY)


def read_bibtex(text: str, source: str, limits: EntryLimits = DEFAULT_LIMITS) -> InputRead:
    """Every well-formed entry of a `.bib` file; one problem per malformed block, with its line. The
    `limits` are checked by a scan before parsing: an entry over the length cap is skipped, and more
    entries than the count cap raise `TooManyEntries`."""
    if limits.max_entries is not None:
        check_count(source, count_bibtex_entries(text), limits, "BibTeX entries")
    return InputRead.joined(stream_bibtex(text.splitlines(keepends=True), source, limits.max_entry_chars))


def stream_bibtex(
    lines: Iterable[str], source: str, max_entry_chars: int | None = MAX_ENTRY_CHARS, batch: int | None = None
) -> Iterator[InputRead]:
    """The entries of the BibTeX `lines` (line ends kept), parsed in batches of at most `batch` entries
    (None: all at once), each batch's references and problems as soon as it is parsed."""
    for parse, too_long in bibtex_batches(lines, source, max_entry_chars, batch):
        yield _references(parse, source, too_long)


def _references(parse: BibParse, source: str, problems: list[InputProblem]) -> InputRead:
    read = InputRead(problems=problems)
    for failure in parse.failures:
        location = f"line {failure.line}" if failure.line else None
        read.problems.append(InputProblem(input=source, location=location, message=failure.message))
    for entry in parse.entries:
        location = f"line {entry.line} ({entry.key})" if entry.line else entry.key
        try:
            fields = _endnote_journal(entry.fields)
            authors, truncated = split_bibtex_names(fields["author"]) if "author" in fields else ([], False)
            parsed, notes = map_fields(entry.entry_type, fields, authors, truncated)
            reference = Reference(id=entry.key, raw=entry.raw, parsed=parsed, input=source, structured=True)
        except DECODE_ERRORS as error:
            read.problems.append(unreadable_entry(source, location, error))
            continue
        read.references.append(reference)
        read.problems.extend(InputProblem(input=source, location=location, message=note) for note in notes)
    return read
