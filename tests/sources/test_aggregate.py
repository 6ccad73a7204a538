"""The aggregator: tiers in order, a tier's sources at once, an early stop, unreachable kept apart."""

from __future__ import annotations

import asyncio

from refhound.errors import Unreachable
from refhound.models import ParsedFields, Record
from refhound.sources.aggregate import Aggregator, Lookup
from refhound.sources.base import DoiSource, Source

TITLE = "Deep Residual Learning for Image Recognition"


def record(source: str, title: str, doi: str | None = None) -> Record:
    return Record(source=source, source_id=f"{source}:{title}", source_version="test", title=title, doi=doi)


class Scripted:
    """A source that answers with fixed records, or raises Unreachable; it logs being asked."""

    def __init__(self, name: str, records: list[Record] | None = None, delay_s: float = 0.0) -> None:
        self.name = name
        self.records = records
        self.delay_s = delay_s
        self.asked = 0

    async def lookup(self, cited: ParsedFields) -> list[Record]:
        self.asked += 1
        await asyncio.sleep(self.delay_s)
        if self.records is None:
            raise Unreachable(self.name, "HTTP 503 (after 3 attempts)")
        return list(self.records)


def run(tiers: list[list[Scripted]], cited: ParsedFields) -> Lookup:
    return asyncio.run(Aggregator(tiers, 0.8).lookup(cited))


def test_a_scripted_source_satisfies_the_protocol() -> None:
    assert isinstance(Scripted("x"), Source)
    assert not isinstance(Scripted("x"), DoiSource)


def test_the_first_tier_with_the_cited_title_ends_the_lookup() -> None:
    first, second = Scripted("crossref", [record("crossref", TITLE.lower())]), Scripted("openalex", [])
    found = run([[first], [second]], ParsedFields(title=TITLE))
    assert [r.source for r in found.records] == ["crossref"]
    assert (first.asked, second.asked) == (1, 0)
    assert found.consulted == ("crossref",) and found.unreachable == ()


def test_unrelated_records_and_unreachable_sources_do_not_end_the_lookup() -> None:
    tiers = [
        [Scripted("crossref", [record("crossref", "Deep Learning")]), Scripted("dblp", None)],
        [Scripted("openalex", [record("openalex", TITLE)])],
        [Scripted("arxiv", [])],
    ]
    found = run(tiers, ParsedFields(title=TITLE))
    assert [a.source for a in found.answers] == ["crossref", "dblp", "openalex"]
    assert found.unreachable == ("dblp",)
    assert found.answers[1].problem == "HTTP 503 (after 3 attempts)"
    assert [r.source for r in found.records] == ["crossref", "openalex"]
    assert tiers[2][0].asked == 0


def test_a_tier_is_asked_at_once() -> None:
    tier = [Scripted(f"s{i}", [], delay_s=0.2) for i in range(4)]
    loop_time = asyncio.run(_timed(Aggregator([tier], 0.8), ParsedFields(title=TITLE)))
    assert loop_time < 0.5


async def _timed(aggregator: Aggregator, cited: ParsedFields) -> float:
    loop = asyncio.get_running_loop()
    started = loop.time()
    await aggregator.lookup(cited)
    return loop.time() - started


def test_without_a_title_the_cited_doi_is_what_counts() -> None:
    first = Scripted("crossref", [record("crossref", "Whatever It Is Called", doi="10.1109/CVPR.2016.90")])
    second = Scripted("openalex", [])
    run([[first], [second]], ParsedFields(doi="https://doi.org/10.1109/cvpr.2016.90"))
    assert second.asked == 0


class Matcher(Scripted):
    """A source that also matches whole citation strings, and logs the strings it was given."""

    def __init__(self, name: str, records: list[Record] | None, by_string: list[Record] | None) -> None:
        super().__init__(name, records)
        self.by_string = by_string
        self.strings: list[str] = []

    async def by_citation(self, citation: str) -> list[Record]:
        self.strings.append(citation)
        if self.by_string is None:
            raise Unreachable(self.name, "HTTP 503 (after 3 attempts)")
        return list(self.by_string)


PRINTED = f"K. He, X. Zhang, S. Ren, and J. Sun. {TITLE}. In CVPR, 2016."


def test_the_printed_string_is_matched_whole_when_the_parsed_fields_find_nothing_like_them() -> None:
    matcher = Matcher("crossref", [record("crossref", "Deep Learning")], [record("crossref", TITLE)])
    other = Scripted("openalex", [])
    misread = ParsedFields(title=f"K. He, X. Zhang, S. Ren, and J. Sun. {TITLE}")
    found = asyncio.run(Aggregator([[matcher], [other]], 0.8).lookup(misread, PRINTED))
    assert matcher.strings == [PRINTED] and other.asked == 1
    assert [(a.source, a.by_citation) for a in found.answers] == [
        ("crossref", False),
        ("openalex", False),
        ("crossref", True),
    ]
    assert found.consulted == ("crossref", "openalex")
    assert [r.title for r in found.records][-1] == TITLE


def test_the_string_is_not_sent_when_the_parsed_title_finds_the_work_or_the_service_failed() -> None:
    found_it = Matcher("crossref", [record("crossref", TITLE)], [])
    asyncio.run(Aggregator([[found_it]], 0.8).lookup(ParsedFields(title=TITLE), PRINTED))
    assert found_it.strings == []
    down = Matcher("crossref", None, [])
    found = asyncio.run(Aggregator([[down]], 0.8).lookup(ParsedFields(title="Something else"), PRINTED))
    assert down.strings == [] and found.unreachable == ("crossref",)


def test_a_string_with_nothing_parsed_is_still_matched_and_its_failure_is_no_answer() -> None:
    matcher = Matcher("crossref", [], None)
    found = asyncio.run(Aggregator([[matcher]], 0.8).lookup(ParsedFields(), PRINTED))
    assert matcher.asked == 0 and matcher.strings == [PRINTED]
    assert found.unreachable == ("crossref",) and found.answers[0].by_citation
