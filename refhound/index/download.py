"""Dumps over HTTP: a streamed download that resumes, retries, and is never silently short.

`download(url, folder)` streams the body into `NAME.part` beside its final name, reporting bytes, rate and
ETA to a callback. A cut connection is resumed with `Range: bytes=N-` (a server that ignores it answers
200 and the file starts over); transient failures (connection, timeout, HTTP 408/429/5xx) are retried with
exponential backoff. A body shorter than its declared length is an error, never a dump. The file becomes
`NAME` only when it is whole: its declared length reached, its gzip stream complete (a `.gz` is read to its
end), its publisher's checksum matched (`checksum_url`, e.g. dblp's `dblp.xml.gz.md5`). A wrong checksum
or a truncated gzip deletes the download (resuming it would keep the bad bytes); a failed transfer keeps
`NAME.part`, so running again resumes it. Anything that is no dump — an HTML page, a 404 — is one clear
error naming what came instead.

Every request goes through refhound's one client (`refhound.net.http.make_client`) and its address guard, as
any other fetch does: a dump URL on a loopback, private or link-local address is refused unless the setting
`net.allow` names it. `BlockingClient` is that client for the harvests (refhound/index/oai.py,
refhound/index/api_harvest.py), which fetch page by page from code that cannot await.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import logging
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import httpx

from refhound.errors import IngestError
from refhound.net.guard import AddressRefused
from refhound.net.http import make_client, transport_problem
from refhound.net.loop_thread import LoopRuntime
from refhound.settings import Settings

logger = logging.getLogger(__name__)

_RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_CHUNK = 1 << 20
_HTML_STARTS = (b"<!doctype html", b"<html")

#: progress(bytes so far, total bytes or None, bytes per second)
Progress = Callable[[int, int | None, float], None]


class DownloadError(IngestError):
    """A dump URL gave no whole dump; the message says what came instead and whether a rerun resumes."""


class NotModified(Exception):
    """The server says the dump is the one already held (HTTP 304 to `If-None-Match`)."""


@dataclass(frozen=True)
class Downloaded:
    path: Path
    url: str
    bytes: int
    etag: str | None
    last_modified: str | None
    md5: str
    resumed: bool
    checksum_checked: bool = False


@dataclass(frozen=True)
class Patience:
    """Retries and timeouts of one download."""

    retries: int = 5
    backoff_s: float = 2.0
    max_wait_s: float = 120.0
    timeout_s: float = 60.0


class _Transient(Exception):
    """Worth another attempt (from where the file ends)."""


class BlockingClient(LoopRuntime):
    """`make_client`'s guarded client for blocking code: the harvests are generators read while the index is
    written, so they cannot await. The client lives on a `LoopRuntime`'s loop thread, as the online sources'
    does, and keeps its connections for a whole harvest; `close()` it, or use it in `with`. Redirects are
    followed as by any guarded client: each hop connects through the guard, so a redirect to a refused
    address raises `AddressRefused` (naming the host) before any packet."""

    def __init__(self, settings: Settings, timeout_s: float) -> None:
        super().__init__("refhound-harvest", logger)
        self._client = make_client(settings)
        self._client.timeout = httpx.Timeout(timeout_s)

    def get(self, url: str, params: dict[str, str]) -> httpx.Response:
        """The whole answer to `GET url?params`; httpx's errors (and `AddressRefused`) as they come."""
        return self._loop.run(self._client.get(url, params=params))

    async def _shutdown(self) -> None:
        await self._client.aclose()


def is_url(value: str) -> bool:
    return value.startswith(("http://", "https://"))


def file_name(url: str) -> str:
    """The dump's file name: the URL path's last part."""
    name = unquote(urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1])
    return name or "dump"


