"""Does the cited source say it? The evaluators (`--evaluate entailment,relevance,factcheck`), the
deterministic evidence beside them, and the confidence of each statement and of the document.

For each quote: the statement it is cited for (a triple's, or the writer's words around the quote —
`statements`), the evaluators' verdicts on the configured LLM (`llm`), the best-supporting passage of its
source with the topical similarity and the claim's unsupported guarded words (`evidence`), and the
confidence (`confidence`). Nothing here changes a quote's status.

What each evaluator is shown:

- entailment: the quote (premise) and the statement (hypothesis) — the gate against a quote that is in the
  source but does not support the claim attached to it;
- relevance and factcheck: the statement (the quote when there is none) and the source cut to
  `EXCERPT_CHARS` (5,000) characters around where the quote was located, else around the best-supporting
  passage, else the source's start.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import httpx

from refhound.quotes.evaluate.cache import cache_path
from refhound.quotes.evaluate.confidence import document_confidence, is_located, statement_confidence
from refhound.quotes.evaluate.evidence import Embedder, SourceIndex, Support, best_supports, index_source
from refhound.quotes.evaluate.llm import Answer, Question, ask_all, not_run
from refhound.quotes.evaluate.rubrics import EVALUATORS, EvaluatorName, rubric
from refhound.quotes.evaluate.statements import statement_of
from refhound.quotes.models import QuoteResult, SourceText
from refhound.quotes.report import QuoteReport
from refhound.settings import Settings

__all__ = ["EVALUATORS", "EvaluatorName", "evaluate_report", "parse_evaluators"]

EXCERPT_CHARS = 5000
NO_LLM = "no LLM server configured (set llm.base_url or pass --llm-url)"


def parse_evaluators(value: str) -> list[EvaluatorName]:
    """'entailment,relevance' → the names in canonical order; 'all' → every one. ValueError if unknown."""
    names = {part.strip().lower() for part in value.split(",") if part.strip()}
    if "all" in names:
        return list(EVALUATORS)
    unknown = names - set(EVALUATORS)
    if unknown or not names:
        raise ValueError(
            f"unknown evaluator(s) {', '.join(sorted(unknown)) or '(none)'}; choose from "
            f"{', '.join(EVALUATORS)} or all"
        )
    return [name for name in EVALUATORS if name in names]


def _sources(report: QuoteReport) -> dict[str, SourceText]:
    return {
        state.resolved.locator: state.resolved
        for state in report.citations
        if isinstance(state.resolved, SourceText)
    }


def excerpt(text: str, center: int | None) -> tuple[int, str]:
    """At most `EXCERPT_CHARS` of `text` around `center` (the start when None), and where it starts."""
    if len(text) <= EXCERPT_CHARS:
        return 0, text
    start = 0 if center is None else max(0, min(center - EXCERPT_CHARS // 2, len(text) - EXCERPT_CHARS))
    return start, text[start : start + EXCERPT_CHARS]


def source_window(text: str, center: int | None) -> tuple[str, str]:
    """The excerpt of a source that relevance and factcheck are shown, and where it lies in the source."""
    start, window = excerpt(text, center)
    return window, f"characters {start}–{start + len(window)} of {len(text)}"


def question(name: str, claim: str | None, quote: str, window: str | None, where: str) -> Question | str:
    """The question for one evaluator, or why it cannot be asked. `window` and `where`: `source_window`'s,
    None when the source could not be read."""
    if name == "entailment":
        if not claim:
            return "no statement beside the quote to test it against"
        user = f"Passage:\n<<<\n{quote}\n>>>\n\nStatement:\n<<<\n{claim}\n>>>"
        return Question(name, claim, quote, user)
    if window is None:
        return "the cited source could not be read"
    subject = claim or quote
    user = f"Claim:\n<<<\n{subject}\n>>>\n\nSource excerpt ({where}):\n<<<\n{window}\n>>>"
    return Question(name, subject, window, user)


def _evaluation(name: str, answer: Answer, model: str | None) -> dict[str, object]:
    ran = answer.verdict != "not_run"
    return {
        "verdict": answer.verdict,
        "explanation": answer.explanation,
        "model": model if ran else None,
        "prompt_version": rubric(name).prompt_version,
        "reason": answer.reason,
        "cached": answer.cached,
    }


def evaluate_report(
    report: QuoteReport,
    settings: Settings,
    names: Sequence[str],
    statements: Sequence[str | None] | None = None,
    http: httpx.Client | None = None,
    embedder: Embedder | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Fill every result's statement, evaluations, evidence and confidence, and the report's confidence.

    `statements`: one per result (a triples file's); else each is read around its quote in the document."""
    results = report.results
    sources = _sources(report)
    indexes: dict[str, SourceIndex] = {}
    claims: list[str | None] = []
    for number, result in enumerate(results):
        given = statements[number] if statements is not None else None
        if statements is None and report.text is not None and report.kind != "triples":
            given = statement_of(report.text, result.quote.start, result.quote.end)
        claims.append(given.strip() if given and given.strip() else None)
    with_source = [
        (number, sources[result.source]) for number, result in enumerate(results) if result.source in sources
    ]
    for _, source in with_source:  # by text: a source read under two names is indexed once
        if source.text not in indexes:
            indexes[source.text] = index_source(source.text)
    embedder = embedder or Embedder(cache_path(settings))
    pairs = [(claims[n] or results[n].quote.text, indexes[source.text]) for n, source in with_source]
    supports: dict[int, Support | None] = {}

    def ask(numbers: list[int]) -> dict[tuple[int, str], Answer]:
        """Each evaluator's answer for these results; not_run, with why, where a question cannot be put."""
        answers: dict[tuple[int, str], Answer] = {}
        questions: list[Question] = []
        slots: list[tuple[int, str]] = []
        for number in numbers:
            result = results[number]
            cited = sources.get(result.source or "")
            window, where = None, ""
            if cited is not None:
                support = supports.get(number)
                center = result.source_start
                if center is None and support is not None:
                    center = support.start
                window, where = source_window(cited.text, center)
            for name in names:
                asked = question(name, claims[number], result.quote.text, window, where)
                if isinstance(asked, str):
                    answers[(number, name)] = not_run(asked)
                else:
                    questions.append(asked)
                    slots.append((number, name))
        if not slots:
            return answers
        if not settings.llm.base_url:
            return answers | {slot: not_run(NO_LLM) for slot in slots}
        return answers | dict(zip(slots, ask_all(questions, settings, http, sleep), strict=True))

    # The LLM is asked while MiniLM embeds (ONNX runs outside the GIL), so beside a model that takes longer
    # the embedding adds no time. Only a quote not located in its source waits: its excerpt is cut around
    # its best-supporting passage.
    waiting = {n for n, _ in with_source if results[n].source_start is None}
    with ThreadPoolExecutor(1, thread_name_prefix="refhound-evidence") as pool:
        found = pool.submit(best_supports, pairs, embedder)
        answers = ask([n for n in range(len(results)) if n not in waiting])
        supports.update(zip([n for n, _ in with_source], found.result(), strict=True))
    answers |= ask(sorted(waiting))
    model = settings.llm.model if settings.llm.base_url else None
    bases: list[float] = []
    for number, result in enumerate(results):
        evaluations: dict[str, dict[str, object]] = {}
        for name in names:
            evaluations[name] = _evaluation(name, answers[(number, name)], model)
        _fill(result, claims[number], evaluations, supports.get(number), embedder)
        bases.append(result_base(result))
    located = [is_located(r.status, r.alterations) for r in results]
    report.evaluated = list(names)
    report.confidence, notes = document_confidence(bases, located)
    report.confidence_notes = _not_run_notes(results, names) + notes


