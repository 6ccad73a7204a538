"""Identifier probes and the identifiers agent: found, resolves, does not exist, no answer — and the judge."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from refhound.agents.context import AgentContext, Candidate
from refhound.agents.identifiers import probe_identifiers
from refhound.agents.judge import judge
from refhound.errors import Unreachable
from refhound.models import FieldStatus, ParsedFields, Record, Reference, Verdict
from refhound.settings import JudgeSettings, Settings
from refhound.sources.probes import CitedIdentifiers, Outcome, Probe, Prober

LECUN = Record(
    source="doi",
    source_id="10.1038/nature14539",
    source_version="2026-11-21",
    title="Deep Learning",
    authors=["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"],
    venue="Nature",
    year=2015,
    doi="10.1038/nature14539",
)
BERT = Record(
    source="arxiv",
    source_id="1810.04805",
    source_version="2026-11-21",
    title="BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
    authors=["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
    year=2018,
    arxiv_id="1810.04805",
)


@dataclass
class FakeDoi:
    records: dict[str, Record]
    registered: set[str] = field(default_factory=set)  # resolve, but without metadata
    down: bool = False
    name: str = "doi"

    async def by_doi(self, doi: str) -> Record | None:
        if self.down:
            raise Unreachable(self.name, "HTTP 503")
        return self.records.get(doi)

    async def resolves(self, doi: str) -> bool:
        return doi in self.records or doi in self.registered


@dataclass
class FakeArxiv:
    records: dict[str, Record]
    name: str = "arxiv"

    async def by_arxiv_id(self, arxiv_id: str) -> Record | None:
        return self.records.get(arxiv_id)


@dataclass
class FakePages:
    pages: dict[str, list[Record]]
    name: str = "web"

    async def records_at(self, url: str) -> list[Record]:
        if url not in self.pages:
            raise Unreachable(self.name, "HTTP 404")
        return self.pages[url]


def probe(cited: ParsedFields, prober: Prober) -> dict[str, Probe]:
    return {p.field: p for p in asyncio.run(prober.probe(cited))}


PROBER = Prober(
    FakeDoi({"10.1038/nature14539": LECUN}, registered={"10.9999/registered"}),
    FakeArxiv({"1810.04805": BERT}),
    FakePages({"https://example.org/paper": [LECUN], "https://example.org/blog": []}),
)


def test_each_identifier_is_asked_of_its_authority() -> None:
    found = probe(
        ParsedFields(doi="https://doi.org/10.1038/NATURE14539", arxiv_id="arXiv:1810.04805v2"), PROBER
    )
    assert found["doi"].outcome is Outcome.FOUND and found["doi"].records == (LECUN,)
    assert found["arxiv_id"].outcome is Outcome.FOUND and found["arxiv_id"].records == (BERT,)


def test_a_doi_that_does_not_exist_is_missing_one_without_metadata_resolves() -> None:
    assert probe(ParsedFields(doi="10.1038/fake-12345"), PROBER)["doi"].outcome is Outcome.MISSING
    assert probe(ParsedFields(doi="10.9999/registered"), PROBER)["doi"].outcome is Outcome.RESOLVES
    assert probe(ParsedFields(arxiv_id="2312.99999"), PROBER)["arxiv_id"].outcome is Outcome.MISSING


def test_no_answer_is_unknown_never_missing() -> None:
    down = Prober(FakeDoi({}, down=True))
    result = probe(ParsedFields(doi="10.1038/nature14539"), down)["doi"]
    assert result.outcome is Outcome.UNKNOWN and result.problem == "HTTP 503"
    # A page that fails is a rotten link, not a missing work.
    dead_link = probe(ParsedFields(url="https://example.org/gone"), PROBER)["url"]
    assert dead_link.outcome is Outcome.UNKNOWN


def test_doi_and_arxiv_links_are_probed_as_identifiers() -> None:
    ids = CitedIdentifiers.of(ParsedFields(url="https://doi.org/10.1038/nature14539"))
    assert (ids.doi, ids.url) == ("10.1038/nature14539", None)
    ids = CitedIdentifiers.of(ParsedFields(url="https://arxiv.org/abs/1810.04805"))
    assert (ids.arxiv_id, ids.url) == ("1810.04805", None)
    ids = CitedIdentifiers.of(ParsedFields(doi="10.48550/arXiv.1810.04805"))
    assert ids.arxiv_id == "1810.04805"
    assert not CitedIdentifiers.of(ParsedFields(title="No identifiers"))


def test_a_page_with_metadata_gives_its_records_one_without_resolves() -> None:
    assert probe(ParsedFields(url="https://example.org/paper"), PROBER)["url"].records == (LECUN,)
    assert probe(ParsedFields(url="https://example.org/blog"), PROBER)["url"].outcome is Outcome.RESOLVES


@dataclass
class FakeRuntime:
    prober: Prober

    def probe(self, cited: ParsedFields) -> list[Probe]:
        return asyncio.run(self.prober.probe(cited))


def run_agent(cited: ParsedFields, prober: Prober = PROBER) -> tuple[Verdict, object]:
    context = AgentContext(settings=Settings(), store=None, this_year=2026)  # type: ignore[arg-type]
    context.sources = FakeRuntime(prober)  # type: ignore[assignment]
    findings = probe_identifiers(Reference(id="1", raw="", parsed=cited), context)
    verdict = judge(
        cited, list(findings.candidates), lambda k, y: [], JudgeSettings(), 2026, findings.dead_identifiers
    ).verdict
    return verdict, findings


def test_a_correct_doi_verifies_the_citation() -> None:
    cited = ParsedFields(
        title="Deep learning",
        authors=["Y. LeCun", "Y. Bengio", "G. Hinton"],
        venue="Nature",
        year=2015,
        doi="10.1038/nature14539",
    )
    verdict, findings = run_agent(cited)
    assert verdict is Verdict.VERIFIED
    assert findings.candidates[0].stage == "identifiers"  # type: ignore[attr-defined]


def test_a_doi_of_another_work_is_a_wrong_identifier() -> None:
    cited = ParsedFields(title="Attention is all you need", year=2017, doi="10.1038/nature14539")
    transformer = Record(
        source="test", source_id="t", source_version="1", title="Attention Is All You Need", year=2017
    )
    context_candidates = [Candidate(transformer, 1.0, "title")]
    _, findings = run_agent(cited)
    candidates = list(findings.candidates) + context_candidates  # type: ignore[attr-defined]
    judgement = judge(cited, candidates, lambda k, y: [], JudgeSettings(), 2026)
    assert judgement.verdict is Verdict.METADATA_ERROR
    doi = next(f for f in judgement.fields if f.field == "doi")
    assert doi.status is FieldStatus.MISMATCH and "another work" in (doi.note or "")


def test_a_dead_doi_with_no_such_work_is_fabricated() -> None:
    verdict, findings = run_agent(ParsedFields(title="A study that never was", doi="10.1038/fake-12345"))
    assert findings.dead_identifiers == ("doi",)  # type: ignore[attr-defined]
    assert verdict is Verdict.FABRICATED


def test_a_dead_doi_on_a_real_work_is_a_metadata_error() -> None:
    cited = ParsedFields(title="Deep learning", authors=["Yann LeCun"], year=2015, doi="10.1038/fake-12345")
    record = LECUN.model_copy(update={"doi": None, "source": "test"})
    judgement = judge(
        cited, [Candidate(record, 1.0, "title")], lambda k, y: [], JudgeSettings(), 2026, ("doi",)
    )
    assert judgement.verdict is Verdict.METADATA_ERROR
    doi = next(f for f in judgement.fields if f.field == "doi")
    assert doi.status is FieldStatus.MISMATCH and "does not exist" in (doi.note or "")


def test_an_unreachable_authority_is_reported_and_proves_nothing() -> None:
    verdict, findings = run_agent(
        ParsedFields(title="A study", doi="10.1038/nature14539"), Prober(FakeDoi({}, down=True))
    )
    assert findings.unreachable == ("doi",)  # type: ignore[attr-defined]
    assert findings.dead_identifiers == ()  # type: ignore[attr-defined]
    assert verdict is Verdict.UNVERIFIED


def test_a_citation_without_identifiers_is_skipped() -> None:
    _, findings = run_agent(ParsedFields(title="Deep learning"))
    assert findings.note.startswith("skipped")  # type: ignore[attr-defined]


def test_a_dead_doi_while_a_source_was_silent_is_unverified() -> None:
    cited = ParsedFields(title="A study that never was", doi="10.1038/fake-12345")
    judgement = judge(cited, [], lambda k, y: [], JudgeSettings(), 2026, ("doi",), unanswered=("crossref",))
    assert judgement.verdict is Verdict.UNVERIFIED  # the work may exist where Crossref could not be asked
    doi = next(f for f in judgement.fields if f.field == "doi")
    assert doi.status is FieldStatus.MISMATCH
