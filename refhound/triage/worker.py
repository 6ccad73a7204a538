"""Checking one paper: read its references, run the SOP over them, render its report and its triage row.

A `PaperChecker` lives as long as its worker (a process of the pool, or a Ray worker): it opens the index,
the SOP graph and the online clients once, and checks paper after paper. `save` writes a paper's outputs
into the run's folder, each file atomically and the done-marker last, so a run that is killed keeps every
paper that finished and never leaves a half-written one behind.
"""

from __future__ import annotations

import json
import os
import resource
import tempfile
from dataclasses import dataclass
from pathlib import Path

from refhound.agents.context import AgentContext
from refhound.errors import InputError, RefhoundError
from refhound.index.store import IndexStore
from refhound.likelihood import Policy
from refhound.models import InputProblem, Reference, Report
from refhound.report.html import ReportHeader, render_html
from refhound.settings import Settings
from refhound.triage.ratelimit import Slots, polite_transport
from refhound.triage.reuse import LookupStore, ReuseCounter, reusing
from refhound.triage.rows import PaperRow, checked_row, error_row


@dataclass(frozen=True)
class Job:
    """One paper for a worker: where its bytes are, and what its outputs are named."""

    paper: str
    path: str
    kind: str  # "pdf" or "list"
    slug: str
    key: str


@dataclass(frozen=True)
class WorkerSetup:
    """What every worker needs to build its checker (picklable: it crosses process boundaries)."""

    settings: Settings
    index_path: str
    header: ReportHeader
    lookups_path: str | None = None  # the cross-paper reuse store; None: no reuse
    slots: Slots | None = None  # the run-wide rate limiter of the online services; None: per process


@dataclass
class Outcome:
    """A checked (or failed) paper: its row, its rendered outputs, and its share of reused look-ups."""

    job: Job
    row: PaperRow
    report_json: str | None = None
    report_html: str | None = None
    lookups: int = 0
    reused: int = 0
    final: bool = True  # False: an error the next run should retry (not remembered as done)
    peak_rss_mb: float = 0.0  # the worker process's peak resident memory so far


def _context(setup: WorkerSetup, store: IndexStore) -> AgentContext:
    """The agents' context, with the sources' client going through the run-wide rate limiter."""
    from refhound.sop.runner import build_context

    slots = setup.slots
    transport = polite_transport(setup.settings, slots) if slots is not None else None
    return build_context(setup.settings, store, transport)


class PaperChecker:
    """Checks papers one after another with one index, SOP graph and set of clients."""

    def __init__(self, setup: WorkerSetup) -> None:
        from refhound.sop.definition import load_sop
        from refhound.sop.runner import SopRunner
        from refhound.sop.stages import plan_stages

        self.setup = setup
        self.store = IndexStore.open(Path(setup.index_path))
        context = _context(setup, self.store)
        sop = load_sop(setup.settings.sop.name)
        self.counter = ReuseCounter()
        agents = plan_stages(sop, context).agents
        if setup.lookups_path is not None:
            lookups = LookupStore(Path(setup.lookups_path))
            agents = {name: reusing(name, agent, lookups, self.counter) for name, agent in agents.items()}
        self.runner = SopRunner(setup.settings, self.store, sop=sop, agents=agents, context=context)

    def close(self) -> None:
        self.runner.close()
        self.store.close()

    def check(self, job: Job) -> Outcome:
        """The paper's outcome; an unusable input is an error row, never an exception."""
        try:
            references, problems = self._read(job)
        except InputError as exc:  # named by the paper, not by where its bytes were copied
            return Outcome(job, error_row(job.paper, exc.problem.replace(job.path, job.paper)))
        if not references:  # the first problem says why (a PDF whose entries all read as no reference)
            return Outcome(
                job, error_row(job.paper, problems[0].message if problems else "no references found")
            )
        try:
            results = self.runner.run(references, inputs=[job.paper], problems=problems).results
        except RefhoundError as exc:
            return Outcome(job, error_row(job.paper, f"could not be checked: {exc}"), final=False)
        likelihood = Policy.from_settings(self.runner.settings.likelihood)
        report = Report(
            inputs=[job.paper],
            references=results,
            problems=problems,
            model=likelihood.model.label,
            threshold=likelihood.threshold,
        )
        row = checked_row(job.paper, report, f"papers/{job.slug}.json", f"papers/{job.slug}.html")
        lookups, reused = self.counter.take()
        html = render_html(report, self.setup.header)
        return Outcome(job, row, report.to_json(), html, lookups, reused, peak_rss_mb=peak_rss_mb())

    def _read(self, job: Job) -> tuple[list[Reference], list[InputProblem]]:
        from refhound.agents.extractor import read_pdf_references
        from refhound.inputs import read_input

        path, settings = Path(job.path), self.setup.settings
        if job.kind == "pdf":
            references, problems = read_pdf_references(path, settings)
        else:
            read = read_input(path, max_bytes=settings.check.max_input_bytes)
            references, problems = read.references, read.problems
        # The paper's own name, not where its bytes were copied to.
        references = [r.model_copy(update={"input": job.paper}) for r in references]
        problems = [p.model_copy(update={"input": job.paper}) for p in problems]
        return references, problems


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB (Linux reports kilobytes)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def save(out_dir: Path, outcome: Outcome) -> None:
    """Write the paper's report files, then its done-marker (only for a final outcome)."""
    job = outcome.job
    if outcome.report_json is not None:
        write_atomically(out_dir / "papers" / f"{job.slug}.json", outcome.report_json)
    if outcome.report_html is not None:
        write_atomically(out_dir / "papers" / f"{job.slug}.html", outcome.report_html)
    if outcome.final:
        write_atomically(done_path(out_dir, job.key), outcome.row.model_dump_json())


def done_path(out_dir: Path, key: str) -> Path:
    return out_dir / ".triage" / "done" / f"{key}.json"


def load_done(out_dir: Path, key: str) -> PaperRow | None:
    """The row of a paper a previous run finished, when its report files are all still there."""
    path = done_path(out_dir, key)
    try:
        row = PaperRow.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None
    for name in (row.report, row.html):
        if name is not None and not (out_dir / name).is_file():
            return None
    return row
