"""The quote check, end to end: a document (or triples) in, a `QuoteReport` out.

    document → layout (code, passages, block quotes) → citations (markers, definitions) → quotes →
    pairing → targets → sources (read once each, concurrently) and link checks → matching → results

A quote is matched only against the sources its own citation names. A citation that names no readable
source makes the quote `citation_unresolved`, with the reason — it is never matched against another source,
and "could not read the source" is never reported as "not in the source".
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import httpx

from refhound.net.http import HttpPool, make_client
from refhound.quotes.citations import display_label, parse_destination, reference_key, scan_citations
from refhound.quotes.document import Document
from refhound.quotes.evaluate.confidence import located_confidence
from refhound.quotes.extract import extract_quotes
from refhound.quotes.fetch import SourceFetcher, now_iso, quotes_policy
from refhound.quotes.layout import SYNTAX, Span, markdown_layout, mask, text_layout
from refhound.quotes.links import check_file_link, check_link
from refhound.quotes.match import Haystack, Outcome, locate
from refhound.quotes.models import (
    CitationGroup,
    Definition,
    Marker,
    Quote,
    QuoteResult,
    SourceText,
    Unresolved,
)
from refhound.quotes.pairing import Pairing, group_markers, pair_quotes
from refhound.quotes.report import CitationState, QuoteReport
from refhound.settings import Settings

_RANK = {"verified": 2, "near_match": 1, "not_found": 0}
_TAG = re.compile(r"<[A-Za-z/][^>\n]*>")  # HTML tags (and autolinks)
_HIDDEN = re.compile(r"<!--.*?-->|!\[[^\]\n]*\]\([^)\n]*\)", re.DOTALL)  # comments, images: no prose
_RULE_NOTES = {
    "passage_end": "citation from the end of its passage",
    "carried": "citation carried forward",
    "quotation_end": "citation from the end of the quotation this paragraph begins",
}


@dataclass(frozen=True)
class Cited:
    """A quote and the citation it is checked against (None: uncited)."""

    quote: Quote
    label: str | None
    keys: tuple[str, ...]
    how: str = ""


def locator_definition(key: str, locator: str, base: str, text: str | None = None) -> Definition:
    """A definition given apart from the document's text (`--source`, a triples file's `sources`): the
    locator read as a URL, DOI, arXiv id or path (relative to `base`)."""
    target = parse_destination(locator, base)
    reason = None if target else f"{locator!r} is no URL, DOI, arXiv id or file refhound can read"
    return Definition(key, text or locator, target, reason)


def override_definitions(sources: dict[str, str]) -> dict[str, Definition]:
    """`--source LABEL=LOCATOR` pairs as definitions; relative paths are the working directory's."""
    found: dict[str, Definition] = {}
    for label, locator in sources.items():
        label = label.strip().strip("[]")
        key = label if label.startswith("^") else reference_key(label)
        found[key] = locator_definition(key, locator, str(Path.cwd()), f"--source {label}={locator}")
    return found


def _mask_markup(masked: str, markers: list[Marker]) -> str:
    """`masked` with the markup quote marks may sit in or beside masked for `extract_quotes`: comments and
    images blanked (an image's alt text is no quotation); link syntax (not the link's text), URLs and HTML
    tags as `SYNTAX` — a quotation around them still closes ("[the text](url)"), and leaves them out."""
    syntax: list[Span] = []
    for marker in markers:
        if marker.kind == "link":
            text_end = masked.index("]", marker.start)
            syntax += [(marker.start, marker.start + 1), (text_end, marker.end)]
        elif marker.kind in ("autolink", "url"):
            syntax.append((marker.start, marker.end))
    syntax.extend(match.span() for match in _TAG.finditer(masked))
    blanked = mask(masked, [match.span() for match in _HIDDEN.finditer(masked)])
    return mask(blanked, syntax, SYNTAX)


