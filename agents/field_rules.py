"""The strict judge's field rules: one function per cited field, each returning a `FieldCheck`.

`match` means the same value; `benign` a difference the rules allow (case, punctuation, accents, articles,
author order, initials, arXiv vs venue, conference vs journal version, preprint→published year ±1);
`mismatch` a material difference; `missing` the citation does not give the field; `unchecked` the record
cannot confirm or refute it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from refhound.models import FieldCheck, FieldStatus, ParsedFields, Record
from refhound.normalize.identifiers import arxiv_id_from_doi, normalize_arxiv_id, normalize_doi
from refhound.normalize.names import NameMatch, names_match
from refhound.normalize.text import collapse_whitespace
from refhound.normalize.titles import title_key, title_similarity
from refhound.normalize.venues import VenueInfo, VenueKind, parse_venue, venue_similarity
from refhound.settings import JudgeSettings

S = FieldStatus
# (venue key, year) -> the sources holding that venue and year completely, with their record counts.
Coverage = Callable[[str, int], list[tuple[str, int]]]


def check_title(cited: str | None, record: Record) -> FieldCheck:
    if not cited:
        return FieldCheck(field="title", status=S.MISSING, found=record.title)
    if title_key(cited) == title_key(record.title):
        same_text = collapse_whitespace(cited).casefold() == collapse_whitespace(record.title).casefold()
        if same_text:
            return FieldCheck(field="title", status=S.MATCH, cited=cited, found=record.title)
        return FieldCheck(
            field="title",
            status=S.BENIGN,
            cited=cited,
            found=record.title,
            note="differs only in punctuation, accents, articles or markup",
        )
    similarity = title_similarity(cited, record.title)
    return FieldCheck(
        field="title",
        status=S.MISMATCH,
        cited=cited,
        found=record.title,
        note=f"different title words (similarity {similarity:.2f})",
    )


@dataclass(frozen=True)
class AuthorComparison:
    check: FieldCheck
    matched: int  # cited authors found in the record
    cited: int

    @property
    def overlap(self) -> float:
        return self.matched / self.cited if self.cited else 0.0


def check_authors(cited: ParsedFields, record: Record) -> AuthorComparison:
    """Every cited author must be in the record (any order); none may be dropped unless 'et al.'."""
    found_text = "; ".join(record.authors) or None
    if not cited.authors:
        return AuthorComparison(FieldCheck(field="authors", status=S.MISSING, found=found_text), 0, 0)
    cited_text = "; ".join(cited.authors)
    if not record.authors:
        return AuthorComparison(
            FieldCheck(
                field="authors", status=S.UNCHECKED, cited=cited_text, note="the record lists no authors"
            ),
            0,
            len(cited.authors),
        )
    unused = list(range(len(record.authors)))
    pairs: list[tuple[int, int, NameMatch]] = []
    unmatched: list[str] = []
    for i, name in enumerate(cited.authors):
        best: tuple[int, NameMatch] | None = None
        for j in unused:
            verdict = names_match(name, record.authors[j])
            if verdict is NameMatch.EXACT:
                best = (j, verdict)
                break
            if verdict is NameMatch.COMPATIBLE and best is None:
                best = (j, verdict)
        if best is None:
            unmatched.append(name)
        else:
            unused.remove(best[0])
            pairs.append((i, best[0], best[1]))
    dropped = [record.authors[j] for j in unused]
    notes: list[str] = []
    if unmatched:
        notes.append("not in the record: " + ", ".join(unmatched))
    if dropped and not cited.authors_truncated:
        shown = ", ".join(dropped[:5]) + (f" and {len(dropped) - 5} more" if len(dropped) > 5 else "")
        notes.append("left out without 'et al.': " + shown)
    if notes:
        status = S.MISMATCH
    else:
        in_order = [j for _, j, _ in pairs] == sorted(j for _, j, _ in pairs)
        exact = all(m is NameMatch.EXACT for _, _, m in pairs)
        if not in_order:
            notes.append("order differs")
        if not exact:
            notes.append("names abbreviated or spelled differently")
        if cited.authors_truncated and dropped:
            notes.append(f"'et al.' stands for {len(dropped)} more")
        status = S.MATCH if in_order and exact and not (cited.authors_truncated and dropped) else S.BENIGN
    check = FieldCheck(
        field="authors", status=status, cited=cited_text, found=found_text, note="; ".join(notes)
    )
    return AuthorComparison(check, len(pairs), len(cited.authors))


def _is_preprint(info: VenueInfo | None, record: Record | None = None) -> bool:
    if info is not None and info.kind is VenueKind.PREPRINT:
        return True
    return record is not None and record.entry_type == "preprint"


def check_venue(
    cited: ParsedFields, record: Record, settings: JudgeSettings, coverage: Coverage
) -> FieldCheck:
    if not cited.venue:
        return FieldCheck(field="venue", status=S.MISSING, found=record.venue)
    if not record.venue:
        return FieldCheck(
            field="venue", status=S.UNCHECKED, cited=cited.venue, note="the record names no venue"
        )
    ours, theirs = parse_venue(cited.venue), parse_venue(record.venue)

    def result(status: FieldStatus, note: str = "") -> FieldCheck:
        return FieldCheck(field="venue", status=status, cited=cited.venue, found=record.venue, note=note)

    if ours.key is not None and ours.key == theirs.key:
        return result(S.MATCH)
    if _is_preprint(ours) and _is_preprint(theirs, record):
        return result(S.MATCH)
    if _is_preprint(ours):
        return result(S.BENIGN, "cited as a preprint; the record is the published version")
    if _is_preprint(theirs, record):
        # Only a preprint was found: publication at the cited venue is unconfirmed, and disproved when
        # the index holds that venue and year completely (the published version would be there).
        held = coverage(ours.key, cited.year) if ours.key and cited.year else []
        if held:
            return result(
                S.MISMATCH,
                f"only a preprint exists; {ours.key.upper()} {cited.year} does not have it "
                f"({', '.join(source for source, _ in held)} holds it completely)",
            )
        return result(
            S.UNCHECKED, "only a preprint record was found; publication at the cited venue is unconfirmed"
        )
    if ours.key is not None and theirs.key is not None:
        kinds = {ours.kind, theirs.kind}
        if kinds == {VenueKind.CONFERENCE, VenueKind.JOURNAL}:
            return result(S.BENIGN, "conference vs journal version")
        return result(S.MISMATCH, f"{ours.key.upper()} is not {theirs.key.upper()}")
    similarity = venue_similarity(cited.venue, record.venue)
    if similarity >= settings.venue_similarity:
        return result(S.BENIGN, f"venue names differ in form (similarity {similarity:.2f})")
    if VenueKind.WORKSHOP in (ours.kind, theirs.kind) and ours.kind != theirs.kind:
        return result(S.MISMATCH, "workshop vs main conference")
    return result(S.MISMATCH, f"different venue (similarity {similarity:.2f})")


def check_year(cited: ParsedFields, record: Record, this_year: int, settings: JudgeSettings) -> FieldCheck:
    if cited.year is None:
        return FieldCheck(field="year", status=S.MISSING, found=_str(record.year))
    if cited.year > this_year + settings.max_future_years:
        return FieldCheck(
            field="year",
            status=S.MISMATCH,
            cited=str(cited.year),
            found=_str(record.year),
            note=f"{cited.year} is in the future",
        )
    if record.year is None:
        return FieldCheck(
            field="year", status=S.UNCHECKED, cited=str(cited.year), note="the record has no year"
        )
    if cited.year == record.year:
        return FieldCheck(field="year", status=S.MATCH, cited=str(cited.year), found=str(record.year))
    preprint_involved = (
        record.entry_type == "preprint"
        or record.arxiv_id is not None
        or cited.arxiv_id is not None
        or (cited.venue is not None and parse_venue(cited.venue).kind is VenueKind.PREPRINT)
    )
    if abs(cited.year - record.year) == 1 and preprint_involved:
        return FieldCheck(
            field="year",
            status=S.BENIGN,
            cited=str(cited.year),
            found=str(record.year),
            note="preprint and published version differ by one year",
        )
    return FieldCheck(field="year", status=S.MISMATCH, cited=str(cited.year), found=str(record.year))


def check_doi(cited: str | None, record: Record, owner: Record | None) -> FieldCheck | None:
    """`owner` is another indexed record that carries the cited DOI, if any."""
    doi = normalize_doi(cited) if cited else None
    found = normalize_doi(record.doi) if record.doi else None
    if doi is None:
        return FieldCheck(field="doi", status=S.MISSING, found=found) if found else None
    if doi == found:
        return FieldCheck(field="doi", status=S.MATCH, cited=doi, found=found)
    if owner is not None:
        return FieldCheck(
            field="doi",
            status=S.MISMATCH,
            cited=doi,
            found=found,
            note=f"this DOI belongs to another work: {owner.title} ({owner.source} {owner.source_id})",
        )
    arxiv_of_doi = arxiv_id_from_doi(doi)
    if arxiv_of_doi is not None and record.arxiv_id:
        same = arxiv_of_doi == normalize_arxiv_id(record.arxiv_id)
        return FieldCheck(
            field="doi",
            status=S.BENIGN if same else S.MISMATCH,
            cited=doi,
            found=found or record.arxiv_id,
            note="arXiv DOI of this work" if same else f"arXiv DOI of another preprint ({arxiv_of_doi})",
        )
    if found is not None:
        return FieldCheck(
            field="doi", status=S.MISMATCH, cited=doi, found=found, note="the record has another DOI"
        )
    return FieldCheck(
        field="doi",
        status=S.UNCHECKED,
        cited=doi,
        note="the record has no DOI and no indexed work carries this one; resolving it needs the network",
    )


def check_arxiv(cited: str | None, record: Record, owner: Record | None) -> FieldCheck | None:
    ours = normalize_arxiv_id(cited) if cited else None
    theirs = normalize_arxiv_id(record.arxiv_id) if record.arxiv_id else None
    if ours is None:
        return None  # an arXiv id the citation does not give is not an error of the citation
    if ours == theirs:
        return FieldCheck(field="arxiv_id", status=S.MATCH, cited=ours, found=theirs)
    if owner is not None:
        return FieldCheck(
            field="arxiv_id",
            status=S.MISMATCH,
            cited=ours,
            found=theirs,
            note=f"this arXiv id belongs to another work: {owner.title}",
        )
    if theirs is not None:
        return FieldCheck(field="arxiv_id", status=S.MISMATCH, cited=ours, found=theirs)
    return FieldCheck(
        field="arxiv_id",
        status=S.UNCHECKED,
        cited=ours,
        note="the record has no arXiv id and no indexed work carries this one",
    )


def _str(value: object) -> str | None:
    return None if value is None else str(value)
