"""Reference-list lines → one entry per reference.

Cues, tried in order of reliability:

1. **Numbering** — [1], 1., (1), a bare or superscript 1: a line opens an entry when it carries the next
   number of the sequence, so a year or a volume at the start of a wrapped line never splits an entry.
   Bullets (•, –, *) open entries the same way, and so do the labels LaTeX prints before the entries of a
   style that gives each one ("[AAN+21]", "[Cohen et al., 2019]").
2. **Indentation** — hanging indents (first line at the column's margin, the rest indented) or first-line
   indents, measured per page and column so entries that continue in the next column or page stay whole.
3. **Gaps** — vertical gaps between entries larger than the line spacing.
4. **Line ends** — where a list shows neither: an entry opens after a line that ended one early, where
   the next line's first word would have fitted, and where the shape (5) opens one.
5. **Shape** — the shapes this list's entries open with (`entry_shape`: "SURNAME, Given", "Surname, I.",
   "Surname I.", "I. Surname", "Organisation (year)", a dash run for the previous entry's authors), learned
   from its lines that open like an entry and carry a year near their start.

Indentation and gaps are signs of the layout, so they win, unless the entries they give are clearly fewer
plausible ones (one reference each: a year, a list shape at the start, no other entry's start inside) than
the shape gives: a list set flush left with a stray indented line is then not read as one or two entries.
A layout cue whose every entry reads as one reference on its own text (a year, no other entry's start
inside, in any shape) stands without that comparison: in a short list whose entries open in mixed shapes,
the shape split merges the entries of other shapes and opens false ones at wrapped lines that look like a
name ("Washington, DC:"), and the comparison, counting only the list's shapes, would prefer it.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from refhound.agents.extractor.entry_shape import (
    CONJUNCTION_START,
    has_early_year,
    has_year,
    opening_shape,
    opens_given_names_first,
)
from refhound.pdf.layout import Line
from refhound.refstring import CITATION_LABEL
from refhound.refstring.authors import NO_CHARACTER

LIST_MARKERS: dict[str, re.Pattern[str]] = {
    "bracket": re.compile(r"^\[(\d{1,4})\]\s*"),
    "dot": re.compile(r"^(\d{1,4})[.)]\s+(?=\S)"),
    "paren": re.compile(r"^\((\d{1,4})\)\s*"),
    "bare": re.compile(r"^(\d{1,4})\s+(?=[^\d\s])"),
}
_DAMAGED_BRACKET = re.compile(r"^\[?(\d{1,4})\]?\s+(?=\S)")  # "[7]" read by OCR as "7" or "7]"
_UNDATED_LABEL = re.compile(r"^\s*\[[^\W\d_][^\W\d_+]{0,7}\+?\]\s")  # "[RRVeS+] ", "[Knu] "
# A bullet; one set in a symbol font has no character of its own, often with no space after it.
_BULLET = re.compile(rf"^(?:[•▪■●◦‣∙·\-–—*]\s+|[{NO_CHARACTER}]\s*)(?=\S)")
_AUTHOR_START = re.compile(
    r"^(?:[A-ZÀ-ÖØ-Þ][\w'’\-]+(?:\s+(?:van|von|de|der|da|di|du|la|le)\s+[\w'’\-]+)*,\s*(?:[A-ZÀ-ÖØ-Þ][\w\-]*\.?|\()"
    r"|[A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ'’\-]{2,}\b"
    r"|(?:van|von|de|der|da|di|du|la|le)\s+[A-Z]\w+,"
    r"|[A-ZÀ-ÖØ-Þ]\.\s*(?:[A-ZÀ-ÖØ-Þ]\.\s*)*[A-ZÀ-ÖØ-Þ][\w'’\-]+)"
)
_EARLY_YEAR = re.compile(r"(?<!\d)(?:1[89]|20)\d\d[a-z]?(?:\)|[.:,]\s)")
# A line ending an entry: a full stop (not after an initial, "ELIZABETH C.", where an author list wraps), a
# bracket, a number, an identifier or a link; marks a list sets after an entry's full stop ("2013. *†": a
# study in the meta-analysis, a note) do not hide its end.
ENDS_ENTRY = re.compile(r"(?:(?<!\b[A-ZÀ-ÖØ-Þ])\.|[)\]]|\d)(?:\s*[*†‡§¶]+)?\s*$|(?i:doi|arxiv|https?)\S*$")
# Where a break hides a list's gap, the next entry is taken to open only with a capital (after a dash, an
# opening quote or a bracket at most): a link or a number ending the line before may run on overleaf
# ("…/us-centralamerica" / "-childmarriage-…", "5 June" / "2015. Available at …").
_OPENS_CAPITALISED = re.compile(r"^\s*[—–\"“‘'(\[]?[A-ZÀ-ÖØ-Þ]")
# A line breaking off mid-phrase: after a comma or a hyphen, a conjunction, a preposition or an article in
# lower case ("Journal of" / "Speech, Language and Hearing Research"), or an author's lone initial
# ("G. D. Borasio, A." / "Teichmann, A. Paz"): the next line goes on, whatever shape it opens with.
MID_PHRASE = re.compile(
    r"(?:[,;:&\-–]|\b(?i:and|und|et|in)|\b(?:of|the|for|to|on|with|from|by|at|a|an|de|des|du|la|le|der|die|das"
    r"|von|van|zur|zum|für)|(?<![\w.])[A-ZÀ-ÖØ-Þ]\.)\s*$"
)
_MIN_SEQUENCE = 3
_MAX_ENTRY_LINES = 12
# A layout cue (indents, gaps) stands while it gives at least this share of the shape's plausible entries.
_LAYOUT_CUE_SHARE = 0.8


@dataclass
class Entry:
    """One reference: its lines and, when numbered, the number it carries."""

    lines: list[Line] = field(default_factory=list)
    number: int | None = None

    @property
    def page(self) -> int:
        return self.lines[0].page


# A web address broken inside its host name, after a dot ("http://www.kdd." then "org/News/view/…",
# "https://doi." then "org/10.1145/…"): the next line opens with the host's rest and a path or the end.
_HOST_CUT = re.compile(r"(?:https?://|www\.)[^\s/]*\.")
_HOST_GOES_ON = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*(?:/|[.,;]?(?:\s|$))")


def _web_address_goes_on(out: str, last_word: str, text: str) -> bool:
    """Whether a URL or DOI broken at the line's end goes on in `text`: after "/" or "_", or inside its host
    name after a dot ("http://www.kdd." + "org/News")."""
    if out.endswith(("/", "_")):
        return "/" in last_word or "." in last_word
    return _HOST_CUT.fullmatch(last_word) is not None and _HOST_GOES_ON.match(text) is not None


def join_lines(texts: Sequence[str]) -> str:
    """Lines joined with single spaces, words broken at a line-end hyphen made whole again.

    A line that ends in a hyphen joins the next without a space. The hyphen itself is dropped only when
    the next line goes on in lower case and the word is not already a compound or a URL ("resid-" + "ual"
    → "residual"); "state-of-the-" + "art" and "Jean-" + "Pierre" keep it. A URL or DOI broken after "/",
    or inside its host name after a dot, joins without a space too.
    """
    out = ""
    for text in texts:
        if not out:
            out = text
            continue
        last_word = out.rsplit(" ", 1)[-1]
        if out.endswith("-"):
            broken_word = (
                text[:1].islower()
                and "-" not in last_word[:-1]
                and "/" not in last_word
                and len(last_word) > 2
            )
            out = (out[:-1] if broken_word else out) + text
        elif _web_address_goes_on(out, last_word, text):
            out += text
        else:
            out += " " + text
    return out


def _marker_number(line: Line, style: str) -> int | None:
    if style == "superscript":
        return int(line.marker) if line.marker else None
    match = LIST_MARKERS[style].match(line.text)
    return int(match.group(1)) if match else None


def _longest_sequence(numbers: Sequence[int | None]) -> int:
    """How many entries an ascending numbering 1, 2, 3, … (or n, n+1, …) covers, in line order."""
    best = 0
    expected: int | None = None
    count = 0
    for number in numbers:
        if number is None:
            continue
        if expected is not None and number == expected:
            count += 1
            expected += 1
        elif number == 1 or expected is None:
            count, expected = 1, number + 1
        best = max(best, count)
    return best


def _numbering_style(lines: Sequence[Line]) -> str | None:
    """The numbering the list's first line carries and most of the list follows (affiliation superscripts in
    an author list after the references never win over the list's own [1], [2], …)."""
    counts = {
        style: _longest_sequence([_marker_number(line, style) for line in lines])
        for style in (*LIST_MARKERS, "superscript")
        if _marker_number(lines[0], style) is not None
    }
    if not counts:
        return None
    style, count = max(counts.items(), key=lambda item: item[1])
    # [1] / 1. / (1) on the first line and a [2] after it suffice; bare and raised numbers need a third.
    return style if count >= (2 if style in ("bracket", "dot", "paren") else _MIN_SEQUENCE) else None


