"""A check job's work: read the uploaded inputs (as `refhound check` reads files), check the references on
the shared runtime, and build the `refhound.report/1` report.

Inputs are read in the worker, not in the request: a PDF's extraction takes seconds. An input that cannot
be used is a problem in the report, and the others are still checked; a job none of whose inputs yields a
reference fails with every input's reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic_core import PydanticSerializationError

from refhound.errors import InputError
from refhound.inputs import count_entries
from refhound.inputs.screen import EntryLimits, TooManyEntries
from refhound.likelihood import Policy
from refhound.models import (
    FlagPolicy,
    InputProblem,
    Reference,
    ReferenceResult,
    Report,
    UnverifiedPolicy,
    is_hallucinated,
)
from refhound.refstring import parse_reference_string
from refhound.server.config import ServerLimits
from refhound.server.jobs import FailureKind, Job, JobFailed, JobStore
from refhound.server.runtime import CheckRuntime, JobExpired
from refhound.server.uploads import SavedUpload, UploadDir
from refhound.settings import Settings

PASTED = "request"  # the `input` of references sent as JSON strings


@dataclass(frozen=True)
class CheckOptions:
    """The `refhound check` options a request may set."""

    offline: bool = False  # a request can keep an online server offline, not take an offline one online
    flag: FlagPolicy = FlagPolicy.MAJOR
    unverified_as: UnverifiedPolicy | None = None  # None: the server's setting


@dataclass
class CheckRequest:
    """What a job checks: saved uploads (removed once read) and/or reference strings."""

    options: CheckOptions
    uploads: list[SavedUpload] = field(default_factory=list)
    strings: list[str] = field(default_factory=list)
    directory: UploadDir | None = None

    @property
    def input_names(self) -> list[str]:
        return [upload.name for upload in self.uploads] + ([PASTED] if self.strings else [])

    def release(self) -> None:
        if self.directory is not None:
            self.directory.remove()


def run_check(job: Job, jobs: JobStore, runtime: CheckRuntime, request: CheckRequest) -> Report:
    """The job's work: its report; `JobFailed` when nothing can be checked or the time limit is passed."""
    jobs.set_doing(job, "reading the inputs")  # the time limit covers reading them, too
    try:
        references, problems = read_references(request, runtime.settings, jobs.limits)
    finally:
        request.release()
    if jobs.expired(job):
        raise JobFailed(job.overdue_reason, FailureKind.TIMEOUT)
    jobs.set_doing(job, "the check")
    jobs.set_total(job, len(references))
    try:
        results = runtime.check(
            references,
            offline=request.options.offline,
            decided=lambda position, result: jobs.add_result(
                job, position, with_policy([result], request.options, runtime.settings)[0]
            ),
            expired=lambda: jobs.expired(job),
        )
    except JobExpired:
        raise JobFailed(job.overdue_reason, FailureKind.TIMEOUT) from None
    found = with_policy(results, request.options, runtime.settings)
    policy = Policy.from_settings(runtime.settings.likelihood)
    return Report(
        inputs=request.input_names,
        references=found,
        problems=problems,
        model=policy.model.label,
        threshold=policy.threshold,
    )


def read_references(
    request: CheckRequest, settings: Settings, limits: ServerLimits
) -> tuple[list[Reference], list[InputProblem]]:
    """Every input's references, and the problems met; `JobFailed` when there is no reference at all."""
    references: list[Reference] = []
    problems: list[InputProblem] = []
    for upload in request.uploads:
        entries = EntryLimits(max(limits.max_references - len(references), 0), limits.max_entry_chars)
        try:
            found, found_problems = _read_upload(upload, settings, entries, limits.max_pdf_pages)
        except TooManyEntries as error:  # counted before parsing: the whole job is over the limit
            raise JobFailed(
                _too_many(upload.name, error.count, error.what, limits.max_references, len(references))
            ) from None
        except InputError as error:
            problems.append(InputProblem(input=upload.name, message=_shown(error.problem, upload)))
            continue
        references += [ref.model_copy(update={"input": upload.name}) for ref in found]
        problems += [
            problem.model_copy(update={"input": upload.name, "message": _shown(problem.message, upload)})
            for problem in found_problems
        ]
    references += [
        Reference(id=str(position), raw=text, parsed=parse_reference_string(text), input=PASTED)
        for position, text in enumerate(request.strings, start=1)
    ]
    references, unreadable = _text_only(references)
    problems += unreadable
    if not references:
        reasons = "; ".join(
            f"{p.input} ({p.location}): {p.message}" if p.location else f"{p.input}: {p.message}"
            for p in problems
        )
        reasons = reasons or "no references found"
        raise JobFailed(reasons)
    if len(references) > limits.max_references:
        raise JobFailed(
            f"{len(references)} references; this server checks at most {limits.max_references} per job"
        )
    return references, problems


