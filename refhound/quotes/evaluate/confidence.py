"""Confidence per statement and per document: a base of 1.0, lowered by the evaluators' verdicts, then by
the share of quotes that could not be located, on AuditForge's schedule.

Evaluator factors (multiplied; a check that did not run lowers nothing, and the notes say it did not run —
so a confidence is only as strong as the checks listed beside it):

| evaluator  | verdict        | factor |
|------------|----------------|--------|
| entailment | entailed       | 1.0    |
| entailment | neutral        | 0.6    |
| entailment | contradicted   | 0.2    |
| relevance  | not_relevant   | 0.4    |
| factcheck  | not_supported  | 0.5    |

The quote penalty (AuditForge), by the share of quotes not located — `not_found`, `citation_unresolved`,
`uncited`, or a match with alterations (a changed number, date, negation, modal verb or name: those words
are not in the source):

- 0%: no change;
- under 50%: × max(0.7, 1 − share × 0.4);
- 50% or more: × 0.5, with a note.

As written, the middle step never falls below 0.8 (share < 0.5 gives 1 − share × 0.4 > 0.8), so its 0.7
floor is never reached before the jump to 0.5; it is implemented as written. A statement has one quote, so
its share is 0 or 1; a document's base is the mean of its statements' evaluator-lowered bases, and its share
is over all its quotes. Findings are flagged, never dropped.

Without `--evaluate` every quote and the document still get a confidence (`located_confidence`), from where
the quotes were found alone: the base stays 1.0, since a check that did not run lowers nothing and raises
nothing, the quote penalty applies as above, `confidence_basis` is `["quote_location"]`, and the notes name
the evaluators that did not run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from refhound.quotes.evaluate.rubrics import EVALUATORS
from refhound.quotes.report import QuoteReport

FACTORS: dict[str, dict[str, float]] = {
    "entailment": {"entailed": 1.0, "neutral": 0.6, "contradicted": 0.2},
    "relevance": {"relevant": 1.0, "not_relevant": 0.4},
    "factcheck": {"supported": 1.0, "not_supported": 0.5},
}
UNLOCATED_STATUSES = frozenset({"not_found", "citation_unresolved", "uncited"})
NOT_ASKED = f"{', '.join(EVALUATORS)} did not run: not asked (--evaluate)"


def quote_factor(share: float) -> tuple[float, str | None]:
    """AuditForge's multiplier for a share (0..1) of unlocated quotes, and the auditor note, if any."""
    if share <= 0:
        return 1.0, None
    if share < 0.5:
        return max(0.7, 1 - share * 0.4), None
    return 0.5, f"{share:.0%} of the quotes could not be located in their sources"


def is_located(status: str, alterations: Sequence[str]) -> bool:
    return status not in UNLOCATED_STATUSES and not alterations


def evaluator_base(evaluations: Mapping[str, Mapping[str, object]]) -> tuple[float, list[str]]:
    """1.0 lowered by each verdict's factor; notes for the checks that lowered it or did not run."""
    value, notes = 1.0, []
    for name, result in evaluations.items():
        verdict = str(result.get("verdict"))
        if verdict == "not_run":
            notes.append(f"{name} did not run: {result.get('reason') or 'no reason given'}")
            continue
        factor = FACTORS.get(name, {}).get(verdict, 1.0)
        if factor < 1.0:
            value *= factor
            notes.append(f"{name}: {verdict} (× {factor:g})")
    return value, notes


def statement_confidence(
    evaluations: Mapping[str, Mapping[str, object]], status: str, alterations: Sequence[str]
) -> tuple[float, float, list[str]]:
    """(confidence, evaluator-only base, notes) of one statement and its one quote."""
    base, notes = evaluator_base(evaluations)
    factor, note = quote_factor(0.0 if is_located(status, alterations) else 1.0)
    if note:
        notes.append("the quote could not be located in its source" + (" as quoted" if alterations else ""))
    return round(base * factor, 4), base, notes


def document_confidence(bases: Sequence[float], located: Sequence[bool]) -> tuple[float | None, list[str]]:
    """The mean evaluator base of the statements, times the quote penalty over all quotes."""
    if not bases:
        return None, ["no quote to judge"]
    share = located.count(False) / len(located) if located else 0.0
    factor, note = quote_factor(share)
    return round(sum(bases) / len(bases) * factor, 4), [note] if note else []


def located_confidence(report: QuoteReport) -> None:
    """Each quote's and the document's confidence when no evaluator ran: the quote penalty on a base of 1.0,
    with a note that the evaluators did not run (the number rests on the quotes' location only)."""
    for result in report.results:
        confidence, base, notes = statement_confidence({}, result.status, result.alterations)
        result.confidence, result.confidence_base = confidence, base
        result.confidence_notes, result.confidence_basis = [NOT_ASKED, *notes], ["quote_location"]
    located = [is_located(r.status, r.alterations) for r in report.results]
    report.confidence, notes = document_confidence([1.0] * len(located), located)
    report.confidence_notes = [NOT_ASKED, *notes]
