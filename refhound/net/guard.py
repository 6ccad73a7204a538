"""The one guard on every fetch refhound makes on a document's behalf: no connection to a non-public address.

A manuscript, a reference or a quoted source names URLs that refhound fetches (the quote checker, the
identifiers stage's URL probes, the web crawl and Chromium). On a server, whoever sends the document chooses
them, so without this guard they could read this machine's loopback services or its network's (SSRF).

The check is made where a connection is opened, after DNS resolution: whatever form the URL spells an address
in (`127.1`, `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`, `localhost`, a public name that resolves to
127.0.0.1), the address the socket would reach is judged. Every redirect hop opens its own connection, so it
is judged too. The socket is then connected to the very address judged, so a rebinding DNS server gets no
second look-up to answer differently; TLS still names the URL's host (httpcore sends it as SNI and checks the
certificate against it). A refused address is refused before any packet is sent to it, so an open and a
closed port look the same.

Allowed anyway: the hosts and networks of `net.allow` (a user's intranet), and the endpoints the settings
themselves configure (a service's `base_url`, `web.searxng_url` …): those the operator chose, not a document.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpcore
import httpx

from refhound.settings import Settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

#: Where cloud providers serve instance credentials (AWS, GCP, Azure, …; AWS's IPv6 one).
METADATA = frozenset(ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254"))
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
# The first matching class names the refusal; anything else that is not global is "not public".
_CLASSES = (
    ("is_unspecified", "an unspecified"),
    ("is_loopback", "a loopback"),
    ("is_link_local", "a link-local"),
    ("is_multicast", "a multicast"),
    ("is_private", "a private"),
    ("is_reserved", "a reserved"),
)


class AddressRefused(httpx.ConnectError):
    """A fetch was refused before connecting: its address is not public (the message names it)."""


def address_class(address: IPAddress) -> str | None:
    """Why `address` is not public ("a loopback address"), or None for a public one."""
    if address in METADATA:
        return "the cloud metadata address"
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            inner = address_class(embedded)
            return f"{inner} ({embedded} within IPv6)" if inner else None
    for attribute, label in _CLASSES:
        if getattr(address, attribute):
            return f"{label} address"
    return None if address.is_global else "not a public address"


@dataclass(frozen=True)
class AddressPolicy:
    """Which connections a guarded client may open besides those to public addresses."""

    hosts: frozenset[str] = frozenset()  # names (and literal addresses) allowed whatever they resolve to
    origins: frozenset[tuple[str, int]] = frozenset()  # configured endpoints: (host, port)
    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def of(cls, settings: Settings) -> AddressPolicy:
        """`net.allow`, plus the endpoints `settings` configure."""
        hosts: set[str] = set()
        networks: list[IPNetwork] = []
        for entry in settings.net.allow:
            try:
                networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
            except ValueError:
                hosts.add(entry.lower().rstrip("."))
        return cls(frozenset(hosts), frozenset(_origins(configured_urls(settings))), tuple(networks))

    def allows_host(self, host: str, port: int) -> bool:
        host = host.lower().rstrip(".")
        return host in self.hosts or (host, port) in self.origins

    def refusal(self, host: str, address: IPAddress) -> str | None:
        """Why connecting to `address` (what `host` resolved to) is refused; None when it is allowed."""
        why = address_class(address)
        if why is None or any(address in network for network in self.networks):
            return None
        return f"refused: {_named(host, address)} is {why}; allow it with the setting net.allow"


def _named(host: str, address: IPAddress) -> str:
    """`host` as the URL spelt it, with the address it stands for when that is not the same text."""
    try:
        literal = ipaddress.ip_address(host.strip("[]")) == address
    except ValueError:
        literal = False
    return host.strip("[]") if literal else f"{host} ({address})"


def configured_urls(settings: Settings) -> list[str]:
    """Every endpoint the settings name: the operator's choice, allowed whatever its address."""
    sources = settings.sources
    web = settings.web
    urls = [
        getattr(sources, name).base_url for name in type(sources).model_fields if name not in _NOT_SERVICES
    ]
    urls += [web.searxng_url or "", web.brave_base_url, web.google_base_url, web.serpapi_base_url]
    urls += [settings.quotes.arxiv_pdf_url, settings.quotes.doi_resolver_url, settings.openreview.base_url]
    urls.append(settings.check.arxiv_source_url)
    return [url for url in urls if url]


_NOT_SERVICES = frozenset({"cache", "tiers", "mailto", "user_agent"})


def _origins(urls: Iterable[str]) -> set[tuple[str, int]]:
    found: set[tuple[str, int]] = set()
    for url in urls:
        parts = urlsplit(url)
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            continue
        if parts.hostname:
            found.add((parts.hostname.lower().rstrip("."), port))
    return found


class _Refused(Exception):
    """Raised inside httpcore (which passes it on untouched); the transport turns it into AddressRefused."""


class _GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, resolving each host itself and connecting only to allowed addresses."""

    def __init__(self, policy: AddressPolicy) -> None:
        self.policy = policy
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await _resolve(host, port, timeout)
        # Every answer is judged, not only the first: a name answering one public and one loopback address
        # would otherwise reach loopback whenever the public one does not answer.
        if not self.policy.allows_host(host, port):
            for address in addresses:
                if refusal := self.policy.refusal(host, address):
                    raise _Refused(refusal)
        error: Exception | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    str(address), port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError as failed:
                error = failed
        assert error is not None
        raise error

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise _Refused(f"refused: a Unix socket ({path})")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


async def _resolve(host: str, port: int, timeout: float | None) -> list[IPAddress]:
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(timeout):
            infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except TimeoutError:
        raise httpcore.ConnectTimeout(f"{host} did not resolve within {timeout:g} s") from None
    except (socket.gaierror, UnicodeError) as error:
        raise httpcore.ConnectError(f"{host}: {error}") from error
    # The scope of a link-local IPv6 answer ("fe80::1%eth0") is no part of the address judged.
    found = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    if not found:
        raise httpcore.ConnectError(f"{host}: no address")
    return list(dict.fromkeys(found))


class GuardedTransport(httpx.AsyncBaseTransport):
    """httpx's own transport over the guarded backend. Environment proxies are not used: through a
    proxy, the proxy would resolve and connect, out of the guard's sight."""

    def __init__(self, policy: AddressPolicy, limits: httpx.Limits) -> None:
        self._http = httpx.AsyncHTTPTransport(limits=limits)
        # The same pool httpx builds, over the guarded backend (httpx offers no argument for it).
        self._http._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(),
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=_GuardedBackend(policy),
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await self._http.handle_async_request(request)
        except _Refused as refused:
            raise AddressRefused(str(refused), request=request) from None

    async def aclose(self) -> None:
        await self._http.aclose()
