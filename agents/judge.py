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

from collections.abc import Collection
from dataclasses import dataclass

from refhound.agents.field_rules import (
    AuthorComparison,
    Coverage,
    borderline_doubts,
    check_arxiv,
    check_authors,
    check_doi,
    check_title,
    check_venue,
    check_year,
)
from refhound.agents.index_search import Candidate

from refhound.models import Evidence, FieldCheck, FieldStatus, ParsedFields, Record, Verdict
from refhound.normalize.venues import parse_venue
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


@dataclass(frozen=True)
class _Evaluation:
    candidate: Candidate
    fields: list[FieldCheck]
    same_work: bool
    authors: AuthorComparison

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


def _owner(candidates: list[Candidate], via: str, settings: JudgeSettings) -> Record | None:
    """A record found by the cited identifier whose title says it is a different work."""
    for c in candidates:
        if c.via == via and c.title_similarity < settings.title_candidate_similarity:
            record: Record = c.record
            return record
    return None


def _evaluate(
    cited: ParsedFields,
    candidate: Candidate,
    owners: tuple[Record | None, Record | None],
    coverage: Coverage,
    settings: JudgeSettings,
    this_year: int,
    dead_identifiers: Collection[str],
) -> _Evaluation:
    record = candidate.record
    title = check_title(cited.title, record)
    authors = check_authors(cited, record)
    fields = [
        title,
        authors.check,
        check_venue(cited, record, settings, coverage),
        check_year(cited, record, this_year, settings),
    ]
    doi_owner, arxiv_owner = owners
    identifiers = [
        _unless_dead(
            check_doi(cited.doi, record, doi_owner if doi_owner is not record else None), dead_identifiers
        ),
        _unless_dead(
            check_arxiv(cited.arxiv_id, record, arxiv_owner if arxiv_owner is not record else None),
            dead_identifiers,
        ),
    ]
    fields.extend(f for f in identifiers if f is not None)
    identifier_agrees = any(f is not None and f.status is S.MATCH for f in identifiers)
    close_title = candidate.title_similarity >= settings.title_candidate_similarity
    same_work = (
        title.status in (S.MATCH, S.BENIGN)
        or (close_title and (authors.overlap >= settings.author_overlap_same_work or identifier_agrees))
        or (not cited.title and identifier_agrees)
    )
    return _Evaluation(candidate, fields, same_work, authors)


def _unless_dead(check: FieldCheck | None, dead_identifiers: Collection[str]) -> FieldCheck | None:
    """The identifier's check, made a mismatch when its authority says the cited identifier does not exist."""
    if check is None or check.field not in dead_identifiers or check.status is S.MATCH:
        return check
    return check.model_copy(update={"status": S.MISMATCH, "note": _DEAD[check.field]})


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
) -> Judgement:
    """Decide one citation from the candidate records the stages found.

    `dead_identifiers` names the cited identifier fields ("doi", "arxiv_id") that their authority says
    do not exist; `unanswered` the services that gave no answer (whose silence proves nothing);
    `searched_online` says an online stage (scholarly sources, web search) looked for it and every service
    answered."""
    if not cited.title and not cited.doi and not cited.arxiv_id:
        return Judgement(
            Verdict.UNVERIFIED, [], [], "too little metadata to check: no title and no identifier"
        )
    # Records that the cited DOI / arXiv id lead to but whose titles say they are other works.
    owners = (_owner(candidates, "doi", settings), _owner(candidates, "arxiv_id", settings))
    dead = [f for f in ("doi", "arxiv_id") if f in dead_identifiers and getattr(cited, f)]
    evaluations = [_evaluate(cited, c, owners, coverage, settings, this_year, dead) for c in candidates]
    same = [e for e in evaluations if e.same_work]
    if same:
        return _decide_on_record(cited, max(same, key=lambda e: e.rank), settings)
    if dead:
        return _dead_identifier(cited, dead, unanswered)
    return _decide_without_record(cited, candidates, coverage, settings, this_year, searched_online)