def over_count(request: CheckRequest, settings: Settings, limits: ServerLimits) -> str | None:
    """Why the request's uploads hold more references than a job may check, counted by a scan of each
    (as its reader counts before parsing; a PDF's are counted once it is read); None when they do not.
    References sent as JSON are counted as the body is parsed."""
    counted = 0
    for upload in request.uploads:
        found = count_entries(upload.path, settings.check.max_input_bytes, limits.max_entry_chars)
        if found is None:
            continue
        count, what = found
        if counted + count > limits.max_references:
            return _too_many(upload.name, count, what, limits.max_references, counted)
        counted += count
    return None


def _too_many(name: str, count: int, what: str, limit: int, before: int) -> str:
    return f"{name}: {count:,} {what}; this server checks at most {limit} references per job" + (
        f" ({before} already in the inputs before it)" if before else ""
    )


def _text_only(references: list[Reference]) -> tuple[list[Reference], list[InputProblem]]:
    """The references that are text; one that is not (a lone surrogate, e.g. from a CSL-JSON `\\ud800`
    escape) is a problem of its input. Kept, it would make every later read of the job fail to encode."""
    kept: list[Reference] = []
    problems: list[InputProblem] = []
    for reference in references:
        try:
            reference.model_dump_json()
        except PydanticSerializationError:
            problems.append(
                InputProblem(
                    input=reference.input or PASTED,
                    message=f"reference {reference.id} holds a lone surrogate, which is no text: skipped",
                )
            )
            continue
        kept.append(reference)
    return kept, problems


def _read_upload(
    upload: SavedUpload, settings: Settings, entries: EntryLimits, max_pdf_pages: int
) -> tuple[list[Reference], list[InputProblem]]:
    from refhound.agents.extractor import is_pdf, read_pdf_references
    from refhound.inputs import read_input

    if is_pdf(upload.path):
        _check_pages(upload, max_pdf_pages)
        pdf: tuple[list[Reference], list[InputProblem]] = read_pdf_references(upload.path, settings)
        return pdf
    read = read_input(upload.path, max_bytes=settings.check.max_input_bytes, limits=entries)
    return read.references, read.problems


def _check_pages(upload: SavedUpload, max_pages: int) -> None:
    """A PDF longer than the cap is refused whole: reading its first pages would miss the reference list."""
    import pymupdf

    try:
        with pymupdf.open(upload.path, filetype="pdf") as document:
            pages = document.page_count
    except (pymupdf.FileDataError, RuntimeError, ValueError):
        return  # the extractor says what is wrong with it
    if pages > max_pages:
        raise InputError(upload.path, f"the PDF has {pages} pages; this server reads at most {max_pages}")


def _shown(message: str, upload: SavedUpload) -> str:
    """A message with the file's place on disk replaced by the name the client gave it."""
    return message.replace(str(upload.path), upload.name)


def with_policy(
    results: list[ReferenceResult], options: CheckOptions, settings: Settings
) -> list[ReferenceResult]:
    """The results with `hallucinated` as the request's unverified policy says (the runner used the
    server's)."""
    if options.unverified_as is None or options.unverified_as is settings.check.unverified_as:
        return results
    threshold = Policy.from_settings(settings.likelihood).threshold
    return [
        result.model_copy(
            update={
                "hallucinated": is_hallucinated(
                    result.verdict, result.likelihood, threshold, options.unverified_as
                )
            }
        )
        for result in results
    ]


def flagged(report: Report, options: CheckOptions, settings: Settings) -> bool:
    """What exit code 1 of `refhound check` would say: an input problem, or a reference the flag policy
    counts."""
    policy = options.unverified_as or settings.check.unverified_as
    threshold = Policy.from_settings(settings.likelihood).threshold
    return bool(report.problems) or any(
        is_hallucinated(r.verdict, r.likelihood, threshold, policy, options.flag) for r in report.references
    )
