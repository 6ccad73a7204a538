"""`refhound serve`: the web page and the HTTP API on uvicorn, over one runtime shared by every request.

It binds loopback by default; any other address needs a token (`--token` or `REFHOUND_SERVER_TOKEN`),
which every API call then sends as `Authorization: Bearer TOKEN`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from refhound.cli.extract import LLMModelOption, LLMUrlOption, llm_options
from refhound.cli.output import err, fail, open_index_or_fail, settings_from_options
from refhound.errors import RefhoundError
from refhound.server.config import MB, ServerLimits, is_loopback, served_hosts

TOKEN_ENV = "REFHOUND_SERVER_TOKEN"
_DEFAULTS = ServerLimits()


def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to bind; not loopback needs a token.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8000,
    index: Annotated[
        Path | None, typer.Option("--index", help="Index database (default: the embedded one).")
    ] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Never use the network.")] = False,
    token: Annotated[
        str | None,
        typer.Option("--token", help=f"Bearer token every API call must carry (or set {TOKEN_ENV})."),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Jobs checked at the same time.")] = (
        _DEFAULTS.workers
    ),
    queue: Annotated[
        int, typer.Option("--queue", min=0, help="Jobs that may wait for a worker; more get HTTP 429.")
    ] = _DEFAULTS.queue,
    max_upload_mb: Annotated[
        float, typer.Option("--max-upload-mb", min=0.001, help="Largest request body accepted (413 beyond).")
    ] = _DEFAULTS.max_upload_bytes / MB,
    max_pages: Annotated[
        int, typer.Option("--max-pages", min=1, help="Longer PDFs are refused.")
    ] = _DEFAULTS.max_pdf_pages,
    job_timeout: Annotated[
        float, typer.Option("--job-timeout", min=1, help="Seconds a job may run before it fails.")
    ] = _DEFAULTS.job_timeout_s,
    keep: Annotated[
        float, typer.Option("--keep", min=1, help="Seconds a finished job's report stays available.")
    ] = _DEFAULTS.keep_finished_s,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="A name clients reach the server by (its Host header); loopback names and the bound "
            "address are always accepted. Repeatable.",
        ),
    ] = None,
    llm_url: LLMUrlOption = None,
    llm_model: LLMModelOption = None,
    log: Annotated[
        bool,
        typer.Option("--log/--no-log", help="Log every request on stderr: client, method, path and status."),
    ] = True,
) -> None:
    """Serve the web page (upload a PDF or paste references) and the HTTP API (/docs)."""
    import uvicorn

    from refhound.server.app import ServerState, create_app
    from refhound.server.runtime import CheckRuntime

    token = token or os.environ.get(TOKEN_ENV) or None
    if not is_loopback(host) and not token:
        raise fail(
            f"binding {host} exposes the server beyond this machine: give --token (or set {TOKEN_ENV})"
        )
    settings = settings_from_options(
        {"check": {"offline": offline or None}, "extract": {"max_pages": max_pages}},
        llm_options(llm_url, llm_model, None),
    )
    limits = ServerLimits(
        max_upload_bytes=int(max_upload_mb * MB),
        max_pdf_pages=max_pages,
        workers=workers,
        queue=queue,
        job_timeout_s=job_timeout,
        keep_finished_s=keep,
    )
    store = open_index_or_fail(index, settings)
    try:
        runtime = CheckRuntime(settings, store)
    except RefhoundError as exc:
        store.close()
        raise fail(str(exc)) from exc
    for stage, why in runtime.skipped_stages.items():
        err.say(f"[dim]stage {stage} skipped: {why}[/]")
    state = ServerState(runtime, limits)
    try:
        err.print(f"refhound serving on http://{host}:{port}/ (API docs at /docs)", highlight=False)
        names, any_address = served_hosts(host, allow_host or [])
        app = create_app(state, token, names, any_address)
        # uvicorn's access log is its request log; at "info" it also says when it starts and stops.
        uvicorn.run(app, host=host, port=port, log_level="info" if log else "warning", ws="none")
    finally:
        state.close()
        runtime.close()
