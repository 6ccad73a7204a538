"""The persistent HTTP cache: re-runs and offline runs answer from it, failures never enter it."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from refhound.errors import Unreachable
from refhound.index.store import IndexStore
from refhound.models import ParsedFields, Record, Reference, Verdict
from refhound.net.cache import HttpCache, cache_key
from refhound.net.http import HttpPool, OfflineTransport, Policy, make_client
from refhound.online import cache_only, sources_unavailable
from refhound.settings import Settings
from refhound.sop.runner import check_references
from refhound.sources.crossref import Crossref
from refhound.sources.runtime import SourcesRuntime
from tests.conftest import build_index
from tests.sources.crossref_server import CrossrefServer
from tests.sources.fake_service import page, rate_limited, unavailable
from tests.sources.works import LECUN, RESNET

T = TypeVar("T")
MAILTO = "cache-tests@example.org"
SECRET = "sk-live-0123456789abcdef"
OTHER_SERVICES = ("openalex", "dblp", "arxiv", "semantic_scholar", "doi")
CITATIONS = [
    ParsedFields(
        title="Deep residual learning for image recognition",
        authors=["K. He", "X. Zhang", "S. Ren", "J. Sun"],
        venue="CVPR",
        year=2016,
    ),
    ParsedFields(title="Deep learning", doi="10.1038/NATURE14539", year=2015),
    ParsedFields(doi="10.9999/no-such-work"),  # Crossref's 404: a definite "none"
]


@pytest.fixture()
def server() -> Iterator[CrossrefServer]:
    with CrossrefServer([RESNET, LECUN]) as running:
        yield running


@pytest.fixture()
def cache_path(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "http.sqlite"


def settings_for(
    url: str, cache: Path, *, offline: bool = False, ttl_s: float = 3600.0, **crossref: Any
) -> Settings:
    section = {"base_url": url, "rate_per_s": 1000.0, "retries": 0, "backoff_s": 0.01, **crossref}
    return Settings(
        sources={
            "crossref": section,
            "mailto": MAILTO,
            "tiers": [["crossref"]],
            **{name: {"enabled": False} for name in OTHER_SERVICES},  # nothing leaves the loopback
            "cache": {"enabled": True, "path": cache, "ttl_s": ttl_s},
        },
        check={"offline": offline},
    )


def lookups(settings: Settings) -> list[tuple[tuple[Record, ...], tuple[str, ...]]]:
    """Every citation through a fresh runtime (as a new run would): its records and unreachable services."""
    runtime = SourcesRuntime.from_settings(settings)
    assert runtime is not None
    with runtime:
        found = [runtime.lookup(cited) for cited in CITATIONS]
    return [(f.records, f.unreachable) for f in found]


def with_pool(pool: HttpPool, action: Callable[[Crossref], Awaitable[T]], settings: Settings) -> T:
    async def main() -> T:
        async with pool.client:
            try:
                return await action(Crossref.from_settings(settings, pool))
            finally:
                if pool.cache is not None:
                    pool.cache.close()

    return asyncio.run(main())


def crossref_call(
    settings: Settings, action: Callable[[Crossref], Awaitable[T]], cache: HttpCache | None = None
) -> T:
    pool = HttpPool(make_client(settings), cache)
    return with_pool(pool, action, settings)


# --- the key -------------------------------------------------------------------------------------------


def test_the_key_sorts_parameters_and_keeps_only_what_changes_the_answer() -> None:
    url = httpx.URL("https://api.example.org/works?rows=5&query=deep+learning&mailto=a%40b.org&api_key=k")
    headers = httpx.Headers({"Accept": "application/json", "x-api-key": "k", "User-Agent": "refhound"})
    key = cache_key("get", url, headers)
    assert key == "GET https://api.example.org:443/works?query=deep+learning&rows=5 accept=application/json"
    reordered = httpx.URL("https://api.example.org/works?query=deep+learning&rows=5")
    assert cache_key("GET", reordered, httpx.Headers({"Accept": "application/json"})) == key
    other = cache_key("GET", reordered, httpx.Headers({"Accept": "application/vnd.citationstyles.csl+json"}))
    assert other != key  # content negotiation: another answer


# --- re-runs -------------------------------------------------------------------------------------------


def test_a_rerun_makes_no_request_and_gives_the_same_records(
    server: CrossrefServer, cache_path: Path
) -> None:
    settings = settings_for(server.url, cache_path)
    first = lookups(settings)
    asked = server.count
    assert asked == 3  # a search, a DOI (its title is the cited one: no search), a DOI that is not there
    assert first[0][0][0].title == RESNET.title and first[2] == ((), ())
    assert cache_path.is_file()
    assert lookups(settings) == first
    assert server.count == asked


def test_nothing_is_written_before_the_first_answer(server: CrossrefServer, cache_path: Path) -> None:
    server.fail_always(unavailable())
    assert lookups(settings_for(server.url, cache_path))[0][1] == ("crossref",)
    assert not cache_path.exists() and not cache_path.parent.exists()


def test_a_stale_answer_is_fetched_again(server: CrossrefServer, cache_path: Path) -> None:
    now = [1_000_000.0]
    settings = settings_for(server.url, cache_path, ttl_s=60.0)
    cited = CITATIONS[0]

    def run() -> list[Record]:
        return crossref_call(settings, lambda c: c.lookup(cited), HttpCache(cache_path, 60.0, lambda: now[0]))

    run()
    now[0] += 59.0
    run()
    assert server.count == 1  # fresh
    now[0] += 2.0
    run()
    assert server.count == 2  # stale: asked again, and stored anew
    now[0] += 59.0
    run()
    assert server.count == 2


def test_a_zero_ttl_asks_every_time_but_still_stores(server: CrossrefServer, cache_path: Path) -> None:
    settings = settings_for(server.url, cache_path, ttl_s=0.0)
    lookups(settings)
    lookups(settings)
    assert server.count == 6
    offline = settings_for(server.url, cache_path, ttl_s=0.0, offline=True)
    assert lookups(offline)[0][0][0].title == RESNET.title  # offline uses any age
    assert server.count == 6


# --- what is stored, and what never is ------------------------------------------------------------------


@pytest.mark.parametrize(
    "fault",
    [
        rate_limited(b"Too Many Requests", retry_after="0"),
        unavailable(),
        page(b"<html>Please log in to the hotel Wi-Fi</html>"),
    ],
    ids=["429", "503", "html-200"],
)
def test_a_failure_is_never_cached(server: CrossrefServer, cache_path: Path, fault: Any) -> None:
    settings = settings_for(server.url, cache_path)
    server.fail(fault)
    failed = lookups(settings)
    assert failed[0] == ((), ("crossref",))
    healthy = lookups(settings)
    assert healthy[0][0][0].title == RESNET.title
    asked = server.count
    assert lookups(settings) == healthy
    assert server.count == asked
    with sqlite3.connect(cache_path) as db:
        statuses = {row[0] for row in db.execute("SELECT status FROM answers")}
    assert statuses <= {200, 404}


def test_a_stored_answer_this_client_cannot_read_is_asked_again(
    server: CrossrefServer, cache_path: Path
) -> None:
    online = lookups(settings_for(server.url, cache_path))
    asked = server.count
    with sqlite3.connect(cache_path) as db:  # as a version of refhound that read answers otherwise kept it
        db.execute("UPDATE answers SET body = ? WHERE status = 200", (b"<html>stale portal page</html>",))
    offline = lookups(settings_for(server.url, cache_path, offline=True))
    assert offline[0] == ((), ("crossref",)) and server.count == asked  # offline: no answer, no request
    assert lookups(settings_for(server.url, cache_path)) == online  # online: asked again, and stored
    assert server.count == asked + 2
    assert lookups(settings_for(server.url, cache_path, offline=True)) == online


def test_a_404_is_cached_as_a_definite_none(server: CrossrefServer, cache_path: Path) -> None:
    settings = settings_for(server.url, cache_path)
    cached = HttpCache(cache_path, 3600.0)
    assert crossref_call(settings, lambda c: c.by_doi("10.9999/no-such-work"), cached) is None
    assert (
        crossref_call(settings, lambda c: c.by_doi("10.9999/no-such-work"), HttpCache(cache_path, 3600.0))
        is None
    )
    assert server.count == 1
    with sqlite3.connect(cache_path) as db:
        assert db.execute("SELECT status, body FROM answers").fetchall() == [(404, b"Resource not found.")]


def test_a_404_where_an_answer_was_expected_is_not_cached(server: CrossrefServer, cache_path: Path) -> None:
    settings = settings_for(server.url + "/wrong-root", cache_path)
    for _ in range(2):
        with pytest.raises(Unreachable, match="HTTP 404"):
            crossref_call(settings, lambda c: c.search("Deep learning"), HttpCache(cache_path, 3600.0))
    assert server.count == 2
    assert not cache_path.exists()


def test_no_api_key_or_contact_address_reaches_the_cache_file(
    server: CrossrefServer, cache_path: Path
) -> None:
    settings = settings_for(server.url, cache_path)
    policy = Policy.of(settings.sources.crossref)

    async def ask(pool: HttpPool) -> None:
        http = pool.service("keyed", policy)
        await http.get(
            f"{server.url}/works",
            {"query.bibliographic": "Deep learning", "api_key": SECRET, "mailto": MAILTO},
            headers={"x-api-key": SECRET, "Authorization": f"Bearer {SECRET}", "Accept": "application/json"},
        )

    async def main() -> None:
        async with make_client(settings) as client:
            pool = HttpPool(client, HttpCache(cache_path, 3600.0))
            await ask(pool)
            await ask(pool)  # the same question whatever the key: one request
            assert pool.cache is not None
            pool.cache.close()

    asyncio.run(main())
    assert server.count == 1
    assert server.requests[0].params["api_key"] == SECRET  # it was sent, just not stored
    stored = b"".join(p.read_bytes() for p in cache_path.parent.iterdir())
    assert SECRET.encode() not in stored and MAILTO.encode() not in stored
    assert b"Deep+learning" in stored


# --- offline ------------------------------------------------------------------------------------------


def test_an_offline_rerun_answers_from_the_cache_without_a_request(
    server: CrossrefServer, cache_path: Path
) -> None:
    online = lookups(settings_for(server.url, cache_path))
    asked = server.count
    offline_settings = settings_for(server.url, cache_path, offline=True)
    assert sources_unavailable(offline_settings) is None and cache_only(offline_settings)
    assert lookups(offline_settings) == online
    assert server.count == asked


def test_an_offline_miss_is_unreachable_never_not_found(server: CrossrefServer, cache_path: Path) -> None:
    lookups(settings_for(server.url, cache_path))
    asked = server.count
    settings = settings_for(server.url, cache_path, offline=True)
    runtime = SourcesRuntime.from_settings(settings)
    assert runtime is not None and runtime.offline
    with runtime:
        missed = runtime.lookup(ParsedFields(title="Attention is all you need", doi="10.9999/other-work"))
    assert missed.records == () and missed.unreachable == ("crossref",)
    assert missed.answers[0].problem == "offline: not in the HTTP cache"
    pool = HttpPool(make_client(settings, OfflineTransport()), HttpCache(cache_path, 0.0), offline=True)
    with pytest.raises(Unreachable, match="crossref: offline: not in the HTTP cache"):
        with_pool(pool, lambda c: c.by_doi("10.9999/other-work"), settings)  # not None: no answer
    assert server.count == asked


def test_the_offline_client_refuses_every_request() -> None:
    async def main() -> None:
        async with httpx.AsyncClient(transport=OfflineTransport()) as client:
            await client.get("http://127.0.0.1:9/anything")

    with pytest.raises(httpx.ConnectError, match="offline"):
        asyncio.run(main())


def test_offline_without_a_cache_file_leaves_the_stage_out(server: CrossrefServer, cache_path: Path) -> None:
    settings = settings_for(server.url, cache_path, offline=True)
    assert SourcesRuntime.from_settings(settings) is None
    assert sources_unavailable(settings) == "offline (check.offline is set)"
    lookups(settings_for(server.url, cache_path))  # an online run fills it
    disabled = settings_for(server.url, cache_path, offline=True)
    disabled.sources.cache.enabled = False
    assert SourcesRuntime.from_settings(disabled) is None
    assert not cache_only(disabled)


def test_an_offline_check_reproduces_the_online_verdicts(
    server: CrossrefServer, cache_path: Path, tmp_path: Path
) -> None:
    references = [
        Reference(id=str(i), raw=cited.title or cited.doi or "", parsed=cited)
        for i, cited in enumerate(CITATIONS[:2], start=1)
    ]
    index = build_index(tmp_path / "empty.sqlite", [])

    def check(offline: bool) -> list[tuple[Verdict, str, str]]:
        settings = settings_for(server.url, cache_path, offline=offline)
        settings.memory.enabled = False
        settings.sop.runs_path = tmp_path / "runs.sqlite"
        with IndexStore.open(index) as store:
            results = check_references(references, store, settings)
        return [(r.verdict, r.stage, r.reason) for r in results]

    online = check(offline=False)
    asked = server.count
    assert [v for v, _, _ in online] == [Verdict.VERIFIED, Verdict.VERIFIED]
    assert check(offline=True) == online
    assert server.count == asked


# --- a cache that cannot be used ---------------------------------------------------------------------


def test_a_corrupt_cache_is_reported_once_and_the_lookups_still_work(
    server: CrossrefServer, cache_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache_path.parent.mkdir(parents=True)
    garbage = b"this is not a database, just bytes " * 200
    cache_path.write_bytes(garbage)
    with caplog.at_level(logging.WARNING, logger="refhound.net.cache"):
        found = lookups(settings_for(server.url, cache_path))
    assert found[0][0][0].title == RESNET.title and found[2] == ((), ())
    warnings = [r.getMessage() for r in caplog.records if r.name == "refhound.net.cache"]
    assert len(warnings) == 1 and "cannot be used" in warnings[0] and str(cache_path) in warnings[0]
    assert cache_path.read_bytes() == garbage  # left as it was


def test_a_corrupt_cache_offline_gives_unreachable(
    server: CrossrefServer, cache_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache_path.parent.mkdir(parents=True)
    cache_path.write_bytes(b"\x00garbage" * 100)
    with caplog.at_level(logging.WARNING, logger="refhound.net.cache"):
        found = lookups(settings_for(server.url, cache_path, offline=True))
    assert all(f == ((), ("crossref",)) for f in found)
    assert len([r for r in caplog.records if r.name == "refhound.net.cache"]) == 1
    assert server.count == 0


def test_another_sqlite_file_is_left_alone(
    server: CrossrefServer, cache_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache_path.parent.mkdir(parents=True)
    with sqlite3.connect(cache_path) as db:
        db.execute("CREATE TABLE records (id TEXT)")
    with caplog.at_level(logging.WARNING, logger="refhound.net.cache"):
        assert lookups(settings_for(server.url, cache_path))[0][0][0].title == RESNET.title
    assert "not a refhound HTTP cache" in caplog.text
    with sqlite3.connect(cache_path) as db:
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["records"]
