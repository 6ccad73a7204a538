"""Reading a request into a check or a quote check: multipart uploads or JSON, and the options.

Every problem with the request itself is an `HTTPException` with a 4xx status and a one-line reason.
"""

from __future__ import annotations

import asyncio
import re
import weakref
from typing import Any, TypeVar

from fastapi import HTTPException
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request

from refhound.models import FlagPolicy, UnverifiedPolicy
from refhound.server.checks import CheckOptions, CheckRequest, over_count
from refhound.server.config import MB, ServerLimits
from refhound.server.quotes import QuotesRequest, evaluators_field, source_label
from refhound.server.uploads import SavedUpload, UploadDir
from refhound.settings import Settings

MAX_REFERENCE_CHARS = 5000  # one reference string sent as JSON
# A JSON body is held and parsed in memory: 2000 references of 5000 characters fit in 16 MB (unless written
# as \u escapes), and no more than 2 are read at once (uploads go to disk as they stream in).
MAX_JSON_BYTES = 16 * MB
_JSON_READERS = 2
_readers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)
# Counting an upload's entries reads it whole as text: one upload at a time.
_counters: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)
M = TypeVar("M", bound=BaseModel)
# What a reference needs to be more than blank, as a JSON Schema pattern: a character Python's `str.strip`
# keeps (spelt out, since ECMA-262's \s, which schema validators use, is another set).
NOT_BLANK = (
    "[^\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"
)


class CheckBody(BaseModel):
    """`POST /api/v1/check` and `/jobs` as JSON: reference strings and the check options."""

    model_config = ConfigDict(extra="forbid")

    references: list[str] = Field(min_length=1, description="Reference strings, one reference each.")
    offline: bool = Field(default=False, description="Never use the network for this check.")
    flag: FlagPolicy = Field(default=FlagPolicy.MAJOR, description="What `flagged` counts: major or any.")
    unverified_as: UnverifiedPolicy | None = Field(
        default=None, description="How unverified counts in `hallucinated` (default: the server's setting)."
    )


def bad_request(message: str, status: int = 400) -> HTTPException:
    return HTTPException(status_code=status, detail=message)


async def read_check_request(request: Request, limits: ServerLimits, parent: Any) -> CheckRequest:
    """The check a request asks for; the uploads are saved in a private directory the job removes."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/json":
        async with _readers.setdefault(asyncio.get_running_loop(), asyncio.Semaphore(_JSON_READERS)):
            return _check_from_json(await _json_body(request), limits)
    if kind != "multipart/form-data":
        raise bad_request(
            "send multipart/form-data with files in the field `file` (or pasted text in `text`), "
            'or JSON {"references": [...]}',
            415,
        )
    form = await _form(request, limits)
    try:
        options = _options(form)
        files = _uploads(form, "file")
        text = _text_field(form, "text")
        if not files and text is None:
            raise bad_request("no input: send one or more files in the field `file`, or text in `text`", 422)
        directory = UploadDir(parent)
        try:
            uploads = [await _save(directory, item) for item in files]
            if text is not None:
                uploads.append(directory.save_text(text, "pasted.txt"))
        except BaseException:
            directory.remove()
            raise
    finally:
        await form.close()
    return CheckRequest(options=options, uploads=uploads, directory=directory)


async def refuse_over_count(request: CheckRequest, settings: Settings, limits: ServerLimits) -> None:
    """A 422 for uploads holding more references than a job may check, before the job is admitted: the
    same answer as for too many references sent as JSON, on /check and /jobs alike."""
    if not request.uploads:
        return
    async with _counters.setdefault(asyncio.get_running_loop(), asyncio.Semaphore(1)):
        problem = await run_in_threadpool(over_count, request, settings, limits)
    if problem is not None:
        request.release()
        raise bad_request(problem, 422)


async def read_quotes_request(request: Request, limits: ServerLimits, parent: Any) -> QuotesRequest:
    """`document` (one file) and `source` files, each answering to the `label` at its position (else its
    file name without the extension)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "multipart/form-data":
        raise bad_request("send multipart/form-data: a `document` file and its `source` files", 415)
    form = await _form(request, limits)
    try:
        documents = [item for item in form.getlist("document") if isinstance(item, UploadFile)]
        if len(documents) != 1:
            raise bad_request("send exactly one file in the field `document`")
        if (documents[0].filename or "").lower().endswith((".json", ".jsonl")):
            raise bad_request(
                "triples (.json/.jsonl) are checked by `refhound quotes check`, not by the server"
            )
        sources = _uploads(form, "source")
        labels = [str(item) for item in form.getlist("label") if isinstance(item, str)]
        offline = _flag(form, "offline")
        try:
            evaluate = evaluators_field(form.get("evaluate"))
        except ValueError as error:
            raise bad_request(str(error)) from None
        directory = UploadDir(parent)
        try:
            document = await _save(directory, documents[0])
            named: dict[str, SavedUpload] = {}
            for position, item in enumerate(sources):
                saved = await _save(directory, item)
                try:
                    label = source_label(labels[position] if position < len(labels) else None, saved)
                except ValueError as error:
                    raise bad_request(str(error)) from None
                if label in named:
                    raise bad_request(f"two sources answer to the label {label!r}", 422)
                named[label] = saved
        except BaseException:
            directory.remove()
            raise
    finally:
        await form.close()
    return QuotesRequest(
        document=document, sources=named, offline=offline, directory=directory, evaluate=evaluate
    )


