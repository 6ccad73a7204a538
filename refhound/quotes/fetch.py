"""Getting a cited source's text: local files, URLs, DOIs and arXiv ids, each read once per run.

Downloads go through the shared polite GET (`refhound.net.http`: one `httpx.AsyncClient`, a rate
limit and a concurrency cap per host, retries for transport errors, 408, 429 and 5xx, a body cap), so a
report citing one site fifty times does not hammer it. Each host has its own circuit breaker: three sites
that are down say nothing about a fourth. An arXiv id (or an arxiv.org/abs URL) is read from
its PDF; a DOI through its resolver's redirect to the landing page, and from there the full-text PDF the
page declares (`citation_pdf_url`) when there is one — else the landing page itself, with a warning.

Every source keeps the SHA-256 of the bytes it was read from and when, and a target that yields no text
is `Unresolved` with the reason — never an empty source that every quote would be "not found" in. With
`check.offline` set, nothing is fetched: such targets are unresolved with the reason "offline".
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

from refhound.errors import InputError, Unreachable
from refhound.inputs.files import check_input_file
from refhound.net.http import Fetched, HttpPool, Policy, ServiceHttp
from refhound.normalize.identifiers import arxiv_id_from_doi, normalize_arxiv_id
from refhound.quotes.errors import SourceUnreadable
from refhound.quotes.models import SourceText, Target, Unresolved
from refhound.quotes.textof import content_to_text, html_pdf_link, looks_like_html, looks_like_pdf
from refhound.settings import Settings

OFFLINE = "offline: the source is on the network and check.offline is set"
NO_LOCAL_FILES = (
    "a local file the document names: refused (--no-local-files; give it with --source to read it)"
)
_ARXIV_PAGE = re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|html)/(.+?)/?$", re.IGNORECASE)
Resolved = SourceText | Unresolved


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def quotes_policy(settings: Settings) -> Policy:
    """The download policy: the quote checker's own limits, patience and body cap."""
    quotes = settings.quotes
    return Policy(
        rate_per_s=quotes.rate_per_s,
        concurrency=quotes.concurrency,
        timeout_s=quotes.timeout_s,
        retries=quotes.retries,
        backoff_s=0.5,
        max_wait_s=30.0,
        max_bytes=quotes.max_source_bytes,
    )


