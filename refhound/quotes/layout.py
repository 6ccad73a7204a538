"""A document's layout: which spans are code (never read), passages (paragraphs, list items, headings) and
block quotes — everything else is found by scanning the text itself.

Markdown is parsed with markdown-it (CommonMark) only for its block structure and code: it says which lines
are fenced or indented code, paragraphs and block quotes. Citations and quotes are then scanned in the
source text, because the parser's view of inline syntax is wrong for citations: CommonMark reads "[3][2]"
as one reference link (text "3", label "2"), and "[1]" without a definition as plain text.

Plain text (a memo, a .txt draft) has no code; its passages are blank-line separated blocks, and a block
whose lines are all indented (four spaces or a tab) or start with ">" is a block quote, as memos set them.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

Span = tuple[int, int]

_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_BLANK_LINES = re.compile(r"\n[ \t]*\n\s*")
_INDENTED = re.compile(r"(?: {4}|\t|\s{0,3}>)")
# Only the block structure is wanted: inline parsing (most of the time on a large document) is off.
_BLOCKS_ONLY = MarkdownIt("commonmark").disable("inline")


@dataclass
class Layout:
    """Spans of a document's text: code, passages (in order) and block quotes."""

    code: list[Span] = field(default_factory=list)
    passages: list[Span] = field(default_factory=list)
    block_quotes: list[Span] = field(default_factory=list)

    def passage_of(self, position: int) -> int | None:
        """The index of the passage holding `position`, or None."""
        index = bisect_right(self.passages, position, key=lambda span: span[0]) - 1
        if index >= 0 and self.passages[index][0] <= position < self.passages[index][1]:
            return index
        return None


def _line_starts(text: str) -> list[int]:
    return [0] + [match.end() for match in re.finditer("\n", text)]


def _lines_span(starts: list[int], text: str, first: int, last: int) -> Span:
    """The character span of lines [first, last) (markdown-it's `map`), without the final newline."""
    begin = starts[first] if first < len(starts) else len(text)
    end = starts[last] if last < len(starts) else len(text)
    while end > begin and text[end - 1] in "\r\n":
        end -= 1
    return begin, end


def markdown_layout(text: str) -> Layout:
    """Code, passages and outermost block quotes of a Markdown document."""
    layout = Layout()
    starts = _line_starts(text)
    quote_depth = 0
    for token in _BLOCKS_ONLY.parse(text):
        if token.type == "blockquote_open":
            if quote_depth == 0 and token.map:
                layout.block_quotes.append(_lines_span(starts, text, *token.map))
            quote_depth += 1
        elif token.type == "blockquote_close":
            quote_depth -= 1
        elif token.type in ("fence", "code_block") and token.map:
            layout.code.append(_lines_span(starts, text, *token.map))
        elif token.type in ("paragraph_open", "heading_open") and token.map and quote_depth == 0:
            layout.passages.append(_lines_span(starts, text, *token.map))
        elif token.type == "inline" and token.map:
            begin, end = _lines_span(starts, text, *token.map)
            for match in _INLINE_CODE.finditer(text, begin, end):
                layout.code.append(match.span())
    layout.passages.extend(layout.block_quotes)
    layout.passages.sort()
    layout.code.sort()
    return layout


def text_layout(text: str) -> Layout:
    """Passages and block quotes of a plain-text document (no code)."""
    layout = Layout()
    position = 0
    for separator in [*_BLANK_LINES.finditer(text), None]:
        end = separator.start() if separator else len(text)
        block = text[position:end]
        if block.strip():
            span = (position + len(block) - len(block.lstrip())), end
            layout.passages.append(span)
            lines = [line for line in text[span[0] : span[1]].split("\n") if line.strip()]
            first_line_start = text.rfind("\n", 0, span[0]) + 1
            indented = _INDENTED.match(text, first_line_start) is not None
            if lines and indented and all(_INDENTED.match(line) for line in lines[1:]):
                layout.block_quotes.append(span)
        position = separator.end() if separator else len(text)
    return layout


# What markup next to a quotation is masked with (`mask(..., fill=SYNTAX)`): unlike a blank, it lets a quote
# mark beside it open or close a quotation, and it is left out of the quotation's text (`extract`).
SYNTAX = "\x00"


def mask(text: str, spans: list[Span], fill: str = " ") -> str:
    """`text` with every span's characters but line breaks replaced by `fill` (one character: offsets stay
    valid)."""
    if not spans:
        return text
    pieces: list[str] = []
    position = 0
    for start, end in sorted(spans):
        start = max(start, position)
        if end <= start:
            continue
        pieces.append(text[position:start])
        pieces.append(re.sub(r"[^\n]", fill, text[start:end]))
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def inside(position: int, spans: list[Span]) -> bool:
    """Whether `position` lies in one of the sorted, non-overlapping `spans`."""
    index = bisect_right(spans, position, key=lambda span: span[0]) - 1
    return index >= 0 and spans[index][0] <= position < spans[index][1]


def line_number(text: str, position: int) -> int:
    """1-based line of `position`, for messages."""
    return text.count("\n", 0, position) + 1