def _split_numbered(lines: Sequence[Line], style: str) -> list[Entry]:
    entries: list[Entry] = []
    expected: int | None = None
    closed = False  # the current entry is complete and something else (a footnote, a heading) came after it
    numbers = [_marker_number(line, style) for line in lines]
    for i, (line, number) in enumerate(zip(lines, numbers, strict=True)):
        # A number one past the expected one opens an entry (the expected one's marker was lost) unless the
        # expected one follows within an entry's length: then it is a wrapped line's first word ("volume" /
        # "45. American Mathematical Society" before "44.").
        opens = number is not None and (
            expected is None
            or number == expected
            or (number == expected + 1 and expected not in numbers[i + 1 : i + 1 + _MAX_ENTRY_LINES])
        )
        damaged = None
        if number is None and style == "bracket" and expected is not None:
            damaged = _damaged_label(line, expected, numbers[i + 1 : i + 1 + _MAX_ENTRY_LINES])
            if damaged is not None:
                opens, number = True, expected
        if opens and number is not None:
            if damaged is not None:
                text = damaged
            elif style == "superscript":
                text = line.text
            else:
                text = LIST_MARKERS[style].sub("", line.text, count=1)
            entries.append(Entry([replace(line, text=text)], number))
            expected, closed = number + 1, False
        elif not entries or closed:
            continue
        elif abs(line.size - entries[-1].lines[0].size) <= 0.8:
            entries[-1].lines.append(line)
        else:  # another type size: a footnote or a heading, never part of the entry
            closed = bool(ENDS_ENTRY.search(entries[-1].lines[-1].text))
    if entries:
        entries[-1].lines = _trim_last(entries[-1].lines)
    return entries


