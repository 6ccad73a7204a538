"""The strict judge's field rules: one function per cited field, each returning a `FieldCheck`.

`match` means the same value; `benign` a difference the rules allow (case, punctuation, accents, articles,
the order of the authors after the first, initials, arXiv vs venue, conference vs journal version,
preprint→published year ±1);
`mismatch` a material difference; `missing` the citation does not give the field; `unchecked` the record
cannot confirm or refute it.

`borderline_doubts` names the mismatches a rule flags but cannot settle alone (see the section at the end).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from rapidfuzz.distance import OSA, Indel

from refhound.index.anthology import SOURCE as ANTHOLOGY
from refhound.models import FieldCheck, FieldStatus, ParsedFields, Record, Severity
from refhound.normalize.identifiers import (
    arxiv_id_from_doi,
    arxiv_year,
    impossible_arxiv_id,
    normalize_arxiv_id,
    normalize_doi,
)
from refhound.normalize.names import NameMatch, name_words, names_match, parse_name
from refhound.normalize.placeholders import filler_arxiv_id, filler_doi, filler_names
from refhound.normalize.text import CJK_LETTERS, collapse_whitespace, fold, latex_to_unicode
from refhound.normalize.titles import same_title, title_similarity
from refhound.normalize.venue_acronyms import acronym_of
from refhound.normalize.venues import (
    VenueInfo,
    VenueKind,
    parse_venue,
    published_in_series,
    series_named,
    under_review,
    venue_similarity,
)
from refhound.settings import JudgeSettings

S = FieldStatus
# (venue key, year) -> the sources holding that venue and year completely, with their record counts.
Coverage = Callable[[str, int], list[tuple[str, int]]]
# (a name, other names) -> a record of the index that lists the name beside one of the others, said as
# "SOURCE ID lists NAME with OTHER", or None.
CoAuthorship = Callable[[str, Sequence[str]], str | None]
# A name -> whether some record of the index lists an author who can be it.
KnownName = Callable[[str], bool]
# A cited author "name" -> whether it is words of titles that no author of the index bears ("Computer",
# "Information Retrieval"): a reference manager's affiliation or keyword read as an author.
TitleText = Callable[[str], bool]


@dataclass(frozen=True)
class NameLookups:
    """What the index says of cited names the record lacks, for grading an author list."""

    co_authorship: CoAuthorship
    known_name: KnownName
    title_text: TitleText


# A record -> the events that list its volume as held with them ("acl-2019"), where the index knows them.
HostEvents = Callable[[Record], list[str]]
# (venue key, year) -> the conference's own volumes of that year (its Findings, "2023.findings-emnlp") that
# the dump lists and the index lacks: a citation by the conference's name may mean one, so absence proves
# nothing.
UnheldVolumes = Callable[[str, int], tuple[str, ...]]


def check_title(cited: str | None, record: Record) -> FieldCheck:
    if not cited:
        return FieldCheck(field="title", status=S.MISSING, level="title.missing", found=record.title)
    if same_title(cited, record.title):
        same_text = collapse_whitespace(cited).casefold() == collapse_whitespace(record.title).casefold()
        if same_text:
            return FieldCheck(
                field="title", status=S.MATCH, level="title.exact", cited=cited, found=record.title
            )
        return FieldCheck(
            field="title",
            status=S.BENIGN,
            level="title.same_key",
            cited=cited,
            found=record.title,
            note="differs only in punctuation, spacing, spelling, accents, articles or markup",
        )
    similarity = title_similarity(cited, record.title)
    return FieldCheck(
        field="title",
        status=S.MISMATCH,
        level="title.differs",
        cited=cited,
        found=record.title,
        note=f"different title words (similarity {similarity:.2f})",
    )


@dataclass(frozen=True)
class AuthorComparison:
    check: FieldCheck
    matched: int  # cited authors found in the record
    cited: int
    unmatched: tuple[str, ...] = ()  # cited names no record author can be
    unused: tuple[str, ...] = ()  # record names no cited author took
    # Every record author cited first, in order, and the names the record lacks only after them: the
    # citation lists a later version's authors, or the record is short of authors.
    extends_record: bool = False
    # The record's last authors, in order, and only them: the string may begin inside the author list.
    tail_of_record: bool = False
    # Every record author cited, in the record's order, the first first, with names the record lacks
    # anywhere after the first (a later or journal version's list, or a record that lost an author).
    keeps_record: bool = False
    # Another record author cited first; the record's first author is cited later, or left to 'et al.'.
    first_displaced: bool = False

    @property
    def overlap(self) -> float:
        return self.matched / self.cited if self.cited else 0.0


# The name a double-blind venue gives a submission's authors.
_ANONYMOUS = re.compile(r"anon(?:ymous)?\.?(?: authors?)?", re.IGNORECASE)
# Chinese, Japanese and Korean script: "王波" and a record's "Bo Wang" are one name the rules cannot compare.
_CJK = re.compile(f"[{CJK_LETTERS}]")


def _in_other_scripts(cited: list[str], found: list[str]) -> bool:
    """Whether one side writes its names in Chinese, Japanese or Korean script and the other does not."""
    return any(_CJK.search(name) for name in cited) != any(_CJK.search(name) for name in found)


def _family_and_given(family: str, given: str, record: Record) -> bool:
    """Whether two pieces are one record author's family name (the last words of the name as the record
    writes it, every one of them) and given names."""
    words = name_words(family)
    joined = f"{family}, {given}"
    return any(
        len(theirs) > len(words)
        and theirs[-len(words) :] == words
        and names_match(joined, author) is not NameMatch.NONE
        for author, theirs in ((author, name_words(author)) for author in record.authors)
    )


def _is_mononym(name: str, record: Record) -> bool:
    """Whether `name` is a record author known by one name, written as the record writes it but for the
    dumps' marks ("Mausam" for the Anthology's "Mausam .", "Chandrahas" for dblp's ". Chandrahas")."""
    words = name_words(name)
    return len(words) == 1 and any(name_words(author) == words for author in record.authors)


def _is_record_author(name: str, record: Record) -> bool:
    return any(names_match(name, author) is not NameMatch.NONE for author in record.authors)


