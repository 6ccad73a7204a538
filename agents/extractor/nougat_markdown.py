"""nougat's Markdown → the reference strings of its reference section.

nougat (Blecher et al., 2023) turns page images into Markdown in the style of its training data (arXiv
LaTeX converted by its own tool): headings as "## References", each reference as a list item "* [1] …" or
"* Smith, J. (2001) …", emphasis as "_Journal_" or "**2**", inline maths as "\\(…\\)", and "[MISSING_PAGE_…]"
where a page could not be read. The list is the one under the last reference heading (the heading names of
`section`), up to the next heading of the same or a higher level or an appendix heading; items are cut at
list markers, or, in a list without markers, at blank lines.
"""

from __future__ import annotations

import re

from refhound.agents.extractor.section import _APPENDIX, _HEADING

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BOLD_HEADING = re.compile(r"^\*\*(.+?)\*\*\s*$")  # nougat sets some unnumbered headings in bold
_ITEM = re.compile(r"^\s*(?:\*{1,2}|[+-]|\d{1,4}[.)])\s+")  # "** [37]" is a marker nougat sometimes writes
_NUMBER = re.compile(r"^\s*(?:\[\d{1,4}\]|\(\d{1,4}\)|\d{1,4}\.(?=\s))\s*")
_MISSING = re.compile(r"\[MISSING_PAGE_\w+(?::\d+)?\]")
_EMPHASIS = re.compile(r"(\*\*|__|\*|(?<![\w\\])_(?=\S))(.+?)(?<=\S)\1(?!\w)")
_INLINE_MATH = re.compile(r"\\\((.*?)\\\)")
_ESCAPE = re.compile(r"\\([_*#\[\]()&%$])")


def _heading(line: str) -> tuple[int, str] | None:
    """(level, text) of a Markdown heading line; a line set wholly in bold counts as level 6."""
    if match := _MD_HEADING.match(line):
        return len(match.group(1)), match.group(2)
    if match := _BOLD_HEADING.match(line.strip()):
        return 6, match.group(1)
    return None


def clean_markdown(text: str) -> str:
    """One reference's Markdown as plain text: emphasis, escapes and inline-maths delimiters removed."""
    text = _MISSING.sub("", text)
    text = _INLINE_MATH.sub(lambda match: match.group(1), text)
    for _ in range(2):  # nested emphasis: "**_Title_**"
        text = _EMPHASIS.sub(lambda match: match.group(2), text)
    text = _ESCAPE.sub(lambda match: match.group(1), text)
    return " ".join(text.split())


def _section(lines: list[str]) -> list[str]:
    """The lines under the last reference heading, up to the next heading at its level or above."""
    headings = [(i, *found) for i, line in enumerate(lines) if (found := _heading(line)) is not None]
    chosen = [(i, level) for i, level, text in headings if _HEADING.match(clean_markdown(text))]
    if not chosen:
        return []
    start, level = chosen[-1]
    end = next(
        (
            i
            for i, other, text in headings
            if i > start and (other <= level or _APPENDIX.match(clean_markdown(text)))
        ),
        len(lines),
    )
    return lines[start + 1 : end]


def references_from_markdown(markdown: str) -> list[str]:
    """The references of nougat's Markdown for a document (its pages' Markdown joined), one string each."""
    lines = _section(markdown.splitlines())
    items: list[list[str]] = []
    marked = any(_ITEM.match(line) for line in lines)
    for line in lines:
        if _heading(line) is not None:  # a sub-heading ("### Books"): it ends an item, and is none
            items.append([])
            continue
        if not line.strip():
            if not marked:
                items.append([])  # a blank line ends a paragraph: one reference each
            continue
        if not marked or _ITEM.match(line):
            if marked or not items or not items[-1]:
                items.append([])
            items[-1].append(_NUMBER.sub("", _ITEM.sub("", line, count=1), count=1) if marked else line)
        elif items:
            items[-1].append(line)  # a continuation of the item before
    joined = [clean_markdown(" ".join(part.strip() for part in item)) for item in items if item]
    return [_NUMBER.sub("", text, count=1) for text in joined if text]
