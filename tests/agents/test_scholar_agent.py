"""The scholar agent: Crossref records (from a loopback Crossref) as candidates the judge decides on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refhound.agents.context import AgentContext, Findings
from refhound.agents.judge import Judgement, judge
from refhound.agents.scholar import search_scholarly_sources
from refhound.index.store import IndexStore
from refhound.models import FieldStatus, ParsedFields, Reference, Verdict
from refhound.settings import Settings
from refhound.sources.runtime import SourcesRuntime
from tests.sources.crossref_server import CrossrefServer, only_crossref, unavailable
from tests.sources.works import LECUN, TRANSFORMER

THIS_YEAR = 2026


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REFHOUND_CONFIG", str(tmp_path / "absent.toml"))


@pytest.fixture()
def server() -> Iterator[CrossrefServer]:
    with CrossrefServer([TRANSFORMER, LECUN]) as running:
        yield running


def settings_for(url: str, **crossref: Any) -> Settings:
    section = {"base_url": url, "rate_per_s": 1000.0, "retries": 1, "backoff_s": 0.01, **crossref}
    return Settings(sources=only_crossref(section, cache={"enabled": False}), check={"offline": False})


@pytest.fixture()
def context(server: CrossrefServer, store: IndexStore) -> Iterator[AgentContext]:
    settings = settings_for(server.url)
    runtime = SourcesRuntime.from_settings(settings)
    assert runtime is not None
    with runtime:
        context = AgentContext(settings=settings, store=store, this_year=THIS_YEAR)
        context.sources = runtime
        yield context


def check(context: AgentContext, **fields: Any) -> tuple[Findings, Judgement]:
    cited = ParsedFields(**fields)
    findings = search_scholarly_sources(Reference(id="1", raw="…", parsed=cited), context)
    verdict = judge(
        cited, list(findings.candidates), context.store.coverage, context.settings.judge, THIS_YEAR
    )
    return findings, verdict


def test_a_correct_citation_is_verified_by_the_crossref_record(context: AgentContext) -> None:
    findings, verdict = check(
        context,
        title="Attention is all you need",
        authors=["A. Vaswani", "N. Shazeer", "N. Parmar", "J. Uszkoreit"],
        venue="NeurIPS",
        year=2017,
    )
    assert verdict.verdict is Verdict.VERIFIED, verdict.reason
    assert verdict.evidence[0].source == "crossref"
    assert verdict.evidence[0].record_id == "10.5555/3295222.3295349"
    best = findings.candidates[0]
    assert (best.stage, best.via, best.title_similarity) == ("scholar", "title", 1.0)
    assert findings.note == "crossref: 1 record, 1 candidate (best 1.00)"
    assert findings.unreachable == ()


def test_a_wrong_year_is_a_metadata_error_with_crossrefs_value(context: AgentContext) -> None:
    _, verdict = check(
        context,
        title="Deep learning",
        authors=["Y. LeCun", "Y. Bengio", "G. Hinton"],
        venue="Nature",
        year=2012,
    )
    assert verdict.verdict is Verdict.METADATA_ERROR
    year = next(f for f in verdict.fields if f.field == "year")
    assert (year.status, year.cited, year.found) == (FieldStatus.MISMATCH, "2012", "2015")
    assert "crossref record 10.1038/nature14539" in verdict.reason


def test_a_doi_found_by_doi_is_a_doi_candidate(context: AgentContext) -> None:
    findings, verdict = check(context, title="Deep learning", doi="doi:10.1038/NATURE14539", year=2015)
    assert [c.via for c in findings.candidates] == ["doi"]
    assert next(f for f in verdict.fields if f.field == "doi").status is FieldStatus.MATCH


def test_a_doi_of_another_work_is_reported(context: AgentContext) -> None:
    findings, verdict = check(
        context,
        title="Attention is all you need",
        authors=["A. Vaswani"],
        year=2017,
        doi="10.1038/nature14539",
    )
    assert {c.via for c in findings.candidates} == {"doi", "title"}
    doi = next(f for f in verdict.fields if f.field == "doi")
    assert doi.status is FieldStatus.MISMATCH
    assert verdict.verdict is Verdict.METADATA_ERROR


def test_an_invented_title_gives_no_candidate(context: AgentContext) -> None:
    findings, verdict = check(
        context,
        title="Deep Contrastive Hashing for Quantum Attention Graphs",
        authors=["A. Person"],
        year=2023,
    )
    assert findings.candidates == ()
    assert findings.note == "crossref: 2 records, none close"  # Crossref's loose guesses
    assert findings.unreachable == ()
    assert verdict.verdict is not Verdict.VERIFIED


def test_an_unreachable_crossref_is_reported_not_read_as_not_found(
    context: AgentContext, server: CrossrefServer
) -> None:
    server.fail_always(unavailable())
    findings, verdict = check(context, title="Attention is all you need", year=2017)
    assert findings.candidates == ()
    assert findings.unreachable == ("crossref",)
    assert findings.note.startswith("crossref unreachable (HTTP 503")
    assert verdict.verdict is Verdict.UNVERIFIED
    assert server.count == 2  # one retry


def test_without_a_runtime_the_stage_says_why(store: IndexStore) -> None:
    offline = Settings(check={"offline": True})
    findings = search_scholarly_sources(
        Reference(id="1", raw="…", parsed=ParsedFields(title="Anything")),
        AgentContext(settings=offline, store=store, this_year=THIS_YEAR),
    )
    assert findings == Findings(note="skipped: offline (check.offline is set)")


def test_a_citation_without_title_or_identifier_is_not_looked_up(
    context: AgentContext, server: CrossrefServer
) -> None:
    findings, _ = check(context, authors=["A. Person"], year=2020)
    assert findings.note == "skipped: no title or identifier to look up"
    assert server.count == 0


@pytest.mark.parametrize(("online", "verdict"), [(True, Verdict.FABRICATED), (False, Verdict.UNVERIFIED)])
def test_an_unknown_title_cited_by_venue_acronym_is_fabricated_only_once_the_sources_said_none(
    server: CrossrefServer, store: IndexStore, tmp_path: Path, online: bool, verdict: Verdict
) -> None:
    # dblp's ICML 2019 is complete in the index, but "In ICML" also cites ICML's workshops, which it
    # lacks: offline that is not enough for "fabricated"; Crossref, which holds those too, answering
    # "none" is.
    from refhound.sop.runner import check_references

    settings = settings_for(server.url)
    settings.check.offline = not online
    settings.memory.enabled = False
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    cited = ParsedFields(
        title="Contrastive Curriculum Distillation for Sparse Mixture Models",
        authors=["Wei Seo", "Tamara Fu"],
        venue="ICML",
        year=2019,
    )
    (result,) = check_references([Reference(id="1", raw="…", parsed=cited)], store, settings)
    assert result.verdict is verdict, result.reason
    assert [run.stage for run in result.stages][-2:] == (
        ["scholar", "judge"] if online else ["index", "judge"]
    )
