"""Fixtures of the web tests: loopback servers, settings pointing at them, and a fetcher on a fresh loop."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from refhound.net.fetch import PageFetcher
from refhound.net.http import make_client
from refhound.settings import Settings
from tests.web.servers import SearchServer, SiteServer

T = TypeVar("T")
KEYS = {"brave": "brave-token", "google": "google-key", "cx": "engine-1", "serpapi": "serp-key"}


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REFHOUND_CONFIG", str(tmp_path / "absent.toml"))


@pytest.fixture()
def site() -> Iterator[SiteServer]:
    with SiteServer() as server:
        yield server


@pytest.fixture()
def search() -> Iterator[SearchServer]:
    with SearchServer(keys=KEYS) as server:
        yield server


def web_settings(**web: Any) -> Settings:
    """Online settings for the web stage, fast enough for tests (no politeness delays); the fake sites are
    on loopback, which the address guard refuses unless allowed."""
    section = {
        "provider": "searxng",
        "searxng_url": "http://127.0.0.1:9",
        "rate_per_host": 1000.0,
        "search_rate_per_s": 1000.0,
        "search_retries": 1,
        "crawl_timeout_s": 5.0,
        "search_timeout_s": 5.0,
        **web,
    }
    return Settings(web=section, check={"offline": False}, net={"allow": ["127.0.0.1"]})


def run_with_fetcher(
    settings: Settings, work: Callable[[PageFetcher], Awaitable[T]], client: httpx.AsyncClient | None = None
) -> T:
    """Run `work` with a fetcher on a fresh event loop and client (closed afterwards)."""

    async def main() -> T:
        async with client or make_client(settings) as opened:
            return await work(PageFetcher(opened, settings.web))

    return asyncio.run(main())