def download(
    url: str,
    folder: Path,
    settings: Settings,
    *,
    progress: Progress | None = None,
    checksum_url: str | None = None,
    patience: Patience | None = None,
    unless_etag: str | None = None,
) -> Downloaded:
    """The whole dump at `url`, in `folder`; see the module for what "whole" means. With `unless_etag`,
    `NotModified` when the server says the dump still has that ETag (nothing is downloaded). `settings`
    give the address guard its exceptions (`net.allow`)."""
    return asyncio.run(
        _download(url, folder, settings, progress, checksum_url, patience or Patience(), unless_etag)
    )


async def _download(
    url: str,
    folder: Path,
    settings: Settings,
    progress: Progress | None,
    checksum_url: str | None,
    patience: Patience,
    unless_etag: str | None,
) -> Downloaded:
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / file_name(url)
    part = final.with_name(final.name + ".part")
    async with make_client(settings) as http:
        http.timeout = httpx.Timeout(patience.timeout_s)
        expected_md5 = await _published_md5(http, checksum_url, patience) if checksum_url else None
        resumed, etag, modified = await _transfer(http, url, part, progress, patience, unless_etag)
        size = part.stat().st_size
        if final.name.endswith(".gz"):
            _check_gzip(part, url)
        md5 = _md5_of(part)
        if expected_md5 is not None and md5 != expected_md5:
            part.unlink()
            raise DownloadError(
                url,
                f"checksum mismatch: md5 {md5}, the publisher's {checksum_url} says {expected_md5} "
                "(the download was deleted; run again to fetch it anew)",
            )
        part.replace(final)
    return Downloaded(final, url, size, etag, modified, md5, resumed, expected_md5 is not None)


def fetch_beside(url: str, name: str, folder: Path, settings: Settings) -> Path:
    """A small companion file published beside a dump (dblp's `dblp.dtd`), into `folder`."""
    return download(urljoin(url, name), folder, settings).path


async def _transfer(
    http: httpx.AsyncClient,
    url: str,
    part: Path,
    progress: Progress | None,
    patience: Patience,
    unless_etag: str | None = None,
) -> tuple[bool, str | None, str | None]:
    """Stream `url` into `part`, resuming and retrying; (whether it resumed, ETag, Last-Modified)."""
    resumed = part_size(part) > 0
    problem = ""
    for attempt in range(patience.retries + 1):
        if attempt:
            await asyncio.sleep(min(patience.backoff_s * 2 ** (attempt - 1), patience.max_wait_s))
        try:
            etag, modified = await _attempt(http, url, part, progress, unless_etag)
            return resumed, etag, modified
        except _Transient as error:
            problem = str(error)
            resumed = resumed or part_size(part) > 0
    kept = part_size(part)
    raise DownloadError(
        url,
        f"{problem} (after {patience.retries + 1} attempts); {kept:,} bytes kept in {part}: "
        "run the same command again to resume",
    )


def part_size(part: Path) -> int:
    return part.stat().st_size if part.exists() else 0


async def _attempt(
    http: httpx.AsyncClient, url: str, part: Path, progress: Progress | None, unless_etag: str | None = None
) -> tuple[str | None, str | None]:
    """One request: the rest of the body appended to `part`; (ETag, Last-Modified). `_Transient` to retry."""
    have = part_size(part)
    headers = {"Range": f"bytes={have}-"} if have else {}
    if unless_etag and not have:
        headers["If-None-Match"] = unless_etag
    try:
        async with http.stream("GET", url, headers=headers) as response:
            status = response.status_code
            if status == 304:
                raise NotModified(url)
            if status == 416 and have:
                # The range starts at or past the end: what we hold is stale or whole; start over.
                part.unlink()
                raise _Transient("HTTP 416 for a resumed range: starting over")
            if status in _RETRY_STATUS:
                raise _Transient(f"HTTP {status}")
            if status not in (200, 206):
                raise DownloadError(url, f"HTTP {status}: {_snippet(await response.aread())}")
            total, offset = _extent(response, have)
            await _refuse_html(url, response)
            done = offset
            started = time.monotonic()
            try:
                with part.open("ab" if offset else "wb") as out:
                    async for chunk in response.aiter_bytes():
                        if done == 0 and chunk[:64].lstrip().lower().startswith(_HTML_STARTS):
                            raise DownloadError(url, f"answered an HTML page, not a dump: {_snippet(chunk)}")
                        out.write(chunk)
                        done += len(chunk)
                        if progress:
                            progress(done, total, (done - offset) / max(time.monotonic() - started, 1e-6))
            except OSError as error:  # a full disk, a read-only folder: not worth retrying
                raise DownloadError(
                    url,
                    f"cannot write {part}: {error.strerror or error} ({done:,} bytes kept; free space and "
                    "run again to resume)",
                ) from None
            if total is not None and done < total:
                raise _Transient(f"the body ended at {done:,} of {total:,} bytes")
            if total is not None and done > total:
                part.unlink()
                raise _Transient(f"the body ran past its declared {total:,} bytes")
            return response.headers.get("ETag"), response.headers.get("Last-Modified")
    except AddressRefused as error:  # asking again gives the same answer
        raise DownloadError(url, str(error)) from None
    except (httpx.TransportError, httpx.TimeoutException) as error:
        raise _Transient(transport_problem(url, error)) from None