def _damaged_label(line: Line, expected: int, ahead: Sequence[int | None]) -> str | None:
    """The text after a bracket label that lost a bracket ("7 C. Gaetan", "10] J. Møller", as OCR reads
    "[7]" and "[10]"), when it is the label expected next, no whole label of that number follows within an
    entry's length, and the text opens as a reference does (a volume "7 (2): 45–67" opening a wrapped line
    does not); else None."""
    match = _DAMAGED_BRACKET.match(line.text)
    if match is None or int(match.group(1)) != expected or expected in ahead:
        return None
    rest = line.text[match.end() :]
    return rest if opening_shape(rest) or opens_given_names_first(rest) else None


def _trim_last(lines: list[Line]) -> list[Line]:
    """The last entry without what follows the list (an author list, a colophon): it ends at a vertical gap
    wider than two lines, and it spans at most as many lines as a long reference does."""
    kept = lines[:1]
    for line in lines[1:_MAX_ENTRY_LINES]:
        previous = kept[-1]
        same_column = line.page == previous.page and line.column == previous.column
        if same_column and line.y0 - previous.y1 > 2 * previous.height:
            break
        kept.append(line)
    return kept


def _group_key(line: Line) -> tuple[int, int]:
    return (line.page, line.column)


def _margins(lines: Sequence[Line]) -> tuple[dict[tuple[int, int], float], set[tuple[int, int]]]:
    """The left margin of every page column (where its leftmost line starts), and the columns whose margin
    is unknown. A column whose lines all start at one x takes the margin of the same column on the page
    before or after where that page has lines at that x (a list's first entries at the foot of a page, or
    its last ones at the head, each on one line, stand at that page's indent or margin); with no such page,
    its lines may stand at the margin or at the indent (an entry's last lines alone at the head of a
    column), and the margin is unknown."""
    groups: dict[tuple[int, int], list[float]] = defaultdict(list)
    for line in lines:
        groups[_group_key(line)].append(line.x0)
    margins = {key: min(xs) for key, xs in groups.items()}
    unknown: set[tuple[int, int]] = set()
    for (page, column), xs in groups.items():
        if max(xs) - min(xs) > 1:
            continue
        for neighbour in ((page - 1, column), (page + 1, column)):
            other = groups.get(neighbour, [])
            if any(abs(x - xs[0]) <= 1 for x in other):
                margins[(page, column)] = min(other)
                break
        else:
            unknown.add((page, column))
    return margins, unknown


