"""A loopback server speaking dblp's publication search API (`/search/publ/api?q=…&format=json&h=N`).

Like dblp, it finds the publications whose title, authors or venue hold every query word (as a word
prefix) and answers ``{"result": {"query", "status": {"@code": "200", "text": "OK"}, "time", "completions",
"hits": {"@total", "@computed", "@sent", "@first", "hit": [{"@score", "@id", "info": {…}, "url"}]}}}``,
with no ``hit`` key when nothing matched. A lone author is an object, not a list of one, as in dblp's JSON.
Asked for another format than json it answers XML, which the client must never ask for.
"""

from __future__ import annotations

import re
from typing import Any

from refhound.models import Record
from tests.sources.fake_service import FakeService, Reply, Request, json_reply

_TYPES = {
    "article": "Journal Articles",
    "inproceedings": "Conference and Workshop Papers",
    "preprint": "Informal and Other Publications",
    "book": "Books and Theses",
}
_WORD = re.compile(r"\w+")
TOO_MANY = b"<html><head><title>429 Too Many Requests</title></head><body>Too Many Requests</body></html>"


def info_json(record: Record, key: str) -> dict[str, Any]:
    """A refhound record as the `info` of a dblp hit (dblp's spelling: title with a final period)."""
    authors: list[dict[str, str]] = [
        {"@pid": f"{i:02d}/{1000 + i}", "text": name} for i, name in enumerate(record.authors)
    ]
    info: dict[str, Any] = {
        "authors": {"author": authors[0] if len(authors) == 1 else authors},
        "title": record.title if record.title.endswith(("?", "!")) else record.title + ".",
        "venue": record.venue,
        "year": str(record.year),
        "type": _TYPES.get(record.entry_type or "", "Journal Articles"),
        "access": "closed",
        "key": key,
        "ee": f"https://doi.org/{record.doi}" if record.doi else f"https://example.org/{key}",
        "url": f"https://dblp.org/rec/{key}",
    }
    if record.doi:
        info["doi"] = record.doi
    if not record.authors:
        del info["authors"]
    return info


def _searchable(info: dict[str, Any]) -> set[str]:
    authors = info.get("authors", {}).get("author", [])
    names = [a["text"] for a in (authors if isinstance(authors, list) else [authors])]
    venue = info.get("venue") or ""
    text = " ".join([info.get("title", ""), *names, *(venue if isinstance(venue, list) else [venue])])
    return set(_WORD.findall(text.lower()))


class DblpServer(FakeService):
    name = "dblp"

    def __init__(self, entries: list[Record | dict[str, Any]] | None = None, latency_s: float = 0.0) -> None:
        self.infos: list[dict[str, Any]] = []
        for number, entry in enumerate(entries or []):
            self.infos.append(
                info_json(entry, f"journals/test/Entry{number}") if isinstance(entry, Record) else entry
            )
        super().__init__(latency_s)

    def answer(self, request: Request) -> Reply:
        if request.path != "/search/publ/api":
            return Reply(404, b"<html><body><h1>Not Found</h1></body></html>", "text/html")
        if request.params.get("format", "xml") != "json":
            return Reply(200, b'<?xml version="1.0"?><result><hits total="0"/></result>', "text/xml")
        query = request.params.get("q", "")
        wanted = _WORD.findall(query.lower())
        found = [
            i
            for i in self.infos
            if wanted and all(any(w.startswith(q) for w in _searchable(i)) for q in wanted)
        ]
        sent = found[: int(request.params.get("h", "30"))]
        hits: dict[str, Any] = {
            "@total": str(len(found)),
            "@computed": str(len(found)),
            "@sent": str(len(sent)),
            "@first": "0",
        }
        if sent:
            hits["hit"] = [
                {"@score": str(10 - n), "@id": str(4000 + n), "info": info, "url": f"URL#{4000 + n}"}
                for n, info in enumerate(sent)
            ]
        result = {
            "query": f"{query}*",
            "status": {"@code": "200", "text": "OK"},
            "time": {"@unit": "msecs", "text": "3.21"},
            "completions": {"@total": "0", "@computed": "0", "@sent": "0"},
            "hits": hits,
        }
        return json_reply({"result": result}, content_type="application/json; charset=utf-8")
