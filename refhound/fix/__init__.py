"""`refhound fix`: a corrected bibliography from the verdicts on its entries.

    fix_bibliography(text, results, threshold) -> FixOutcome     the new text and what changed, checked
    unified_diff(before, after, name) -> str

`plan` decides what changes (only from a certain record, never from a flagged, fabricated or unverified
entry); `apply` splices it into the text in the entry's own style; `verify` reads the result back.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from refhound.bibtex import parse_bibtex
from refhound.fix.apply import apply_plans
from refhound.fix.bibtext import duplicate_keys, entry_spans
from refhound.fix.plan import Change, EntryPlan, plan_entry
from refhound.fix.verify import FixError, verify_fix
from refhound.models import ReferenceResult

__all__ = ["Change", "EntryPlan", "FixError", "FixOutcome", "fix_bibliography", "unified_diff"]


@dataclass
class FixOutcome:
    text: str
    plans: list[EntryPlan]
    # Entries with something to change whose fields could not be located in the text (a missing comma
    # between fields, a key used by two entries …): left as they are, never rewritten on a guess.
    unlocated: list[str] = field(default_factory=list)

    @property
    def changes(self) -> list[Change]:
        return [change for plan in self.plans for change in plan.changes]

    @property
    def commented(self) -> list[EntryPlan]:
        return [plan for plan in self.plans if plan.comment]


def fix_bibliography(
    text: str, results: list[ReferenceResult], threshold: float, keep_preprints: bool = False
) -> FixOutcome:
    """`text` corrected from `results` (the verdicts on its entries, by key), read back and checked."""
    parsed = parse_bibtex(text).entries
    entries = {entry.key: entry for entry in parsed}
    twice = duplicate_keys(text)
    located = {key: span for key, span in entry_spans(text).items() if key not in twice}
    plans: list[EntryPlan] = []
    unlocated: list[str] = []
    for result in results:
        entry = entries.get(result.id)
        if entry is None:
            continue
        plan = plan_entry(result, entry.entry_type, entry.fields, threshold, keep_preprints)
        if not (plan.changes or plan.comment or plan.new_type or plan.drop or plan.kept):
            continue
        if result.id in located:
            plans.append(plan)
        elif result.id not in unlocated:  # a key used twice is ambiguous: which entry is meant?
            unlocated.append(result.id)
    fixed = apply_plans(text, plans)
    verify_fix(text, fixed, plans)
    return FixOutcome(fixed, plans, unlocated)


def unified_diff(before: str, after: str, name: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{name}", f"b/{name}"
    )
    return "".join(lines)
