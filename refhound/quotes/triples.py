"""Structured citation triples, QuoteVerify-style: `{statement, source_id, evidence_quote}`.

Accepted layouts: a JSON array of triples; an object `{"triples": [...], "sources": {ID: LOCATOR}}`; or JSON
lines, one triple each. A `source_id` is looked up in `sources` (then in `--source ID=LOCATOR`), else read as
a locator itself — a URL, DOI, arXiv id or a path relative to the triples file. Each evidence quote is checked
as a quote of a document is; a malformed triple is reported and skipped, the others are still checked.

The optional entailment check (off by default: `quotes.entailment`, `--entailment`) asks the configured
OpenAI-compatible server (`refhound.llm`: strict JSON, bounded strings, validated and retried once) whether
each statement follows from its quote. It is recorded apart from the string result: a verified quote that
does not support its statement is still a verified quote, and an LLM that is down leaves every string
result as it was (the item says why it has no verdict).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx
from pydantic import BaseModel, Field

from refhound.errors import InputError, LLMError
from refhound.llm import LLMClient
from refhound.quotes.check import Cited, given_files, locator_definition, verify
from refhound.quotes.document import read_bytes
from refhound.quotes.errors import QuotesError
from refhound.quotes.evaluate.confidence import located_confidence
from refhound.quotes.fetch import now_iso
from refhound.quotes.models import Definition, Quote
from refhound.quotes.report import CitationState, EntailmentResult, QuoteReport
from refhound.quotes.textof import decode
from refhound.settings import Settings


@dataclass(frozen=True)
class Triple:
    statement: str
    source_id: str
    quote: Quote
    item: dict[str, Any] | None = field(default=None, compare=False)  # as read, for writing it back


def _items(data: Any, path: Path) -> tuple[list[Any], dict[str, str]]:
    if isinstance(data, list):
        return data, {}
    if isinstance(data, dict):
        items = data.get("triples", data.get("items"))
        sources = data.get("sources") or {}
        if isinstance(items, list) and isinstance(sources, dict):
            return items, {str(k): str(v) for k, v in sources.items()}
        if "evidence_quote" in data:
            return [data], {}
    raise InputError(path, 'not a triples file: expected a JSON array, {"triples": [...]} or JSON lines')


def _parse(raw: str, path: Path) -> tuple[list[Any], dict[str, str]]:
    try:
        return _items(json.loads(raw), path)
    except json.JSONDecodeError as error:
        lines = [line for line in raw.splitlines() if line.strip()]
        if len(lines) < 2:
            raise InputError(path, f"not valid JSON ({error.msg} at line {error.lineno})") from None
    items: list[Any] = []
    for number, line in enumerate(raw.splitlines(), 1):
        if not line.strip():
            continue
        try:
            items.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise InputError(path, f"line {number} is not valid JSON ({error.msg})") from None
    return items, {}


def _offsets(raw: str, quote: str, after: int) -> tuple[int, int]:
    """Where the quote's JSON string sits in the file (inside its quote marks), as written."""
    for ensure_ascii in (False, True):
        encoded = json.dumps(quote, ensure_ascii=ensure_ascii)[1:-1]
        position = raw.find(encoded, after)
        if position >= 0:
            return position, position + len(encoded)
    return after, after


def read_triples(path: Path, settings: Settings) -> tuple[list[Triple], dict[str, str], list[str], str]:
    """The triples of a file, its sources map, warnings for skipped entries, and the raw text."""
    raw = decode(read_bytes(path, settings.quotes.max_document_bytes, kind="triples file"))
    items, sources = _parse(raw, path)
    triples: list[Triple] = []
    warnings: list[str] = []
    position = 0
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            warnings.append(f"triple {index}: not an object; skipped")
            continue
        quote, source_id = item.get("evidence_quote"), item.get("source_id")
        statement = item.get("statement", "")
        if not isinstance(quote, str) or not quote.strip():
            warnings.append(f"triple {index}: no evidence_quote; skipped")
            continue
        if not isinstance(source_id, str | int) or not str(source_id).strip():
            warnings.append(f"triple {index}: no source_id; skipped")
            continue
        start, end = _offsets(raw, quote, position)
        position = end
        triples.append(Triple(str(statement), str(source_id), Quote(quote, start, end, "triple"), item))
    if not triples:
        raise InputError(path, "no usable triple (each needs evidence_quote and source_id)")
    return triples, sources, warnings, raw


