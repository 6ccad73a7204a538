"""One-line descriptions of report parts, shared by every renderer so they all say the same thing."""

from __future__ import annotations

from urllib.parse import urlsplit

from refhound.likelihood.levels import describe
from refhound.likelihood.model import PRIOR
from refhound.models import (
    Evidence,
    FieldCheck,
    FieldStatus,
    InputProblem,
    ReferenceResult,
    Report,
    Retraction,
    RetractionKind,
    Summary,
    Verdict,
)

ABSENT = "—"


def squash(text: str) -> str:
    """Collapse runs of whitespace (newlines included) to single spaces."""
    return " ".join(text.split())


def display_title(result: ReferenceResult) -> str:
    """The cited title on one line, or the raw reference when no title was parsed."""
    return squash(result.parsed.title or result.raw)


def deciding_evidence(result: ReferenceResult) -> Evidence | None:
    """The record the verdict rests on (the first evidence); `found` values come from it."""
    return result.evidence[0] if result.evidence else None


def verdict_text(result: ReferenceResult) -> str:
    """The verdict, with the severity of a metadata error: 'metadata_error (minor)'."""
    return f"{result.verdict.value} ({result.severity.value})" if result.severity else result.verdict.value


RETRACTION_LABELS = {
    RetractionKind.RETRACTED: "RETRACTED",
    RetractionKind.PARTIALLY_RETRACTED: "PARTIALLY RETRACTED",
    RetractionKind.WITHDRAWN: "WITHDRAWN",
    RetractionKind.REMOVED: "REMOVED",
    RetractionKind.EXPRESSION_OF_CONCERN: "EXPRESSION OF CONCERN",
}


def retraction_label(retraction: Retraction) -> str:
    """The mark in capitals: 'RETRACTED', 'EXPRESSION OF CONCERN'."""
    return RETRACTION_LABELS[retraction.kind]


def retraction_text(result: ReferenceResult) -> str | None:
    """The cited work's mark in one line: 'RETRACTED (notice 10.1155/2023/9753475, 2023-09-27,
    retraction-watch)'. It is about the work, not the citation: the verdict says whether the citation is
    right. None without a mark."""
    mark = result.retraction
    if mark is None:
        return None
    parts = [f"notice {mark.notice_doi}" if mark.notice_doi else "", mark.date or "", mark.source]
    return f"{retraction_label(mark)} ({', '.join(p for p in parts if p)})"


def notice_url(retraction: Retraction) -> str | None:
    """The notice's doi.org link, when it has a DOI."""
    return f"https://doi.org/{retraction.notice_doi}" if retraction.notice_doi else None


def strongest_reason(result: ReferenceResult) -> str | None:
    """The likelihood's strongest term in words ("every author right but another given name …"), or None
    when nothing but the prior speaks."""
    terms = [t for t in result.contributions if t.level != PRIOR]
    return describe(terms[0].level) if terms else None


def hallucinated_text(result: ReferenceResult) -> str | None:
    """'yes' or 'no', or None when the verdict leaves it unknown."""
    return None if result.hallucinated is None else ("yes" if result.hallucinated else "no")


def describe_check(check: FieldCheck, source: str | None = None) -> str:
    """A field check in one line. A wrong field reads as a correction, its severity and the reason last:
    'year: 2019 → 2020 (dblp) (minor: preprint and published version differ by one year)'; any other
    check names its status: 'venue [benign]: NAACL → NAACL-HLT (dblp); same venue, abbreviated'."""
    correction = None
    if check.cited is not None or check.found is not None:
        found = ABSENT if check.found is None else check.found + (f" ({source})" if source else "")
        correction = f"{ABSENT if check.cited is None else check.cited} → {found}"
    if check.status is FieldStatus.MISMATCH and check.severity is not None:
        why = f"({check.severity.value}: {check.note})" if check.note else f"({check.severity.value})"
        return squash(f"{check.field}: {correction} {why}" if correction else f"{check.field}: {why}")
    head = check.field if check.status is FieldStatus.MISMATCH else f"{check.field} [{check.status.value}]"
    parts = [part for part in (correction, check.note) if part]
    return squash(f"{head}: {'; '.join(parts)}" if parts else head)


