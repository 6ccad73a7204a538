"""The embedded-index stage: candidate records for a citation, by identifier and by title.

Identifiers are looked up exactly; titles first by exact normalized key, then (only when that finds
nothing) by FTS5 full-text search, re-ranked with rapidfuzz title similarity; a printed reference's raw
string too (whole, then the spans that may be its title when the parse bounded its title elsewhere), for
the records whose title and authors it prints.
"""

from __future__ import annotations

import re

from refhound.agents.alignment import PrintedString
from refhound.agents.candidates import (
    AUTHORS_JOINED,
    HeldVenue,
    best_first,
    held_venue,
    named_by_anthology_id,
    near_title,
)
from refhound.agents.context import AgentContext, Candidate, Findings
from refhound.index.anthology import cited_anthology_id
from refhound.index.store import IndexedRecord, IndexStore
from refhound.models import ParsedFields, Record, Reference
from refhound.normalize.identifiers import arxiv_id_from_doi, normalize_arxiv_id, normalize_doi
from refhound.normalize.titles import title_key, title_similarity
from refhound.settings import JudgeSettings

# How alike a venue-year's title must be to the cited one, both without spaces, to be looked at as the work.
_NEAR_IN_VENUE = 0.9


def find_candidates(
    cited: ParsedFields, store: IndexStore, settings: JudgeSettings, raw: str | None = None
) -> list[Candidate]:
    """Records that may be the cited work, most similar title first.

    `raw` is the printed reference string the fields were parsed from (None for structured entries): when
    no record found by the parsed title is printed in it, it is searched as well, and the records whose
    title and authors it prints (`agents/alignment.py`) join as candidates found "raw", whatever the parsed
    title — the parser may have misread the string."""
    found: dict[int, tuple[IndexedRecord, str]] = {}

    def add(rows: list[IndexedRecord], via: str) -> None:
        for row in rows:
            found.setdefault(row.rowid, (row, via))

    doi = normalize_doi(cited.doi) if cited.doi else None
    if doi:
        add(store.by_doi(doi), "doi")
    arxiv = normalize_arxiv_id(cited.arxiv_id) if cited.arxiv_id else None
    arxiv = arxiv or (arxiv_id_from_doi(doi) if doi else None)
    if arxiv:
        add(store.by_arxiv_id(arxiv), "arxiv_id")
    anthology_id = cited_anthology_id(cited.url)
    if anthology_id:
        add(store.by_anthology_id(anthology_id), "anthology_id")
    key = title_key(cited.title) if cited.title else ""
    if key:
        exact = store.by_title_key(key)
        add(exact, "title")
        if not exact:
            searched = store.search_title(key, settings.candidates)
            add(searched, "title")
            held = _complete_venue(cited, store)
            if held is not None and cited.year is not None and not _any_near(cited, searched, settings):
                # Absence from a venue-year held completely raises the likelihood of invention, so it must
                # not be a search miss: the venue's titles of that year and the years beside it, compared
                # whole (a compound written apart, stray quote marks, a typo, a year one off). Cited by the
                # conference's bare name, it may be in any volume of the event (a workshop's).
                years = (cited.year - 1, cited.year, cited.year + 1)
                where = None if held.whole_event else held.key
                add(store.near_titles_in(key, where, years, _NEAR_IN_VENUE), "title")
                # Or the work under another of its titles (its preprint's), which its whole author list
                # names there, a co-author joined at publication or not: kept as found by its authors even
                # where the title search found it too far.
                if not cited.authors_truncated:
                    for row in store.same_authors_in(cited.authors, where, (cited.year,), AUTHORS_JOINED):
                        if found.get(row.rowid, (row, "title"))[1] == "title":
                            found[row.rowid] = (row, "authors")

    string = PrintedString(raw) if raw else None
    printed = {rowid for rowid, (row, _) in found.items() if string and _printed_in(string, row.record)}
    if string and not printed:
        # The whole string first; its rarest words may be a venue's or a name's, so then the spans of it
        # that may be its title, until a record printed in it is found. A parse that found no authors may
        # have taken their names for the title, so its title does not stand for the spans then.
        bounded = cited.title if cited.authors else None
        for text in [string.text, *title_like_spans(string.text, bounded)]:
            # A span that is a title word for word is found by its key: the full-text ranking favours short
            # titles that share its rarest words, and may rank a long one out of the candidates.
            span_key = title_key(text)
            for row in [*store.by_title_key(span_key), *store.search_title(span_key, settings.candidates)]:
                if row.rowid not in found and _printed_in(string, row.record):
                    found[row.rowid] = (row, "raw")
                    printed.add(row.rowid)
            if printed:
                break

    kept = _kept(cited, found, printed, settings)
    # A record found by a near spelling of its title (a typo, a word glued to the next) brings every record
    # of that exact title: the work's other versions (a tutorial given twice, a workshop and a conference
    # paper, two dumps' copies), which the full-text ranking may have left out.
    siblings: dict[int, tuple[IndexedRecord, str]] = {}
    looked_up = {key}
    for row, via, _ in kept.values():
        if via not in ("title", "raw") or row.title_key in looked_up:
            continue
        looked_up.add(row.title_key)
        for sibling in store.by_title_key(row.title_key):
            if sibling.rowid not in found and (
                via == "title" or (string is not None and _printed_in(string, sibling.record))
            ):
                siblings[sibling.rowid] = (sibling, via)
    printed.update(rowid for rowid, (_, via) in siblings.items() if via == "raw")
    kept.update(_kept(cited, siblings, printed, settings))
    candidates = [Candidate(row.record, similarity, via) for row, via, similarity in kept.values()]
    return best_first(cited, candidates, settings.candidates)


