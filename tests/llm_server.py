"""A real loopback OpenAI-compatible chat-completions server with scripted replies, for tests.

``POST /v1/chat/completions`` answers with the next scripted `Reply` (a completion, an error body as OpenAI
or vLLM send it, garbage, or a slow reply for timeouts) and records each request's JSON body and headers.
A request with nothing scripted gets HTTP 500 and is counted in `unscripted`.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal

from tests.loopback import LoopbackServer, QuietHandler

COMPLETIONS_PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class Reply:
    """One scripted answer: a completion carrying `content`, or `body` sent as is with `status`."""

    content: str | None = None
    status: int = 200
    body: bytes | None = None
    delay_s: float = 0.0
    finish_reason: str = "stop"


def completion(content: str | dict[str, Any] | None, *, delay_s: float = 0.0) -> Reply:
    """A chat completion whose message content is `content` (a dict is sent as its JSON text)."""
    text = json.dumps(content) if isinstance(content, dict) else content
    return Reply(content=text, delay_s=delay_s)


def error(status: int, message: str, style: Literal["openai", "vllm"] = "openai") -> Reply:
    """An error body as OpenAI (``{"error": {...}}``) or older vLLM (``{"object": "error", ...}``) send it."""
    if style == "openai":
        kind = "server_error" if status >= 500 else "invalid_request_error"
        body: dict[str, Any] = {"error": {"message": message, "type": kind, "param": None, "code": None}}
    else:
        kind = "InternalServerError" if status >= 500 else "BadRequestError"
        body = {"object": "error", "message": message, "type": kind, "param": None, "code": status}
    return Reply(status=status, body=json.dumps(body).encode())


def raw_body(body: bytes, status: int = 200) -> Reply:
    """Bytes that are not a chat completion (an HTML error page from a proxy, say)."""
    return Reply(status=status, body=body)


@dataclass
class _State:
    replies: deque[Reply] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    unscripted: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)


class _Handler(QuietHandler):
    def do_POST(self) -> None:
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        data = self.rfile.read(length)
        with state.lock:
            state.paths.append(self.path)
            state.headers.append({k.lower(): v for k, v in self.headers.items()})
            state.requests.append(json.loads(data) if data else {})
            if self.path != COMPLETIONS_PATH:
                reply = error(404, f"no route {self.path}")
            elif state.replies:
                reply = state.replies.popleft()
            else:
                state.unscripted += 1
                reply = error(500, "no scripted reply left")
        if reply.delay_s:
            state.stopping.wait(reply.delay_s)
        self._send(reply, model=str(state.requests[-1].get("model", "")))

    def _send(self, reply: Reply, model: str) -> None:
        body = reply.body
        if body is None:
            body = json.dumps(
                {
                    "id": "chatcmpl-test",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": reply.content},
                            "finish_reason": reply.finish_reason,
                        }
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
                }
            ).encode()
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class FakeLLMServer:
    """The server, listening on 127.0.0.1 on a free port until `close`."""

    def __init__(self) -> None:
        self._state = _State()
        self._server = LoopbackServer(self._state, _Handler, "fake-llm")
        self.url = self._server.url + "/v1"

    def script(self, *replies: Reply | str | dict[str, Any]) -> None:
        """Queue replies; a str or dict is a completion with that content."""
        with self._state.lock:
            for reply in replies:
                self._state.replies.append(reply if isinstance(reply, Reply) else completion(reply))

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The JSON bodies received, in order."""
        with self._state.lock:
            return list(self._state.requests)

    @property
    def headers(self) -> list[dict[str, str]]:
        """Each request's headers, names lower-cased."""
        with self._state.lock:
            return list(self._state.headers)

    @property
    def unscripted(self) -> int:
        return self._state.unscripted

    def close(self) -> None:
        self._server.stop()

    def __enter__(self) -> FakeLLMServer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
