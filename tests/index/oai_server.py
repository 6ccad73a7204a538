"""A loopback OAI-PMH server answering as arXiv's does (`verb=ListRecords&metadataPrefix=arXiv`), over the
records of arXiv's real metadata snapshot sample (`../shared/data/index/arxiv-oai-snapshot-sample-200.jsonl`,
turned into the `arXiv` metadata format as it is read; the datestamp is the record's `update_date`).

`from` / `until` select by datestamp; pages of `page_size` records end with a `resumptionToken` (empty on
the last page, as the protocol has it); `noRecordsMatch` when nothing is selected. Faults: `expire_tokens`
(every token is then `badResumptionToken`), `busy` (503 + Retry-After for the next N requests, arXiv's
flow control), `deleted` (ids answered with `<header status="deleted">`), `moved_to` (a request to `/moved`
is answered 302 to that URL, its query kept: a harvest URL that redirects).
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

from tests.loopback import LoopbackServer, QuietHandler, Served

_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n<responseDate>{now}</responseDate>\n'
    '<request verb="ListRecords">http://export.arxiv.org/oai2</request>\n'
)


def load_snapshot(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _created(work: dict[str, Any]) -> str:
    versions = work.get("versions") or [{}]
    stamp = versions[0].get("created")
    return parsedate_to_datetime(stamp).date().isoformat() if stamp else ""


def record_xml(work: dict[str, Any], deleted: bool = False) -> str:
    """One `<record>` in the `arXiv` metadata format."""
    status = ' status="deleted"' if deleted else ""
    header = (
        f"<header{status}><identifier>oai:arXiv.org:{work['id']}</identifier>"
        f"<datestamp>{work['update_date']}</datestamp></header>"
    )
    if deleted:
        return f"<record>{header}</record>\n"
    authors = "".join(
        f"<author><keyname>{escape(last)}</keyname><forenames>{escape(first)}</forenames>"
        + (f"<suffix>{escape(suffix)}</suffix>" if suffix else "")
        + "</author>"
        for last, first, suffix in ([*a, "", ""][:3] for a in work.get("authors_parsed") or [])
    )
    optional = "".join(
        f"<{tag}>{escape(str(work[key]))}</{tag}>"
        for tag, key in (("doi", "doi"), ("journal-ref", "journal-ref"), ("comments", "comments"))
        if work.get(key)
    )
    return (
        f'<record>{header}<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/">'
        f"<id>{work['id']}</id><created>{_created(work)}</created><authors>{authors}</authors>"
        f"<title>{escape(work['title'])}</title>{optional}<categories>{escape(work.get('categories') or '')}"
        f"</categories></arXiv></metadata></record>\n"
    )


class _Handler(QuietHandler):
    def do_GET(self) -> None:
        server: OaiServer = self.server.state
        url = urlsplit(self.path)
        status, body, headers = server.answer(url.path, url.query)
        self.send_response(status)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


class OaiServer(Served):
    def __init__(self, works: list[dict[str, Any]], page_size: int = 25, now: str = "2022-04-01") -> None:
        self.works = sorted(works, key=lambda w: (w["update_date"], w["id"]))
        self.page_size = page_size
        self.now = now
        self.expire_tokens = False
        self.busy = 0
        self.deleted: set[str] = set()
        self.moved_to: str | None = None
        self.requests: list[dict[str, str]] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self._server = LoopbackServer(self, _Handler, "oai-server")
        self.url = self._server.url + "/oai2"

    def answer(self, path: str, query: str) -> tuple[int, bytes, dict[str, str]]:
        params = {k: v[-1] for k, v in parse_qs(query).items()}
        with self.lock:
            self.requests.append(params)
            if path == "/moved" and self.moved_to:
                return 302, b"", {"Location": f"{self.moved_to}?{query}"}
            if self.busy:
                self.busy -= 1
                return 503, b"<html><body>Retry after 1 second</body></html>", {"Retry-After": "0"}
        head = _HEAD.format(now=f"{self.now}T00:00:00Z")
        if params.get("verb") != "ListRecords":
            return 200, (head + '<error code="badVerb">Illegal verb</error></OAI-PMH>').encode(), {}
        if "resumptionToken" in params:
            if self.expire_tokens:
                error = '<error code="badResumptionToken">Token expired</error>'
                return 200, (head + error + "</OAI-PMH>").encode(), {}
            offset_text, _, since = params["resumptionToken"].partition("|")
            offset, until = int(offset_text), ""
        else:
            if params.get("metadataPrefix") != "arXiv":
                error = '<error code="cannotDisseminateFormat">Unknown format</error>'
                return 200, (head + error + "</OAI-PMH>").encode(), {}
            offset, since, until = 0, params.get("from", ""), params.get("until", "")
        chosen = [
            w for w in self.works if w["update_date"] >= since and (not until or w["update_date"] <= until)
        ]
        if not chosen:
            error = '<error code="noRecordsMatch">No records match</error>'
            return 200, (head + error + "</OAI-PMH>").encode(), {}
        page = chosen[offset : offset + self.page_size]
        rest = offset + self.page_size
        token = f"{rest}|{since}" if rest < len(chosen) else ""
        body = head + "<ListRecords>\n" + "".join(record_xml(w, w["id"] in self.deleted) for w in page)
        body += (
            f'<resumptionToken cursor="{offset}" completeListSize="{len(chosen)}">{token}</resumptionToken>'
        )
        return 200, (body + "</ListRecords></OAI-PMH>").encode(), {}


def utc_today() -> str:
    return datetime.now(UTC).date().isoformat()
