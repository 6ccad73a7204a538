"""A triage run: collect the papers, reuse the finished ones, check the rest in parallel, write the outputs.

Layout of the output folder DIR:

    triage.json, triage.csv, index.html     the ranking and the dashboard (rewritten at the end of a run)
    papers/<slug>.json, papers/<slug>.html   each paper's report (written as the paper finishes)
    .triage/done/<key>.json                  each finished paper's row: what a re-run reuses
    .triage/lookups-<run>.sqlite             the cross-paper look-up store (`reuse.py`)
    .triage/rates.sqlite                     the run-wide rate limits of the online services
    .triage/work/<token>/                    copies of archive members while the run lasts (`workdir.py`)
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from refhound.inputs.archives import ArchiveLimits
from refhound.likelihood import Policy
from refhound.report.html import ReportHeader, header_for
from refhound.settings import Settings
from refhound.triage.inputs import Collected, collect
from refhound.triage.keys import paper_key, run_fingerprint, slug
from refhound.triage.ratelimit import SharedSlots, Slots
from refhound.triage.reuse import prepare_lookups
from refhound.triage.rows import TRIAGE_SCHEMA, PaperRow, error_row, ranked, to_csv
from refhound.triage.workdir import work_folder
from refhound.triage.worker import Job, Outcome, WorkerSetup, load_done, write_atomically

STATE = ".triage"


class Backend(Protocol):
    """Runs jobs (a process pool, or Ray) and reports each outcome as it finishes."""

    def run(self, setup: WorkerSetup, jobs: list[Job], on_outcome: Callable[[Outcome], None]) -> None: ...


@dataclass
class TriageOptions:
    out_dir: Path
    settings: Settings
    index_stats: dict[str, Any]
    workers: int
    fresh: bool = False
    reuse: bool = True
    backend_name: str = "processes"


@dataclass
class TriageResult:
    rows: list[PaperRow]
    summary: dict[str, Any]
    interrupted: bool = False
    outcomes: list[Outcome] = field(default_factory=list)


def header_of(options: TriageOptions, when: datetime) -> ReportHeader:
    return header_for(options.index_stats, options.settings.check.offline, when)


def prepare(options: TriageOptions) -> Path:
    """The state folder, emptied first with --fresh."""
    state = options.out_dir / STATE
    if options.fresh:
        shutil.rmtree(state, ignore_errors=True)
        shutil.rmtree(options.out_dir / "papers", ignore_errors=True)
    (state / "done").mkdir(parents=True, exist_ok=True)
    return state


def archive_limits(settings: Settings) -> ArchiveLimits:
    return ArchiveLimits(
        max_member_bytes=settings.extract.max_bytes,
        max_total_bytes=settings.archive.max_total_bytes,
        max_ratio=settings.archive.max_ratio,
    )


def jobs_of(collected: Collected, fingerprint: str) -> tuple[list[Job], list[PaperRow]]:
    """A job for every checkable paper, and the rows already known (input errors)."""
    jobs: list[Job] = []
    known: list[PaperRow] = []
    for paper in collected.papers:
        if paper.error is not None or paper.path is None:
            known.append(error_row(paper.paper, paper.error or "cannot be read"))
            continue
        key = paper_key(paper.origin, paper.digest, paper.kind, fingerprint)
        jobs.append(Job(paper.paper, str(paper.path), paper.kind, slug(paper.origin, paper.paper), key))
    return jobs, known


def run_triage(
    paths: list[Path],
    options: TriageOptions,
    backend: Backend,
    progress: Callable[[int, int], None] | None = None,
) -> TriageResult:
    """Check every paper under `paths` into `options.out_dir`; see the module's docstring."""
    started = time.perf_counter()
    when = datetime.now(UTC)
    state = prepare(options)
    with work_folder(state / "work") as work:
        collected = collect(paths, options.out_dir, work, archive_limits(options.settings))
        checked = _check(collected, options, state, when, backend, progress)
    header = header_of(options, when)
    ordered = ranked(checked.rows)
    summary = _summary(ordered, collected, checked, options, header, time.perf_counter() - started)
    summary["interrupted"] = checked.interrupted
    write_outputs(options.out_dir, ordered, summary)
    return TriageResult(ordered, summary, checked.interrupted, checked.outcomes)


class Checked(NamedTuple):
    """Rows of every paper (reused, input errors, checked now); the outcomes reported; how many papers were
    reused, and how many were saved by workers after an interrupt stopped their reporting."""

    rows: list[PaperRow]
    outcomes: list[Outcome]
    resumed: int
    saved_late: int
    interrupted: bool


