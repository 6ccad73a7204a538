"""`.bbl` input: the bibliography LaTeX got from BibTeX (`\\bibitem` blocks) or biber (`\\entry` records).

A `\\bibitem` is a formatted reference: its LaTeX is turned into text and parsed like any reference string.
A biblatex `\\entry` is structured (`\\field{title}{…}`, `\\name{author}…`, `\\verb{doi}…`) and is mapped
field by field, the way a BibTeX entry is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from refhound.inputs.base import DECODE_ERRORS, InputRead, unreadable_entry
from refhound.inputs.bib import map_fields
from refhound.inputs.screen import DEFAULT_LIMITS, MAX_ENTRY_CHARS, EntryLimits, check_count, screen_blocks
from refhound.models import InputProblem, ParsedFields, Reference
from refhound.normalize.text import collapse_whitespace, latex_to_unicode
from refhound.refstring.repeated_authors import parse_list_entry

_BIBITEM = re.compile(r"\\bibitem(?![A-Za-z])\s*")
_END_LIST = re.compile(r"\\end\s*\{thebibliography\}")
_COMMENT = re.compile(r"(?<!\\)%[^\n]*\n?\s*")
# A whole line commented out ("% \bibitem{old} …"): no reference, in either kind of file. (A "%" later in a
# line may be a URL's, on biber's verbatim lines.)
_COMMENT_LINE = re.compile(r"(?m)^[ \t]*%[^\n]*")
# Markup that carries no text of the reference, or whose first argument is a label ("\bibinfo{year}{2019}").
_DROP = re.compile(
    r"\\(?:newblock|BibitemOpen|urlprefix|doiprefix)\b\s*|\\penalty\s*-?\d+|\\BibitemShut\s*\{[^{}]*\}"
)
# amsplain's and others' macro for the previous item's authors, printed as a rule.
_BYSAME = re.compile(r"\\bysame\b")
_LABEL_ARGUMENT = re.compile(r"\\bib(?:info|field)\s*\{[^{}]*\}\s*")
_ENQUOTE = re.compile(r"\\enquote\s*\{([^{}]*)\}")
_HREF = re.compile(r"\\href\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_BIBLATEX_MACROS = {
    "bibrangedash": "–", "bibdatedash": "–", "bibinitperiod": ".", "bibinitdelim": " ",
    "bibinithyphendelim": "-", "bibnamedelima": " ", "bibnamedelimb": " ", "bibnamedelimc": " ",
    "bibnamedelimd": " ", "bibnamedelimi": " ",
}  # fmt: skip
_BIBLATEX_MACRO = re.compile(r"\\(" + "|".join(_BIBLATEX_MACROS) + r")(?![A-Za-z])\s?")
_ITEM_START = re.compile(r"\\bibitem(?![A-Za-z])|\\entry\s*\{")
_LINE_ITEM = re.compile(r"[ \t]*(?:\\bibitem(?![A-Za-z])|\\entry\s*\{)")  # a line that opens an item
_ENTRY = re.compile(r"\\entry\s*\{([^{}]*)\}\s*\{([^{}]*)\}\s*\{[^{}]*\}(.*?)\\endentry", re.DOTALL)
_FIELD = re.compile(r"\\field\s*\{(\w+)\}\s*\{")
_VERB = re.compile(r"\\verb\s*\{(\w+)\}\s*((?:\\verb[^\n]*\n\s*)+)\\endverb")
_NAME_LIST = re.compile(r"\\name\s*\{author\}\s*\{\d+\}\s*\{[^{}]*\}\s*\{")
_LIST = re.compile(r"\\list\s*\{(\w+)\}\s*\{\d+\}\s*\{")
_NAME_PART = re.compile(r"(\w+)=\{")
_MORE_AUTHORS = re.compile(r"\\true\s*\{moreauthor\}")


def _group(text: str, start: int) -> tuple[str, int]:
    """The content of the brace group opening at `text[start]`, and the index after its closing brace."""
    depth = 0
    i = start
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i], i + 1
        i += 1
    return text[start + 1 :], len(text)


def _groups(text: str) -> list[str]:
    """The top-level brace groups of `text`, in order."""
    out: list[str] = []
    i = text.find("{")
    while i >= 0:
        content, end = _group(text, i)
        out.append(content)
        i = text.find("{", end)
    return out


# --- \bibitem ------------------------------------------------------------------------------------------


def _bibitem_head(text: str, start: int) -> tuple[str, int]:
    """The key of the `\\bibitem[label]{key}` whose arguments start at `start`, and where its text begins."""
    i = start
    if text.startswith("[", i):
        depth = 0
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if text[i] == "]" and depth == 0:
                break
            i += 1
        i = len(text) if i >= len(text) else i + 1
        while i < len(text) and text[i].isspace():
            i += 1
    if text.startswith("{", i):
        key, end = _group(text, i)
        return key.strip(), end
    return "", i


def _bibitem_text(latex: str) -> str:
    """One `\\bibitem`'s LaTeX as the plain reference string a reader sees."""
    text = _COMMENT.sub("", latex)
    text = _DROP.sub(" ", text)
    text = _BYSAME.sub("———", text)
    text = _LABEL_ARGUMENT.sub("", text)
    text = _ENQUOTE.sub(r"“\1”", text)
    text = _HREF.sub(lambda m: m.group(2) if m.group(1) in m.group(2) else f"{m.group(2)} {m.group(1)}", text)
    return latex_to_unicode(text)


