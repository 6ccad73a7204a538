"""BibTeX text → entries with decoded field values, and the blocks that could not be parsed.

Both the `.bib` input reader and the index's BibTeX-based ingesters use this one parser (bibtexparser 2).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from bibtexparser.entrypoint import parse_string

from refhound.normalize.names import is_et_al
from refhound.normalize.text import collapse_whitespace, latex_to_unicode, unescape_latex_specials


@dataclass(frozen=True)
class BibEntry:
    key: str
    entry_type: str
    # lower-case field name -> value, LaTeX decoded except identifiers and name lists (author, editor),
    # which keep their braces so that `split_bibtex_names` can split them correctly.
    fields: dict[str, str]
    raw: str
    line: int | None = None


@dataclass(frozen=True)
class BibFailure:
    raw: str
    line: int | None
    message: str


@dataclass
class BibParse:
    entries: list[BibEntry] = field(default_factory=list)
    failures: list[BibFailure] = field(default_factory=list)


# Fields whose value is an identifier or address: keep them verbatim, only trim braces and spaces.
_VERBATIM = {"url", "doi", "eprint", "arxiv", "arxivid", "howpublished_url", "biburl"}


_NAME_LISTS = {"author", "editor"}


def decode_field(name: str, value: str) -> str:
    if name in _NAME_LISTS:
        return collapse_whitespace(value)
    if name in _VERBATIM:
        return collapse_whitespace(unescape_latex_specials(value).replace("{", "").replace("}", ""))
    return latex_to_unicode(value)


# bibtexparser logs every malformed block itself; refhound reports them through `BibParse.failures`.
logging.getLogger("bibtexparser").setLevel(logging.ERROR)

# An entry opens with "@type{" or "@type(" as the first thing on its line (or right after the previous entry
# closed): bibtexparser takes any "@" for a block start, so "% see @misc{foo, …}" or prose that mentions
# "@article" would otherwise become entries.
_OPEN = r"[ \t\ufeff]*@[ \t]*([A-Za-z][\w-]*)\s*([{(])"
LINE_OPEN = re.compile(rf"(?m)^{_OPEN}")
_AFTER_ENTRY_OPEN = re.compile(_OPEN)
_COMMENT_LINE = re.compile(r"(?m)^[ \t]*%[^\n]*")
# Inside an entry: braces and quotes (to know whether a "%" is between fields or inside a value; escaped
# ones, "\}" in dblp's titles, count for nothing), the entry's own closing parenthesis, and a line that
# opens a new entry because this one never closed.
_IN_ENTRY = re.compile(r'\\[{}"%]|[{}()"%]|\n(?=[ \t]*@[ \t]*[A-Za-z][\w-]*\s*[{(])')
_NOT_NEWLINE = re.compile(r"[^\n]")
_BRACKET = re.compile(r"[{}()]")


def _blank(text: str) -> str:
    """`text` with every character but newlines made a space, so positions and line numbers stay put."""
    return _NOT_NEWLINE.sub(" ", text)


def _entry_end(text: str, start: int, opener: str) -> tuple[int, list[tuple[int, int]]]:
    """Where the entry whose delimiter is at `start` ends (after its closing delimiter; at the next entry's
    line when it never closes), and the spans of its "%" comments between fields."""
    closer = "}" if opener == "{" else ")"
    depth, quoted = 0, False
    comments: list[tuple[int, int]] = []
    pos = start + 1
    while match := _IN_ENTRY.search(text, pos):
        token, pos = match.group(0), match.end()
        if token.startswith("\\"):
            continue
        if token == "\n":
            return match.start(), comments  # unclosed: bibtexparser reports it, the next entry is read
        if token == "{":
            depth += 1
        elif token == "}" and depth:
            depth -= 1
        elif depth == 0 and token == closer and not quoted:
            return pos, comments
        elif depth == 0 and token == '"':
            quoted = not quoted
        elif depth == 0 and token == "%" and not quoted:
            line_end = text.find("\n", pos)
            line_end = len(text) if line_end < 0 else line_end
            comments.append((match.start(), line_end))
            pos = line_end
    return len(text), comments


def _comment_end(text: str, start: int, opener: str) -> int:
    """Where the "@comment" block whose delimiter is at `start` ends: after its balanced closing
    delimiter, entries it holds included; at its own line's end when it never closes."""
    closer = "}" if opener == "{" else ")"
    depth = 0
    for match in _BRACKET.finditer(text, start):
        token = match.group(0)
        if token == opener:
            depth += 1
        elif token == closer:
            depth -= 1
            if depth == 0:
                return match.end()
    line_end = text.find("\n", start)
    return len(text) if line_end < 0 else line_end


