"""`refhound triage --openreview VENUE_ID`: the venue's submissions downloaded into the output folder."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from refhound.cli.output import err, fail
from refhound.errors import SourceError
from refhound.settings import Settings


def venue_folder(out: Path, venue_id: str) -> Path:
    """Where a venue's PDFs are kept: `DIR/openreview/<venue id, path-safe>`."""
    return out / "openreview" / (re.sub(r"[^A-Za-z0-9._-]+", "_", venue_id).strip("_") or "venue")


def venue_folder_or_fail(venue_id: str, out: Path, settings: Settings) -> Path:
    """Download (or resume) the venue's PDFs; the folder to triage. A one-line error when it cannot be."""
    from refhound.triage.openreview import download_venue, listing_path, token_from_env

    if settings.check.offline:
        raise fail("--openreview lists the venue on OpenReview's API: it cannot run offline")
    own = settings.openreview
    token = token_from_env(own)
    folder = venue_folder(out, venue_id)
    err.print(
        f"OpenReview {venue_id}: listing submissions at {own.base_url} "
        f"({'with the token in $' + own.token_env if token else 'public notes only'})",
        highlight=False,
    )
    try:
        got = asyncio.run(download_venue(venue_id, folder, settings, token=token))
    except SourceError as error:
        raise fail(f"OpenReview: {error.problem}") from error
    if not got.submissions:
        raise fail(f"OpenReview lists no submission for {venue_id!r} (check the venue id)")
    err.print(
        f"OpenReview {venue_id}: {len(got.submissions)} submissions, {got.fetched} PDFs downloaded now, "
        f"{got.reused} kept from an earlier run, {len(got.skipped)} without a PDF to read "
        f"(listed in {listing_path(folder)})",
        highlight=False,
    )
    return folder
