"""One formatted reference string → `ParsedFields`, deterministically (regexes and heuristics, no model).

Citation styles lay a reference out in the same order: numbering, an author block, often a year, the title
(quoted, or the next sentence), then the venue with its volume, pages and date. The parser follows that
order. Identifiers (DOI, arXiv id, URL) are taken from anywhere first and cut out, so what is left is prose.

The author block has its own grammar, in `refstring_authors`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from refhound.models import ParsedFields
from refhound.normalize.identifiers import find_arxiv_id, find_doi
from refhound.normalize.text import collapse_whitespace
from refhound.normalize.titles import clean_title
from refhound.refstring_authors import LOWER, UPPER, YEAR, take_authors

ARXIV_VENUE = "arXiv"
# How citations name arXiv as a venue: "arXiv preprint arXiv:2005.14165", "ArXiv", "CoRR" (dblp's name).
_ARXIV_VENUE = re.compile(r"\barxiv\b|^corr$", re.IGNORECASE)

# --- preparation -------------------------------------------------------------------------------------

_NUMBERING = re.compile(
    r"^\s*(?:\[\s*\d{1,4}[a-z]?\s*\]|\(\s*\d{1,4}\s*\)|(\d{1,4})(?:\s*[.)]\s|\s+(?=\D)))\s*"
)
_BROKEN_WORD = re.compile(rf"(?<=[{LOWER}])- (?!(?:and|or|to|und|et|ou)\b)(?=[{LOWER}])")
_BROKEN_COMPOUND = re.compile(rf"(?<=[{LOWER}])- (?=[{UPPER}][{LOWER}])")


def strip_numbering(text: str) -> str:
    """Drop a leading list label ("[12]", "12.", "(3)", "54 "), but not a leading year."""
    match = _NUMBERING.match(text)
    if not match or (match.group(1) and re.fullmatch(YEAR, match.group(1))):
        return text
    return text[match.end() :]


def _prepare(raw: str) -> str:
    text = unicodedata.normalize("NFC", collapse_whitespace(raw))
    text = _BROKEN_WORD.sub("", text)  # "Mur- phy" from a PDF line break
    text = _BROKEN_COMPOUND.sub("-", text)  # "Martin- Facklam"
    text = text.replace("``", "“").replace("''", "”")
    return strip_numbering(text)


# --- identifiers ---------------------------------------------------------------------------------------

_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"]+", re.IGNORECASE)
_DOI_TEXT = re.compile(r"(?:\bdoi\s*:?\s*)?\b10\.\d{4,9}/\S+", re.IGNORECASE)
_ARXIV_TEXT = re.compile(r"\barxiv\s*:\s*\S+|\babs/\S+", re.IGNORECASE)
_ACCESS_NOTE = re.compile(
    r"(?:\[online\]|\b(?:available|retrieved|accessed|url)\b)[^.]*?(?=$|\s*\.\s)", re.IGNORECASE
)
# What to cut out of the prose, each with the lower-case text it cannot match without (a cheap pre-check).
_CUT_OUT = (
    (_URL, ("http", "www.")),
    (_DOI_TEXT, ("10.",)),
    (_ARXIV_TEXT, ("arxiv", "abs/")),
    (_ACCESS_NOTE, ("online", "available", "retrieved", "accessed", "url")),
)


@dataclass(frozen=True)
class _Identifiers:
    doi: str | None
    arxiv_id: str | None
    url: str | None
    text: str  # the reference with URLs, DOIs and access notes cut out


def _take_identifiers(text: str) -> _Identifiers:
    """Find DOI, arXiv id and URL anywhere (URLs included), then cut them out of the prose."""
    url_match = _URL.search(text)
    url = url_match.group(0).rstrip(".,;:)]>") if url_match else None
    rest, lower = text, text.lower()
    for pattern, needles in _CUT_OUT:
        if any(needle in lower for needle in needles):
            rest = pattern.sub(" ", rest)
    return _Identifiers(find_doi(text), find_arxiv_id(text), url, collapse_whitespace(rest))


def parse_author_list(text: str) -> tuple[list[str], bool]:
    """Split an author list written in any common style into names; say whether it ends in "et al."."""
    authors = take_authors(_prepare(text))
    return authors.names, authors.truncated


# --- year ----------------------------------------------------------------------------------------------

# A year not inside a range ("1215–1218"), a decimal ("2005.14165") or a page number ("p. 1999").
_YEAR_CANDIDATE = re.compile(
    rf"(?<![\w\-–/.])(?<!pp\. )(?<!p\. )({YEAR})(?:[a-z](?![a-z]))?(?![\d\-–]\d|\d|\.\d)"
)
_PAREN_YEAR = re.compile(rf"\((?:[^()]{{0,30}}?\W)?({YEAR})[a-z]?\)")
_LEADING_YEAR = re.compile(
    rf"^(?:\((?:[^()]{{0,20}}?\s)?({YEAR})[a-z]?(?:[,/][^()]{{0,30}})?\)|({YEAR})[a-z]?)[.,:;]?\s+"
    r"|^\(?n\.\s?d\.\)?[.,]?\s*"
)


def _year_in(text: str) -> int | None:
    """The publication year in `text`: one in parentheses first, else the first free-standing one."""
    match = _PAREN_YEAR.search(text) or _YEAR_CANDIDATE.search(text)
    return int(match.group(1)) if match else None


def _take_leading_year(text: str) -> tuple[int | None, str]:
    """A year right after the authors ("… Toutanova. 2019." / "(2019)."), and the text after it."""
    match = _LEADING_YEAR.match(text)
    if not match:
        return None, text
    year = match.group(1) or match.group(2)
    return (int(year) if year else None), text[match.end() :]


# --- title ---------------------------------------------------------------------------------------------

_CLOSING_QUOTES = {"“": "”", '"': '"', "«": "»", "„": "“”", "‘": "’"}
_ABBREVIATIONS = {
    "vs", "e.g", "i.e", "etc", "cf", "al", "no", "vol", "ed", "eds", "pp", "dr", "st", "mr", "mrs", "ms",
    "jr", "sr", "inc", "ltd", "co", "corp", "dept", "fig", "approx",
}  # fmt: skip
# Journal-name abbreviations: "…problem, Math. Programming, 60" does not end a sentence at "Math.".
_JOURNAL_ABBREVIATIONS = {
    "Int", "Phys", "Med", "Chem", "Am", "Soc", "Rev", "Lett", "Appl", "Sci", "Math", "Proc", "Trans", "Eng",
    "Biol", "Res", "Natl", "Acad", "Comput", "Stat", "Eur", "Mol", "Opt", "Mech", "Syst", "Theor", "Ann",
    "Bull", "Conf", "Symp", "Commun", "Inf", "Technol", "Environ", "Psychol", "Neurosci", "Biochem",
}  # fmt: skip
_SENTENCE_END = re.compile(r"[.?!](?=\s|$)|,(?=\s+in:?\s)|\s(?=In:\s)")
_LOWER_CONTINUATIONS = ("arxiv", "in ", "in:", "pp", "vol", "doi", "http")
_PUBLISHER_NOTE = re.compile(r"\s\([^()]*:\s[^()]*\)")  # "(London: Routledge, 1992)"
_EDITION_NOTE = re.compile(r"\s*\([^()]*\b(?:ed|edn|edition|éd)\b\.?\)$", re.IGNORECASE)
_WORD = re.compile(r"\b(?!(?:pp|vol|no|nr)\b)[^\W\d_]{2,}", re.IGNORECASE)  # a word, not "pp."
# What ends a title that has no sentence end: a year, or a parenthesis with a place or year in it.
_TITLE_TAIL = re.compile(rf"[\s,.;:]*(?:\([^()]*(?::\s|{YEAR})[^()]*\)|\(?{YEAR}[a-z]?\)?)[\s.]*$")


# "Nano Lett. 2009, 9, 4153" / "ApJ, 475, 163": physics and chemistry cite the journal after the authors.
_JOURNAL_FIRST = re.compile(rf"((?:[{UPPER}][\w&’'-]*\.?\s+){{0,6}}[{UPPER}][\w&’'-]*\.?),?\s+\(?\d")


def _journal_without_title(text: str) -> bool:
    """Whether `text` starts with an abbreviated journal name and its numbers rather than a title.

    The name must look abbreviated: half its words end in a period ("J. Am. Chem. Soc."), or it is short
    and a comma and a volume follow ("ApJ, 475"); "Optimized Rule Induction. IEEE Expert, 8" is a title
    and a venue.
    """
    match = _JOURNAL_FIRST.match(text)
    if not match:
        return False
    words: list[str] = match.group(1).split()
    abbreviated = sum(word.endswith(".") for word in words)
    if abbreviated:
        return 2 * abbreviated >= len(words)
    return (
        len(words) <= 3
        and re.match(r",\s+\(?(?!(?:18|19|20)\d\d\b)\d", text[len(match.group(1)) :]) is not None
    )


def _take_quoted(text: str) -> tuple[str, str] | None:
    """A title in quotes at the start of `text` ("…," / “…” / «…»), and the text after it."""
    closers = _CLOSING_QUOTES.get(text[:1])
    if not closers:
        return None
    for i in range(1, len(text)):
        if text[i] in closers and (text[:1] != "‘" or re.match(r"[\s,.;:]|$", text[i + 1 : i + 2])):
            return text[1:i], text[i + 1 :]
    return None


def _is_sentence_end(text: str, i: int) -> bool:
    """Whether the mark at `i` ends a sentence, not an abbreviation ("vs.", "U.S.") inside one."""
    if text[i] != ".":
        return True
    word = re.search(r"(\S*)$", text[:i])
    previous = word.group(1) if word else ""
    if (
        previous.lower().lstrip("(") in _ABBREVIATIONS
        or previous in _JOURNAL_ABBREVIATIONS
        or re.fullmatch(r"(?:[A-Z]\.)*[A-Z]", previous)
    ):
        return False
    following = text[i + 1 :].lstrip()
    return not following[:1].islower() or following.lower().startswith(_LOWER_CONTINUATIONS)


def _question_ends_title(after: str) -> bool:
    """Whether a question mark ends the title: it does when a venue follows ("…for onset of symbol use?
    Child Development 55, 903"), not when the title goes on ("How many deer? A field guide to …")."""
    after = after.strip()
    parts = re.split(r"\.\s", after, maxsplit=1)
    return (
        len(parts) == 1
        or re.match(r"In\b", after) is not None
        or re.search(r"\d", parts[0]) is not None
        or _journal_without_title(after)
    )


def _first_sentence_end(text: str) -> tuple[int, int] | None:
    """Where the first sentence of `text` ends, and where the next begins."""
    for match in _SENTENCE_END.finditer(text):
        i = match.start()
        if match.group(0) in "?!":
            if _question_ends_title(text[i + 1 :]):
                return i + 1, i + 1
        elif _is_sentence_end(text, i):
            return i, i + 1
    return None


def _top_level_comma(text: str, limit: int) -> int | None:
    for match in re.finditer(r",\s", text[:limit]):
        if text.count("(", 0, match.start()) == text.count(")", 0, match.start()):
            return match.start()
    return None


def _take_title(text: str) -> tuple[str | None, str]:
    """The title and the text after it.

    A quoted title wins; else a title ends before a "(Place: Publisher, Year)" note, or at the first
    sentence end followed by more words (a venue); a reference without one ("J. Nelson, The Physics of
    Solar Cells, Imperial College Press, 2003.") separates its fields with commas.
    """
    quoted = _take_quoted(text)
    if quoted:
        return quoted[0], quoted[1]
    end = _first_sentence_end(text)
    publisher = _PUBLISHER_NOTE.search(text)
    if publisher and (end is None or publisher.start() < end[0]):
        return text[: publisher.start()], text[publisher.start() :]
    if end and _WORD.search(text, end[1]):
        return text[: end[0]], text[end[1] :]
    comma = _top_level_comma(text, end[0] if end else len(text))
    if comma is not None:
        return text[:comma], text[comma + 1 :]
    if end:
        return text[: end[0]], text[end[1] :]
    return _TITLE_TAIL.sub("", text), ""


def _tidy_title(title: str) -> str | None:
    return clean_title(_EDITION_NOTE.sub("", title)) or None


# --- venue, volume, pages ------------------------------------------------------------------------------

_MONTHS = (
    "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|"
    "september|october|november|december|janvier|février|mars|avril|mai|juin|juillet|août|septembre|"
    "octobre|novembre|décembre|spring|summer|fall|autumn|winter"
)
_VENUE_STOP = re.compile(
    r"[\s,.;:]+\(?(?=\d+(?!\w))"  # a volume, year or page number
    r"|\s*\((?=\d|pp?\.)"
    r"|[\s,.;:(]+(?=(?:pp?|pages?|vols?|volume|no|nos|nr|num|issue|art|chap|chapter)\b\.?\s*[A-Z]?\d)"
    r"|[\s,.;:(]+(?=n[°o]\s*\d)"
    r"|[\s,.;:(]+(?=(?:doi|https?|arxiv:|abs/|isbn|issn|available|retrieved|accessed|\[online\]))"
    r"|,\s+(?=(?:in press|to appear|forthcoming|edited by|eds?\.|special issue)\b)"
    rf"|,\s+(?=(?:{_MONTHS})\b\.?)"
    r"|[.,]\s+(?=[A-Z][\w .]{0,30}:\s)",  # "…. New York: Springer": a publisher's address
    re.IGNORECASE,
)
_VENUE_LEAD = re.compile(rf"^[\s.,;:]*(?:\(?{YEAR}[a-z]?\)?[\s.,;:]+)?(?:in:?\s+)?", re.IGNORECASE)
# Editors before a book title: "A. Editor (Ed.), Book", "(M. Cooper, …, Eds.) Book", "A. Editor, ed., Book".
_EDITORS = re.compile(
    r"^(?:[^()]{0,200}\((?:eds?|hrsg|hg)\.?\)|\([^()]{0,200}\beds?\.?\)|[^,()]{0,60},\s+eds?\.)[.,:]?\s*",
    re.IGNORECASE,
)
# "Cambridge: Polity Press, 1994." / "(London: Routledge, 1992)": a book's publisher, not a venue.
_ADDRESS = re.compile(
    rf"^\(?[{UPPER}][\w.'-]*(?:[ ,]+[{UPPER}][\w.'-]*){{0,3}}\s?:\s"  # "New York: "
    rf"[^:\d]{{1,60}}?(?:,\s*{YEAR}[a-z]?)?\)?[.\s]*$"  # "Random House, 1987."
)
_PUBLISHER = re.compile(
    r"\b(?:press|publishers?|verlag|books|editions?|éditions|wiley|elsevier)\b", re.IGNORECASE
)
_GENRE = re.compile(
    r"^(?:(?:ph\.?\s?d\.?|master'?s|doctoral|bachelor'?s)?\s*(?:thesis|dissertation)|preprint|"
    r"technical report|tech\. rep|unpublished(?: manuscript)?|manuscript|working paper|in press)\.?$",
    re.IGNORECASE,
)


def is_arxiv_venue(venue: str | None) -> bool:
    """Whether a cited venue names arXiv; such citations all get the venue "arXiv"."""
    return bool(venue and _ARXIV_VENUE.search(venue.strip()))


def _take_venue(text: str) -> tuple[str | None, str]:
    """The journal or proceedings name at the start of `text`, and what follows it (volume, pages, …)."""
    text = _EDITORS.sub("", _VENUE_LEAD.sub("", text, count=1), count=1)
    if _ADDRESS.match(text):
        return None, text
    stop = _VENUE_STOP.search(text)
    venue, rest = (text[: stop.start()], text[stop.start() :]) if stop else (text, "")
    venue = venue.strip(" .,;:")
    if is_arxiv_venue(venue):
        return ARXIV_VENUE, rest
    if not _WORD.search(venue) or _PUBLISHER.search(venue) or _GENRE.match(venue):
        return None, rest
    return venue, rest


_PAGES = re.compile(
    r"(?:\bpp?\.|\bpages?\b)\s*([A-Za-z]?\d+(?:\s*[-–—]+\s*[A-Za-z]?\d+)?)"
    r"|(?<![\w.\-–/])([A-Za-z]?\d+\s*[-–—]+\s*[A-Za-z]?\d+)(?![\w\-–])"
)
_VOLUME = re.compile(
    r"\bvol(?:ume)?\.?\s*(\d+)|^[\s,.:;]*(\d+)\b(?![-–])|(?<![\w.\-–])(\d+)\s*\(\s*[\w\s,–-]{1,12}\)|;\s*(\d+)",
    re.IGNORECASE,
)


def _volume_and_pages(text: str) -> tuple[str | None, str | None]:
    """Volume and page range from the text that follows a venue ("30(2):123–130", "vol. 13, pp. 9–45")."""
    pages_match = _PAGES.search(text)
    pages = re.sub(r"\s+", "", next(g for g in pages_match.groups() if g)) if pages_match else None
    volume: str | None = None
    for match in _VOLUME.finditer(text):
        value = next(g for g in match.groups() if g)
        if not re.fullmatch(YEAR, value) and (pages is None or not pages.startswith(value)):
            volume = value
            break
    return volume, pages


# --- the whole -----------------------------------------------------------------------------------------


def parse_reference_string(raw: str) -> ParsedFields:
    """Parse one formatted reference (ACL, APA, IEEE, LNCS, Vancouver, Chicago, arXiv, …) into fields."""
    ids = _take_identifiers(_prepare(raw))
    authors = take_authors(ids.text)
    year, rest = _take_leading_year(authors.rest)
    title, tail = (None, rest) if _journal_without_title(rest) else _take_title(rest)
    year = year or _year_in(tail) or _year_in(rest) or _year_in(ids.text)
    venue, tail = _take_venue(tail)
    if venue is None and ids.arxiv_id and "arxiv" in raw.lower():
        venue = ARXIV_VENUE
    volume, pages = _volume_and_pages(tail)
    return ParsedFields(
        title=_tidy_title(title) if title else None,
        authors=authors.names,
        authors_truncated=authors.truncated,
        venue=venue,
        year=year,
        doi=ids.doi,
        arxiv_id=ids.arxiv_id,
        url=ids.url,
        volume=volume,
        pages=pages,
    )
