"""The four search providers against a loopback server speaking their wire formats, errors included."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from refhound.errors import Unreachable
from refhound.net.http import HttpPool, make_client
from refhound.online import configuration_problem, web_unavailable
from refhound.settings import Settings
from refhound.web.providers import SearchHit, SearchProvider, provider_from_settings
from tests.web.conftest import KEYS, web_settings
from tests.web.servers import (
    BRAVE_RATE_LIMITED,
    Route,
    SearchServer,
    hit,
    json_route,
)

HITS = [
    hit(
        "https://arxiv.org/abs/1706.03762", "Attention Is All You Need", "The dominant sequence transduction…"
    ),
    hit("https://aclanthology.org/N19-1423/", "BERT: Pre-training of Deep Bidirectional Transformers", "We…"),
    hit("https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17.html", "dblp: Attention is All you Need.", ""),
]


def settings_for(server: SearchServer, provider: str, **overrides: Any) -> Settings:
    fields: dict[str, Any] = {
        "searxng": {"searxng_url": server.url},
        "brave": {"brave_api_key": KEYS["brave"], "brave_base_url": server.url},
        "google": {"google_api_key": KEYS["google"], "google_cx": KEYS["cx"], "google_base_url": server.url},
        "serpapi": {"serpapi_key": KEYS["serpapi"], "serpapi_base_url": server.url},
    }[provider]
    return web_settings(provider=provider, **{**fields, **overrides})


def run_search(
    settings: Settings, query: str = "Attention Is All You Need Vaswani", n: int = 5
) -> list[SearchHit]:
    async def main() -> list[SearchHit]:
        pool = HttpPool(make_client(settings))
        try:
            provider: SearchProvider = provider_from_settings(settings.web, pool)
            assert isinstance(provider, SearchProvider)
            return await provider.search(query, n)
        finally:
            await pool.aclose()

    return asyncio.run(main())


@pytest.mark.parametrize("provider", ["searxng", "brave", "google", "serpapi"])
def test_each_provider_reads_its_results(search: SearchServer, provider: str) -> None:
    search.set_hits(*HITS)
    hits = search_with(search, provider)
    assert [h.url for h in hits] == [h["url"] for h in HITS]
    assert hits[0].title == "Attention Is All You Need"  # Brave's <strong> highlighting removed
    assert hits[0].snippet == "The dominant sequence transduction…"


def search_with(server: SearchServer, provider: str, **overrides: Any) -> list[SearchHit]:
    return run_search(settings_for(server, provider, **overrides))


@pytest.mark.parametrize("provider", ["searxng", "brave", "google", "serpapi"])
def test_nothing_found_is_an_empty_list(search: SearchServer, provider: str) -> None:
    assert search_with(search, provider) == []


def test_the_request_each_provider_sends(search: SearchServer) -> None:
    for provider in ("searxng", "brave", "google", "serpapi"):
        search_with(search, provider)
    searxng, brave, google, serpapi = search.requests
    assert (searxng.path, searxng.params["format"], searxng.params["q"]) == (
        "/search",
        "json",
        "Attention Is All You Need Vaswani",
    )
    assert (brave.path, brave.headers["x-subscription-token"], brave.params["count"]) == (
        "/res/v1/web/search",
        "brave-token",
        "5",
    )
    assert (google.path, google.params["key"], google.params["cx"], google.params["num"]) == (
        "/customsearch/v1",
        "google-key",
        "engine-1",
        "5",
    )
    assert (serpapi.path, serpapi.params["engine"], serpapi.params["api_key"]) == (
        "/search.json",
        "google",
        "serp-key",
    )


def test_at_most_n_hits(search: SearchServer) -> None:
    search.set_hits(*HITS)
    assert len(run_search(settings_for(search, "searxng"), n=2)) == 2


@pytest.mark.parametrize(
    ("provider", "wrong", "setting"),
    [
        ("brave", {"brave_api_key": "stale"}, "web.brave_api_key"),
        ("google", {"google_api_key": "stale"}, "web.google_api_key"),
        ("serpapi", {"serpapi_key": "stale"}, "web.serpapi_key"),
    ],
)
def test_a_refused_key_names_its_setting(
    search: SearchServer, provider: str, wrong: dict[str, str], setting: str
) -> None:
    with pytest.raises(Unreachable) as caught:
        search_with(search, provider, **wrong)
    message = str(caught.value)
    assert message.startswith(f"{provider}: the API key was refused ({setting}")
    assert len(search.requests) == 1  # a refused key is not retried


def test_searxng_without_the_json_format_says_how_to_enable_it(search: SearchServer) -> None:
    search.fail(Route(b"<html><body><h1>Forbidden</h1></body></html>", 403, "text/html"))
    with pytest.raises(Unreachable, match=r"HTTP 403.*search\.formats"):
        search_with(search, "searxng")


def test_a_429_is_retried_after_the_time_it_asks(search: SearchServer) -> None:
    search.set_hits(*HITS)
    search.fail(json_route(BRAVE_RATE_LIMITED, 429, retry_after="0.3"))
    started = time.monotonic()
    hits = search_with(search, "brave")
    assert len(hits) == 3
    assert time.monotonic() - started >= 0.25
    assert len(search.requests) == 2


def test_429_until_the_retries_are_spent_is_unreachable(search: SearchServer) -> None:
    search.fail_always(json_route(BRAVE_RATE_LIMITED, 429, retry_after="0"))
    with pytest.raises(Unreachable, match=r"brave: HTTP 429.*RATE_LIMITED.*after 2 attempts"):
        search_with(search, "brave")


@pytest.mark.parametrize(
    "fault",
    [
        Route(b"<html><body>Captive portal: please log in</body></html>", 200, "text/html"),
        Route(b'{"results": [', 200, "application/json"),
        Route(b"[1, 2, 3]", 200, "application/json"),
        Route(b"<html><h1>502 Bad Gateway</h1></html>", 502, "text/html"),
    ],
)
def test_an_unusable_answer_is_unreachable_never_an_empty_result(search: SearchServer, fault: Route) -> None:
    search.fail_always(fault)
    with pytest.raises(Unreachable):
        search_with(search, "searxng")


def test_searxng_whose_engines_all_failed_is_unreachable(search: SearchServer) -> None:
    search.fail(json_route({"query": "q", "results": [], "unresponsive_engines": [["google", "timeout"]]}))
    with pytest.raises(Unreachable, match=r"no engine answered \(google: timeout\)"):
        search_with(search, "searxng")


def test_serpapi_other_errors_are_unreachable(search: SearchServer) -> None:
    search.fail(json_route({"error": "Your account has run out of searches."}))
    with pytest.raises(Unreachable, match="run out of searches"):
        search_with(search, "serpapi")


def test_malformed_results_are_skipped(search: SearchServer) -> None:
    good = {"url": "https://example.org/a", "title": "A &amp; B", "content": None}
    search.fail(json_route({"results": [good, {"title": "no url"}, "junk", {"url": "javascript:alert(1)"}]}))
    assert search_with(search, "searxng") == [SearchHit("https://example.org/a", "A & B", "")]


@pytest.mark.parametrize(
    ("web", "message"),
    [
        ({"provider": "searxng"}, "web.searxng_url is not set"),
        ({"provider": "brave"}, "web.brave_api_key is not set"),
        ({"provider": "google", "google_cx": "x"}, "web.google_api_key is not set"),
        ({"provider": "google"}, "web.google_api_key and web.google_cx are not set"),
        ({"provider": "serpapi"}, "web.serpapi_key is not set"),
    ],
)
def test_a_missing_key_or_url_is_named(web: dict[str, str], message: str) -> None:
    settings = Settings(web=web, check={"offline": False})
    problem = configuration_problem(settings.web)
    assert problem is not None and problem.startswith(message)
    assert web_unavailable(settings) == problem
    with pytest.raises(ValueError, match=message):
        provider_from_settings(settings.web, HttpPool(make_client(settings)))


def test_no_provider_or_offline_is_a_reason_too() -> None:
    assert web_unavailable(Settings(check={"offline": False})) == (
        "no web search provider is configured (web.provider = none)"
    )
    offline = Settings(
        web={"provider": "searxng", "searxng_url": "http://127.0.0.1:9"}, check={"offline": True}
    )
    assert web_unavailable(offline) == "offline (check.offline is set)"


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFHOUND_WEB__PROVIDER", "searxng")
    monkeypatch.setenv("REFHOUND_WEB__SEARXNG_URL", "http://127.0.0.1:8888")
    monkeypatch.setenv("REFHOUND_WEB__CRAWL_BUDGET_PAGES", "3")
    monkeypatch.setenv("REFHOUND_WEB__USE_BROWSER", "never")
    web = Settings().web
    assert (web.provider, web.searxng_url, web.crawl_budget_pages, web.use_browser) == (
        "searxng",
        "http://127.0.0.1:8888",
        3,
        "never",
    )
    assert str(web.chromium_path) == "/usr/bin/chromium"