def _not_run_notes(results: Sequence[QuoteResult], names: Sequence[str]) -> list[str]:
    """For the document: each evaluator that did not run for some quote (no confidence rests on it there)."""
    notes = []
    for name in names:
        skipped = [item for r in results if (item := (r.evaluations or {})[name])["verdict"] == "not_run"]
        if skipped:
            notes.append(
                f"{name} did not run for {len(skipped)} of {len(results)} quotes: {skipped[0]['reason']}"
            )
    return notes


def _fill(
    result: QuoteResult,
    claim: str | None,
    evaluations: dict[str, dict[str, object]],
    support: Support | None,
    embedder: Embedder,
) -> None:
    result.statement = claim
    result.evaluations = evaluations
    result.evidence = {
        "alterations": list(result.alterations),
        "passage": support.as_json() if support else None,
        "similarity_model": None if embedder.problem else "all-MiniLM-L6-v2 (int8 ONNX)",
        "problem": embedder.problem,
    }
    confidence, base, notes = statement_confidence(evaluations, result.status, result.alterations)
    result.confidence, result.confidence_notes = confidence, notes
    # What the number rests on: a confidence of 1.0 from the quote's location alone is no evaluator's pass.
    result.confidence_basis = ["quote_location"] + [
        name for name, item in evaluations.items() if item["verdict"] != "not_run"
    ]
    result.confidence_base = base


def result_base(result: QuoteResult) -> float:
    return result.confidence_base if result.confidence_base is not None else 1.0
