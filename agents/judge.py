"""The strict judge (deterministic part): from candidate records to a verdict with field checks.

A candidate is taken as the cited work when its title matches (ignoring case, punctuation, accents and
articles), or when its title is close and most cited authors or an identifier agree. Among such
candidates the one that agrees best decides:

- every field agrees (benign differences allowed)                       → verified
- some field is materially wrong                                        → metadata_error
- nothing wrong, but a cited field the record cannot confirm (e.g. DOI) → unverified

With no candidate, the verdict depends on what the index covers: a cited venue and year held
completely by some source (e.g. dblp's ICML 2019 bibliography) → fabricated; otherwise unverified,
because "not in an index that does not cover it" proves nothing.

A cited identifier that its authority says does not exist (`dead_identifiers`: doi.org answers 404 for
the DOI, arXiv has no such id) is a wrong field of a work found by its title, and, with no such work
found, evidence of fabrication: a real work's citation does not invent its identifier. If a source gave no
answer, the work may be there: the verdict is then unverified.

A metadata_error is marked `borderline` when its verdict hinges on what the rules cannot settle alone:
every mismatch is in doubt (a title reworded or another work's, author names written another way, an
unrecognised but similar venue), or the record was taken for the cited work on a near title only. The
verdict stays the rules'; an LLM judge, if configured, adjudicates (agents/judge_llm.py). No-record
verdicts are never borderline.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

from refhound.agents.candidates import (
    AUTHORS_JOINED,
    EventGaps,
    held_venue,
    named_by_anthology_id,
    near_title,
)
from refhound.agents.context import AgentContext, Candidate
from refhound.agents.field_rules import (
    AnthologyAnswer,
    AuthorComparison,
    CoAuthorship,
    Coverage,
    HostEvents,
    KnownName,
    NameLookups,
    TitleText,
    UnheldVolumes,
    borderline_doubts,
    check_arxiv,
    check_authors,
    check_doi,
    check_title,
    check_url,
    check_venue,
    check_year,
    filler_checks,
)
from refhound.agents.severity import a_stranger, grade, overall
from refhound.index.anthology import cited_anthology_id
from refhound.models import Evidence, FieldCheck, FieldStatus, ParsedFields, Record, Severity, Stage, Verdict
from refhound.normalize.identifiers import arxiv_id_from_doi
from refhound.normalize.titles import name_before_colon, title_key
from refhound.normalize.venues import bare_conference_key, names_thesis, parse_venue
from refhound.settings import JudgeSettings

S = FieldStatus


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    fields: list[FieldCheck]
    evidence: list[Evidence]
    reason: str
    # What the rules could not settle when the verdict hinges on it (see the module doc), else None;
    # `doubted` names the mismatched fields in doubt.
    borderline: str | None = None
    doubted: tuple[str, ...] = ()
    # For a metadata_error: major (signals a hallucination) or minor (a human slip); else None.
    severity: Severity | None = None
    # Evidence levels beyond the field checks' own: what the search and the index's coverage proved.
    levels: tuple[str, ...] = ()
    # The record the fields were checked against, when the verdict rests on one (for `refhound fix`).
    record: Record | None = None


@dataclass(frozen=True)
class _Evaluation:
    candidate: Candidate
    fields: list[FieldCheck]
    identity: Identity | None  # how the record was taken for the cited work; None: it was not
    authors: AuthorComparison

    @property
    def same_work(self) -> bool:
        return self.identity is not None

    def count(self, status: FieldStatus) -> int:
        return sum(f.status is status for f in self.fields)

    @property
    def rank(self) -> tuple[int, int, int, int, float]:
        title = self.fields[0].status
        return (
            -self.count(S.MISMATCH),
            -self.count(S.UNCHECKED),
            int(title in (S.MATCH, S.BENIGN)),
            self.count(S.MATCH),
            self.candidate.title_similarity,
        )


def _evidence(candidate: Candidate, note: str = "") -> Evidence:
    record = candidate.record
    return Evidence(
        source=record.source,
        record_id=record.source_id,
        url=record.url,
        score=round(candidate.title_similarity, 3),
        note=note,
    )


def _owner(
    candidates: list[Candidate], via: str, cited_title: str | None, settings: JudgeSettings
) -> Record | None:
    """A record found by the cited identifier whose title says it is a different work: neither near the
    cited title nor with the cited title as its short name ("GIAnT" for "GIAnT: Visualizing …")."""
    for c in candidates:
        if c.via != via or c.title_similarity >= settings.title_candidate_similarity:
            continue
        if not (cited_title and name_before_colon(cited_title, c.record.title)):
            record: Record = c.record
            return record
    return None


def _anthology_answer(
    cited: ParsedFields, candidates: list[Candidate], url_dead: bool, settings: JudgeSettings
) -> AnthologyAnswer | None:
    """What the index says of the ACL Anthology paper the cited address names, if it names one."""
    anthology_id = cited_anthology_id(cited.url)
    if anthology_id is None:
        return None
    # Found by the address, or already by the DOI or the title: any record of the paper it names.
    found = named_by_anthology_id(anthology_id, candidates)
    same = found is not None and (
        not cited.title or found.title_similarity >= settings.title_candidate_similarity
    )
    return AnthologyAnswer(anthology_id, found.record if found else None, same, url_dead)


def _evaluate(
    cited: ParsedFields,
    candidate: Candidate,
    owners: tuple[Record | None, Record | None],
    anthology: AnthologyAnswer | None,
    coverage: Coverage,
    settings: JudgeSettings,
    this_year: int,
    dead_identifiers: Collection[str],
    host_events: HostEvents | None,
    unheld_volumes: UnheldVolumes | None,
) -> _Evaluation:
    record = candidate.record
    title = check_title(cited.title, record)
    authors = check_authors(cited, record)
    venue = check_venue(cited, record, settings, coverage, host_events, unheld_volumes)
    fields = [title, authors.check, venue, check_year(cited, record, this_year, settings)]
    doi_owner, arxiv_owner = owners
    version_cited = venue.level in _OTHER_VERSION
    identifiers = [
        _unless_dead(
            check_doi(cited.doi, record, doi_owner if doi_owner is not record else None, version_cited),
            dead_identifiers,
        ),
        _unless_dead(
            check_arxiv(cited, record, arxiv_owner if arxiv_owner is not record else None),
            dead_identifiers,
        ),
        check_url(anthology),
    ]
    fields.extend(f for f in identifiers if f is not None)
    identifier_agrees = any(f is not None and f.status is S.MATCH for f in identifiers)
    identity = _identity(cited, candidate, fields, authors, identifier_agrees, settings)
    if identity is Identity.ANOTHER_TITLE:
        fields[0] = title.model_copy(
            update={
                "status": S.MISMATCH,
                "level": "title.another_version",
                "severity": Severity.MINOR,
                "note": "another title of the same authors' work, which the "
                + ("cited identifier names" if identifier_agrees else "cited venue and year hold")
                + ": an earlier title (a preprint's) or the title changed",
            }
        )
    return _Evaluation(candidate, fields, identity, authors)


class Identity(Enum):
    """How a record was taken for the cited work. Only `TITLE_ALONE` is a level of its own
    (`identity.title_alone`): the others are seen in the field checks' levels (an identifier's, the authors',
    the venue's and the year's), while a title alone leaves every other field wrong, and the model must learn
    how far such a match is the work with invented fields rather than another work."""

    IDENTIFIER = "identifier"
    AUTHORS = "authors"  # the title and a cited author
    NOBODY_CITED = "nobody_cited"  # the title, and no author to compare
    VENUE_AND_YEAR = "venue_and_year"  # the title at the cited venue and year
    TITLE_ALONE = "title_alone"  # a title specific enough to name one work
    NEAR_TITLE = "near_title"  # a near title with most authors, the year and the venue
    # Another title sharing words with the cited one, every author in order, and the cited identifier or
    # the cited venue and year: the work under another of its titles.
    ANOTHER_TITLE = "another_title"


_TITLE_ALONE = f"identity.{Identity.TITLE_ALONE.value}"


def _identity(
    cited: ParsedFields,
    candidate: Candidate,
    fields: list[FieldCheck],
    authors: AuthorComparison,
    identifier_agrees: bool,
    settings: JudgeSettings,
) -> Identity | None:
    """How the record is the cited work, so that its fields can show the citation's wrong ones; None when
    it is not.

    An identifier that agrees says so, unless the cited title is another. A title alone does not: generic
    titles ("Deep learning", "Introduction") are shared by unrelated works, so a record with the cited title
    but not one cited author is the cited work only when its year and venue are the cited ones too (a real
    title given invented authors), or when the title is long enough to name one work
    (`specific_title_words`: a real title given invented authors and another year); such a short title with
    one cited author of the record beside a stranger is a namesake's as often. The same holds for a
    record that lists no authors when the citation names some: it confirms none of them (a proceedings'
    front matter, "Preface", "Book Reviews", "Advertisements", recurs volume after volume). A citation that
    names no one (an anonymous submission, a book's front matter cited by its editors) is found by its
    title alone where the title names one work, else only at the cited venue and year. A near title (a
    reworded one, or another work's: "Random search for …" against "Algorithms for …" by the same authors;
    or the title without its subtitle) is the work only when most cited authors, the year and the venue
    agree as well. A cited thesis is never a paper of its title or near it (`_thesis_for_a_paper`)."""
    close_title = near_title(cited.title, candidate.record.title, candidate.title_similarity, settings)
    # The work's short name alone is its title where the identifier names it.
    named = close_title or bool(cited.title and name_before_colon(cited.title, candidate.record.title))
    if not cited.title or (identifier_agrees and named):
        # A cited identifier with another title is another work's identifier.
        return Identity.IDENTIFIER if identifier_agrees else None
    if _thesis_for_a_paper(cited, candidate.record):
        return None
    status = {f.field: f.status for f in fields}
    same_year = status["year"] in (S.MATCH, S.MISSING, S.UNCHECKED)
    # "Conference vs journal version" and "cited as a preprint" are benign for the same work, but say
    # nothing about whether it is the same work.
    venue = next(f for f in fields if f.field == "venue")
    same_venue = venue.status in (S.MATCH, S.MISSING, S.UNCHECKED) or (
        venue.status is S.BENIGN and venue.level not in _OTHER_VERSION
    )
    # A work renamed between versions (its preprint's title cited): the whole author list names it, with
    # the identifier, or with the venue and year as cited.
    named_where_cited = status["year"] is S.MATCH and venue.status in (S.MATCH, S.BENIGN) and same_venue
    if (
        status["title"] is S.MISMATCH
        and not close_title
        and (identifier_agrees or named_where_cited)
        and _whole_list(cited, candidate.record, authors)
        and _shared_title_words(cited.title, candidate.record.title) >= _MIN_SHARED_TITLE_WORDS
    ):
        return Identity.ANOTHER_TITLE
    if status["title"] in (S.MATCH, S.BENIGN):
        # A generic title's namesake often shares one author with the cited work (Nenkova and McKeown's
        # "Automatic summarization" monograph, Nenkova, Maskey and Liu's tutorial of that name): one shared
        # name beside a stranger does not make it the work; two, or no stranger, do.
        specific = _names_one_work(cited.title, candidate.record, settings)
        strangers = any(a_stranger(name, candidate.record.authors, settings) for name in authors.unmatched)
        if authors.matched >= 2 or (authors.matched > 0 and (specific or not strangers)):
            return Identity.AUTHORS
        if not authors.cited:
            # Front matter recurs volume after volume ("Preface", "Introduction"): a title too short to name
            # one work names the record's only at its venue and year.
            return Identity.NOBODY_CITED if specific or (same_year and same_venue) else None
        if same_year and same_venue:
            return Identity.VENUE_AND_YEAR
        if status["title"] is S.MATCH and specific:
            return Identity.TITLE_ALONE
        return None
    near = (
        close_title
        and authors.overlap >= settings.author_overlap_same_work
        and same_year
        and venue.status is not S.MISMATCH
        and venue.level != "venue.journal_version"
    )
    return Identity.NEAR_TITLE if near else None


def _thesis_for_a_paper(cited: ParsedFields, record: Record) -> bool:
    """Whether a cited thesis is matched to a paper: a thesis is a work of its own, whose title its author's
    papers often share or come near ("A Statistical Approach to Rule Learning", a PhD thesis of 2008 and a
    paper of 2006; Ruder's thesis and his NAACL tutorial)."""
    return bool(cited.venue and names_thesis(cited.venue)) and not names_thesis(record.venue or "")


# Another title of the work shares this many words of four letters or more with the cited one.
_MIN_SHARED_TITLE_WORDS = 2
# A list naming a work by its authors alone has this many names at least: one person writes many works.
_MIN_AUTHORS_NAMING_A_WORK = 2


def _whole_list(cited: ParsedFields, record: Record, authors: AuthorComparison) -> bool:
    """Whether the cited authors are the record's whole list, each paired, in any order, with no 'et al.',
    the record adding at most `AUTHORS_JOINED` who joined the work at publication, neither its first nor
    its last author: a list without its first or last name is a list cut short (by the parser, too)."""
    ends = {record.authors[0], record.authors[-1]} if record.authors else set()
    return (
        len(cited.authors) >= _MIN_AUTHORS_NAMING_A_WORK
        and not cited.authors_truncated
        and authors.matched == authors.cited == len(cited.authors)
        and len(record.authors) - authors.matched <= AUTHORS_JOINED
        and not ends & set(authors.unused)
    )


def _shared_title_words(cited: str, found: str) -> int:
    """How many words of four letters or more two titles share."""
    ours, theirs = ({w for w in title_key(t).split() if len(w) >= 4} for t in (cited, found))
    return len(ours & theirs)


def _names_one_work(title: str, record: Record, settings: JudgeSettings) -> bool:
    """Whether a title is specific enough to name the record's work whoever the citation names as its
    authors ("Maintaining discrimination and fairness in class incremental learning", not "Deep learning").
    A record without authors confirms no one: front matter and proceedings volumes have none."""
    return bool(record.authors) and len(title_key(title).split()) >= settings.specific_title_words


# Venue levels that name another version of the work (its preprint, its journal article).
_OTHER_VERSION = frozenset({"venue.journal_version", "venue.cited_as_preprint"})


def _unless_dead(check: FieldCheck | None, dead_identifiers: Collection[str]) -> FieldCheck | None:
    """The identifier's check, made a mismatch when its authority says the cited identifier does not exist."""
    if check is None or check.field not in dead_identifiers or check.status is S.MATCH:
        return check
    return check.model_copy(
        update={
            "status": S.MISMATCH,
            "level": f"{check.field}.does_not_exist",
            "severity": Severity.MAJOR,
            "note": _DEAD[check.field],
        }
    )


_DEAD = {
    "doi": "the cited DOI does not exist (doi.org does not resolve it)",
    "arxiv_id": "the cited arXiv id does not exist (arXiv has no such paper)",
}


def judge(
    cited: ParsedFields,
    candidates: list[Candidate],
    coverage: Coverage,
    settings: JudgeSettings,
    this_year: int,
    dead_identifiers: Collection[str] = (),
    unanswered: Collection[str] = (),
    searched_online: bool = False,
    co_authorship: CoAuthorship | None = None,
    known_name: KnownName | None = None,
    title_text: TitleText | None = None,
    host_events: HostEvents | None = None,
    unheld_volumes: UnheldVolumes | None = None,
    event_gaps: EventGaps | None = None,
) -> Judgement:
    """Decide one citation from the candidate records the stages found.

    `dead_identifiers` names the cited identifier fields ("doi", "arxiv_id") that their authority says
    do not exist; `unanswered` the services that gave no answer (whose silence proves nothing);
    `searched_online` says an online stage (scholarly sources, web search) looked for it and every service
    answered; `co_authorship` asks the index who has written with whom (without it, nobody is known to
    have); `known_name` asks it whether a name is any author's (without it, every name is known, and no
    name is taken for a typo for want of one); `title_text` whether a cited "name" is words of titles no
    author bears (without it, none is); `host_events` asks it which events hosted a record's volume
    (without it, none is known); `unheld_volumes` which of a conference's own volumes of a year (its
    Findings) the dump lists and it lacks (without it, none); `event_gaps` which volumes of a conference's
    event of a year it lacks, where absence under the conference's bare name is evidence if none (without
    it, no event is held whole)."""
    if not cited.title and not cited.doi and not cited.arxiv_id:
        only = f" (only a URL, {cited.url}, which only an online run reads)" if cited.url else ""
        return Judgement(
            Verdict.UNVERIFIED,
            [],
            [],
            f"too little metadata to check: no title and no identifier{only}",
            levels=("metadata.too_little",),
        )
    # Records that the cited DOI / arXiv id lead to but whose titles say they are other works.
    owners = (
        _owner(candidates, "doi", cited.title, settings),
        _owner(candidates, "arxiv_id", cited.title, settings),
    )
    # An Anthology address the index finds no paper for is dead by the index's own word (a volume it holds
    # whole), not by a resolver's: it makes a field wrong, never a work fabricated.
    anthology = _anthology_answer(cited, candidates, "url" in dead_identifiers, settings)
    dead = [f for f in ("doi", "arxiv_id") if f in dead_identifiers and getattr(cited, f)]
    evaluations = [
        _evaluate(
            cited, c, owners, anthology, coverage, settings, this_year, dead, host_events, unheld_volumes
        )
        for c in candidates
    ]
    same = [e for e in evaluations if e.same_work]
    if same:
        best = max(same, key=lambda e: e.rank)
        names = NameLookups(co_authorship or _nobody, known_name or _everyone, title_text or _no_title_text)
        return _decide_on_record(cited, best, settings, names)
    if dead:
        return _dead_identifier(cited, dead, unanswered)
    return _decide_without_record(
        cited,
        candidates,
        anthology,
        coverage,
        settings,
        this_year,
        searched_online,
        unheld_volumes,
        event_gaps,
    )


# The stages that search the embedded index (scholar does in an SOP without an index stage; in an SOP with
# one, the index stage has searched it before).
_SEARCH_THE_INDEX = frozenset({Stage.INDEX, Stage.SCHOLAR})


def judge_gathered(
    cited: ParsedFields,
    candidates: list[Candidate],
    stages_ran: Collection[str],
    context: AgentContext,
    dead_identifiers: Collection[str] = (),
    unanswered: Collection[str] = (),
) -> Judgement:
    """`judge` on what the SOP's stages have gathered, with what their absence can prove.

    "Not in the index" proves something only where the index covers the venue completely, and only when
    a stage that searches the index ran: an SOP without it must not borrow its coverage. "Not found
    online" counts only when an online stage ran with its sources set up and every service answered."""
    searched = bool(_SEARCH_THE_INDEX & set(stages_ran))
    coverage = context.store.coverage if searched else _covers_nothing
    online = (Stage.SCHOLAR in stages_ran and context.sources is not None) or (
        Stage.WEB in stages_ran and context.web is not None
    )
    return judge(
        cited,
        candidates,
        coverage,
        context.settings.judge,
        context.this_year,
        dead_identifiers,
        unanswered,
        searched_online=online and not unanswered,
        co_authorship=context.store.co_authorship if searched else None,
        known_name=context.store.knows_name if searched else None,
        title_text=context.store.is_title_text if searched else None,
        host_events=context.store.host_events if searched else None,
        unheld_volumes=context.store.unheld_volumes if searched else None,
        event_gaps=context.store.event_gaps if searched else None,
    )


def _covers_nothing(venue_key: str, year: int) -> list[tuple[str, int]]:
    return []


def _nobody(name: str, others: Sequence[str]) -> str | None:
    return None


def _everyone(name: str) -> bool:
    return True


def _no_title_text(name: str) -> bool:
    return False


_IDENTIFIERS = ("doi", "arxiv_id")  # the fields only a resolver can confirm
_ANSWER_OFFLINE = frozenset(stage for stage in Stage if not stage.waits_on_a_service)


def what_was_not_asked(judgement: Judgement, unanswered: Collection[str], offline: bool) -> str:
    """What the reason adds on missing evidence, as it happened: a stage or service that did not answer;
    offline, an online service the HTTP cache had no answer of, and identifier resolvers not asked."""
    notes = []
    if judgement.verdict is not Verdict.VERIFIED and unanswered:
        local = [name for name in unanswered if name in _ANSWER_OFFLINE or not offline]
        cached = [name for name in unanswered if name not in local]
        if local:
            notes.append(f"no answer from {', '.join(local)}")
        if cached:
            notes.append(f"offline: no cached answer from {', '.join(cached)}")
    unchecked = any(f.field in _IDENTIFIERS and f.status is S.UNCHECKED for f in judgement.fields)
    if offline and judgement.evidence and unchecked:
        notes.append("offline: the identifier resolvers were not asked")
    return f" ({'; '.join(notes)})" if notes else ""


def verdict_of(checks: Sequence[FieldCheck]) -> tuple[Verdict, Severity | None]:
    """The one mapping from the field checks against the cited work's record to a verdict (rules and LLM
    alike): a wrong field is a metadata error, as severe as its worst field; an identifier only its
    resolver can confirm leaves the reference unverified — except a possible arXiv id on a work whose
    every other field agrees: offline nothing can check the id, and calling such a reference unverified
    would hide that the work is right, so it is verified with the id `unchecked`. arXiv's DOI of a preprint
    is such an id too."""
    if any(check.status is S.MISMATCH for check in checks):
        return Verdict.METADATA_ERROR, overall(list(checks))
    if any(check.status is S.UNCHECKED and not _arxiv_id_in_any_form(check) for check in checks):
        return Verdict.UNVERIFIED, None
    return Verdict.VERIFIED, None


def _arxiv_id_in_any_form(check: FieldCheck) -> bool:
    if check.field == "arxiv_id":
        return True
    return check.field == "doi" and check.cited is not None and arxiv_id_from_doi(check.cited) is not None


def _decide_on_record(
    cited: ParsedFields,
    best: _Evaluation,
    settings: JudgeSettings,
    lookups: NameLookups,
) -> Judgement:
    record = best.candidate.record
    evidence = [_evidence(best.candidate)]
    wrong = [f for f in best.fields if f.status is S.MISMATCH]
    unchecked = [f.field for f in best.fields if f.status is S.UNCHECKED]
    where = f"{record.source} record {record.source_id}"
    levels = (_TITLE_ALONE,) if best.identity is Identity.TITLE_ALONE else ()
    if wrong:
        fields = grade(
            cited,
            record,
            best.fields,
            best.authors,
            best.candidate.title_similarity,
            settings,
            lookups,
        )
        verdict, severity = verdict_of(fields)
        names = ", ".join(f.field for f in wrong)
        doubts = borderline_doubts(
            cited, record, best.candidate.title_similarity, best.fields, best.authors, settings
        )
        doubted = tuple(f.field for f in wrong if f.field in doubts)
        hinges = len(doubted) == len(wrong) or "title" in doubted  # a near title: is it this work at all?
        reason = f"wrong {names} per {where}"
        if not hinges:
            return Judgement(
                verdict, fields, evidence, reason, severity=severity, levels=levels, record=record
            )
        borderline = "; ".join(doubts[name] for name in doubted)
        return Judgement(
            verdict,
            fields,
            evidence,
            reason,
            borderline,
            doubted,
            severity=severity,
            levels=levels,
            record=record,
        )
    verdict, _ = verdict_of(best.fields)
    if verdict is Verdict.UNVERIFIED:
        reason = (
            f"matches {where}, but the cited {', '.join(unchecked)} could not be confirmed: "
            "only its resolver (doi.org, arXiv) can"
        )
    elif unchecked:
        ids = " and ".join("arXiv DOI" if name == "doi" else "arXiv id" for name in unchecked)
        reason = (
            f"every cited field agrees with {where}; the cited {ids} could not be checked: only arXiv can"
        )
    else:
        reason = f"every cited field agrees with {where}"
    return Judgement(verdict, best.fields, evidence, reason, levels=levels, record=record)


def _dead_identifier(cited: ParsedFields, dead: list[str], unanswered: Collection[str]) -> Judgement:
    """No source consulted has the work and its cited identifier does not exist: fabricated — unless a
    source gave no answer, which might have held the work (the citation then only has a wrong identifier)."""
    fields = [
        FieldCheck(
            field=f,
            status=S.MISMATCH,
            level=f"{f}.does_not_exist",
            severity=Severity.MAJOR,
            cited=getattr(cited, f),
            note=_DEAD[f],
        )
        for f in dead
    ]
    if cited.title:
        fields.insert(
            0,
            FieldCheck(
                field="title",
                status=S.UNCHECKED,
                level="title.no_record",
                cited=cited.title,
                note="no source consulted has this title",
            ),
        )
    names = " and ".join("DOI" if f == "doi" else "arXiv id" for f in dead)
    if unanswered:
        return Judgement(
            Verdict.UNVERIFIED,
            fields,
            [],
            f"the cited {names} does not exist; whether the work does could not be checked",
            levels=("coverage.some_source_silent",),
        )
    return Judgement(
        Verdict.FABRICATED,
        fields,
        [],
        f"the cited {names} does not exist and no source consulted has this work",
        levels=("coverage.no_source_has_it",),
    )


def _decide_without_record(
    cited: ParsedFields,
    candidates: list[Candidate],
    anthology: AnthologyAnswer | None,
    coverage: Coverage,
    settings: JudgeSettings,
    this_year: int,
    searched_online: bool,
    unheld_volumes: UnheldVolumes | None = None,
    event_gaps: EventGaps | None = None,
) -> Judgement:
    """No record is the cited work. `fabricated` needs proof that the work would have been found: a year
    that has not come (no source holds works of the future), or a venue and year some source holds
    completely while the online sources, asked as well, had it nowhere. A title missing from a complete
    venue proves offline only that the citation is wrong: a real work cited at another venue or year
    looks the same there as an invented one."""
    fields: list[FieldCheck] = []
    evidence: list[Evidence] = []
    for c in candidates:
        if c.via in ("doi", "arxiv_id"):
            record = c.record
            fields.append(
                FieldCheck(
                    field=c.via,
                    status=S.MISMATCH,
                    level=f"{c.via}.another_works",
                    severity=Severity.MAJOR,
                    cited=cited.doi if c.via == "doi" else cited.arxiv_id,
                    found=record.title,
                    note=f"this identifier belongs to another work ({record.source} {record.source_id})",
                )
            )
            evidence.append(_evidence(c, "the cited identifier resolves to this different work"))
    url = check_url(anthology)
    if url is not None:
        fields.append(url)
    if anthology is not None and not anthology.same_work:
        named = named_by_anthology_id(anthology.anthology_id, candidates)
        if named is not None:
            evidence.append(_evidence(named, "the cited address names this different work"))
    if cited.title:
        fields.insert(
            0,
            FieldCheck(
                field="title",
                status=S.UNCHECKED,
                level="title.no_record",
                cited=cited.title,
                note="no indexed record has this title",
            ),
        )
    if cited.arxiv_id and not any(f.field == "arxiv_id" for f in fields):
        impossible = check_arxiv(cited, Record(source="", source_id="", source_version="", title=""), None)
        if impossible is not None and impossible.status is S.MISMATCH:
            fields.append(impossible)
    fillers = [f for f in filler_checks(cited) if not any(g.field == f.field for g in fields)]
    fields.extend(fillers)

    if (
        cited.year is not None
        and cited.year > this_year + settings.max_future_years
        and _reads_as_reference(cited)
    ):
        fields.append(
            FieldCheck(
                field="year",
                status=S.MISMATCH,
                level="year.future",
                severity=Severity.MAJOR,
                cited=str(cited.year),
                note="in the future",
            )
        )
        return Judgement(
            Verdict.FABRICATED,
            fields,
            evidence,
            f"no record has it and its year {cited.year} is in the future",
            levels=("coverage.future_year",),
        )

    venue = parse_venue(cited.venue) if cited.venue else None
    conflict = "; the cited identifier belongs to another work" if evidence else ""
    no_paper = [url] if url is not None and url.level == "url.does_not_exist" else []
    conflict += "".join(f"; {f.note}" for f in [*no_paper, *fillers])
    # Records whose titles the reference string prints, found from the string itself: the parser may have
    # misread the reference, so the work may be among them.
    printed = [c for c in candidates if c.via == "raw"]
    # A record with the cited title under another venue or year that is not the cited work by the rules.
    elsewhere = ("coverage.title_elsewhere",) if _title_elsewhere(cited, candidates, settings) else ()
    # The cited conference's own volumes of that year the index lacks (its Findings, "2023.findings-emnlp").
    unheld = (
        unheld_volumes(venue.key, cited.year)
        if unheld_volumes and venue is not None and venue.key and cited.year
        else ()
    )
    if venue is not None and venue.key is not None and cited.year is not None and cited.title:
        # Absence from the index proves something only where it holds every volume the cited string can
        # mean (a Findings paper cited by its conference's name is a slip); the online sources, asked as
        # well, hold the companion and workshop volumes it may lack.
        held = held_venue(cited, event_gaps)
        means_one = held is not None and held.key == venue.key and not unheld
        complete = coverage(venue.key, cited.year) if means_one or searched_online else []
        where = f"{venue.key.upper()} {cited.year}"
        sources = ", ".join(f"{source} ({n} records)" for source, n in complete)
        if held is not None and held.whole_event and complete:
            where = f"any volume of {where} (cited as {cited.venue!r}, the conference's name alone)"
            sources += ", and every volume the dump lists with it"
        if complete and printed:
            return Judgement(
                Verdict.UNVERIFIED,
                fields,
                [_evidence(c, "its title is printed in the reference string") for c in printed],
                f"no source has the parsed title, but the reference string prints the title of "
                f"{printed[0].record.source} record {printed[0].record.source_id}: the string may be "
                f"misread{conflict}",
                levels=("coverage.printed_title", *elsewhere),
            )
        if complete and elsewhere:
            return Judgement(
                Verdict.UNVERIFIED,
                fields,
                evidence,
                f"no record of {where} has this title, though the index holds that venue and year "
                f"completely ({sources}); a record elsewhere has a title like it: a real work cited at "
                f"another venue or year, or with other authors, or an invented one borrowing it{conflict}",
                levels=elsewhere,
            )
        if complete and not searched_online:
            return Judgement(
                Verdict.UNVERIFIED,
                fields,
                evidence,
                f"no record of {where} has this title, though the index holds that venue and year "
                f"completely ({sources}): the citation is wrong, but whether the work is invented or a real "
                f"one cited at another venue or year, only the online sources can tell{conflict}",
                levels=("coverage.absent_from_complete",),
            )
        if complete:
            return Judgement(
                Verdict.FABRICATED,
                fields,
                evidence,
                f"no record of {where} has this title, though the index holds that venue and year "
                f"completely ({sources}), and no online source has it",
                levels=("coverage.absent_from_complete", "coverage.absent_online"),
            )
    if not cited.title:
        cited_ids = " and ".join(
            f"{label} {value}" for label, value in (("DOI", cited.doi), ("arXiv id", cited.arxiv_id)) if value
        )
        reason = (
            f"no title to search by, and no indexed record carries the cited {cited_ids}: only its resolver "
            "(doi.org, arXiv) can tell whose it is"
        )
    elif venue and cited.year and venue.key and coverage(venue.key, cited.year):
        gaps = (
            event_gaps(venue.key, cited.year)
            if event_gaps is not None and bare_conference_key(cited.venue or "") == venue.key
            else None
        )
        lacking = (
            f"it lacks {', '.join(unheld)}, held with it, which a citation by the conference's name may mean"
            if unheld
            else f"it lacks {_listed(gaps)}, listed with the event, which {cited.venue!r}, the conference's "
            "name alone, may mean"
            if gaps
            else f"the cited {cited.venue!r} can name a volume it may not hold (companion, Findings, "
            "workshops; a journal's later issues), or the title is a volume's"
        )
        reason = (
            f"not found in the index; it holds {venue.key.upper()} {cited.year} completely, but {lacking}"
        )
    elif venue and cited.year:
        # A series by its key's acronym ("NEURIPS 2023"); a venue of no known series by its name as cited.
        scope = f"{venue.key.upper() if venue.key else repr(venue.name)} {cited.year}"
        reason = f"not found in the index, which does not cover {scope} completely"
    else:
        reason = "not found in the index; with no venue and year cited, nothing says the index would hold it"
    online = ("coverage.absent_online",) if searched_online and cited.title else ()
    return Judgement(Verdict.UNVERIFIED, fields, evidence, reason + conflict, levels=(*online, *elsewhere))


def _listed(volumes: Sequence[str], most: int = 3) -> str:
    more = f" and {len(volumes) - most} more" if len(volumes) > most else ""
    return ", ".join(volumes[:most]) + more


def _reads_as_reference(cited: ParsedFields) -> bool:
    """Authors and a title of two words at least: a string whose "year" can prove it invented. Without them
    the year may be any number the parser met (a room, a postcode), and proves nothing."""
    return bool(cited.authors) and len((cited.title or "").split()) >= 2


def _title_elsewhere(cited: ParsedFields, candidates: list[Candidate], settings: JudgeSettings) -> bool:
    """Whether a record found by its title (not by a cited identifier) has a title close to the cited one,
    or the cited one as its main title ("SelfCheckGPT" for "SelfCheckGPT: Zero-Resource …"), though the
    rules did not take it for the cited work: the title exists under other authors, venue or year."""
    key = title_key(cited.title or "")

    def like(c: Candidate) -> bool:
        near = near_title(cited.title, c.record.title, c.title_similarity, settings)
        return near or key == title_key(c.record.title.split(":", 1)[0])

    return bool(key) and any(c.via not in ("doi", "arxiv_id", "anthology_id") and like(c) for c in candidates)
