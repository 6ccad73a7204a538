"""A loopback server playing doi.org and the registration agencies behind it.

- ``GET /{doi}`` with ``Accept: application/vnd.citationstyles.csl+json`` → a 302 to the agency's content
  negotiation (here ``/agency/csl/{doi}``, as doi.org sends Crossref DOIs to api.crossref.org), which
  answers CSL-JSON; for an agency without content negotiation, a 302 to the landing page (200, HTML);
- ``GET /{doi}`` with any other Accept → a 302 to the landing page;
- an unregistered DOI → doi.org's 404 HTML page "DOI Not Found";
- ``GET /api/handles/{doi}`` → ``{"responseCode": 1, "handle", "values": [{"index": 1, "type": "URL", …}]}``,
  or a 404 with ``{"responseCode": 100, "handle"}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from refhound.models import Record
from tests.sources.fake_service import FakeService, Reply, Request, json_reply, redirect

CSL_JSON = "application/vnd.citationstyles.csl+json"
NOT_FOUND_PAGE = (
    b"<!DOCTYPE html><html lang='en'><head><title>DOI Not Found</title></head><body>"
    b"<h1>DOI Not Found</h1><p>This DOI cannot be found in the DOI System. Possible reasons are:</p>"
    b"<ul><li>The DOI is incorrect in your source.</li><li>The DOI was copied incorrectly.</li>"
    b"<li>The DOI has not been activated yet.</li></ul></body></html>"
)
_CSL_TYPES = {
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "preprint": "article",
    "book": "book",
}


@dataclass(frozen=True)
class Registration:
    """A registered DOI: its CSL-JSON when its agency negotiates content, else None (landing page only)."""

    doi: str
    csl: dict[str, Any] | None


def csl_json(record: Record) -> dict[str, Any]:
    """A refhound record as the CSL-JSON an agency returns (Crossref's transform has this shape)."""
    doi = record.doi or record.source_id
    authors = []
    for index, name in enumerate(record.authors):
        given, _, family = name.rpartition(" ")
        authors.append(
            {"given": given, "family": family, "sequence": "first" if index == 0 else "additional"}
        )
    item: dict[str, Any] = {
        "type": _CSL_TYPES.get(record.entry_type or "", "article-journal"),
        "DOI": doi,
        "URL": f"https://doi.org/{doi}",
        "title": record.title,
        "author": authors,
        "publisher": "Test Publisher",
        "source": "Crossref",
    }
    if record.venue:
        item["container-title"] = record.venue
    if record.year:
        item["issued"] = {"date-parts": [[record.year, 6]]}
    return item


class DoiServer(FakeService):
    name = "doi"

    def __init__(self, registrations: list[Record | Registration] | None = None) -> None:
        self.registered: dict[str, Registration] = {}
        for item in registrations or []:
            registration = (
                item if isinstance(item, Registration) else Registration(str(item.doi), csl_json(item))
            )
            self.registered[registration.doi.lower()] = registration
        super().__init__()

    def answer(self, request: Request) -> Reply:
        path = request.path
        if path.startswith("/api/handles/"):
            handle = path.removeprefix("/api/handles/")
            if handle.lower() not in self.registered:
                return json_reply({"responseCode": 100, "handle": handle}, 404)
            value = {"format": "string", "value": f"{self.url}/landing/{handle}"}
            values = [
                {"index": 1, "type": "URL", "data": value, "ttl": 86400, "timestamp": "2016-12-12T18:05:09Z"}
            ]
            return json_reply({"responseCode": 1, "handle": handle, "values": values})
        if path.startswith("/agency/csl/"):
            registration = self.registered.get(path.removeprefix("/agency/csl/").lower())
            if registration is None or registration.csl is None:
                return Reply(406, b"Not Acceptable", "text/plain")
            return json_reply(registration.csl, content_type=CSL_JSON)
        if path.startswith("/landing/"):
            return Reply(
                200, b"<html><head><title>Article</title></head><body>An article</body></html>", "text/html"
            )
        doi = path.removeprefix("/")
        registration = self.registered.get(doi.lower())
        if registration is None:
            return Reply(404, NOT_FOUND_PAGE, "text/html;charset=utf-8")
        wants_csl = CSL_JSON in request.headers.get("accept", "")
        if wants_csl and registration.csl is not None:
            return redirect(f"{self.url}/agency/csl/{quote(doi)}")
        return redirect(f"{self.url}/landing/{quote(doi)}")
