"""Quoted passages of a document, with their offsets: “curly”, "straight", „low-nine“, «guillemets» and
block quotes (Markdown "> " lines, or an indented block in plain text).

Inline quotes are looked for passage by passage, so an opening mark left unclosed cannot swallow the rest of
the document: it is reported with its line (unbalanced), and only when the next paragraph opens with a mark
too — the typesetting convention for a quotation running over several paragraphs — is the passage's rest
taken as a quote, checked on its own and cited as the paragraph it runs on into is (`Extracted.runs_on`).
Quotes inside a quote (and inside a block quote) belong to it.
A quote's text leaves out its marks, citation markers or an attribution line ("— Smith [2]") at its end,
which are the citation, not the quotation, and link syntax, URLs and HTML tags in it ("“[the text](url)”"
quotes "the text"), so it may differ from the document's `text[start:end]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from refhound.quotes.layout import SYNTAX, Layout, Span, inside, line_number
from refhound.quotes.models import Quote, QuoteStyle

_OPENERS: dict[str, tuple[str, QuoteStyle]] = {
    "\u201c": ("\u201d", "curly"),
    "\u201e": ("\u201c\u201d", "low9"),
    "\u00ab": ("\u00bb", "guillemets"),
}
_MARKS = re.compile('["\u201c\u201d\u201e\u00ab\u00bb]')
_BEFORE_STRAIGHT_OPEN = " \t\n([{\u2014\u2013-/:;," + SYNTAX
_TRAILING_CITATIONS = re.compile(
    r"(?:\s*(?:\[\^[^\]\s]+\]|\[\d{1,4}(?:\s*[-\u2013,;]\s*\d{1,4})*\]|\(\s*\d{1,4}\s*\)))+[\s.,;:]*$"
)
_BLOCK_MARKER = re.compile(r"[ \t]{0,3}(?:>[ \t]?)+|[ \t]+")
_ATTRIBUTION = re.compile(r"^\s*(?:\u2014|\u2013|\u2015|--+)\s*\S")
_WORD = re.compile(r"\w+")


@dataclass
class Extracted:
    """The quotes found, and what the reader should know about the rest."""

    quotes: list[Quote] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped_short: int = 0
    # A paragraph of a quotation that runs on: its start → where the next paragraph (which goes on with
    # the quotation, and carries its citation at the end) starts.
    runs_on: dict[int, int] = field(default_factory=dict)


def _trim(text: str, masked: str, start: int, end: int) -> tuple[int, int]:
    """The span without surrounding whitespace or markup (a link's syntax around its text) and without
    citation markers at its end."""
    while start < end and (text[start].isspace() or masked[start] == SYNTAX):
        start += 1
    if match := _TRAILING_CITATIONS.search(text, start, end):
        end = match.start()
    while end > start and (text[end - 1].isspace() or masked[end - 1] == SYNTAX):
        end -= 1
    return start, end


def _quotation(text: str, masked: str, start: int, end: int) -> str:
    """The quoted words of `text[start:end]`: link syntax, URLs and HTML tags in it left out."""
    if SYNTAX not in masked[start:end]:
        return text[start:end]
    return "".join(
        char for char, hidden in zip(text[start:end], masked[start:end], strict=True) if hidden != SYNTAX
    )


def _closes_straight(text: str, position: int) -> bool:
    return position > 0 and not text[position - 1].isspace()


def _opens_straight(text: str, position: int, end: int) -> bool:
    before_ok = position == 0 or text[position - 1] in _BEFORE_STRAIGHT_OPEN
    return before_ok and position + 1 < end and not text[position + 1].isspace()


def _inline(masked: str, span: Span) -> tuple[list[tuple[int, int, QuoteStyle]], int | None]:
    """Top-level quote spans (inside the marks) of one passage, and the offset of an unclosed opener."""
    begin, end = span
    found: list[tuple[int, int, QuoteStyle]] = []
    opener: int | None = None
    closers = ""
    style: QuoteStyle = "straight"
    depth = 0
    for match in _MARKS.finditer(masked, begin, end):
        position, mark = match.start(), match.group()
        if opener is None:
            if mark in _OPENERS:
                closers, style = _OPENERS[mark]
                opener, depth = position, 0
            elif mark == '"' and _opens_straight(masked, position, end):
                closers, style, opener, depth = '"', "straight", position, 0
            continue
        if mark in closers and (mark != '"' or _closes_straight(masked, position)):
            if depth == 0:
                found.append((opener + 1, position, style))
                opener = None
            else:
                depth -= 1
        elif mark == masked[opener] and mark != '"':
            depth += 1  # the same kind of quote opened inside this one
    return found, opener


def _block(text: str, span: Span) -> tuple[str, int, int] | None:
    """A block quote's text (markers and attribution removed) and its span in the document."""
    lines: list[tuple[int, str]] = []
    position = text.rfind("\n", 0, span[0]) + 1
    for line in text[position : span[1]].split("\n"):
        marker = _BLOCK_MARKER.match(line)
        skip = marker.end() if marker else 0
        lines.append((position + skip, line[skip:]))
        position += len(line) + 1

    def drop_blank_tail() -> None:
        while lines and not lines[-1][1].strip():
            lines.pop()

    drop_blank_tail()
    if len(lines) > 1 and _ATTRIBUTION.match(lines[-1][1]):
        lines.pop()
        drop_blank_tail()
    if not lines:
        return None
    last_start, last_text = lines[-1]
    if citations := _TRAILING_CITATIONS.search(last_text):
        lines[-1] = (last_start, last_text[: citations.start()])
        drop_blank_tail()
    if not lines:
        return None
    body = "\n".join(content.rstrip() for _, content in lines).strip()
    start = lines[0][0] + len(lines[0][1]) - len(lines[0][1].lstrip())
    end = lines[-1][0] + len(lines[-1][1].rstrip())
    if len(body) > 1 and body[0] in '"\u201c\u201e\u00ab' and body[-1] in '"\u201d\u201c\u00bb':
        body = body[1:-1].strip()
    return body, start, end


def extract_quotes(
    text: str,
    masked: str,
    layout: Layout,
    min_words: int,
    footnotes: dict[str, Span] | None = None,
    exclude: list[Span] | None = None,
) -> Extracted:
    """Every quotation of the document, in document order.

    `masked` is the text with code blanked and markup masked (see `SYNTAX`); `footnotes` are footnote
    definitions' bodies (their quotes are the footnote's); quotes starting in `exclude` (reference-list
    entries, whose quoted strings are titles) are not quotations."""
    result = Extracted()
    candidates: list[tuple[str, int, int, QuoteStyle]] = []
    for span in layout.block_quotes:
        if (block := _block(text, span)) is not None:
            candidates.append((block[0], block[1], block[2], "block"))
    passages = [p for p in layout.passages if not inside(p[0], layout.block_quotes)]
    passages += [span for span in (footnotes or {}).values() if not inside(span[0], passages)]
    passages.sort()
    for index, passage in enumerate(passages):
        spans, unclosed = _inline(masked, passage)
        for start, end, style in spans:
            start, end = _trim(text, masked, start, end)
            candidates.append((_quotation(text, masked, start, end), start, end, style))
        if unclosed is None:
            continue
        line = line_number(text, unclosed)
        following = passages[index + 1] if index + 1 < len(passages) else None
        if following and masked[following[0]] in '"\u201c\u201e\u00ab':
            start, end = _trim(text, masked, unclosed + 1, passage[1])
            style = _OPENERS[text[unclosed]][1] if text[unclosed] in _OPENERS else "straight"
            candidates.append((_quotation(text, masked, start, end), start, end, style))
            result.runs_on[start] = following[0]
            result.warnings.append(
                f"line {line}: a quotation runs over several paragraphs; each paragraph is checked on its own"
            )
        else:
            result.warnings.append(
                f"line {line}: unbalanced quote: the {text[unclosed]!r} opened here is not closed in its "
                "paragraph, so it is not checked"
            )
    for body, start, end, style in sorted(candidates, key=lambda item: item[1]):
        if any(low <= start < high for low, high in exclude or []):
            continue
        if len(_WORD.findall(body)) < min_words:
            result.skipped_short += 1
            continue
        note = next((key for key, s in (footnotes or {}).items() if s[0] <= start < s[1]), None)
        result.quotes.append(Quote(body, start, end, style, note))
    return result