def _two_record_authors(first: str, second: str, record: Record) -> bool:
    """Whether two halves of a piece are, word for word, two different record authors ("Le Song, Evian
    Gordon": a particle read as the start of an inverted name)."""
    written = [name_words(author) for author in record.authors]
    ours, theirs = name_words(first), name_words(second)
    return bool(ours and theirs) and ours != theirs and ours in written and theirs in written


def read_as_the_record(names: Sequence[str], record: Record) -> list[str]:
    """The cited names, cut where the record's authors are when the parser cut them elsewhere.

    A list's punctuation cannot always tell one name from two: "Lopez de Lacalle, Oier, and Eneko Agirre"
    is Chicago's inverted first name, "Andrey Kolobov, Mausam, and Daniel S. Weld" two names, the second a
    person known by one name. Two pieces are joined when the first is a record author's family name as the
    record writes it and the second that author's given names (and no record author by itself); a piece
    is cut at its comma when its first half is a record author known by one name and its second half
    another record author, or when its halves are two record authors written word for word. Nothing is
    read into a name that the string does not print, so an invented name stays invented."""
    out: list[str] = []
    i = 0
    while i < len(names):
        name = names[i]
        # The cheap test first: few pieces are a record author's family name.
        joins = i + 1 < len(names) and "," not in name and _family_and_given(name, names[i + 1], record)
        if joins and not _is_record_author(names[i + 1], record):
            out.append(f"{name}, {names[i + 1]}")
            i += 2
            continue
        first, comma, second = (part.strip() for part in name.partition(","))
        if comma and (
            (_is_mononym(first, record) and _is_record_author(second, record))
            or _two_record_authors(first, second, record)
        ):
            out.extend([first, second])
        else:
            out.append(name)
        i += 1
    return out


def check_authors(cited: ParsedFields, record: Record) -> AuthorComparison:
    """Every cited author must be in the record (any order); none may be dropped unless 'et al.'."""
    found_text = "; ".join(record.authors) or None
    if cited.authors and record.authors:
        cited = cited.model_copy(update={"authors": read_as_the_record(cited.authors, record)})
    if not cited.authors:
        missing = FieldCheck(field="authors", status=S.MISSING, level="authors.missing", found=found_text)
        return AuthorComparison(missing, 0, 0)
    cited_text = "; ".join(cited.authors)
    if _anonymous_submission(cited):
        note = "an anonymous submission under review names no authors"
        check = FieldCheck(
            field="authors",
            status=S.MISSING,
            level="authors.anonymous",
            cited=cited_text,
            found=found_text,
            note=note,
        )
        return AuthorComparison(check, 0, 0)
    if not record.authors:
        return AuthorComparison(
            FieldCheck(
                field="authors",
                status=S.UNCHECKED,
                level="authors.record_has_none",
                cited=cited_text,
                note="the record lists no authors",
            ),
            0,
            len(cited.authors),
        )
    if _in_other_scripts(cited.authors, record.authors):
        check = FieldCheck(
            field="authors",
            status=S.UNCHECKED,
            level="authors.other_script",
            cited=cited_text,
            found=found_text,
            note="the cited names and the record's are in different scripts (Chinese, Japanese or Korean on "
            "one side only), so they were not compared",
        )
        return AuthorComparison(check, 0, len(cited.authors))
    unused = list(range(len(record.authors)))
    pairs: list[tuple[int, int, NameMatch]] = []
    unmatched: list[str] = []
    repeated: list[str] = []
    for i, name in enumerate(cited.authors):
        best: tuple[int, NameMatch] | None = None
        for j in unused:
            verdict = names_match(name, record.authors[j])
            if verdict is NameMatch.EXACT:
                best = (j, verdict)
                break
            if verdict is NameMatch.COMPATIBLE and best is None:
                best = (j, verdict)
        if best is not None:
            unused.remove(best[0])
            pairs.append((i, best[0], best[1]))
        elif any(names_match(name, cited.authors[k]) is not NameMatch.NONE for k, _, _ in pairs):
            # The name of an author already paired, written again, in full or in another form ("Zhao,
            # Junbo Jake; Zhao, Junbo"): a list copied with a slip, nobody new (two authors of one name
            # are both paired, where the record has both).
            repeated.append(name)
        else:
            unmatched.append(name)
    dropped = [record.authors[j] for j in unused]
    notes: list[str] = []
    if unmatched:
        notes.append("not in the record: " + ", ".join(unmatched))
    if dropped and not cited.authors_truncated:
        shown = ", ".join(dropped[:5]) + (f" and {len(dropped) - 5} more" if len(dropped) > 5 else "")
        notes.append("left out without 'et al.': " + shown)
    # The work's first author is the one a citation is known by ("Devlin et al."): another author cited
    # first, ahead of them or with them left to 'et al.', names the wrong first author.
    displaced = bool(pairs) and pairs[0][0] == 0 and pairs[0][1] != 0
    if displaced and not notes:
        where = "cited later" if any(j == 0 for _, j, _ in pairs) else "left to 'et al.'"
        notes.append(
            f"{cited.authors[0]} cited first; the record's first author, {record.authors[0]}, {where}"
        )
    twice = ["written twice: " + ", ".join(repeated)] if repeated else []
    if notes:
        status = S.MISMATCH
        notes += twice
    else:
        notes += twice
        in_order = [j for _, j, _ in pairs] == sorted(j for _, j, _ in pairs)
        exact = all(m is NameMatch.EXACT for _, _, m in pairs)
        if not in_order:
            notes.append("order differs")
        if not exact:
            notes.append("names abbreviated or spelled differently")
        if cited.authors_truncated and dropped:
            notes.append(f"'et al.' stands for {len(dropped)} more")
        status = (
            S.MATCH
            if in_order and exact and not (twice or (cited.authors_truncated and dropped))
            else S.BENIGN
        )
    level = {S.MISMATCH: "authors.differ", S.MATCH: "authors.exact", S.BENIGN: "authors.variant"}[status]
    check = FieldCheck(
        field="authors", status=status, level=level, cited=cited_text, found=found_text, note="; ".join(notes)
    )
    extends = bool(unmatched) and not dropped and [i for i, _, _ in pairs] == [j for _, j, _ in pairs]
    skipped = len(record.authors) - len(cited.authors)
    tail = not unmatched and skipped > 0 and [j for _, j, _ in pairs] == [skipped + i for i, _, _ in pairs]
    order = [j for _, j, _ in sorted(pairs)]
    keeps = not dropped and order == list(range(len(record.authors))) and pairs[0][:2] == (0, 0)
    return AuthorComparison(
        check,
        len(pairs),
        len(cited.authors),
        tuple(unmatched),
        tuple(dropped),
        extends_record=extends,
        tail_of_record=tail,
        keeps_record=keeps,
        first_displaced=displaced,
    )


