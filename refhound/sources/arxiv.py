"""arXiv's API: Atom feeds from `GET /query?id_list=ID` and `GET /query?search_query=ti:"…"&max_results=N`.

Each `<entry>` is one preprint: `<id>http://arxiv.org/abs/2101.00001v2</id>`, `<title>` and `<summary>`
hard-wrapped, `<author><name>`, `<published>` (the first version's date), and in arXiv's own namespace
`<arxiv:doi>`, `<arxiv:journal_ref>` and `<arxiv:comment>` (where a withdrawal is stated). Records are
mapped as the index's arXiv ingester maps the OAI snapshot: the preprint itself (venue "arXiv", the first
version's year, the id without its version); the journal reference names another, published record and is
not used.

arXiv reports a bad request inside a 200 feed: one entry titled "Error" whose summary says why
("incorrect id format for …"). For an id, that message is a definite "no such preprint" (`None`), as is
a well-formed id arXiv has no entry for (an empty feed, `totalResults` 0); any other Error entry, or a
feed that promises entries it does not hold (arXiv's known empty pages), is no answer. For a search an
Error entry means the query was not understood, which is no answer either. A body that is not an Atom
feed (arXiv's throttling answers "Rate exceeded." in plain text) is no answer.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lxml import etree

from refhound.errors import Unreachable
from refhound.formats.fields import doi_of, year_of
from refhound.models import ParsedFields, Record
from refhound.net.http import HttpPool, Policy, ServiceHttp
from refhound.normalize.identifiers import arxiv_id_from_doi, normalize_arxiv_id, normalize_doi
from refhound.normalize.text import collapse_whitespace, latex_to_unicode
from refhound.retractions import arxiv_withdrawal
from refhound.settings import ArxivSettings, Settings
from refhound.sources.base import identified_then_searched, map_items

NAME = "arxiv"
ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
_ERROR_ID = "arxiv.org/api/errors"
_BAD_ID_FORMAT = "incorrect id format"
# Characters that would end the quoted phrase or mean something in arXiv's Lucene-like query syntax.
_QUERY_SYNTAX = re.compile(r"[\"():\[\]{}^~*?\\]+")


@dataclass(frozen=True)
class Feed:
    """A parsed feed: its records, and the message of arXiv's "Error" entry if it holds one.

    `entries` counts the feed's `<entry>` elements (a record or not) and `total` is its
    `opensearch:totalResults` (None when absent or unreadable).
    """

    records: list[Record]
    error: str | None = None
    entries: int = 0
    total: int | None = None


class Arxiv:
    """The arXiv source: `lookup` tries the cited arXiv id first, then a title phrase search."""

    name = NAME

    def __init__(
        self,
        http: ServiceHttp,
        settings: ArxivSettings,
        *,
        min_title_similarity: float = 0.8,
        today: Callable[[], dt.date] = dt.date.today,
    ) -> None:
        self.http = http
        self.base_url = settings.base_url.rstrip("/")
        self.max_results = settings.max_results
        self.min_title_similarity = min_title_similarity
        self._today = today

    @classmethod
    def from_settings(cls, settings: Settings, pool: HttpPool) -> Arxiv:
        own = settings.sources.arxiv
        return cls(
            pool.service(NAME, Policy.of(own)),
            own,
            min_title_similarity=settings.judge.title_candidate_similarity,
        )

    async def lookup(self, cited: ParsedFields) -> list[Record]:
        """The cited arXiv id's preprint (or arXiv DOI's); then, unless it is the cited title, a search."""
        arxiv_id = cited_arxiv_id(cited)
        title = cited.title or ""
        return await identified_then_searched(
            cited,
            [lambda: self.by_arxiv_id(arxiv_id)] if arxiv_id else [],
            lambda: self.search(title),
            self.min_title_similarity,
        )

    async def by_arxiv_id(self, arxiv_id: str) -> Record | None:
        """The preprint of an id (any form, any version); None when arXiv has none or the id is malformed.

        None only for arXiv's definite answers: an empty feed (the id is well formed, no such preprint)
        or its "incorrect id format" Error entry. Any other Error entry, a feed whose count promises
        entries it does not hold, or entries that are not this id are no answer: `Unreachable`.
        """
        canonical = normalize_arxiv_id(arxiv_id)
        if canonical is None:
            return None  # arXiv would answer its "incorrect id format" Error entry: no request needed
        feed = await self._query({"id_list": canonical, "max_results": "1"})
        if feed.error is not None:
            if feed.error.lower().startswith(_BAD_ID_FORMAT):
                return None
            raise Unreachable(NAME, f"arXiv did not answer for the id {canonical}: {feed.error}")
        found = next((r for r in feed.records if r.arxiv_id == canonical), None)
        if found is not None:
            return found
        if feed.entries or feed.total:
            raise Unreachable(
                NAME,
                f"the feed for {canonical} holds {feed.entries} other or unreadable entries "
                f"(totalResults {feed.total})",
            )
        return None

    async def search(self, title: str, max_results: int | None = None) -> list[Record]:
        """Preprints whose title holds the title as a phrase, in arXiv's relevance order."""
        phrase = collapse_whitespace(_QUERY_SYNTAX.sub(" ", title))
        if not phrase:
            return []
        params = {
            "search_query": f'ti:"{phrase}"',
            "max_results": str(max_results or self.max_results),
            "sortBy": "relevance",
        }
        feed = await self._query(params)
        if feed.error is not None:
            raise Unreachable(NAME, f"arXiv did not understand the query: {feed.error}")
        return feed.records

    async def _query(self, params: dict[str, str]) -> Feed:
        version = self._today().isoformat()
        # Parsed before it is cached, so a body that is no feed is never kept in the HTTP cache.
        feed = await self.http.read(
            f"{self.base_url}/query", params, lambda fetched: parse_feed(fetched.body, version)
        )
        if feed is None:  # only a recognised 404 is None, and none is recognised here
            raise Unreachable(NAME, "no answer")
        return feed


