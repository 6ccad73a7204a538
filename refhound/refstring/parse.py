"""One formatted reference string → `ParsedFields`, deterministically (regexes and heuristics, no model).

Citation styles lay a reference out in the same order: numbering, an author block, often a year, the title
(quoted, or the next sentence), then the venue with its volume, pages and date. The parser follows that
order. Identifiers (DOI, arXiv id, URL) are taken from anywhere first and cut out, so what is left is prose.

The author block has its own grammar, in `refhound.refstring.authors`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from refhound.models import ParsedFields
from refhound.normalize.identifiers import ARXIV_VENUE, find_arxiv_id, find_doi, is_arxiv_venue, not_a_title
from refhound.normalize.text import LIGATURES, collapse_whitespace, decode_latex_letters, reattach_accents
from refhound.normalize.titles import clean_title
from refhound.refstring.authors import (
    LOWER,
    NO_CHARACTER,
    UPPER,
    YEAR,
    AuthorBlock,
    split_name_list,
    take_authors,
)

# --- preparation -------------------------------------------------------------------------------------

_NUMBERING = re.compile(
    r"^\s*(?:\[\s*\d{1,4}[a-z]?\s*\]|\(\s*\d{1,4}\s*\)|(\d{1,4})(?:\s*[.)]\s|\s+(?=\D)))\s*"
)
# A BibTeX alpha-style label: "[Vas+17]", "[HZRS16]", "[Knu84a]", "[vdMH08]" (a "von" part in lower case),
# "[Rüc20]"; or an author-year label, which LaTeX prints before each entry of an author-year style unless
# natbib is loaded: "[Cohen et al., 2019]", "[Ham and Choe, 2020a]", "[OpenAI 2023]", a work without
# authors under its key ("[wmt19, 2019]"), an undated one with the comma before no year ("[Howard,]"), the
# year in parentheses as a hand-made `\bibitem[Gower and Hand (1996)]` prints it.
CITATION_LABEL = re.compile(
    r"^\s*\[(?:(?:[^\W\d_]|\+){1,8}\d{2}(?:\d{2})?[a-z]?"
    r"|[^\W\d_][^\[\]]{0,70}?(?:(?:[,\s]\s*\(?|\()(?:1[89]|20)\d{2}[a-z]?\)?|,\s*))\]\s*"
)
_BROKEN_WORD = re.compile(rf"(?<![^\W\d_])([^\W\d_]*[{LOWER}])- ([{LOWER}][^\W\d_]*)")  # "Mur- phy"
# Ligatures ("Grifﬁth"): the name grammar wants letters. str.translate is slow, and ligatures are rare.
_LIGATURE = re.compile("[\ufb00-\ufb06]")
# Unicode's hyphen and non-breaking hyphen, as Wiley's PDFs and some exports print them ("Garcia‐Carmona,
# A.", "Z.‐H."): the name grammar reads ASCII hyphens.
_UNICODE_HYPHEN = re.compile("[\u2010\u2011]")
# A glyph without a character: at the start, a bullet; inside a word, an accent or a letter ("THRA�INSSON"
# for Thráinsson), and the word reads without it.
_GLYPH_WITHOUT_CHARACTER = re.compile(rf"^[{NO_CHARACTER}]+\s*|(?<=[^\W\d_])\ufffd+(?=[^\W\d_])")
# Small capitals extracted letter by letter: "B I N G H A M , R . & OT T E W I L L , R . (2001)".
_SPACED_START = re.compile(rf"^[{UPPER}]{{1,3}}(?: [{UPPER}]{{1,3}}){{3,}}\b")
_SPACED_RUN = re.compile(rf"(?<![\w.])[{UPPER}]{{1,3}}(?: [{UPPER}]{{1,3}}(?![\w.]))+(?![\w.]| \.)")
_SPACED_PUNCT = re.compile(rf"(?<=\b[{UPPER}]) (?=[.,])|(?<=[{UPPER}{LOWER}.]) (?=,)")
# China's GB/T 7714 style, which Google Scholar exports and many papers copy, marks a work's type after its
# title: "Attention is all you need[J]. Advances in …", "Deep residual learning[C]//Proceedings of the IEEE
# …", "Deep learning[M]. MIT press", "[EB/OL]". The mark is no part of the title, and "//" reads "in".
_GBT_TYPE_MARK = re.compile(
    r"(?<=[^\s\[])\s?\[(?:[JMCDRNPSZAGK]|DB|CP|EB|DS|CM)(?:/(?:OL|MT|DK|CD))?\]\s*(//\s*|\.(?=\S)|)"
)
# A year glued to its neighbours: "Schaeper .2001." / "2010.Leben in Ost- und Westdeutschland"; not inside
# an identifier set in capitals ("10.18653/V1/2021.ACL-LONG.4").
_GLUED_YEAR = re.compile(rf"\s\.(?={YEAR}\b)|(?<=\b(?:18|19|20)\d\d)(?<![/.\w-]\d{{4}})\.(?=[{UPPER}])")


# Words that a line-broken hyphen joins as a compound ("retrieval-augmented", "self-supervised"), not as the
# syllables of one word ("Mur-phy", "bi-directional"): the first word of such compounds, or the second.
# Titles compare with hyphens dropped (`title_key`), so a guess here changes the display, not a verdict.
_COMPOUND_FIRST = frozenset({
    "self", "non", "cross", "multi", "semi", "anti", "pseudo", "quasi", "well", "high", "low", "large",
    "small", "long", "short", "fine", "coarse", "zero", "few", "one", "two", "three", "end", "open", "real",
    "state", "top", "bottom", "data", "task", "domain", "knowledge", "retrieval", "language", "graph",
    "model", "human", "sequence", "token", "sentence", "document", "word", "character", "image", "text",
})  # fmt: skip
_COMPOUND_SECOND = frozenset({
    "based", "aware", "augmented", "driven", "free", "level", "scale", "specific", "oriented", "agnostic",
    "supervised", "guided", "conditioned", "efficient", "intensive", "independent", "dependent",
    "invariant", "sensitive", "grained", "shot", "lingual", "modal", "resource", "domain", "task", "end",
    "art", "world", "time", "step", "wise", "like", "related", "trained", "tuned", "tuning", "training",
    "learning", "following", "assisted", "enhanced", "constrained", "preserving", "consistent", "centric",
    "friendly", "labeled", "labelled", "generated", "annotated", "structured", "controlled", "defined",
    "informed", "induced", "term", "order", "source", "rank", "range", "sized", "size", "layer", "head",
    "class", "label", "view", "agent", "answering", "attention", "context", "the",
})  # fmt: skip
# "pre- and post-training": a hyphen that the next compound's second word shares, no line break.
_SHARED_HYPHEN = frozenset({"and", "or", "to", "und", "et", "ou"})
# "Martin- Facklam", "BARON- COHEN": a double name broken at its hyphen; not "PRE- AND POST-" (shared).
_BROKEN_COMPOUND = re.compile(
    rf"(?<=[{LOWER}])- (?=[{UPPER}][{LOWER}])"
    rf"|(?<=[{UPPER}]{{2}})- (?!(?:{'|'.join(sorted(_SHARED_HYPHEN)).upper()})\b)(?=[{UPPER}]{{2}})"
)


def mend_broken_word(left: str, right: str) -> str:
    """Join the two halves of a word that a line break hyphenated ("retrieval-" / "augmented").

    A compound keeps its hyphen ("retrieval-augmented"); the syllables of one word are glued ("Mur" /
    "phy" → "Murphy"). A compound is told by a first or second word that such compounds are made of.
    """
    if right in _SHARED_HYPHEN:
        return f"{left}- {right}"
    compound = left.lower() in _COMPOUND_FIRST or right.lower() in _COMPOUND_SECOND
    return f"{left}-{right}" if compound else left + right


def strip_numbering(text: str) -> str:
    """Drop leading list labels ("[12]", "12.", "(3)", "54 ", "[HZRS16]", "[Cohen et al., 2019]"), but not a
    leading year. A list pasted with its own numbers in front of the source's ("[915] [64] …") loses both."""
    for _ in range(2):
        match = _NUMBERING.match(text) or CITATION_LABEL.match(text)
        if not match or (match.re is _NUMBERING and _is_year(match.group(1))):
            return text
        text = text[match.end() :]
    return text


def _is_year(number: str | None) -> bool:
    return number is not None and re.fullmatch(YEAR, number) is not None


def _unspace_capitals(text: str) -> str:
    """Join letter-spaced small-capital names in the author block ("C RO N I N, J. J." → "CRONIN, J. J.")."""
    start = _SPACED_START.match(text)
    if not start or not _letter_spaced(start.group(0)):
        return text
    end = re.search(r"[(\d‘“\"]", text)
    head, tail = (text[: end.start()], text[end.start() :]) if end else (text, "")
    head = _SPACED_RUN.sub(_joined_if_letter_spaced, head)
    return _SPACED_PUNCT.sub("", head) + tail