def _check_from_json(body: bytes, limits: ServerLimits) -> CheckRequest:
    parsed = parse_json_body(body, CheckBody)
    if len(parsed.references) > limits.max_references:
        raise bad_request(
            f"{len(parsed.references)} references; this server checks at most {limits.max_references}", 422
        )
    for position, text in enumerate(parsed.references, start=1):
        if not text.strip():
            raise bad_request(f"reference {position} is empty")
        if len(text) > MAX_REFERENCE_CHARS:
            raise bad_request(
                f"reference {position} is {len(text)} characters long; one reference may have at most "
                f"{MAX_REFERENCE_CHARS}",
                422,
            )
    options = CheckOptions(offline=parsed.offline, flag=parsed.flag, unverified_as=parsed.unverified_as)
    return CheckRequest(options=options, strings=[text.strip() for text in parsed.references])


async def _json_body(request: Request) -> bytes:
    """The JSON body, refused (413) past `MAX_JSON_BYTES`: from its Content-Length before reading, else as it
    streams in. A JSON body is read and parsed in memory, so only `_JSON_READERS` are at once."""
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > MAX_JSON_BYTES:
        raise bad_request(_json_too_large(int(declared)), 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_JSON_BYTES:
            raise bad_request(_json_too_large(None), 413)
        chunks.append(chunk)
    return b"".join(chunks)


def _json_too_large(size: int | None) -> str:
    what = f"{size / MB:.1f} MB" if size is not None else f"over {MAX_JSON_BYTES / MB:g} MB"
    return (
        f"the JSON body is {what}; a JSON check takes at most {MAX_JSON_BYTES / MB:g} MB "
        "(upload larger reference lists as a file)"
    )


def parse_json_body(body: bytes, model: type[M]) -> M:
    """`body` as `model`, strictly (`"offline": "yes"` is no boolean); a 400 naming what is wrong with it:
    not UTF-8, not JSON, nested too deeply, a lone surrogate, a field of the wrong type."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise bad_request(
            f"the body is not UTF-8: byte 0x{body[error.start]:02x} at offset {error.start} is invalid"
        ) from None
    try:
        return model.model_validate_json(text, strict=True)
    except ValidationError as error:
        invalid = [e for e in error.errors() if e["type"] == "json_invalid"]
        if not invalid:
            raise bad_request(_validation_message(error)) from None
        message = str(invalid[0]["msg"]).removeprefix("Invalid JSON: ")
        if "recursion limit" in message:
            raise bad_request(f"the body is nested too deeply to be read ({message})") from None
        if _LONE_SURROGATE.search(text):
            raise bad_request(
                "the body holds a lone surrogate (a \\ud800-\\udfff escape without its pair): no text"
            ) from None
        raise bad_request(f"the body is not JSON: {message}") from None


# A \uD800-\uDBFF escape not followed by a \uDC00-\uDFFF one, or the latter without the former (after an
# even number of backslashes, so an escaped backslash followed by "u" is not taken for an escape).
_LONE_SURROGATE = re.compile(
    r"(?<!\\)(?:\\\\)*\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<![\\]u[dD][89abAB][0-9a-fA-F]{2})(?<!\\)(?:\\\\)*\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


async def _form(request: Request, limits: ServerLimits) -> FormData:
    """The multipart form, parsed as `Request.form` does; a malformed body is a 400 naming the problem.

    Starlette leaves the spooled file of a part the body cuts off open (it is in no form field): every
    file the parser opened is closed here once the form's own files are copied (by `form.close()`)."""
    parser = MultiPartParser(
        request.headers,
        request.stream(),
        max_files=limits.max_files,
        max_fields=100,
        max_part_size=1024 * 1024,
    )
    try:
        form = await parser.parse()
    except MultiPartException as error:
        _close_orphans(parser, None)
        # Too many files is a well-formed request over a count limit, as too many references is: 422.
        raise bad_request(error.message, 422 if error.message.startswith("Too many files") else 400) from None
    except BaseException:
        _close_orphans(parser, None)
        raise
    if _close_orphans(parser, form):
        await form.close()
        raise bad_request("the multipart body ends inside a part (no closing boundary)")
    return form


def _close_orphans(parser: MultiPartParser, form: FormData | None) -> int:
    """Close the files of parts the body cut off; how many there were."""
    kept = {id(item.file) for _, item in (form.multi_items() if form else []) if isinstance(item, UploadFile)}
    orphans = [f for f in getattr(parser, "_files_to_close_on_error", []) if id(f) not in kept]
    for spooled in orphans:
        spooled.close()
    return len(orphans)


async def _save(directory: UploadDir, item: UploadFile) -> SavedUpload:
    saved = await run_in_threadpool(directory.save, item.file, item.filename)
    if saved.path.stat().st_size == 0:  # well-formed, with nothing in it to check
        raise bad_request(f"{saved.name}: empty file", 422)
    return saved


def _uploads(form: FormData, name: str) -> list[UploadFile]:
    """The files of the field `name`; a plain value there (no file name) is a 400, not silently dropped."""
    items = form.getlist(name)
    files = [item for item in items if isinstance(item, UploadFile)]
    if len(files) != len(items):
        raise bad_request(f"the field `{name}` takes files (with a file name), not plain values")
    return files


def _text_field(form: FormData, name: str) -> str | None:
    value = form.get(name)
    if value is None or isinstance(value, UploadFile):
        return None
    if not value.strip():
        raise bad_request(f"the field `{name}` is empty")
    return value


def _flag(form: FormData, name: str) -> bool:
    value = form.get(name)
    if value is None or isinstance(value, UploadFile):
        return False
    lowered = value.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    raise bad_request(f"`{name}` must be true or false, not {value!r}")


def _options(form: FormData) -> CheckOptions:
    values: dict[str, Any] = {"offline": _flag(form, "offline")}
    for name in ("flag", "unverified_as"):
        value = form.get(name)
        if isinstance(value, str) and value.strip():
            values[name] = value.strip()
    try:
        body = CheckBody.model_validate({"references": ["-"], **values})
    except ValidationError as error:
        raise bad_request(_validation_message(error)) from None
    return CheckOptions(offline=body.offline, flag=body.flag, unverified_as=body.unverified_as)


def _validation_message(error: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in error.errors())
