"""The corrected text read back: it must parse as the original did, every changed field must read as the
record's value, and every entry without a change must be the same bytes. A fix that fails this is not
written (`FixError`)."""

from __future__ import annotations

from refhound.bibtex import parse_bibtex, split_bibtex_names
from refhound.errors import RefhoundError
from refhound.fix.bibtext import entry_spans
from refhound.fix.plan import Change, EntryPlan
from refhound.normalize.identifiers import normalize_doi
from refhound.normalize.text import collapse_whitespace


class FixError(RefhoundError):
    """The corrected bibliography did not read back as planned (a bug, never a user's error)."""


def _name(name: str) -> str:
    """'He, Kaiming' and 'Kaiming He' alike, as 'Kaiming He'."""
    if "," in name:
        last, _, first = name.partition(",")
        name = f"{first.strip()} {last.strip()}"
    return collapse_whitespace(name)


def _comparable(field: str, value: str) -> str | list[str]:
    if field == "author":
        return [_name(n) for n in split_bibtex_names(value)[0]]
    if field == "doi":
        return normalize_doi(value) or value
    return collapse_whitespace(value.replace("{", "").replace("}", "")).casefold()


def reads_back(change: Change, value: str | None) -> bool:
    if value is None:
        return False
    wanted = " and ".join(change.new.split(" and ")) if change.field == "author" else change.new
    return _comparable(change.field, value) == _comparable(change.field, wanted)


def verify_fix(before: str, after: str, plans: list[EntryPlan]) -> None:
    """Raise `FixError` unless `after` is `before` with exactly the planned changes."""
    old, new = parse_bibtex(before), parse_bibtex(after)
    if len(new.entries) != len(old.entries) or len(new.failures) > len(old.failures):
        raise FixError("the corrected bibliography does not parse as the original did; nothing written")
    by_key = {entry.key: entry for entry in new.entries}
    changed = {plan.key for plan in plans if plan.changes or plan.new_type or plan.drop}
    for plan in plans:
        for change in plan.changes:
            entry = by_key.get(plan.key)
            if entry is None or not reads_back(change, entry.fields.get(change.field)):
                raise FixError(f"entry {plan.key!r}: {change.field} does not read back as the record's value")
    old_spans, new_spans = entry_spans(before), entry_spans(after)
    for key, span in old_spans.items():
        if key in changed:
            continue
        again = new_spans.get(key)
        if again is None or after[again.start : again.end] != before[span.start : span.end]:
            raise FixError(f"entry {key!r} was to stay as it was but changed")
