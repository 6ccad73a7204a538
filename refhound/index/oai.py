"""arXiv's OAI-PMH interface: `ListRecords` in the `arXiv` metadata format, from a date, page by page.

A harvest asks `verb=ListRecords&metadataPrefix=arXiv&from=DATE`, then follows each page's
`resumptionToken` until an empty one, politely: `delay_s` between requests (arXiv asks for a few seconds),
a 503 with `Retry-After` (arXiv's flow control) waited out, other transient failures retried with backoff.
`noRecordsMatch` is an empty harvest, not an error. Any other OAI error — `badResumptionToken` (an expired
token), `badArgument` … — stops the harvest with one clear message: the pages already read stay valid, and
`token` / `from_date` say where a rerun resumes. Records with `<header status="deleted">` are listed in
`deleted`. The next harvest starts from this one's `responseDate` (`next_from`).

Every request goes through refhound's guarded client (`BlockingClient`, as dump downloads do): a base URL,
or a redirect, to a loopback, private or link-local address is refused at once, not retried, unless the
setting `net.allow` names it.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx
from lxml import etree

from refhound.errors import IngestError
from refhound.formats.fields import doi_of, person_name
from refhound.index.download import BlockingClient, Patience
from refhound.index.ingest.base import Dump
from refhound.models import Record
from refhound.net.guard import AddressRefused
from refhound.normalize.text import latex_to_unicode
from refhound.settings import Settings

ARXIV_OAI = "https://export.arxiv.org/oai2"
SOURCE = "arxiv"
_OAI = "{http://www.openarchives.org/OAI/2.0/}"
_ARXIV = "{http://arxiv.org/OAI/arXiv/}"
_RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})


class OaiError(IngestError):
    """The OAI-PMH server answered an error (or something that is no OAI-PMH answer)."""

    def __init__(self, url: str, problem: str, code: str = "") -> None:
        self.code = code
        super().__init__(url, problem)


@dataclass
class OaiHarvest:
    """One harvest's position and outcome; `records()` streams it (see the module)."""

    base_url: str
    from_date: str | None
    token: str | None = None
    delay_s: float = 3.0
    patience: Patience = field(default_factory=Patience)
    version: str = field(default_factory=lambda: dt.date.today().isoformat())
    settings: Settings | None = None  # the address guard's exceptions (`net.allow`); default: the user's
    deleted: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    next_from: str | None = None
    pages: int = 0
    failure: OaiError | None = None

    def dump(self) -> Dump:
        """The harvest as a dump to ingest; an OAI error ends it early and is kept in `failure`."""
        return Dump(
            source=SOURCE,
            version=self.version,
            complete=False,
            records=self._records_until_failure(),
            location=self.base_url,
            problems=self.problems,
        )

    def _records_until_failure(self) -> Iterator[Record]:
        try:
            yield from self.records()
        except OaiError as error:
            self.failure = error

    def records(self) -> Iterator[Record]:
        with BlockingClient(self.settings or Settings(), self.patience.timeout_s) as http:
            while True:
                root = self._page(http)
                self.pages += 1
                if self.next_from is None:
                    self.next_from = _response_date(root)
                listed = root.find(f"{_OAI}ListRecords")
                if listed is None:
                    return  # noRecordsMatch
                for element in listed.iterfind(f"{_OAI}record"):
                    header = element.find(f"{_OAI}header")
                    if header is not None and header.get("status") == "deleted":
                        identifier = header.findtext(f"{_OAI}identifier") or ""
                        self.deleted.append(identifier.rsplit(":", 1)[-1])
                        continue
                    record = _record(element, self.version)
                    if isinstance(record, str):
                        self.problems.append(record)
                    else:
                        yield record
                token = listed.find(f"{_OAI}resumptionToken")
                self.token = (token.text or "").strip() if token is not None else ""
                if not self.token:
                    self.token = None
                    return
                if self.delay_s:
                    time.sleep(self.delay_s)

    def _params(self) -> dict[str, str]:
        if self.token:
            return {"verb": "ListRecords", "resumptionToken": self.token}
        params = {"verb": "ListRecords", "metadataPrefix": "arXiv"}
        if self.from_date:
            params["from"] = self.from_date
        return params

    def _page(self, http: BlockingClient) -> etree._Element:
        """One page, retried as the module says; an OAI error raises `OaiError`."""
        problem = ""
        for attempt in range(self.patience.retries + 1):
            try:
                response = http.get(self.base_url, params=self._params())
            except AddressRefused as error:  # asking again gives the same answer
                raise OaiError(self.base_url, str(error)) from None
            except (httpx.TransportError, httpx.TimeoutException) as error:
                problem = f"{type(error).__name__}: {error}"
                time.sleep(min(self.patience.backoff_s * 2**attempt, self.patience.max_wait_s))
                continue
            if response.status_code in _RETRY_STATUS:
                problem = f"HTTP {response.status_code}"
                wait = response.headers.get("Retry-After", "")
                pause = float(wait) if wait.isdecimal() else self.patience.backoff_s * 2**attempt
                time.sleep(min(pause, self.patience.max_wait_s))
                continue
            if response.status_code != 200:
                raise OaiError(self.base_url, f"HTTP {response.status_code}{self._resume_hint()}")
            return self._parsed(response.content)
        raise OaiError(
            self.base_url, f"{problem} after {self.patience.retries + 1} attempts{self._resume_hint()}"
        )

    def _parsed(self, body: bytes) -> etree._Element:
        try:
            root = etree.fromstring(body, etree.XMLParser(resolve_entities=False, no_network=True))
        except etree.XMLSyntaxError as error:
            raise OaiError(self.base_url, f"not an OAI-PMH answer ({error}){self._resume_hint()}") from None
        if root.tag != f"{_OAI}OAI-PMH":
            raise OaiError(self.base_url, f"not an OAI-PMH answer (root <{root.tag}>){self._resume_hint()}")
        answer = root.find(f"{_OAI}error")
        if answer is not None:
            code = answer.get("code", "")
            if code == "noRecordsMatch":
                return root
            message = " ".join((answer.text or "").split())
            if code == "badResumptionToken":
                raise OaiError(
                    self.base_url,
                    f"the resumption token expired or is unknown ({message or code}); run the update again: "
                    f"it restarts from {self.from_date or 'the beginning'}",
                    code,
                )
            raise OaiError(self.base_url, f"OAI-PMH error {code}: {message}{self._resume_hint()}", code)
        return root

    def _resume_hint(self) -> str:
        if self.token:
            return f"; run the update again to resume at resumption token {self.token!r}"
        return f"; run the update again to harvest from {self.from_date or 'the beginning'}"