def _anonymous_submission(cited: ParsedFields) -> bool:
    """Whether the authors are the double-blind venue's name for them ("Anonymous") in a work cited as under
    review: no invented author. For a work cited as published or as a preprint it stays a name no record
    has."""
    anonymous = all(_ANONYMOUS.fullmatch(name.strip()) for name in cited.authors)
    return anonymous and bool(cited.venue) and under_review(cited.venue or "")


def cites_preprint(cited: ParsedFields) -> bool:
    """Whether the citation is to a preprint: it names a preprint server, or an arXiv id and no venue."""
    if cited.venue:
        return _is_preprint(parse_venue(cited.venue))
    return cited.arxiv_id is not None


# Links to hosts of code and data: with no venue cited, the work cited is what they keep.
_REPOSITORY_LINK = re.compile(
    r"^https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|zenodo\.org|huggingface\.co|pypi\.org|"
    r"sourceforge\.net|figshare\.com)/",
    re.IGNORECASE,
)
# DOIs that repositories of code and data mint for their deposits (Zenodo, figshare).
_DEPOSIT_DOI = re.compile(r"^10\.(?:5281/zenodo|6084/m9\.figshare)\.", re.IGNORECASE)


def cites_repository(cited: ParsedFields) -> bool:
    """Whether the citation is to a work's code or data as a repository keeps and releases it: it names a
    code or data host as its venue ("GitHub repository", "Zenodo"), or no venue and a link to one."""
    if cited.venue:
        return parse_venue(cited.venue).kind is VenueKind.REPOSITORY
    return bool(_REPOSITORY_LINK.match(cited.url or "") or _DEPOSIT_DOI.match(cited.doi or ""))


def _is_preprint(info: VenueInfo | None, record: Record | None = None) -> bool:
    if info is not None and info.kind is VenueKind.PREPRINT:
        return True
    return record is not None and record.entry_type == "preprint"