def _letter_spaced(run: str) -> bool:
    """Whether a run of short capital groups is one word spaced letter by letter ("C RO N I N": most groups
    one letter) rather than short names set in capitals ("ANH CAT LE NGO")."""
    groups = run.split()
    return 2 * sum(len(group) == 1 for group in groups) > len(groups)


def _joined_if_letter_spaced(run: re.Match[str]) -> str:
    return run.group(0).replace(" ", "") if _letter_spaced(run.group(0)) else run.group(0)


def _after_type_mark(mark: re.Match[str]) -> str:
    """What a GB/T 7714 type mark leaves: "In" before a container, a spaced full stop, or nothing."""
    follows = mark.group(1)
    return ". In: " if follows.startswith("//") else ". " if follows else ""


def _prepare(raw: str) -> str:
    text = unicodedata.normalize("NFC", collapse_whitespace(reattach_accents(decode_latex_letters(raw))))
    if _LIGATURE.search(text):
        text = text.translate(LIGATURES)
    text = _UNICODE_HYPHEN.sub("-", text)
    if "\ufffd" in text or "\ue000" <= text[:1] <= "\uf8ff":  # rare: the regex only where it can match
        text = _GLYPH_WITHOUT_CHARACTER.sub("", text)
    text = _BROKEN_WORD.sub(lambda m: mend_broken_word(m.group(1), m.group(2)), text)
    text = _BROKEN_COMPOUND.sub("-", text)
    text = text.replace("``", "“").replace("''", "”")
    if "[" in text:
        text = _GBT_TYPE_MARK.sub(_after_type_mark, text)
    text = _GLUED_YEAR.sub(". ", text)
    if "://" in text or ": //" in text:
        text = _mend_broken_urls(text)
    return _unspace_capitals(strip_numbering(text))


# A URL a PDF's line break split with a space: after its scheme ("https:// arxiv.org", "https: //x.org"),
# after a dot of its host ("https://openaipublic. blob. core. windows. net/"), before a file's extension
# ("…/index. html"), or after a slash, underscore or "=" of its path when what follows holds a slash or an
# underscore itself, names a file, is a long number, or is a slug of hyphenated lower-case words that ends
# the reference ("…/blog/ 202505/the-…", "…/Niu_Counterfactual_VQA_A_…", "…/uploads/2025/07/ Americas-AI-
# Action-Plan.pdf", "…/status/ 1716972815960961174", "…/202310/ ais-superhuman-persuasion.", "forum?id=
# Uo7Qhf3fSR"): prose never continues so.
_URL_SCHEME_BREAK = re.compile(r"\b(https?):\s*//\s*(?=[\w-]+\.)", re.IGNORECASE)
_URL_HOST_BREAK = re.compile(
    r"(\bhttps?://[\w-]+(?:\.[\w-]+)*\.)\s+(?=[a-z][\w-]*(?:[./:]|$))", re.IGNORECASE
)
_FILE = r"[\w%~.#?=&+-]*\.(?:pdf|html?|php|aspx?|xml|json|md|txt)\b"
_SLUG_AT_END = r"(?-i:[a-z0-9]+(?:-[a-z0-9]+)+)/?\.?\s*$"
_URL_PATH_BREAK = re.compile(
    rf"(\bhttps?://[^\s<>\"]*"
    rf"(?:[/_]\s+(?=[\w%~.#?=&+-]*[/_]|{_FILE}|\d{{6,}}|{_SLUG_AT_END})|=\s+(?=\w)|\.\s+(?=(?:pdf|html?|php)\b)))",
    re.IGNORECASE,
)


def _mend_broken_urls(text: str) -> str:
    text = _URL_SCHEME_BREAK.sub(r"\1://", text)
    while True:  # one host may be broken at each of its dots
        joined = _URL_HOST_BREAK.sub(r"\1", text)
        if joined == text:
            break
        text = joined
    return _URL_PATH_BREAK.sub(lambda m: "".join(m.group(1).split()), text)


# --- identifiers ---------------------------------------------------------------------------------------

