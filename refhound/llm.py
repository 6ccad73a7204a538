"""A synchronous client for an OpenAI-compatible chat-completions server (vLLM in production).

One call, `LLMClient.complete_json`: a system and a user message in, a validated pydantic model out.

- Structured output: ``json_schema`` sends ``response_format={"type": "json_schema", "json_schema": {...}}``
  (vLLM ≥ 0.12 and OpenAI constrain decoding to the schema); ``prompt`` puts the schema in the system
  prompt for servers without constrained decoding, and strips Markdown fences from the reply.
- Every string in a schema must have a ``maxLength``: a model's reply is untrusted input, and an unbounded
  field is where a runaway generation or an injected instruction ends up.
- A reply that is not valid for the schema is sent back with the problem, up to ``max_retries`` more times,
  then `LLMInvalidReply`. No answer at all (timeout, connection error, HTTP 5xx/408/429, a body that is not
  a chat completion) is `LLMUnavailable`, never retried here; HTTP 4xx is `LLMRejected`.
- A circuit breaker: after a few consecutive unavailable failures the client stops calling for a while, so
  a dead server costs one timeout per cool-down, not one per reference.
- A guard like pydantic-ai's ``ALLOW_MODEL_REQUESTS``: with ``REFHOUND_ALLOW_MODEL_REQUESTS=0`` (the test
  suite sets it) only servers on this machine may be called.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from functools import lru_cache
from types import TracebackType
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from refhound.errors import LLMError, LLMInvalidReply, LLMRejected, LLMRequestsBlocked, LLMUnavailable
from refhound.net.breaker import CircuitBreaker
from refhound.settings import LLMSettings

M = TypeVar("M", bound=BaseModel)

ALLOW_MODEL_REQUESTS_ENV = "REFHOUND_ALLOW_MODEL_REQUESTS"
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what OpenAI accepts as a json_schema name
_FENCED = re.compile(r"\s*```[\w-]*[ \t]*\n?(.*?)\n?\s*```\s*", re.DOTALL)
_UNAVAILABLE_STATUS = frozenset({408, 429})  # 4xx codes that mean "not now", not "bad request"
_ECHO_CHARS = 2000  # of a bad reply, shown back to the model with the problem
_MESSAGE_CHARS = 300  # of a server's error message, quoted in ours


# --- the model-request guard ----------------------------------------------------------------------------


def model_requests_allowed() -> bool:
    """False when ``REFHOUND_ALLOW_MODEL_REQUESTS=0``: then only loopback servers may be called."""
    return os.environ.get(ALLOW_MODEL_REQUESTS_ENV, "1").strip() != "0"


def is_loopback(url: str) -> bool:
    """Whether the URL's host is this machine: ``localhost`` or a loopback address (127.0.0.0/8, ::1)."""
    try:
        host = httpx.URL(url).host
    except httpx.InvalidURL:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_model_request(url: str) -> None:
    """Raise `LLMRequestsBlocked` when the guard is on and the URL is not on this machine."""
    if not model_requests_allowed() and not is_loopback(url):
        raise LLMRequestsBlocked(
            f"refusing to call {url}: {ALLOW_MODEL_REQUESTS_ENV}=0 allows only servers on 127.0.0.1, "
            "localhost or ::1"
        )


# --- schemas and replies --------------------------------------------------------------------------------


def unbounded_strings(schema: Any, path: str = "#") -> list[str]:
    """JSON pointers of the string schemas in `schema` without ``maxLength`` (an enum or const is bounded)."""
    found: list[str] = []
    if isinstance(schema, dict):
        kind = schema.get("type")
        is_string = kind == "string" or (isinstance(kind, list) and "string" in kind)
        if is_string and not {"maxLength", "enum", "const"} & schema.keys():
            found.append(path)
        for key, value in schema.items():
            found.extend(unbounded_strings(value, f"{path}/{key}"))
    elif isinstance(schema, list):
        for position, value in enumerate(schema):
            found.extend(unbounded_strings(value, f"{path}/{position}"))
    return found


