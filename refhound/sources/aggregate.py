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
from refhound.sources.base import CitationSource, Source, is_plausible


@dataclass(frozen=True)
class Answer:
    """What one source said: its records, or why it said nothing (`problem`)."""

    source: str
    records: tuple[Record, ...] = ()
    problem: str | None = None
    by_citation: bool = False  # asked with the whole printed string, not the parsed fields


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
        return tuple(dict.fromkeys(a.source for a in self.answers if a.problem is not None))

    @property
    def consulted(self) -> tuple[str, ...]:
        """The services that answered (with records or a definite "none")."""
        return tuple(dict.fromkeys(a.source for a in self.answers if a.problem is None))


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

    async def lookup(self, cited: ParsedFields, citation: str | None = None) -> Lookup:
        """Every answer of the tiers asked, up to and with the first that has the cited work.

        With the printed `citation` string, when no tier has a record plausibly the cited work by the
        parsed fields (or they hold nothing to look up), the services that match whole citations are
        asked with the string as well: a misread title must not hide the work, and the judge confirms
        what they find by the record's title and authors printed in the string.
        """
        answers: list[Answer] = []
        if cited.title or cited.doi or cited.arxiv_id:
            for tier in self.tiers:
                found = await asyncio.gather(*(_ask(source, cited) for source in tier))
                answers.extend(found)
                if any(is_plausible(cited, r, self.min_title_similarity) for a in found for r in a.records):
                    return Lookup(tuple(answers))
        if citation:
            failed = {a.source for a in answers if a.problem is not None}  # not asked twice to time out
            matchers = [
                s
                for tier in self.tiers
                for s in tier
                if isinstance(s, CitationSource) and s.name not in failed
            ]
            answers.extend(await asyncio.gather(*(_ask_citation(source, citation) for source in matchers)))
        return Lookup(tuple(answers))


async def _ask(source: Source, cited: ParsedFields) -> Answer:
    try:
        records = await source.lookup(cited)
    except Unreachable as error:
        return Answer(source.name, problem=error.problem)
    return Answer(source.name, tuple(records))


async def _ask_citation(source: CitationSource, citation: str) -> Answer:
    try:
        records = await source.by_citation(citation)
    except Unreachable as error:
        return Answer(source.name, problem=error.problem, by_citation=True)
    return Answer(source.name, tuple(records), by_citation=True)