def _read_bibitems(text: str, source: str, first: int = 1, previous: ParsedFields | None = None) -> InputRead:
    """The `\\bibitem`s of `text`, numbered from `first` (a keyless one's id), read after the item
    `previous` (whose authors a `\\bysame` repeats)."""
    read = InputRead()
    starts = list(_BIBITEM.finditer(text))
    for position, match in enumerate(starts, first):
        key, body_start = _bibitem_head(text, match.end())
        following = position - first + 1
        body_end = starts[following].start() if following < len(starts) else len(text)
        body = _END_LIST.split(text[body_start:body_end], maxsplit=1)[0]
        location = key or f"item {position}"
        try:
            reference = _bibitem_text(body)
            parsed = parse_list_entry(reference, previous) if reference else None
        except DECODE_ERRORS as error:
            read.problems.append(unreadable_entry(source, location, error))
            continue
        if parsed is None:
            read.problems.append(InputProblem(input=source, location=location, message="empty \\bibitem"))
            continue
        previous = parsed
        read.references.append(Reference(id=key or str(position), raw=reference, parsed=parsed, input=source))
    return read


# --- biblatex \entry -----------------------------------------------------------------------------------


def _biblatex_value(value: str) -> str:
    return latex_to_unicode(_BIBLATEX_MACRO.sub(lambda m: _BIBLATEX_MACROS[m.group(1)], value))


def _biblatex_names(body: str) -> list[str]:
    """The names of the entry's `\\name{author}` list, each as "Given prefix Family, Suffix"."""
    match = _NAME_LIST.search(body)
    if not match:
        return []
    names: list[str] = []
    for name in _groups(_group(body, match.end() - 1)[0]):
        parts: dict[str, str] = {}
        for part in _NAME_PART.finditer(name):
            parts[part.group(1)] = _biblatex_value(_group(name, part.end() - 1)[0])
        display = " ".join(p for p in (parts.get("given"), parts.get("prefix"), parts.get("family")) if p)
        if parts.get("suffix"):
            display = f"{display}, {parts['suffix']}"
        if display:
            names.append(display)
    return names


