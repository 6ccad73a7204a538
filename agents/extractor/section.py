"""Where the reference list is: after its heading (in several languages), up to the appendices.

Without a heading the list is found by its shape: the longest run of lines numbered 1, 2, 3, … in order
([1], 1., (1)) whose entries carry years, else the longest run of entry-like blocks — lines that open the
way reference entries do ("MÜLLER, Hans", "Smith, J.", "Smith J.", "J. Smith", "Jacob Devlin, Ming-Wei
Chang", a dash run for repeated authors) with a year near their start, one after another, with no heading
between them. Footnotes are the fallback when no such block exists. The section ends at an
appendix heading, at a heading at least as prominent as the reference heading, at a bold title among plain
entries, or where the type size changes for good (a colophon, a list of the publisher's series). A short
heading followed by an entry opens a part of the list ("Primary sources", "Internet sources"): the list
goes on, and the heading is left out of its lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from refhound.agents.extractor.entry_shape import has_early_year, opening_shape, opens_given_names_first
from refhound.agents.extractor.segment import ENDS_ENTRY, LIST_MARKERS, MID_PHRASE, entry_opening
from refhound.inputs.base import year_of
from refhound.pdf.layout import Line, body_font_size
from refhound.refstring.authors import LOWER, NO_CHARACTER, UPPER

_NUMBERING = r"(?:(?:\d{1,2}|[IVXLC]{1,6}|[A-Z])(?:\.\d{1,2})*\.?\s+)?"
_HEADINGS = (
    r"references?(?:\s+cited)?|bibliography|literature(?:\s+cited)?|works\s+cited|cited\s+literature"
    r"|references\s+and\s+notes|selected\s+bibliography|sources|notes\s+and\s+references"
    r"|(?:list\s+of\s+)?references?\s+list|list\s+of\s+(?:references|sources|works\s+cited)"
    r"|(?:bibliographical|bibliographic|literature)\s+references|cited\s+(?:works|references|sources)"
    r"|works\s+consulted|sources\s+(?:cited|consulted|used)|(?:references\s+and\s+)?further\s+reading"
    r"|(?:sources|references|bibliography)\s+(?:and|&)\s+(?:literature|references|bibliography|sources)"
    r"|(?:verwendete|zitierte)\s+literatur|literaturliste|quellen-?\s*(?:und|&)\s*literatur(?:verzeichnis)?"
    r"|obras\s+citadas|literatura\s+citada|bibliografía\s+citada|kaynakça|kaynaklar|piśmiennictwo|källor"
    r"|literatur(?:verzeichnis|angaben)?|quellen(?:verzeichnis)?|bibliographie|références(?:\s+bibliographiques)?"
    r"|bibliografía|bibliografia|referencias(?:\s+bibliográficas)?|referências(?:\s+bibliográficas)?"
    r"|riferimenti(?:\s+bibliografici)?|literatuur(?:lijst)?|referenser|litteratur|kirjallisuus"
    r"|bibliografie|literatura|список\s+литературы|литература|参考文献|參考文獻|引用文献"
)
_HEADING = re.compile(rf"^\s*{_NUMBERING}(?:{_HEADINGS})\s*:?\s*$", re.IGNORECASE)
# Headings that also caption a table's or figure's sources ("Sources", "Quellen"): a list under them is taken
# only when no other reference heading has one.
_WEAK_HEADING = re.compile(
    rf"^\s*{_NUMBERING}(?:sources|quellen|källor|fuentes|fontes|fonti)\s*:?\s*$", re.IGNORECASE
)
# Back matter that is no reference and ends a list: editorial dates, contact blocks, order forms, and an
# author's biography opening with a name and a verb ("Jane Doe is professor ...", "Jane DOE studied ..."; each
# word of the name capitalised or in capitals, case counting there, or a reference's line such as "treatment
# goal is not cure: …" would end the list).
_BACK_MATTER = re.compile(
    r"^(?:(?:received|accepted|revised|published\s+online|eingegangen|angenommen|reçu|accepté|recibido"
    r"|aceptado)\b.{0,40}\d{4}"
    r"|(?:e-?mail|tel\.?|phone|fax|address|affiliations?|correspondence|corresponding\s+author|contact|orcid|anschrift"
    r"|adresse|dirección|korrespondenz\w*)\s*:"
    r"|(?:order\s+form|bestellschein|bestellung|bon\s+de\s+commande|please\s+send\s+me|i\s+would\s+like\s+to"
    r"\s+order|hiermit\s+bestelle)\b"
    rf"|(?-i:[{UPPER}](?:[{LOWER}]+|[{UPPER}]+)(?:\s+[{UPPER}]\.)?(?:\s+[{UPPER}](?:[{LOWER}'’-]+|[{UPPER}'’-]+)){{1,2}}"
    r"\s+(?:is|was|has|holds|received|works|teaches|studied|ist|war|est)\s))",
    re.IGNORECASE,
)
_APPENDIX = re.compile(
    rf"^\s*{_NUMBERING}(?:appendix|appendices|anhang|annexe?s?|anexo|apéndice|appendice|supplementary"
    r"|supplemental\s+material|online\s+appendix|biographical\s+notes?|about\s+the\s+authors?|author\s+biograph"
    r"|notes\s+on\s+contributors|acknowledge?ments?|endnotes|tables|figures|checklist)\b",
    re.IGNORECASE,
)
_MAX_HEADING_WORDS = 6
_LIST_SHARE = 1 / 6
_BILINGUAL = re.compile(r"\s*[/|]\s*|\s+[–—-]\s+")
_SPACED_SMALL_CAPS = re.compile(r"(?<=\b[A-Z]) (?=[A-Z]{2,}\b)")  # "R EFERENCES" as small capitals print
_MIN_RUN_ENTRIES = 4
_MAX_LINES_PER_ENTRY = 10
# The most text one entry runs to (the longest of anystyle's 1,669 gold strings is 553 characters; author
# lists of thirty names run longer), counted in characters, not lines: a narrow column in large type sets an
# entry on twice the lines a wide page does.
_MAX_ENTRY_CHARS = 1000
_PUNCTUATION_INSIDE = re.compile(r"[.,;:]\s*\S")
_PART_LOOKAHEAD = 5  # lines after a part heading's first one where its second entry may open
_JOKER_SHAPES = ("dashes", "name-year")  # a run does not start with these: they stand for no list style
_SIZE_TOLERANCE = 0.8  # points
_PART_NUMBER = re.compile(r"^\s*(?:[A-Z]|[IVX]{1,4})[.)]\s+")  # "B. Internet sources", "II) Archives"
_NOT_A_PART_HEADING = re.compile(r"\d|[,;]|\.\s*$")
# "•", "[3]", "12.", a bullet in a symbol font
_LIST_MARK = re.compile(rf"^(?:[•▪■●◦‣∙·*–-]\s+|[{NO_CHARACTER}]\s*|\[\d{{1,4}}\]\s*|\d{{1,4}}[.)]\s+)(?=\S)")
# An anonymous work's entry opens with its title in quotes: “Aeronautical Information Manual,” …
_QUOTED_TITLE = re.compile(r"^[“\"«„‘]\s*[^\W\d_]")
# A float's caption: "Figure 6: …", "Table 2.", "Fig. 3 The …", "Abbildung 4:"
_CAPTION = re.compile(
    r"^\s*(?:figure|fig\.|table|tab\.|exhibit|abbildung|abb\.|tabelle|tableau|figura|tabla|cuadro|tabel)"
    r"\s*[A-Z]?\d{1,3}(?:\.\d{1,2})?[a-z]?(?:\s*[:.|–—]|\s+[A-Z])",
    re.IGNORECASE,
)
_MAX_FLOAT_LINES = 400  # lines a float's scan reads before giving up on the list resuming
_MAX_FLOAT_PAGES = 2  # pages of floats after the one where the list broke off
_EDGE_TOLERANCE = 3.0  # points: a line at one of the list's left edges
_LABEL_ROOM = 15.0  # points left of a list's edge where a longer label of it may stand
_EDGE_LINES = 12  # the list's lines before a float that show its left edges
_RESUMED_WINDOW = 12  # lines after a float where the resumed list opens two entries


@dataclass(frozen=True)
class Section:
    """The lines of the reference list, and how it was found."""

    lines: list[Line]
    found_by: str  # "heading: <text>", "numbered list" or "none"


def _is_heading(line: Line, body_size: float) -> bool:
    text = _SPACED_SMALL_CAPS.sub("", line.text)
    # "Literatur / References", "Bibliografía – Bibliography": a heading in two languages
    parts = _BILINGUAL.split(text)
    if len(line.text.split()) > _MAX_HEADING_WORDS * len(parts):
        return False
    return all(_HEADING.match(part) for part in parts) and (
        line.bold or line.size >= body_size - 0.5 or line.text.isupper()
    )


def _ends_section(line: Line, heading: Line, body_size: float, previous: Line) -> bool:
    """Whether `line` (after `previous`, the heading or a line of the list) ends the list under `heading`."""
    if _BACK_MATTER.match(line.text):
        return True
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
    # A short plain line naming an appendix heads one when it is a heading's words alone, or after a line
    # that ended an entry: after a title that breaks off ("Handbook of Statistical"), "Tables. Reading,
    # Massachusetts:" goes on with it.
    if _APPENDIX.match(line.text) and (
        line.bold
        or line.size > body_size + 0.5
        or line.text.isupper()
        or (
            words <= 3
            and (
                not _PUNCTUATION_INSIDE.search(line.text)
                or previous is heading
                or bool(ENDS_ENTRY.search(previous.text))
            )
        )
    ):
        return True
    # Another heading at least as large and bold as the reference heading, standing out of the list. A
    # heading carries no year: a short last line such as "In CVPR, 2016." set a point larger is no heading.
    stands_out = line.bold or line.size > body_size + 0.5
    at_least_as_prominent = line.size >= heading.size - 0.6 and (line.bold or not heading.bold)
    return stands_out and at_least_as_prominent and words <= 10 and year_of(line.text) is None


def _part_heading(lines: Sequence[Line], i: int, list_size: float, heading_size: float | None = None) -> bool:
    """Whether line `i` heads a part of the list ("Primary sources", "B. Internet sources:"): a short line of
    words, capitalised, with no number, comma or closing full stop, ending short of the margin, set apart
    from the list (bold, italic, another size, or more space above it than below) but no larger than the
    list or smaller than the list's heading, and followed by a line that opens as an entry does (its year
    may come later, after a long author list). A larger line opening a page of names ("The ATLAS
    Collaboration") is no part heading."""
    line = lines[i]
    subordinate = line.size <= list_size + _SIZE_TOLERANCE or (
        heading_size is not None and line.size < heading_size - _SIZE_TOLERANCE
    )
    if not subordinate:
        return False
    text = _PART_NUMBER.sub("", line.text, count=1)
    words = text.split()
    if not 0 < len(words) <= _MAX_HEADING_WORDS or not text[:1].isupper() or _NOT_A_PART_HEADING.search(text):
        return False
    if any(pattern.match(line.text) for pattern in (_BACK_MATTER, _APPENDIX, _HEADING, _WEAK_HEADING)):
        return False  # a reference heading of its own is joined or not by `_joined_sections`
    if i + 1 >= len(lines) or not _short_of_the_margin(lines, i):
        return False  # a wrapped line of an entry runs to the margin
    if (i > 0 and _at_an_indent_under(lines[i - 1], line)) or _at_the_wrapped_lines_indent(lines, i):
        return False  # a wrapped line of an entry (a title in italics) stands at its indent
    styled = line.bold or line.italic or abs(line.size - list_size) > _SIZE_TOLERANCE
    if not (styled or i == 0 or _more_space_above(lines, i) or _heads_a_column_after_an_entry(lines, i)):
        return False
    # the next lines' shapes last: they run the entry-shape patterns, the costliest test here
    following = lines[i + 1].text
    if (
        _LIST_MARK.match(following)
        or _QUOTED_TITLE.match(following)
        or _entry_shape_at(lines, i + 1, dated=False)
    ):
        return True
    # An entry whose opening has no shape of its own ("Stephen H. Kellert, In the Wake of Chaos:"): the line
    # stands between two entries (first under the list's heading, or after a line that ended one; not a
    # title's line in italics after "Policing Rio de Janeiro:"), and the entry after that one opens within
    # a few lines, after a line that ended one.
    if i > 0 and not ENDS_ENTRY.search(lines[i - 1].text):
        return False
    return following[:1].isupper() and any(
        ENDS_ENTRY.search(lines[j - 1].text) and _entry_shape_at(lines, j, dated=False)
        for j in range(i + 2, min(i + 2 + _PART_LOOKAHEAD, len(lines)))
    )


def _at_an_indent_under(above: Line, line: Line) -> bool:
    """`line` starts right of the line above it in the same column by an indent (a point to three ems), not
    by a centring: it goes on with the entry above it."""
    same_column = (above.page, above.column) == (line.page, line.column)
    return same_column and above.x0 + 1 < line.x0 <= above.x0 + 3 * line.size


def _at_the_wrapped_lines_indent(lines: Sequence[Line], i: int, reach: int = 40) -> bool:
    """Line `i` starts at an indent (a point to three ems) right of where the lines around it in its
    column start furthest left: where a list set with hanging indents wraps its entries (a container
    title in italics, a publisher's place at the head of the next column), not where a part heading of
    the list stands. `reach` lines each way are read."""
    line = lines[i]
    around = lines[max(0, i - reach) : i + reach + 1]
    margin = min(other.x0 for other in around if (other.page, other.column) == (line.page, line.column))
    return margin + 1 < line.x0 <= margin + 3 * line.size


def _heads_a_column_after_an_entry(lines: Sequence[Line], i: int) -> bool:
    """Line `i` opens a page or column after a line that ended an entry: the space above a part heading
    there cannot be seen."""
    if i == 0:
        return False
    previous, line = lines[i - 1], lines[i]
    return (previous.page, previous.column) != (line.page, line.column) and bool(
        ENDS_ENTRY.search(previous.text)
    )


def _short_of_the_margin(lines: Sequence[Line], i: int) -> bool:
    """Line `i` ends before the last quarter of its column, as measured on the lines around it in that
    column, on its page or the next (a part heading at the foot of a page, its entries overleaf). Alone in
    its column (at the foot of a column, its entries at the head of the next), it is shorter than three
    quarters of the widest line around it."""
    line = lines[i]
    around = lines[max(i - 5, 0) : i + 6]
    in_column = [other for other in around if other.column == line.column]
    if len(in_column) > 1:
        left, right = min(other.x0 for other in in_column), max(other.x1 for other in in_column)
        return line.x1 < right - 0.25 * (right - left)
    return line.x1 - line.x0 < 0.75 * max(other.x1 - other.x0 for other in around)


def _more_space_above(lines: Sequence[Line], i: int) -> bool:
    """Line `i` has more space above it than below it, by a quarter of its height (both in one column)."""
    above, line, below = lines[i - 1], lines[i], lines[i + 1]
    if not (above.page == line.page == below.page and above.column == line.column == below.column):
        return False
    return line.y0 - above.y1 > below.y0 - line.y1 + 0.25 * line.height


def _without_part_headings(lines: Sequence[Line], heading_size: float | None = None) -> list[Line]:
    size = body_font_size(lines)
    kept = [line for i, line in enumerate(lines) if not _part_heading(lines, i, size, heading_size)]
    return _without_footnotes(kept, size)


def _without_footnotes(lines: Sequence[Line], list_size: float) -> list[Line]:
    """The list without the footnotes of the body text that end its page's columns: a line that opens with a
    raised number, set smaller than the list, with only smaller lines under it in its column (the
    references start on a page whose body text has a footnote, and its column ends with it)."""
    dropped: set[int] = set()
    for i, line in enumerate(lines):
        if not line.marker or line.size > list_size - _SIZE_TOLERANCE:
            continue
        below = [
            j
            for j in range(i + 1, len(lines))
            if lines[j].page == line.page and lines[j].column == line.column and lines[j].y0 > line.y0
        ]
        if all(lines[j].size <= list_size - _SIZE_TOLERANCE for j in below):
            dropped.update([i, *below])
    return [line for i, line in enumerate(lines) if i not in dropped]


def _size_changes(lines: Sequence[Line], list_size: float) -> bool:
    """Three lines in a row in another size than the list: the list is over (a colophon, a series list)."""
    return len(lines) == 3 and all(abs(line.size - list_size) > 0.8 for line in lines)


def find_reference_section(lines: Sequence[Line]) -> Section:
    """The reference list among a document's lines (in reading order)."""
    body_size = body_font_size(lines)
    headings = [i for i, line in enumerate(lines) if _is_heading(line, body_size)]
    # The last heading wins: a table of contents or a sentence may name "References" earlier. A heading that
    # also captions tables ("Sources") comes after every other.
    strong = [i for i in headings if not _WEAK_HEADING.match(_SPACED_SMALL_CAPS.sub("", lines[i].text))]
    extents = {start: _section_end(lines, start, body_size) for start in headings}
    ends = {start: extent.end for start, extent in extents.items()}
    floats = frozenset().union(*(extent.floats for extent in extents.values()))
    for start in [*reversed(strong), *reversed([i for i in headings if i not in strong])]:
        if ends[start] > start + 1:
            listed = _joined_sections(lines, start, ends, strong, floats)
            return Section(_without_part_headings(listed, lines[start].size), f"heading: {lines[start].text}")
    numbered = _numbered_run(lines)
    if numbered is not None:
        return Section(_without_part_headings(lines[numbered[0] : numbered[1]]), "numbered list")
    run = _entry_run(lines)
    if run is not None:
        start, end, shape = run
        return Section(_without_part_headings(lines[start:end]), f"entry-like lines ({shape})")
    return Section([], "none")


@dataclass(frozen=True)
class _Extent:
    """Where a list under a heading ends, and the lines of floats it runs on past (indices into the lines)."""

    end: int
    floats: frozenset[int]


def _section_end(lines: Sequence[Line], start: int, body_size: float) -> _Extent:
    """Where the list under the heading at `start` ends, past the floats set among its entries."""
    heading = lines[start]
    rest = lines[start + 1 :]
    # The list's type size, read from the lines up to the next heading that ends it (at most 40): a short
    # list followed by an appendix in body text would otherwise take the appendix's size, and its own lines
    # would then read as a change of size that ends it.
    ahead = rest[:40]
    upto = next(
        (
            i
            for i, line in enumerate(ahead)
            if _ends_section(line, heading, body_size, ahead[i - 1] if i else heading)
            and not _part_heading(ahead, i, body_size, heading.size)
        ),
        len(ahead),
    )
    list_size = body_font_size(ahead[: max(upto, 1)]) if rest else body_size
    floats: set[int] = set()
    end = 0
    while (end := _list_end(rest, end, heading, list_size)) < len(rest):
        figure = _float_at(rest, end, list_size)
        if figure is None:
            break
        floats.update(start + 1 + i for i in figure)
        end = figure.stop
    return _Extent(start + 1 + end, frozenset(floats))


def _list_end(rest: Sequence[Line], since: int, heading: Line, list_size: float) -> int:
    """The first line from `since` on that ends the list under `heading` (`len(rest)` for none)."""
    return next(
        (
            i
            for i in range(since, len(rest))
            if (
                _ends_section(rest[i], heading, list_size, rest[i - 1] if i else heading)
                and not _part_heading(rest, i, list_size, heading.size)
            )
            or _size_changes(rest[i : i + 3], list_size)
        ),
        len(rest),
    )


def _float_at(rest: Sequence[Line], i: int, list_size: float) -> range | None:
    """The lines of a figure or table that LaTeX set among a list's entries (at a page's head, or on a page of
    floats of its own), when line `i`, which would end the list, opens one: the float's text and captions,
    then the list going on in its type size after a caption's paragraph.

    A float is told by its caption ("Figure 6: …", "Table 2.") and by the list resuming at its edge after
    it; a heading, an appendix or back matter before that ends the list there. The float's first lines on
    its page may not have ended the list (a running head, labels in the list's size): the lines before it on
    that page away from the list's left edges (read on the pages before) go with it."""
    if i == 0 or _float_stops(rest[i]):
        return None  # no line of the list before it shows where the list stands
    before = [line for line in rest[:i] if line.page < rest[i].page][-_EDGE_LINES:] or rest[
        max(0, i - _EDGE_LINES) : i
    ]
    edges = {round(line.x0) for line in before}
    first = i
    while first > 0 and rest[first - 1].page == rest[i].page and not _at_an_edge(rest[first - 1], edges):
        first -= 1
    captioned = False
    for k in range(i, min(len(rest), i + _MAX_FLOAT_LINES)):
        line = rest[k]
        if line.page > rest[i].page + _MAX_FLOAT_PAGES or (k > i and _float_stops(line)):
            return None
        if _CAPTION.match(line.text):
            captioned = True
        elif captioned and _list_resumes(rest, k, list_size, edges):
            return range(first, k)
    return None


def _float_stops(line: Line) -> bool:
    """A line that no float holds and that ends a list: a heading, an appendix's, back matter."""
    words = _SPACED_SMALL_CAPS.sub("", line.text)
    return bool(_HEADING.match(words) or _APPENDIX.match(words) or _BACK_MATTER.match(line.text))


def _at_an_edge(line: Line, edges: set[int]) -> bool:
    return any(abs(line.x0 - edge) <= _EDGE_TOLERANCE for edge in edges)


def _list_resumes(rest: Sequence[Line], k: int, list_size: float, edges: set[int]) -> bool:
    """Whether the list goes on at line `k` after a float: a line in the list's size at one of its edges, set
    apart from the line before it (a caption's paragraph runs on at the leading of its lines), with entries
    opening at and after it: in a reference's shape, or after a number or bullet (a numbered style's year
    stands at the entry's end)."""
    line, before = rest[k], rest[k - 1]
    apart = line.page != before.page or line.y0 - before.y1 > 0.5 * before.height
    if not apart or abs(line.size - list_size) > _SIZE_TOLERANCE:
        return False
    # Labels set flush right stand further left as they grow ("[10]" under "[9]").
    label_room = bool(_LIST_MARK.match(line.text)) and min(edges) - _LABEL_ROOM <= line.x0 <= max(edges)
    if not label_room and not _at_an_edge(line, edges):
        return False
    window = range(k, min(len(rest), k + _RESUMED_WINDOW))
    opening = [
        j
        for j in window
        if abs(rest[j].size - list_size) <= _SIZE_TOLERANCE
        and (_LIST_MARK.match(rest[j].text) or _entry_shape_at(rest, j))
    ]
    return len(opening) >= 2 or (len(opening) == 1 and k + _RESUMED_WINDOW >= len(rest))


def _joined_sections(
    lines: Sequence[Line], start: int, ends: dict[int, int], strong: Sequence[int], floats: frozenset[int]
) -> list[Line]:
    """The list under the heading at `start`, joined with lists under reference headings that run on from it
    or into it without a line between: one list in two parts, such as a part per language or per kind of
    source ("Literatur" then "Internetquellen"). Headings that also caption tables do not join."""
    first, last = start, ends[start]
    while (
        before := next((h for h in strong if ends[h] == first and _list_like(lines, h, ends[h])), None)
    ) is not None:
        first = before
    while last in strong and ends[last] > last + 1 and _list_like(lines, last, ends[last]):
        last = ends[last]
    return [
        line for i, line in enumerate(lines[first:last], start=first) if i not in ends and i not in floats
    ]


def _list_like(lines: Sequence[Line], start: int, end: int) -> bool:
    """Whether the lines after the heading at `start` read as a list: one in six or more opens an entry
    (a table of contents' "References" runs on into body text, whose lines open none)."""
    if end <= start + 1:
        return False
    opening = sum(1 for i in range(start + 1, end) if _entry_shape_at(lines, i) is not None)
    return opening >= _LIST_SHARE * (end - start - 1)


def _entry_shape_at(lines: Sequence[Line], i: int, dated: bool = True) -> str | None:
    """The shape line `i` opens an entry with, or None: a reference's shape, a year near its start (a dash
    run needs none; nor does any shape when not `dated`), and a line before it that did not break off
    mid-phrase."""
    unmarked = _LIST_MARK.sub("", lines[i].text, count=1)
    shape: str | None = opening_shape(lines[i].text) or opening_shape(unmarked)
    if shape is None and opens_given_names_first(unmarked):
        shape = "given-names-first"
    if shape is None or (i > 0 and MID_PHRASE.search(lines[i - 1].text)):
        return None
    if shape == "dashes" or not dated:
        return shape
    return shape if has_early_year(entry_opening(lines, i)) else None


def _entry_run(lines: Sequence[Line]) -> tuple[int, int, str] | None:
    """Start, end and shape of the longest run of entry-like blocks (the later one of equal runs).

    Consecutive entries open like references (lists mix "Smith, J." and "Smith J."; an organisation or a dash
    run may stand anywhere), at most `_MAX_LINES_PER_ENTRY` lines apart, with no heading and no three lines
    in another type size between them; body text and footnotes rarely chain `_MIN_RUN_ENTRIES` such blocks.
    """
    shapes = [_entry_shape_at(lines, i) for i in range(len(lines))]
    best: tuple[int, int, str] | None = None
    best_count = 0
    i = 0
    while i < len(lines):
        shape = shapes[i]
        if shape is None or shape in _JOKER_SHAPES:
            i += 1
            continue
        starts = [i]
        other_size = 0  # lines in a row in another type size: a stray page number passes, a page of body not
        j = i + 1
        while j < len(lines) and j - starts[-1] <= _MAX_LINES_PER_ENTRY:
            line = lines[j]
            if _heading_like(line, lines[i]) and not _part_heading(lines, j, lines[i].size):
                break
            other_size = other_size + 1 if abs(line.size - lines[i].size) > _SIZE_TOLERANCE else 0
            if other_size >= 3:
                break
            if shapes[j] is not None:
                starts.append(j)
            j += 1
        if len(starts) >= max(_MIN_RUN_ENTRIES, best_count):
            best, best_count = (i, _run_end(lines, starts[-1], lines[i].size), shape), len(starts)
        i = starts[-1] + 1
    return best


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
            j, since = i + 1, len(lines[i].text)
            while j < len(lines) and since <= _MAX_ENTRY_CHARS:  # no next number after that: the list ended
                if numbers[j] == len(starts) + 1:
                    starts.append(j)
                    since = 0
                since += len(lines[j].text)
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


def _heading_like(line: Line, list_line: Line) -> bool:
    """A short line of words without a year, bold or set larger than the list (not a stray page number): a
    heading, which ends a run of entries."""
    stands_out = (line.bold and not list_line.bold) or line.size > list_line.size + 1.0
    words = line.text.split()
    return (
        stands_out
        and len(words) <= _MAX_HEADING_WORDS
        and any(char.isalpha() for char in line.text)
        and year_of(line.text) is None
    )


def _run_end(lines: Sequence[Line], last: int, size: float) -> int:
    """The end of a run's last entry: its continuation lines in the list's type size (on the next page too),
    up to a vertical gap, a bold line or another entry's start; a long entry's text at most."""
    end, since = last + 1, len(lines[last].text)
    while end < len(lines) and since <= _MAX_ENTRY_CHARS:
        previous, line = lines[end - 1], lines[end]
        gap = line.page == previous.page and line.y0 - previous.y1 > 1.5 * previous.height
        if gap or line.bold or abs(line.size - size) > _SIZE_TOLERANCE or _entry_shape_at(lines, end):
            break
        since += len(line.text)
        end += 1
    return end


def _number(pattern: re.Pattern[str], line: Line) -> int | None:
    match = pattern.match(line.text)
    return int(match.group(1)) if match else None


def _last_entry_end(lines: Sequence[Line], start: int) -> int:
    """The end of the last numbered entry: its continuation lines, up to a gap or a change of page; a long
    entry's text at most."""
    end, since = start, len(lines[start - 1].text)
    while end < len(lines) and since <= _MAX_ENTRY_CHARS:
        previous, line = lines[end - 1], lines[end]
        if line.page != previous.page or line.y0 - previous.y1 > 1.5 * previous.height:
            break
        since += len(line.text)
        end += 1
    return end