# A URL, with the label that may stand before it ("URL https://…"): the label goes with it.
_URL = re.compile(r"(?:\burl\b\s*:?\s*)?((?:https?://|www\.)[^\s<>\"]+)", re.IGNORECASE)
_DOI_TEXT = re.compile(r"(?:\bdoi\s*:?\s*)?\b10\.\d{4,9}/\S+", re.IGNORECASE)
# An arXiv id with the subject class arXiv's own citation format prints after it ("arXiv:1810.04805
# [cs.CL]"): the class is the id's, not a venue.
_ARXIV_TEXT = re.compile(
    r"(?:\barxiv\s*:\s*|\babs/)[^\s\[]+(?:\s*\[[a-z]+(?:-[a-z]+)?(?:\.[a-z]{2})?\])?", re.IGNORECASE
)
# "Retrieved from …", "Accessed 5 May 2021", "Available at: …", "URL http…"; not a title's "Retrieved
# Examples" or "Available Data".
_ACCESS_NOTE = re.compile(
    r"(?:\[online\]|\b(?:available|retrieved|accessed|url)\b"
    r"(?=\s*(?::|(?:from|at|on|online|via)\b|\d|(?-i:[A-Z][a-z]{2,8})\.?\s+\d|https?:|www\.|$)))"
    r"(?:[^.]|\.(?=\d))*?(?=$|\s*\.\s)",  # a date's dots ("14.05.2023") do not end it
    re.IGNORECASE,
)
# The date the work was read on, ending the reference with its full stop ("Accessed: 2025-04-04."), with
# the label of the address cut out before it ("Available online: <URL> (accessed on 7 June 2013).").
_READ_ON_AT_END = re.compile(
    r"(?:\b(?:available|retrieved)(?:\s+(?:online|from|at))?\s*:?\s*\(?\s*)?"
    r"\b(?:accessed|retrieved|visited|viewed)\b[^.]*?\d[^.]*?\.?\s*$",
    re.IGNORECASE,
)
# What to cut out of the prose, each with the lower-case text it cannot match without (a cheap pre-check).
_CUT_OUT = (
    (_URL, ("http", "www.")),
    (_DOI_TEXT, ("10.",)),
    (_ARXIV_TEXT, ("arxiv", "abs/")),
    (_ACCESS_NOTE, ("online", "available", "retrieved", "accessed", "url")),
    (_READ_ON_AT_END, ("accessed", "retrieved", "visited", "viewed")),
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
    url = url_match.group(1).rstrip(".,;:)]>") if url_match else None
    rest, lower = text, text.lower()
    for pattern, needles in _CUT_OUT:
        if any(needle in lower for needle in needles):
            rest = pattern.sub(" ", rest)
    return _Identifiers(find_doi(text), find_arxiv_id(text), url, collapse_whitespace(rest))


def parse_author_list(text: str) -> tuple[list[str], bool]:
    """Split an author list written in any common style into names; say whether it ends in "et al.". A
    list that holds no person's name but an organization's is that one name."""
    text = _prepare(text)
    authors = take_authors(text)
    organization = re.fullmatch(_ORGANIZATION_NAME, text.strip(" .,:;"))
    if not authors.names and organization:
        return [organization.group(1).strip(" ,.")], False
    return authors.names, authors.truncated


# --- year ----------------------------------------------------------------------------------------------

# A year not inside a range ("1215–1218"), a decimal ("2005.14165") or a page number ("p. 1999").
_YEAR_CANDIDATE = re.compile(
    rf"(?<![\w\-–/.])(?<!pp\. )(?<!p\. )({YEAR})(?:[a-z](?![a-z]))?(?![\d\-–]\d|\d|\.\d)"
)
_PAREN_YEAR = re.compile(rf"\((?:[^()]{{0,30}}?\W)?({YEAR})[a-z]?\)")
# Right after the authors a year is sure enough to take older ones too ("Percy, Thomas. 1765.").
_OLD_YEAR = r"(?:1[5-9]|20)\d\d"
_LEADING_YEAR = re.compile(
    rf"^(?:\((?:[^()]{{0,20}}?\s)?({_OLD_YEAR})[a-z]?(?:[,/\s][^()]{{0,30}})?\)|({_OLD_YEAR})[a-z]?(?:/\d{{1,4}})?)"
    r"[.,:;]?\s+"
    r"|^\(?(?:n\.\s?d\.|in press|forthcoming|im druck|sous presse)\)?[.,:]?\s*",
    re.IGNORECASE,
)


YearFound = Literal["after_authors", "parenthesized", "free", "none"]


def _year_in(text: str) -> tuple[int, YearFound] | None:
    """The publication year in `text`: one in parentheses first, else the first free-standing one."""
    paren = _PAREN_YEAR.search(text)
    if paren:
        return int(paren.group(1)), "parenthesized"
    free = _YEAR_CANDIDATE.search(text)
    return (int(free.group(1)), "free") if free else None


def _take_leading_year(text: str) -> tuple[int | None, str]:
    """A year right after the authors ("… Toutanova. 2019." / "(2019)."), and the text after it."""
    match = _LEADING_YEAR.match(text)
    if not match:
        return None, text
    year = match.group(1) or match.group(2)
    return (int(year) if year else None), text[match.end() :]


# --- title ---------------------------------------------------------------------------------------------

# Opening quotes and what closes them; "―…‖" is how some PDF fonts extract “…”. Harvard and KISTI styles
# quote titles in ASCII single quotes ("1966, 'Experiments on Turbulent Heat Transfer,' Trans. ASME").
_CLOSING_QUOTES = {"“": "”", '"': '"', "«": "»", "„": "“”", "‘": "’", "―": "‖", "'": "'"}
_SINGLE_QUOTES = "‘'"  # also apostrophes
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
# "//" parts a title from its journal in Russian (GOST) references: "Title // Journal. 1989. № 12."
_SENTENCE_END = re.compile(
    r"[.?!](?=\s|$)|,(?=\s+in:?\s+(?-i:[A-Z\d]))|\s(?=In:\s)|\s//(?=\s)", re.IGNORECASE
)
# Preprint servers, whose names a style may print in lower case ("chemrxiv 2022").
_PREPRINT_SERVERS = (
    "arxiv", "biorxiv", "medrxiv", "chemrxiv", "psyarxiv", "techrxiv", "engrxiv", "socarxiv", "eartharxiv",
)  # fmt: skip
_LOWER_CONTINUATIONS = (*_PREPRINT_SERVERS, "in ", "in:", "pp", "vol", "doi", "http")
# A journal's name that opens in lower case before a capital: "eLife", "iScience", "bioRxiv".
_CAMEL_CASE = r"[a-z]{1,4}[A-Z]"
# Such journals, with numbers after them: "npj Computational Materials 5", "iScience 24, 102155",
# "eLife 9:e52077", "bioRxiv 2020.01.01".
_LOWER_CASE_JOURNAL = re.compile(rf"(?:npj\s|{_CAMEL_CASE}[a-z]+[\s,.])(?=.{{0,80}}\d)")
# "(London: Routledge, 1992)", "(New York: Plenum).", not "(Insecta : Hemiptera) based on": a place, then a
# year or a publisher's name, or nothing after the note. MDPI's and ACS's styles set the publisher and its
# place after a semicolon: "…; Rizzoli Ex Libris: Milan, Italy, 2008".
_PUBLISHER_NOTE = re.compile(
    rf"\s\([^()]*:\s(?:[^()]*\b{YEAR}|[^()]*\b(?:press|verlag|books|publishers?|publishing)\b)[^()]*\)"
    r"|\s\([^()]*:\s[^()]*\)(?=[.\s]*$)"
    rf"|;(?=\s[^;:.]{{1,80}}:\s[^;:]{{1,80}}\b{YEAR}\b)",
    re.IGNORECASE,
)
_EDITION_NOTE = re.compile(r"\s*\([^()]*\b(?:ed|edn|edition|éd)\b\.?\)$", re.IGNORECASE)
_WORD = re.compile(r"\b(?!(?:pp|vol|no|nr)\b)[^\W\d_]{2,}", re.IGNORECASE)  # a word, not "pp."
_LETTERS = re.compile(r"[^\W\d_]{2}")
# What ends a title that has no sentence end: a year, or a parenthesis with a place or year in it.
_BRACKETED_NOTE = rf"\([^()]*(?::\s|{YEAR})[^()]*\)"  # "(2020)", "(Princeton University Press, 1999)"
_TITLE_TAIL = re.compile(rf"[\s,.;:]*(?:{_BRACKETED_NOTE}|\(?{YEAR}[a-z]?\)?)[\s.]*$")
_NOTE_AT_END = re.compile(rf"[\s,.;:]*{_BRACKETED_NOTE}[\s.]*$")


_BARE_YEAR = re.compile(rf"\s*\(?{YEAR}[a-z]?\)?[\s.]*")
# Vancouver's numbers after a journal: year, an optional month and day, ";" and the volume.
_VANCOUVER_NUMBERS = re.compile(rf",?\s+{YEAR}[a-z]?(?:\s+[A-Z][a-z]{{2}}(?:\s+\d{{1,2}})?)?\s*;\s*\d")
# "Nano Lett. 2009, 9, 4153" / "ApJ, 475, 163": physics and chemistry cite the journal after the authors.
_JOURNAL_FIRST = re.compile(rf"((?:[{UPPER}][\w&’'-]*\.?\s+){{0,6}}[{UPPER}][\w&’'-]*\.?),?\s+\(?\d")


def _vancouver_journal(text: str) -> bool:
    """Whether `text` starts with a journal's name and Vancouver's numbers ("J Biol Chem 1999; 274:20")."""
    match = _JOURNAL_FIRST.match(text)
    return match is not None and _VANCOUVER_NUMBERS.match(text, len(match.group(1))) is not None


def _journal_without_title(text: str) -> bool:
    """Whether `text` starts with an abbreviated journal name and its numbers rather than a title.

    The name must look abbreviated: half its words end in a period ("J. Am. Chem. Soc."), or it is short
    and a comma and a volume follow ("ApJ, 475"); "Optimized Rule Induction. IEEE Expert, 8" is a title
    and a venue.
    """
    if _journal_and_locator(text):
        return True
    match = _JOURNAL_FIRST.match(text)
    if not match:
        return False
    words: list[str] = match.group(1).split()
    if _vancouver_journal(text):
        return True  # "J Neural Eng. 2015;14(4):12": Vancouver's journal numbers, whatever its name
    abbreviated = sum(word.endswith(".") and not word[-2:-1].isdigit() for word in words)  # not "Qwen2."
    if abbreviated == 1 and words[-1].endswith(".") and _BARE_YEAR.fullmatch(text, len(match.group(1))):
        return False  # "Nemotron-PrismMath Dataset. 2025.": a title's full stop, then its year alone
    if abbreviated:
        return 2 * abbreviated >= len(words)
    return (
        len(words) <= 3
        and re.match(r",\s+\(?(?!(?:18|19|20)\d\d\b)\d", text[len(match.group(1)) :]) is not None
    )


# Physics, astronomy and biology cite an article by its journal and numbers alone, no title:
# "Ann. Phys. (N.Y.) 303, 2 (2003)", "Phys.Lett. B227, 266 (1989)", "Nature 385:544-548 (1997)",
# "Journal of Applied Physics 107, 114305 (2010)", "Nucl. Phys. (Proc. Suppl.) 48 (1996) 83",
# "(2014), MNRAS, 442, 3013". A journal's name is words in capitals, short abbreviations ("Phys.",
# "Suppl.", glued: "Int.J.Mod.Phys."), a bracketed part ("(N.Y.)"), and joining words in lower case;
# only its last word ends in a longer word's full stop: "Deep learning. Nature 521, 436" keeps its title.
_JOINING_WORDS = r"of|and|the|in|for|on|de|der|des|di|du|la|le|et|für|und|&"
_LONG_ABBREVIATIONS = "|".join(sorted(_JOURNAL_ABBREVIATIONS | {"Suppl", "Astron", "Astrophys", "Nucl"}))
_ABBREVIATION = rf"(?:[{UPPER}][{LOWER}]{{0,4}}|{_LONG_ABBREVIATIONS})\."
# Atomic words: a run of capitals is one word, never split into many ways of matching.
_NAME_WORD = rf"(?>(?:{_ABBREVIATION})+|(?!In\b)[{UPPER}][\w&’'-]*|\([^()]{{1,24}}\)|(?:{_JOINING_WORDS})\b)"
_LAST_NAME_WORD = rf"(?:[{UPPER}][\w&’'-]*\.|{_NAME_WORD})"
_VOLUME_NUMBER = rf"(?!{YEAR}\b)[A-Z]?\d{{1,5}}[a-z]?"  # "303", "B227", "D63", "0904"; never a year
_PAGE_NUMBER = r"[A-Z]?\d{1,7}(?:\s*[–-]\s*\d{1,7})?"  # "2", "544-548", "L12", "114305"
_JOURNAL_AND_LOCATOR = re.compile(
    rf"(?:{_NAME_WORD}\s*){{0,9}}{_LAST_NAME_WORD}\s*,?\s*{_VOLUME_NUMBER}\s*(?:"
    rf"[,:]\s*{_PAGE_NUMBER}\s*\(\s*{YEAR}\s*\)"  # "303, 2 (2003)", "385:544-548 (1997)"
    rf"|\(\s*{YEAR}\s*\)\s*,?\s*{_PAGE_NUMBER}"  # "A20 (2005) 6753", "39 (2012), 045004"
    rf"|[,:]\s*(?!{YEAR}\b){_PAGE_NUMBER}(?:\s*,\s*{YEAR})?"  # "442, 3013", "103:1557–1566, 2009"
    r")[\s.,;]*"
)


def _journal_and_locator(text: str) -> bool:
    """Whether `text` is a journal's name and the article's numbers, and nothing else."""
    return _JOURNAL_AND_LOCATOR.fullmatch(text.strip()) is not None


# After a quote mark, text that carries the title on: a word glued to the mark (it opens an inner quote),
# or a lower-case word other than "in" and abbreviations ("The “Curse of Multilinguality” revisited").
# A mark right after a comma or full stop closes the title whatever follows (“Title,” paper presented at).
_QUOTE_GOES_ON = re.compile(r"\w|\s+(?!in\b)[a-z]+(?![\w.])")


def _closes_title(text: str, i: int) -> bool:
    return text[i - 1] in ",." or not _QUOTE_GOES_ON.match(text, i + 1)


# Where a single quote closes a title, in order of preference: after a comma or full stop ("Duct,'") or
# before punctuation ("Time’, Applied"), else before a space ("Peoples’ Understanding" only then).
_SINGLE_QUOTE_CLOSES = (re.compile(r"(?<=[,.]).|.(?:[,.;:]|$)"), re.compile(r".\s"))


def _quote_end(text: str, closers: str) -> int | None:
    """Where the quote opened at text[0] closes; None when every closing mark is inside the title.
    A single quote is also an apostrophe ("Peoples’ Understanding", "Peoples' Understanding"), so it
    closes first after a comma or full stop or before punctuation, then before a space; a "‘" closes
    before any next opening "‘"."""
    if text[0] not in _SINGLE_QUOTES:
        return next((i for i in range(1, len(text)) if text[i] in closers and _closes_title(text, i)), None)
    limit = (text.find("‘", 1) % (len(text) + 1) if text[0] == "‘" else 0) or len(text)
    for closes in _SINGLE_QUOTE_CLOSES:
        for i in range(1, limit):
            if text[i] in closers and closes.match(text, i, i + 2):
                return i
    return None


def _take_quoted(text: str) -> tuple[str, str] | None:
    """A title in quotes at the start of `text` ("…," / “…” / «…»), and the text after it; not a quoted
    phrase that a title starts with („Being There“: Proximity, Organization, …)."""
    closers = _CLOSING_QUOTES.get(text[:1])
    end = _quote_end(text, closers) if closers else None
    if end is None or re.match(r"\s*:\s", text[end + 1 :]):
        return None
    if text[0] == "'" and _QUOTE_GOES_ON.match(text, end + 1):
        return None  # "'I'm going to say it.' america's reckoning on race …": a quoted phrase opens the title
    return text[1:end], text[end + 1 :]


_LETTERS_IN = re.compile(r"[^\W\d_]")
# "5 technical", "5-coder"; not "5:123", nor a year
_VERSION_REST = re.compile(r"\d{1,2}(?![\d.,:;)])(?:[\s-]|$)")


def _is_sentence_end(text: str, i: int) -> bool:
    """Whether the mark at `i` ends a sentence, not an abbreviation ("vs.", "U.S.") inside one."""
    if text[i] != ".":
        return True
    before = text[max(0, i - 60) : i]  # a window, not the whole prefix: this runs at every period
    word = re.search(r"(\S*)$", before)
    previous = word.group(1) if word else ""
    following = text[i + 1 :].lstrip()
    if re.fullmatch(r"[A-Z]|\d{1,2}", previous) and _vancouver_journal(following):
        return True  # "… Cysteine 532 in Subunit A. J Biol Chem 1994; 269", "… protein 90. J Biol Chem 1999;"
    if (
        previous.lower().lstrip("(") in _ABBREVIATIONS
        or previous in _JOURNAL_ABBREVIATIONS
        or re.fullmatch(r"(?:[A-Z]\.)*[A-Z]", previous)
    ):
        return False
    if re.fullmatch(r"\d{1,2}", previous) and re.search(rf"[{LOWER}] \S*$", before):
        return False  # an ordinal inside a title: "nach dem 2. Weltkrieg", "zum 60. Geburtstag"
    if previous[-1:].isdigit() and _LETTERS_IN.search(previous) and _VERSION_REST.match(following):
        return False  # a version broken at its point, as Google Scholar exports it: "Qwen2. 5 technical"
    return (
        not following[:1].islower()
        or following.lower().startswith(_LOWER_CONTINUATIONS)
        or _LOWER_CASE_JOURNAL.match(following) is not None
        or re.match(r"pages?\s+\d", following) is not None  # "… stumbles. page 9."
    )


def _question_ends_title(after: str) -> bool:
    """Whether a question mark ends the title: it does when a venue follows ("…for onset of symbol use?
    Child Development 55, 903"), not when the title goes on ("How many deer? A field guide to …")."""
    after = after.strip()
    parts = re.split(r"\.\s", after, maxsplit=1)
    if re.match(r"In\b", after):
        return not _prose_after_question(parts)
    if _title_goes_on(parts[0]):
        return False
    return len(parts) == 1 or re.search(r"\d", parts[0]) is not None or _journal_without_title(after)


def _title_goes_on(sentence: str) -> bool:
    """Whether the words after a question mark are the title's: its subtitle, set in lower case as BibTeX
    styles set it ("What disease does this patient have? a large-scale open domain question answering
    dataset from medical exams, 2020."). Of what follows a title, only "in", a volume's numbers and a
    preprint server ("arXiv") open in lower case; those, and words naming a venue, a publisher or a
    journal's numbers, end the title at the question mark."""
    sentence = _TRAILING_YEAR.sub("", sentence)
    return bool(
        re.match(rf"[{LOWER}]", sentence)
        and not _VENUE_OPENING.match(sentence)
        and not _VOLUME_NUMBERS.search(sentence)
        and not _VENUE_WORDS.search(sentence)
        and not _PUBLISHER.search(sentence)
        and not is_arxiv_venue(sentence)
    )


_TRAILING_YEAR = re.compile(rf",?\s*\(?{YEAR}[a-z]?\)?\.?\s*$")
# A journal's numbers ("12(2):136–147", "36,"), not a number among a subtitle's words ("… and 26 other
# resources").
_VOLUME_NUMBERS = re.compile(r"\d+\s*(?:[(:,;–-]|$)")
_VENUE_OPENING = re.compile(r"(?:in|pages?|pp|vol|volume|no|chapter|ch|arxiv|e?print)\b", re.IGNORECASE)


def _prose_after_question(parts: list[str]) -> bool:
    """Whether a sentence that starts "In" after a question mark is the title's own ("What's in a name? In
    some languages, grammatical gender. In Proceedings of …"), not its venue: it goes on in lower case,
    names no venue, publisher or number, and a venue marker follows it ("In", a year, a journal's numbers).
    """
    if len(parts) == 1:
        return False
    sentence, following = parts
    return bool(
        re.match(rf"In\s+[{LOWER}]", sentence)
        and not _VOLUME_NUMBERS.search(sentence)
        and not _VENUE_WORDS.search(sentence)
        and not _PUBLISHER.search(sentence)
        and not is_arxiv_venue(sentence)
        and (
            re.match(rf"(?:in:?\s|\(?{YEAR}\b|arxiv\b)", following, re.IGNORECASE)
            or _ends_reference(following)
        )
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


def _top_level_commas(text: str, limit: int) -> list[int]:
    return [
        match.start()
        for match in re.finditer(r",\s", text[:limit])
        if text.count("(", 0, match.start()) == text.count(")", 0, match.start())
    ]


_SEGMENT_NUMBERS = re.compile(r"\(?(?:\d|(?:vols?|no|nr|pp?|v|n[°o])\b\.?\s*\d)", re.IGNORECASE)
_INSTITUTION = re.compile(r"\b(?:University|Université|Universität|Universidad|Institute|Institut)\b")


def _is_tail_segment(segment: str) -> bool:
    """Whether a comma-separated segment is past the title: a publisher, a place, a genre, a venue, a series
    with its number ("Bibliotheca Aegyptia 2")."""
    return bool(
        _PUBLISHER.search(segment)
        or _is_place(segment)
        or _GENRE.match(segment)
        or _VENUE_WORDS.search(segment)
        or _ADDRESS.match(segment)
        or _INSTITUTION.search(segment)
        or re.match(r"in:?\s", segment, re.IGNORECASE)
        or _NOT_A_YEAR.search(segment.split()[-1] if segment.split() else "")
    )


def _comma_title_end(text: str, limit: int, only_fields: bool = False) -> int | None:
    """Where a title ends in a reference that separates its fields with commas ("Mehta L., Displaced By
    Development: Confronting Marginalisation, SAGE Publications Ltd, New Delhi, 2009."): before the first
    segment that is a publisher, place or venue, before a short name that a place follows ("Seuil, Paris"),
    or before the venue that numbers follow ("Geology, vol. 24"); else at the first comma before a segment
    that does not go on in lower case, or, with `only_fields`, nowhere (None)."""
    commas = _top_level_commas(text, limit)
    if not commas:
        return None
    ends = [*commas[1:], limit]
    segments = [text[comma + 1 : end].strip(" .") for comma, end in zip(commas, ends, strict=True)]
    for k, segment in enumerate(segments):
        following = segments[k + 1] if k + 1 < len(segments) else ""
        publisher = _is_place(following) and re.fullmatch(rf"(?:[{UPPER}&][\w.'’&-]*\s?){{1,3}}", segment)
        if _SEGMENT_NUMBERS.match(segment):  # the numbers after a venue: the segment before is the venue
            return commas[k - 1] if k and not _LOWER_CASE_GOES_ON.match(segments[k - 1]) else commas[k]
        if _is_tail_segment(segment) or publisher or (only_fields and _CUT_SHORT.fullmatch(segment)):
            return commas[k]  # (a lone "v" or "p": the sentence end was an abbreviation's, "…, v. 31")
    if only_fields:
        return None
    # A segment in lower case goes on the title's sentence ("Glm-4.6: Advanced agentic, reasoning and coding
    # capabilities, 2025."): words that no venue, publisher, date or note starts so ("to appear", "personal
    # communication", "technical report" do).
    return next(
        (
            c
            for c, segment in zip(commas, segments, strict=True)
            if not _LOWER_CASE_GOES_ON.match(_DATE_AFTER_TITLE.sub("", segment))
        ),
        None,
    )


_LOWER_CASE_GOES_ON = re.compile(
    rf"(?!(?i:{'|'.join(_PREPRINT_SERVERS)}|in|pp?|pages?|vols?|volume|no|nr|ed|eds|edited|preprint|unpublished|"
    r"online|last|accessed|retrieved|available|url|to|forthcoming|submitted|accepted|under|personal|manuscript|"
    r"technical|tech|report|thesis|dissertation|working|white|blog|software|dataset|github)\b)"
    rf"(?!{_CAMEL_CASE})"  # a journal's name in lower case: "eLife", "iScience"
    rf"[{LOWER}][^.:/\d]*$"  # words only: not what is left of an address ("day.co.za")
)


# Words that name a journal or a proceedings volume; with those of notes and genres, words that make a
# sentence a venue or a note, not a subtitle.
_VENUE_KINDS = (
    r"journal|review|proceedings|conference|symposium|workshop|zeitschrift|quarterly|bulletin|annals|"
    r"transactions|letters|magazine|newsletter|yearbook|jahrbuch|revue|rivista|revista|cahiers|acta|archives"
)
_VENUE_KIND = re.compile(rf"\b(?:{_VENUE_KINDS})\b", re.IGNORECASE)
_VENUE_WORDS = re.compile(
    rf"\b(?:{_VENUE_KINDS}|papers?|reports?|thesis|dissertation|press|release|series|edition|edn|vols?|volume|"
    r"hrsg|eds?|trans|tr|isbn|issn|(?:edited|translated|compiled|introduced|illustrated|introduction)\s+by)\b",
    re.IGNORECASE,
)
# "in 2017 IEEE Conference on …, 3319–3327" (AAS), "In Advances in Neural …" (ACS): a proceedings volume right
# after the authors and year, with no title before it. "In Defense of …" is a title.
_VOLUME_FIRST = re.compile(
    rf"in:?\s+(?:(?:18|19|20)\d\d\s|Proc\.|Advances\s+in\b|(?:{_VENUE_KINDS})\b)", re.IGNORECASE
)
_NOT_A_YEAR = re.compile(rf"(?<!\d)(?!{YEAR}(?:s|[-–]{YEAR})?(?!\d))\d+")  # "Argumentum 9", not "the 1980s"
_CUT_SHORT = re.compile(r"(?:\b(?:trans|tr|eds?|comp|hrsg|vols?)|\b\w)$", re.IGNORECASE)  # "…, trans."
_PLACE_ONLY = re.compile(rf"^[{UPPER}][\w.'’-]*(?:[ /,-]+[{UPPER}][\w.'’-]*){{0,3}}[.\s]*$")
_JOURNAL_AND_NUMBERS = re.compile(rf"^[{UPPER}][^\d.]{{1,100}}?[,.:]?\s+\(?\d")


def _ends_reference(text: str) -> bool:
    """Whether `text` reads as what follows a title and its subtitle: "In: …", a journal with its numbers,
    a "Place: Publisher" imprint, or a lone place of publication ("Boston.")."""
    return bool(
        re.match(r"in:?\s", text, re.IGNORECASE)
        or _JOURNAL_AND_NUMBERS.match(text)
        or _ADDRESS.match(text)
        or _PLACE_ONLY.match(text)
    )


def _is_subtitle(sentence: str, after: str) -> bool:
    """Whether the sentence after a title's first sentence end continues the title ("Managing Across
    Borders. The Transnational Solution. Boston.") rather than naming its venue."""
    return (
        len(_WORD.findall(sentence)) >= 2  # not "Nat." of "Nat. Genet." nor a lone "Dover."
        and not _CUT_SHORT.search(sentence)
        and not re.search(r"[^\W\d_]{2}\.\s", sentence)  # abbreviated: "Rev. enferm"
        and not _NOT_A_YEAR.search(sentence)
        and not re.match(r"in:?\s", sentence, re.IGNORECASE)
        and not _VENUE_WORDS.search(sentence)
        and not _PUBLISHER.search(sentence)
        and not _ADDRESS.match(sentence)
        and not is_arxiv_venue(sentence)
        and not re.match(r"[\d(]", after)
        and _ends_reference(after)
    )


def _with_subtitles(text: str, end: int, start: int) -> tuple[int, int]:
    """Move a title's end past subtitles that are themselves sentences; return the new (end, start)."""
    for _ in range(2):  # a title has a subtitle or two, never a paragraph
        venue_next = re.match(r"\s*(?:in:?\s|[\d(])", text[start:], re.IGNORECASE)  # "In: …", numbers
        if venue_next or _CUT_SHORT.search(text[max(0, end - 8) : end]):
            break
        following = _first_sentence_end(text[start:])
        if not following:
            break
        sentence, after = text[start : start + following[0]], text[start + following[1] :].lstrip()
        if not _is_subtitle(sentence.strip(), after):
            break
        end, start = start + following[0], start + following[1]
    return end, start


TitleFound = Literal[
    "quoted", "sentence", "imprint", "before_journal", "comma", "last_sentence", "whole_rest", "none"
]


@dataclass(frozen=True)
class _Title:
    text: str | None
    rest: str
    found: TitleFound
    subtitles: int = 0  # sentences taken past the first sentence end


# Where a title in lower case meets a journal's name in capitals, with no mark between them: "… from adult
# mammalian cells Nature 1997; 385:810", "… in the developing rat eye J Neurosci 1997; 17:1425".
# The title's last word is in lower case (sentence case) or bracketed: a capitalised word may open the name.
_TITLE_WORD_BEFORE_JOURNAL = re.compile(rf"(?:^|\s)(?:[{LOWER}\d][^\s]*|\([^\s()]+\))(\s+)(?=[{UPPER}])")
_JOINING_WORD_AT_END = re.compile(rf"\b(?:{_JOINING_WORDS})$")


def _unpunctuated_journal(text: str) -> int | None:
    """Where a Vancouver journal and its numbers start right after a title's last word, with no full stop
    between them; None when they do not. The name has no full stop either, as NLM's abbreviations have
    none ("… with Clustal X. Trends Biochem Sci 1998;" ends its title at the full stop), and a joining word
    ("… Function and Genetics 2001;") is inside a journal's name, not a title's last word."""
    for match in _TITLE_WORD_BEFORE_JOURNAL.finditer(text):
        start, end = match.span(1)
        if _JOINING_WORD_AT_END.search(text, 0, start):
            continue
        journal = _JOURNAL_FIRST.match(text, end)
        if journal and "." not in journal.group(1) and _VANCOUVER_NUMBERS.match(text, journal.end(1)):
            return start
    return None


def _take_title(text: str) -> _Title:
    """The title and the text after it.

    A quoted title wins; else a title ends before a "(Place: Publisher, Year)" note, or at the first
    sentence end followed by more words (a venue) — past a subtitle sentence that the venue follows; a
    reference without one ("J. Nelson, The Physics of Solar Cells, Imperial College Press, 2003.")
    separates its fields with commas.
    """
    quoted = _take_quoted(text)
    if quoted:
        return _Title(quoted[0], quoted[1], "quoted")
    end = _first_sentence_end(text)
    journal = _unpunctuated_journal(text)
    if journal is not None and (end is None or journal < end[0]):
        return _Title(text[:journal], text[journal:], "before_journal")
    publisher = _PUBLISHER_NOTE.search(text)
    if publisher and (end is None or publisher.start() < end[0]):
        return _Title(text[: publisher.start()], text[publisher.start() :], "imprint")
    if end and _WORD.search(text, end[1]):
        first = end[0]
        end = _with_subtitles(text, *end)
        subtitles = len(_SENTENCE_END.findall(text, first, end[0]))
        title = _DATE_AFTER_TITLE.sub("", text[: end[0]])
        pages = _PAGES_AFTER_TITLE.search(title)
        if pages:  # a chapter's pages after its title: "Closeness Counts in Social Choice, pp. 289–306."
            return _Title(title[: pages.start()], text[pages.start() + 1 :], "sentence", subtitles)
        return _Title(title, text[end[1] :], "sentence", subtitles)
    # A date alone after the first sentence: the sentence is the title, unless its commas set off a field (a
    # publisher, a place, a venue with its numbers). Its other commas are the title's own: "Push Smarter,
    # Not Harder: …. 2024.", "Safety, Security, and Reliability With …. 2026.".
    # So does a month and year after a comma, where the sentence ends: "LlaSMol: …, a Large-Scale,
    # Comprehensive, High-Quality … Dataset, August 2024." (the month says it is a date, not a venue's year).
    dated = end is not None and (
        bool(text[end[1] :].strip(" .,;")) or bool(_MONTH_AND_YEAR_AT_END.search(text, 0, end[0]))
    )
    comma = _comma_title_end(text, end[0] if end else len(text), only_fields=dated)
    if comma is not None:
        return _Title(text[:comma], text[comma + 1 :], "comma")
    if end:  # the title's year may close it in brackets: "… literature (2020). 2002.07339." (Nature's arXiv)
        title = _NOTE_AT_END.sub("", _DATE_AFTER_TITLE.sub("", text[: end[0]]))
        return _Title(title, text[end[1] :], "last_sentence")
    return _Title(_TITLE_TAIL.sub("", text), "", "whole_rest")


def _tidy_title(title: str) -> str | None:
    """The title as displayed; None when no word is left ("< >" around a URL that was cut out) or only a
    label of where the work is ("arXiv preprint" before an id the identifiers took)."""
    tidy = clean_title(_EDITION_NOTE.sub("", title))
    return tidy if _LETTERS.search(tidy) and not not_a_title(tidy) else None


# --- venue, volume, pages ------------------------------------------------------------------------------

_MONTHS = (
    "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|"
    "september|october|november|december|janvier|février|mars|avril|mai|juin|juillet|août|septembre|"
    "octobre|novembre|décembre|spring|summer|fall|autumn|winter"
)
# The date a style prints after the title and a comma or semicolon, before the next field ("Title, 2024b.
# arXiv preprint.", "Title, October 2023. Tweet.", "Opus, sonnet, haiku; 2024."): the reference's date,
# not the title's words.
_MONTH_AND_DAY = rf"(?:{_MONTHS})\.?\s+(?:\d{{1,2}},?\s+)?"
_DATE_AFTER_TITLE = re.compile(rf"[,;]\s*(?:{_MONTH_AND_DAY})?{YEAR}[a-z]?$", re.IGNORECASE)
_MONTH_AND_YEAR_AT_END = re.compile(rf",\s*{_MONTH_AND_DAY}{YEAR}[a-z]?$", re.IGNORECASE)
_VENUE_STOP = re.compile(
    # a volume, year or page number; not the year inside a proceedings' name ("of the 2019 Conference",
    # "ACL 2017, Student Research Workshop", "Coling 2008: Proceedings of the …", "LREC-COLING 2024 11th
    # Workshop"), nor a joint conference's volume that holds another event's proceedings ("(*SEM), Volume
    # 2: Proceedings of the Seventh International Workshop on Semantic Evaluation")
    r"[\s,.;:]+\(?(?=\d+(?!\w))(?!(?:1[89]|20)\d\d(?:(?:\s+|[,:]\s+(?=(?:Proceedings|Student|Workshop)\b))[A-Z]"
    r"|\s+\d{1,3}(?:st|nd|rd|th)\s)|\d+\s*:\s*Proceedings\b)"
    r"|\s*\((?=\d|pp?\.)"
    r"|(?:^|[\s,.;:(]+)(?!volume\s*\d+\s*:\s*Proceedings\b)"
    r"(?=(?:pp?|pages?|vols?|volume|band|bd|no|nos|nr|num|issue|art|chap|chapter)\b\.?\s*[A-Z]?\d)"
    r"|[\s,.;:(]+(?=n[°o]\s*\d)"
    r"|[\s,.;:(]+(?=(?:doi|https?|arxiv:|abs/|isbn|issn|available|retrieved|accessed|\[online\]))"
    r"|,\s+(?=(?:in press|to appear|forthcoming|edited by|special issue)\b|eds?\.\s)"
    r"|\s*[(\[](?=in press|forthcoming|on\s?line|internet|cited|citado|accessed)"  # "[online]"
    rf"|,\s+(?=(?:{_MONTHS})\b\.?)"
    rf"|\s+\(?(?=(?:{_MONTHS})\b\.?(?:\s*\d|,|\)|\())"  # "The New York Times (July 2, 1969)", "… July(11)"
    r"|,\s+(?:vol\.\s*)?(?=(?-i:[IVXLC]{2,})\b)"  # "Journal of Finance, Vol. XV", "…Review, XLII"
    # "…. New York: Springer": a publisher's address (not a volume's number: "…, Speech and Signal
    # Processing 1: 705-708")
    r"|[.,]\s+(?!Volume\s*\d+\s*:\s*Proceedings\b)(?=[A-Z][\w .]{0,30}(?<!\d):\s)",
    re.IGNORECASE,
)
_PAGES_AFTER_TITLE = re.compile(r",\s*pp?\.\s*\d+\s*[–-]\s*\d+$")
_VENUE_LEAD = re.compile(rf"^[\s.,;:/]*(?:\(?{YEAR}[a-z]?\)?[\s.,;:]+)?(in:?\s+)?", re.IGNORECASE)
# Editors before a book title: "A. Editor (Ed.), Book", "(M. Cooper, …, Eds.) Book", "A. Editor, ed., Book",
# the ACL Anthology's "A. Editor, B. Editor, and C. Editor, editors, Proceedings …" (a conference's list of
# editors runs to a dozen names), and the year some styles repeat after them: "In: Bick, W. (Hrsg.) (1984):
# Book".
_EDITORS = re.compile(
    r"^(?:[^()]{0,500}\((?:eds?|hrsg|hg|a cura di)\.?\)|\([^()]{0,500}\beds?\.?\)|[^,()]{0,60},\s+eds?\.,"
    r"|[^()\d]{0,500}?,\s+editors?,)"
    rf"[.,:]?\s*(?:\({YEAR}[a-z]?\)[.,:]?\s*)?",
    re.IGNORECASE,
)
# "Cambridge: Polity Press, 1994." / "(London: Routledge, 1992)" / "Paris : Gründ": a book's publisher.
_ADDRESS = re.compile(
    rf"^\(?[{UPPER}][\w.'-]*(?:[ ,]+[{UPPER}][\w.'-]*){{0,3}}\s?:\s"  # "New York: "
    rf"[^:\d]{{1,60}}?(?:,\s*{YEAR}[a-z]?)?\)?[.\s]*$"  # "Random House, 1987."
)
_PUBLISHER = re.compile(
    r"\b(?:press|publishers?|publications|publishing (?:house|company)|verlag|books|editions?|éditions|wiley|"
    r"elsevier|springer|routledge|macmillan|mcgraw-hill|prentice[- ]hall|inc|ltd|gmbh)\b",
    re.IGNORECASE,
)
_GENRE = re.compile(
    r"^(?:unpublished\s+)?(?:(?:ph\.?\s?d\.?|master['’]?s|doctoral|doctor['’]?s|bachelor['’]?s|diploma)?\s*"
    r"(?:thesis|dissertation)|preprint|technical report|tech\. rep|unpublished(?: manuscript)?|manuscript|"
    r"mimeo|working paper|in press)(?=[.,;:]|$)",
    re.IGNORECASE,
)
# Notes where a venue would stand: "Edited by …", "Translated by …", "Eds. …", "Rev. ed.", "2nd edn", a
# date ("July 2024a", "Sept. 12, 2023"). ("Trans. Vern W. McGee" is a translator, "Trans. Amer. Math. Soc."
# and "Trans. of the ASME" are journals.)
_NOTE = re.compile(
    r"^(?:(?:edited|translated|compiled|introduction|foreword)\s+by\b|eds?\.|rev\.\s+ed\b|\d+(?:st|nd|rd|th)\s+ed"
    rf"|(?:trans|tr)\.?\s+(?-i:[A-Z][a-z]+)\b(?!\.)|{_MONTH_AND_DAY}{YEAR}[a-z]?$|(?:{_MONTHS})\.?$)",
    re.IGNORECASE,
)
# Cities that books name as their place of publication ("Boston.", "London/New York.", "Sage, London"), and
# the countries and US states imprints add to them ("Cambridge, MA", "Beijing, China"): a venue that is a
# place, or a place and a publisher, with no journal numbers after it, is a book's imprint. (Russian
# imprints abbreviate: "М." is Moscow, "СПб." St Petersburg.)
_PLACES = frozenset({
    "London", "New York", "Oxford", "Cambridge", "Boston", "Chicago", "Princeton", "Stanford", "Berkeley",
    "Los Angeles", "San Francisco", "Thousand Oaks", "Newbury Park", "Beverly Hills", "Washington",
    "Baltimore", "Philadelphia", "Hillsdale", "Mahwah", "Englewood Cliffs", "New Haven", "Ithaca",
    "Toronto", "Montreal", "Sydney", "Melbourne", "Manchester", "Edinburgh", "Dublin", "Paris", "Lyon",
    "Berlin", "Frankfurt", "Frankfurt am Main", "Frankfurt a. M", "München", "Munich", "Hamburg", "Köln",
    "Cologne", "Bonn", "Stuttgart", "Wiesbaden", "Opladen", "Weinheim", "Leipzig", "Heidelberg",
    "Göttingen", "Düsseldorf", "Wien", "Vienna", "Bern", "Zürich", "Zurich", "Basel", "Geneva", "Genève",
    "Amsterdam", "Leiden", "Utrecht", "Brussels", "Bruxelles", "Madrid", "Barcelona", "Lisbon", "Lisboa",
    "Roma", "Rome", "Milano", "Milan", "Bologna", "Torino", "Firenze", "Warszawa", "Warsaw", "Prague",
    "Praha", "Budapest", "Moscow", "Москва", "М", "СПб", "Tokyo", "Beijing", "Delhi", "New Delhi",
    "Singapore", "Stockholm", "Oslo", "Copenhagen", "Helsinki", "USA", "UK",
    "United Kingdom", "England", "Germany", "Deutschland", "France", "Italy", "Spain", "Portugal",
    "Netherlands", "Belgium", "Switzerland", "Austria", "Poland", "Russia", "Sweden", "Norway", "Denmark",
    "Finland", "Canada", "Australia", "Japan", "China", "India", "Brazil", "Mexico", "South Africa",
    "California", "New Jersey", "Massachusetts", "Illinois", "Michigan", "Pennsylvania", "Connecticut",
    "Maryland", "Virginia", "Texas", "Ohio", "Florida", "Colorado", "Minnesota", "Wisconsin", "Oregon",
    "Washington DC",
})  # fmt: skip


def _is_place(text: str) -> bool:
    """Whether `text` names places only: "London", "London/New York", "London-New York"."""
    parts = re.split(r"\s*[/–-]\s*|\s+(?:and|&)\s+", text.strip(" ."))
    return all(part in _PLACES for part in parts)


_REGION = re.compile(r"[A-Z]{2}|(?:[A-Z]\.\s?){1,3}|USA|UK")  # "CA", "N.J.", "D.C."
_BARE_TAIL = re.compile(rf"[\s.,;:()]*(?:(?:{_MONTHS})\.?\s*)?(?:{YEAR}[a-z]?)?[\s.,;:()]*", re.IGNORECASE)
_TRAILING_PLACE = re.compile(r"[.,]\s+([^.,]+?)\.?$")  # "The Dynamic Firm. Oxford"


def _is_imprint(venue: str) -> bool:
    """Whether `venue` is where and by whom a book was published, not a journal's or a collection's name."""
    parts = [p.strip(" .()") for p in re.split(r"\s*(?:[/,;]|\band\b|&)\s*", venue) if p.strip(" .()")]
    places = [_is_place(p) or _REGION.fullmatch(p) is not None for p in parts]
    return (
        bool(parts)
        and (places[0] or places[-1])
        and (all(places) or len(parts) <= 3)
        and all(place or len(part.split()) <= 5 for part, place in zip(parts, places, strict=True))
        and not _VENUE_KIND.search(venue)
    )


VenueFound = Literal["introduced", "after_title", "arxiv", "none"]


@dataclass(frozen=True)
class _Venue:
    name: str | None
    rest: str  # what follows the venue: volume, pages, date, …
    found: VenueFound


def _take_venue(text: str) -> _Venue:
    """The journal or proceedings name at the start of `text`, and what follows it (volume, pages, …)."""
    lead = _VENUE_LEAD.match(text)
    introduced = bool(lead and lead.group(1))  # "In: …" names a container for sure
    text = _EDITORS.sub("", text[lead.end() if lead else 0 :], count=1)
    if _ADDRESS.match(text):
        return _Venue(None, text, "none")
    stop = _VENUE_STOP.search(text)
    venue, rest = (text[: stop.start()], text[stop.start() :]) if stop else (text, "")
    venue = venue.strip(" .,;:")
    if is_arxiv_venue(venue):
        return _Venue(ARXIV_VENUE, rest, "arxiv")
    publisher = _PUBLISHER.search(venue) and not _VENUE_KIND.search(venue)  # not "J. of Scholarly Publishing"
    if not _WORD.search(venue) or publisher or _GENRE.match(venue) or _NOTE.match(venue):
        return _Venue(None, rest, "none")
    if not introduced and _BARE_TAIL.fullmatch(rest) and _is_imprint(venue):
        return _Venue(None, rest, "none")  # a book's place or publisher: no journal numbers after it
    place = _TRAILING_PLACE.search(venue)
    abbreviated = any(  # "Proc. Natl. Acad. Sci. USA", "J. Bot. Soc. Bot. France"
        len(word) <= 2 or word in _JOURNAL_ABBREVIATIONS for word in re.findall(r"(\w+)\.\s", venue)
    )
    if place and _is_place(place.group(1)) and not abbreviated:
        venue = venue[: place.start()]  # "In A. Chandler (eds.): The Dynamic Firm. Oxford."
    return _Venue(venue, rest, "introduced" if introduced else "after_title")


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


# A date the reference was read on, not published in: "accessed 5 May 2021", "[cited 2012 Oct 2]".
_LATER_DATE = re.compile(
    r"\b(?:accessed|retrieved|visited|viewed|cited|citado|consulted|consulté|abgerufen|zugegriffen|epub)\b.*",
    re.IGNORECASE | re.DOTALL,
)
# The name a year ends: "NODALIDA 1987", "*SEM 2012", "ACL 2017" (a month's name dates, it names nothing).
_NAME_BEFORE_YEAR = re.compile(rf"(?:^|[\s(/])\*?([{UPPER}][\w*&'-]*)\s+$")
_MONTH_NAME = re.compile(rf"(?:{_MONTHS})\.?", re.IGNORECASE)
_NAME_CHARS = 60  # how far before a year its name is looked for


def _year_after_title(text: str) -> tuple[int, YearFound] | None:
    """The publication year in what follows the title. A proceedings' name may hold a year of its own,
    even another one ("Proceedings of NODALIDA 1987 (1988)", "In ACL 2017, 2019"), and every style prints
    the date after the container's name: a year that ends a name is passed over when a later one follows."""
    text = _LATER_DATE.sub("", text)
    years = list(_YEAR_CANDIDATE.finditer(text))
    start = 0  # where the text the year is read from starts: after the years passed over
    for year in years[:-1]:
        before = text[max(start, year.start() - _NAME_CHARS) : year.start()]
        name = _NAME_BEFORE_YEAR.search(before)
        if name is None or _MONTH_NAME.fullmatch(name.group(1)):
            break
        start = year.end()
    return _year_in(text[start:])


# --- the whole -----------------------------------------------------------------------------------------


AuthorsEnd = Literal["year", "quote", "delimiter", "comma", "weak", "organization", "placeholder", "none"]


@dataclass(frozen=True)
class Provenance:
    """How the parser found each field: the evidence `refhound.refstring.confidence` scores."""

    authors_end: AuthorsEnd  # what closed the author block: a year after it, a quote, a period or colon, …
    title: TitleFound  # the delimiter that bounded the title
    subtitles: int  # sentences the title runs on past its first sentence end
    journal_first: bool  # the reference starts with a journal's or a volume's name, so it has no title
    year: YearFound
    venue: VenueFound


@dataclass(frozen=True)
class DetailedParse:
    """The parsed fields and how each was found."""

    fields: ParsedFields
    provenance: Provenance


def _authors_end(block: AuthorBlock, organization: bool, leading_year: bool, rest: str) -> AuthorsEnd:
    if block.placeholder:
        return "placeholder"
    if not block.names:
        return "none"
    if organization:
        return "organization"
    if leading_year:
        return "year"
    if rest[:1] in _CLOSING_QUOTES:
        return "quote"
    if block.delimiter in (".", ":"):
        return "delimiter"
    return "comma" if block.delimiter else "weak"


def _title_from_venue(title: _Title, rest: str, venue: _Venue) -> tuple[_Title, _Venue]:
    """A title cut short at a sentence end leaves its end in the venue ("Cladistic analysis of Reduviidae
    (Heteroptera: Cimicomorpha) based on morphological characters. Syst. Entomol. 33"): when a journal's
    numbers follow and the venue holds a sentence end, what precedes it belongs to the title."""
    if title.found != "sentence" or not title.text or venue.found != "after_title" or not venue.name:
        return title, venue
    end = _first_sentence_end(venue.name)
    if not end or _BARE_TAIL.fullmatch(venue.rest) or not _WORD.search(venue.name, end[1]):
        return title, venue
    head, name = venue.name[: end[0]], venue.name[end[1] :].strip(" .,;:")
    start = rest.find(head, len(title.text))
    if (
        start < 0
        or not re.match(rf"[{UPPER}<\"“]", name)  # not "[online]"
        or len(_WORD.findall(head)) < 2  # not the "Nat." of "Nat. Rev. Neurosci."
        or re.search(r"\b[^\W\d_]+\.\s", head)  # abbreviated: "Rev. Esc. Enf.", "SIAM J. Discr."
        or re.search(rf"\b[{UPPER}][{LOWER}]{{0,5}}$", head)  # ends abbreviated: "Discrete Contin."
        or _CUT_SHORT.search(head)
        or _VENUE_KIND.search(head)
        or _PUBLISHER.search(head)
        or re.match(r"in:?\s", head, re.IGNORECASE)
    ):
        return title, venue
    merged = _Title(rest[: start + len(head)], title.rest, "sentence", title.subtitles + 1)
    return merged, _Venue(name, venue.rest, venue.found)


# A body as author: "Centers for Disease Control and Prevention (CDC) (2003)", "German National Ethics
# Council (2004).": two or more words, capitalised but for function words, then its acronym.
_ORG_WORD = rf"(?:[{UPPER}][\w’'´.&-]*|of|for|and|on|the|in|de|du|des|für|der|und|&)"
_ORG_HEAD = (  # the noun that makes a name a body's: "… Council", "Ministry of …", "Statistisches Bundesamt"
    r"(?=[^()]*\b(?:Council|Commission|Association|Institute|Institut|Department|Ministry|Ministerium|Bank|"
    r"Agency|Organi[sz]ation|Office|Bureau|Service|Cent(?:er|re)s?|Society|Foundation|Committee|Board|"
    r"Administration|Bundesamt|Amt|Group|Union|Nations|Authority|Federation|Secretariat|Corporation)\b)"
)
_ORGANIZATION_NAME = rf"{_ORG_HEAD}({_ORG_WORD}(?:[ ,]+{_ORG_WORD}){{1,12}})(?:\s\([^()\d]{{1,40}}\))?"
_ORGANIZATION = re.compile(rf"^{_ORGANIZATION_NAME}[.,]?\s*(?=\({YEAR}[a-z]?\)|[“\"«„‘])")


# A company by its legal form ("Meta Platforms, Inc.", "Gurobi Optimization, LLC."), or a body by a
# handle or domain name that no person's name has ("AI@Meta.", "Z.ai."), before the sentence ends: such
# an author is one name wherever it stands, so it is read before the name grammar splits it. (Not "AG" or
# "PBC": "Chen AG" is a name with Vancouver's initials.)
_COMPANY = re.compile(
    rf"^((?:{_ORG_WORD}\s+){{0,5}}{_ORG_WORD},?\s+(?:Inc|LLC|L\.L\.C|Ltd|Limited|GmbH|Corp)\.?)"
    rf"(?:\.|,)?\s+(?=\S)"
)
_HANDLE = re.compile(r"^(\w+(?:@\w+|(?:\.[a-z]{2,})+))\.\s+(?=\S)")


def _take_company(text: str) -> AuthorBlock | None:
    """A company or a handle as the author, whatever follows it."""
    match = _COMPANY.match(text) or _HANDLE.match(text)
    return AuthorBlock([match.group(1)], False, text[match.end() :], ".") if match else None


def _take_organization(text: str) -> AuthorBlock | None:
    """An organization as the author, where no person's name starts the reference."""
    match = _ORGANIZATION.match(text)
    return AuthorBlock([match.group(1).strip(" ,.")], False, text[match.end() :]) if match else None


_TITLE_CASE_WORD = re.compile(rf"[{UPPER}][{LOWER}]+(?:-[{UPPER}]?[{LOWER}]+)*")


def _is_bare_title(block: AuthorBlock) -> bool:
    """Whether what the name grammar read as one person's name, with nothing after it, is a title alone:
    three or more capitalised words with no initial, comma or particle ("Generative Adversarial Networks",
    "Jordan Networks Revisited"). A reference list cites works, not a lone person: the title is the
    likelier reading, and a title can be looked up."""
    if len(block.names) != 1 or block.truncated or block.rest.strip(" .,;:"):
        return False
    words = block.names[0].split()
    return len(words) >= 3 and all(_TITLE_CASE_WORD.fullmatch(word) for word in words)


def _arxiv_if_unnamed(venue: _Venue, ids: _Identifiers, raw: str) -> _Venue:
    """A preprint that names no venue but arXiv's id is an arXiv paper."""
    if venue.name is None and ids.arxiv_id and "arxiv" in raw.lower():
        return _Venue(ARXIV_VENUE, venue.rest, "arxiv")
    return venue


def _fields(
    ids: _Identifiers, title: str | None, authors: AuthorBlock, venue: _Venue, year: int | None
) -> ParsedFields:
    volume, pages = _volume_and_pages(venue.rest)
    return ParsedFields(
        title=_tidy_title(title) if title else None,
        authors=authors.names,
        authors_truncated=authors.truncated,
        venue=venue.name,
        year=year,
        doi=ids.doi,
        arxiv_id=ids.arxiv_id,
        url=ids.url,
        volume=volume,
        pages=pages,
    )


def parse_reference_string_detailed(raw: str) -> DetailedParse:
    """`parse_reference_string`, with how each field was found."""
    ids = _take_identifiers(_prepare(raw))
    company = _take_company(ids.text)
    authors = company or take_authors(ids.text)
    if _is_bare_title(authors):
        authors = AuthorBlock([], False, ids.text)
    organization = company or (None if authors.names or authors.placeholder else _take_organization(ids.text))
    authors = organization or authors
    leading_year, rest = _take_leading_year(authors.rest)
    journal_first = _journal_without_title(rest) or _VOLUME_FIRST.match(rest) is not None
    title = _Title(None, rest, "none") if journal_first else _take_title(rest)
    found_year = _year_after_title(title.rest) or _year_in(rest) or _year_in(ids.text)
    year: int | None = leading_year
    year_found: YearFound = "after_authors" if leading_year else "none"
    if year is None and found_year:
        year, year_found = found_year
    venue = _take_venue(title.rest)
    title, venue = _title_from_venue(title, rest, venue)
    venue = _arxiv_if_unnamed(venue, ids, raw)
    fields = _fields(ids, title.text, authors, venue, year)
    provenance = Provenance(
        authors_end=_authors_end(authors, organization is not None, leading_year is not None, rest),
        title=title.found if fields.title else "none",
        subtitles=title.subtitles,
        journal_first=journal_first,
        year=year_found,
        venue=venue.found if fields.venue else "none",
    )
    return DetailedParse(fields, provenance)


def parse_reference_string(raw: str) -> ParsedFields:
    """Parse one formatted reference (ACL, APA, IEEE, LNCS, Vancouver, Chicago, arXiv, …) into fields."""
    return parse_reference_string_detailed(raw).fields


# A year closing the author block: "… Kumar. 2002." / "… & Li, L. (2009)."
_YEAR_AT_END = re.compile(rf"[\s(]*({YEAR})[a-z]?\)?[.,:;]?\s*$")


def _printed_title(text: str, title: str) -> tuple[int, int] | None:
    """Where `text` prints `title` as a field of its own, word for word (case, punctuation and spacing
    aside): after the start or a mark that closes a field, and before one — a title printed with words
    added before or after it is another title."""
    # The title as the text was prepared: a span of the raw string keeps its ligatures ("Quantiﬁcation").
    words = re.findall(r"\w+", unicodedata.normalize("NFC", title).translate(LIGATURES))
    if len(words) < 3:  # a short title could be any words of the string
        return None
    pattern = (
        r"(?:^|(?<=[.,:;)\]“\"‘'«„]))\s*"
        + r"[\W_]*".join(map(re.escape, words))
        + r"(?=\s*(?:[.,:;?!”\"’'»)\]]|$))"
    )
    match = re.search(pattern, text, re.IGNORECASE)
    return match.span() if match else None


def parse_reference_string_around(raw: str, title: str) -> ParsedFields | None:
    """The fields of `raw` read with `title` as its title: the names before it, the venue after it.

    For a string that prints a title known from elsewhere (the record its DOI leads to) where the parser
    took something else for the title; None when the string does not print `title`."""
    ids = _take_identifiers(_prepare(raw))
    span = _printed_title(ids.text, title)
    if span is None:
        return None
    before, after = ids.text[: span[0]].rstrip(" “\"«„‘'"), ids.text[span[1] :]
    year_match = _YEAR_AT_END.search(before)
    if year_match:
        before = before[: year_match.start()]
    authors = split_name_list(before)
    after = re.sub(r"^[\s”\"»“’'.,:;?!]+", "", after)
    found_year = _year_after_title(after)
    year = int(year_match.group(1)) if year_match else found_year[0] if found_year else None
    venue = _arxiv_if_unnamed(_take_venue(after), ids, raw)
    return _fields(ids, ids.text[span[0] : span[1]], authors, venue, year)
