"""A loopback OpenAI-compatible server that answers the quote evaluators' rubrics by a fixed word rule.

It is no model: it reads the rubric's schema name from `response_format` (or the rubric's first words when
the schema is in the prompt), the two `<<< … >>>` blocks of the user message, and answers by word overlap,
numbers and negations — enough to test prompts, schema, retries, caching, concurrency and the timing of
everything around the model. `fail_first` answers that many requests with HTTP 500 first; `invalid_first`
that many with JSON that breaks the schema; `delay_s` stands for the model's own time. Each request's
handling time is summed in `model_seconds`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tests.loopback import LoopbackServer, QuietHandler, Served

_BLOCK = re.compile(r"<<<\n(.*?)\n>>>", re.DOTALL)
_WORD = re.compile(r"[^\W\d_]{4,}")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATION = re.compile(r"\b(?:not|no|never|none|cannot|without)\b|n't\b", re.IGNORECASE)
# A sentence starts where a run of other characters starts: tried at every position inside a run that
# ends at a line break, the pattern costs the square of the line length (a PDF's lines end anywhere).
_SENTENCE = re.compile(r"(?<![^.!?\n])[^.!?\n]+[.!?]")
_STOP = frozenset(
    [
        "that",
        "this",
        "with",
        "from",
        "have",
        "were",
        "which",
        "their",
        "there",
        "these",
        "those",
        "been",
        "also",
        "into",
        "than",
    ]
)


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _STOP


def coverage(claim: str, text: str) -> float:
    return _share(_words(claim), text)


def _share(wanted: set[str], text: str) -> float:
    return len(wanted & _words(text)) / len(wanted) if wanted else 0.0


def _best_sentence(claim: str, text: str) -> tuple[float, str]:
    """The share of the claim's words in the sentence of `text` that has most of them, and that sentence.
    The claim's words are read once, not once per sentence: the rule stands for a model whose own time is
    meant to be ~0 in the benchmarks."""
    wanted = _words(claim)
    return max(((_share(wanted, s), s.strip()) for s in _SENTENCE.findall(text)), default=(0.0, ""))


def _consistent(claim: str, text: str) -> bool:
    numbers_ok = set(_NUMBER.findall(claim)) <= set(_NUMBER.findall(text))
    return numbers_ok and bool(_NEGATION.search(claim)) == bool(_NEGATION.search(text))


def answer(name: str, user: str) -> dict[str, Any]:
    """The rule's reply to one rubric request."""
    blocks = _BLOCK.findall(user)
    first, second = [*blocks, "", ""][:2]
    if name == "entailment":  # premise first, statement second
        share = coverage(second, first)
        if share >= 0.5 and not _consistent(second, first):
            return {"verdict": "contradicted", "explanation": "a number or negation differs"}
        verdict = "entailed" if share >= 0.6 else "neutral"
        return {"verdict": verdict, "explanation": f"{share:.0%} of the statement's words are in the passage"}
    if name == "relevance":
        share = coverage(first, second)
        verdict = "relevant" if share >= 0.3 else "not_relevant"
        return {"verdict": verdict, "explanation": f"{share:.0%} of the claim's words are in the source"}
    if name == "factcheck":
        best, _ = _best_sentence(first, second)
        ok = best >= 0.6 and set(_NUMBER.findall(first)) <= set(_NUMBER.findall(second))
        return {"verdict": "supported" if ok else "not_supported", "explanation": f"best sentence {best:.0%}"}
    if name == "repair":  # statement first, failed quote second, excerpt third
        excerpt = blocks[2] if len(blocks) > 2 else ""
        share, sentence = _best_sentence(first, excerpt)
        if share >= 0.5:
            return {"action": "requote", "quote": sentence, "explanation": "the closest sentence"}
        return {"action": "delete", "quote": "", "explanation": "no sentence supports it"}
    return {"verdict": "unknown", "explanation": "no such rubric"}


@dataclass
class _State:
    fail_first: int = 0
    invalid_first: int = 0
    delay_s: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)
    model_seconds: float = 0.0
    in_flight: int = 0
    peak_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)


def _rubric_name(body: dict[str, Any]) -> str:
    schema = (body.get("response_format") or {}).get("json_schema") or {}
    if schema.get("name"):
        return str(schema["name"])
    system = body["messages"][0]["content"].lower()
    for name in ("entailment", "relevant content", "fact check", "repair"):
        if name in system[:200]:
            return {"relevant content": "relevance", "fact check": "factcheck"}.get(name, name)
    return "unknown"


class _Handler(QuietHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as vLLM's server: no new connection per request
    disable_nagle_algorithm = True  # headers and body are two writes: no delayed-ACK stall between them

    def do_POST(self) -> None:
        began = time.perf_counter()
        state: _State = self.server.state
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        with state.lock:
            state.in_flight += 1
            state.peak_in_flight = max(state.peak_in_flight, state.in_flight)
            state.requests.append(body)
            failing = state.fail_first > 0
            state.fail_first -= failing
            invalid = not failing and state.invalid_first > 0
            state.invalid_first -= invalid
        if state.delay_s:
            state.stopping.wait(state.delay_s)
        if failing:
            payload, status = {"error": {"message": "overloaded", "type": "server_error"}}, 500
        else:
            user = body["messages"][1]["content"]
            reply = {"verdict": "maybe"} if invalid else answer(_rubric_name(body), user)
            message = {"role": "assistant", "content": json.dumps(reply)}
            payload = {"object": "chat.completion", "choices": [{"index": 0, "message": message}]}
            status = 200
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        with state.lock:
            state.in_flight -= 1
            state.model_seconds += time.perf_counter() - began


class RubricLLMServer(Served):
    """The server on 127.0.0.1; `url` is its OpenAI base URL (…/v1)."""

    def __init__(self, *, fail_first: int = 0, invalid_first: int = 0, delay_s: float = 0.0) -> None:
        self.state = _State(fail_first=fail_first, invalid_first=invalid_first, delay_s=delay_s)
        self._server = LoopbackServer(self.state, _Handler, "rubric-llm")
        self.url = self._server.url + "/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        with self.state.lock:
            return list(self.state.requests)
