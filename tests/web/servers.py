"""Loopback servers for the web stage's tests: a web site, and the four search providers' APIs.

`SiteServer` serves scripted pages (any status, headers, body; bodies streamed without a length; delays)
and logs every request, so tests can assert what was — and was not — fetched.

`SearchServer` speaks each provider's real wire format on its real path, and their errors:
- SearXNG ``GET /search?q=&format=json`` (a 403 HTML page when the format is not json, as an instance
  without json in ``search.formats`` answers);
- Brave ``GET /res/v1/web/search`` (``X-Subscription-Token``; 401 ``SUBSCRIPTION_TOKEN_INVALID``; 429
  ``RATE_LIMITED``);
- Google ``GET /customsearch/v1?key=&cx=&q=`` (400 "API key not valid"; no ``items`` when nothing matched);
- SerpApi ``GET /search.json?engine=google&q=&api_key=`` (401 "Invalid API key"; 200 with an ``error``
  when Google returned nothing).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.loopback import LoopbackServer, QuietHandler


@dataclass(frozen=True)
class Route:
    """One scripted answer. `stream` bytes of filler follow `body`, sent without a Content-Length."""

    body: bytes = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()
    stream: int = 0
    delay_s: float = 0.0


def html(text: str, status: int = 200, content_type: str = "text/html; charset=utf-8") -> Route:
    return Route(text.encode("utf-8"), status, content_type)


def redirect(location: str, status: int = 302) -> Route:
    return Route(b"", status, "text/html", (("Location", location),))


@dataclass(frozen=True)
class Request:
    path: str
    params: dict[str, str]
    headers: dict[str, str]
    at: float


@dataclass
class _State:
    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    streamed: dict[str, int] = field(default_factory=dict)  # bytes of filler sent, per path
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)
    # The search server's
    hits: list[dict[str, str]] = field(default_factory=list)
    faults: deque[Route] = field(default_factory=deque)
    always: Route | None = None
    keys: dict[str, str] = field(default_factory=dict)


class _Logged(QuietHandler):
    def _log(self) -> tuple[str, dict[str, str]]:
        url = urlsplit(self.path)
        params = {k: v[-1] for k, v in parse_qs(url.query).items()}
        state = self.server.state
        with state.lock:
            state.requests.append(
                Request(url.path, params, {k.lower(): v for k, v in self.headers.items()}, time.monotonic())
            )
        return url.path, params

    def _send(self, route: Route) -> None:
        state = self.server.state
        if route.delay_s:
            state.stopping.wait(route.delay_s)
        self.send_response(route.status)
        self.send_header("Content-Type", route.content_type)
        for name, value in route.headers:
            self.send_header(name, value)
        if route.stream:
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(route.body)
            self._stream(route.stream)
            return
        self.send_header("Content-Length", str(len(route.body)))
        self.end_headers()
        self.wfile.write(route.body)

    def _stream(self, size: int) -> None:
        chunk = b"<p>" + b"filler " * 2000 + b"</p>\n"
        sent = 0
        path = urlsplit(self.path).path
        try:
            while sent < size and not self.server.state.stopping.is_set():
                self.wfile.write(chunk)
                sent += len(chunk)
        except OSError:
            pass  # the client stopped reading: that is the point
        finally:
            with self.server.state.lock:
                self.server.state.streamed[path] = sent


class _SiteHandler(_Logged):
    def do_GET(self) -> None:
        path, _ = self._log()
        with self.server.state.lock:
            route = self.server.state.routes.get(path)
        self._send(route or Route(b"<html><body>Not Found</body></html>", 404))


class SiteServer:
    """A web site on 127.0.0.1 serving `routes` (path → Route); unknown paths are 404."""

    def __init__(self, routes: dict[str, Route] | None = None) -> None:
        self._state = _State(routes=dict(routes or {}))
        self._server = LoopbackServer(self._state, _SiteHandler, "fake-site")
        self.url = self._server.url

    def add(self, path: str, route: Route) -> str:
        with self._state.lock:
            self._state.routes[path] = route
        return self.url + path

    def paths(self) -> list[str]:
        with self._state.lock:
            return [r.path for r in self._state.requests]

    @property
    def requests(self) -> list[Request]:
        with self._state.lock:
            return list(self._state.requests)

    def streamed(self, path: str) -> int:
        with self._state.lock:
            return self._state.streamed.get(path, 0)

    def close(self) -> None:
        self._server.stop()

    def __enter__(self) -> SiteServer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


# --- search providers ----------------------------------------------------------------------------------

SEARXNG_FORBIDDEN = b"""<!DOCTYPE html>
<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1>
<p>You don't have the permission to access the requested resource.</p></body></html>"""
BRAVE_BAD_TOKEN = {
    "error": {
        "id": "a3b1f7c0-6d34-4f7b-9f32-0d2a6e6f1b7e",
        "status": 401,
        "code": "SUBSCRIPTION_TOKEN_INVALID",
        "detail": "The provided subscription token is invalid.",
        "meta": {"component": "authentication"},
    },
    "type": "ErrorResponse",
    "time": 1718000000,
}
BRAVE_RATE_LIMITED = {
    "error": {
        "id": "7f0c2b1e-3c8d-4e55-a1f6-1e2d3c4b5a69",
        "status": 429,
        "code": "RATE_LIMITED",
        "detail": "Request rate limit exceeded for plan.",
        "meta": {
            "plan": "Free",
            "rate_limit": 1,
            "rate_current": 2,
            "quota_limit": 2000,
            "quota_current": 17,
        },
    },
    "type": "ErrorResponse",
    "time": 1718000000,
}
GOOGLE_BAD_KEY = {
    "error": {
        "code": 400,
        "message": "API key not valid. Please pass a valid API key.",
        "errors": [{"message": "API key not valid. Please pass a valid API key.", "domain": "global",
                    "reason": "badRequest"}],
        "status": "INVALID_ARGUMENT",
        "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                     "domain": "googleapis.com", "metadata": {"service": "customsearch.googleapis.com"}}],
    }
}  # fmt: skip
SERPAPI_BAD_KEY = {
    "error": "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key"
}


