"""A venue's submissions from OpenReview's API (v2), downloaded politely and resumably for a triage.

The API, as openreview-py's `OpenReviewClient` speaks it:

- `GET /notes?content.venueid=VENUE_ID` (or `?invitation=VENUE_ID/-/Submission` when the id names an
  invitation) answers `{"notes": [...], "count": N}`; pages are asked with `sort=id`, `limit` and, after the
  first, `after=<the last note's id>` until a page comes back empty (openreview-py's `efficient_iterget`).
- A v2 note keeps each field as `{"value": …}` under `content`: `title`, `authors`, `venue`, `venueid`,
  `pdf` (`/pdf/<sha1>.pdf` for a PDF the venue holds; a URL elsewhere for an imported record).
- `GET /attachment?id=NOTE_ID&name=pdf` answers the PDF's bytes.
- A token (a chair's, for submissions that are not public) goes in `Authorization: Bearer TOKEN`; it is
  read from the environment variable `openreview.token_env` names and never written anywhere.

Politeness: one request at a time, at most `openreview.rate_per_s`; a transport error, 429 or 5xx is
retried after `backoff_s` doubling (or the Retry-After asked for), at most `max_wait_s`. Resumable: each PDF
is written as `<note id>.pdf` through a `.part` file renamed when whole, and a PDF already there is not
fetched again. Every request goes through the client's transport, which is the SSRF guard's
(`refhound.net.http.make_client`). A submission without a PDF the venue holds, or whose PDF the API refuses,
is listed with its reason, not downloaded.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

from refhound.errors import SourceError, Unreachable
from refhound.net.http import RateLimiter, make_client
from refhound.settings import OpenReviewSettings, Settings

NAME = "openreview"
_PDF_MAGIC = b"%PDF-"
_RETRIED = frozenset({408, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class Submission:
    """One note of the venue, as much of it as the triage shows."""

    id: str
    number: int | None
    title: str
    authors: tuple[str, ...]
    venue: str | None
    venueid: str | None
    pdf: str | None  # the `pdf` field's value: "/pdf/<sha1>.pdf", a URL elsewhere, or None

    @property
    def held_pdf(self) -> bool:
        """Whether the venue holds the PDF itself (fetched as the note's attachment)."""
        return bool(self.pdf) and str(self.pdf).startswith(("/pdf/", "/attachment"))


def _value(content: dict[str, Any], name: str) -> Any:
    """A content field's value: v2 wraps each in {"value": …}; v1 notes (and reshaped copies) do not."""
    field_value = content.get(name)
    return field_value.get("value") if isinstance(field_value, dict) else field_value


def submission_of(note: Any) -> Submission | None:
    """A note as a submission; None for an object that is no note (no id)."""
    if not isinstance(note, dict) or not isinstance(note.get("id"), str) or not note["id"]:
        return None
    given = note.get("content")
    content: dict[str, Any] = given if isinstance(given, dict) else {}
    authors = _value(content, "authors")
    number = note.get("number")
    pdf = _value(content, "pdf")
    return Submission(
        id=note["id"],
        number=number if isinstance(number, int) and not isinstance(number, bool) else None,
        title=" ".join(str(_value(content, "title") or "").split()),
        authors=tuple(str(a) for a in authors) if isinstance(authors, list) else (),
        venue=_value(content, "venue") or None,
        venueid=_value(content, "venueid") or None,
        pdf=pdf if isinstance(pdf, str) and pdf else None,
    )


def listing_params(venue_id: str) -> dict[str, str]:
    """What selects the venue's submissions: an invitation id ("…/-/Submission") or a venue id."""
    return {"invitation": venue_id} if "/-/" in venue_id else {"content.venueid": venue_id}


class OpenReview:
    """The few API calls a triage needs, spaced and retried (see the module)."""

    def __init__(self, client: httpx.AsyncClient, settings: OpenReviewSettings, token: str | None) -> None:
        self.client = client
        self.settings = settings
        self.base_url = settings.base_url.rstrip("/")
        self.headers = {"Accept": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self._rate = RateLimiter(settings.rate_per_s)

    async def submissions(self, venue_id: str) -> list[Submission]:
        """Every note the venue id (or invitation) selects, in id order, page after page."""
        params = {**listing_params(venue_id), "sort": "id", "limit": str(self.settings.page_size)}
        found: list[Submission] = []
        after: str | None = None
        while True:
            page_params = {**params, **({"after": after} if after else {"count": "true"})}
            notes = _notes(await self._get("/notes", page_params, "application/json"))
            page = [s for s in map(submission_of, notes) if s is not None]
            found += page
            if len(notes) < self.settings.page_size or not page:  # the last page
                return found
            after = page[-1].id

    async def pdf(self, note_id: str) -> bytes:
        """The note's PDF; SourceError when the API refuses it (not public, none) or it is no PDF."""
        body = await self._get("/attachment", {"id": note_id, "name": "pdf"}, "application/pdf")
        if not body.startswith(_PDF_MAGIC):
            raise SourceError(NAME, f"the attachment of {note_id} is not a PDF")
        return body

    async def _get(self, path: str, params: dict[str, str], accept: str) -> bytes:
        url = f"{self.base_url}{path}"
        headers = {**self.headers, "Accept": accept}
        for attempt in range(self.settings.retries + 1):
            await self._rate.wait()
            wait: float | None = None
            try:
                body, status, retry_after = await self._read(url, params, headers)
            except httpx.TransportError as error:
                problem, wait = f"{type(error).__name__}: {error}", self._backoff(attempt, None)
            else:
                if status == 200:
                    return body
                problem = f"HTTP {status}{_message(body)}"
                if status not in _RETRIED:
                    raise SourceError(NAME, f"{path} refused: {problem}")
                wait = self._backoff(attempt, retry_after)
            if attempt == self.settings.retries:
                raise Unreachable(NAME, f"{path}: {problem} (after {attempt + 1} attempts)")
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")  # the loop returns or raises

    async def _read(
        self, url: str, params: dict[str, str], headers: dict[str, str]
    ) -> tuple[bytes, int, str | None]:
        """The body (at most `max_pdf_bytes`, which bounds listing pages too), status and Retry-After."""
        cap = self.settings.max_pdf_bytes
        timeout = httpx.Timeout(self.settings.timeout_s)
        async with self.client.stream(
            "GET", url, params=params, headers=headers, timeout=timeout
        ) as response:
            chunks, size = [], 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > cap:
                    raise SourceError(NAME, f"{url}: the answer is larger than {cap} bytes")
                chunks.append(chunk)
            return b"".join(chunks), response.status_code, response.headers.get("Retry-After")

    def _backoff(self, attempt: int, retry_after: str | None) -> float:
        asked = _seconds(retry_after)
        wait = asked if asked is not None else self.settings.backoff_s * 2**attempt
        return min(wait, self.settings.max_wait_s)


def _notes(body: bytes) -> list[Any]:
    try:
        data = json.loads(body)
    except ValueError as error:
        raise Unreachable(NAME, f"the listing is not JSON ({error})") from None
    notes = data.get("notes") if isinstance(data, dict) else None
    if not isinstance(notes, list):
        raise Unreachable(NAME, "the listing has no `notes` list")
    return notes


def _message(body: bytes) -> str:
    """The API's error message (`{"name", "message"}`), when it sent one."""
    try:
        data = json.loads(body)
    except ValueError:
        return ""
    message = data.get("message") if isinstance(data, dict) else None
    return f": {' '.join(str(message).split())[:200]}" if message else ""


def _seconds(retry_after: str | None) -> float | None:
    if not retry_after:
        return None
    if retry_after.strip().isdigit():
        return float(retry_after.strip())
    try:
        return max(0.0, email.utils.parsedate_to_datetime(retry_after).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


@dataclass
class Downloaded:
    """A venue's submissions in a folder: the PDFs there (fetched now or earlier) and those left out."""

    folder: Path
    submissions: list[Submission] = field(default_factory=list)
    papers: list[Path] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # note id → why no PDF
    fetched: int = 0
    reused: int = 0


def token_from_env(settings: OpenReviewSettings) -> str | None:
    """The chair's token, from the environment variable the settings name; None when unset."""
    return os.environ.get(settings.token_env) or None


async def download_venue(
    venue_id: str,
    folder: Path,
    settings: Settings,
    *,
    token: str | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Downloaded:
    """Every submission's PDF of the venue into `folder` (see the module); a listing beside the folder
    (`listing_path`) names each submission, its file, and why it has none."""
    folder.mkdir(parents=True, exist_ok=True)
    result = Downloaded(folder)
    async with make_client(settings, transport) as client:
        api = OpenReview(client, settings.openreview, token)
        result.submissions = await api.submissions(venue_id)
        for done, submission in enumerate(result.submissions, start=1):
            await _download_one(api, submission, folder, result)
            if progress:
                progress(done, len(result.submissions))
    _write_listing(venue_id, result)
    return result


async def _download_one(api: OpenReview, submission: Submission, folder: Path, result: Downloaded) -> None:
    target = folder / f"{submission.id}.pdf"
    if _is_whole_pdf(target):
        result.papers.append(target)
        result.reused += 1
        return
    if not submission.held_pdf:
        result.skipped[submission.id] = (
            f"no PDF held by the venue (pdf: {submission.pdf})" if submission.pdf else "no PDF"
        )
        return
    try:
        body = await api.pdf(submission.id)
    except SourceError as error:  # refused or unreachable: this paper only
        result.skipped[submission.id] = error.problem
        return
    partial = target.with_suffix(".pdf.part")
    partial.write_bytes(body)
    partial.replace(target)
    result.papers.append(target)
    result.fetched += 1


def _is_whole_pdf(path: Path) -> bool:
    """A PDF left by an earlier run: renamed from its `.part` only when whole, and starting as a PDF."""
    try:
        with path.open("rb") as handle:
            return handle.read(len(_PDF_MAGIC)) == _PDF_MAGIC
    except OSError:
        return False


def listing_path(folder: Path) -> Path:
    """Where the listing is written: beside the folder (inside it, the triage would list it as skipped)."""
    return folder.parent / f"{folder.name}.json"


def _write_listing(venue_id: str, result: Downloaded) -> None:
    """The listing: each submission (its note id is its forum's), its file, and why it has none."""
    listing = {
        "venue_id": venue_id,
        "submissions": [
            {
                **asdict(s),
                "file": f"{s.id}.pdf" if s.id not in result.skipped else None,
                "skipped": result.skipped.get(s.id),
            }
            for s in result.submissions
        ],
    }
    listing_path(result.folder).write_text(json.dumps(listing, indent=2, ensure_ascii=False), "utf-8")
