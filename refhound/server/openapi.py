"""The OpenAPI schema as the server answers: every body's schema, every status code it can send.

FastAPI documents what it can see — the route functions' parameters — and a 422 validation error that this
server answers as 400. The routes read their bodies themselves (multipart or JSON), so their bodies, answers
and error codes are described here, with the limits of this server (`ServerLimits`), and every `$ref`
points into `components`. A generated client (openapi-python-client) calls every operation with it, and
schemathesis fuzzes the server against it (tests/server/test_openapi.py, scripts/fuzz-api).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from refhound.models import Report
from refhound.server.config import ServerLimits
from refhound.server.requests import MAX_REFERENCE_CHARS, NOT_BLANK, CheckBody

_REF = "#/components/schemas/{model}"
ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {"type": "string", "description": "What is wrong, in one line."}},
}
_WHY = {
    "400": "A malformed request (body, field, parameter), or a Host header this server does not answer to",
    "401": "The token is missing or wrong (a server started with --token)",
    "403": "A state-changing request from another web origin without the token",
    "404": "No such job (unknown, or finished and forgotten)",
    "409": "The job has no report (not finished, or failed)",
    "413": "The body is larger than the server accepts",
    "415": "Neither multipart/form-data nor JSON",
    "422": "Well-formed, but over a limit (references, files, pages, one reference's length) or nothing "
    "in it can be checked",
    "429": "The job queue is full: retry after Retry-After seconds",
    "500": "The check failed inside the server",
    "503": "The index cannot be read",
    "504": "The check ran past the server's time limit",
}
_COMMON = ("400", "401")
_WRITES = (*_COMMON, "403", "413", "415", "422", "429")
_ERRORS = {
    ("get", "/api/v1/health"): (*_COMMON, "503"),
    ("post", "/api/v1/check"): (*_WRITES, "500", "504"),
    ("post", "/api/v1/jobs"): _WRITES,
    ("get", "/api/v1/jobs/{job_id}"): (*_COMMON, "404"),
    ("get", "/api/v1/jobs/{job_id}/report"): (*_COMMON, "404", "409"),
    ("post", "/api/v1/quotes"): (*_WRITES, "500", "504"),
}
_OBJECT = {"type": "object", "additionalProperties": True}
_JOB_STARTED = {
    "type": "object",
    "required": ["id", "status"],
    "properties": {"id": {"type": "string"}, "status": {"type": "string", "enum": ["queued", "running"]}},
}
_JOB = {
    "type": "object",
    "required": ["id", "kind", "status", "inputs", "progress", "references"],
    "properties": {
        "id": {"type": "string"},
        "kind": {"type": "string", "enum": ["check", "quotes"]},
        "status": {"type": "string", "enum": ["queued", "running", "done", "failed"]},
        "inputs": {"type": "array", "items": {"type": "string"}},
        "progress": _OBJECT,
        "error": {"type": ["string", "null"]},
        "references": {"type": "array", "items": _OBJECT},
        "report": {"$ref": _REF.format(model="Report")},
        "flagged": {"type": "boolean"},
    },
}
_FLAGGED = {
    "X-Refhound-Flagged": {
        "description": "true when `refhound check` would exit 1 (an input problem, or a flagged reference)",
        "schema": {"type": "string", "enum": ["true", "false"]},
    },
    "X-Refhound-Job": {"description": "The job's id", "schema": {"type": "string"}},
}
_ANSWERS: dict[tuple[str, str], dict[str, Any]] = {
    ("get", "/api/v1/health"): {"200": {"content": {"application/json": {"schema": _OBJECT}}}},
    ("post", "/api/v1/check"): {
        "200": {
            "headers": _FLAGGED,
            "content": {"application/json": {"schema": {"$ref": _REF.format(model="Report")}}},
        }
    },
    ("post", "/api/v1/jobs"): {"202": {"content": {"application/json": {"schema": _JOB_STARTED}}}},
    ("get", "/api/v1/jobs/{job_id}"): {"200": {"content": {"application/json": {"schema": _JOB}}}},
    ("get", "/api/v1/jobs/{job_id}/report"): {
        "200": {
            "content": {
                "application/json": {"schema": {"$ref": _REF.format(model="Report")}},
                "text/html": {"schema": {"type": "string"}},
                "text/markdown": {"schema": {"type": "string"}},
            }
        }
    },
    ("post", "/api/v1/quotes"): {"200": {"content": {"application/json": {"schema": _OBJECT}}}},
}


def install(app: FastAPI, limits: ServerLimits) -> None:
    """Serve the schema below at /openapi.json (built once, on first request)."""

    def schema() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build(app, limits)
        return app.openapi_schema

    app.openapi = schema  # type: ignore[method-assign]


def build(app: FastAPI, limits: ServerLimits) -> dict[str, Any]:
    document = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
    schemas: dict[str, Any] = {}
    _add_model(schemas, CheckBody, "validation")
    _add_model(schemas, Report, "serialization")
    body = schemas["CheckBody"]["properties"]["references"]
    body["maxItems"] = limits.max_references
    body["items"] = {"type": "string", "minLength": 1, "maxLength": MAX_REFERENCE_CHARS, "pattern": NOT_BLANK}
    upload = document["paths"]["/api/v1/check"]["post"]["requestBody"]["content"]["multipart/form-data"]
    upload["schema"]["properties"]["file"]["maxItems"] = limits.max_files
    schemas["Error"] = ERROR
    document["components"] = {"schemas": schemas}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            answers = {
                code: {"description": "OK", **answer} for code, answer in _ANSWERS[method, path].items()
            }
            for code in _ERRORS[method, path]:
                error = {"application/json": {"schema": {"$ref": _REF.format(model="Error")}}}
                answers[code] = {"description": _WHY[code], "content": error}
            if "429" in answers:
                answers["429"]["headers"] = {"Retry-After": {"schema": {"type": "string"}}}
            operation["responses"] = answers
    return document


def _add_model(
    schemas: dict[str, Any], model: type[BaseModel], mode: Literal["validation", "serialization"]
) -> None:
    """The model's schema under its name, its nested models beside it (as `components` wants them)."""
    schema = model.model_json_schema(ref_template=_REF, mode=mode)
    schemas.update(schema.pop("$defs", {}))
    schemas[model.__name__] = schema