@lru_cache(maxsize=64)
def reply_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema sent for `model`; ValueError when a string in it has no maximum length."""
    schema = model.model_json_schema()
    unbounded = unbounded_strings(schema)
    if unbounded:
        raise ValueError(f"{model.__name__}: strings without maxLength at {', '.join(unbounded)}")
    return schema


def strip_fences(text: str) -> str:
    """The JSON inside a Markdown code fence (```json … ```), or the text itself, trimmed."""
    match = _FENCED.fullmatch(text)
    return (match.group(1) if match else text).strip()


def _describe(error: ValidationError) -> str:
    problems = [
        f"{'.'.join(str(part) for part in e['loc']) or 'reply'}: {e['msg']}" for e in error.errors()[:5]
    ]
    more = error.error_count() - len(problems)
    return "; ".join(problems) + (f"; and {more} more" if more > 0 else "")


def _server_message(response: httpx.Response) -> str:
    """The message of an OpenAI (``{"error": {"message"}}``) or vLLM (``{"message"}``) error body."""
    try:
        body = response.json()
    except ValueError:
        body = None
    message: Any = None
    if isinstance(body, dict):
        error = body.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        message = message or body.get("message") or body.get("detail")
    text = str(message) if message else (response.text.strip() or response.reason_phrase)
    text = " ".join(text.split())
    return text if len(text) <= _MESSAGE_CHARS else text[: _MESSAGE_CHARS - 1] + "…"


def _content(response: httpx.Response) -> str | None:
    """The assistant's text in a chat completion (None when it has none); ValueError if it is not one."""
    try:
        body = response.json()
        content = body["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as error:
        raise ValueError("the reply is not a chat completion") from error
    if content is not None and not isinstance(content, str):
        raise ValueError("the reply's message content is not text")
    return content


# --- the client -----------------------------------------------------------------------------------------


class LLMClient:
    """Chat completions with validated JSON replies. Use one client per run: the breaker lives in it.

    `http` is used as given (tests pass one with a transport); without it the client builds its own and
    closes it in `close`. The URL, timeout and API key always come from `settings`.
    """

    def __init__(
        self,
        settings: LLMSettings,
        http: httpx.Client | None = None,
        *,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        if not settings.base_url:
            raise LLMError("no server configured (set llm.base_url)")
        if not settings.base_url.startswith(("http://", "https://")):
            raise LLMError(f"llm.base_url must be an http(s) URL, not {settings.base_url!r}")
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self._endpoint = httpx.URL(self.url)  # parsed once: httpx parses a str URL again on every request
        self.breaker = breaker or CircuitBreaker()
        self._owns_http = http is None
        self._http = http or httpx.Client(timeout=settings.timeout_s)
        self._headers = {"Authorization": f"Bearer {settings.api_key}"} if settings.api_key else {}

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def complete_json(
        self, system: str, user: str, schema: type[M], name: str, *, max_tokens: int | None = None
    ) -> M:
        """The model's reply to `system` + `user`, validated as `schema` (`name` labels it on the wire).

        Raises `LLMInvalidReply` after ``1 + max_retries`` replies that do not validate, `LLMUnavailable`
        when the server gives no answer, `LLMRejected` on HTTP 4xx, `LLMRequestsBlocked` under the guard.
        ValueError (a programming error) for a bad `name` or a schema with an unbounded string.
        """
        if not _NAME.fullmatch(name):
            raise ValueError(f"schema name must match {_NAME.pattern}: {name!r}")
        json_schema = reply_schema(schema)
        if self.settings.structured_output == "prompt":
            system = (
                f"{system}\n\nReply with one JSON object and nothing else: no prose, no code fences. "
                f"It must be valid against this JSON schema:\n{json.dumps(json_schema, ensure_ascii=False)}"
            )
        messages: list[dict[str, str]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        attempts = 1 + self.settings.max_retries
        problem = ""
        for _ in range(attempts):
            content = self._chat(messages, json_schema, name, max_tokens)
            if content is None:
                problem = "the reply has no content"
                content = ""
            else:
                try:
                    return schema.model_validate_json(strip_fences(content))
                except ValidationError as error:
                    problem = _describe(error)
            # Say what was wrong: at temperature 0 the same request would get the same reply.
            messages = [
                *messages,
                {"role": "assistant", "content": content[:_ECHO_CHARS]},
                {"role": "user", "content": f"That reply is not valid: {problem}. Reply with the JSON only."},
            ]
        raise LLMInvalidReply(name, attempts, problem)

    def _chat(
        self, messages: list[dict[str, str]], json_schema: dict[str, Any], name: str, max_tokens: int | None
    ) -> str | None:
        """One request; the reply's content, or the exception that says why there is none."""
        check_model_request(self.url)
        if refusal := self.breaker.refusal():
            raise LLMUnavailable(refusal)
        payload: dict[str, Any] = {"model": self.settings.model, "messages": messages, "temperature": 0}
        if self.settings.structured_output == "json_schema":
            payload["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": json_schema, "strict": True},
            }
        if max_tokens is not None:
            payload["max_tokens"] = max_tokens
        try:
            response = self._http.post(
                self._endpoint, json=payload, headers=self._headers, timeout=self.settings.timeout_s
            )
        except httpx.TimeoutException as error:
            problem = f"no reply from {self.url} within {self.settings.timeout_s:g}s"
            raise self._unavailable(problem) from error
        except httpx.RequestError as error:
            problem = f"cannot reach {self.url}: {str(error) or type(error).__name__}"
            raise self._unavailable(problem) from error
        status = response.status_code
        if status >= 500 or status in _UNAVAILABLE_STATUS:
            raise self._unavailable(f"HTTP {status} from {self.url}: {_server_message(response)}")
        if status >= 400:
            self.breaker.record_answer()  # the server is up; the request is what it refuses
            raise LLMRejected(status, _server_message(response))
        try:
            content = _content(response)
        except ValueError as error:
            raise self._unavailable(f"{error} (from {self.url})") from error
        self.breaker.record_answer()
        return content

    def _unavailable(self, problem: str) -> LLMUnavailable:
        self.breaker.record_failure()
        return LLMUnavailable(problem)


def client_from_settings(settings: LLMSettings) -> LLMClient | None:
    """A client for the configured server, or None when ``llm.base_url`` is unset (no LLM is used)."""
    return LLMClient(settings) if settings.base_url else None
