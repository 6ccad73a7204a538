"""A quote-check job: an uploaded document and its uploaded sources in, `refhound.quotes/1` out.

On a server the document is someone else's text, so its citations may name files only among the sources
uploaded with it: a cited file is the upload of that file name, and any other path (`/etc/passwd`) is
reported unresolved, never read; the check of local file links is off (it would tell whether a server file
exists). Cited URLs, DOIs and arXiv ids are fetched as `refhound quotes check` fetches them, through one
HTTP pool on one event loop shared by every request, unless the server or the request is offline.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from refhound.errors import InputError
from refhound.net.http import HttpPool, make_client
from refhound.net.loop_thread import LoopThread, cancel_other_tasks
from refhound.quotes.check import check_document
from refhound.quotes.document import read_document
from refhound.quotes.evaluate import evaluate_report, parse_evaluators
from refhound.quotes.fetch import Resolved, SourceFetcher
from refhound.quotes.models import Target, Unresolved
from refhound.quotes.render import render_json
from refhound.server.jobs import JobFailed
from refhound.server.uploads import SavedUpload, UploadDir
from refhound.settings import Settings

NOT_UPLOADED = "a local file the server does not read: upload it as a source"
_NAME = r"[A-Za-z0-9_^.:-]{1,100}"
_EVALUATOR = r"(?:entailment|relevance|factcheck)"
#: The `evaluate` field as the API schema allows it: "all", or evaluator names joined by commas.
EVALUATE = rf"(?:all|{_EVALUATOR}(?:,{_EVALUATOR})*)"
#: A label as a client may give it: empty (the file name decides), or a name, in brackets or not.
LABEL = rf"(?:\[?({_NAME})\]?)?"


@dataclass
class QuotesRequest:
    """The document, its sources (label → upload) and whether to stay offline."""

    document: SavedUpload
    sources: dict[str, SavedUpload] = field(default_factory=dict)
    offline: bool = False
    directory: UploadDir | None = None
    evaluate: list[str] = field(default_factory=list)  # evaluator names (`--evaluate`); empty: none

    def release(self) -> None:
        if self.directory is not None:
            self.directory.remove()


def source_label(given: str | None, upload: SavedUpload) -> str:
    """The citation label a source answers to: the one given (brackets allowed: "[7]"), else its file name
    without the extension. `LABEL` (the API schema's pattern) says which labels may be given."""
    match = re.fullmatch(LABEL, given or "")
    label = (match.group(1) if match else given) or PurePosixPath(upload.name).stem
    if not re.fullmatch(_NAME, label):
        raise ValueError(f"source label {label!r}: use ASCII letters, digits and . _ - : ^ (at most 100)")
    return label


def evaluators_field(value: object) -> list[str]:
    """The form's `evaluate` value as evaluator names; ValueError when it is not `EVALUATE`."""
    if value is None:
        return []
    if not isinstance(value, str) or not re.fullmatch(EVALUATE, value.strip()):
        raise ValueError("`evaluate` must be all, or entailment, relevance, factcheck joined by commas")
    return list(parse_evaluators(value))


class UploadsOnlyFetcher(SourceFetcher):
    """A source fetcher that reads local files only when they are this request's uploads. A file the
    document names (`[1]: paper.pdf`) is the upload of that name, wherever the document says it lies."""

    def __init__(self, settings: Settings, pool: HttpPool | None, uploads: list[SavedUpload]) -> None:
        super().__init__(settings, pool)
        self._allowed = {upload.path.resolve() for upload in uploads}
        self._by_name = {upload.name: upload.path.resolve() for upload in uploads}

    async def get(self, target: Target) -> Resolved:
        if target.kind == "file" and Path(target.value) not in self._allowed:
            uploaded = self._by_name.get(Path(target.value).name)
            if uploaded is None:
                return Unresolved(target.locator, NOT_UPLOADED)
            target = Target("file", str(uploaded))
        return await super().get(target)


class QuotesRuntime:
    """The quote checks' event loop (its own thread) and one HTTP pool on it, shared by every request;
    no pool when the server is offline."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings.model_copy(deep=True)
        self.settings.quotes.link_check = False
        self.settings.quotes.store_dir = None
        self._loop = LoopThread("refhound-quotes")
        self._pool: HttpPool | None = None
        if not self.settings.check.offline:
            self._pool = self._loop.run(_new_pool(self.settings))

    def check(self, request: QuotesRequest) -> str:
        """The `refhound.quotes/1` JSON for the request, with uploads named as the client named them."""
        settings = self.settings
        if request.offline and not settings.check.offline:
            settings = settings.model_copy(deep=True)
            settings.check.offline = True
        try:
            try:
                document = read_document(request.document.path, settings)
            except InputError as error:
                raise JobFailed(f"{request.document.name}: {error.problem}") from None
            document = dataclasses.replace(document, path=Path(request.document.name))
            pool = None if settings.check.offline else self._pool
            fetcher = UploadsOnlyFetcher(settings, pool, list(request.sources.values()))
            locators = {label: str(upload.path.resolve()) for label, upload in request.sources.items()}
            report = self._loop.run(check_document(document, settings, locators, fetcher=fetcher))
            if request.evaluate:  # on this worker thread: the LLM client is synchronous
                evaluate_report(report, settings, request.evaluate)
        finally:
            request.release()
        return _renamed(render_json(report), request)

    def close(self) -> None:
        self._loop.close(self._shutdown)

    async def _shutdown(self) -> None:
        await cancel_other_tasks()
        if self._pool is not None:
            await self._pool.aclose()


async def _new_pool(settings: Settings) -> HttpPool:
    return HttpPool(make_client(settings))


def _renamed(rendered: str, request: QuotesRequest) -> str:
    """The report with every upload's place on disk replaced by the name the client gave it."""
    for upload in request.sources.values():
        for form in {str(upload.path), str(upload.path.resolve())}:
            rendered = rendered.replace(form, json.dumps(upload.name)[1:-1])
    return rendered
