"""ASGI guards in front of the app: the Host header, cross-origin writes, the body's size cap, the token.

All are plain ASGI middleware (no buffering). `HostCheck` answers only to the names the server is reached
by (a DNS-rebinding page reaches a loopback server under its own name, and is refused). `SameOrigin` refuses
a state-changing request another web origin's page sent (CSRF) unless it carries the token. The size cap
answers 413 from the declared Content-Length before any byte is read, and stops a body without one as soon
as it passes the cap. docs/security.md says who can do what.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(Exception):
    """The request body passed the cap while it was being read."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(too_large_message(max_bytes))
        self.max_bytes = max_bytes


def too_large_message(max_bytes: int, size: int | None = None) -> str:
    """Why a body is refused; with its size when the Content-Length gave it (a streamed one is stopped
    at the cap, its size unknown)."""
    what = "the upload is" + (f" {size / 1024 / 1024:.1f} MB," if size is not None else "")
    return f"{what} larger than this server accepts ({max_bytes / 1024 / 1024:g} MB at most)"


class BodyLimit:
    """Refuses request bodies larger than `max_bytes` with 413."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and not declared.isdigit():
            await JSONResponse({"error": "bad Content-Length"}, 400)(scope, receive, send)
            return
        if declared is not None and int(declared) > self.max_bytes:
            message = too_large_message(self.max_bytes, int(declared))
            await JSONResponse({"error": message}, 413)(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        await self.app(scope, limited, send)


class BearerToken:
    """Every `/api/` request must carry `Authorization: Bearer TOKEN`; the page and its files need none
    (they hold no data: the page asks for the token and sends it with its API calls)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not secrets.compare_digest(given, self.expected):
                error = "missing or wrong token: send Authorization: Bearer TOKEN"
                response = JSONResponse({"error": error}, 401, headers={"WWW-Authenticate": "Bearer"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _host_name(host: str) -> str:
    """The name part of a Host header or an origin's netloc ("[::1]:8000" → "::1"), lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostCheck:
    """Refuses (400) a request whose Host header is not a name this server answers to.

    `names`: the names allowed (any port). `any_address`: also any literal IP address — for a server bound
    to every interface; a rebinding page always arrives under a DNS name, never as an address."""

    def __init__(self, app: ASGIApp, names: Iterable[str], any_address: bool = False) -> None:
        self.app = app
        self.names = frozenset(_host_name(name) for name in names)
        self.any_address = any_address

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            name = _host_name(given)
            if name not in self.names and not (self.any_address and _is_address(name)):
                error = (
                    f"the Host header {given!r} is not a name this server answers to "
                    f"({', '.join(sorted(self.names))}); start it with --allow-host NAME to add one"
                )
                await JSONResponse({"error": error}, 400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SameOrigin:
    """Refuses (403) a POST, PUT, PATCH or DELETE that a page of another web origin sent (its `Origin` or
    `Sec-Fetch-Site` says so), unless it carries the bearer token. Clients that are no browser send
    neither header and are not concerned."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode() if token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _WRITES:
            headers = dict(scope["headers"])
            other = _other_origin(headers)
            given = headers.get(b"authorization", b"")
            tokened = self.expected is not None and secrets.compare_digest(given, self.expected)
            if other is not None and not tokened:
                error = f"refused: a {scope['method']} from another origin ({other}) needs the server's token"
                await JSONResponse({"error": error}, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _other_origin(headers: dict[bytes, bytes]) -> str | None:
    """The foreign origin a browser says sent the request, or None when it is this server's own page."""
    site = headers.get(b"sec-fetch-site", b"").decode("latin-1").lower()
    if site in ("cross-site", "same-site"):
        return headers.get(b"origin", b"").decode("latin-1") or site
    origin = headers.get(b"origin")
    if origin is None:
        return None
    text = origin.decode("latin-1")
    parts = urlsplit(text)
    host = headers.get(b"host", b"").decode("latin-1").lower()
    return None if parts.netloc.lower() == host and parts.scheme in ("http", "https") else text
