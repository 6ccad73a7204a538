"""The evaluators on the configured OpenAI-compatible server: one request per (statement, evaluator), with
the rubric as the system prompt and the reply constrained to the rubric's JSON schema
(`response_format={"type": "json_schema", ...}` through `refhound.llm.LLMClient`, which validates the reply
and sends an invalid one back once).

Requests run `quotes.evaluate_concurrency` at a time on threads (one shared HTTP client); a request the
server does not answer (timeout, connection error, 5xx, 429) is tried again up to `quotes.evaluate_retries`
times with a short back-off; a refusal (4xx) or a reply that stays invalid is not. Verdicts are cached by
(evaluator, claim, source hash, model, prompt version). A request that fails leaves its evaluator
`not_run`, with the reason: an unanswered question is never a pass.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx

from refhound.errors import LLMError, LLMUnavailable
from refhound.llm import LLMClient
from refhound.quotes.evaluate.cache import VerdictCache, cache_key, cache_path
from refhound.quotes.evaluate.rubrics import REPLIES, rubric
from refhound.settings import Settings

BACKOFF_S = 0.5
NO_ANSWER = "the LLM server did not answer"
MAX_TOKENS = 300


@dataclass(frozen=True)
class Question:
    """One evaluator request: the rubric's name, the claim, and the text the model judges it against."""

    evaluator: str
    claim: str
    source_text: str
    user: str


@dataclass(frozen=True)
class Answer:
    verdict: str
    explanation: str | None
    reason: str | None = None  # why there is no verdict (verdict "not_run")
    cached: bool = False


def not_run(reason: str) -> Answer:
    return Answer("not_run", None, reason)


def _ask(client: LLMClient, question: Question, retries: int, sleep: Callable[[float], None]) -> Answer:
    rubric_ = rubric(question.evaluator)
    schema = REPLIES[question.evaluator]
    for attempt in range(retries + 1):
        try:
            reply = client.complete_json(
                rubric_.text, question.user, schema, question.evaluator, max_tokens=MAX_TOKENS
            )
        except LLMUnavailable as error:
            if attempt == retries or client.breaker.is_open:
                return not_run(f"{NO_ANSWER}: {error}")
            sleep(BACKOFF_S * 2**attempt)
            continue
        except LLMError as error:
            return not_run(f"the LLM gave no usable verdict: {error}")
        data = reply.model_dump()
        return Answer(str(data["verdict"]), str(data["explanation"]))
    return not_run(NO_ANSWER)  # pragma: no cover — the loop always returns


def ask_all(
    questions: list[Question],
    settings: Settings,
    http: httpx.Client | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> list[Answer]:
    """An answer per question, in order: cached ones first, the rest from the server."""
    model = settings.llm.model
    keys = [
        cache_key(q.evaluator, q.claim, q.source_text, model, rubric(q.evaluator).prompt_version)
        for q in questions
    ]
    cache = _open_cache(settings)
    known = cache.get_many(keys) if cache else {}
    answers: list[Answer | None] = [
        Answer(known[key]["verdict"], known[key]["explanation"], cached=True) if key in known else None
        for key in keys
    ]
    missing = [n for n, answer in enumerate(answers) if answer is None]
    if missing:
        with LLMClient(settings.llm, http) as client:
            workers = min(settings.quotes.evaluate_concurrency, len(missing))
            with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="refhound-eval") as pool:
                retries = settings.quotes.evaluate_retries
                fresh = list(pool.map(lambda n: _ask(client, questions[n], retries, sleep), missing))
        for n, answer in zip(missing, fresh, strict=True):
            answers[n] = answer
        if cache:
            new = {
                keys[n]: {"verdict": a.verdict, "explanation": a.explanation or ""}
                for n, a in zip(missing, fresh, strict=True)
                if a.verdict != "not_run"
            }
            cache.put_many(new)
    if cache:
        cache.close()
    return [answer or not_run("not asked") for answer in answers]


def _open_cache(settings: Settings) -> VerdictCache | None:
    try:
        return VerdictCache(cache_path(settings))
    except (OSError, sqlite3.Error):  # a read-only home: run without the cache rather than fail the check
        return None
