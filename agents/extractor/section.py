"""Where the reference list is: after its heading (in several languages), up to the appendices.

Without a heading the list is found by its shape: the longest run of lines numbered 1, 2, 3, … in order
([1], 1., (1)) whose entries carry years. The section ends at an appendix heading, at a heading at least as
prominent as the reference heading, at a bold title among plain entries, or where the type size changes
for good (a colophon, a list of the publisher's series).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from refhound.agents.extractor.layout import Line, body_font_size
from refhound.agents.extractor.segment import LIST_MARKERS

from refhound.inputs.base import year_of

_NUMBERING = r"(?:(?:\d{1,2}|[IVXLC]{1,6}|[A-Z])(?:\.\d{1,2})*\.?\s+)?"
_HEADINGS = (
    r"references?(?:\s+cited)?|bibliography|literature(?:\s+cited)?|works\s+cited|cited\s+literature"
    r"|references\s+and\s+notes|selected\s+bibliography|sources|notes\s+and\s+references"
    r"|literatur(?:verzeichnis|angaben)?|quellen(?:verzeichnis)?|bibliographie|références(?:\s+bibliographiques)?"
    r"|bibliografía|bibliografia|referencias(?:\s+bibliográficas)?|referências(?:\s+bibliográficas)?"
    r"|riferimenti(?:\s+bibliografici)?|literatuur(?:lijst)?|referenser|litteratur|kirjallisuus"
    r"|bibliografie|literatura|список\s+литературы|литература|参考文献|參考文獻|引用文献"
)
_HEADING = re.compile(rf"^\s*{_NUMBERING}(?:{_HEADINGS})\s*:?\s*$", re.IGNORECASE)
_APPENDIX = re.compile(
    rf"^\s*{_NUMBERING}(?:appendix|appendices|anhang|annexe?s?|anexo|apéndice|appendice|supplementary"
    r"|supplemental\s+material|online\s+appendix|biographical\s+notes?|about\s+the\s+authors?|author\s+biograph"
    r"|notes\s+on\s+contributors|acknowledge?ments?|endnotes|tables|figures|checklist)\b",
    re.IGNORECASE,
)
_MAX_HEADING_WORDS = 6


@dataclass(frozen=True)
class Section:
    """The lines of the reference list, and how it was found."""

    lines: list[Line]
    found_by: str  # "heading: <text>", "numbered list" or "none"


def _is_heading(line: Line, body_size: float) -> bool:
    if len(line.text.split()) > _MAX_HEADING_WORDS:
        return False
    return bool(_HEADING.match(line.text)) and (
        line.bold or line.size >= body_size - 0.5 or line.text.isupper()
    )


def _ends_section(line: Line, heading: Line, body_size: float) -> bool:
    words = len(line.text.split())
    if words > 10 or line.text.endswith((",", ";")):
        return False
    letters = sum(char.isalpha() for char in line.text)
    if (
        line.bold
        and words <= 6
        and letters > 0.6 * len(line.text.replace(" ", ""))
        and year_of(line.text) is None
    ):
        return True  # a bold title inside a list of plain references
    if _APPENDIX.match(line.text) and (
        line.bold or line.size > body_size + 0.5 or line.text.isupper() or words <= 3
    ):
        return True
    # Another heading at least as large and bold as the reference heading, standing out of the list. A
    # heading carries no year: a short last line such as "In CVPR, 2016." set a point larger is no heading.
    stands_out = line.bold or line.size > body_size + 0.5
    at_least_as_prominent = line.size >= heading.size - 0.6 and (line.bold or not heading.bold)
    return stands_out and at_least_as_prominent and words <= 10 and year_of(line.text) is None


def _size_changes(lines: Sequence[Line], list_size: float) -> bool:
    """Three lines in a row in another size than the list: the list is over (a colophon, a series list)."""
    return len(lines) == 3 and all(abs(line.size - list_size) > 0.8 for line in lines)


def find_reference_section(lines: Sequence[Line]) -> Section:
    """The reference list among a document's lines (in reading order)."""
    body_size = body_font_size(lines)
    headings = [i for i, line in enumerate(lines) if _is_heading(line, body_size)]
    # The last heading wins: a table of contents or a sentence may name "References" earlier.
    for start in reversed(headings):
        heading = lines[start]
        rest = lines[start + 1 :]
        list_size = body_font_size(rest[:40]) if rest else body_size
        end = next(
            (
                i
                for i, line in enumerate(rest)
                if _ends_section(line, heading, list_size) or _size_changes(rest[i : i + 3], list_size)
            ),
            len(rest),
        )
        if end > 0:
            return Section(list(rest[:end]), f"heading: {heading.text}")
    numbered = _numbered_run(lines)
    if numbered is not None:
        return Section(list(lines[numbered[0] : numbered[1]]), "numbered list")
    return Section([], "none")


def _numbered_run(lines: Sequence[Line]) -> tuple[int, int] | None:
    """Start and end of the longest run of lines numbered 1, 2, 3, … ([1], 1., (1)) that reads as references.

    A run counts when at least three entries carry a year, so a numbered list in the body text is passed over.
    """
    best: tuple[int, int] | None = None
    best_count = 0
    for pattern in LIST_MARKERS.values():
        numbers = [_number(pattern, line) for line in lines]
        i = 0
        while i < len(lines):
            if numbers[i] != 1:
                i += 1
                continue
            starts = [i]
            j = i + 1
            while (
                j < len(lines) and j - starts[-1] <= 8
            ):  # eight lines without the next number: the list ended
                if numbers[j] == len(starts) + 1:
                    starts.append(j)
                j += 1
            end = _last_entry_end(lines, starts[-1] + 1)
            bounds = [*starts[1:], end]
            dated = sum(
                any(year_of(line.text) for line in lines[start:stop])
                for start, stop in zip(starts, bounds, strict=True)
            )
            if len(starts) > best_count and dated >= 3:
                best, best_count = (i, end), len(starts)
            i = end
    return best if best_count >= 3 else None


def _number(pattern: re.Pattern[str], line: Line) -> int | None:
    match = pattern.match(line.text)
    return int(match.group(1)) if match else None


def _last_entry_end(lines: Sequence[Line], start: int) -> int:
    """The end of the last numbered entry: its continuation lines, up to a gap or a change of page."""
    end = start
    while end < len(lines) and end - start < 6:
        previous, line = lines[end - 1], lines[end]
        if line.page != previous.page or line.y0 - previous.y1 > 1.5 * previous.height:
            break
        end += 1
    return end
