"""The runtime builds every online source from settings, and asks them tier by tier over real HTTP."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any, get_args

import pytest

from refhound.models import ParsedFields, Record
from refhound.net.loop_thread import LoopThread
from refhound.settings import Settings, SourceName
from refhound.sources.runtime import BUILDERS, SourcesRuntime
from tests.sources.arxiv_server import ArxivServer, Preprint
from tests.sources.crossref_server import CrossrefServer
from tests.sources.dblp_server import DblpServer
from tests.sources.doi_server import DoiServer
from tests.sources.fake_service import unavailable
from tests.sources.openalex_server import OpenAlexServer
from tests.sources.semantic_scholar_server import SemanticScholarServer

ALL_TIERS = [["crossref", "openalex"], ["dblp", "arxiv", "semantic_scholar"], ["doi"]]
# A workshop paper that only the computer-science services and arXiv hold.
WORKSHOP = Record(
    source="test",
    source_id="ws",
    source_version="test",
    title="Sparse Attention Probes for Citation Checking",
    authors=["Ada Lovelace", "Alan Turing"],
    venue="Workshop on Scholarly Document Processing",
    year=2022,
    arxiv_id="2203.01234",
    entry_type="inproceedings",
)
UNRELATED = Record(
    source="test",
    source_id="unrelated",
    source_version="test",
    title="Probes of Attention Deficit in Adults",
    authors=["B. Person"],
    venue="J. Psychiatry",
    year=2010,
    doi="10.1000/psy.2010.1",
)


@pytest.fixture(autouse=True)
def _online_uncached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFHOUND_SOURCES__CACHE__ENABLED", "false")
    monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")


@pytest.fixture()
def servers() -> Iterator[dict[str, Any]]:
    with ExitStack() as stack:
        yield {
            "crossref": stack.enter_context(CrossrefServer([UNRELATED])),
            "openalex": stack.enter_context(OpenAlexServer([UNRELATED])),
            "dblp": stack.enter_context(DblpServer([WORKSHOP])),
            "arxiv": stack.enter_context(
                ArxivServer(
                    [Preprint(WORKSHOP.model_copy(update={"venue": None}), published="2022-03-02T10:00:00Z")]
                )
            ),
            "semantic_scholar": stack.enter_context(SemanticScholarServer([WORKSHOP])),
            "doi": stack.enter_context(DoiServer([UNRELATED])),
        }


def point_at(monkeypatch: pytest.MonkeyPatch, servers: dict[str, Any]) -> None:
    """Every service at its loopback server through the environment, fast, as a user would configure it."""
    for name, server in servers.items():
        prefix = f"REFHOUND_SOURCES__{name.upper()}__"
        monkeypatch.setenv(prefix + "BASE_URL", server.url)
        monkeypatch.setenv(prefix + "RATE_PER_S", "1000")
        monkeypatch.setenv(prefix + "RETRIES", "1")
        monkeypatch.setenv(prefix + "BACKOFF_S", "0.01")
    monkeypatch.setenv("REFHOUND_SOURCES__TIERS", json.dumps(ALL_TIERS))


def test_every_service_name_has_a_builder() -> None:
    assert set(BUILDERS) == set(get_args(SourceName))


def test_the_default_settings_build_the_default_tiers_without_a_request() -> None:
    runtime = SourcesRuntime.from_settings(Settings())
    assert runtime is not None
    with runtime:
        assert runtime.names == ("crossref", "openalex", "dblp", "arxiv", "semantic_scholar")


def test_all_six_are_built_from_the_environment_and_asked_tier_by_tier(
    monkeypatch: pytest.MonkeyPatch, servers: dict[str, Any]
) -> None:
    point_at(monkeypatch, servers)
    settings = Settings()
    assert settings.sources.arxiv.base_url == servers["arxiv"].url
    runtime = SourcesRuntime.from_settings(settings)
    assert runtime is not None
    with runtime:
        assert runtime.names == ("crossref", "openalex", "dblp", "arxiv", "semantic_scholar", "doi")
        found = runtime.lookup(ParsedFields(title=WORKSHOP.title, authors=["A. Lovelace"], year=2022))
    # Tier 1 only knows an unrelated paper sharing words, so tier 2 is asked and has it; doi is never asked.
    assert found.consulted == ("crossref", "openalex", "dblp", "arxiv", "semantic_scholar")
    assert found.unreachable == ()
    best = {r.source: r for r in found.records if r.title == WORKSHOP.title}
    assert set(best) == {"dblp", "arxiv", "semantic_scholar"}
    assert best["arxiv"].arxiv_id == "2203.01234" and best["arxiv"].year == 2022
    assert best["dblp"].authors == WORKSHOP.authors
    assert servers["doi"].count == 0
    assert all(
        servers[name].count == 1 for name in ("crossref", "openalex", "dblp", "arxiv", "semantic_scholar")
    )


def test_a_service_that_is_down_is_reported_unreachable_and_the_others_still_answer(
    monkeypatch: pytest.MonkeyPatch, servers: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    point_at(monkeypatch, servers)
    monkeypatch.setenv("REFHOUND_SOURCES__DBLP__RETRIES", "0")
    monkeypatch.setenv("REFHOUND_SOURCES__SEMANTIC_SCHOLAR__RETRIES", "0")
    servers["dblp"].fail_always(unavailable())
    servers["semantic_scholar"].fail_always(unavailable())
    runtime = SourcesRuntime.from_settings(Settings())
    assert runtime is not None
    with runtime, caplog.at_level(logging.WARNING, logger="refhound.sources.runtime"):
        found = runtime.lookup(ParsedFields(title=WORKSHOP.title))
        runtime.lookup(ParsedFields(title="Another title"))  # the same services again: not logged again
    assert sorted(r.getMessage().split(" (")[0] for r in caplog.records) == [
        "dblp gave no answer",
        "semantic_scholar gave no answer",
    ]
    assert found.unreachable == ("dblp", "semantic_scholar")
    assert [r.source for r in found.records if r.title == WORKSHOP.title] == ["arxiv"]
    problems = {a.source: a.problem for a in found.answers if a.problem}
    assert problems["dblp"] is not None and problems["dblp"].startswith("HTTP 503")


def test_the_doi_tier_answers_a_cited_doi_nobody_else_holds(
    monkeypatch: pytest.MonkeyPatch, servers: dict[str, Any]
) -> None:
    point_at(monkeypatch, servers)
    monkeypatch.setenv("REFHOUND_SOURCES__TIERS", json.dumps([["doi"]]))
    runtime = SourcesRuntime.from_settings(Settings())
    assert runtime is not None
    with runtime:
        found = runtime.lookup(ParsedFields(title=UNRELATED.title, doi="doi:10.1000/PSY.2010.1"))
        missing = runtime.lookup(ParsedFields(title="Made Up", doi="10.1000/made-up"))
    assert [(r.source, r.title, r.year) for r in found.records] == [("doi", UNRELATED.title, 2010)]
    assert missing.records == () and missing.consulted == ("doi",)


# --- the loop thread both runtimes run on -------------------------------------------------------------


def test_a_closed_loop_refuses_work_and_close_cancels_what_runs() -> None:
    loop = LoopThread("test-loop")
    started = threading.Event()

    async def forever() -> None:
        started.set()
        await asyncio.sleep(3600)

    outcome: list[BaseException] = []

    def wait() -> None:
        try:
            loop.run(forever())
        except BaseException as error:  # what the waiting agent thread sees
            outcome.append(error)

    waiter = threading.Thread(target=wait)
    waiter.start()
    assert started.wait(5)
    loop.close()
    waiter.join(5)
    assert not waiter.is_alive()  # never left waiting on a stopped loop
    assert len(outcome) == 1 and isinstance(outcome[0], concurrent.futures.CancelledError)
    with pytest.raises(RuntimeError, match="test-loop is closed"):
        loop.run(asyncio.sleep(0))
    loop.close()  # a second close does nothing


def test_the_loops_own_thread_may_not_wait_for_it() -> None:
    loop = LoopThread("test-loop")

    async def nested() -> str:
        try:
            loop.run(asyncio.sleep(0))
        except RuntimeError as error:
            return str(error)
        return "ran"

    try:
        assert "from the loop's own thread" in loop.run(nested())
    finally:
        loop.close()


@pytest.mark.parametrize(
    "module",
    [
        "refhound.web",
        "refhound.web.providers",
        "refhound.net.hops",
        "refhound.sources",
        "refhound.sources.runtime",
    ],
)
def test_each_module_imports_first(module: str) -> None:
    """`refhound.web` uses the sources' HTTP layer and the sources' runtime uses the web fetcher: neither
    may need the other imported first."""
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
