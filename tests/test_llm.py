"""The LLM client against a real loopback OpenAI-compatible server: wire format, retries, failures, guard."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, ConfigDict, Field

from refhound.errors import (
    LLMError,
    LLMInvalidReply,
    LLMRejected,
    LLMRequestsBlocked,
    LLMUnavailable,
    RefhoundError,
)
from refhound.llm import (
    ALLOW_MODEL_REQUESTS_ENV,
    LLMClient,
    client_from_settings,
    is_loopback,
    model_requests_allowed,
    strip_fences,
    unbounded_strings,
)
from refhound.net.breaker import CircuitBreaker
from refhound.settings import LLMSettings
from tests.llm_server import FakeLLMServer, completion, error, raw_body


class Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str = Field(max_length=20)
    score: int


class Unbounded(BaseModel):
    note: str


GOOD = {"label": "verified", "score": 3}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def settings(server: FakeLLMServer, **changes: Any) -> LLMSettings:
    values: dict[str, Any] = {
        "base_url": server.url,
        "model": "judge-test",
        "timeout_s": 5.0,
        "max_retries": 1,
    }
    return LLMSettings(**(values | changes))


@pytest.fixture()
def client(llm_server: FakeLLMServer) -> Iterator[LLMClient]:
    with LLMClient(settings(llm_server, api_key="sekrit")) as opened:
        yield opened


def ask(client: LLMClient) -> Verdict:
    return client.complete_json("You judge.", "Judge this.", Verdict, "verdict")


# --- the wire format ------------------------------------------------------------------------------------


def test_json_schema_request_shape(llm_server: FakeLLMServer, client: LLMClient) -> None:
    llm_server.script(GOOD)
    assert ask(client) == Verdict(label="verified", score=3)
    (body,) = llm_server.requests
    assert body["model"] == "judge-test"
    assert body["temperature"] == 0
    assert body["messages"] == [
        {"role": "system", "content": "You judge."},
        {"role": "user", "content": "Judge this."},
    ]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "verdict", "schema": Verdict.model_json_schema(), "strict": True},
    }
    assert body["response_format"]["json_schema"]["schema"]["properties"]["label"]["maxLength"] == 20
    assert llm_server.headers[0]["authorization"] == "Bearer sekrit"


def test_max_tokens_is_sent_when_given(llm_server: FakeLLMServer, client: LLMClient) -> None:
    llm_server.script(GOOD)
    client.complete_json("s", "u", Verdict, "verdict", max_tokens=256)
    assert llm_server.requests[0]["max_tokens"] == 256


def test_prompt_mode_puts_the_schema_in_the_system_prompt(llm_server: FakeLLMServer) -> None:
    llm_server.script("```json\n" + json.dumps(GOOD) + "\n```")
    with LLMClient(settings(llm_server, structured_output="prompt")) as client:
        assert ask(client) == Verdict(**GOOD)
    (body,) = llm_server.requests
    assert "response_format" not in body
    system = body["messages"][0]["content"]
    assert system.startswith("You judge.")
    assert "JSON" in system
    assert json.dumps(Verdict.model_json_schema(), ensure_ascii=False) in system
    assert "authorization" not in llm_server.headers[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('```json\n{"a": 1}\n```', '{"a": 1}'),
        ('```\n{"a": 1}```', '{"a": 1}'),
        ('  {"a": 1}\n', '{"a": 1}'),
        ('```JSON {"a": 1} ```', '{"a": 1}'),
    ],
)
def test_strip_fences(text: str, expected: str) -> None:
    assert strip_fences(text) == expected


# --- invalid replies ------------------------------------------------------------------------------------


def test_malformed_reply_is_retried_with_the_problem(llm_server: FakeLLMServer, client: LLMClient) -> None:
    llm_server.script('{"label": "verified", "score": ', GOOD)
    assert ask(client) == Verdict(**GOOD)
    first, second = llm_server.requests
    assert len(second["messages"]) == 4
    assert second["messages"][:2] == first["messages"]
    assert second["messages"][2] == {"role": "assistant", "content": '{"label": "verified", "score": '}
    assert second["messages"][3]["role"] == "user"
    assert "not valid" in second["messages"][3]["content"]


def test_malformed_twice_is_an_invalid_reply(llm_server: FakeLLMServer, client: LLMClient) -> None:
    llm_server.script("not json at all", {"label": "verified"})
    with pytest.raises(LLMInvalidReply) as raised:
        ask(client)
    assert len(llm_server.requests) == 2
    assert raised.value.attempts == 2
    assert "score" in str(raised.value)  # the last problem: a missing field
    assert isinstance(raised.value, LLMError) and isinstance(raised.value, RefhoundError)


def test_schema_violation_is_invalid(llm_server: FakeLLMServer) -> None:
    llm_server.script({"label": "x" * 21, "score": 1})
    with LLMClient(settings(llm_server, max_retries=0)) as client, pytest.raises(LLMInvalidReply) as raised:
        ask(client)
    assert "label" in str(raised.value)
    assert len(llm_server.requests) == 1


def test_extra_keys_are_invalid(llm_server: FakeLLMServer) -> None:
    llm_server.script(GOOD | {"confidence": 0.9})
    with LLMClient(settings(llm_server, max_retries=0)) as client, pytest.raises(LLMInvalidReply):
        ask(client)


def test_no_content_is_invalid(llm_server: FakeLLMServer, client: LLMClient) -> None:
    llm_server.script(completion(None), GOOD)
    assert ask(client) == Verdict(**GOOD)
    assert len(llm_server.requests) == 2


# --- no answer ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("style", ["openai", "vllm"])
def test_server_error_is_unavailable(llm_server: FakeLLMServer, client: LLMClient, style: str) -> None:
    llm_server.script(error(500, "CUDA out of memory", style))  # type: ignore[arg-type]
    with pytest.raises(LLMUnavailable, match=r"HTTP 500.*CUDA out of memory"):
        ask(client)
    assert len(llm_server.requests) == 1  # unavailable is not retried


@pytest.mark.parametrize("status", [408, 429, 502, 503])
def test_not_now_statuses_are_unavailable(llm_server: FakeLLMServer, client: LLMClient, status: int) -> None:
    llm_server.script(error(status, "busy"))
    with pytest.raises(LLMUnavailable, match=f"HTTP {status}"):
        ask(client)


@pytest.mark.parametrize("style", ["openai", "vllm"])
def test_client_error_carries_the_server_message(
    llm_server: FakeLLMServer, client: LLMClient, style: str
) -> None:
    message = "This model's maximum context length is 4096 tokens."
    llm_server.script(error(400, message, style))  # type: ignore[arg-type]
    with pytest.raises(LLMRejected) as raised:
        ask(client)
    assert raised.value.status_code == 400
    assert raised.value.server_message == message
    assert message in str(raised.value)
    assert not isinstance(raised.value, LLMUnavailable)


def test_timeout_is_unavailable(llm_server: FakeLLMServer) -> None:
    llm_server.script(completion(GOOD, delay_s=5.0))
    with (
        LLMClient(settings(llm_server, timeout_s=0.2)) as client,
        pytest.raises(LLMUnavailable, match=r"within 0\.2s"),
    ):
        ask(client)


def test_connection_refused_is_unavailable() -> None:
    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with (
        LLMClient(LLMSettings(base_url=f"http://127.0.0.1:{port}/v1")) as client,
        pytest.raises(LLMUnavailable, match="cannot reach"),
    ):
        ask(client)


def test_a_body_that_is_not_a_completion_is_unavailable(llm_server: FakeLLMServer, client: LLMClient) -> None:
    llm_server.script(raw_body(b"<html>502 Bad Gateway</html>"), raw_body(b'{"choices": []}'))
    for _ in range(2):
        with pytest.raises(LLMUnavailable, match="not a chat completion"):
            ask(client)


# --- the circuit breaker --------------------------------------------------------------------------------


def test_circuit_breaker_opens_skips_calls_and_closes_again(llm_server: FakeLLMServer) -> None:
    clock = Clock()
    breaker = CircuitBreaker(threshold=3, cooldown_s=60.0, clock=clock)
    llm_server.script(*[error(500, "down")] * 3)
    with LLMClient(settings(llm_server), breaker=breaker) as client:
        for _ in range(3):
            with pytest.raises(LLMUnavailable, match="HTTP 500"):
                ask(client)
        assert breaker.is_open
        with pytest.raises(LLMUnavailable, match="circuit breaker open"):
            ask(client)
        assert len(llm_server.requests) == 3  # the fourth call never reached the server

        clock.now += 61
        llm_server.script(GOOD)
        assert ask(client) == Verdict(**GOOD)
        assert not breaker.is_open
        assert len(llm_server.requests) == 4


def test_one_failure_after_the_cool_down_reopens(llm_server: FakeLLMServer) -> None:
    clock = Clock()
    breaker = CircuitBreaker(threshold=2, cooldown_s=10.0, clock=clock)
    llm_server.script(*[error(503, "down")] * 3)
    with LLMClient(settings(llm_server), breaker=breaker) as client:
        for _ in range(2):
            with pytest.raises(LLMUnavailable):
                ask(client)
        clock.now += 11
        with pytest.raises(LLMUnavailable, match="HTTP 503"):
            ask(client)
        with pytest.raises(LLMUnavailable, match="circuit breaker open"):
            ask(client)
    assert len(llm_server.requests) == 3


def test_answers_reset_the_failure_count(llm_server: FakeLLMServer) -> None:
    breaker = CircuitBreaker(threshold=2, clock=Clock())
    llm_server.script(error(500, "x"), GOOD, error(500, "x"), error(400, "bad"), error(500, "x"))
    with LLMClient(settings(llm_server), breaker=breaker) as client:
        for expected in (LLMUnavailable, None, LLMUnavailable, LLMRejected, LLMUnavailable):
            if expected is None:
                ask(client)
            else:
                with pytest.raises(expected):
                    ask(client)
    assert not breaker.is_open


def test_invalid_replies_do_not_trip_the_breaker(llm_server: FakeLLMServer) -> None:
    breaker = CircuitBreaker(threshold=1, clock=Clock())
    llm_server.script("nope")
    with (
        LLMClient(settings(llm_server, max_retries=0), breaker=breaker) as client,
        pytest.raises(LLMInvalidReply),
    ):
        ask(client)
    assert not breaker.is_open


# --- the guard ------------------------------------------------------------------------------------------


def _recording_http(calls: list[httpx.Request]) -> httpx.Client:
    def handle(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(200, json={"choices": [{"message": {"content": json.dumps(GOOD)}}]})

    return httpx.Client(transport=httpx.MockTransport(handle))


def test_the_suite_blocks_model_requests() -> None:
    assert not model_requests_allowed()


def test_guard_refuses_a_remote_server() -> None:
    calls: list[httpx.Request] = []
    with _recording_http(calls) as http:
        client = LLMClient(LLMSettings(base_url="https://llm.example.org/v1"), http)
        with pytest.raises(LLMRequestsBlocked, match=f"{ALLOW_MODEL_REQUESTS_ENV}=0"):
            ask(client)
    assert calls == []


@pytest.mark.allow_model_requests
def test_marked_tests_may_call_any_server() -> None:
    assert model_requests_allowed()
    calls: list[httpx.Request] = []
    with _recording_http(calls) as http:
        client = LLMClient(LLMSettings(base_url="https://llm.example.org/v1", model="m"), http)
        assert ask(client) == Verdict(**GOOD)
    assert [str(call.url) for call in calls] == ["https://llm.example.org/v1/chat/completions"]


def test_guard_switch_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ALLOW_MODEL_REQUESTS_ENV, "1")
    assert model_requests_allowed()
    monkeypatch.delenv(ALLOW_MODEL_REQUESTS_ENV)
    assert model_requests_allowed()  # allowed unless switched off


@pytest.mark.parametrize(
    ("url", "loopback"),
    [
        ("http://127.0.0.1:8000/v1", True),
        ("http://127.1.2.3/v1", True),
        ("http://localhost:8000/v1", True),
        ("http://LOCALHOST/v1", True),
        ("http://[::1]:8000/v1", True),
        ("http://10.0.0.5:8000/v1", False),
        ("http://localhost.example.org/v1", False),
        ("https://api.openai.com/v1", False),
        ("not a url", False),
    ],
)
def test_is_loopback(url: str, loopback: bool) -> None:
    assert is_loopback(url) is loopback


# --- misuse ---------------------------------------------------------------------------------------------


def test_schemas_with_unbounded_strings_are_refused(llm_server: FakeLLMServer, client: LLMClient) -> None:
    assert unbounded_strings(Unbounded.model_json_schema()) == ["#/properties/note"]
    assert unbounded_strings(Verdict.model_json_schema()) == []
    with pytest.raises(ValueError, match="maxLength"):
        client.complete_json("s", "u", Unbounded, "unbounded")
    assert llm_server.requests == []


def test_bad_schema_names_are_refused(client: LLMClient) -> None:
    with pytest.raises(ValueError, match="name"):
        client.complete_json("s", "u", Verdict, "has spaces")


def test_settings_without_a_server() -> None:
    assert client_from_settings(LLMSettings()) is None
    with pytest.raises(LLMError, match="base_url"):
        LLMClient(LLMSettings())
    with pytest.raises(LLMError, match="http"):
        LLMClient(LLMSettings(base_url="localhost:8000/v1"))