def _biblatex_fields(body: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for match in _FIELD.finditer(body):
        fields.setdefault(match.group(1).lower(), _biblatex_value(_group(body, match.end() - 1)[0]))
    for match in _LIST.finditer(body):
        items = _groups(_group(body, match.end() - 1)[0])
        if items:
            fields.setdefault(match.group(1).lower(), _biblatex_value(items[0]))
    for match in _VERB.finditer(body):
        lines = [line.strip().removeprefix("\\verb").strip() for line in match.group(2).splitlines()]
        fields.setdefault(match.group(1).lower(), "".join(lines))
    return fields


def _read_biblatex(text: str, source: str, first_line: int = 1) -> InputRead:
    read = InputRead()
    line, counted = first_line, 0  # lines are counted forward from one entry to the next: linear in the file
    for match in _ENTRY.finditer(text):
        line, counted = line + text.count("\n", counted, match.start()), match.start()
        key, entry_type, body = match.group(1).strip(), match.group(2).strip().lower(), match.group(3)
        location = f"line {line} ({key})"
        try:
            names = _biblatex_names(body)
            parsed, notes = map_fields(
                entry_type, _biblatex_fields(body), names, bool(_MORE_AUTHORS.search(body))
            )
        except DECODE_ERRORS as error:
            read.problems.append(unreadable_entry(source, location, error))
            continue
        raw = collapse_whitespace(match.group(0))
        read.references.append(Reference(id=key, raw=raw, parsed=parsed, input=source, structured=True))
        read.problems.extend(InputProblem(input=source, location=location, message=note) for note in notes)
    return read


def count_bbl_items(text: str) -> int:
    return sum(1 for _ in _ITEM_START.finditer(text))


def read_bbl(text: str, source: str, limits: EntryLimits = DEFAULT_LIMITS) -> InputRead:
    """The references of a `.bbl` file, biblatex's `\\entry` records or a `thebibliography` list. The
    `limits` are checked by a scan first: an item over the length cap is skipped, and more items than
    the count cap raise `TooManyEntries`."""
    check_count(source, count_bbl_items(text), limits, "bibliography items")
    return InputRead.joined(stream_bbl(text.splitlines(keepends=True), source, limits.max_entry_chars))


def stream_bbl(
    lines: Iterable[str], source: str, max_entry_chars: int | None = MAX_ENTRY_CHARS, batch: int | None = None
) -> Iterator[InputRead]:
    """The references of `.bbl` `lines` (line ends kept), read in batches of at least `batch` items (None:
    all at once), cut only where a line opens an item, so that each batch holds whole items. Whether the
    file holds biblatex records or `\\bibitem`s is told by its first batch."""
    pending: list[str] = []
    items, first_line, line, first_item = 0, 1, 1, 1
    biblatex: bool | None = None
    previous: ParsedFields | None = None  # the last item read, whose authors a `\\bysame` repeats
    for text in lines:
        if batch is not None and items >= batch and _LINE_ITEM.match(text):
            read, biblatex, first_item = _read_batch(
                "".join(pending), source, max_entry_chars, first_line, first_item, biblatex, previous
            )
            previous = read.references[-1].parsed if read.references else previous
            yield read
            pending, items, first_line = [], 0, line
        pending.append(text)
        items += sum(1 for _ in _ITEM_START.finditer(text))
        line += text.count("\n")
    last, _, _ = _read_batch(
        "".join(pending), source, max_entry_chars, first_line, first_item, biblatex, previous
    )
    yield last


def _read_batch(
    text: str,
    source: str,
    cap: int | None,
    first_line: int,
    first_item: int,
    biblatex: bool | None,
    previous: ParsedFields | None,
) -> tuple[InputRead, bool, int]:
    """A batch's references; whether the file is biblatex's; the number of the next `\\bibitem`."""
    text, too_long = screen_blocks(text, _ITEM_START, cap, source, first_line)
    text = _COMMENT_LINE.sub("", text)
    if biblatex is None:
        biblatex = bool(_ENTRY.search(text))
    if biblatex:
        read = _read_biblatex(text, source, first_line)
    else:
        read = _read_bibitems(text, source, first_item, previous)
        first_item += sum(1 for _ in _BIBITEM.finditer(text))
    read.problems[:0] = too_long
    return read, biblatex, first_item
