"""Venues: recognise a venue series from any of its written forms, and guess the kind of the rest.

The series table is data (``data/venues.tsv``); its header says how patterns are written. A workshop held
at a recognised conference gets the key ``ws:<conference>`` (e.g. ``ws:neurips``), never the conference's
own key, so a workshop paper is not taken for a main-conference paper.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources

from rapidfuzz import fuzz

from refhound.normalize.regex_start import Start, read_start
from refhound.normalize.text import fold, latex_to_unicode


class VenueKind(StrEnum):
    CONFERENCE = "conference"
    JOURNAL = "journal"
    WORKSHOP = "workshop"
    PREPRINT = "preprint"
    BOOK = "book"
    REPOSITORY = "repository"  # where a work's code or data is kept and released (GitHub, Zenodo)
    OTHER = "other"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class VenueInfo:
    key: str | None  # canonical series id ("neurips", "findings-emnlp", "ws:icml"); None if unrecognised
    kind: VenueKind
    name: str  # the cleaned display string


_IN_PREFIX = re.compile(r"^in\b\s*:?\s+(?!(?:silico|vivo|vitro)\b)", re.IGNORECASE)
_URL = re.compile(r"https?://\S+|\bwww\.\S+")
_YEAR_APOSTROPHE = re.compile(r"['’‘`]\s?\d{2}\b")
_ORDINAL_WORD = re.compile(
    r"\b(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]*)?"
    r"(?:first|second|third|fourth|forth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
    r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|ninteenth)\b"
    r"|\b(?:twentieth|thirtieth|fortieth|fiftieth|sixtieth)\b"
)
_NUMBER = re.compile(r"\d+(?:st|nd|rd|th|eme|e)?(?![a-z])")
_STAR = re.compile(r"\*(?=[a-z])")  # *SEM
_INNER_APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)")
_SEPARATOR = re.compile(r"[,;:()\[\]{}|–—]|\s-+(?=\s|$)")
_OTHER = re.compile(r"[^\w#|@]+")
# Publication series and locators that say nothing about the venue itself.
_NOISE = re.compile(
    r"\b(?:proceedings (?:of )?(?:the )?machine learning research|pmlr|"
    r"jmlr (?:workshop and conference proceedings|w and cp|wcp)|"
    r"lecture notes in (?:computer science|artificial intelligence|bioinformatics)|lncs|lnai|"
    r"(?:volume|number|issue|pp|pages|part|"
    r"january|february|march|april|may|june|july|august|september|october|november|december) #)(?!\w)"
)
_ABBREVIATIONS = {
    "int": "international", "intl": "international", "conf": "conference", "proc": "proceedings",
    "proceeding": "proceedings", "trans": "transactions", "j": "journal", "jour": "journal", "jnl": "journal",
    "mach": "machine", "learn": "learning", "res": "research", "intell": "intelligence", "anal": "analysis",
    "assoc": "association", "linguist": "linguistics", "natl": "national", "acad": "academy",
    "artif": "artificial", "adv": "advances", "syst": "systems", "inf": "information", "info": "information",
    "process": "processing", "annu": "annual", "lett": "letters", "rev": "review", "symp": "symposium",
    "ws": "workshop", "wkshp": "workshop", "wksp": "workshop", "eur": "european", "europ": "european",
    "recognit": "recognition", "recog": "recognition", "soc": "society", "lang": "language",
    "commun": "communications", "empir": "empirical", "meth": "methods", "knowl": "knowledge",
    "discov": "discovery", "eng": "engineering", "mag": "magazine", "vol": "volume", "amer": "american",
    "mtg": "meeting", "transl": "translation", "represent": "representations",
    "no": "number", "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june",
    "jul": "july", "aug": "august", "sep": "september", "sept": "september", "oct": "october",
    "nov": "november", "dec": "december",
}  # fmt: skip
_MACROS = {
    "{end}": r"(?=$| [|#]| workshops?\b| and (?:the )?#| at\b)",
    "{tail}": r"(?: [|#])*$",
    # An IEEE transactions' acronym follows: "IEEE Trans. on PAMI", "IEEE TIP", "IEEE T-IT", and IEEEabrv's
    # macro "IEEE_J_PAMI" left undefined.
    "{ieee}": r"\bieee(?: transactions(?: on)? | t ?|_j_)",
}
# "Name @ ACL 2024" is how co-located workshops write their host.
_WORKSHOP = re.compile(r"\b(?:workshops?|hackashop)\b|@")
# A conference's acronym with a "W" of its own after it ("NIPS-W", "ICML W 2019") names its workshops.
_W_AFTER_SERIES = re.compile(r"(?: #)? w\b")
_KIND_WORDS = (
    (VenueKind.WORKSHOP, _WORKSHOP),
    (VenueKind.PREPRINT, re.compile(r"\b(?:preprints?|e ?prints?|chemrxiv|psyarxiv|techrxiv)\b")),
    (
        VenueKind.JOURNAL,
        re.compile(r"\b(?:journal|transactions|letters|review|reviews|annals|magazine|quarterly|bulletin)\b"),
    ),
    (
        VenueKind.CONFERENCE,
        re.compile(r"\b(?:conference|proceedings|symposium|congress|meeting|colloquium|summit|convention)\b"),
    ),
)
_ABBREVIATED_WORD = re.compile(r"^[A-Z][a-z]{0,9}\.$")  # "Phys.", "Rev.", "J."
_BOOK = re.compile(r"\b(?:press|publishers?|publishing|springer|elsevier|wiley|handbook|book|chapter)\b")
# Hosts of code and data: a citation naming one cites the work's software or dataset, released on its own
# dates, not its paper. "Software" only in the phrases that say where it is had ("Software: Practice and
# Experience" is a journal).
_REPOSITORY = re.compile(
    r"\b(?:github|gitlab|bitbucket|zenodo|hugging ?face|pypi|sourceforge|figshare|software available)\b"
)
_OTHER_KIND = re.compile(r"\b(?:thesis|dissertation|phd|technical report|report|blog|patent)\b")
_THESIS = re.compile(r"\b(?:thesis|dissertation)\b")
_SIMILARITY_STOPWORDS = frozenset({"#", "|", "proceedings", "of", "the", "in"})


@dataclass(frozen=True)
class _Series:
    key: str
    kind: VenueKind


class _Table:
    """The rows' patterns, tried in the table's order at a position: only rows that can start with its
    character and whose literal start is there are tried, each compiled on first use. A check meets a few
    dozen rows of the hundred; compiling every row that shares a first character cost more than its check."""

    def __init__(self, patterns: list[str], starts: list[Start]) -> None:
        self._patterns = patterns
        self._starts = starts
        self._compiled: list[re.Pattern[str] | None] = [None] * len(patterns)
        self._by_first: dict[str, list[int]] = {}

    def match(self, text: str, position: int) -> tuple[int, re.Match[str]] | None:
        """The first row matching at `position`, with its match, as one alternation of the rows would find
        it (an alternation takes its first alternative that matches)."""
        first = text[position] if position < len(text) else ""
        rows = self._by_first.get(first)
        if rows is None:
            rows = self._by_first[first] = [
                row
                for row, start in enumerate(self._starts)
                if start.characters is None or first in start.characters
            ]
        for row in rows:
            literal = self._starts[row].literal
            if literal and not text.startswith(literal, position):
                continue
            pattern = self._compiled[row]
            if pattern is None:
                pattern = self._compiled[row] = re.compile(self._patterns[row])
            if found := pattern.match(text, position):
                return row, found
        return None


def _load_table() -> tuple[_Table, tuple[_Series, ...]]:
    rows: list[_Series] = []
    patterns: list[str] = []
    starts: list[Start] = []
    text = resources.files("refhound.normalize").joinpath("data/venues.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, kind, pattern = line.split("\t")
        for macro, expansion in _MACROS.items():
            pattern = pattern.replace(macro, expansion)
        start = read_start(pattern)
        if start.groups:
            raise ValueError(f"venues.tsv: the pattern for {key} has a capturing group")
        patterns.append(pattern)
        starts.append(start)
        rows.append(_Series(key, VenueKind(kind)))
    return _Table(patterns, starts), tuple(rows)


_TABLE, _ROWS = _load_table()
# Conferences with a Findings volume (a `findings-` row of the table): a string that names one and says
# "Findings" anywhere ("Findings of the Conference on Empirical Methods …", "… (ACL-IJCNLP 2021): Findings")
# names the Findings, whatever words the table's row expects.
_HAS_FINDINGS = frozenset(
    row.key.removeprefix("findings-") for row in _ROWS if row.key.startswith("findings-")
)
_FINDINGS = re.compile(r"\bfindings\b")


def _display(text: str) -> str:
    name = _IN_PREFIX.sub("", latex_to_unicode(text)).strip(" ,;:")
    # A final period ends the string, unless it ends an abbreviation ("Mach. Intell.").
    if name.endswith(".") and not _ABBREVIATED_WORD.match(name.rsplit(" ", 1)[-1]):
        name = name.rstrip(" .")
    return name


@lru_cache(maxsize=1 << 16)
def _normalize(name: str) -> str:
    """The matching form, described in data/venues.tsv, of a display name."""
    out = _URL.sub(" ", fold(name)).replace("&", " and ")
    out = _STAR.sub("star", out)
    out = _YEAR_APOSTROPHE.sub(" # ", out)
    out = _ORDINAL_WORD.sub(" # ", out)
    out = _NUMBER.sub(" # ", out)
    out = _INNER_APOSTROPHE.sub("", out)
    out = _OTHER.sub(" ", _SEPARATOR.sub(" | ", out)).replace("@", " @ ")
    out = _NOISE.sub(" | ", " ".join(_ABBREVIATIONS.get(token, token) for token in out.split()))
    tokens: list[str] = []
    for token in out.split():
        if token in ("#", "|") and (tokens[-1:] == [token] or (token == "|" and not tokens)):
            continue
        tokens.append(token)
    if tokens[-1:] == ["|"]:
        tokens.pop()
    return " ".join(tokens)


# A work sent to a venue and not yet accepted: "Submitted to ICLR 2020", "ICLR 2020 (under review)", "In
# submission" (the leading "in" is dropped by `_normalize`). Anonymous submissions are cited this way.
_UNDER_REVIEW = re.compile(
    r"^submi(?:tted|ssion)\b|\bsubmitted to\b|\bunder (?:review|submission)\b|\bin (?:submission|review)\b"
)


def under_review(venue: str) -> bool:
    """Whether a venue string cites the work as submitted or under review, not as published."""
    return bool(_UNDER_REVIEW.search(_normalize(_display(venue))))


def _guess_kind(normalized: str, name: str) -> VenueKind:
    for kind, pattern in _KIND_WORDS:
        if pattern.search(normalized):
            return kind
    words = name.split()
    abbreviated = sum(1 for word in words if _ABBREVIATED_WORD.match(word))
    if abbreviated >= 2 and abbreviated * 2 >= len(words):
        return VenueKind.JOURNAL
    if _BOOK.search(normalized):
        return VenueKind.BOOK
    if _REPOSITORY.search(normalized):
        return VenueKind.REPOSITORY
    if _OTHER_KIND.search(normalized):
        return VenueKind.OTHER
    return VenueKind.UNKNOWN


def _series_matches(normalized: str) -> Iterator[tuple[_Series, re.Match[str]]]:
    """``_TABLE`` matched at each token start, left to right (every pattern begins at one): each series
    found, with its match."""
    position = 0
    while position >= 0:
        found = _TABLE.match(normalized, position)
        if found is not None:
            yield _ROWS[found[0]], found[1]
        position = normalized.find(" ", position)
        position = position + 1 if position >= 0 else -1


# Words that say nothing of which volume of a series is meant.
_VOLUME_NEUTRAL = frozenset({"#", "|", "proceedings", "of", "the", "in", "at"})
# Volumes beside a conference's main proceedings (a challenge's papers are its workshop's), and what is
# given there without a paper in them (an invited talk, a keynote, a panel).
_SIDE_VOLUME = re.compile(
    r"\b(?:companion|posters?|demos?|demonstrations?|tutorials?|abstracts?|workshops?|student|doctoral|"
    r"findings|extended|adjunct|satellite|challenges?|invited|talks?|keynotes?|panels?)\b"
)


def main_proceedings_key(text: str) -> str | None:
    """The series key of a venue string that names a conference's main proceedings, else None.

    "Proceedings of the 58th Annual Meeting of the ACL" names them. A bare acronym ("In WWW", "LREC", "EMNLP
    2023", "Proc. of ACL") also stands for the series' companion, Findings and workshop volumes
    (`bare_conference_key`); "Companion Proceedings of the Web Conference" names another volume; a journal's
    year is published issue by issue and a dump holds the issues out by its date. Absence from a venue-year
    held completely proves something only of the first kind."""
    named = _conference_named(text)
    return named[0] if named is not None and not named[1] else None


def bare_conference_key(text: str) -> str | None:
    """The series key of a venue string that is a conference's bare name ("In EMNLP", "EMNLP 2022", "Proc.
    of ACL"), which stands for any volume of its event that year: the main proceedings, the Findings, the
    demonstrations, the co-located workshops. Else None."""
    named = _conference_named(text)
    return named[0] if named is not None and named[1] else None


def _conference_named(text: str) -> tuple[str, bool] | None:
    """The conference series a venue string names with no side volume ("Companion", "Workshop", "Findings"),
    and whether it names it by the bare series name alone."""
    normalized = _normalize(_display(text))
    info = parse_venue(text)
    if info.kind is not VenueKind.CONFERENCE or info.key is None or _SIDE_VOLUME.search(normalized):
        return None
    words = [w for w in normalized.split() if w not in _VOLUME_NEUTRAL]
    return info.key, len(words) <= 1


def names_thesis(venue: str) -> bool:
    """Whether a venue string names a thesis ("PhD thesis, Stanford University", "Undergraduate thesis")."""
    return bool(_THESIS.search(_normalize(_display(venue))))


@lru_cache(maxsize=1 << 16)
def parse_venue(text: str) -> VenueInfo:
    """Recognise the venue series a venue string names, with its kind; key None when unrecognised. A work
    cited as under review is a manuscript, whichever venue it was sent to."""
    name = _display(text)
    normalized = _normalize(name)
    if _UNDER_REVIEW.search(normalized):
        return VenueInfo(None, VenueKind.PREPRINT, name)
    found = next(_series_matches(normalized), None)  # the leftmost series wins
    if found is None:
        # A name made only of series noise ("Proceedings of Machine Learning Research") still has a kind.
        return VenueInfo(None, _guess_kind(normalized or fold(name), name), name)
    series, match = found
    rest = f"{normalized[: match.start()]} {normalized[match.end() :]}"
    workshop = _WORKSHOP.search(rest) or _W_AFTER_SERIES.match(normalized, match.end())
    if series.kind is VenueKind.CONFERENCE and workshop:
        return VenueInfo(f"ws:{series.key}", VenueKind.WORKSHOP, name)
    if series.key in _HAS_FINDINGS and _FINDINGS.search(rest):
        return VenueInfo(f"findings-{series.key}", VenueKind.CONFERENCE, name)
    return VenueInfo(series.key, series.kind, name)


@lru_cache(maxsize=1 << 16)
def series_named(text: str) -> frozenset[str]:
    """Every venue series a venue string names anywhere: "ACL workshop (SemEval)" names ACL and SemEval."""
    return frozenset(series.key for series, _ in _series_matches(_normalize(_display(text))))


# Proceedings series that publish the papers of several conferences, each with the conference series (keys
# of venues.tsv) it publishes: a citation naming only the series names no event, and is right for any of
# them ("Proceedings of Machine Learning Research" for an ICML paper).
_PROCEEDINGS_SERIES = (
    (
        re.compile(
            r"\bproceedings of machine learning research\b|\bpmlr\b"
            r"|\bjmlr (?:w ?& ?cp|wcp|workshop and conference proceedings)\b"
        ),
        frozenset({"icml", "aistats", "colt", "uai", "corl"}),
    ),
    (
        re.compile(r"\blecture notes in (?:computer science|artificial intelligence)\b|\blncs\b|\blnai\b"),
        frozenset({"eccv", "ws:eccv", "miccai"}),
    ),
)


@lru_cache(maxsize=1 << 12)
def published_in_series(text: str) -> frozenset[str]:
    """The conference series whose papers the proceedings series that `text` names publishes, if it
    names one (PMLR, JMLR W&CP, LNCS, LNAI)."""
    folded = fold(latex_to_unicode(text)).lower()
    return frozenset(key for pattern, keys in _PROCEEDINGS_SERIES if pattern.search(folded) for key in keys)


def _similarity_form(text: str) -> str:
    return " ".join(t for t in _normalize(_display(text)).split() if t not in _SIMILARITY_STOPWORDS)


def venue_similarity(a: str, b: str) -> float:
    """Similarity 0..1 of two venue strings, ignoring years, ordinals, "Proceedings of the", "In",
    punctuation and abbreviations (rapidfuzz ``token_set_ratio``: one name's words within the other's count
    as a match). Meant for venues that neither side recognises."""
    form_a, form_b = _similarity_form(a), _similarity_form(b)
    if not form_a or not form_b:
        return 0.0
    return float(fuzz.token_set_ratio(form_a, form_b)) / 100.0