def json_route(data: Any, status: int = 200, *, retry_after: str | None = None) -> Route:
    headers = (("Retry-After", retry_after),) if retry_after else ()
    return Route(json.dumps(data).encode(), status, "application/json; charset=utf-8", headers)


class _SearchHandler(_Logged):
    def do_GET(self) -> None:
        path, params = self._log()
        state = self.server.state
        with state.lock:
            fault = state.faults.popleft() if state.faults else state.always
            hits = list(state.hits)
            keys = dict(state.keys)
        if fault is not None:
            self._send(fault)
        elif path == "/search":
            if params.get("format") != "json":
                self._send(Route(SEARXNG_FORBIDDEN, 403, "text/html; charset=utf-8"))
            else:
                self._send(json_route(_searxng(params.get("q", ""), hits)))
        elif path == "/res/v1/web/search":
            if self.headers.get("X-Subscription-Token") != keys.get("brave"):
                self._send(json_route(BRAVE_BAD_TOKEN, 401))
            else:
                self._send(json_route(_brave(params.get("q", ""), hits[: int(params.get("count", "20"))])))
        elif path == "/customsearch/v1":
            if params.get("key") != keys.get("google") or params.get("cx") != keys.get("cx"):
                self._send(json_route(GOOGLE_BAD_KEY, 400))
            else:
                self._send(json_route(_google(params.get("q", ""), hits[: int(params.get("num", "10"))])))
        elif path == "/search.json":
            if params.get("api_key") != keys.get("serpapi"):
                self._send(json_route(SERPAPI_BAD_KEY, 401))
            else:
                self._send(json_route(_serpapi(params.get("q", ""), hits)))
        else:
            self._send(Route(b"Not Found", 404, "text/plain"))


def _searxng(query: str, hits: list[dict[str, str]]) -> dict[str, Any]:
    results = []
    for position, hit in enumerate(hits, start=1):
        parsed = urlsplit(hit["url"])
        results.append(
            {
                "url": hit["url"],
                "title": hit["title"],
                "content": hit.get("snippet", ""),
                "engine": "duckduckgo",
                "parsed_url": [parsed.scheme, parsed.netloc, parsed.path, "", parsed.query, ""],
                "template": "default.html",
                "engines": ["duckduckgo", "brave"],
                "positions": [position],
                "score": 2.0 / position,
                "category": "general",
            }
        )
    return {
        "query": query,
        "number_of_results": 0,
        "results": results,
        "answers": [],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [],
        "unresponsive_engines": [],
    }


