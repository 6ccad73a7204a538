"""A loopback server publishing dump files as dblp, the ACL Anthology and arXiv do: GET with `Range`
support, ETag and Last-Modified, and scripted faults — a connection cut after N bytes, an HTML page in
place of the dump, a 503, a wrong checksum file.

Files are served from memory (`files`: URL path → bytes), so tests publish the real samples of `../shared`
without copying them into the repository.
"""

from __future__ import annotations

import hashlib
import threading
from collections import deque
from dataclasses import dataclass

from tests.loopback import LoopbackServer, QuietHandler, Served


@dataclass(frozen=True)
class Fault:
    """In place of one answer: `cut_after` bytes of the real body then a closed connection (Content-Length
    declared in full), or a whole other answer (`status`, `body`, `content_type`)."""

    cut_after: int | None = None
    status: int = 200
    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"


def cut(after: int) -> Fault:
    return Fault(cut_after=after)


def html_page(status: int = 200) -> Fault:
    return Fault(status=status, body=b"<!DOCTYPE html><html><body><h1>Sign in</h1></body></html>")


class _Handler(QuietHandler):
    def do_GET(self) -> None:
        server: DumpServer = self.server.state
        path = self.path.split("?", 1)[0]
        fault, body = server.arrived(path, self.headers.get("Range"))
        if fault is not None and fault.cut_after is None:
            self._send(fault.status, fault.body, fault.content_type)
            return
        if body is None:
            self._send(404, b"<html><body>404 Not Found</body></html>", "text/html")
            return
        etag = '"' + hashlib.md5(body, usedforsecurity=False).hexdigest() + '"'
        if self.headers.get("If-None-Match") == etag:
            self._send(304, b"", server.content_type)
            return
        start = 0
        wanted = self.headers.get("Range")
        if wanted and server.ranges and wanted.startswith("bytes="):
            start = int(wanted.removeprefix("bytes=").split("-")[0])
            if start >= len(body):
                self._send(416, b"", "text/plain", {"Content-Range": f"bytes */{len(body)}"})
                return
        part = body[start:]
        status = 206 if start else 200
        self.send_response(status)
        self.send_header("Content-Type", server.content_type)
        self.send_header("Content-Length", str(len(part)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", server.last_modified)
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        self.end_headers()
        if fault is not None and fault.cut_after is not None:
            self.wfile.write(part[: fault.cut_after])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(part)

    def _send(
        self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


class DumpServer(Served):
    """Serves `files` at `url`; `fail(path, *faults)` queues faults for that path's next requests."""

    def __init__(self, files: dict[str, bytes], *, ranges: bool = True) -> None:
        self.files = dict(files)
        self.ranges = ranges
        self.content_type = "application/octet-stream"
        self.last_modified = "Thu, 01 May 2025 00:00:00 GMT"
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.faults: dict[str, deque[Fault]] = {}
        self.log: list[tuple[str, str | None]] = []
        self._server = LoopbackServer(self, _Handler, "dump-server")
        self.url = self._server.url

    def fail(self, path: str, *faults: Fault) -> None:
        with self.lock:
            self.faults.setdefault(path, deque()).extend(faults)

    def arrived(self, path: str, range_header: str | None) -> tuple[Fault | None, bytes | None]:
        with self.lock:
            self.log.append((path, range_header))
            queued = self.faults.get(path)
            fault = queued.popleft() if queued else None
            return fault, self.files.get(path)