def _indent_opener(lines: Sequence[Line]) -> Callable[[Line, Line | None], bool] | None:
    """A rule telling entry openings by indentation, for lists set with hanging or first-line indents."""
    margins, unknown = _margins(lines)
    step = max(2.0, statistics.median(line.size for line in lines) * 0.4)

    def indented(line: Line) -> bool:
        return line.x0 - margins[_group_key(line)] > step

    share = sum(map(indented, lines)) / len(lines)
    if not 0.08 <= share <= 0.92:
        return None
    if _hanging(lines, indented):  # hanging indents: an entry opens at the margin ...

        def opens_at_margin(line: Line, previous: Line | None) -> bool:
            if _group_key(line) in unknown:
                return _shape_opener(line, previous)
            # ... unless the line before broke off mid-sentence and this one does not open like a reference.
            broke_off = previous is not None and not ENDS_ENTRY.search(previous.text)
            return not indented(line) and not (broke_off and not _opens_like_reference(line.text))

        return opens_at_margin

    # First-line indents: an entry opens indented; a column's first line is a continuation unless indented.
    # Where a column's margin is unknown, its indentation says nothing: an entry opens as one does, after a
    # line that ended one.
    return lambda line, previous: (
        _shape_opener(line, previous) if _group_key(line) in unknown else indented(line)
    )


def _hanging(lines: Sequence[Line], indented: Callable[[Line], bool]) -> bool:
    """Whether a list is set with hanging indents rather than first-line ones, read from where the line after
    an entry's last line starts: a last line ends as an entry does and short of its column (by a fifth of
    its width), and the next entry, opening as one does, starts at the margin under hanging indents,
    indented under first-line ones (a date before an entry's URL is no last line: a URL opens no entry).
    With no such line, or as many of each, the first line tells."""
    extent: dict[tuple[int, int], tuple[float, float]] = {}
    for line in lines:
        left, right = extent.get(_group_key(line), (line.x0, line.x1))
        extent[_group_key(line)] = (min(left, line.x0), max(right, line.x1))

    def last_line(line: Line) -> bool:
        left, right = extent[_group_key(line)]
        return line.x1 < right - 0.2 * (right - left) and bool(ENDS_ENTRY.search(line.text))

    votes = Counter(
        indented(line)
        for previous, line in pairwise(lines)
        if _group_key(previous) == _group_key(line) and last_line(previous) and opening_shape(line.text)
    )
    if votes[True] != votes[False]:
        return votes[False] > votes[True]
    return not indented(lines[0])


def _gap_opener(lines: Sequence[Line]) -> Callable[[Line, Line | None], bool] | None:
    """A rule opening an entry after a vertical gap clearly larger than the usual line spacing."""
    gaps = [
        line.y0 - previous.y1
        for previous, line in pairwise(lines)
        if _group_key(previous) == _group_key(line) and line.y0 > previous.y0
    ]
    if len(gaps) < 3:
        return None
    # The usual spacing is that of lines inside an entry: the median of the narrower of the two groups the
    # gaps fall into, not of all gaps, which is the gap between entries when most entries take one line (a
    # one-column list set with gaps); nor a low quantile, which OCR's ragged line boxes pull down. Gaps are a
    # cue when at least two are wide and a tenth narrow: a couple of ragged gaps under evenly spaced lines
    # make a narrower group of their own, and would otherwise make every line an entry.
    usual = statistics.median(_narrower_group(gaps))
    size = statistics.median(line.size for line in lines)
    threshold = usual + max(1.5, 0.35 * size)
    wide = sum(gap > threshold for gap in gaps)
    if wide < 2 or len(gaps) - wide < max(2, 0.1 * len(gaps)):
        return None

    def after_gap(previous: Line, line: Line) -> bool:
        return _group_key(previous) == _group_key(line) and line.y0 - previous.y1 > threshold

    # A column or page break hides the gap. There an entry opens where the line before the break ends one,
    # the line after it opens with a capital, and the lines before the break, from the last gap, and those
    # after it, up to the next gap, each read as one whole reference: an opening the author shapes do not
    # know ("Andras Vasy. Microlocal …", a title first) then still starts its entry.
    blocks = [0, *(i for i in range(1, len(lines)) if after_gap(lines[i - 1], lines[i])), len(lines)]
    whole_at_break = {
        id(lines[i])
        for start, end in pairwise(blocks)
        for i in range(start + 1, end)
        if _group_key(lines[i - 1]) != _group_key(lines[i])
        and ENDS_ENTRY.search(lines[i - 1].text)
        and _OPENS_CAPITALISED.match(lines[i].text)
        and _reads_as_one_reference(lines[start:i])
        and _reads_as_one_reference(lines[i:end])
    }

    def opens(line: Line, previous: Line | None) -> bool:
        if previous is None or _group_key(previous) != _group_key(line):
            return _shape_opener(line, previous) or id(line) in whole_at_break
        return after_gap(previous, line)

    return opens