def check_venue(
    cited: ParsedFields,
    record: Record,
    settings: JudgeSettings,
    coverage: Coverage,
    host_events: HostEvents | None = None,
    unheld_volumes: UnheldVolumes | None = None,
) -> FieldCheck:
    """`host_events` asks the index which events hosted the record's volume (without it, none is known);
    `unheld_volumes` which of a conference's own volumes of a year it lacks (without it, none)."""
    if not cited.venue:
        return FieldCheck(field="venue", status=S.MISSING, level="venue.missing", found=record.venue)
    if not record.venue:
        return FieldCheck(
            field="venue",
            status=S.UNCHECKED,
            level="venue.record_has_none",
            cited=cited.venue,
            note="the record names no venue",
        )
    ours, theirs = parse_venue(cited.venue), parse_venue(record.venue)

    def result(
        status: FieldStatus, level: str, note: str = "", severity: Severity | None = None
    ) -> FieldCheck:
        return FieldCheck(
            field="venue",
            status=status,
            level=f"venue.{level}",
            severity=severity,
            cited=cited.venue,
            found=record.venue,
            note=note,
        )

    if ours.key is not None and ours.key == theirs.key:
        return result(S.MATCH, "same_series")
    if theirs.key is not None and ours.key != f"ws:{theirs.key}" and theirs.key in series_named(cited.venue):
        # A satellite event cited with its host, "ACL workshop (SemEval)", for SemEval's proceedings; but
        # "CVPR Workshop on …" is not CVPR's main proceedings.
        return result(
            S.BENIGN, "names_it_among_others", f"the cited venue names {theirs.key.upper()} among others"
        )
    if _partner_of_joint_conference(ours, theirs, record.venue):
        return result(
            S.BENIGN, "joint_conference", f"the record's joint conference includes {(ours.key or '').upper()}"
        )
    own_volume = ours.key in (_host(theirs), (theirs.key or "").removeprefix("ws:"))
    if ours.key is not None and not own_volume and ours.key in series_named(record.venue):
        # The record's volume is a joint one ("*SEM, Volume 2: Proceedings of … SemEval 2013"), cited by the
        # series it names second; but a workshop or Findings volume of a conference is not its main
        # proceedings (decided below).
        return result(
            S.BENIGN, "names_it_among_others", f"the record's volume names {ours.key.upper()} among others"
        )
    if theirs.key is not None and ours.key == f"ws:{theirs.key}" and "@" in cited.venue:
        # "*SEM@NAACL-HLT": the series, held with a host conference.
        return result(
            S.BENIGN, "series_at_host", f"{theirs.key.upper()}, named with the conference it was held with"
        )
    if ours.key is None and theirs.key is not None and theirs.key in published_in_series(cited.venue):
        return result(
            S.BENIGN, "proceedings_series", f"the proceedings series that publishes {theirs.key.upper()}"
        )
    if theirs.key is None and ours.key is not None and ours.key in published_in_series(record.venue):
        return result(
            S.BENIGN, "proceedings_series", f"the proceedings series that publishes {ours.key.upper()}"
        )
    if ours.kind is VenueKind.REPOSITORY and theirs.kind is not VenueKind.REPOSITORY:
        # Software and datasets are cited where they are kept (GitHub, Zenodo) as often as by their paper.
        why = "cited as the work's code or data repository; the record is its paper"
        return result(S.BENIGN, "cited_as_repository", why)
    if _is_preprint(ours) and _is_preprint(theirs, record):
        return result(S.MATCH, "both_preprints")
    if _is_preprint(ours):
        return result(
            S.BENIGN, "cited_as_preprint", "cited as a preprint; the record is the published version"
        )
    if _is_preprint(theirs, record):
        # Only a preprint was found: publication at the cited venue is unconfirmed, and disproved when
        # the index holds that venue and year completely, its Findings too (the published version would be
        # there).
        key = ours.key or ""
        unheld = unheld_volumes(key, cited.year) if unheld_volumes and key and cited.year else ()
        held = coverage(key, cited.year) if key and cited.year and not unheld else []
        if held:
            return result(
                S.MISMATCH,
                "preprint_absent_from_complete",
                f"only a preprint exists; {key.upper()} {cited.year} does not have it "
                f"({', '.join(source for source, _ in held)} holds it completely)",
                Severity.MAJOR,
            )
        return result(
            S.UNCHECKED,
            "only_preprint_found",
            "only a preprint record was found; publication at the cited venue is unconfirmed",
        )
    # The index is asked which events hosted the record's volume once at most, past the volume checks'
    # cheap tests.
    events = cache(lambda: host_events(record) if host_events else [])
    if held_with := _held_with(ours, theirs, events):
        # Workshops, Findings and satellite conferences are published beside their host's proceedings:
        # citing the host for one is a slip with a correction, not another event.
        return result(
            S.MISMATCH,
            "host_of_volume",
            f"a volume held with {held_with}, cited as {(ours.key or '').upper()} itself",
            Severity.MINOR,
        )
    if host := _host_not_recorded(ours, theirs, record, coverage, events):
        return result(
            S.MISMATCH,
            "host_not_recorded",
            f"a workshop of {record.year} whose host the index does not record, cited as {host}, a "
            "conference of that year the same anthology publishes: its host?",
            Severity.MINOR,
        )
    if _workshop_version(ours, theirs, cited, record):
        return result(
            S.MISMATCH,
            "workshop_version",
            f"a workshop of {(ours.key or '').removeprefix('ws:').upper()} cited for a conference paper of "
            "the same time: papers are presented at both",
            Severity.MINOR,
        )
    if _journal_version(ours, theirs):
        return result(S.BENIGN, "journal_version", "conference vs journal version")
    if ours.key is not None and theirs.key is not None:
        if _host(ours) == _host(theirs):
            # Findings and Student Research Workshop papers are accepted by the conference and published
            # beside its main proceedings: citing one volume for another is a slip, not another event.
            return result(
                S.MISMATCH,
                "same_conference_other_volume",
                "another volume of the same conference (main, Findings, Student Research Workshop)",
                Severity.MINOR,
            )
        return result(
            S.MISMATCH,
            "other_known_series",
            f"{ours.key.upper()} is not {theirs.key.upper()}",
            Severity.MAJOR,
        )
    similarity = venue_similarity(cited.venue, record.venue)
    if similarity >= settings.venue_similarity:
        return result(S.BENIGN, "similar_names", f"venue names differ in form (similarity {similarity:.2f})")
    if ours.kind is theirs.kind and acronym_of(cited.venue, record.venue):
        return result(
            S.BENIGN,
            "acronym_of_name",
            "one venue name writes words of the other as an acronym (a host after '@' is not compared)",
        )
    held = coverage(ours.key, cited.year) if ours.key and cited.year else []
    if cites_conference_after_workshop(cited, record) and not held:
        # Work shown at a workshop, often one without proceedings of record, is published at a conference
        # afterwards: the conference version, which the index does not hold (where it holds that
        # conference's year completely, the version would be there).
        why = "a conference cited for a workshop paper: its conference version?"
        return result(S.MISMATCH, "conference_for_workshop_paper", why, Severity.MINOR)
    if {ours.kind, theirs.kind} == {VenueKind.WORKSHOP, VenueKind.CONFERENCE}:
        return result(S.MISMATCH, "workshop_vs_conference", "workshop vs main conference", Severity.MAJOR)
    unlike = similarity < settings.venue_borderline_similarity
    if unlike and ours.kind is theirs.kind is VenueKind.CONFERENCE and (ours.key or theirs.key):
        # A paper appears at one conference. One name is a series the table knows, the other is named as
        # a conference and is neither one of that series' names nor like it (a name like it is left to
        # the borderline judge), nor its acronym with a typo ("23rd ICMP"): another event.
        known = (ours.key or theirs.key or "").upper()
        known_name, unknown = (cited.venue, record.venue) if ours.key else (record.venue, cited.venue)
        if typo := _acronym_typo({known, *_ACRONYM.findall(known_name)}, unknown):
            return result(S.MISMATCH, "acronym_typo", f"{typo} written with a typo", Severity.MINOR)
        return result(
            S.MISMATCH,
            "other_conference",
            f"another conference (similarity {similarity:.2f}), not one of {known}'s names",
            Severity.MAJOR,
        )
    return result(S.MISMATCH, "differs", f"different venue (similarity {similarity:.2f})")


def _journal_version(ours: VenueInfo, theirs: VenueInfo) -> bool:
    """A journal article extending a conference or workshop paper: the same work's other version. The
    journal must be a series the table knows (a journal nobody has heard of may be invented); the
    proceedings need not be ("Communications of the ACM" 1995 for a workshop paper of 1992 whose
    proceedings are in no series)."""
    journal = next((venue for venue in (ours, theirs) if venue.kind is VenueKind.JOURNAL), None)
    other = theirs if journal is ours else ours
    return (
        journal is not None
        and journal.key is not None
        and other.kind in (VenueKind.CONFERENCE, VenueKind.WORKSHOP)
    )


_ACRONYM = re.compile(r"\b[A-Z]{3,}\b")
# An acronym of this many letters may carry two typos and still be read as itself.
_LONG_ACRONYM = 6
# A work is presented at a workshop and published at a conference within this many years of each other.
_WORKSHOP_VERSION_YEARS = 1


