"""The web stage: the agent on a loopback SearXNG and site, the stage plan, `refhound check` end to end."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from refhound.agents.context import AgentContext, Findings
from refhound.agents.web_search import search_the_web, web_query
from refhound.cli import app
from refhound.index.store import IndexStore
from refhound.models import ParsedFields, Reference
from refhound.settings import Settings
from refhound.sop.definition import load_sop
from refhound.sop.stages import plan_stages
from refhound.web.runtime import WebRuntime
from tests.web import pages
from tests.web.conftest import web_settings
from tests.web.servers import Route, SearchServer, SiteServer, hit, html

SOURCES = ("CROSSREF", "OPENALEX", "DBLP", "ARXIV", "SEMANTIC_SCHOLAR", "DOI")


@pytest.fixture()
def web(site: SiteServer, search: SearchServer) -> Iterator[tuple[SiteServer, SearchServer]]:
    search.set_hits(
        hit(site.add("/blog/attention", html(pages.NO_METADATA)), "Some thoughts on attention"),
        hit(site.add("/articles/nature14539", html(pages.PUBLISHER_CITATION)), "Deep learning | Nature"),
        hit(site.add("/abs/1706.03762", html(pages.ARXIV_ABS)), "[1706.03762] Attention Is All You Need"),
    )
    yield site, search


def context_for(settings: Settings, store: IndexStore, runtime: WebRuntime | None) -> AgentContext:
    return AgentContext(settings=settings, store=store, this_year=2026, web=runtime)


def find(context: AgentContext, **fields: Any) -> Findings:
    return search_the_web(Reference(id="1", raw="…", parsed=ParsedFields(**fields)), context)


def test_the_agent_turns_crawled_pages_into_candidates(
    web: tuple[SiteServer, SearchServer], store: IndexStore
) -> None:
    _, search = web
    settings = web_settings(searxng_url=search.url)
    with WebRuntime(settings) as runtime:
        findings = find(
            context_for(settings, store, runtime),
            title="Deep Learning",
            authors=["Yann LeCun", "Yoshua Bengio"],
            venue="Nature",
            year=2015,
        )
    (candidate,) = findings.candidates
    assert (candidate.stage, candidate.via, candidate.title_similarity) == ("web", "title", 1.0)
    assert candidate.record.doi == "10.1038/nature14539"
    assert candidate.record.source == "web"
    assert findings.unreachable == ()
    assert findings.note == (
        "searxng: 3 results, 3 pages crawled, 1 without records (no bibliographic metadata), "
        "2 records, 1 candidate (best 1.00)"
    )
    assert search.requests[0].params["q"] == "Deep Learning LeCun"


def test_the_budget_and_top_results_bound_the_work(
    web: tuple[SiteServer, SearchServer], store: IndexStore
) -> None:
    site, search = web
    settings = web_settings(searxng_url=search.url, crawl_budget_pages=1, top_results=2)
    with WebRuntime(settings) as runtime:
        findings = find(context_for(settings, store, runtime), title="Deep Learning")
    assert findings.candidates == ()
    assert findings.note == (
        "searxng: 2 results, 1 page crawled, 1 left (budget), 1 without records (no bibliographic metadata), "
        "0 records"
    )
    assert [p for p in site.paths() if p != "/robots.txt"] == ["/blog/attention"]


def test_a_search_that_does_not_answer_is_unreachable(
    search: SearchServer, store: IndexStore, caplog: pytest.LogCaptureFixture
) -> None:
    search.fail_always(Route(b"<html><h1>503 Service Unavailable</h1></html>", 503))
    settings = web_settings(searxng_url=search.url)
    with WebRuntime(settings) as runtime, caplog.at_level(logging.WARNING, logger="refhound.web.runtime"):
        findings = find(context_for(settings, store, runtime), title="Deep Learning")
        find(context_for(settings, store, runtime), title="Attention is all you need")
    assert [r.getMessage()[:36] for r in caplog.records] == ["web search (searxng) gave no answer:"]
    assert findings.candidates == ()
    assert findings.unreachable == ("searxng",)
    assert findings.note.startswith("searxng unreachable (HTTP 503")


def test_pages_whose_hosts_do_not_answer_are_named(
    site: SiteServer, search: SearchServer, store: IndexStore
) -> None:
    search.set_hits(hit(site.add("/down", Route(b"overloaded", 503)), "Deep learning"))
    settings = web_settings(searxng_url=search.url)
    with WebRuntime(settings) as runtime:
        findings = find(context_for(settings, store, runtime), title="Deep Learning")
    assert findings.unreachable == (site.url.removeprefix("http://"),)


def test_without_a_title_there_is_nothing_to_search(search: SearchServer, store: IndexStore) -> None:
    settings = web_settings(searxng_url=search.url)
    with WebRuntime(settings) as runtime:
        findings = find(context_for(settings, store, runtime), doi="10.1038/nature14539")
    assert findings.note == "skipped: no title to search for"
    assert search.requests == []


def test_the_query_is_the_title_and_the_first_authors_family_name() -> None:
    assert web_query(ParsedFields(title="Deep learning.", authors=["LeCun, Yann", "Bengio, Y."])) == (
        "Deep learning LeCun"
    )
    assert web_query(ParsedFields(title="Attention Is All You Need", authors=["others"])) == (
        "Attention Is All You Need"
    )
    assert web_query(ParsedFields(title="  ")) is None


@pytest.mark.parametrize(
    ("web", "offline", "reason"),
    [
        ({}, False, "no web search provider is configured (web.provider = none)"),
        ({"provider": "brave"}, False, "web.brave_api_key is not set (needed by web.provider = brave)"),
        (
            {"provider": "searxng", "searxng_url": "http://127.0.0.1:9"},
            True,
            "offline (check.offline is set)",
        ),
    ],
)
def test_the_stage_is_left_out_with_a_reason(
    store: IndexStore, web: dict[str, str], offline: bool, reason: str
) -> None:
    settings = Settings(web=web, check={"offline": offline})
    plan = plan_stages(load_sop("default"), context_for(settings, store, WebRuntime.from_settings(settings)))
    assert plan.skipped["web"] == reason
    assert "web" not in plan.agents


def test_the_stage_runs_when_a_provider_is_configured(search: SearchServer, store: IndexStore) -> None:
    settings = web_settings(searxng_url=search.url)
    runtime = WebRuntime.from_settings(settings)
    assert runtime is not None
    with runtime:
        plan = plan_stages(load_sop("citeaudit"), context_for(settings, store, runtime))
    assert plan.agents["web"] is search_the_web


BIB = r"""
@article{lecun2015deep,
  title = {Deep learning},
  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  journal = {Nature}, volume = {521}, pages = {436--444}, year = {2015}
}
@inproceedings{made2019up,
  title = {Quantum Gradient Descent for Sparse Hypergraph Attention},
  author = {Doe, Jane},
  booktitle = {Proceedings of the 36th International Conference on Machine Learning}, year = {2019}
}
"""


def test_refhound_check_verifies_a_reference_from_the_web(
    web: tuple[SiteServer, SearchServer], small_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, search = web
    monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")
    monkeypatch.setenv("REFHOUND_WEB__PROVIDER", "searxng")
    monkeypatch.setenv("REFHOUND_WEB__SEARXNG_URL", search.url)
    monkeypatch.setenv("REFHOUND_WEB__RATE_PER_HOST", "100")
    monkeypatch.setenv("REFHOUND_NET__ALLOW", '["127.0.0.1"]')  # the fake sites the search finds
    monkeypatch.setenv("REFHOUND_MEMORY__ENABLED", "false")
    for name in SOURCES:  # no scholarly API may be asked: they are not on this machine
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__ENABLED", "false")
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(bib), "--index", str(small_index), "--format", "json"])
    assert result.exit_code == 1, result.stderr
    assert "stage web skipped" not in result.stderr
    real, made_up = json.loads(result.stdout)["references"]
    assert (real["verdict"], real["stage"]) == ("verified", "web")
    assert real["evidence"][0]["source"] == "web"
    assert real["evidence"][0]["url"] == "https://www.nature.com/articles/nature14539"
    web_run = next(s for s in real["stages"] if s["stage"] == "web")
    assert web_run["candidates"] == 1 and web_run["note"].startswith("searxng: 3 results, 3 pages crawled")
    assert made_up["verdict"] == "fabricated"
    assert [s["stage"] for s in made_up["stages"]][-2:] == ["web", "judge"]
    assert {r.params["q"] for r in search.requests} == {
        "Deep learning LeCun",
        "Quantum Gradient Descent for Sparse Hypergraph Attention Doe",
    }


def test_refhound_check_names_a_missing_key_once_and_goes_on(
    small_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")
    monkeypatch.setenv("REFHOUND_WEB__PROVIDER", "brave")
    monkeypatch.setenv("REFHOUND_MEMORY__ENABLED", "false")
    for name in SOURCES:
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__ENABLED", "false")
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(bib), "--index", str(small_index), "--format", "json"])
    # With no online stage left, the invented reference is unverified (not proven fabricated), and flagged
    # on its absence from ICML 2019's main proceedings, held completely: exit 1.
    assert result.exit_code == 1, result.stderr
    assert result.stderr.count("web.brave_api_key is not set") == 1
    assert "stage web skipped: web.brave_api_key is not set (needed by web.provider = brave)" in result.stderr
    assert [r["verdict"] for r in json.loads(result.stdout)["references"]] == ["unverified", "unverified"]
