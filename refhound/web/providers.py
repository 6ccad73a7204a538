"""Web search providers: one small protocol, four services speaking their own JSON.

Every provider answers `search(query, n)` with at most `n` hits, best first; [] is a definite "nothing
found". A provider that gives no usable answer (network, timeout, 429 after the retries, a refused key,
a body that is not its JSON) raises `refhound.errors.Unreachable`, never returns [], so the web stage can
tell "the web has no such page" from "the search did not answer".

- SearXNG (self-hosted): ``GET {searxng_url}/search?q=…&format=json`` → ``{"results": [{"url", "title",
  "content", …}], "unresponsive_engines": […]}``; a 403 means the instance does not enable the json format.
- Brave Search: ``GET /res/v1/web/search?q=…&count=N`` with ``X-Subscription-Token`` → ``{"web":
  {"results": [{"url", "title", "description"}]}}`` (titles carry ``<strong>`` highlighting).
- Google Programmable Search: ``GET /customsearch/v1?key=…&cx=…&q=…&num=N`` → ``{"items": [{"link",
  "title", "snippet"}]}``; no ``items`` when nothing matched.
- SerpApi: ``GET /search.json?engine=google&q=…&api_key=…&num=N`` → ``{"organic_results": [{"link",
  "title", "snippet"}]}``; "Google hasn't returned any results" comes as an ``error`` with HTTP 200.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from refhound.errors import Unreachable
from refhound.net.http import HttpPool, Policy, ServiceHttp
from refhound.net.json_api import fetch_json, key_refused
from refhound.online import configuration_problem
from refhound.settings import WebSettings

_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class SearchHit:
    """One search result: the page's address, and the title and snippet the provider showed for it."""

    url: str
    title: str = ""
    snippet: str = ""


@runtime_checkable
class SearchProvider(Protocol):
    """A web search service."""

    name: str

    async def search(self, query: str, n: int) -> list[SearchHit]:
        """At most `n` hits, best first; [] when nothing matched. Raises Unreachable."""
        ...


def policy_of(settings: WebSettings) -> Policy:
    return Policy(
        rate_per_s=settings.search_rate_per_s,
        concurrency=2,
        timeout_s=settings.search_timeout_s,
        retries=settings.search_retries,
        backoff_s=0.5,
        max_wait_s=10.0,
        max_bytes=5 * 1024 * 1024,
    )


def provider_from_settings(settings: WebSettings, pool: HttpPool) -> SearchProvider:
    """The configured provider; raises ValueError when `configuration_problem` names something missing."""
    problem = configuration_problem(settings)
    if problem is not None or settings.provider == "none":
        raise ValueError(problem or "no web search provider is configured (web.provider = none)")
    http = pool.service(settings.provider, policy_of(settings))
    builders: dict[str, Callable[[ServiceHttp, WebSettings], SearchProvider]] = {
        "searxng": Searxng,
        "brave": Brave,
        "google": Google,
        "serpapi": SerpApi,
    }
    return builders[settings.provider](http, settings)


class Searxng:
    """A self-hosted SearXNG instance's JSON API (keyless; the instance must allow format=json)."""

    name = "searxng"

    def __init__(self, http: ServiceHttp, settings: WebSettings) -> None:
        self.http = http
        self.base_url = (settings.searxng_url or "").rstrip("/")
        self.categories = settings.searxng_categories

    async def search(self, query: str, n: int) -> list[SearchHit]:
        params = {"q": query, "format": "json", "pageno": "1"}
        if self.categories:
            params["categories"] = self.categories
        try:
            data = await _json(self.http, f"{self.base_url}/search", params)
        except Unreachable as error:
            if "HTTP 403" in error.problem:
                raise Unreachable(
                    self.name,
                    f"{error.problem} (does the instance's settings.yml list json in search.formats?)",
                ) from None
            raise
        results = _list(data, "results")
        unresponsive = data.get("unresponsive_engines")
        if not results and isinstance(unresponsive, list) and unresponsive:
            # The engines SearXNG asked failed (timeouts, CAPTCHAs): that is no answer, not "nothing".
            engines = ", ".join(f"{e[0]}: {e[1]}" for e in unresponsive if isinstance(e, list) and len(e) > 1)
            raise Unreachable(self.name, f"no engine answered ({engines or 'unresponsive engines'})")
        hits = [_hit(r.get("url"), r.get("title"), r.get("content")) for r in results]
        return [hit for hit in hits if hit is not None][:n]


