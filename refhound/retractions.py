"""Retraction marks: how each source's wording maps to a `RetractionKind`, and which mark a work shows.

Three sources state them, each in its own words:

- Crossref, in its REST API's work objects (`update-to` on a notice, `updated-by` on the work it updates):
  the update `type` of Crossmark's vocabulary (`retraction`, `partial_retraction`, `withdrawal`,
  `removal`, `expression_of_concern`; `correction`, `erratum`, … are not marks) and the `source` that
  asserts it (`publisher`, or `retraction-watch` for Retraction Watch's data folded in by Crossref).
- Retraction Watch's CSV, by `RetractionNature`: "Retraction", "Expression of concern", "Correction",
  "Reinstatement" (a reinstatement after a retraction lifts it).
- arXiv, in a listing's comments ("This paper has been withdrawn by the author"); arXiv issues no notice
  DOI.

A work with several notices shows the most serious one that no later reinstatement lifted.
"""

from __future__ import annotations

import email.utils
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from refhound.models import ReferenceResult, Retraction, RetractionKind

K = RetractionKind
# Crossmark update types (Crossref's schema, `update` element) that mark a work, and their kind.
_CROSSREF_TYPES = {
    "retraction": K.RETRACTED,
    "partial_retraction": K.PARTIALLY_RETRACTED,
    "withdrawal": K.WITHDRAWN,
    "removal": K.REMOVED,
    "expression_of_concern": K.EXPRESSION_OF_CONCERN,
}
# Retraction Watch's `RetractionNature` values that mark a work.
_NATURES = {
    "retraction": K.RETRACTED,
    "expression of concern": K.EXPRESSION_OF_CONCERN,
}
REINSTATEMENT = "reinstatement"
# Most serious first: the one a work shows when several notices apply.
_SERIOUSNESS = [K.RETRACTED, K.PARTIALLY_RETRACTED, K.WITHDRAWN, K.REMOVED, K.EXPRESSION_OF_CONCERN]

# arXiv's withdrawal comments: "This paper has been withdrawn by the author(s)", "Withdrawn by arXiv
# administrators", "paper withdrawn", or a comment that is the single word. A comment that only mentions
# the word ("supersedes the withdrawn v1") is not a withdrawal.
_WITHDRAWN_COMMENT = re.compile(
    r"(?:has\s+been|was|is|been)\s+withdrawn"
    r"|\bwithdrawn\s+(?:by|due|because|as|from|for)\b"
    r"|\b(?:paper|article|submission|manuscript|preprint)\s+withdrawn\b"
    r"|^\W*withdrawn\W*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Notice:
    """A mark on the work with this DOI or arXiv id (`key_kind` "doi" or "arxiv"), as the index keeps it.
    `reinstated` records a reinstatement (Retraction Watch): it lifts the marks dated before it."""

    key_kind: str
    key: str
    retraction: Retraction | None = None
    reinstated: str | None = None  # the reinstatement's date


def crossref_kind(update_type: object) -> RetractionKind | None:
    """The kind of a Crossmark update type; None for updates that leave the work standing."""
    return _CROSSREF_TYPES.get(str(update_type or "").strip().lower().replace("-", "_").replace(" ", "_"))


def crossref_source(asserted_by: object) -> str:
    """Crossref's `source` of an update: Retraction Watch's data, or the publisher's own deposit."""
    return "retraction-watch" if str(asserted_by or "").strip().lower() == "retraction-watch" else "crossref"


def nature_kind(nature: str) -> RetractionKind | None:
    return _NATURES.get(nature.strip().lower())


def is_withdrawal_comment(comment: str | None) -> bool:
    """Whether an arXiv listing's comment says the preprint was withdrawn."""
    return bool(comment) and _WITHDRAWN_COMMENT.search(" ".join((comment or "").split())) is not None


def arxiv_withdrawal(comment: str | None, version_date: object) -> Retraction | None:
    """An arXiv withdrawal as a listing's comment states it, dated by the version that withdrew the
    preprint (the last: the OAI snapshot's "Wed, 5 Mar 2008 04:28:27 GMT", the API's ISO `updated`).
    arXiv issues no notice DOI."""
    if not is_withdrawal_comment(comment):
        return None
    return Retraction(kind=RetractionKind.WITHDRAWN, date=_version_date(version_date), source="arxiv")


def _version_date(text: object) -> str | None:
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return email.utils.parsedate_to_datetime(text).date().isoformat()
    except (TypeError, ValueError):
        return iso_date(text)


def iso_date(value: str | None) -> str | None:
    """A date as ISO: from ISO already, or Retraction Watch's "M/D/YYYY H:MM"; None when unreadable."""
    text = (value or "").strip()
    if not text:
        return None
    if re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", text[:10]) and (len(text) in (4, 7) or len(text) >= 10):
        return text[:10] if len(text) >= 10 else text
    for pattern in ("%m/%d/%Y %H:%M", "%m/%d/%Y"):
        try:
            return datetime.strptime(text, pattern).date().isoformat()
        except ValueError:
            continue
    return None


def date_of_parts(parts: object) -> str | None:
    """Crossref's `{"date-parts": [[2019, 7, 26]]}` as "2019-07-26" (as many parts as given)."""
    dates = parts.get("date-parts") if isinstance(parts, dict) else None
    first = dates[0] if isinstance(dates, list) and dates and isinstance(dates[0], list) else []
    numbers = [n for n in first if isinstance(n, int) and not isinstance(n, bool)]
    if not numbers:
        return None
    return "-".join([f"{numbers[0]:04d}", *(f"{n:02d}" for n in numbers[1:3])])


def most_serious(notices: Iterable[Notice | Retraction | None]) -> Retraction | None:
    """The mark a work shows: the most serious, earliest-dated of its marks not lifted by a later
    reinstatement; None when it has none."""
    marks: list[Retraction] = []
    reinstated: list[str] = []
    for notice in notices:
        if isinstance(notice, Retraction):
            marks.append(notice)
        elif isinstance(notice, Notice):
            if notice.retraction is not None:
                marks.append(notice.retraction)
            if notice.reinstated is not None:
                reinstated.append(notice.reinstated)
    if reinstated:
        last = max(reinstated)
        # A mark dated after the last reinstatement stands; one without a date cannot be placed: it stands.
        marks = [m for m in marks if m.date is None or m.date > last]
    if not marks:
        return None
    return min(marks, key=lambda m: (_SERIOUSNESS.index(m.kind), m.date or "9999", m.source))


def fails_on_retracted(results: Iterable[ReferenceResult], fail_on_retracted: bool) -> bool:
    """Whether `--fail-on-retracted` makes the exit code 1: asked for, and some cited work is marked."""
    return fail_on_retracted and any(result.retraction is not None for result in results)
