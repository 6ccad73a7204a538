"""The check's outcome as one object, and its `refhound.quotes/1` JSON form.

    {"schema": "refhound.quotes/1",
     "quotes": [{"text", "start", "end", "citation", "source", "status", "source_start", "source_end",
                 "matched_text", "source_sha256", "note"}],
     "citations": [{"key", "label", "kind", "occurrences", "definition", "target", "status", "reason",
                    "source", "source_sha256", "fetched_at", "url", "content_type", "chars", "warnings",
                    "link"}],
     "summary": {"document", "checked_at", "total", "verified", "near_match", "not_found",
                 "citation_unresolved", "uncited", "skipped_short", "warnings"}}

with, on each quote, "alterations" (the guard's kinds of change inside the match: number, date, negation,
modal, entity) and "confidence", "confidence_basis", "confidence_notes", and at the top "confidence" and
"confidence_notes" — from where the quotes were found alone, the notes saying the evaluators did not run;
with `--evaluate`, on each quote also "statement", "evaluations" ({entailment|relevance|factcheck:
{"verdict", "explanation", "model", "prompt_version", "reason", "cached"}}) and "evidence", the confidence
lowered by the verdicts too, and at the top "evaluated" (see `refhound.quotes.evaluate`);

and, only when the entailment check ran (structured triples, `--entailment`), "entailment": [{"index",
"statement", "quote", "verdict", "reason", "error"}] — kept apart from the string result it does not change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from refhound.quotes.models import (
    STATUSES,
    Definition,
    LinkStatus,
    QuoteResult,
    SourceText,
    Target,
    Unresolved,
)

QUOTES_SCHEMA = "refhound.quotes/1"


@dataclass
class CitationState:
    """One cited work: how the document cites it, what it points to, and what became of it."""

    key: str
    label: str
    kind: str
    occurrences: list[tuple[int, int]] = field(default_factory=list)
    definition: Definition | None = None
    target: Target | None = None
    reason: str | None = None  # why there is no target
    resolved: SourceText | Unresolved | None = None  # None: no quote needed it, so it was not read
    link: LinkStatus | None = None

    @property
    def status(self) -> str:
        if self.target is None or isinstance(self.resolved, Unresolved):
            return "unresolved"
        return "resolved" if isinstance(self.resolved, SourceText) else "not_read"

    @property
    def unresolved_reason(self) -> str | None:
        if self.target is None:
            return self.reason
        return self.resolved.reason if isinstance(self.resolved, Unresolved) else None

    def as_json(self) -> dict[str, Any]:
        source = self.resolved if isinstance(self.resolved, SourceText) else None
        return {
            "key": self.key,
            "label": self.label,
            "kind": self.kind,
            "occurrences": [list(span) for span in self.occurrences],
            "definition": self.definition.text if self.definition else None,
            "target": self.target.locator if self.target else None,
            "status": self.status,
            "reason": self.unresolved_reason,
            "source": source.locator if source else None,
            "source_sha256": source.sha256 if source else None,
            "fetched_at": source.fetched_at if source else None,
            "url": source.url if source else None,
            "content_type": source.content_type if source else None,
            "chars": len(source.text) if source else None,
            "warnings": list(source.warnings) if source else [],
            "link": self.link.as_json() if self.link else None,
        }


@dataclass
class EntailmentResult:
    """The LLM's reading of one triple: does the statement follow from the quote? Not a string result."""

    index: int
    statement: str
    quote: str
    verdict: str | None
    reason: str | None
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "statement": self.statement,
            "quote": self.quote,
            "verdict": self.verdict,
            "reason": self.reason,
            "error": self.error,
        }


@dataclass
class QuoteReport:
    document: str
    checked_at: str
    results: list[QuoteResult] = field(default_factory=list)
    citations: list[CitationState] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped_short: int = 0
    entailment: list[EntailmentResult] | None = None
    text: str | None = None  # the document's text, for the annotated renderings
    kind: str = "markdown"
    evaluated: list[str] | None = None  # the evaluators asked for (`--evaluate`); None: not asked
    confidence: float | None = None
    confidence_notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = dict.fromkeys(STATUSES, 0)
        for result in self.results:
            counts[result.status] += 1
        return counts

    @property
    def all_verified(self) -> bool:
        return all(result.status == "verified" for result in self.results)

    def summary(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "checked_at": self.checked_at,
            "total": len(self.results),
            **self.counts(),
            "skipped_short": self.skipped_short,
            "warnings": list(self.warnings),
        }

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema": QUOTES_SCHEMA,
            "quotes": [result.as_json() for result in self.results],
            "citations": [citation.as_json() for citation in self.citations],
            "summary": self.summary(),
        }
        if self.entailment is not None:
            data["entailment"] = [item.as_json() for item in self.entailment]
        if self.evaluated is not None:
            data["evaluated"] = list(self.evaluated)
        data["confidence"] = self.confidence
        data["confidence_notes"] = list(self.confidence_notes)
        return data

    @property
    def evaluations_failed(self) -> bool:
        """Whether an evaluator found against some statement (contradicted, not relevant, not supported)."""
        negative = {"contradicted", "neutral", "not_relevant", "not_supported"}
        return any(
            str(item.get("verdict")) in negative
            for result in self.results
            for item in (result.evaluations or {}).values()
        )