def _held_with(ours: VenueInfo, theirs: VenueInfo, events: Callable[[], list[str]]) -> str | None:
    """The host ("ACL 2019", or "ACL" where only the name says it) when the cited venue is the conference
    that hosted the record's volume: by the index's event ("acl-2019"), or by the volume's own name (a
    workshop keyed "ws:acl"). The main proceedings and their Findings or Student Research Workshop are
    one conference's volumes (`_host`), decided after this."""
    if ours.key is None or ours.kind is not VenueKind.CONFERENCE or ours.key in (theirs.key, _host(theirs)):
        return None
    for event in events():
        series, _, year = event.rpartition("-")
        if series == ours.key and year.isdigit():
            return f"{series.upper()} {year}"
    return ours.key.upper() if theirs.key == f"ws:{ours.key}" else None


def _host_not_recorded(
    ours: VenueInfo, theirs: VenueInfo, record: Record, coverage: Coverage, events: Callable[[], list[str]]
) -> str | None:
    """The cited conference and year ("ACL 2015") when the record is a workshop volume the ACL Anthology
    files under its catch-all event of the year alone ("ws-2015": most workshops before 2018, whose hosts
    it does not record), and the Anthology publishes that conference's proceedings of the same year: the
    host may be it, and the index cannot tell."""
    if ours.key is None or ours.kind is not VenueKind.CONFERENCE or theirs.kind is not VenueKind.WORKSHOP:
        return None
    if record.year is None:
        return None
    held = events()
    if not held or any(event != f"ws-{record.year}" for event in held):
        return None
    if not any(source == ANTHOLOGY for source, _ in coverage(ours.key, record.year)):
        return None
    return f"{ours.key.upper()} {record.year}"


def _workshop_version(ours: VenueInfo, theirs: VenueInfo, cited: ParsedFields, record: Record) -> bool:
    """Whether a workshop of a known event ("ICLR 2020 Workshop on …", "NeurIPS Workshop on …") is cited
    for a conference paper within a year of it: the workshop where the work was also presented, mostly
    without proceedings an index could hold. Another volume of the record's own conference (its Student
    Research Workshop) is decided after this; a workshop no event is named for is left to the cascade."""
    if ours.kind is not VenueKind.WORKSHOP or ours.key is None or theirs.kind is not VenueKind.CONFERENCE:
        return False
    if _host(ours) == _host(theirs) or cited.year is None or record.year is None:
        return False
    return abs(cited.year - record.year) <= _WORKSHOP_VERSION_YEARS


def _partner_of_joint_conference(ours: VenueInfo, theirs: VenueInfo, record_venue: str) -> bool:
    """Whether the cited series is another partner of the record's joint conference ("ACL" for COLING-ACL
    2006, "IJCNLP" for EMNLP-IJCNLP 2019). A Findings or workshop volume that names its host is no joint
    conference: the host is another volume or another event."""
    if ours.key is None or ours.kind is not VenueKind.CONFERENCE or theirs.key is None:
        return False
    if theirs.key.startswith(("ws:", "findings-")):
        return False
    return ours.key != theirs.key and ours.key in series_named(record_venue)


_STUDENT_WORKSHOP = re.compile(r"\bstudent research workshop\b", re.IGNORECASE)


def _host(venue: VenueInfo) -> str | None:
    """The conference whose proceedings hold a volume: its own, its Findings' ("findings-emnlp" -> "emnlp")
    and its Student Research Workshop's ("ws:acl" named so -> "acl")."""
    key = venue.key
    if key is not None and key.startswith("ws:") and _STUDENT_WORKSHOP.search(venue.name):
        return key.removeprefix("ws:")
    return key.removeprefix("findings-") if key is not None else None


def _acronym_typo(acronyms: set[str], venue: str) -> str | None:
    """The acronym `venue` writes with one letter wrong, missing, added or swapped ("ICMP"), or two from
    six letters on ("ICCASP" for ICASSP), if any."""
    written = _ACRONYM.findall(venue)
    return next(
        (a for a in sorted(acronyms) for word in written if OSA.distance(word, a) <= _acronym_edits(a)), None
    )


def _acronym_edits(acronym: str) -> int:
    """The edits a typo of an acronym may make: one, two from six letters on (a longer acronym is as far
    from any other)."""
    return 1 if len(acronym) < _LONG_ACRONYM else 2


# A journal version appears up to this many years after the conference paper it extends.
_JOURNAL_VERSION_YEARS = 3
_PROCEEDINGS = (VenueKind.CONFERENCE, VenueKind.WORKSHOP)


def _venue_kinds(cited: ParsedFields, record: Record) -> tuple[VenueKind, VenueKind] | None:
    if not cited.venue or not record.venue:
        return None
    return parse_venue(cited.venue).kind, parse_venue(record.venue).kind


def cites_journal_version(cited: ParsedFields, record: Record) -> bool:
    """Whether the citation names a journal where the record is a conference or workshop paper: the
    journal version of the work, which appears later."""
    kinds = _venue_kinds(cited, record)
    return kinds is not None and kinds[0] is VenueKind.JOURNAL and kinds[1] in _PROCEEDINGS


def later_version_at_unknown_venue(cited: ParsedFields, record: Record) -> bool:
    """Whether the citation names a venue the table does not know (no series it knows, no preprint server,
    no code host), up to `_JOURNAL_VERSION_YEARS` after the year of the record's paper at a conference or
    workshop the table knows: where the work's later version (a journal article, a book chapter) may be,
    which the index lacks."""
    if not cited.venue or not record.venue or cited.year is None or record.year is None:
        return False
    ours, theirs = parse_venue(cited.venue), parse_venue(record.venue)
    unknown = ours.key is None and ours.kind not in (VenueKind.PREPRINT, VenueKind.REPOSITORY)
    known_paper = theirs.key is not None and theirs.kind in _PROCEEDINGS
    return unknown and known_paper and 0 < cited.year - record.year <= _JOURNAL_VERSION_YEARS


def cites_conference_after_workshop(cited: ParsedFields, record: Record) -> bool:
    """Whether the citation names a conference where the record is a workshop paper: the conference
    version of the work, which appears later."""
    kinds = _venue_kinds(cited, record)
    return kinds == (VenueKind.CONFERENCE, VenueKind.WORKSHOP)


def cites_conference_version(cited: ParsedFields, record: Record) -> bool:
    """Whether the citation names a conference or workshop where the record is a journal article: the
    earlier version of the work."""
    kinds = _venue_kinds(cited, record)
    return kinds is not None and kinds[0] in _PROCEEDINGS and kinds[1] is VenueKind.JOURNAL


