"""Re-reading a printed reference around the title of a record it prints.

A reference string the parser misread (a name it did not know taken for the title, authors swallowed into
the title, the real title pushed into the venue, a title cut at an inner question mark) still prints its
real title. When a record leads there — the cited DOI or arXiv id is its identifier, or the string prints
its title and authors (`agents/alignment.py`) — while the parsed title is another, the string is read
again around the title it prints: the record reads the string better than the parser did, and judging the
misread fields would call a correct citation's DOI "another work's", or the work fabricated. So is a title
the parser bounded a few words off where the string prints a record's title whole: its first words
swallowed into the last author ("Lima, V. Keywords, k-NN and Neural Networks: …"), or the last author's
name read into it ("… & í Lág, D. Automatic Validation of …"), which a title typo's grade would otherwise
flag. The same holds for a venue the parser cut short at a year or number inside its name ("*SEM 2012: The
First Joint Conference …" read as "*SEM"): where the string prints the record's whole venue, that is the
cited venue.
Fields from structured entries (BibTeX, CSL JSON) are never re-read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from refhound.agents.alignment import find_printed_record, folded_words, printed_spaces_aside, printed_words
from refhound.agents.context import Candidate
from refhound.models import ParsedFields, Reference
from refhound.normalize.titles import title_similarity
from refhound.settings import JudgeSettings

# A capital and a full stop opening a title: an initial, not the article "A".
_INITIAL_OPENING = re.compile(r"^[A-Z]\.\s")
_LED_BY = {"doi": "the work its DOI leads to", "arxiv_id": "the work its arXiv id leads to"}


@dataclass(frozen=True)
class Reread:
    reference: Reference
    candidates: list[Candidate]  # every candidate given, its title similarity to the re-read title
    note: str


def reread_by_record(
    reference: Reference, candidates: Sequence[Candidate], settings: JudgeSettings
) -> Reread | None:
    """The reference re-read, with `candidates` scored against it; None when the parse stands."""
    if reference.structured:  # fields from a structured entry stand
        return None
    typo_at_most = settings.title_borderline_similarity
    title = _title_reread(reference, candidates, typo_at_most)
    # A venue the parser cut short is read as printed, whether or not the title was read again.
    reread, scored = (title.reference, title.candidates) if title else (reference, list(candidates))
    venue = _venue_printed_in_full(reread, scored, typo_at_most)
    if venue is None:
        return title
    note = f"{title.note}; {venue.note}" if title else venue.note
    return Reread(venue.reference, venue.candidates, note)


def _title_reread(
    reference: Reference, candidates: Sequence[Candidate], typo_at_most: float
) -> Reread | None:
    """The reference re-read around the title of a record it prints; None when the parsed title stands."""
    # A parsed title that is a record's, but for a typo, stands unless the string prints that record's
    # title whole with the parsed one inside it.
    if any(c.title_similarity >= typo_at_most for c in candidates):
        return _title_printed_whole(reference, candidates, typo_at_most)
    # Records an identifier leads to first; then those found by the string or by a title the parser read
    # with more than a typo's difference (authors swallowed into it): the string must print their title
    # and authors (`_read_around`).
    by_identifier = [c for c in candidates if c.via in _LED_BY]
    led_to = by_identifier + [c for c in candidates if c.via in ("raw", "title")]
    for candidate in led_to:
        fields = _read_around(reference, candidate)
        if fields is None:
            continue
        title = fields.title or ""
        rescored = [replace(c, title_similarity=title_similarity(title, c.record.title)) for c in candidates]
        by = _LED_BY.get(candidate.via, "a record whose title and authors it prints")
        return Reread(
            reference.model_copy(update={"parsed": fields}),
            rescored,
            f"fields re-read around the title of {by}",
        )
    return None


def _read_around(reference: Reference, candidate: Candidate) -> ParsedFields | None:
    """The string read with the candidate's title as its title: the title printed word for word for a
    record an identifier leads to; for one found from the string, the span it prints (typos and all)."""
    from refhound.refstring import parse_reference_string_around  # its grammar only for a printed string

    if candidate.via in _LED_BY:
        fields = parse_reference_string_around(reference.raw, candidate.record.title)
    else:
        printed = find_printed_record(reference.raw, candidate.record)
        if printed is None or not printed.confirms():
            return None
        fields = parse_reference_string_around(reference.raw, printed.title) or reference.parsed.model_copy(
            update={"title": printed.title}
        )
    return None if fields is None else _identifiers_kept(fields, reference.parsed)


def _identifiers_kept(fields: ParsedFields, kept: ParsedFields) -> ParsedFields:
    """The re-read fields with the identifiers of the first reading they lack: those taken from a PDF's
    links stay, as the string alone may not print them."""
    return fields.model_copy(
        update={
            "doi": fields.doi or kept.doi,
            "arxiv_id": fields.arxiv_id or kept.arxiv_id,
            "url": fields.url or kept.url,
        }
    )


def _venue_printed_in_full(
    reference: Reference, candidates: Sequence[Candidate], typo_at_most: float
) -> Reread | None:
    """The reference with the venue of a record whose title it cites, where the string prints that venue
    whole (word for word, or letter for letter as a text layer garbles it: "Tra- nslation") and the parser
    read only a part of it; None when no record's venue reads the string better."""
    cited = reference.parsed.venue
    if not cited:
        return None
    for candidate in (c for c in candidates if c.title_similarity >= typo_at_most):
        venue = candidate.record.venue
        # Cheap first, as this runs for most references: the parse is a part of the record's venue.
        if not venue or len(venue) <= len(cited) or cited.casefold() not in venue.casefold():
            continue
        printed = printed_words(reference.raw, venue)
        if printed is None and printed_spaces_aside(reference.raw, venue):
            printed = venue  # the text layer's garble ("Tra- nslation") is not the citation's
        if printed is not None:
            return Reread(
                reference.model_copy(
                    update={"parsed": reference.parsed.model_copy(update={"venue": printed})}
                ),
                list(candidates),
                f'venue re-read as the string prints it in full; the parser read "{cited}"',
            )
    return None