def _kept(
    cited: ParsedFields,
    found: dict[int, tuple[IndexedRecord, str]],
    printed: set[int],
    settings: JudgeSettings,
) -> dict[int, tuple[IndexedRecord, str, float]]:
    """The found records that may be the cited work, with how each was found and its title similarity: one
    found by title only when its title is near the cited one, or printed in the string."""
    kept = {}
    for rowid, (row, via) in found.items():
        similarity = title_similarity(cited.title, row.title) if cited.title else 0.0
        near = near_title(cited.title, row.title, similarity, settings)
        if via == "title" and not near and rowid in printed:
            via = "raw"  # far from the parsed title, but printed in the string: the parse is in doubt
        if via != "title" or near:
            kept[rowid] = (row, via, similarity)
    return kept


# A printed reference's spans that may be its title: each quoted span, and the text between sentence ends,
# quotes, the colon after a name's initials ("Ding, X.: Title") and an "In:" that opens a container.
_SPAN_END = re.compile(r"(?<=[.?!])\s+|(?<=\b[A-Z]\.):\s+|[“”\"«»„]|\s+(?=In:?\s)")
_SPAN_WORDS = 3
_SPANS_SEARCHED = 3


def title_like_spans(text: str, parsed_title: str | None) -> list[str]:
    """The longest spans of `text` of three words or more that may be its title; none when the parsed
    title is one of them (the parse bounded it where the string does, and it was searched already)."""
    spans = {span.strip(" ,.;:") for span in _SPAN_END.split(text)}
    if parsed_title in spans:
        return []
    title_like = [span for span in spans if len(span.split()) >= _SPAN_WORDS]
    return sorted(title_like, key=lambda span: (-len(span), span))[:_SPANS_SEARCHED]


def _printed_in(string: PrintedString, record: Record) -> bool:
    printed = string.find(record)
    return printed is not None and printed.confirms()


def search_index(reference: Reference, context: AgentContext) -> Findings:
    """The SOP's index stage: candidates from the embedded index."""
    raw = None if reference.structured else reference.raw
    candidates = find_candidates(reference.parsed, context.store, context.settings.judge, raw)
    dead = ("url",) if _names_no_anthology_paper(reference.parsed, candidates, context.store) else ()
    if not candidates:
        return Findings(note="no indexed record is close", dead_identifiers=dead)
    best = max(c.title_similarity for c in candidates)
    note = f"{len(candidates)} indexed candidates (best title {best:.2f})"
    return Findings(tuple(candidates), note=note, dead_identifiers=dead)


def _names_no_anthology_paper(cited: ParsedFields, candidates: list[Candidate], store: IndexStore) -> bool:
    """Whether the cited address is an ACL Anthology paper's of a volume the index holds, and no record has
    that ID: the Anthology, as the index holds it, has no such paper."""
    anthology_id = cited_anthology_id(cited.url)
    if anthology_id is None or named_by_anthology_id(anthology_id, candidates) is not None:
        return False
    # Not among the candidates: absent from the index, or ranked out of the list by its far title.
    return not store.by_anthology_id(anthology_id) and store.holds_volume_of(anthology_id)


def _complete_venue(cited: ParsedFields, store: IndexStore) -> HeldVenue | None:
    """The cited venue when the index holds its cited year completely and absence from it would be
    evidence (`held_venue`); else None."""
    held = held_venue(cited, store.event_gaps)
    return (
        held if held is not None and cited.year is not None and store.coverage(held.key, cited.year) else None
    )


def _any_near(cited: ParsedFields, rows: list[IndexedRecord], settings: JudgeSettings) -> bool:
    title, least = cited.title or "", settings.title_candidate_similarity
    return any(title_similarity(title, row.title) >= least for row in rows)