def check_year(cited: ParsedFields, record: Record, this_year: int, settings: JudgeSettings) -> FieldCheck:
    if cited.year is None:
        return FieldCheck(field="year", status=S.MISSING, level="year.missing", found=_str(record.year))
    if cited.year > this_year + settings.max_future_years:
        return FieldCheck(
            field="year",
            status=S.MISMATCH,
            level="year.future",
            severity=Severity.MAJOR,
            cited=str(cited.year),
            found=_str(record.year),
            note=f"{cited.year} is in the future",
        )
    if record.year is None:
        return FieldCheck(
            field="year",
            status=S.UNCHECKED,
            level="year.record_has_none",
            cited=str(cited.year),
            note="the record has no year",
        )
    cited_year, found_year = cited.year, record.year

    def against_record(status: S, level: str, note: str = "") -> FieldCheck:
        return FieldCheck(
            field="year", status=status, level=level, cited=str(cited_year), found=str(found_year), note=note
        )

    gap = cited_year - found_year
    if gap == 0:
        return against_record(S.MATCH, "year.same")
    # A year one off is the other version's where a preprint is cited or is all the index holds, or where
    # the work has an arXiv id: the year before the published one is the preprint's; the year after it only
    # if the preprint was posted then. An arXiv id dates the preprint, so another year is no version's.
    arxiv_ids = [i for i in (cited.arxiv_id, record.arxiv_id) if i]
    preprints_year = any(gap == -1 or arxiv_year(i) in (None, cited_year) for i in arxiv_ids)
    if abs(gap) == 1 and (record.entry_type == "preprint" or cites_preprint(cited) or preprints_year):
        return against_record(
            S.BENIGN, "year.preprint_one_off", "preprint and published version differ by one year"
        )
    # The other version's own year: a journal's comes after the conference paper's, whichever of the two is
    # cited and the index lacks. Whether the journal is one is the venue check's to say.
    cites_journal = cites_journal_version(cited, record)
    later = gap if cites_journal else -gap if cites_conference_version(cited, record) else 0
    if 0 < later <= _JOURNAL_VERSION_YEARS:
        note = f"the {'journal' if cites_journal else 'conference'} version's own year"
        return against_record(S.BENIGN, "year.journal_version", note)
    if 0 < gap <= _JOURNAL_VERSION_YEARS and cites_conference_after_workshop(cited, record):
        note = "the conference version's own year, after the workshop paper's"
        return against_record(S.BENIGN, "year.conference_version", note)
    return against_record(S.MISMATCH, "year.differs")


def check_doi(
    cited: str | None, record: Record, owner: Record | None, version_cited: bool = False
) -> FieldCheck | None:
    """`owner` is another indexed record that carries the cited DOI, if any; `version_cited` says the
    citation names another version of the record's work (its journal article, its preprint), whose DOI is
    its own."""
    doi = normalize_doi(cited) if cited else None
    found = normalize_doi(record.doi) if record.doi else None
    if doi is None:
        return FieldCheck(field="doi", status=S.MISSING, level="doi.missing", found=found) if found else None
    if doi == found:
        return FieldCheck(field="doi", status=S.MATCH, level="doi.same", cited=doi, found=found)
    if owner is not None:
        return FieldCheck(
            field="doi",
            status=S.MISMATCH,
            level="doi.another_works",
            severity=Severity.MAJOR,
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
            level="doi.arxiv_doi_of_this_work" if same else "doi.arxiv_doi_of_another",
            severity=None if same else Severity.MAJOR,
            cited=doi,
            found=found or record.arxiv_id,
            note="arXiv DOI of this work" if same else f"arXiv DOI of another preprint ({arxiv_of_doi})",
        )
    if arxiv_of_doi is not None:
        # arXiv's DOI names the preprint, a version the record (without an arXiv id) cannot be compared with.
        return FieldCheck(
            field="doi",
            status=S.UNCHECKED,
            level="doi.arxiv_doi_unchecked",
            cited=doi,
            found=found,
            note="arXiv's DOI of a preprint, and the record has no arXiv id: only arXiv can tell whose it is",
        )
    if found is not None and _DEPOSIT_DOI.match(doi):
        # A deposit's DOI names the code or data a repository keeps, a work of its own beside the paper.
        return FieldCheck(
            field="doi",
            status=S.UNCHECKED,
            level="doi.repository_deposit",
            cited=doi,
            found=found,
            note="a repository's DOI for the work's code or data: only doi.org can tell whose it is",
        )
    if found is not None and version_cited:
        return FieldCheck(
            field="doi",
            status=S.UNCHECKED,
            level="doi.of_cited_version",
            cited=doi,
            found=found,
            note="the cited version's own DOI, not the record's version's: only doi.org can tell whose it is",
        )
    if found is not None:
        return FieldCheck(
            field="doi",
            status=S.MISMATCH,
            level="doi.differs",
            cited=doi,
            found=found,
            note="the record has another DOI",
        )
    return FieldCheck(
        field="doi",
        status=S.UNCHECKED,
        level="doi.unchecked",
        cited=doi,
        note="the record has no DOI and no indexed work carries this one; resolving it needs the network",
    )


def _of_the_next_january(arxiv_id: str, year: int | None) -> bool:
    """Whether a new-style arXiv id ("2101.00027") was given in the January after `year`."""
    canonical = normalize_arxiv_id(arxiv_id)
    return (
        year is not None
        and canonical is not None
        and "/" not in canonical
        and canonical[:4] == f"{(year + 1) % 100:02d}01"
    )