class SourceFetcher:
    """Resolves targets to source texts; each locator is read once, even when many citations share it."""

    def __init__(
        self, settings: Settings, pool: HttpPool | None, given_files: frozenset[str] = frozenset()
    ) -> None:
        """`given_files` are the paths the user named (`--source`): read even when `quotes.local_files`
        is off, which refuses the paths the document names."""
        self.settings = settings
        self.pool = pool
        self.given_files = given_files
        self.offline = settings.check.offline or pool is None
        self._hosts: dict[str, ServiceHttp] = {}  # one per host, for its own circuit breaker
        self._tasks: dict[str, asyncio.Task[Resolved]] = {}

    async def get(self, target: Target) -> Resolved:
        """The source's text, or why there is none."""
        key = target.locator
        if key not in self._tasks:
            self._tasks[key] = asyncio.ensure_future(self._resolve(target))
        return await self._tasks[key]

    async def _resolve(self, target: Target) -> Resolved:
        if target.kind == "file":
            return await asyncio.to_thread(self._file, target)
        if self.offline:
            return Unresolved(target.locator, OFFLINE)
        try:
            if target.kind == "arxiv":
                return await self._arxiv(target.value, target.locator)
            if target.kind == "doi":
                return await self._doi(target.value, target.locator)
            arxiv = _ARXIV_PAGE.match(target.value)
            if arxiv and (arxiv_id := normalize_arxiv_id(arxiv.group(1))):
                return await self._arxiv(arxiv_id, target.locator)
            return await self._url(target.value, target.locator)
        except SourceUnreadable as error:
            return Unresolved(target.locator, error.reason)

    # --- local files ------------------------------------------------------------------------------------

    def reads_file(self, target: Target) -> bool:
        return self.settings.quotes.local_files or target.value in self.given_files

    def _file(self, target: Target) -> Resolved:
        if not self.reads_file(target):
            return Unresolved(target.locator, f"{target.value}: {NO_LOCAL_FILES}")
        path = Path(target.value)
        try:
            check_input_file(path, self.settings.quotes.max_source_bytes, kind="source")
            data = path.read_bytes()
        except InputError as error:
            return Unresolved(target.locator, error.problem)
        except OSError as error:
            return Unresolved(target.locator, f"cannot be read: {error.strerror or error}")
        try:
            return self._source(target.locator, data, None, path.name, None)
        except SourceUnreadable as error:
            return Unresolved(target.locator, error.reason)

    # --- the network ------------------------------------------------------------------------------------

    def _service(self, url: str) -> ServiceHttp:
        assert self.pool is not None
        host = urlsplit(url).netloc.lower()
        if host not in self._hosts:
            self._hosts[host] = self.pool.service(f"quotes {host}", quotes_policy(self.settings))
        return self._hosts[host]

    async def _download(self, url: str) -> Fetched:
        try:
            fetched = await self._service(url).get(url)
        except Unreachable as error:
            raise SourceUnreadable(
                f"cannot be fetched: {str(error).removeprefix(error.source + ': ')}"
            ) from None
        assert fetched is not None  # no `missing` given: every 404 raises
        return fetched

    async def _url(self, url: str, locator: str) -> SourceText:
        fetched = await self._download(url)
        return await self._from_download(locator, url, fetched)

    async def _arxiv(self, arxiv_id: str, locator: str) -> SourceText:
        url = f"{self.settings.quotes.arxiv_pdf_url.rstrip('/')}/{arxiv_id}"
        fetched = await self._download(url)
        if not looks_like_pdf(fetched.body):
            raise SourceUnreadable(f"arXiv gave no PDF for {arxiv_id} ({fetched.content_type or 'no type'})")
        return await self._from_download(locator, url, fetched)

    async def _doi(self, doi: str, locator: str) -> SourceText:
        arxiv_id = arxiv_id_from_doi(doi)
        if arxiv_id is not None:
            return await self._arxiv(arxiv_id, locator)
        url = f"{self.settings.quotes.doi_resolver_url.rstrip('/')}/{doi}"
        landing = await self._download(url)
        if looks_like_html(landing.body, landing.content_type):
            pdf_url = html_pdf_link(landing.body, landing.content_type)
            if pdf_url and pdf_url.lower().startswith(("http://", "https://")):
                try:
                    full = await self._download(pdf_url)
                    if looks_like_pdf(full.body):
                        return await self._from_download(locator, pdf_url, full)
                except SourceUnreadable:
                    pass
            source = await self._from_download(locator, url, landing)
            source.warnings.append("only the DOI's landing page could be read, not the full text")
            return source
        return await self._from_download(locator, url, landing)

    async def _from_download(self, locator: str, url: str, fetched: Fetched) -> SourceText:
        name = url.rsplit("/", 1)[-1]
        return await asyncio.to_thread(self._source, locator, fetched.body, fetched.content_type, name, url)

    # --- bytes → a versioned source ----------------------------------------------------------------------

    def _source(
        self, locator: str, data: bytes, content_type: str | None, name: str, url: str | None
    ) -> SourceText:
        text, warnings = content_to_text(data, content_type, name, self.settings.extract)
        sha256 = hashlib.sha256(data).hexdigest()
        fetched_at = now_iso()
        if url is not None and self.settings.quotes.store_dir is not None:
            try:
                self._store(sha256, data, locator, url, content_type, fetched_at)
            except OSError as error:  # the check goes on; the copy is what is missing
                warnings.append(f"not kept in {self.settings.quotes.store_dir}: {error.strerror or error}")
        return SourceText(locator, text, sha256, fetched_at, url, content_type, warnings)

    def _store(
        self, sha256: str, data: bytes, locator: str, url: str, content_type: str | None, fetched_at: str
    ) -> None:
        """Keep a downloaded source's bytes under its hash, with a manifest line saying what they are."""
        directory = self.settings.quotes.store_dir
        assert directory is not None
        directory.mkdir(parents=True, exist_ok=True)
        (directory / f"{sha256}.bin").write_bytes(data)
        line = {
            "sha256": sha256,
            "locator": locator,
            "url": url,
            "content_type": content_type,
            "fetched_at": fetched_at,
            "bytes": len(data),
        }
        with (directory / "manifest.jsonl").open("a", encoding="utf-8") as manifest:
            manifest.write(json.dumps(line, ensure_ascii=False) + "\n")
