"""The link check: for every cited URL, what a GET gets — status, the URL after redirects, content type.

One GET per hop, through the shared client: redirects are followed here, hop by hop, each through its
host's gate (rate limit, concurrency cap) as the downloads' are; no body is read. A link's status is
reported as it is (a 404 is a finding, not an error); no answer at all (connection refused, timeout, a
redirect loop) is reported as the error. A `file://` target is checked on disk. Offline, nothing is
asked and the error says so.
"""

from __future__ import annotations

import asyncio
import mimetypes
from pathlib import Path

import httpx

from refhound.net.http import MAX_REDIRECTS, HttpPool, Policy
from refhound.quotes.fetch import now_iso
from refhound.quotes.models import LinkStatus, Target


def check_file_link(target: Target, url: str, *, looked_at: bool = True) -> LinkStatus:
    """Whether a `file://` link's file exists; not looked at (`looked_at` False) when local files are
    refused: its existence alone would tell something about the machine."""
    path = Path(target.value)
    kind = mimetypes.guess_type(path.name)[0]
    if not looked_at:
        return LinkStatus(url, None, None, kind, "not checked: local files are refused", now_iso())
    if path.is_file():
        return LinkStatus(url, None, path.as_uri(), kind, None, now_iso())
    return LinkStatus(url, None, None, kind, "no such file", now_iso())


async def check_link(pool: HttpPool | None, url: str, policy: Policy) -> LinkStatus:
    """Where a GET of `url` ends up; `pool` None means offline."""
    if pool is None:
        return LinkStatus(url, None, None, None, "offline: not checked", now_iso())
    try:
        request: httpx.Request | None = pool.client.build_request("GET", url, timeout=policy.timeout_s)
    except (httpx.InvalidURL, ValueError) as error:
        return LinkStatus(url, None, None, None, f"bad URL: {error}", now_iso())
    for _ in range(MAX_REDIRECTS + 1):
        assert request is not None
        try:
            response = await _hop(pool, request, policy)
        except (TimeoutError, httpx.TimeoutException):
            return LinkStatus(url, None, None, None, f"no answer within {policy.timeout_s:g} s", now_iso())
        except httpx.HTTPError as error:
            problem = f"{type(error).__name__}: {error or 'transport error'}"
            return LinkStatus(url, None, None, None, problem, now_iso())
        if response.next_request is None:
            content_type = response.headers.get("Content-Type")
            final = str(response.url)
            return LinkStatus(url, response.status_code, final, content_type, None, now_iso())
        request = response.next_request
    return LinkStatus(url, None, None, None, f"more than {MAX_REDIRECTS} redirects", now_iso())


async def _hop(pool: HttpPool, request: httpx.Request, policy: Policy) -> httpx.Response:
    """One request at its host's gate, redirects not followed, the body not read."""
    gate = pool.gate(request.url, policy)
    async with gate.slots:
        await gate.rate.wait()
        async with asyncio.timeout(policy.timeout_s):
            response = await pool.client.send(request, stream=True, follow_redirects=False)
            await response.aclose()
            return response
