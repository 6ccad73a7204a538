"""A loopback server speaking arXiv's API: Atom feeds from ``GET /query``.

- ``id_list=ID[,ID…]``: an entry per known id (any version asked for answers the latest); a well-formed
  id arXiv does not hold gives an empty feed (``totalResults`` 0); a malformed one gives arXiv's 200
  feed with one entry titled "Error" ("incorrect id format for …");
- ``search_query=ti:"phrase"``: the entries whose title holds the phrase (case and spacing aside);
  ``max_results`` caps them. Another query form is arXiv's Error entry too.

Titles are hard-wrapped as arXiv sends them; ids are ``http://arxiv.org/abs/{id}v{n}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from refhound.models import Record
from tests.sources.fake_service import FakeService, Reply, Request

ATOM_TYPE = "application/atom+xml; charset=utf-8"
_NEW_ID = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$")
_OLD_ID = re.compile(r"^[a-z-]+(\.[A-Z]{2})?/\d{7}(v\d+)?$")
_PHRASE = re.compile(r'^ti:"([^"]*)"$')
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Preprint:
    """An entry arXiv holds: the record plus what only arXiv says (versions, dates, journal ref)."""

    record: Record
    version: int = 1
    published: str = "2017-06-12T17:57:34Z"
    updated: str = "2023-08-02T00:41:18Z"
    journal_ref: str | None = None
    comment: str | None = None
    category: str = "cs.CL"


def entry_xml(preprint: Preprint) -> str:
    """One Atom entry in arXiv's layout (title wrapped after a few words, as arXiv does)."""
    record = preprint.record
    versioned = f"{record.arxiv_id}v{preprint.version}"
    title_words = record.title.split()
    wrapped = " ".join(title_words[:4]) + ("\n  " + " ".join(title_words[4:]) if title_words[4:] else "")
    parts = [
        "  <entry>",
        f"    <id>http://arxiv.org/abs/{versioned}</id>",
        f"    <updated>{preprint.updated}</updated>",
        f"    <published>{preprint.published}</published>",
        f"    <title>{escape(wrapped)}</title>",
        "    <summary>  An abstract that is\n  wrapped too.\n</summary>",
        *(f"    <author>\n      <name>{escape(name)}</name>\n    </author>" for name in record.authors),
    ]
    if record.doi:
        parts.append(f"    <arxiv:doi>{escape(record.doi)}</arxiv:doi>")
        parts.append(f'    <link title="doi" href="http://dx.doi.org/{escape(record.doi)}" rel="related"/>')
    if preprint.comment:
        parts.append(f"    <arxiv:comment>{escape(preprint.comment)}</arxiv:comment>")
    if preprint.journal_ref:
        parts.append(f"    <arxiv:journal_ref>{escape(preprint.journal_ref)}</arxiv:journal_ref>")
    parts += [
        f'    <link href="http://arxiv.org/abs/{versioned}" rel="alternate" type="text/html"/>',
        f'    <link title="pdf" href="http://arxiv.org/pdf/{versioned}" rel="related"'
        ' type="application/pdf"/>',
        f'    <arxiv:primary_category term="{preprint.category}" scheme="http://arxiv.org/schemas/atom"/>',
        f'    <category term="{preprint.category}" scheme="http://arxiv.org/schemas/atom"/>',
        "  </entry>",
    ]
    return "\n".join(parts)


def error_entry(message: str) -> str:
    anchor = message.replace(" ", "_")
    return "\n".join(
        [
            "  <entry>",
            f"    <id>http://arxiv.org/api/errors#{escape(anchor)}</id>",
            "    <title>Error</title>",
            f"    <summary>{escape(message)}</summary>",
            "    <updated>2025-05-06T00:00:00-04:00</updated>",
            f'    <link href="http://arxiv.org/api/errors#{escape(anchor)}" rel="alternate"'
            ' type="text/html"/>',
            "    <author>\n      <name>arXiv api core</name>\n    </author>",
            "  </entry>",
        ]
    )


def feed_xml(query: str, entries: list[str], total: int | None = None) -> bytes:
    """A whole feed, with the feed-level id, link and OpenSearch counts arXiv puts before the entries."""
    total = len(entries) if total is None else total
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f'  <link href={quoteattr("http://arxiv.org/api/query?" + query)} rel="self"'
        ' type="application/atom+xml"/>',
        f'  <title type="html">ArXiv Query: {escape(query)}</title>',
        "  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>",
        "  <updated>2025-05-06T00:00:00-04:00</updated>",
        f'  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{total}'
        "</opensearch:totalResults>",
        '  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>',
        f'  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{len(entries)}'
        "</opensearch:itemsPerPage>",
    ]
    # arXiv declares its own namespace on each element; declaring it once on the feed is equivalent XML.
    body = "\n".join(head + entries + ["</feed>", ""])
    return body.replace("<feed ", '<feed xmlns:arxiv="http://arxiv.org/schemas/atom" ', 1).encode()


def _folded(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


class ArxivServer(FakeService):
    name = "arxiv"

    def __init__(self, preprints: list[Preprint] | None = None, latency_s: float = 0.0) -> None:
        self.preprints = list(preprints or [])
        super().__init__(latency_s)

    def answer(self, request: Request) -> Reply:
        if request.path != "/query":
            return Reply(404, b"<html><body>Not Found</body></html>", "text/html")
        query = "&".join(f"{k}={v}" for k, v in request.params.items())
        limit = int(request.params.get("max_results", "10"))
        if ids := request.params.get("id_list"):
            entries = []
            for wanted in ids.split(","):
                if not (_NEW_ID.match(wanted) or _OLD_ID.match(wanted)):
                    return Reply(
                        200, feed_xml(query, [error_entry(f"incorrect id format for {wanted}")]), ATOM_TYPE
                    )
                bare = re.sub(r"v\d+$", "", wanted)
                entries += [entry_xml(p) for p in self.preprints if p.record.arxiv_id == bare]
            return Reply(200, feed_xml(query, entries[:limit]), ATOM_TYPE)
        match = _PHRASE.match(request.params.get("search_query", ""))
        if match is None:
            return Reply(200, feed_xml(query, [error_entry("malformed query")]), ATOM_TYPE)
        phrase = _folded(match.group(1))
        found = [entry_xml(p) for p in self.preprints if phrase and phrase in _folded(p.record.title)]
        return Reply(200, feed_xml(query, found[:limit], total=len(found)), ATOM_TYPE)