def _line_end_opener(
    lines: Sequence[Line], shape_opener: Callable[[Line, Line | None], bool]
) -> Callable[[Line, Line | None], bool] | None:
    """A rule opening an entry after a line that ended an entry early, and where the shape rule opens one:
    after a line whose end cannot tell, and across a column or page break.

    A line ends early when the next line's first word would have fitted on it: it was broken by a
    paragraph's end, not by the column's edge. That tells entries apart where a list has no marker, indent
    or space between them, set justified or ragged, and whatever shapes they open with. A line that reaches
    the edge, or leaves too little room for the next word, tells nothing either way.

    A column's edge is the 80th percentile of where its lines end: low in a ragged column, which only makes
    the rule stricter, and never pushed out by a link printed past the edge. A word's width is its length
    times the list's narrow advance per character (the 20th percentile over its lines of ten characters or
    more), so justified lines, their spaces stretched, do not make words look wider than they are."""
    ends: dict[tuple[int, int], list[float]] = defaultdict(list)
    for line in lines:
        ends[_group_key(line)].append(line.x1)
    edges = {key: statistics.quantiles(xs, n=5)[-1] for key, xs in ends.items() if len(xs) >= _MIN_SEQUENCE}
    advances = [
        (line.x1 - line.x0) / len(line.text.strip()) for line in lines if len(line.text.strip()) >= 10
    ]
    if len(advances) < _MIN_SEQUENCE:
        return None
    advance = statistics.quantiles(advances, n=5)[0]

    def ended_early(previous: Line, line: Line) -> bool:
        key = _group_key(previous)
        if key != _group_key(line) or key not in edges or not ENDS_ENTRY.search(previous.text):
            return False
        word = len(line.text.split(maxsplit=1)[0]) + 1  # with the space before it
        return edges[key] - previous.x1 > word * advance + 0.2 * line.size

    if sum(ended_early(previous, line) for previous, line in pairwise(lines)) < 2:
        return None
    return lambda line, previous: (
        (previous is not None and ended_early(previous, line)) or shape_opener(line, previous)
    )


def _narrower_group(values: Sequence[float]) -> list[float]:
    """The lower of the two groups that split `values` best (Otsu's threshold: the cut between sorted values
    that maximises the variance between the groups' means). When the upper group is one or two values (the
    space of a part heading left out of a list, a figure), the split is made again below them: alone, they
    would leave the gaps inside entries and those between them in one group."""
    low = _otsu_lower(sorted(values))
    if len(values) - len(low) <= 2 and len(low) >= 3:
        return _otsu_lower(low)
    return low


def _otsu_lower(ordered: list[float]) -> list[float]:
    total, n = sum(ordered), len(ordered)
    best, cut, below = -1.0, 1, 0.0
    for i in range(1, n):
        below += ordered[i - 1]
        mean_low, mean_high = below / i, (total - below) / (n - i)
        between = i * (n - i) * (mean_low - mean_high) ** 2
        if between > best:
            best, cut = between, i
    return ordered[:cut]


def _opens_with_authors(text: str) -> bool:
    """An author list's opening: in any entry shape (`opening_shape`: "Smith, J.", "Replogle K, Reader A",
    the dash run standing for the previous entry's), a surname in capitals ("SMITH"), or two names given
    name first ("Trevor Hastie, Robert Tibshirani, and …"); never a conjunction in capitals."""
    if CONJUNCTION_START.match(text):
        return False  # an author list in capitals goes on: "AND R. A. MEYER. (1991) …"
    return bool(_AUTHOR_START.match(text)) or opening_shape(text) is not None or opens_given_names_first(text)


