"""The HTTP server under the fake services of the tests: on 127.0.0.1, a free port, served in a thread."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self


class LoopbackServer(ThreadingHTTPServer):
    """Serves `handler` (which reads `self.server.state`) until `stop`; `url` is its root."""

    # Handler threads are joined on stop (they wake from a delay when `state.stopping` is set).
    daemon_threads = False
    block_on_close = True

    def __init__(self, state: Any, handler: type[BaseHTTPRequestHandler], name: str) -> None:
        self.state = state
        super().__init__(("127.0.0.1", 0), handler)
        # A short poll interval: `stop` waits for one.
        self._thread = threading.Thread(target=self.serve_forever, args=(0.02,), name=name, daemon=True)
        self._thread.start()
        host, port = self.server_address[:2]
        self.url = f"http://{host!s}:{port}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out and hung up is expected here

    def stop(self) -> None:
        self.state.stopping.set()
        self.shutdown()
        self.server_close()
        self._thread.join()


class QuietHandler(BaseHTTPRequestHandler):
    server: LoopbackServer

    def log_message(self, format: str, *args: Any) -> None:
        pass


class Served:
    """A fake service on its `LoopbackServer`: `close` (or leaving a `with` block) stops the server."""

    _server: LoopbackServer

    def close(self) -> None:
        self._server.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
