"""ASGI guards in front of the app: the request body's size cap, and the bearer token.

Both are plain ASGI middleware (no buffering): the size cap answers 413 from the declared Content-Length
before any byte is read, and stops a body without one as soon as it passes the cap.
"""

from __future__ import annotations

import secrets

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(Exception):
    """The request body passed the cap while it was being read."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(too_large_message(max_bytes))
        self.max_bytes = max_bytes


def too_large_message(max_bytes: int) -> str:
    return f"the upload is larger than this server accepts ({max_bytes / 1024 / 1024:g} MB at most)"


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
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            message = too_large_message(self.max_bytes) if declared.isdigit() else "bad Content-Length"
            await JSONResponse({"error": message}, 413 if declared.isdigit() else 400)(scope, receive, send)
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
