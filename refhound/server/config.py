"""The server's own limits: what one request may send and how much work the server takes on at once.

They are options of `refhound serve` (not settings) because they describe this process, not a check.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class ServerLimits:
    """Caps that keep one client from exhausting the server."""

    max_upload_bytes: int = 50 * MB  # a whole request body, every file in it together
    max_files: int = 20  # files in one request
    max_pdf_pages: int = 300  # a manuscript longer than this is refused, not half-read
    max_references: int = 2000  # references in one job, after reading every input
    # One entry of an uploaded file (a BibTeX entry with its abstract fits); a longer one is skipped unparsed.
    max_entry_chars: int = 50_000
    workers: int = 2  # jobs checked at the same time
    queue: int = 64  # jobs waiting for a worker, beyond which a new one gets 429
    job_timeout_s: float = 600.0  # a job still running after this fails with that reason
    keep_finished_s: float = 3600.0  # a finished job's report can be fetched for this long
    retry_after_s: int = 5  # what a 429 answer's Retry-After says


def is_loopback(host: str) -> bool:
    """Whether binding `host` exposes the server to this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def served_hosts(bind: str, allowed: list[str]) -> tuple[list[str], bool]:
    """The Host names a server bound to `bind` answers to, and whether any IP address is one too.

    Loopback names always (the machine itself); the bound address; the `allowed` names (`--allow-host`).
    Bound to every interface (0.0.0.0, ::), any literal address is accepted: DNS rebinding needs a name."""
    names = ["localhost", "127.0.0.1", "::1", *allowed]
    wildcard = bind.strip("[]") in ("0.0.0.0", "::", "")
    if not wildcard:
        names.append(bind.strip("[]"))
    return names, wildcard