def check_arxiv(cited: ParsedFields, record: Record, owner: Record | None) -> FieldCheck | None:
    """An id whose date cannot exist is wrong whatever the record; one a preprint citation dates after its
    year too (a venue's paper may reach arXiv after its publication)."""
    if not cited.arxiv_id:
        return None  # an arXiv id the citation does not give is not an error of the citation
    impossible = impossible_arxiv_id(cited.arxiv_id, cited.year if cites_preprint(cited) else None)
    if impossible is not None:
        # An id no date allows, or only one from after the year a preprint is cited by (a paper posted
        # later than it was written, or an invented id).
        never = impossible_arxiv_id(cited.arxiv_id, None) is not None
        if never:
            level, severity = "arxiv_id.impossible", Severity.MAJOR
            note = f"no such arXiv id can exist: {impossible}"
        elif _of_the_next_january(cited.arxiv_id, cited.year):
            # arXiv numbers a preprint sent in a year's last days in the January after: the author's year
            # and the id's disagree by days.
            level, severity = "arxiv_id.next_january", Severity.MINOR
            note = f"{impossible}, in its January: sent at the year's end, or posted weeks after written"
        else:
            # Old reports and theses reach arXiv years after they were written ("Powers 2011", posted as
            # 2010.16061): graded minor, its weight says how often such an id is invented instead.
            level, severity = "arxiv_id.after_cited_year", Severity.MINOR
            note = f"{impossible}: posted after it was written, or invented"
        return FieldCheck(
            field="arxiv_id",
            status=S.MISMATCH,
            level=level,
            severity=severity,
            cited=cited.arxiv_id,
            found=record.arxiv_id,
            note=note,
        )
    ours = normalize_arxiv_id(cited.arxiv_id)
    theirs = normalize_arxiv_id(record.arxiv_id) if record.arxiv_id else None
    if ours is None:
        return None  # not an arXiv id at all: nothing to compare
    if ours == theirs:
        return FieldCheck(field="arxiv_id", status=S.MATCH, level="arxiv_id.same", cited=ours, found=theirs)
    if owner is not None:
        return FieldCheck(
            field="arxiv_id",
            status=S.MISMATCH,
            level="arxiv_id.another_works",
            severity=Severity.MAJOR,
            cited=ours,
            found=theirs,
            note=f"this arXiv id belongs to another work: {owner.title}",
        )
    if theirs is not None:
        return FieldCheck(
            field="arxiv_id", status=S.MISMATCH, level="arxiv_id.differs", cited=ours, found=theirs
        )
    return FieldCheck(
        field="arxiv_id",
        status=S.UNCHECKED,
        level="arxiv_id.unchecked",
        cited=ours,
        note="a possible id, but the record has none and no indexed work carries it: checking it needs "
        "arXiv (online)",
    )


@dataclass(frozen=True)
class AnthologyAnswer:
    """What the index says of the ACL Anthology paper a cited address names (`cited_anthology_id`)."""

    anthology_id: str
    record: Record | None  # the Anthology's record of that ID, if any
    same_work: bool  # its title is the cited one (as near as a candidate's must be)
    volume_held: bool  # the index holds the ID's volume: with no record, the ID names no paper


def check_url(answer: AnthologyAnswer | None) -> FieldCheck | None:
    """A cited Anthology address, checked against the Anthology as `check_doi` checks a DOI: the cited work's
    own, another work's, or (in a volume the index holds whole) no paper at all. Other addresses, and papers
    of volumes the dump lacks, only an online run can read."""
    if answer is None:
        return None
    cited = answer.anthology_id
    if answer.record is not None and answer.same_work:
        return FieldCheck(field="url", status=S.MATCH, level="url.same", cited=cited, found=cited)
    if answer.record is not None:
        return FieldCheck(
            field="url",
            status=S.MISMATCH,
            level="url.another_works",
            severity=Severity.MAJOR,
            cited=cited,
            found=answer.record.title,
            note=f"this ACL Anthology address is another work's: {answer.record.title}",
        )
    if answer.volume_held:
        return FieldCheck(
            field="url",
            status=S.MISMATCH,
            level="url.does_not_exist",
            severity=Severity.MAJOR,
            cited=cited,
            note="no paper of the ACL Anthology has this address, though the index holds its volume whole",
        )
    return None


def filler_checks(cited: ParsedFields) -> list[FieldCheck]:
    """The cited fields that hold a template's filler for a value ("Jane Doe", "arXiv:2407.XXXX"): wrong
    whatever the record, as an id no date allows is (refhound/normalize/placeholders.py)."""
    found: list[tuple[str, str, str]] = []  # (field, cited value, note)
    names = filler_names(cited.authors)
    if names:
        are = "is" if len(names) == 1 else "are"
        found.append(
            (
                "authors",
                ", ".join(cited.authors),
                f"{', '.join(names)} {are} a template's filler, not an author",
            )
        )
    for field, value in (("arxiv_id", filler_arxiv_id(cited)), ("doi", filler_doi(cited))):
        if value is not None:
            found.append((field, value, "a template's filler (a run of X), not an identifier"))
    return [
        FieldCheck(
            field=field,
            status=S.MISMATCH,
            level=f"{field}.filler",
            severity=Severity.MAJOR,
            cited=value,
            note=note,
        )
        for field, value, note in found
    ]


def _str(value: object) -> str | None:
    return None if value is None else str(value)


# --- borderline signals ---------------------------------------------------------------------------------
# Mismatches a rule flags but cannot settle alone: a title reworded or replaced, a name written another way
# (script, romanisation, order, adopted given name), a venue abbreviated beyond recognition or another one.
# They never change a field's status or the verdict; the judge only marks such a case for the LLM judge
# (agents/judge_llm.py).

# Cyrillic (Russian, Ukrainian, Belarusian, Bulgarian, Serbian) and Greek letters, in one common Latin
# spelling each; `_skeleton` then merges the usual variants (y/j/i, kh/ch/h, w/v, ü/ue/u, doubled letters).
_TO_LATIN = str.maketrans({
    "а": "a", "б": "b", "в": "v", "г": "g", "ґ": "g", "д": "d", "е": "e", "ё": "e", "є": "ye", "ж": "zh",
    "з": "z", "и": "i", "і": "i", "ї": "yi", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ў": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch",
    "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya", "ђ": "dj",
    "ј": "j", "љ": "lj", "њ": "nj", "ћ": "c", "џ": "dz",
    "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th", "ι": "i", "κ": "k",
    "λ": "l", "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p", "ρ": "r", "σ": "s", "ς": "s", "τ": "t",
    "υ": "y", "φ": "f", "χ": "ch", "ψ": "ps", "ω": "o",
})  # fmt: skip
_GREEK_DIGRAPHS = (("ου", "ou"), ("μπ", "b"), ("ντ", "d"), ("γγ", "ng"))
_VARIANTS = (
    ("tsch", "ch"), ("sch", "sh"), ("tch", "ch"), ("kh", "h"), ("ch", "h"), ("ph", "f"), ("ck", "k"),
    ("x", "ks"), ("w", "v"), ("ae", "a"), ("oe", "o"), ("ue", "u"), ("y", "i"), ("j", "i"),
)  # fmt: skip
_DOUBLED = re.compile(r"([a-z])\1+")
_NAME_WORD = re.compile(r"[^\W_]+\.?")
_SHOWN_CHARS = 60  # of a name or venue quoted in a borderline statement


