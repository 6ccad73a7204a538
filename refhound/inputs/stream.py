"""A user's reference list read as a stream of batches, so that a file of any size is read in memory that
does not grow with it (the command line's `check`; the server reads capped uploads whole).

BibTeX, `.bbl` and plain-text lists (Markdown too) are read line by line and parsed a batch of entries at a
time, giving the references `read_input` gives for the whole file (a problem's line is the file's own,
where one parse of a whole BibTeX file can miscount it). CSL-JSON is one document, read whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from refhound.inputs import InputFormat, detect_format
from refhound.inputs.base import DECODE_ERRORS, InputRead, decode_problem
from refhound.inputs.lines import TextFile, open_text
from refhound.models import InputProblem

#: Entries parsed at a time: enough that a batch's parse costs little beside its entries, few enough that
#: a batch's text and parse (some 10 KB an entry) stay a few megabytes.
BATCH = 500
#: What is read as a stream; CSL-JSON, one JSON document, is read whole.
STREAMED = frozenset({InputFormat.BIBTEX, InputFormat.BBL, InputFormat.TEXT, InputFormat.MARKDOWN})


@dataclass(frozen=True)
class StreamedInput:
    """A reference list ready to be read: judged usable, its format known."""

    path: Path
    file: TextFile
    format: InputFormat

    @property
    def size(self) -> int:
        return self.file.size

    def batches(
        self, on_read: Callable[[int], None] | None = None, batch: int | None = None
    ) -> Iterator[InputRead]:
        """Its references and problems, a batch at a time (`format` in `STREAMED`); `on_read` is told the
        bytes read so far. A parser that fails on a batch stops the reading with a problem saying so;
        what was read before it is kept."""
        source = str(self.path)
        found = False
        read = InputRead(problems=list(self.file.problems))
        try:
            for batch_read in self._reads(source, on_read, batch or BATCH):
                read.extend(batch_read)
                found = found or bool(read.references)
                yield read
                read = InputRead()
        except DECODE_ERRORS as error:  # a parser's own, on a batch (each reader guards its entries)
            message = f"read no further: cannot be read as {self.format}: {decode_problem(error)}"
            read.problems.append(InputProblem(input=source, location=None, message=message))
        if not found:
            message = f"no references found (read as {self.format})"
            read.problems.append(InputProblem(input=source, location=None, message=message))
        yield read

    def _reads(self, source: str, on_read: Callable[[int], None] | None, batch: int) -> Iterator[InputRead]:
        if self.format is InputFormat.BIBTEX:
            from refhound.inputs.bib import stream_bibtex

            return stream_bibtex(self.file.lines(on_read), source, batch=batch)
        if self.format is InputFormat.BBL:
            from refhound.inputs.bbl import stream_bbl

            return stream_bbl(self.file.lines(on_read), source, batch=batch)
        from refhound.inputs.plaintext import stream_plain_text

        passes = _Passes(self.file, on_read)  # one pass picks how the list is cut, one cuts it
        return stream_plain_text(passes.lines, source, self.format is InputFormat.MARKDOWN, batch=batch)


class _Passes:
    """The lines of a file read twice, its progress told as half of the bytes on each pass."""

    def __init__(self, file: TextFile, on_read: Callable[[int], None] | None) -> None:
        self.file, self.on_read, self.done = file, on_read, 0

    def lines(self) -> Iterator[str]:
        start, self.done = self.done, self.done + 1
        on_read = self.on_read
        if on_read is None:
            return self.file.lines()
        return self.file.lines(lambda read: on_read((start * self.file.size + read) // 2))


def open_input(path: Path) -> StreamedInput:
    """`path` as a reference list; `InputError` when it is none (missing, a directory, binary, empty), said
    after one pass over it that holds nothing."""
    file = open_text(path)
    return StreamedInput(path, file, detect_format(path, file.head))