def strip_comments(text: str) -> str:
    """BibTeX text with its comments blanked out, character for character (line numbers are kept).

    Comments are: lines that start with "%" (wherever they stand), a "%" remark between an entry's fields,
    text outside entries, and "@comment{…}" blocks. What is left is entries, "@string" and "@preamble".
    """
    text = _COMMENT_LINE.sub(lambda m: _blank(m.group(0)), text)
    out: list[str] = []
    pos = 0
    opening = LINE_OPEN.search(text)
    while opening:
        out.append(_blank(text[pos : opening.start()]))
        if opening.group(1).lower() == "comment":
            end = _comment_end(text, opening.end() - 1, opening.group(2))
            out.append(_blank(text[opening.start() : end]))
        else:
            end, comments = _entry_end(text, opening.end() - 1, opening.group(2))
            cursor = opening.start()
            for comment_start, comment_end in comments:
                out.append(text[cursor:comment_start])
                out.append(_blank(text[comment_start:comment_end]))
                cursor = comment_end
            out.append(text[cursor:end])
        pos = end
        opening = _AFTER_ENTRY_OPEN.match(text, pos) or LINE_OPEN.search(text, pos)
    out.append(_blank(text[pos:]))
    return "".join(out)


def parse_bibtex(text: str) -> BibParse:
    """Parse BibTeX text; malformed blocks are reported, never silently dropped; comments are no entries.
    (Entries too long to be one are screened out before, by `refhound.inputs.screen`.)"""
    library = parse_string(strip_comments(text))
    result = BibParse()
    for entry in library.entries:
        fields: dict[str, str] = {}
        for f in entry.fields:
            value = f.value if isinstance(f.value, str) else str(f.value)
            fields[f.key.lower()] = decode_field(f.key.lower(), value)
        result.entries.append(
            BibEntry(
                key=entry.key,
                entry_type=entry.entry_type.lower(),
                fields=fields,
                raw=entry.raw or "",
                line=entry.start_line + 1 if entry.start_line is not None else None,
            )
        )
    for block in library.failed_blocks:
        error = getattr(block, "error", None)
        reason = getattr(error, "abort_reason", None) or str(error or "").split(". Note:")[0]
        message = f"malformed BibTeX entry: {reason}" if reason else "malformed BibTeX entry"
        line = block.start_line + 1 if block.start_line is not None else None
        result.failures.append(BibFailure(raw=block.raw or "", line=line, message=message))
    return result


def split_bibtex_names(value: str) -> tuple[list[str], bool]:
    """Split a BibTeX name list on top-level ``and``; say whether it ended in ``and others``.

    Braced groups are respected: ``{Barnes and Noble, Inc.}`` is one name.
    """
    names = [part for name in _split_top_level(value, _AND) for part in _comma_list(name)]
    cleaned = [collapse_whitespace(latex_to_unicode(n)).strip(" ,") for n in names]
    # A part with no letter (".,.", "-") is punctuation left in the list, nobody's name.
    cleaned = [n for n in cleaned if any(c.isalpha() for c in n)]
    truncated = bool(cleaned) and is_et_al(cleaned[-1])
    if truncated:
        cleaned.pop()
    return cleaned, truncated


