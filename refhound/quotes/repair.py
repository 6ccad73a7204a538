"""Repair-or-drop (QuoteVerify): `refhound quotes repair TRIPLES --source-dir DIR | --online --out FILE`.

Every triple is checked as `quotes check --evaluate` checks it (string match and guard, then the
evaluators). One that passes — its quote `verified` and every evaluator's verdict positive — is kept as it
is. One that fails goes to the model with its statement and an excerpt of its source (the `repair` rubric):
the model copies a new quote from that source, or deletes the statement. A new quote is checked again
through every check; it is written only if it is `verified` in the source (a quote the source does not
hold is never written) and every evaluator passes it. Anything else is dropped: a dropped statement leaves
the repaired file but stays in the audit, one JSON line per triple with the action and the evidence.

Sources come from `--source-dir` (a `source_id` is the file of that name, or of that name with any
extension) or, with `--online`, through the shared HTTP client, whose connections pass the guard against
non-public addresses (`refhound.net.guard`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from refhound.errors import LLMError, LLMUnavailable
from refhound.llm import LLMClient
from refhound.quotes.check import located_result
from refhound.quotes.errors import QuotesError
from refhound.quotes.evaluate import EXCERPT_CHARS, evaluate_report, source_window
from refhound.quotes.evaluate.cache import cache_path
from refhound.quotes.evaluate.evidence import Embedder
from refhound.quotes.evaluate.llm import NO_ANSWER
from refhound.quotes.evaluate.render import GOOD
from refhound.quotes.evaluate.rubrics import RepairReply, rubric
from refhound.quotes.fetch import now_iso
from refhound.quotes.match import Haystack, locate
from refhound.quotes.models import Quote, QuoteResult, SourceText
from refhound.quotes.report import QuoteReport
from refhound.quotes.triples import Triple, check_triples, read_triples
from refhound.settings import Settings

__all__ = ["RepairOutcome", "audit_lines", "repair_triples", "source_dir_map", "write_repaired"]


@dataclass
class RepairOutcome:
    kept: list[dict[str, Any]] = field(default_factory=list)  # the repaired file's triples, in order
    audit: list[dict[str, Any]] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        actions = [line["action"] for line in self.audit]
        return {action: actions.count(action) for action in ("kept", "repaired", "dropped")}


def source_dir_map(directory: Path, source_ids: list[str]) -> dict[str, str]:
    """`source_id` → a file of `directory`: the file of that name, else the one whose stem it is."""
    found: dict[str, str] = {}
    files = sorted(p for p in directory.iterdir() if p.is_file())
    for source_id in dict.fromkeys(source_ids):
        exact = directory / source_id
        if exact.is_file():
            found[source_id] = str(exact.resolve())
            continue
        named = [p for p in files if p.stem == source_id]
        if named:
            found[source_id] = str(named[0].resolve())
    return found


def passes(result: QuoteResult) -> bool:
    """Verified, and every evaluator positive (one that did not run does not pass)."""
    verdicts = [str(item["verdict"]) for item in (result.evaluations or {}).values()]
    return result.status == "verified" and all(verdict in GOOD for verdict in verdicts)


def _failures(result: QuoteResult) -> list[str]:
    found = [] if result.status == "verified" else [f"quote {result.status}: {result.note}"]
    for name, item in (result.evaluations or {}).items():
        if str(item["verdict"]) not in GOOD:
            found.append(f"{name}: {item['verdict']} — {item.get('explanation') or item.get('reason')}")
    return found


def _ask_repair(client: LLMClient, triple: Triple, source: SourceText, center: int | None) -> RepairReply:
    window, where = source_window(source.text, center)
    user = (
        f"Statement:\n<<<\n{triple.statement}\n>>>\n\nFailed quote:\n<<<\n{triple.quote.text}\n>>>\n\n"
        f"Source excerpt ({where}):\n<<<\n{window}\n>>>"
    )
    return client.complete_json(rubric("repair").text, user, RepairReply, "repair", max_tokens=600)


def _recheck(
    quote_text: str,
    triple: Triple,
    source: SourceText,
    report: QuoteReport,
    settings: Settings,
    names: Sequence[str],
    embedder: Embedder,
) -> QuoteResult:
    """The new quote through every check again: located in the same source, then the evaluators."""
    outcome = locate(quote_text, Haystack(source.text), settings.quotes)
    quote = Quote(quote_text, 0, len(quote_text), "triple")
    result = located_result(quote, triple.source_id, source, outcome, outcome.note)
    single = QuoteReport(report.document, report.checked_at, [result], report.citations, kind="triples")
    evaluate_report(single, settings, names, [triple.statement], embedder=embedder)
    return result


def _written(triple: Triple, quote: str) -> dict[str, Any]:
    item = dict(triple.item or {"statement": triple.statement, "source_id": triple.source_id})
    item["evidence_quote"] = quote
    return item


def repair_triples(
    path: Path, settings: Settings, sources: dict[str, str], names: Sequence[str]
) -> tuple[RepairOutcome, QuoteReport]:
    """Check, ask, re-check; the repaired triples and the audit. QuotesError without an LLM server."""
    if not settings.llm.base_url:
        raise QuotesError("repair asks the LLM for new quotes: set llm.base_url or pass --llm-url")
    report, triples = asyncio.run(check_triples(path, settings, sources))
    # one for the run: a source's passages are embedded once, not once per re-check
    embedder = Embedder(cache_path(settings))
    evaluate_report(report, settings, names, [t.statement for t in triples], embedder=embedder)
    _require_answers(report.results)
    texts = {s.resolved.locator: s.resolved for s in report.citations if isinstance(s.resolved, SourceText)}
    _, file_sources, _, _ = read_triples(path, settings)
    outcome = RepairOutcome(sources=file_sources)  # written back as the input had it
    with LLMClient(settings.llm) as client:
        for index, (triple, result) in enumerate(zip(triples, report.results, strict=True)):
            line: dict[str, Any] = {
                "type": "triple",
                "index": index,
                "statement": triple.statement,
                "source_id": triple.source_id,
                "source": result.source,
                "source_sha256": result.source_sha256,
                "quote": triple.quote.text,
                "before": _state(result),
            }
            outcome.audit.append(line)
            if passes(result):
                line["action"] = "kept"
                outcome.kept.append(_written(triple, triple.quote.text))
                continue
            line["failures"] = _failures(result)
            source = texts.get(result.source or "")
            if source is None:
                line |= {
                    "action": "dropped",
                    "reason": "the source could not be read: nothing to requote from",
                }
                continue
            center = result.source_start
            passage = (result.evidence or {}).get("passage")
            if center is None and isinstance(passage, dict):
                center = int(passage["start"])
            try:
                reply = _ask_repair(client, triple, source, center)
            except LLMUnavailable as error:
                raise QuotesError(f"repair stopped, nothing written: {error}") from error
            except LLMError as error:
                line |= {"action": "dropped", "reason": f"the LLM gave no repair: {error}"}
                continue
            line["model"] = {
                "action": reply.action,
                "quote": reply.quote,
                "explanation": reply.explanation,
                "model": settings.llm.model,
                "prompt_version": rubric("repair").prompt_version,
            }
            if reply.action == "delete" or not reply.quote.strip():
                line |= {"action": "dropped", "reason": "the model deleted the statement"}
                continue
            again = _recheck(reply.quote.strip(), triple, source, report, settings, names, embedder)
            _require_answers([again])
            line["after"] = _state(again)
            if not passes(again):
                problems = "; ".join(_failures(again))
                line |= {"action": "dropped", "reason": f"the new quote failed again: {problems}"}
                continue
            line |= {"action": "repaired", "new_quote": again.quote.text}
            outcome.kept.append(_written(triple, again.quote.text))
    return outcome, report


def _require_answers(results: list[QuoteResult]) -> None:
    """An LLM that does not answer stops the repair: dropping a statement for an outage would lose it."""
    for result in results:
        for name, item in (result.evaluations or {}).items():
            if item["verdict"] == "not_run" and str(item.get("reason", "")).startswith(NO_ANSWER):
                raise QuotesError(f"repair stopped, nothing written: {name}: {item['reason']}")


def _state(result: QuoteResult) -> dict[str, Any]:
    return {
        "status": result.status,
        "note": result.note,
        "alterations": list(result.alterations),
        "source_start": result.source_start,
        "source_end": result.source_end,
        "evaluations": result.evaluations,
        "confidence": result.confidence,
    }


def write_repaired(outcome: RepairOutcome, out: Path, jsonl: bool) -> None:
    """The kept and repaired triples in the input's layout: JSON lines, or {"triples", "sources"}."""
    if jsonl:
        text = "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in outcome.kept)
    else:
        data: Any = {"triples": outcome.kept, "sources": outcome.sources} if outcome.sources else outcome.kept
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    out.write_text(text, encoding="utf-8")


def audit_lines(outcome: RepairOutcome, path: Path, settings: Settings, names: Sequence[str]) -> str:
    run = {
        "type": "run",
        "input": str(path),
        "at": now_iso(),
        "evaluators": names,
        "model": settings.llm.model,
        "excerpt_chars": EXCERPT_CHARS,
    }
    summary = {"type": "summary", **outcome.counts(), "total": len(outcome.audit)}
    lines = [run, *outcome.audit, summary]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
