"""The address guard: fetches made for a document never reach loopback, private or metadata addresses,
however the URL spells them, after DNS, and on every redirect hop — unless `net.allow` says so."""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refhound.net.fetch import Page, PageFetcher
from refhound.net.guard import address_class
from refhound.net.http import HttpPool, make_client
from refhound.quotes.fetch import SourceFetcher
from refhound.quotes.models import SourceText, Target, Unresolved
from refhound.settings import Settings
from tests.web.servers import SiteServer, html, redirect

SECRET = "<html><head><title>admin</title></head><body>the password is hunter2</body></html>"


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REFHOUND_CONFIG", str(tmp_path / "absent.toml"))


@pytest.fixture()
def site() -> Iterator[SiteServer]:
    with SiteServer() as server:
        server.add("/secret", html(SECRET))
        yield server


@pytest.fixture()
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Names that resolve as the test says (to loopback: the "public" names of a rebinding attacker)."""
    names: dict[str, str] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(host, str) and host in names:
            return real(names[host], port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return names


def settings(*allow: str) -> Settings:
    web = {"rate_per_host": 1000.0, "respect_robots": False}  # robots.txt is one more guarded fetch
    return Settings(check={"offline": False}, web=web, net={"allow": list(allow)})


def fetch_page(config: Settings, url: str) -> Page:
    async def main() -> Page:
        async with make_client(config) as client:
            return await PageFetcher(client, config.web).fetch(url)

    return asyncio.run(main())


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("127.0.0.1", "a loopback address"),
        ("::1", "a loopback address"),
        ("::ffff:127.0.0.1", "a loopback address (127.0.0.1 within IPv6)"),
        ("2002:7f00:1::", "a loopback address (127.0.0.1 within IPv6)"),  # 6to4
        ("64:ff9b::a00:1", "a private address (10.0.0.1 within IPv6)"),  # NAT64
        ("0.0.0.0", "an unspecified address"),
        ("10.1.2.3", "a private address"),
        ("172.16.0.1", "a private address"),
        ("192.168.1.1", "a private address"),
        ("fd12::1", "a private address"),
        ("169.254.169.254", "the cloud metadata address"),
        ("fd00:ec2::254", "the cloud metadata address"),
        ("169.254.1.1", "a link-local address"),
        ("fe80::1", "a link-local address"),
        ("224.0.0.1", "a multicast address"),
        ("ff02::1", "a multicast address"),
        ("240.0.0.1", "a private address"),  # reserved, and listed by Python among the private ones
        ("100.64.0.1", "not a public address"),  # carrier-grade NAT
        ("8.8.8.8", None),
        ("2606:4700::1111", None),
    ],
)
def test_address_classes(address: str, why: str | None) -> None:
    assert address_class(ipaddress.ip_address(address)) == why


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.1", "2130706433", "0x7f.1", "017700000001", "localhost", "[::ffff:127.0.0.1]"]
)
def test_every_spelling_of_loopback_is_refused_before_connecting(site: SiteServer, host: str) -> None:
    port = site.url.rsplit(":", 1)[1]
    page = fetch_page(settings(), f"http://{host}:{port}/secret")
    assert page.html is None and page.unreachable  # "could not check", never an answer
    assert page.problem is not None and page.problem.startswith("refused: ")
    assert re.search(r"127\.0\.0\.1\b.* is a loopback address", page.problem), page.problem
    assert site.paths() == []  # not a byte reached the server


def test_a_closed_port_and_an_open_one_look_the_same(site: SiteServer) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    open_port = int(site.url.rsplit(":", 1)[1])
    answers = {
        fetch_page(settings(), f"http://127.0.0.1:{port}/secret").problem for port in (closed, open_port)
    }
    assert answers == {"refused: 127.0.0.1 is a loopback address; allow it with the setting net.allow"}


def test_a_public_name_resolving_to_loopback_is_refused(site: SiteServer, fake_dns: dict[str, str]) -> None:
    fake_dns["papers.example"] = "127.0.0.1"
    port = site.url.rsplit(":", 1)[1]
    page = fetch_page(settings(), f"http://papers.example:{port}/secret")
    assert page.problem == (
        "refused: papers.example (127.0.0.1) is a loopback address; allow it with the setting net.allow"
    )
    assert site.paths() == []


def test_an_allowed_network_is_reached_at_the_address_judged(
    site: SiteServer, fake_dns: dict[str, str]
) -> None:
    fake_dns["intranet.example"] = "127.0.0.1"
    port = site.url.rsplit(":", 1)[1]
    page = fetch_page(settings("127.0.0.0/8"), f"http://intranet.example:{port}/secret")
    assert page.html is not None and "hunter2" in page.html
    assert site.requests[0].headers["host"] == f"intranet.example:{port}"  # the URL's host, not the IP


def test_a_redirect_to_loopback_is_refused_at_its_hop(site: SiteServer, fake_dns: dict[str, str]) -> None:
    fake_dns["public.example"] = "127.0.0.1"
    port = site.url.rsplit(":", 1)[1]
    site.add("/moved", redirect(f"http://127.0.0.1:{port}/secret"))
    # public.example is allowed by name (it stands for a public site); where it redirects to is not.
    page = fetch_page(settings("public.example"), f"http://public.example:{port}/moved")
    assert page.problem == "refused: 127.0.0.1 is a loopback address; allow it with the setting net.allow"
    assert site.paths() == ["/moved"]


def test_the_quote_checkers_download_refuses_loopback_and_its_redirects(
    site: SiteServer, fake_dns: dict[str, str]
) -> None:
    fake_dns["public.example"] = "127.0.0.1"
    port = site.url.rsplit(":", 1)[1]
    site.add("/moved", redirect(f"http://localhost:{port}/secret"))
    config = settings("public.example")
    config.quotes.retries = 2  # a refusal is not retried

    async def main() -> list[SourceText | Unresolved]:
        pool = HttpPool(make_client(config))
        try:
            fetcher = SourceFetcher(config, pool)
            return [
                await fetcher.get(Target("url", url))
                for url in (f"{site.url}/secret", f"http://public.example:{port}/moved")
            ]
        finally:
            await pool.aclose()

    direct, redirected = asyncio.run(main())
    assert isinstance(direct, Unresolved) and isinstance(redirected, Unresolved)
    assert direct.reason == (
        "cannot be fetched: refused: 127.0.0.1 is a loopback address; allow it with the setting net.allow"
    )
    assert redirected.reason == (
        "cannot be fetched: refused: localhost (127.0.0.1) is a loopback address; "
        "allow it with the setting net.allow"
    )
    assert site.paths() == ["/moved"]


def test_configured_endpoints_are_allowed_but_not_their_neighbours(site: SiteServer) -> None:
    config = settings()
    config.web.respect_robots = True  # robots.txt is refused the same way (and says so)
    config.quotes.doi_resolver_url = site.url + "/doi"  # the operator's choice: allowed
    ok = fetch_page(config, site.url + "/secret")
    assert ok.html is not None
    with SiteServer() as other:
        refused = fetch_page(config, other.url + "/")
        assert refused.problem is not None and "(refused: 127.0.0.1 is a loopback address" in refused.problem
        assert other.paths() == []