def check_lines(result: ReferenceResult) -> list[str]:
    """One line per finding: every field check except plain matches and fields the citation leaves out."""
    evidence = deciding_evidence(result)
    source = evidence.source if evidence else None
    quiet = (FieldStatus.MATCH, FieldStatus.MISSING)
    return [describe_check(check, source) for check in result.fields if check.status not in quiet]


def evidence_label(evidence: Evidence) -> str:
    """'source record_id', e.g. 'dblp conf/nips/VaswaniSPUJGKP17'."""
    return f"{evidence.source} {evidence.record_id}"


def evidence_tail(evidence: Evidence) -> str:
    """What follows an evidence's label and URL: its score and note."""
    parts = [] if evidence.score is None else [f"score={evidence.score:.2f}"]
    if evidence.note:
        parts.append(squash(evidence.note))
    return " ".join(parts)


def safe_url(url: str | None) -> str | None:
    """The URL, stripped, if it is http(s) and so safe to link to; else None."""
    url = (url or "").strip()
    return url if urlsplit(url).scheme.lower() in ("http", "https") else None


def summary_counts(summary: Summary) -> list[tuple[Verdict, int]]:
    """Each verdict with its count, in verdict order."""
    return [(verdict, getattr(summary, verdict.value)) for verdict in Verdict]


def _error_split(summary: Summary, verdict: Verdict) -> str:
    """' (1 major, 2 minor)' after the metadata_error count, else '': only major errors are
    hallucinations, so one number would mislead."""
    if verdict is not Verdict.METADATA_ERROR or not summary.metadata_error:
        return ""
    return f" ({summary.major} major, {summary.minor} minor)"


def count_text(summary: Summary, verdict: Verdict) -> str:
    """A verdict's count for a summary table: '3 (1 major, 2 minor)' for metadata errors, else '3'."""
    return f"{getattr(summary, verdict.value)}{_error_split(summary, verdict)}"


def summary_line(summary: Summary) -> str:
    """E.g. '4 references: 1 verified, 2 metadata_error (1 major, 1 minor), 0 fabricated, 1 unverified'."""
    counts = ", ".join(
        f"{count} {verdict.value}{_error_split(summary, verdict)}"
        for verdict, count in summary_counts(summary)
    )
    noun = "reference" if summary.total == 1 else "references"
    works = "work" if summary.retracted == 1 else "works"
    marks = (
        f"; {summary.retracted} cited {works} retracted, withdrawn or under concern"
        if summary.retracted
        else ""
    )
    return f"{summary.total} {noun}: {counts}{marks}"


def describe_problem(problem: InputProblem) -> str:
    """'file:location: message', or 'file: message' without a location."""
    where = f"{problem.input}:{problem.location}" if problem.location else problem.input
    return f"{where}: {squash(problem.message)}"


def cited_at_text(result: ReferenceResult, most: int = 6) -> str | None:
    """'cited at paper.tex:35, intro.tex:2' for a LaTeX project's entry, else None."""
    if not result.cited_at:
        return None
    more = len(result.cited_at) - most
    return "cited at " + ", ".join(result.cited_at[:most]) + (f" and {more} more" if more > 0 else "")


def key_lines(report: Report) -> list[str]:
    """A LaTeX project's citation keys with no entry (and where) and its uncited entries, one line each."""
    lines = [
        f"missing: {item.key} (cited at {', '.join(item.cited_at) or 'unknown'}) has no bibliography entry"
        for item in report.missing
    ]
    if report.uncited:
        lines.append(f"uncited (not checked): {', '.join(report.uncited)}")
    return lines


def input_problems(report: Report) -> list[InputProblem]:
    """The input problems other than citation keys (those are listed by `key_lines`)."""
    return [problem for problem in report.problems if problem.kind is None]
