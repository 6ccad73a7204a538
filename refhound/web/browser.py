"""Chromium, driven by Playwright, for pages that build their metadata with JavaScript.

The browser is Debian's `/usr/bin/chromium` (`web.chromium_path`), launched through `executable_path`:
Playwright's own browser download (`playwright install`) is never used. It starts on the first page
that needs it — most runs never do — is shared by the whole run, and is closed with the run.
If it cannot start (not installed, no usable sandbox), that is logged once and the web stage goes on
with what plain HTTP gave; no page is ever worth failing a run for.

Each page gets a fresh browser context (no cookies or storage carried between sites); images, media
and fonts are not loaded, and a page gets `timeout_s` to load and settle.

Chromium opens no connection of its own: every request it makes (the page, its scripts, their XHRs, each
redirect hop) is intercepted and sent through the run's guarded `httpx` client (`refhound.net.guard`), so a
page cannot lead it to a loopback or private address. It is also pointed at a proxy that does not exist,
loopback included, so whatever escapes interception (WebSockets, preconnects) fails instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from refhound.net.guard import AddressRefused
from refhound.net.hops import HostGates
from refhound.net.http import host_of

if TYPE_CHECKING:
    from playwright.async_api import Browser as PlaywrightBrowser
    from playwright.async_api import Playwright, Route

logger = logging.getLogger(__name__)

CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
# Nothing listens there: a connection the crawl's Chromium makes not through `_route` (a WebSocket, a
# preconnect) fails, loopback included.
NO_DIRECT_CONNECTIONS = ("--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>")
# Headers that describe the body as it travelled, not as httpx hands it over (decoded, whole).
_TRANSFER_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding", "connection"})
_SKIPPED_RESOURCES = frozenset({"image", "media", "font"})
_MAX_RESOURCE_FACTOR = 4  # a script or page Chromium loads may be this many times `max_chars` in bytes
_SETTLE_S = 3.0  # after `load`, how long to wait for scripts' own requests to finish


class BrowserProblem(Exception):
    """A page could not be rendered; `permanent` when the browser itself is unusable for this run."""

    def __init__(self, problem: str, *, permanent: bool = False) -> None:
        super().__init__(problem)
        self.problem = problem
        self.permanent = permanent


class Browser:
    """One lazily started Chromium for the run. Use on one event loop; `close()` when the run ends."""

    def __init__(
        self,
        executable: Path,
        client: httpx.AsyncClient,
        *,
        timeout_s: float,
        max_chars: int,
        user_agent: str | None = None,
        gates: HostGates | None = None,
        pages_at_once: int = 2,
    ) -> None:
        self.executable = executable
        self.client = client
        self.timeout_s = timeout_s
        self.max_chars = max_chars
        self.user_agent = user_agent
        self.gates = gates
        self._slots = asyncio.Semaphore(pages_at_once)
        self._lock = asyncio.Lock()
        self._playwright: Playwright | None = None
        self._browser: PlaywrightBrowser | None = None
        self._failure: str | None = None
        self.pages_rendered = 0

    @property
    def started(self) -> bool:
        return self._browser is not None

    async def render(self, url: str) -> str:
        """The page's HTML after its scripts ran (cut to `max_chars`). Raises BrowserProblem."""
        browser = await self._start()
        async with self._slots:
            if self.gates is not None:
                gate = self.gates.gate(host_of(httpx.URL(url)))
                async with gate.slots:
                    await gate.rate.wait()
                    html = await self._render(browser, url)
            else:
                html = await self._render(browser, url)
        self.pages_rendered += 1
        return html[: self.max_chars]

    async def close(self) -> None:
        """Close Chromium and the Playwright driver, if they were started."""
        async with self._lock:
            browser, playwright = self._browser, self._playwright
            self._browser = self._playwright = None
            if browser is not None:
                try:
                    await browser.close()
                except Exception as error:  # already gone: nothing left to close
                    logger.debug("closing Chromium: %s", error)
            if playwright is not None:
                try:
                    await playwright.stop()
                except Exception as error:
                    logger.debug("stopping Playwright: %s", error)

    async def _start(self) -> PlaywrightBrowser:
        async with self._lock:
            if self._browser is not None:
                return self._browser
            if self._failure is None:
                self._failure = await self._launch()
            if self._browser is not None:
                return self._browser
            raise BrowserProblem(self._failure or "Chromium is not running", permanent=True)

    async def _launch(self) -> str | None:
        """Start Playwright and Chromium; the reason it failed (logged once), or None."""
        if not self.executable.is_file():
            failure = f"no Chromium at {self.executable} (web.chromium_path)"
            logger.warning("%s: pages needing JavaScript are skipped", failure)
            return failure
        try:
            from playwright.async_api import async_playwright

            self._playwright = await async_playwright().start()
            self._browser = await self._playwright.chromium.launch(
                executable_path=str(self.executable),
                args=[*CHROMIUM_ARGS, *NO_DIRECT_CONNECTIONS],
                headless=True,
                timeout=max(self.timeout_s, 30.0) * 1000,
            )
        except Exception as error:
            failure = f"Chromium at {self.executable} could not be started: {_first_line(error)}"
            logger.warning("%s; pages needing JavaScript are skipped", failure)
            if self._playwright is not None:
                await _quietly(self._playwright.stop())
                self._playwright = None
            return failure
        logger.info("started Chromium (%s) for pages built by JavaScript", self.executable)
        return None

    async def _render(self, browser: PlaywrightBrowser, url: str) -> str:
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        timeout_ms = self.timeout_s * 1000
        context = await browser.new_context(
            user_agent=self.user_agent, service_workers="block", accept_downloads=False
        )
        refused: list[str] = []

        async def route(route: Route) -> None:
            await self._route(route, refused)

        try:
            async with asyncio.timeout(self.timeout_s + _SETTLE_S + 5.0):
                await context.route("**/*", route)
                page = await context.new_page()
                page.set_default_timeout(timeout_ms)
                response = await page.goto(url, wait_until="load", timeout=timeout_ms)
                if response is not None and response.status >= 400:
                    raise BrowserProblem(f"HTTP {response.status} in Chromium")
                # A page that keeps polling is read as it stands.
                with contextlib.suppress(PlaywrightTimeout):
                    await page.wait_for_load_state("networkidle", timeout=_SETTLE_S * 1000)
                return await page.content()
        except TimeoutError:
            raise BrowserProblem(f"Chromium did not render the page within {self.timeout_s:g} s") from None
        except PlaywrightError as error:
            raise BrowserProblem(refused[0] if refused else f"Chromium: {_first_line(error)}") from None
        finally:
            await _quietly(context.close())

    async def _route(self, route: Route, refused: list[str]) -> None:
        """Answer one of Chromium's requests through the guarded client (redirects are Chromium's to
        follow: each hop comes back here)."""
        request = route.request
        if request.resource_type in _SKIPPED_RESOURCES:
            await route.abort()
            return
        headers = {k: v for k, v in (await request.all_headers()).items() if not k.startswith(":")}
        headers.pop("host", None)
        outgoing = self.client.build_request(
            request.method,
            request.url,
            headers=headers,
            content=request.post_data_buffer,
            timeout=self.timeout_s,
        )
        try:
            response = await self.client.send(outgoing, stream=True, follow_redirects=False)
            try:
                body = await _capped(response, _MAX_RESOURCE_FACTOR * self.max_chars)
            finally:
                await response.aclose()
        except AddressRefused as error:
            refused.append(str(error))
            await route.abort("addressunreachable")
            return
        except (httpx.HTTPError, _TooLarge):
            await route.abort("failed")
            return
        kept = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in _TRANSFER_HEADERS]
        await route.fulfill(status=response.status_code, headers=dict(kept), body=body)


class _TooLarge(Exception):
    pass


async def _capped(response: httpx.Response, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise _TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


async def _quietly(closing: Any) -> None:
    try:
        await closing
    except Exception as error:
        logger.debug("closing: %s", error)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