class Brave:
    """Brave Search's web search API."""

    name = "brave"

    def __init__(self, http: ServiceHttp, settings: WebSettings) -> None:
        self.http = http
        self.base_url = settings.brave_base_url.rstrip("/")
        self.key = settings.brave_api_key or ""

    async def search(self, query: str, n: int) -> list[SearchHit]:
        params = {"q": query, "count": str(min(n, 20))}
        headers = {"Accept": "application/json", "X-Subscription-Token": self.key}
        try:
            data = await _json(self.http, f"{self.base_url}/res/v1/web/search", params, headers)
        except Unreachable as error:
            if "SUBSCRIPTION_TOKEN_INVALID" in error.problem:  # Brave's 422 for a token it does not know
                raise Unreachable(
                    self.name, f"the API key was refused (web.brave_api_key): {error.problem}"
                ) from None
            raise key_refused(error, "web.brave_api_key") from None
        web = data.get("web")
        results = _list(web, "results") if isinstance(web, dict) else []
        hits = [_hit(r.get("url"), r.get("title"), r.get("description")) for r in results]
        return [hit for hit in hits if hit is not None][:n]


class Google:
    """Google Programmable Search Engine (the Custom Search JSON API); at most 10 results a request."""

    name = "google"

    def __init__(self, http: ServiceHttp, settings: WebSettings) -> None:
        self.http = http
        self.base_url = settings.google_base_url.rstrip("/")
        self.key = settings.google_api_key or ""
        self.cx = settings.google_cx or ""

    async def search(self, query: str, n: int) -> list[SearchHit]:
        params = {"key": self.key, "cx": self.cx, "q": query, "num": str(min(n, 10))}
        try:
            data = await _json(self.http, f"{self.base_url}/customsearch/v1", params)
        except Unreachable as error:
            # Google answers a key it does not know with HTTP 400 "API key not valid".
            if "API key not valid" in error.problem:
                raise Unreachable(
                    self.name, f"the API key was refused (web.google_api_key): {error.problem}"
                ) from None
            raise key_refused(error, "web.google_api_key / web.google_cx") from None
        hits = [_hit(r.get("link"), r.get("title"), r.get("snippet")) for r in _list(data, "items")]
        return [hit for hit in hits if hit is not None][:n]


class SerpApi:
    """SerpApi's Google engine."""

    name = "serpapi"

    def __init__(self, http: ServiceHttp, settings: WebSettings) -> None:
        self.http = http
        self.base_url = settings.serpapi_base_url.rstrip("/")
        self.key = settings.serpapi_key or ""

    async def search(self, query: str, n: int) -> list[SearchHit]:
        params = {"engine": "google", "q": query, "api_key": self.key, "num": str(n)}
        try:
            data = await _json(self.http, f"{self.base_url}/search.json", params)
        except Unreachable as error:
            raise key_refused(error, "web.serpapi_key") from None
        results = _list(data, "organic_results")
        problem = data.get("error")
        if not results and isinstance(problem, str) and "hasn't returned any results" not in problem:
            raise Unreachable(self.name, problem)
        hits = [_hit(r.get("link"), r.get("title"), r.get("snippet")) for r in results]
        return [hit for hit in hits if hit is not None][:n]


async def _json(
    http: ServiceHttp, url: str, params: dict[str, str], headers: dict[str, str] | None = None
) -> dict[str, Any]:
    """The provider's JSON object; Unreachable for anything else (a 404 included: no search is missing)."""
    data = await fetch_json(http, url, params, _whole, headers=headers)
    if data is None:  # only a recognised 404 is None, and none is recognised here
        raise Unreachable(http.name, "no answer")
    return data


def _whole(data: dict[str, Any]) -> dict[str, Any]:
    return data


def _list(data: object, key: str) -> list[dict[str, Any]]:
    """The objects of a JSON list field; anything else in the field is ignored."""
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def _hit(url: object, title: object, snippet: object) -> SearchHit | None:
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return None
    return SearchHit(url, _text(title), _text(snippet))


def _text(value: object) -> str:
    """Plain text of a provider's title or snippet (Brave highlights words with <strong>)."""
    if not isinstance(value, str):
        return ""
    return " ".join(html.unescape(_TAG.sub("", value)).split())