def _title_printed_whole(
    reference: Reference, candidates: Sequence[Candidate], typo_at_most: float
) -> Reread | None:
    """The reference re-read around the title of a record it cites, where the string prints that title
    word for word (or letter for letter, as a text layer garbles it) and the parsed title is a part of it,
    or it with words before it: the parser bounded the title where the author block does not end. None
    when no record's title reads the string better.

    Words the parsed title has after the record's are not taken for a boundary: "… you need again" may be
    a title changed at its end, and a title changed is for the rules to grade."""
    from refhound.refstring import parse_reference_string_around  # its grammar only for a printed string

    parsed = reference.parsed.title
    if not parsed:
        return None
    # Spaces aside, as a text layer loses a space ("Environmentfor") or keeps a hyphen at a line break
    # ("Representa- tion") inside the title, and the parser may read it either way.
    cited = "".join(folded_words(parsed))
    near = [
        (c, "".join(folded_words(c.record.title))) for c in candidates if c.title_similarity >= typo_at_most
    ]
    # A record whose title the parsed one is stands for the parse: the words the parsed title has before
    # another record's ("Keynote: Automatic Segmentation …" for "Automatic Segmentation …") are its own.
    if any(title == cited for _, title in near):
        return None
    for candidate, title in near:
        # The same title, articles aside, is read again only where the parsed one opens with a last
        # author's initial taken for the article ("Lopes, A. Graph Construction …").
        if candidate.title_similarity == 1.0 and not _opens_with_an_initial(parsed, candidate.record.title):
            continue
        if not (cited in title or cited.endswith(title)):
            continue
        printed = printed_words(reference.raw, candidate.record.title) or printed_spaces_aside(
            reference.raw, candidate.record.title
        )
        fields = parse_reference_string_around(reference.raw, printed) if printed else None
        if fields is None or not fields.title:
            continue
        read = fields.title
        rescored = [replace(c, title_similarity=title_similarity(read, c.record.title)) for c in candidates]
        return Reread(
            reference.model_copy(update={"parsed": _identifiers_kept(fields, reference.parsed)}),
            rescored,
            f'title re-read as the string prints the record\'s in full; the parser read "{parsed}"',
        )
    return None


def _opens_with_an_initial(parsed: str, title: str) -> bool:
    """Whether the parsed title opens with a capital and a full stop ("A. Graph …") the record's does not."""
    return bool(_INITIAL_OPENING.match(parsed)) and not _INITIAL_OPENING.match(title)