_AND = re.compile(r"[{}]|\s+and\s+", re.IGNORECASE)
_COMMA = re.compile(r"[{}]|,")
_BIBTEX_NAME_PARTS = 3  # "von Last", "Jr", "First": the most parts commas divide a BibTeX name into


def _split_top_level(value: str, separator: re.Pattern[str]) -> list[str]:
    """`value` split at `separator` (a pattern that also matches braces) outside braced groups."""
    parts: list[str] = []
    depth = start = 0
    for match in separator.finditer(value):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            parts.append(value[start : match.start()])
            start = match.end()
    return [*parts, value[start:]]


def _comma_list(name: str) -> list[str]:
    """A list written with commas where BibTeX wants "and", split at them. BibTeX's own forms have at most
    two commas ("von Last, Jr, First"): with three parts, or with a comma before the "and" as prose puts
    one ("Andreas Stuhlmüller, Jessica Taylor, and Noah D. Goodman"), each must be a name of two words or
    more ("F. Petroni, T. Rocktäschel, A. H. Miller"); more parts than BibTeX's forms have are a list in a
    reference string's style ("Krizhevsky A., Sutskever, I., Hinton, G. E."), read as one."""
    parts = [part.strip() for part in _split_top_level(name, _COMMA)]
    # A comma closing the part before "and" is prose's ("A B, C D, and E F"): no BibTeX name form ends so.
    prose = len(parts) > 1 and not parts[-1]
    if prose:
        parts.pop()
    if len(parts) > _BIBTEX_NAME_PARTS:
        # Imported here: the reference-string parser costs a tenth of a second to import, and few files
        # need it.
        from refhound.refstring import parse_author_list

        names, _ = parse_author_list(latex_to_unicode(name))
        return names or [name]
    if (len(parts) < _BIBTEX_NAME_PARTS and not prose) or any(len(part.split()) < 2 for part in parts):
        return [name]
    return parts


_ENTRY_START = re.compile(r"^\s*@")
_STRING_START = re.compile(r"^\s*@string\s*[{(]", re.IGNORECASE)


def iter_bibtex_batches(lines: Iterable[str], batch_entries: int = 2000) -> Iterator[BibParse]:
    """Parse BibTeX from a stream of lines, a few thousand entries at a time, so memory stays flat.

    Batches are cut only where a line starts a new ``@`` block; line numbers in the results are those
    of the whole stream. Every ``@string`` abbreviation seen so far is put before each later batch, so
    an entry far down the file still resolves ``booktitle = nips``.
    """
    chunk: list[str] = []
    chunk_start = 0  # 0-based line number of the chunk's first line
    strings: list[str] = []  # lines of the @string blocks of earlier batches
    blocks = 0
    for number, line in enumerate(lines):
        if _ENTRY_START.match(line):
            if blocks >= batch_entries:
                yield _parse_chunk(chunk, chunk_start, strings)
                strings.extend(_string_lines(chunk))
                chunk, chunk_start, blocks = [], number, 0
            blocks += 1
        chunk.append(line)
    if chunk:
        yield _parse_chunk(chunk, chunk_start, strings)


def _string_lines(lines: list[str]) -> list[str]:
    """The lines of the ``@string`` blocks in `lines` (a block runs until the next ``@`` line)."""
    kept: list[str] = []
    inside = False
    for line in lines:
        if _ENTRY_START.match(line):
            inside = bool(_STRING_START.match(line))
        if inside:
            kept.append(line)
    return kept


def _parse_chunk(lines: list[str], offset: int, prefix: list[str]) -> BibParse:
    parsed = parse_bibtex("".join(prefix) + "".join(lines))
    shift = offset - len(prefix)  # prefix lines come first in the parsed text but not in the stream

    def moved(line: int | None) -> int | None:
        return line + shift if line else None

    return BibParse(
        entries=[replace(e, line=moved(e.line)) for e in parsed.entries],
        # The prefix's own failures were reported with the batch that held them.
        failures=[
            replace(f, line=moved(f.line)) for f in parsed.failures if not f.line or f.line > len(prefix)
        ],
    )