def _brave(query: str, hits: list[dict[str, str]]) -> dict[str, Any]:
    results = [
        {
            "title": hit["title"].replace(query.split()[0], f"<strong>{query.split()[0]}</strong>", 1)
            if query.split()
            else hit["title"],
            "url": hit["url"],
            "is_source_local": False,
            "is_source_both": False,
            "description": hit.get("snippet", ""),
            "profile": {"name": urlsplit(hit["url"]).netloc, "url": hit["url"], "long_name": "", "img": ""},
            "language": "en",
            "family_friendly": True,
            "type": "search_result",
            "subtype": "generic",
            "meta_url": {"scheme": "http", "netloc": urlsplit(hit["url"]).netloc, "path": "› paper"},
        }
        for hit in hits
    ]
    return {
        "query": {"original": query, "show_strict_warning": False, "is_navigational": False},
        "mixed": {
            "type": "mixed",
            "main": [{"type": "web", "index": i, "all": False} for i in range(len(hits))],
        },
        "type": "search",
        "web": {"type": "search", "results": results, "family_friendly": True},
    }


def _google(query: str, hits: list[dict[str, str]]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": "customsearch#search",
        "url": {"type": "application/json", "template": "https://www.googleapis.com/customsearch/v1?q={searchTerms}"},
        "queries": {"request": [{"title": "Google Custom Search - " + query, "totalResults": str(len(hits)),
                                 "searchTerms": query, "count": len(hits), "startIndex": 1}]},
        "context": {"title": "refhound"},
        "searchInformation": {"searchTime": 0.21, "formattedSearchTime": "0.21",
                              "totalResults": str(len(hits)), "formattedTotalResults": str(len(hits))},
    }  # fmt: skip
    if hits:
        data["items"] = [
            {
                "kind": "customsearch#result",
                "title": hit["title"],
                "htmlTitle": f"<b>{hit['title']}</b>",
                "link": hit["url"],
                "displayLink": urlsplit(hit["url"]).netloc,
                "snippet": hit.get("snippet", ""),
                "htmlSnippet": hit.get("snippet", ""),
                "formattedUrl": hit["url"],
                "pagemap": {"metatags": [{"citation_title": hit["title"]}]},
            }
            for hit in hits
        ]
    return data


def _serpapi(query: str, hits: list[dict[str, str]]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "search_metadata": {"id": "6661f0c2e2b1a3b4c5d6e7f8", "status": "Success",
                            "json_endpoint": "https://serpapi.com/searches/x.json", "total_time_taken": 1.2},
        "search_parameters": {"engine": "google", "q": query, "google_domain": "google.com",
                              "device": "desktop"},
    }  # fmt: skip
    if not hits:
        data["search_information"] = {"organic_results_state": "Fully empty", "query_displayed": query}
        data["error"] = "Google hasn't returned any results for this query."
        return data
    data["search_information"] = {
        "organic_results_state": "Results for exact spelling",
        "total_results": len(hits),
    }
    data["organic_results"] = [
        {"position": i, "title": hit["title"], "link": hit["url"], "displayed_link": hit["url"],
         "snippet": hit.get("snippet", ""), "source": urlsplit(hit["url"]).netloc}
        for i, hit in enumerate(hits, start=1)
    ]  # fmt: skip
    return data


class SearchServer:
    """All four providers on one loopback server; every query gets the scripted `hits`."""

    def __init__(
        self, hits: list[dict[str, str]] | None = None, *, keys: dict[str, str] | None = None
    ) -> None:
        self._state = _State(hits=list(hits or []), keys=dict(keys or {}))
        self._server = LoopbackServer(self._state, _SearchHandler, "fake-search")
        self.url = self._server.url

    def set_hits(self, *hits: dict[str, str]) -> None:
        with self._state.lock:
            self._state.hits = list(hits)

    def fail(self, *faults: Route) -> None:
        """Serve these in place of the next answers, one per request."""
        with self._state.lock:
            self._state.faults.extend(faults)

    def fail_always(self, fault: Route | None) -> None:
        with self._state.lock:
            self._state.always = fault

    @property
    def requests(self) -> list[Request]:
        with self._state.lock:
            return list(self._state.requests)

    def close(self) -> None:
        self._server.stop()

    def __enter__(self) -> SearchServer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def hit(url: str, title: str, snippet: str = "") -> dict[str, str]:
    return {"url": url, "title": title, "snippet": snippet}