def _opens_like_reference(text: str) -> bool:
    """An author list's opening, or a year of publication within the first words."""
    return _opens_with_authors(text) or bool(_EARLY_YEAR.search(text[:80]))


def _shape_opener(line: Line, previous: Line | None) -> bool:
    return previous is not None and _opens_with_authors(line.text) and bool(ENDS_ENTRY.search(previous.text))


def split_entries(lines: Sequence[Line]) -> tuple[list[Entry], str]:
    """The entries of a reference list, and the cue that split them."""
    lines = [line for line in lines if line.text.strip()]
    if not lines:
        return [], "none"
    style = _numbering_style(lines)
    if style is not None:
        return _split_numbered(lines, style), f"numbered ({style})"
    # Entries that open with the label a style gives each `\bibitem` ("[AAN+21]", "[Cohen et al., 2019]"):
    # each label opens an entry, however many lines a long author list takes in a narrow column.
    labelled = [line for line in lines if CITATION_LABEL.match(line.text)]
    if CITATION_LABEL.match(lines[0].text) and len(labelled) >= _MIN_SEQUENCE:
        return _split_with(lines, _label_opener(labelled)), "labels"
    # A bulleted list opens with a bullet; dashes on later lines only may stand for repeated authors.
    if _BULLET.match(lines[0].text) and sum(1 for line in lines if _BULLET.match(line.text)) >= _MIN_SEQUENCE:
        return _split_bulleted(lines), "bullets"
    shapes = list_shapes(lines)
    shape_opener = _learned_shape_opener(lines, shapes)
    candidates: list[tuple[str, list[Entry]]] = []
    layout_cues = [("indentation", _indent_opener(lines)), ("gaps", _gap_opener(lines))]
    if not any(opener for _, opener in layout_cues):  # the weaker sign, where the layout shows no other
        layout_cues.append(("line ends", _line_end_opener(lines, shape_opener or _shape_opener)))
    for cue, opener in layout_cues:
        if opener is not None:
            candidates.append((cue, _split_with(lines, opener)))
    if shape_opener is not None:
        candidates.append(
            (f"entry shape ({', '.join(sorted(shapes - {'dashes'}))})", _split_with(lines, shape_opener))
        )
    else:
        candidates.append(("author pattern", _split_with(lines, _shape_opener)))
    if len(candidates) == 1 or shape_opener is None:
        return candidates[0][1], candidates[0][0]
    # A layout cue whose every piece reads as one reference on its own stands, whatever shapes its entries
    # open with: the shape split can only win it by merging entries of other shapes or opening one where
    # the layout says a line goes on (a place, "Washington, DC:", at the start of a wrapped line).
    for cue, entries in candidates[:-1]:
        if len(entries) > 1 and all(_reads_as_one_reference(entry.lines) for entry in entries):
            return entries, cue
    scores = [_plausible_entries(entries, shapes, shape_opener) for _, entries in candidates]
    best = max(scores)
    cue, entries = next(
        candidate
        for candidate, score in zip(candidates, scores, strict=True)
        if score >= _LAYOUT_CUE_SHARE * best
    )
    return entries, cue


def entry_opening(lines: Sequence[Line], start: int) -> str:
    """The text from line `start` up to the next line that opens like an entry after one that ended (at most
    four lines): what an entry opening at `start` says first."""
    texts = [lines[start].text]
    for line in lines[start + 1 : start + 4]:
        if opening_shape(line.text) and ENDS_ENTRY.search(texts[-1]):
            break
        texts.append(line.text)
    return join_lines(texts)


def list_shapes(lines: Sequence[Line]) -> set[str]:
    """The shapes the list's entries open with: those of lines that open like an entry and print a year
    near their start, when at least two lines (and a fifth of the commonest shape's) share them.

    The list's first dated line opens an entry for sure: when it has no shape ("Anant K. Agarwal, …"), the
    shapes of other lines are those of wrapped author lists, and the list has none."""
    counts: Counter[str] = Counter()
    first: str | None = None
    for i, line in enumerate(lines):
        if not has_early_year(entry_opening(lines, i)):
            continue
        shape = opening_shape(line.text)
        if first is None:
            first = shape or ""
        if shape and shape != "dashes":
            counts[shape] += 1
    if not first or first == "dashes":
        return set()
    top = counts.most_common(1)[0][1]
    shapes = {shape for shape, count in counts.items() if count >= max(2, 0.2 * top)}
    return shapes | {"dashes"} if shapes else set()


