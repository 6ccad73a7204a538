"""What `refhound fix` changes in one entry, decided from its verdict and the record it rests on.

Only a certain record is copied from: a `verified` or `metadata_error` verdict that kept its record, with a
likelihood of invention below the threshold. A flagged, `fabricated` or `unverified` entry gets a comment and
no change: rewriting an invented citation into the real work it resembles would launder it. What is
changed is what the field checks found wrong (with the record's value), and a cited preprint whose record
is its published version (its type, venue, year and DOI); fields refhound did not check, or that were left
out, are kept as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from refhound.models import FieldStatus, Record, ReferenceResult, Verdict
from refhound.refstring import ARXIV_VENUE, is_arxiv_venue

_DBLP_SUFFIX = re.compile(r"\s+\d{4}$")  # dblp's homonym numbers: "Chenglong Li 0002"
_PREPRINT_TYPES = {"preprint", "posted-content", "misc", "unpublished", "online"}
_JOURNAL_TYPES = {"article", "journal-article", "journal", "periodical"}


# Levels that say the citation describes another version of the work than the record (its journal
# version, a later or earlier author list): right for that version, so not "corrected" into a mix of two.
OTHER_VERSION = frozenset(
    {
        "venue.journal_version",
        "year.journal_version",
        "year.one_after_version",
        "venue.workshop_vs_conference",
        "venue.conference_for_workshop_paper",
        "year.conference_version",
        "authors.coauthor_added",
        "authors.left_out",
    }
)


@dataclass(frozen=True)
class Change:
    """One field set (or added) to the record's value; `old` is None for an added field."""

    key: str
    field: str  # the BibTeX field name, lower case
    old: str | None
    new: str
    why: str
    replaces: str | None = None  # the field this one takes the place of (a preprint's "journal = {arXiv}")


@dataclass
class EntryPlan:
    key: str
    changes: list[Change] = field(default_factory=list)
    new_type: str | None = None  # the entry type the published version takes
    drop: list[str] = field(default_factory=list)  # fields that named the preprint server as the venue
    comment: str | None = None  # why the entry was left as it is, written above it
    kept: list[str] = field(default_factory=list)  # wrong-looking fields that are another version's


def _short(reason: str, most: int = 240) -> str:
    return reason if len(reason) <= most else reason[: most - 1].rstrip() + "…"


def record_names(record: Record) -> list[str]:
    return [_DBLP_SUFFIX.sub("", name).strip() for name in record.authors]


def _is_published(record: Record) -> bool:
    return (
        bool(record.venue) and not is_arxiv_venue(record.venue) and record.entry_type not in _PREPRINT_TYPES
    )


def published_type(record: Record) -> str:
    return "article" if (record.entry_type or "").lower() in _JOURNAL_TYPES else "inproceedings"


def venue_field(entry_type: str, fields: dict[str, str]) -> str:
    """The field that holds an entry's venue: the one it has, else the one its type wants."""
    for name in ("booktitle", "journal", "journaltitle"):
        if name in fields:
            return name
    return "journal" if entry_type.lower() == "article" else "booktitle"


def plan_entry(
    result: ReferenceResult,
    entry_type: str,
    fields: dict[str, str],
    threshold: float,
    keep_preprints: bool = False,
) -> EntryPlan:
    """The changes for one entry (`fields`: its decoded fields by lower-case name)."""
    plan = EntryPlan(key=result.id)
    if result.likelihood is not None and result.likelihood >= threshold:
        plan.comment = (
            f"likely invented (likelihood {result.likelihood:.2f} >= {threshold:.2f}), not corrected: "
            f"{_short(result.reason)}"
        )
        return plan
    record = result.record
    if result.verdict is Verdict.VERIFIED and record is None:
        return plan  # right as it is (a report from before records were kept): nothing to say
    if result.verdict in (Verdict.FABRICATED, Verdict.UNVERIFIED) or record is None:
        plan.comment = f"{result.verdict.value}, not corrected: {_short(result.reason)}"
        return plan
    source = f"{record.source} {record.source_id}"
    preprint = result.parsed.venue == ARXIV_VENUE and _is_published(record)
    for check in result.fields:
        if check.status is not FieldStatus.MISMATCH:
            continue
        if preprint and keep_preprints and check.field in ("venue", "year"):
            continue  # the preprint's own venue and year are right for the preprint
        if check.level in OTHER_VERSION:
            plan.kept.append(check.field)
            continue
        _correct(plan, check.field, entry_type, fields, record, f"wrong {check.field} per {source}")
    if preprint and not keep_preprints:
        _publish(plan, entry_type, fields, record, f"published version per {source}")
    return plan


def _set(
    plan: EntryPlan, name: str, fields: dict[str, str], new: str, why: str, replaces: str | None = None
) -> None:
    if fields.get(name) == new or any(change.field == name for change in plan.changes):
        return
    old = fields.get(replaces) if replaces else fields.get(name)
    plan.changes.append(Change(plan.key, name, old, new, why, replaces))


def _correct(
    plan: EntryPlan, check: str, entry_type: str, fields: dict[str, str], record: Record, why: str
) -> None:
    if check == "title" and record.title:
        _set(plan, "title", fields, record.title, why)
    elif check == "authors" and record.authors:
        _set(plan, "author", fields, " and ".join(record_names(record)), why)
    elif check == "year" and record.year:
        _set(plan, "year", fields, str(record.year), why)
    elif check == "venue" and record.venue and not is_arxiv_venue(record.venue):
        _set(plan, venue_field(entry_type, fields), fields, record.venue, why)
    elif check == "doi" and record.doi:
        _set(plan, "doi", fields, record.doi, why)
    elif check == "arxiv_id" and record.arxiv_id:
        name = next((n for n in ("eprint", "arxiv", "arxivid") if n in fields), None)
        if name is not None:  # an arXiv id written in a URL or a note is left to the user
            _set(plan, name, fields, record.arxiv_id, why)


def _publish(plan: EntryPlan, entry_type: str, fields: dict[str, str], record: Record, why: str) -> None:
    """A cited preprint becomes its published version: type, venue, year and DOI from the record."""
    target = published_type(record)
    if entry_type.lower() != target:
        plan.new_type = target
    venue_name = "journal" if target == "article" else "booktitle"
    # The field that named arXiv as the venue takes the published venue's place (renamed in place); any
    # other such field goes.
    arxiv_fields = [
        name
        for name in ("journal", "booktitle", "journaltitle")
        if name != venue_name and is_arxiv_venue(fields.get(name))
    ]
    assert record.venue is not None  # _is_published
    replaces = arxiv_fields[0] if arxiv_fields and venue_name not in fields else None
    _set(plan, venue_name, fields, record.venue, why, replaces)
    plan.drop += [name for name in arxiv_fields if name != replaces]
    if record.year and fields.get("year") != str(record.year):
        _set(plan, "year", fields, str(record.year), why)
    if record.doi and not fields.get("doi"):
        _set(plan, "doi", fields, record.doi, why)
