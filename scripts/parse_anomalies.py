#!/usr/bin/env python3
"""Count parses that cannot be right, on reference strings that have no gold fields.

A title that ends with the reference's year, a venue that is a URL's label or a read-on date, a reference
with no title or no authors, a title or venue too long to be one: each is a parse a person would correct.
Counted over CiteAudit's development files (every split) or a text file of one reference per line, they
show which shapes of real strings the parser misreads, with no labelling; `--show KIND` lists them.

    python scripts/parse_anomalies.py ../shared/data/benchmarks/citeaudit/benchmark-dev-sample.json \\
        ../shared/data/benchmarks/citeaudit/benchmark-dev-realworld-extra.json [--show "year in title"]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from refhound.models import ParsedFields
from refhound.refstring.parse import parse_reference_string

_YEAR_ENDS_TITLE = re.compile(r",\s*(?:19|20)\d\d[a-z]?$")
_NOTE_AS_VENUE = re.compile(r"(?i)url|available|online|accessed.*|retrieved.*")


def anomalies(parsed: ParsedFields) -> list[str]:
    """The kinds of impossible parse `parsed` shows."""
    title = parsed.title or ""
    kinds = []
    if not title:
        kinds.append("no title")
    elif _YEAR_ENDS_TITLE.search(title):
        kinds.append("year in title")
    if len(title.split()) > 30:
        kinds.append("long title")
    if not parsed.authors:
        kinds.append("no authors")
    if parsed.venue and _NOTE_AS_VENUE.fullmatch(parsed.venue):
        kinds.append("note as venue")
    if parsed.venue and len(parsed.venue.split()) > 25:
        kinds.append("long venue")
    if not parsed.year:
        kinds.append("no year")
    return kinds


def strings(path: Path) -> list[str]:
    """CiteAudit's citations, or the non-empty lines of a text file."""
    if path.suffix == ".json":
        return [item["citation"] for item in json.loads(path.read_text(encoding="utf-8"))["data"]]
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", type=Path, nargs="+", help="CiteAudit .json files or text files")
    parser.add_argument("--show", help="list the strings of this kind")
    args = parser.parse_args()
    for path in args.paths:
        counts: Counter[str] = Counter()
        raws = strings(path)
        for raw in raws:
            parsed = parse_reference_string(raw)
            kinds = anomalies(parsed)
            counts.update(kinds)
            if args.show in kinds:
                read = f"title {parsed.title!r}, venue {parsed.venue!r}, year {parsed.year}"
                print(f"  {raw[:200]}\n    -> {read}")
        listed = ", ".join(f"{kind} {n}" for kind, n in counts.most_common())
        print(f"{path.name}: {len(raws)} strings; {listed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
