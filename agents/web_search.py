"""The web stage: search the web for the cited title, crawl the top results, and hand the judge the
records their metadata describes.

The query is the cited title and the first author's family name — what a person would type to find the
paper. The agent only gathers: records whose title is close to the cited one (or that carry the cited
DOI / arXiv id) become candidates, exactly as in the scholar stage; the judge's rules decide. A search
that gave no answer, and pages whose hosts gave none, are named as unreachable: their silence proves
nothing about the work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from refhound.agents.candidates import records_as_candidates
from refhound.agents.context import AgentContext, Candidate, Findings
from refhound.models import ParsedFields, Reference, Stage
from refhound.normalize.names import is_et_al, parse_name
from refhound.normalize.titles import clean_title
from refhound.online import web_unavailable

if TYPE_CHECKING:
    from refhound.web.crawl import CrawledPage
    from refhound.web.runtime import WebLookup

STAGE = Stage.WEB
_MAX_QUERY_CHARS = 300


def search_the_web(reference: Reference, context: AgentContext) -> Findings:
    """Candidates from web pages found for the cited title, with a one-line note and what did not answer."""
    runtime = context.web
    if runtime is None:
        reason = web_unavailable(context.settings) or "no web runtime in this run"
        return Findings(note=f"skipped: {reason}")
    cited = reference.parsed
    query = web_query(cited)
    if query is None:
        return Findings(note="skipped: no title to search for")
    lookup = runtime.search(query)
    candidates = records_as_candidates(
        cited, lookup.records, context.settings.judge, STAGE, note=lambda record: f"found at {record.url}"
    )
    return Findings(tuple(candidates), note=_note(lookup, candidates), unreachable=lookup.unreachable)


def web_query(cited: ParsedFields) -> str | None:
    """The cited title, and the first author's family name when the citation names one."""
    if not cited.title or not cited.title.strip():
        return None
    query = clean_title(cited.title)
    first = next((a for a in cited.authors if a.strip() and not is_et_al(a)), None)
    family = parse_name(first).family if first else ""
    if family and family.casefold() not in query.casefold():
        query = f"{query} {family}"
    return query[:_MAX_QUERY_CHARS]


def _note(lookup: WebLookup, candidates: list[Candidate]) -> str:
    """E.g. "searxng: 5 results, 3 pages crawled (1 rendered), 4 records, 1 candidate (best 0.98)"."""
    if lookup.problem is not None:
        return f"{lookup.provider} unreachable ({lookup.problem})"
    hits = len(lookup.hits)
    parts = [f"{lookup.provider}: {hits} result{'s' if hits != 1 else ''}"]
    if hits:
        pages = len(lookup.pages)
        rendered = sum(page.rendered for page in lookup.pages)
        crawled = f"{pages} page{'s' if pages != 1 else ''} crawled"
        if rendered:
            crawled += f" ({rendered} rendered in Chromium)"
        if lookup.over_budget:
            crawled += f", {lookup.over_budget} left (budget)"
        parts.append(crawled)
        failed = [page for page in lookup.pages if page.problem and not page.records]
        if failed:
            parts.append(f"{len(failed)} without records ({_problems(failed)})")
        count = len(lookup.records)
        parts.append(f"{count} record{'s' if count != 1 else ''}")
        if candidates:
            best = max(c.title_similarity for c in candidates)
            plural = "s" if len(candidates) != 1 else ""
            parts.append(f"{len(candidates)} candidate{plural} (best {best:.2f})")
        elif count:
            parts.append("none close")
    return ", ".join(parts)


def _problems(pages: list[CrawledPage]) -> str:
    """The distinct reasons pages gave no records, shortest first, at most three."""
    reasons = sorted({str(page.problem) for page in pages}, key=len)
    shown = "; ".join(reasons[:3])
    return shown + ("; …" if len(reasons) > 3 else "")
