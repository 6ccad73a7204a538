"""robots.txt: asked once per site and run, and obeyed as RFC 9309 says.

- 2xx: the rules (Protego, which knows wildcards, `$`, Allow/Disallow precedence and Crawl-delay);
- 4xx (no robots.txt, or it is forbidden): everything may be fetched;
- 5xx, 429 or no answer at all: nothing may be fetched (the site may be overloaded; a crawler must not
  take silence as permission);
- redirects are followed up to five hops.
A Crawl-delay slows the site's requests (up to `max_delay_s`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from urllib.parse import urljoin, urlsplit

from protego import Protego

from refhound.net.hops import REDIRECTS, Answer, NoAnswer

logger = logging.getLogger(__name__)

MAX_ROBOTS_BYTES = 512 * 1024  # Google reads 500 KiB of a robots.txt
_MAX_HOPS = 5

Get = Callable[[str], Awaitable[Answer]]


class _Verdict:
    """One site's rules, or a blanket answer when there are none to read."""

    def __init__(self, rules: Protego | None, allow_all: bool, why: str = "") -> None:
        self.rules = rules
        self.allow_all = allow_all
        self.why = why


class RobotsRules:
    """The robots.txt of every site a run visits, each fetched at most once (concurrent askers wait)."""

    def __init__(
        self,
        get: Get,
        agent: str,
        *,
        max_delay_s: float = 10.0,
        on_delay: Callable[[str, float], None] | None = None,  # (site URL, seconds)
    ) -> None:
        self._get = get
        self.agent = agent
        self.max_delay_s = max_delay_s
        self._on_delay = on_delay
        self._sites: dict[str, asyncio.Task[_Verdict]] = {}

    async def refusal(self, url: str) -> str | None:
        """Why `url` may not be fetched, or None when robots.txt allows it."""
        parts = urlsplit(url)
        site = f"{parts.scheme}://{parts.netloc}"
        task = self._sites.get(site)
        if task is None:
            task = self._sites[site] = asyncio.ensure_future(self._load(site))
        verdict = await asyncio.shield(task)
        if verdict.rules is None:
            return None if verdict.allow_all else f"robots.txt of {parts.netloc} {verdict.why}"
        if verdict.rules.can_fetch(url, self.agent):
            return None
        return f"disallowed by {site}/robots.txt"

    async def _load(self, site: str) -> _Verdict:
        url = f"{site}/robots.txt"
        try:
            for _ in range(_MAX_HOPS + 1):
                answer = await self._get(url)
                if answer.status in REDIRECTS and answer.location:
                    url = urljoin(url, answer.location)
                    continue
                return self._verdict(answer, site)
            return _Verdict(None, True)  # a redirect chain with no end: as if there were no robots.txt
        except NoAnswer as error:
            logger.info("%s/robots.txt gave no answer (%s): not crawling the site", site, error.problem)
            return _Verdict(None, False, f"gave no answer ({error.problem}): not crawled")
        except ValueError as error:
            return _Verdict(None, False, f"cannot be asked ({error})")

    def _verdict(self, answer: Answer, site: str) -> _Verdict:
        status = answer.status
        if 200 <= status < 300:
            text = answer.body.decode("utf-8", "replace")
            try:
                rules = Protego.parse(text)
            except Exception:  # Protego is lenient; anything it still cannot read counts as no rules
                return _Verdict(None, True)
            delay = rules.crawl_delay(self.agent)
            if delay and self._on_delay is not None:
                self._on_delay(site, min(float(delay), self.max_delay_s))
            return _Verdict(rules, True)
        if status == 429 or status >= 500:
            return _Verdict(None, False, f"answered HTTP {status}: not crawled")
        return _Verdict(None, True)  # 4xx and anything else: no rules, everything allowed