async def check_triples(
    path: Path,
    settings: Settings,
    sources: dict[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> tuple[QuoteReport, list[Triple]]:
    """Check every triple's evidence quote against its source."""
    triples, file_sources, warnings, raw = read_triples(path, settings)
    base = str(path.resolve().parent)
    definitions: dict[str, Definition] = {}
    given = [(file_sources, base), (sources or {}, str(Path.cwd()))]  # the command line's paths are cwd's
    for mapping, directory in given:
        for source_id, locator in mapping.items():
            definitions[source_id] = locator_definition(source_id, locator, directory)
    states: dict[str, CitationState] = {}
    for triple in triples:
        state = states.get(triple.source_id)
        if state is None:
            state = states[triple.source_id] = CitationState(triple.source_id, triple.source_id, "triple")
            state.definition = definitions.get(triple.source_id)  # else the source_id is the locator
            where = state.definition or locator_definition(triple.source_id, triple.source_id, base)
            state.target, state.reason = where.target, where.reason
        state.occurrences.append((triple.quote.start, triple.quote.end))
    cited = [Cited(t.quote, t.source_id, (t.source_id,)) for t in triples]
    report = QuoteReport(str(path), now_iso(), text=raw, kind="triples")
    report.warnings.extend(warnings)
    report.citations = list(states.values())
    command_line = [definitions[source_id] for source_id in (sources or {})]
    report.results = await verify(cited, states, settings, transport, given=given_files(command_line))
    located_confidence(report)
    return report, triples


# --- the entailment check ----------------------------------------------------------------------------

_MAX_CHARS = 4000  # of a quote or statement sent to the model

SYSTEM = (
    "You check whether a statement is supported by a quoted passage. Use only the passage, no outside "
    "knowledge. Answer 'entailed' when the passage states or directly implies the statement, 'contradicted' "
    "when it says the opposite, 'neutral' otherwise (including when the statement claims more than the "
    "passage says). Give a one-sentence reason."
)


class EntailmentReply(BaseModel):
    verdict: Literal["entailed", "contradicted", "neutral"]
    reason: str = Field(max_length=300)


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_CHARS else text[: _MAX_CHARS - 1] + "…"


def user_prompt(statement: str, quote: str) -> str:
    return f"Passage:\n<<<\n{_clip(quote)}\n>>>\n\nStatement:\n<<<\n{_clip(statement)}\n>>>"


def check_entailment(
    pairs: list[tuple[str, str]], settings: Settings, http: httpx.Client | None = None
) -> list[EntailmentResult]:
    """One result per (statement, quote); `QuotesError` when no LLM server is configured."""
    if not settings.llm.base_url:
        raise QuotesError("the entailment check needs an LLM server: set llm.base_url or pass --llm-url")
    results: list[EntailmentResult] = []
    with LLMClient(settings.llm, http) as client:
        for index, (statement, quote) in enumerate(pairs):
            if not statement.strip():
                results.append(EntailmentResult(index, statement, quote, None, None, "no statement"))
                continue
            try:
                reply = client.complete_json(
                    SYSTEM, user_prompt(statement, quote), EntailmentReply, "entailment", max_tokens=200
                )
            except LLMError as error:
                results.append(EntailmentResult(index, statement, quote, None, None, str(error)))
                continue
            results.append(EntailmentResult(index, statement, quote, reply.verdict, reply.reason))
    return results
