"""Fetch one web page as text, politely: robots.txt, per-host limits, a body cap, each redirect checked.

`PageFetcher` works on any `httpx.AsyncClient` and event loop, so other code (e.g. probing the URL a
reference cites) can use it on its own loop: ``page = await fetcher.fetch(url)`` then
``records_from_html(page.final_url, page.html)``. A fetch never raises: a `Page` says what it got, or
`problem` says why not — and `unreachable` marks the problems that are silence (no answer, 5xx), which
prove nothing about the work, apart from answers (404, not HTML, robots.txt says no).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import urljoin, urlsplit

import httpx

from refhound.net.decode import decode_html, html_type, looks_like_html, mime_type
from refhound.net.hops import REDIRECTS, Answer, HostGates, NoAnswer, get_once
from refhound.net.http import host_of
from refhound.net.robots import MAX_ROBOTS_BYTES, RobotsRules
from refhound.settings import WebSettings


@dataclass(frozen=True)
class Page:
    """What fetching one URL gave."""

    url: str  # as asked
    final_url: str  # after redirects
    status: int | None = None
    content_type: str = ""
    html: str | None = None  # the decoded HTML; None when there is none (see `problem`)
    encoding: str | None = None
    truncated: bool = False  # cut at the body cap
    problem: str | None = None
    unreachable: bool = False  # `problem` is silence (no answer, 5xx, 429), not an answer

    @property
    def host(self) -> str:
        return urlsplit(self.final_url).netloc


def robots_agent(user_agent: str) -> str:
    """The product token robots.txt groups name ("refhound/0.1 (mailto:…)" → "refhound")."""
    return user_agent.split("/", 1)[0].split()[0] if user_agent.strip() else "*"


class PageFetcher:
    """Fetches pages through one shared client; use it on one event loop (the gates and robots cache
    belong to the loop that first used them)."""

    def __init__(self, client: httpx.AsyncClient, settings: WebSettings, *, gates: HostGates | None = None):
        self.client = client
        self.settings = settings
        self.gates = gates or HostGates(settings.rate_per_host, settings.concurrency_per_host)
        agent = robots_agent(client.headers.get("User-Agent", ""))
        self.robots = (
            RobotsRules(self._robots_get, agent, max_delay_s=settings.max_crawl_delay_s, on_delay=self._slow)
            if settings.respect_robots
            else None
        )

    async def allowed(self, url: str) -> str | None:
        """Why robots.txt forbids `url` (None: allowed, or robots.txt not respected)."""
        return await self.robots.refusal(url) if self.robots is not None else None

    async def fetch(self, url: str) -> Page:
        """The page at `url`, following at most `max_redirects` redirects, each hop allowed by robots.txt."""
        chain: list[str] = []
        current = url
        for _ in range(self.settings.max_redirects + 1):
            scheme = urlsplit(current).scheme.lower()
            if scheme not in ("http", "https"):
                return Page(url, current, problem=f"not a web address ({scheme or 'no scheme'}): {current}")
            if current in chain:
                loop = " → ".join([*chain[chain.index(current) :], current])
                return Page(url, current, problem=f"redirect loop: {loop}")
            chain.append(current)
            if refusal := await self.allowed(current):
                return Page(url, current, problem=refusal)
            try:
                answer = await get_once(
                    self.client,
                    self.gates,
                    current,
                    timeout_s=self.settings.crawl_timeout_s,
                    max_bytes=self.settings.max_page_bytes,
                    html_only=True,
                )
            except NoAnswer as error:
                return Page(url, current, problem=error.problem, unreachable=True)
            except ValueError as error:
                return Page(url, current, problem=str(error))
            if answer.status in REDIRECTS and answer.location:
                current = urljoin(current, answer.location)
                continue
            return _page(url, answer)
        return Page(url, current, problem=f"more than {self.settings.max_redirects} redirects")

    async def _robots_get(self, url: str) -> Answer:
        return await get_once(
            self.client, self.gates, url, timeout_s=self.settings.crawl_timeout_s, max_bytes=MAX_ROBOTS_BYTES
        )

    def _slow(self, site: str, delay_s: float) -> None:
        self.gates.slow_down(host_of(httpx.URL(site)), delay_s)


def _page(url: str, answer: Answer) -> Page:
    base = Page(url, answer.url, answer.status, answer.content_type)
    status = answer.status
    if status == 429 or status >= 500:
        return replace(base, problem=f"HTTP {status}", unreachable=True)
    if not 200 <= status < 300:
        return replace(base, problem=f"HTTP {status}")
    kind = html_type(answer.content_type)
    if kind is False or (kind is None and not looks_like_html(answer.body)):
        size = answer.length if answer.length is not None else len(answer.body)
        what = mime_type(answer.content_type) or "no content type"
        return replace(base, problem=f"not an HTML page ({what}, {size} bytes)")
    text, encoding = decode_html(answer.body, answer.content_type)
    return replace(base, html=text, encoding=encoding, truncated=answer.truncated)
