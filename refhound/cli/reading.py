"""The inputs of `refhound check`: each judged before any set-up, then read as the run takes them.

A reference list (BibTeX, `.bbl`, plain text) is streamed: judged in a first pass that holds nothing, then
read a batch of entries at a time while the run writes them to its runs file, with the bytes read shown on
stderr. A PDF, a LaTeX project, an arXiv ID or URL and a CSL-JSON file are read whole before the run. No
input's size is refused for being large but a CSL-JSON file's (`check.max_input_bytes`), which is read
whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from refhound.cli.output import err, print_error, working
from refhound.cli.process import resume_collection
from refhound.errors import InputError
from refhound.inputs.base import InputRead
from refhound.models import InputProblem

if TYPE_CHECKING:
    from rich.progress import Progress

    from refhound.inputs.stream import StreamedInput
    from refhound.models import ReferenceResult
    from refhound.settings import Settings

PROGRESS_MIN = 50  # references from which checking shows a progress bar
_MB = 1024 * 1024


def open_inputs(paths: Iterable[Path], settings: Settings) -> tuple[list[InputRead | StreamedInput], bool]:
    """Every input ready to be read, in order, and whether one could not be used (reported on stderr and
    kept as its problem, so the others are still checked)."""
    sources: list[InputRead | StreamedInput] = []
    unusable = False
    for path in paths:
        try:
            sources.append(_open_one(path, settings))
        except InputError as exc:
            print_error(exc)
            sources.append(InputRead(problems=[InputProblem(input=str(path), message=exc.problem)]))
            unusable = True
    return sources, unusable


def _open_one(path: Path, settings: Settings) -> InputRead | StreamedInput:
    """A reference list to stream, or the references of an input read whole (its problems said)."""
    from refhound.inputs.files import check_pdf_file, is_pdf
    from refhound.inputs.project import is_latex_project, read_latex_project

    if ":" in str(path):  # arXiv:ID or a URL (every name it fetches has one): a download, collector on
        from refhound.inputs.remote import fetch_if_remote

        resume_collection()
        path = fetch_if_remote(path, settings)  # its LaTeX source folder or its PDF
    if is_pdf(path):  # before the LaTeX test: a folder named paper.pdf was meant as a PDF
        # An unusable file is said at once, before the PDF library (and its layout model) is loaded.
        check_pdf_file(path, settings.extract.max_bytes)
        resume_collection()  # the layout model and the PDF library: long work, with the collector on
        from refhound.agents.extractor import read_pdf_references

        with working(f"extracting the references of {path}"):
            references, problems = read_pdf_references(path, settings)
        return _said(InputRead(references, problems))
    if is_latex_project(path):
        return _said(read_latex_project(path, settings.check.max_input_bytes))
    from refhound.inputs.stream import STREAMED, open_input

    streamed = open_input(path)
    if streamed.format in STREAMED:
        return streamed
    from refhound.inputs import read_input

    return _said(read_input(path, max_bytes=settings.check.max_input_bytes))


def _said(read: InputRead) -> InputRead:
    warn(read.problems)
    return read


def warn(problems: Iterable[InputProblem]) -> None:
    for problem in problems:
        where = f"{problem.input} ({problem.location})" if problem.location else problem.input
        err.print(f"[yellow]warning:[/] {where}: {problem.message}", highlight=False, soft_wrap=True)


class Shown:
    """Progress on stderr: the bytes of each streamed input as it is read, then the references checked.
    On a terminal as bars (unless --quiet); elsewhere with --verbose as a line at every tenth read."""

    def __init__(self) -> None:
        self.bars = err.level > 0 and err.is_terminal
        self.lines = not self.bars and err.level >= 2
        self._bar: Progress | None = None
        self._task: object = None
        self.read_all = False  # every input is read: the run can be resumed from here

    def reading(self, source: StreamedInput) -> Iterator[InputRead]:
        """`source`'s batches, its bytes shown as they are read, its problems said as they come."""
        name, size = str(source.path), max(source.size, 1)
        tenths = 0

        def on_read(done: int) -> None:
            nonlocal tenths
            if self._bar is not None:
                self._bar.update(self._task, completed=done)  # type: ignore[arg-type]
            elif self.lines and done * 10 // size > tenths:
                tenths = done * 10 // size
                err.detail(f"reading {name}: {done / _MB:,.1f} of {size / _MB:,.1f} MB")

        if self.bars:
            self._show(f"reading {name}", size, bytes_read=True)
        try:
            for read in source.batches(on_read):
                warn(read.problems)
                yield read
        finally:
            self._hide()

    def checking(self, total: int) -> None:
        """The references are all read: `total` of them are checked from now."""
        self.read_all = True
        if self.bars and total >= PROGRESS_MIN:
            self._show("checking", total, bytes_read=False)

    def decided(self, _position: int, _result: ReferenceResult) -> None:
        if self._bar is not None:
            self._bar.advance(self._task)  # type: ignore[arg-type]

    def close(self) -> None:
        self._hide()

    def _show(self, what: str, total: int, *, bytes_read: bool) -> None:
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._hide()
        count = DownloadColumn() if bytes_read else MofNCompleteColumn()
        self._bar = Progress(
            TextColumn(what), BarColumn(), count, TimeElapsedColumn(), console=err.console, transient=True
        )
        self._task = self._bar.add_task(what, total=total)
        self._bar.start()

    def _hide(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def reads(sources: list[InputRead | StreamedInput], shown: Shown) -> Iterator[InputRead]:
    """Every input's references and problems in order, streamed ones a batch at a time; `shown` is told
    when the last is read, with how many references there are to check."""
    from refhound.inputs.stream import StreamedInput

    total = 0
    for source in sources:
        batches = shown.reading(source) if isinstance(source, StreamedInput) else iter([source])
        for read in batches:
            total += len(read.references)
            yield read
    shown.checking(total)