def _response_date(root: etree._Element) -> str | None:
    """The day of the server's `responseDate` (arXiv's granularity is a day)."""
    text = (root.findtext(f"{_OAI}responseDate") or "").strip()
    return text[:10] if len(text) >= 10 else None


def _record(element: etree._Element, version: str) -> Record | str:
    """An `arXiv`-format record as a preprint record, as the snapshot ingester maps one; or a problem."""
    meta = element.find(f"{_OAI}metadata/{_ARXIV}arXiv")
    if meta is None:
        return "a record without arXiv metadata"
    arxiv_id = (meta.findtext(f"{_ARXIV}id") or "").strip()
    title = latex_to_unicode(meta.findtext(f"{_ARXIV}title") or "")
    if not arxiv_id or not title:
        return f"record {arxiv_id or '?'}: no id or title"
    authors = []
    for author in meta.iterfind(f"{_ARXIV}authors/{_ARXIV}author"):
        last = latex_to_unicode(author.findtext(f"{_ARXIV}keyname") or "")
        first = latex_to_unicode(author.findtext(f"{_ARXIV}forenames") or "")
        suffix = latex_to_unicode(author.findtext(f"{_ARXIV}suffix") or "")
        if name := person_name(first, last, suffix):
            authors.append(name)
    created = (meta.findtext(f"{_ARXIV}created") or "").strip()
    doi = doi_of(meta.findtext(f"{_ARXIV}doi"))  # the first of several (erratum DOIs follow)
    return Record(
        source=SOURCE,
        source_id=arxiv_id,
        source_version=version,
        title=title,
        authors=authors,
        venue="arXiv",
        year=int(created[:4]) if created[:4].isdecimal() else None,
        doi=doi,
        arxiv_id=arxiv_id,
        url=f"https://arxiv.org/abs/{arxiv_id}",
        entry_type="preprint",
    )