async def check_document(
    document: Document,
    settings: Settings,
    sources: dict[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    fetcher: SourceFetcher | None = None,
) -> QuoteReport:
    """Check every quote of a Markdown or plain-text document.

    `sources` maps citation labels to locators (`--source`); `transport` is the HTTP transport tests pass;
    `fetcher`, when given, is used with the sources it has already read (and its own pool)."""
    text = document.text
    layout = markdown_layout(text) if document.kind == "markdown" else text_layout(text)
    code_masked = mask(text, layout.code)
    base = str(document.path.resolve().parent)
    citations = scan_citations(text, code_masked, base)
    given = override_definitions(sources or {})
    citations.definitions.update(given)
    quote_masked = _mask_markup(code_masked, citations.markers)
    extracted = extract_quotes(
        text,
        quote_masked,
        layout,
        settings.quotes.min_words,
        citations.footnote_spans,
        citations.reference_spans,
    )
    report = QuoteReport(str(document.path), now_iso(), text=text, kind=document.kind)
    report.warnings.extend(document.warnings)
    report.warnings.extend(extracted.warnings)
    report.skipped_short = extracted.skipped_short
    quotes = extracted.quotes
    if len(quotes) > settings.quotes.max_quotes:
        report.warnings.append(
            f"{len(quotes)} quotes found; only the first {settings.quotes.max_quotes} are checked "
            "(quotes.max_quotes)"
        )
        quotes = quotes[: settings.quotes.max_quotes]
    groups = group_markers(citations.markers, quotes, text)
    pairings = pair_quotes(text, layout, quotes, groups, extracted.runs_on)
    states = _citation_states(groups, pairings, citations.definitions, base)
    cited = [_cited(quote, pairing) for quote, pairing in zip(quotes, pairings, strict=True)]
    report.citations = list(states.values())
    report.results = await verify(cited, states, settings, transport, fetcher, given_files(given.values()))
    located_confidence(report)
    return report


def given_files(definitions: Iterable[Definition]) -> frozenset[str]:
    """The files the user named on the command line: read even with `quotes.local_files` off."""
    return frozenset(d.target.value for d in definitions if d.target is not None and d.target.kind == "file")


def _cited(quote: Quote, pairing: Pairing) -> Cited:
    if pairing.group is None:
        return Cited(quote, None, ())
    return Cited(quote, pairing.group.label, pairing.group.keys, _RULE_NOTES.get(pairing.rule, ""))


def _citation_states(
    groups: list[CitationGroup], pairings: list[Pairing], definitions: dict[str, Definition], base: str
) -> dict[str, CitationState]:
    """One state per cited key, in order of first appearance; footnote pairings add their footnote."""
    states: dict[str, CitationState] = {}
    every = list(groups) + [p.group for p in pairings if p.group is not None and p.rule == "footnote"]
    for group in every:
        for marker in group.markers:
            for key in marker.keys:
                state = states.get(key)
                if state is None:
                    state = states[key] = _state(key, marker.kind, definitions, base)
                if marker.end > marker.start:
                    state.occurrences.append((marker.start, marker.end))
    return states


def _state(key: str, kind: str, definitions: dict[str, Definition], base: str) -> CitationState:
    state = CitationState(key, display_label(key), kind)
    definition = definitions.get(key)
    if definition is not None:
        state.definition = definition
        state.target, state.reason = definition.target, definition.reason
    elif key.startswith("url:"):
        state.target = parse_destination(key[4:], base)
        state.reason = None if state.target else "a URL refhound cannot read"
    else:
        state.reason = f"no definition of {display_label(key)} in the document (nor given with --source)"
    return state


async def verify(
    cited: list[Cited],
    states: dict[str, CitationState],
    settings: Settings,
    transport: httpx.AsyncBaseTransport | None = None,
    fetcher: SourceFetcher | None = None,
    given: frozenset[str] = frozenset(),
) -> list[QuoteResult]:
    """Read the sources the quotes need (and check cited links), then match every quote. `given`: the
    files the user named (`given_files`)."""
    owned = fetcher is None
    if fetcher is None:
        pool = None if settings.check.offline else HttpPool(make_client(settings, transport))
        fetcher = SourceFetcher(settings, pool, given)
    needed = {key for item in cited for key in item.keys}
    try:
        await _read_sources(states, needed, fetcher, settings)
    finally:
        if owned and fetcher.pool is not None:
            await fetcher.pool.aclose()
    haystacks: dict[str, Haystack] = {}
    return [_result(item, states, haystacks, settings) for item in cited]


async def _read_sources(
    states: dict[str, CitationState], needed: set[str], fetcher: SourceFetcher, settings: Settings
) -> None:
    """Each needed citation's source read (once per locator), and every cited URL's link checked."""

    async def resolve(state: CitationState) -> None:
        if state.target is not None:
            state.resolved = await fetcher.get(state.target)

    async def link(state: CitationState) -> None:
        if state.target is None or state.target.kind not in ("url", "file"):
            return
        url = state.key[4:] if state.key.startswith("url:") else state.target.value
        if state.target.kind == "file":
            state.link = check_file_link(state.target, url, looked_at=fetcher.reads_file(state.target))
        else:
            state.link = await check_link(fetcher.pool, url, quotes_policy(settings))

    jobs = [resolve(states[key]) for key in states if key in needed]
    if settings.quotes.link_check:
        jobs += [link(state) for state in states.values()]
    await asyncio.gather(*jobs)


def _result(
    item: Cited, states: dict[str, CitationState], haystacks: dict[str, Haystack], settings: Settings
) -> QuoteResult:
    quote = item.quote
    if not item.keys:
        return QuoteResult(
            quote, None, None, "uncited", note="no citation follows, ends its passage or carries over"
        )
    best: tuple[CitationState, SourceText, Outcome] | None = None
    unresolved: list[tuple[CitationState, str]] = []
    for key in item.keys:
        state = states[key]
        source = state.resolved
        if not isinstance(source, SourceText):
            reason = source.reason if isinstance(source, Unresolved) else (state.reason or "not read")
            unresolved.append((state, reason))
            continue
        hay = haystacks.setdefault(source.locator, Haystack(source.text))
        outcome = locate(quote.text, hay, settings.quotes)
        if best is None or _RANK[outcome.status] > _RANK[best[2].status]:
            best = (state, source, outcome)
        if outcome.status == "verified":
            break
    how = f" ({item.how})" if item.how else ""
    gaps = "; ".join(f"{state.label}: {reason}" for state, reason in unresolved)
    if best is None or (best[2].status == "not_found" and unresolved):
        first = unresolved[0][0]
        locator = first.target.locator if first.target else None
        note = gaps + ("; not found in the other cited source(s)" if best else "")
        return QuoteResult(quote, item.label, locator, "citation_unresolved", note=note + how)
    state, source, outcome = best
    note = outcome.note + how
    if source.warnings and outcome.status != "verified":
        note += f"; the source: {'; '.join(source.warnings)}"  # a DOI's landing page only, say
    if unresolved and outcome.status != "verified":
        note += f"; also cited but unreadable: {gaps}"
    return located_result(quote, item.label, source, outcome, note)


def located_result(
    quote: Quote, citation: str | None, source: SourceText, outcome: Outcome, note: str
) -> QuoteResult:
    """A quote's result from where `locate` found it (or did not) in `source`."""
    located = outcome.located
    return QuoteResult(
        quote,
        citation,
        source.locator,
        outcome.status,
        source_start=located.start if located else None,
        source_end=located.end if located else None,
        matched_text=source.text[located.start : located.end] if located else None,
        source_sha256=source.sha256,
        note=note,
        alterations=outcome.alterations,
    )
