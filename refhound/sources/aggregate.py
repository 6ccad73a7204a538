"""Ask the online sources tier by tier; stop after the first tier that has the cited work.

A tier's sources are asked at once. A source that gives no answer is recorded as unreachable (with its
reason) and the next tier is still asked: its silence proves nothing, and only the rules of the judge
decide what the records found say.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from refhound.errors import Unreachable
from refhound.models import ParsedFields, Record
from refhound.sources.base import Source, is_plausible


@dataclass(frozen=True)
class Answer:
    """What one source said: its records, or why it said nothing (`problem`)."""

    source: str
    records: tuple[Record, ...] = ()
    problem: str | None = None


@dataclass(frozen=True)
class Lookup:
    """Every answer of the tiers that were asked, in tier order."""

    answers: tuple[Answer, ...] = ()

    @property
    def records(self) -> tuple[Record, ...]:
        return tuple(r for a in self.answers for r in a.records)

    @property
    def unreachable(self) -> tuple[str, ...]:
        """The services that gave no answer."""
        return tuple(a.source for a in self.answers if a.problem is not None)

    @property
    def consulted(self) -> tuple[str, ...]:
        """The services that answered (with records or a definite "none")."""
        return tuple(a.source for a in self.answers if a.problem is None)


class Aggregator:
    """The sources in tiers; a record from `min_title_similarity` up (or, for a citation without a
    title, carrying its identifier) is the cited work, and ends the lookup after its tier."""

    def __init__(self, tiers: Sequence[Sequence[Source]], min_title_similarity: float) -> None:
        self.tiers = [list(tier) for tier in tiers if tier]
        self.min_title_similarity = min_title_similarity

    @property
    def names(self) -> tuple[str, ...]:
        """The services, in tier order."""
        return tuple(s.name for tier in self.tiers for s in tier)

    async def lookup(self, cited: ParsedFields) -> Lookup:
        """Every answer of the tiers asked, up to and with the first that has the cited work."""
        answers: list[Answer] = []
        for tier in self.tiers:
            found = await asyncio.gather(*(_ask(source, cited) for source in tier))
            answers.extend(found)
            if any(is_plausible(cited, r, self.min_title_similarity) for a in found for r in a.records):
                break
        return Lookup(tuple(answers))


async def _ask(source: Source, cited: ParsedFields) -> Answer:
    try:
        records = await source.lookup(cited)
    except Unreachable as error:
        return Answer(source.name, problem=error.problem)
    return Answer(source.name, tuple(records))