def _extent(response: httpx.Response, have: int) -> tuple[int | None, int]:
    """(the whole file's size if declared, the offset this body starts at)."""
    if response.status_code == 206:
        content_range = response.headers.get("Content-Range", "")  # bytes START-END/TOTAL
        span, _, whole = content_range.removeprefix("bytes ").partition("/")
        start = span.partition("-")[0]
        if not start.isdecimal() or int(start) != have:
            raise _Transient(f"the server resumed at {content_range!r}, not at byte {have}")
        return (int(whole) if whole.isdecimal() else None), have
    length = response.headers.get("Content-Length", "")
    return (int(length) if length.isdecimal() else None), 0


async def _refuse_html(url: str, response: httpx.Response) -> None:
    kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if kind in ("text/html", "application/xhtml+xml") and not url.lower().endswith((".html", ".htm")):
        raise DownloadError(
            url, f"answered an HTML page ({kind}), not a dump: {_snippet((await response.aread())[:200])}"
        )


def _check_gzip(path: Path, url: str) -> None:
    """Read a gzip file to its end: a stream cut short (or not gzip at all) is an error."""
    try:
        with gzip.open(path, "rb") as stream:
            while stream.read(_CHUNK):
                pass
    except (EOFError, OSError, zlib.error) as error:
        path.unlink()
        raise DownloadError(
            url, f"not a whole gzip file ({error}); the download was deleted: run again to fetch it anew"
        ) from None


def _md5_of(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with path.open("rb") as stream:
        while chunk := stream.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


async def _published_md5(http: httpx.AsyncClient, url: str, patience: Patience) -> str | None:
    """The hex digest of an `md5sum`-style file (`HASH  NAME` or the bare hash); None when the publisher
    has none there (a 404: dblp publishes one for `dblp.xml.gz`, not for every file beside it)."""
    problem = "it kept answering with a server error"
    for attempt in range(patience.retries + 1):
        if attempt:
            await asyncio.sleep(min(patience.backoff_s * 2 ** (attempt - 1), patience.max_wait_s))
        try:
            response = await http.get(url)
        except AddressRefused as error:
            raise DownloadError(url, str(error)) from None
        except (httpx.TransportError, httpx.TimeoutException) as error:
            problem = transport_problem(url, error)
            continue
        if response.status_code in _RETRY_STATUS:
            continue
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise DownloadError(url, f"the checksum file answered HTTP {response.status_code}")
        words = response.text.split()
        digest = words[0].lower() if words else ""
        if len(digest) != 32 or any(c not in "0123456789abcdef" for c in digest):
            raise DownloadError(url, f"not an md5 checksum file: {_snippet(response.content)}")
        return digest
    raise DownloadError(url, f"the checksum file could not be fetched: {problem}")


def _snippet(body: bytes) -> str:
    text = " ".join(body[:400].decode("utf-8", "replace").split())
    return repr(text[:120] + ("…" if len(text) > 120 else ""))