def _decide_on_record(cited: ParsedFields, best: _Evaluation, settings: JudgeSettings) -> Judgement:
    record = best.candidate.record
    evidence = [_evidence(best.candidate)]
    wrong = [f for f in best.fields if f.status is S.MISMATCH]
    unchecked = [f for f in best.fields if f.status is S.UNCHECKED]
    where = f"{record.source} record {record.source_id}"
    if wrong:
        names = ", ".join(f.field for f in wrong)
        doubts = borderline_doubts(
            cited, record, best.candidate.title_similarity, best.fields, best.authors, settings
        )
        doubted = tuple(f.field for f in wrong if f.field in doubts)
        hinges = len(doubted) == len(wrong) or "title" in doubted  # a near title: is it this work at all?
        reason = f"wrong {names} per {where}"
        if not hinges:
            return Judgement(Verdict.METADATA_ERROR, best.fields, evidence, reason)
        borderline = "; ".join(doubts[name] for name in doubted)
        return Judgement(Verdict.METADATA_ERROR, best.fields, evidence, reason, borderline, doubted)
    if unchecked:
        names = ", ".join(f.field for f in unchecked)
        return Judgement(
            Verdict.UNVERIFIED,
            best.fields,
            evidence,
            f"matches {where}, but the cited {names} could not be confirmed offline",
        )
    return Judgement(Verdict.VERIFIED, best.fields, evidence, f"every cited field agrees with {where}")


def _dead_identifier(cited: ParsedFields, dead: list[str], unanswered: Collection[str]) -> Judgement:
    """No source consulted has the work and its cited identifier does not exist: fabricated — unless a
    source gave no answer, which might have held the work (the citation then only has a wrong identifier)."""
    fields = [FieldCheck(field=f, status=S.MISMATCH, cited=getattr(cited, f), note=_DEAD[f]) for f in dead]
    if cited.title:
        fields.insert(
            0,
            FieldCheck(
                field="title",
                status=S.UNCHECKED,
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
        )
    return Judgement(
        Verdict.FABRICATED,
        fields,
        [],
        f"the cited {names} does not exist and no source consulted has this work",
    )


def _decide_without_record(
    cited: ParsedFields,
    candidates: list[Candidate],
    coverage: Coverage,
    settings: JudgeSettings,
    this_year: int,
    searched_online: bool,
) -> Judgement:
    fields: list[FieldCheck] = []
    evidence: list[Evidence] = []
    for c in candidates:
        if c.via in ("doi", "arxiv_id"):
            record = c.record
            fields.append(
                FieldCheck(
                    field=c.via,
                    status=S.MISMATCH,
                    cited=cited.doi if c.via == "doi" else cited.arxiv_id,
                    found=record.title,
                    note=f"this identifier belongs to another work ({record.source} {record.source_id})",
                )
            )
            evidence.append(_evidence(c, "the cited identifier resolves to this different work"))
    if cited.title:
        fields.insert(
            0,
            FieldCheck(
                field="title", status=S.UNCHECKED, cited=cited.title, note="no indexed record has this title"
            ),
        )

    if cited.year is not None and cited.year > this_year + settings.max_future_years:
        fields.append(
            FieldCheck(field="year", status=S.MISMATCH, cited=str(cited.year), note="in the future")
        )
        return Judgement(
            Verdict.FABRICATED,
            fields,
            evidence,
            f"no record has it and its year {cited.year} is in the future",
        )

    venue = parse_venue(cited.venue) if cited.venue else None
    conflict = "; the cited identifier belongs to another work" if evidence else ""
    if venue is not None and venue.key is not None and cited.year is not None and cited.title:
        complete = coverage(venue.key, cited.year)
        where = f"{venue.key.upper()} {cited.year}"
        sources = ", ".join(f"{source} ({n} records)" for source, n in complete)
        # Offline, the index's proceedings are all the evidence: not enough where the citation could
        # mean a satellite volume. The online sources, which hold those too, answered "none" otherwise.
        if complete and venue.acronym_only and not searched_online:
            return Judgement(
                Verdict.UNVERIFIED,
                fields,
                evidence,
                f"no record of {where} has this title ({sources}), but the citation names the venue by its "
                f"acronym alone, as papers of its companion volume and co-located workshops are cited too, "
                f"which the index does not hold{conflict}",
            )
        if complete:
            return Judgement(
                Verdict.FABRICATED,
                fields,
                evidence,
                f"no record of {where} has this title, and the index holds that venue and year completely: "
                f"{sources}",
            )
    scope = (
        f"{(venue.key or venue.name).upper()} {cited.year}"
        if venue and cited.year
        else "the cited venue and year"
    )
    return Judgement(
        Verdict.UNVERIFIED,
        fields,
        evidence,
        f"not found in the index, which does not cover {scope} completely{conflict}",
    )