def cited_arxiv_id(cited: ParsedFields) -> str | None:
    """The cited arXiv id, or the one an arXiv DOI (10.48550/arXiv.…) names."""
    if cited.arxiv_id:
        return normalize_arxiv_id(cited.arxiv_id)
    doi = normalize_doi(cited.doi) if cited.doi else None
    return arxiv_id_from_doi(doi) if doi else None


def parse_feed(body: bytes, version: str) -> Feed:
    """The records of an Atom feed; Unreachable when the body is not one."""
    # A parser that never fetches or expands anything a hostile feed declares (one per call: lxml
    # parsers are not to be shared between threads).
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError as error:
        text = " ".join(body[:80].decode("utf-8", "replace").split())
        raise Unreachable(NAME, f"the answer is not an Atom feed ({error}): {text!r}") from None
    if root is None or root.tag != f"{ATOM}feed":
        raise Unreachable(NAME, f"the answer is not an Atom feed (root {getattr(root, 'tag', None)!r})")
    entries = root.findall(f"{ATOM}entry")
    total = _total_results(root)
    for entry in entries:
        entry_id = _child_text(entry, "id")
        titled_error = _child_text(entry, "title") == "Error" and not normalize_arxiv_id(entry_id)
        if _ERROR_ID in entry_id or titled_error:
            return Feed([], _child_text(entry, "summary") or "unspecified error", len(entries), total)
    records = map_items(entries, lambda entry: entry_record(entry, version))
    return Feed(records, None, len(entries), total)


def _total_results(root: Any) -> int | None:
    text = _child_text(root, "totalResults", OPENSEARCH)
    return int(text) if text.isdecimal() else None


def entry_record(entry: Any, version: str) -> Record | None:
    """One `<entry>` as a record; None without an arXiv id or a title."""
    arxiv_id = normalize_arxiv_id(_child_text(entry, "id"))
    title = latex_to_unicode(_child_text(entry, "title"))
    if arxiv_id is None or not title:
        return None
    authors = [_child_text(author, "name") for author in entry.findall(f"{ATOM}author")]
    return Record(
        source=NAME,
        source_id=arxiv_id,
        source_version=version,
        title=title,
        authors=[latex_to_unicode(name) for name in authors if name],
        venue="arXiv",
        year=year_of(_child_text(entry, "published")),
        doi=doi_of(_child_text(entry, "doi", ARXIV)),
        arxiv_id=arxiv_id,
        url=f"https://arxiv.org/abs/{arxiv_id}",
        entry_type="preprint",
        # A withdrawn preprint says so in its comment; its `updated` is the withdrawing version's date.
        retraction=arxiv_withdrawal(_child_text(entry, "comment", ARXIV), _child_text(entry, "updated")),
    )


def _child_text(element: Any, tag: str, namespace: str = ATOM) -> str:
    """The text of the first child with this tag, whitespace collapsed (arXiv wraps long titles)."""
    child = element.find(f"{namespace}{tag}")
    return collapse_whitespace("".join(child.itertext())) if child is not None else ""