def _check(
    collected: Collected,
    options: TriageOptions,
    state: Path,
    when: datetime,
    backend: Backend,
    progress: Callable[[int, int], None] | None,
) -> Checked:
    fingerprint = run_fingerprint(options.settings, options.index_stats)
    jobs, rows = jobs_of(collected, fingerprint)
    todo: list[Job] = []
    resumed = 0
    for job in jobs:
        done = load_done(options.out_dir, job.key)
        if done is not None:
            rows.append(done.model_copy(update={"paper": job.paper}))
            resumed += 1
        else:
            todo.append(job)
    total = len(rows) + len(todo)
    if progress:
        progress(len(rows), total)
    setup = WorkerSetup(
        settings=options.settings,
        index_path=str(options.index_stats["path"]),
        header=header_of(options, when),
        lookups_path=_lookups(state, fingerprint) if options.reuse else None,
        slots=_slots(options.settings, state),
    )
    outcomes: list[Outcome] = []
    late = 0

    def finished(outcome: Outcome) -> None:
        outcomes.append(outcome)
        rows.append(outcome.row)
        if progress:
            progress(len(rows), total)

    try:
        if todo:
            backend.run(setup, todo, finished)
    except KeyboardInterrupt:
        # A worker may have saved its paper after the interrupt stopped the reporting: what is on disk
        # is kept (the next run reuses it), so it is counted as checked now, not lost.
        reported = {outcome.job.key for outcome in outcomes}
        for job in todo:
            if job.key not in reported and (saved := load_done(options.out_dir, job.key)) is not None:
                rows.append(saved.model_copy(update={"paper": job.paper}))
                late += 1
        return Checked(rows, outcomes, resumed, late, interrupted=True)
    return Checked(rows, outcomes, resumed, late, interrupted=False)


def _lookups(state: Path, fingerprint: str) -> str:
    """The run's look-up store, made here before the workers open it (`prepare_lookups`)."""
    return str(prepare_lookups(state / f"lookups-{fingerprint[:16]}.sqlite"))


def _slots(settings: Settings, state: Path) -> Slots | None:
    if settings.check.offline:
        return None  # nothing is sent
    return SharedSlots(state / "rates.sqlite")


def _summary(
    rows: list[PaperRow],
    collected: Collected,
    run: Checked,
    options: TriageOptions,
    header: ReportHeader,
    seconds: float,
) -> dict[str, Any]:
    outcomes, resumed, saved_late = run.outcomes, run.resumed, run.saved_late
    checked = [row for row in rows if row.status == "checked"]
    totals = {
        name: sum(getattr(row.verdicts, name) for row in checked)
        for name in ("verified", "metadata_error", "fabricated", "unverified")
    }
    lookups = sum(o.lookups for o in outcomes)
    reused = sum(o.reused for o in outcomes)
    return {
        "threshold": Policy.from_settings(options.settings.likelihood).threshold,
        "papers": len(rows),
        "checked": len(checked),
        "errors": len(rows) - len(checked),
        "flagged": sum(1 for row in checked if row.hallucinated),
        "references": sum(row.references for row in checked),
        "verdicts": totals,
        "hallucinated": sum(row.hallucinated for row in checked),
        "minor": sum(row.minor for row in checked),
        "skipped": [{"paper": name, "reason": why} for name, why in sorted(collected.skipped.items())],
        "run": {
            "date": header.date,
            "version": header.version,
            "index": header.index,
            "coverage": header.coverage,
            "online": header.online,
            "workers": options.workers,
            "backend": options.backend_name,
            "seconds": round(seconds, 2),
            "checked_now": len(outcomes) + saved_late,
            "peak_rss_mb_per_worker": max((o.peak_rss_mb for o in outcomes), default=0.0),
            "resumed": resumed,
        },
        "reuse": {
            "lookups": lookups,
            "reused": reused,
            "share": round(reused / lookups, 4) if lookups else 0.0,
        },
    }


def triage_document(rows: list[PaperRow], summary: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema": TRIAGE_SCHEMA,
        "papers": [row.model_dump(mode="json") for row in rows],
        "summary": summary,
    }


def write_outputs(out_dir: Path, rows: list[PaperRow], summary: dict[str, Any]) -> None:
    from refhound.triage.dashboard import render_dashboard

    document = triage_document(rows, summary)
    write_atomically(out_dir / "triage.json", json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    write_atomically(out_dir / "triage.csv", to_csv(rows))
    write_atomically(out_dir / "index.html", render_dashboard(document))


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
