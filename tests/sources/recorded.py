"""Real responses of Crossref, Semantic Scholar and OpenAlex
(`../shared/data/services/recorded-responses.jsonl`), replayed by a loopback server, and what each body
holds read straight from its JSON (to tell a lossless mapping from a lossy one).

The recordings are paper-qa's queries, not refhound's, so the replay matches a request by what it asks for,
not by its query string: a look-up by the DOI in its path (OpenAlex's `doi:X` and `https://doi.org/X` forms
are the same id), a search by its title (Crossref's `query.bibliographic` starts with the cited title; the
recording's `query.title` must be that title). A request no recording answers gets a 501 naming it, so a test
fails on it rather than reading some other answer.

    .venv/bin/python -m tests.sources.recorded       # the figure: share of recordings mapped without loss
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from refhound.normalize.identifiers import normalize_doi
from refhound.normalize.text import collapse_whitespace
from tests.sources.fake_service import FakeService, Reply, Request

RECORDINGS = (
    Path(__file__).resolve().parents[2].parent / "shared" / "data" / "services" / "recorded-responses.jsonl"
)
_HOSTS = {
    "api.crossref.org": "crossref",
    "api.semanticscholar.org": "semantic_scholar",
    "api.openalex.org": "openalex",
}
_MARKUP = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Recording:
    """One recorded exchange. `kind`: "doi" (a look-up by DOI), "search", "match" (Semantic Scholar's
    title match) or "transform" (Crossref's BibTeX transform, an endpoint refhound does not use)."""

    uri: str
    status: int
    content_type: str
    body: str
    service: str
    kind: str
    doi: str | None
    query: str | None
    params: dict[str, str]

    @property
    def label(self) -> str:
        what = self.doi or self.query or ""
        return f"{self.service} {self.kind} {self.status} {what[:50]}"

    def json(self) -> Any:
        return json.loads(self.body)


def _doi_in(path: str) -> str | None:
    """The DOI a look-up path names, in any of the services' forms."""
    for prefix in (
        "/works/https://doi.org/",
        "/works/doi:",
        "/graph/v1/paper/DOI:",
        "/paper/DOI:",
        "/works/",
    ):
        if path.startswith(prefix):
            return normalize_doi(path.removeprefix(prefix))
    return None


def _query_of(params: dict[str, str]) -> str | None:
    for name in ("query.title", "query.bibliographic", "query", "search"):
        if params.get(name):
            return params[name]
    flt = params.get("filter", "")
    return flt.removeprefix("title.search:") if flt.startswith("title.search:") else None


def _parse(line: str) -> Recording:
    data = json.loads(line)
    url = urlsplit(data["uri"])
    path = unquote(url.path)
    params = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
    service = _HOSTS[url.netloc]
    if "/transform/" in path:
        kind, doi = "transform", normalize_doi(path.removeprefix("/works/").split("/transform/")[0])
    elif path.endswith("/search/match"):
        kind, doi = "match", None
    elif path in ("/works", "/graph/v1/paper/search"):
        kind, doi = "search", None
    else:
        kind, doi = "doi", _doi_in(path)
    return Recording(
        data["uri"],
        int(data["status"]),
        data.get("content_type") or "",
        data["body"],
        service,
        kind,
        doi,
        _query_of(params),
        params,
    )


def load(path: Path = RECORDINGS) -> list[Recording]:
    with path.open(encoding="utf-8") as lines:
        return [_parse(line) for line in lines if line.strip()]


class ReplayServer(FakeService):
    """Answers with the recordings given, matched by what a request asks for (see the module)."""

    name = "replay"

    def __init__(self, recordings: list[Recording]) -> None:
        self.recordings = recordings
        super().__init__()

    def answer(self, request: Request) -> Reply:
        for rec in self.recordings:
            if self._answers(rec, request):
                return Reply(rec.status, rec.body.encode("utf-8"), rec.content_type)
        return Reply(501, f"no recording answers {request.path} {request.params}".encode())

    @staticmethod
    def _answers(rec: Recording, request: Request) -> bool:
        if rec.kind == "doi":
            return _doi_in(request.path) == rec.doi and not request.path.endswith("/search")
        asked = _query_of(request.params)
        if rec.kind == "match":
            return request.path.endswith("/search/match") and asked == rec.query
        if rec.kind == "search" and request.path in ("/works", "/graph/v1/paper/search"):
            return (
                asked is not None
                and rec.query is not None
                and asked.casefold().startswith(rec.query.casefold())
            )
        return False


# -- what a body holds, read straight from its JSON -----------------------------------------------


@dataclass(frozen=True)
class Held:
    """The fields of one work as its body gives them, the way a reader would copy them by hand."""

    title: str
    authors: tuple[str, ...]
    year: int | None
    doi: str | None
    venue: bool
    arxiv_id: str | None = None


def _text(value: Any) -> str:
    if isinstance(value, list):
        value = value[0] if value and isinstance(value[0], str) else ""
    return collapse_whitespace(html.unescape(_MARKUP.sub("", value))) if isinstance(value, str) else ""


def crossref_held(work: dict[str, Any]) -> Held:
    issued = (work.get("issued") or work.get("published") or work.get("created") or {}).get("date-parts")
    year = issued[0][0] if issued and issued[0] and isinstance(issued[0][0], int) else None
    venue = _text(work.get("container-title")) or (work.get("event") or {}).get("name") or ""
    return Held(
        _text(work.get("title")),
        tuple(
            " ".join(f"{a.get('given') or ''} {a.get('family') or ''}".split()) or " ".join(a["name"].split())
            for a in work.get("author") or []
            if a.get("family") or a.get("name")
        ),
        year,
        normalize_doi(work.get("DOI") or ""),
        bool(venue) or work.get("type") in ("proceedings-article", "posted-content"),
    )


def semantic_scholar_held(paper: dict[str, Any]) -> Held:
    ids = paper.get("externalIds") or {}
    venue = paper.get("venue") or (paper.get("publicationVenue") or {}).get("name")
    return Held(
        _text(paper.get("title")),
        tuple(
            " ".join(a["name"].split()) for a in paper.get("authors") or [] if (a.get("name") or "").strip()
        ),
        paper.get("year"),
        normalize_doi(ids.get("DOI") or ""),
        bool(venue),
        ids.get("ArXiv"),
    )


def openalex_held(work: dict[str, Any]) -> Held:
    source = (work.get("primary_location") or {}).get("source") or {}
    return Held(
        _text(work.get("title") or work.get("display_name")),
        tuple(
            " ".join(((a.get("author") or {}).get("display_name") or a.get("raw_author_name") or "").split())
            for a in work.get("authorships") or []
        ),
        work.get("publication_year"),
        normalize_doi(work.get("doi") or ""),
        bool(source.get("display_name")),
        None,
    )


def works_in(rec: Recording) -> list[Held]:
    """Every work a 200 body holds, as `Held`; [] for a body that holds none."""
    data = rec.json()
    if rec.service == "crossref":
        message = data.get("message") or {}
        items = message.get("items") if data.get("message-type") == "work-list" else [message]
        return [crossref_held(w) for w in items or []]
    if rec.service == "semantic_scholar":
        papers = data.get("data") if rec.kind in ("match", "search") else [data]
        return [semantic_scholar_held(p) for p in papers or []]
    results = data.get("results") if rec.kind == "search" else [data]
    return [openalex_held(w) for w in results or []]


def losses(held: Held, record: Any) -> list[str]:
    """What of `held` the mapped record lost or changed (empty: mapped without loss)."""
    lost = []
    if collapse_whitespace(record.title) != held.title:
        lost.append(f"title {record.title!r} != {held.title!r}")
    if tuple(record.authors) != held.authors:
        lost.append(f"authors {record.authors} != {list(held.authors)}")
    if held.year is not None and record.year != held.year:
        lost.append(f"year {record.year} != {held.year}")
    if held.doi and normalize_doi(record.doi or "") != held.doi:
        lost.append(f"doi {record.doi} != {held.doi}")
    if held.venue and not record.venue:
        lost.append("venue lost")
    if held.arxiv_id and record.arxiv_id != held.arxiv_id:
        lost.append(f"arXiv id {record.arxiv_id} != {held.arxiv_id}")
    return lost


def main() -> None:
    """The figure: per service, recordings mapped without loss, and each "no such work" read right."""
    from tests.sources.test_recorded import outcome

    table: Counter[tuple[str, str]] = Counter()
    for rec in load():
        table[rec.service, outcome(rec)] += 1
    print("| service | outcome | recordings |\n|---|---|---:|")
    for (service, result), n in sorted(table.items()):
        print(f"| {service} | {result} | {n} |")


if __name__ == "__main__":
    main()