def _skeleton(name: str) -> str:
    """A name in Latin letters, usual romanisation variants merged: Юрий → "iuri", Jürgen → "iurgen"."""
    text = name.lower()
    for greek, latin in _GREEK_DIGRAPHS:
        text = text.replace(greek, latin)
    text = fold(text.translate(_TO_LATIN)).translate(_TO_LATIN)  # again for accented Greek letters
    for variant, merged in _VARIANTS:
        text = text.replace(variant, merged)
    return _DOUBLED.sub(r"\1", text)


def _words(name: str) -> list[str]:
    return _NAME_WORD.findall(fold(latex_to_unicode(name)))


def name_variant(cited: str, found: str, threshold: float) -> bool:
    """Whether two names the rules tell apart can be one person's name written another way.

    The same words in another order ("Quan Ngoc Pham", "Ngoc Quan Pham"); another script or romanisation
    ("Юрген", "Jürgen", "Juergen"), the latter only when a name has letters outside ASCII: two ASCII names
    that differ ("Jane Sun", "Jian Sun") are different names, not a romanisation question. (An adopted given
    name before the initials of the native ones, "Ricky T. Q. Chen" for Tian Qi Chen, is the same name to
    `names_match`.)
    """
    ours, theirs = _words(cited), _words(found)
    if len(ours) >= 2 and sorted(w.rstrip(".") for w in ours) == sorted(w.rstrip(".") for w in theirs):
        return True
    cited, found = latex_to_unicode(cited), latex_to_unicode(found)
    if cited.isascii() and found.isascii():
        return False
    skeleton_a, skeleton_b = _skeleton(cited), _skeleton(found)
    if names_match(skeleton_a, skeleton_b) is not NameMatch.NONE:
        return True
    a, b = parse_name(skeleton_a), parse_name(skeleton_b)
    if not a.family or not b.family:
        return False
    # Romanisation merges letters (Y and I, J and I), so a shared first letter says little: the given
    # names must be alike too, or one an initial.
    first, second = a.given.rstrip("."), b.given.rstrip(".")
    given_agrees = (
        not first
        or not second
        or (first[0] == second[0] and min(len(first), len(second)) == 1)
        or Indel.normalized_similarity(first, second) >= threshold
    )
    return given_agrees and Indel.normalized_similarity(a.family, b.family) >= threshold


def name_variant_pairs(authors: AuthorComparison, truncated: bool, threshold: float) -> list[tuple[str, str]]:
    """(cited, record) name pairs that explain the whole author mismatch as names written another way.

    Empty unless every cited name the rules did not find pairs with a distinct unused record name, and no
    record name is left out (unless the citation says "et al.").
    """
    unused = list(authors.unused)
    pairs: list[tuple[str, str]] = []
    for name in authors.unmatched:
        other = next((o for o in unused if name_variant(name, o, threshold)), None)
        if other is None:
            return []
        unused.remove(other)
        pairs.append((name, other))
    return [] if unused and not truncated else pairs


def venue_doubt(cited: ParsedFields, record: Record, settings: JudgeSettings) -> str | None:
    """Why a venue mismatch may be the same venue: not both recognised, and similar all the same."""
    if not cited.venue or not record.venue:
        return None
    ours, theirs = parse_venue(cited.venue), parse_venue(record.venue)
    if ours.key is not None and theirs.key is not None:
        return None  # two known series: the table settles it
    if _is_preprint(ours) or _is_preprint(theirs, record):
        return None
    if VenueKind.WORKSHOP in (ours.kind, theirs.kind) and ours.kind != theirs.kind:
        return None
    similarity = venue_similarity(cited.venue, record.venue)
    if not settings.venue_borderline_similarity <= similarity < settings.venue_similarity:
        return None
    return (
        f"venue {_shown(cited.venue)!r} vs {_shown(record.venue)!r} (not recognised, similarity "
        f"{similarity:.2f}): an abbreviation of it, or another venue?"
    )


def borderline_doubts(
    cited: ParsedFields,
    record: Record,
    title_similarity: float,
    fields: list[FieldCheck],
    authors: AuthorComparison,
    settings: JudgeSettings,
) -> dict[str, str]:
    """For each mismatched field whose mismatch the rules cannot settle, one line saying what is in doubt."""
    status = {f.field: f.status for f in fields}
    doubts: dict[str, str] = {}
    low, high = settings.title_candidate_similarity, settings.title_borderline_similarity
    if status.get("title") is S.MISMATCH and low <= title_similarity < high:
        doubts["title"] = (
            f"title similarity {title_similarity:.2f} (between {low:.2f} and {high:.2f}): a reworded "
            "title of this work, or another work?"
        )
    if status.get("authors") is S.MISMATCH:
        pairs = name_variant_pairs(authors, cited.authors_truncated, settings.author_borderline_similarity)
        if pairs:
            shown = ", ".join(f"{_shown(a)!r} vs {_shown(b)!r}" for a, b in pairs[:3])
            more = f" and {len(pairs) - 3} more" if len(pairs) > 3 else ""
            doubts["authors"] = (
                f"author names that may be the same people written another way (script, romanisation, "
                f"order of names, adopted given name): {shown}{more}"
            )
    if status.get("venue") is S.MISMATCH:
        doubt = venue_doubt(cited, record, settings)
        if doubt:
            doubts["venue"] = doubt
    return doubts


def _shown(text: str) -> str:
    text = collapse_whitespace(text)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"
