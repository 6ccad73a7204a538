"""The FastAPI app: the page at `/`, the API under `/api/v1` (OpenAPI at `/docs`).

Every error is JSON `{"error": "…"}`: 4xx for bad input, 413 for a too-large upload, 429 with
`Retry-After` when the job queue is full, 503 when the index cannot be read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Query
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect, Request

from refhound import __version__
from refhound.models import Report
from refhound.report import render
from refhound.server import openapi
from refhound.server.checks import CheckRequest, flagged, run_check
from refhound.server.config import ServerLimits
from refhound.server.guards import (
    LOOPBACK_NAMES,
    BearerToken,
    BodyLimit,
    BodyTooLarge,
    HostCheck,
    SameOrigin,
)
from refhound.server.jobs import FailureKind, Job, JobState, JobStore, QueueFull, Work
from refhound.server.marks import printed_marks
from refhound.server.quotes import EVALUATE, LABEL, QuotesRequest, QuotesRuntime
from refhound.server.requests import (
    NOT_BLANK,
    read_check_request,
    read_quotes_request,
    refuse_over_count,
)
from refhound.server.runtime import CheckRuntime

_STATIC = resources.files("refhound.server") / "static"
_DOWNLOADS = {
    "json": ("application/json", "json"),
    "html": ("text/html", "html"),
    "md": ("text/markdown", "md"),
}
_STATUS_OF_FAILURE = {FailureKind.INPUT: 422, FailureKind.TIMEOUT: 504, FailureKind.INTERNAL: 500}

_CHECK_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "file": {
                            "type": "array",
                            "minItems": 1,
                            "items": {"type": "string", "format": "binary"},
                            "description": "PDFs, .bib, .bbl, .txt or CSL-JSON reference lists.",
                        },
                        "text": {
                            "type": "string",
                            "pattern": NOT_BLANK,
                            "description": "A pasted reference list.",
                        },
                        "offline": {"type": "boolean"},
                        "flag": {"type": "string", "enum": ["major", "any"]},
                        "unverified_as": {"type": "string", "enum": ["unknown", "real", "fake"]},
                    },
                }
            },
            "application/json": {"schema": {"$ref": "#/components/schemas/CheckBody"}},
        },
    }
}
_QUOTES_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["document"],
                    "properties": {
                        "document": {"type": "string", "format": "binary"},
                        "source": {"type": "array", "items": {"type": "string", "format": "binary"}},
                        "label": {
                            "type": "array",
                            "items": {"type": "string", "pattern": f"^{LABEL}$"},
                            "description": "The citation label of the source at the same position "
                            "(default: its file name without the extension).",
                        },
                        "offline": {"type": "boolean"},
                        "evaluate": {
                            "type": "string",
                            "pattern": f"^{EVALUATE}$",
                            "description": "Evaluators to run on the server's LLM, comma-separated: "
                            "entailment, relevance, factcheck, or all. Without an LLM each is not_run.",
                        },
                    },
                }
            }
        },
    }
}


@dataclass
class ServerState:
    """What every request shares: the runtime, the jobs and the limits. `close()` when the server stops."""

    runtime: CheckRuntime
    limits: ServerLimits = field(default_factory=ServerLimits)
    upload_parent: Path | None = None  # where the private upload directories go (default: the temp dir)
    jobs: JobStore = field(init=False)
    quotes: QuotesRuntime = field(init=False)

    def __post_init__(self) -> None:
        self.jobs = JobStore(self.limits)
        self.quotes = QuotesRuntime(self.runtime.settings)

    def close(self) -> None:
        self.jobs.close()
        self.quotes.close()


@dataclass(frozen=True)
class CheckOutcome:
    report: Report
    flagged: bool


def create_app(
    state: ServerState,
    token: str | None = None,
    hosts: Sequence[str] = LOOPBACK_NAMES,
    any_address: bool = False,
) -> FastAPI:
    """The app over `state`; with `token`, every API call must carry it as a bearer token. `hosts`: the
    names its Host header may give (`any_address`: any IP address too; see `served_hosts`)."""
    app = FastAPI(
        title="refhound",
        version=__version__,
        summary="Check the references of a manuscript: verified, wrong field, fabricated or unverified.",
        docs_url=None,  # FastAPI's pages load their scripts from a CDN; /docs is served from here instead
        redoc_url=None,
    )
    app.state.refhound = state
    _errors(app)
    _routes(app, state)
    openapi.install(app, state.limits)
    app.mount("/static", StaticFiles(directory=str(_STATIC)), name="static")
    if token:
        app.add_middleware(BearerToken, token=token)
    app.add_middleware(BodyLimit, max_bytes=state.limits.max_upload_bytes)
    app.add_middleware(SameOrigin, token=token)
    app.add_middleware(HostCheck, names=hosts, any_address=any_address)  # the outermost: checked first
    return app


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _errors(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail), dict(exc.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return _error(400, problems)

    @app.exception_handler(BodyTooLarge)
    async def too_large(_: Request, exc: BodyTooLarge) -> JSONResponse:
        return _error(413, str(exc))

    @app.exception_handler(ClientDisconnect)
    async def gone(_: Request, __: ClientDisconnect) -> JSONResponse:
        return _error(400, "the client disconnected before the request was complete")


def _routes(app: FastAPI, state: ServerState) -> None:
    page = (_STATIC / "index.html").read_text(encoding="utf-8")
    docs = (_STATIC / "docs.html").read_text(encoding="utf-8")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def index() -> HTMLResponse:
        return HTMLResponse(page)

    icon = (_STATIC / "favicon.svg").read_bytes()

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:  # browsers ask for it whatever the page links
        return Response(icon, media_type="image/svg+xml")

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(docs)

    @app.get("/api/v1/health", summary="Version, index coverage and the job queue; 503 if the index is down")
    async def health() -> JSONResponse:
        problem = state.runtime.healthy()
        body = {
            "status": "ok" if problem is None else "unavailable",
            "version": __version__,
            "offline": state.runtime.offline,
            "index": state.runtime.coverage,
            "skipped_stages": state.runtime.skipped_stages,
            "jobs": state.jobs.counts(),
            "limits": {
                "max_upload_bytes": state.limits.max_upload_bytes,
                "max_pdf_pages": state.limits.max_pdf_pages,
                "max_references": state.limits.max_references,
                "job_timeout_s": state.limits.job_timeout_s,
            },
        }
        if problem is not None:
            body["error"] = problem
        return JSONResponse(body, status_code=200 if problem is None else 503)

    @app.post(
        "/api/v1/check",
        summary="Check references and wait for the refhound.report/1 report",
        openapi_extra=_CHECK_BODY,
        responses={200: {"description": "refhound.report/1; header X-Refhound-Flagged as exit code 1 would"}},
    )
    async def check(request: Request) -> Response:
        job = await _submit_check(request, state)
        await state.jobs.wait(job)
        if job.state is not JobState.DONE:
            return _error(_STATUS_OF_FAILURE[job.failure or FailureKind.INTERNAL], job.error or "failed")
        outcome: CheckOutcome = job.outcome
        return Response(
            outcome.report.to_json(),
            media_type="application/json",
            headers={"X-Refhound-Flagged": "true" if outcome.flagged else "false", "X-Refhound-Job": job.id},
        )

    @app.post(
        "/api/v1/jobs",
        status_code=202,
        summary="Start a check; poll GET /api/v1/jobs/{id}",
        openapi_extra=_CHECK_BODY,
    )
    async def start_job(request: Request) -> JSONResponse:
        job = await _submit_check(request, state)
        return JSONResponse({"id": job.id, "status": job.state.value}, status_code=202)

    @app.get(
        "/api/v1/jobs/{job_id}",
        summary="A job's status, progress, verdicts so far and, when done, its report",
    )
    async def get_job(job_id: str, since: int = Query(default=0, ge=0)) -> JSONResponse:
        job = _job_or_404(state, job_id)
        return JSONResponse(state.jobs.read(job, lambda j: _job_view(j, since)))

    @app.get("/api/v1/jobs/{job_id}/report", summary="A finished check's report as json, html or md")
    async def job_report(
        job_id: str, format: str = Query(default="json", pattern="^(json|html|md)$")
    ) -> Response:
        job = _job_or_404(state, job_id)
        if job.state is not JobState.DONE or not isinstance(job.outcome, CheckOutcome):
            raise HTTPException(409, f"job {job_id} has no report ({job.state.value})")
        media, suffix = _DOWNLOADS[format]
        return Response(
            render(job.outcome.report, format),
            media_type=media,
            headers={"Content-Disposition": f'attachment; filename="refhound-report.{suffix}"'},
        )

    @app.post(
        "/api/v1/quotes",
        summary="Check a document's quotes against its sources: refhound.quotes/1",
        openapi_extra=_QUOTES_BODY,
    )
    async def quotes(request: Request) -> Response:
        parsed: QuotesRequest = await read_quotes_request(request, state.limits, state.upload_parent)
        job = _submit(
            state, "quotes", [parsed.document.name], lambda *_: state.quotes.check(parsed), parsed.release
        )
        await state.jobs.wait(job)
        if job.state is not JobState.DONE:
            return _error(_STATUS_OF_FAILURE[job.failure or FailureKind.INTERNAL], job.error or "failed")
        return Response(job.outcome, media_type="application/json")


async def _submit_check(request: Request, state: ServerState) -> Job:
    parsed: CheckRequest = await read_check_request(request, state.limits, state.upload_parent)
    runtime = state.runtime
    await refuse_over_count(parsed, runtime.settings, state.limits)

    def work(job: Job, jobs: JobStore) -> CheckOutcome:
        report = run_check(job, jobs, runtime, parsed)
        return CheckOutcome(report, flagged(report, parsed.options, runtime.settings))

    return _submit(state, "check", parsed.input_names, work, parsed.release)


def _submit(state: ServerState, kind: str, inputs: list[str], work: Work, release: Callable[[], None]) -> Job:
    try:
        return state.jobs.submit(kind, inputs, work, release)
    except QueueFull:
        retry = str(state.limits.retry_after_s)
        raise HTTPException(
            429, "the server's job queue is full; retry later", {"Retry-After": retry}
        ) from None


def _job_or_404(state: ServerState, job_id: str) -> Job:
    job = state.jobs.get(job_id)
    if job is None:
        raise HTTPException(404, f"no job {job_id!r} (unknown, or finished and forgotten)")
    return job


def _job_view(job: Job, since: int) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": job.id,
        "kind": job.kind,
        "status": job.state.value,
        "inputs": job.inputs,
        "progress": {"decided": job.decided, "total": job.total},
        "error": job.error,
        "created": job.created,
        "started": job.started,
        "finished": job.finished,
        "since": since,
        # Each verdict as in the report, with where its wrong fields are printed ("marks") and its place in
        # the input ("position": verdicts come in the order they are decided) for the page.
        "references": [
            {**result.model_dump(mode="json"), "marks": printed_marks(result), "position": position}
            for result, position in zip(job.results[since:], job.positions[since:], strict=True)
        ],
    }
    if job.state is JobState.DONE and isinstance(job.outcome, CheckOutcome):
        view["report"] = json.loads(job.outcome.report.to_json())
        view["flagged"] = job.outcome.flagged
    return view