def _learned_shape_opener(
    lines: Sequence[Line], shapes: set[str]
) -> Callable[[Line, Line | None], bool] | None:
    """A rule opening an entry at a line in one of the list's shapes that prints its year near its start,
    unless the line before broke off mid-phrase (a comma, "and", a hyphen)."""
    if not shapes:
        return None
    position = {id(line): i for i, line in enumerate(lines)}

    def opens(line: Line, previous: Line | None) -> bool:
        shape = opening_shape(line.text)
        if shape not in shapes:
            return False
        if previous is not None and MID_PHRASE.search(previous.text):
            return False
        return shape == "dashes" or bool(has_early_year(entry_opening(lines, position[id(line)])))

    return opens


def _plausible_entries(
    entries: Sequence[Entry], shapes: set[str], opens: Callable[[Line, Line | None], bool]
) -> int:
    """How many entries read as one reference each: a list shape at the start, a year near it, at most
    `_MAX_ENTRY_LINES` lines, and no line inside that opens another entry, in the list's shapes or in any
    shape after a line that ended one (a split that merges an entry of another shape into the one before
    gains nothing by it)."""
    count = 0
    for entry in entries:
        first = entry.lines[0].text
        text = join_lines([line.text for line in entry.lines[:4]])
        if (
            len(entry.lines) <= _MAX_ENTRY_LINES
            and opening_shape(first) in shapes
            and has_early_year(text)
            and not any(opens(line, previous) for previous, line in pairwise(entry.lines))
            and not _holds_another_entry(entry.lines)
        ):
            count += 1
    return count


def _reads_as_one_reference(lines: Sequence[Line]) -> bool:
    """Whether an entry reads as one reference on its own text alone, in any shape: at most
    `_MAX_ENTRY_LINES` lines, a year, and no line inside that opens another entry after a line that ended
    one. Nothing outside the entry is read: a line inside it opens no entry because of the lines after it."""
    return (
        len(lines) <= _MAX_ENTRY_LINES
        and has_year(join_lines([line.text for line in lines]))
        and not _holds_another_entry(lines)
    )


def _holds_another_entry(lines: Sequence[Line]) -> bool:
    """Whether a line after the first opens like an entry (a shape, a year near its start) after a line
    that ended one."""
    return any(
        ENDS_ENTRY.search(lines[i - 1].text)
        and opening_shape(lines[i].text) is not None
        and has_early_year(join_lines([line.text for line in lines[i : i + 4]]))
        for i in range(1, len(lines))
    )


def _split_bulleted(lines: Sequence[Line]) -> list[Entry]:
    entries: list[Entry] = []
    for line in lines:
        if _BULLET.match(line.text):
            entries.append(Entry([replace(line, text=_BULLET.sub("", line.text, count=1))]))
        elif entries:
            entries[-1].lines.append(line)
    return entries


def _label_opener(labelled: Sequence[Line]) -> Callable[[Line, Line | None], bool]:
    """Each label opens an entry; so does an alpha label without a year (BibTeX's alpha style for an undated
    work: "[RRVeS+]"), which reads like any bracketed word ("[Online]"), where it stands: at the left edge
    of the dated labels, not at the indent of the lines under them."""
    edges = {round(line.x0) for line in labelled}

    def opens(line: Line, _: Line | None) -> bool:
        if CITATION_LABEL.match(line.text):
            return True
        return bool(_UNDATED_LABEL.match(line.text)) and any(abs(line.x0 - edge) <= 1 for edge in edges)

    return opens


def _split_with(lines: Sequence[Line], opens: Callable[[Line, Line | None], bool]) -> list[Entry]:
    entries: list[Entry] = []
    previous: Line | None = None
    for line in lines:
        if not entries or opens(line, previous):
            entries.append(Entry([line]))
        else:
            entries[-1].lines.append(line)
        previous = line
    return entries
