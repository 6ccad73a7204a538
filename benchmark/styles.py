"""Citation styles the generator renders items in: ACL, IEEE, APA and Springer (LNCS)-like by default;
Vancouver (NLM), Chicago author-date, MLA and Nature on request.

Each style lays out the same `Cited` fields the way that style's bibliography does — name forms ("Jacob
Devlin", "J. Devlin", "Devlin, J.", "Devlin J", "Devlin, Jacob"), where the year goes, quoted or plain
titles, "In"/"in"/"In:" before proceedings, DOIs as `doi:` or URLs — so that `--input raw` exercises the
reference-string parser on the layouts a verifier meets in real manuscripts. IEEE, Vancouver, MLA and
Nature shorten long author lists with "et al."; `shown_authors` tells the generator, so an author error is
never hidden behind "et al.".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from refhound.benchmark.sample import Cited
from refhound.normalize.names import PersonName, parse_name
from refhound.normalize.venues import parse_venue

STYLES = ("acl", "ieee", "apa", "springer")  # the default mix; the figures in docs/benchmarks.md use it
ALL_STYLES = (*STYLES, "vancouver", "chicago", "mla", "nature")
# Authors each style prints in full; past that, how many it prints before "et al.".
_SHORTENED: dict[str, tuple[int, int]] = {
    "ieee": (6, 1),
    "vancouver": (6, 6),
    "mla": (2, 1),
    "nature": (5, 1),
}
# A capitalised plain word (no inner capitals, no digits): APA's sentence case lower-cases it.
_PLAIN_CAPITALISED = re.compile(r"^[A-Z][a-z]+(?:-[a-z]+)*[,:;.?!]?$")
# A nickname between the given and family names ("Joseph (Seffi) Naor", "Xiang 'Anthony' Chen"): styles
# abbreviate the given name only.
_NICKNAME = re.compile(r"\s+(?:\([^()]*\)|'[^']*'|\"[^\"]*\"|“[^”]*”)\s+")
# dblp/ACL venue strings end with the edition's dates and place ("…, ICML 2019, 9-15 June 2019, Long Beach,
# California, USA"); citations usually stop after the acronym and year.
_VENUE_EDITION = re.compile(r",\s+[A-Z][\w&'/*-]*(?:\s[A-Z][\w&'/*-]*)?\s(?:19|20)\d\d\b")


def shown_authors(style: str, n: int) -> int:
    """How many of `n` authors the style prints before "et al."."""
    in_full, shown = _SHORTENED.get(style, (n, n))
    return shown if n > in_full else n


def cited_venue(venue: str) -> str:
    """The venue as a citation gives it: a dblp venue string cut after its acronym and year, when the cut
    keeps the recognised series (an unrecognised venue is compared by its text, so it is kept whole)."""
    match = _VENUE_EDITION.search(venue)
    if not match:
        return venue
    key = parse_venue(venue).key
    return venue[: match.end()] if key is not None and parse_venue(venue[: match.end()]).key == key else venue


def _initials(given: str, *, spaced: bool) -> str:
    """ "Ming-Wei" -> "M.-W.", "Christopher D." -> "C. D." (or "C.D." unspaced)."""
    parts = []
    for word in given.split():
        pieces = [p for p in word.split("-") if p]
        parts.append("-".join(f"{p[0]}." for p in pieces))
    return (" " if spaced else "").join(parts)


def _name(name: str, form: str) -> str:
    person = parse_name(_NICKNAME.sub(" ", name).strip())
    given, family = person.given.split(), person.family
    if given and given[-1].islower():  # a particle the name parser left with the given names: "Sabine
        while given and given[-1].islower():  # Schulte im Walde" is "Schulte im Walde, S."
            family = f"{given.pop()} {family}"
        if len(given) > 1:
            family = f"{given.pop()} {family}"
    if not given or not family:
        return name
    person = PersonName(" ".join(given), family)
    if form == "initials-first":
        return f"{_initials(person.given, spaced=True)} {person.family}"
    if form == "family-first":
        return f"{person.family}, {_initials(person.given, spaced=True)}"
    if form == "family-first-compact":
        return f"{person.family}, {_initials(person.given, spaced=False)}"
    if form == "vancouver":  # "Devlin J", "Chang MW", "Yih WT" (Wen-tau)
        initials = _initials(person.given, spaced=False).replace(".", "").replace("-", "")
        return f"{person.family} {initials.upper()}"
    if form == "family-first-full":
        return f"{person.family}, {person.given}"
    return name


def _and_list(names: list[str], conjunction: str, oxford: bool) -> str:
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} {conjunction} {names[1]}" if conjunction != "&" else f"{names[0]}, & {names[1]}"
    return ", ".join(names[:-1]) + ("," if oxford else "") + f" {conjunction} {names[-1]}"


def sentence_case(title: str) -> str:
    """APA's sentence case: plain capitalised words lower-cased except the first and after a colon;
    acronyms and names with inner capitals (BERT, GloVe) are kept."""
    words = title.split(" ")
    out = []
    for i, word in enumerate(words):
        starts = i == 0 or words[i - 1].endswith((":", "?", "!"))
        out.append(word.lower() if not starts and _PLAIN_CAPITALISED.match(word) else word)
    return " ".join(out)


def _end(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."


def _identifiers(c: Cited, doi_form: str) -> list[str]:
    out = []
    if c.doi:
        out.append(f"doi: {c.doi}" if doi_form == "doi" else f"https://doi.org/{c.doi}")
    if c.arxiv_id:
        out.append(f"arXiv:{c.arxiv_id}")
    return out


def _acl(c: Cited) -> str:
    parts = [_end(_and_list(list(c.authors), "and", oxford=True)), f"{c.year}.", _end(c.title)]
    if c.venue:
        parts.append(_end(f"In {c.venue}" if c.entry_type != "article" else c.venue))
    parts += [_end(x) if not x.startswith("http") else x for x in _identifiers(c, "url")]
    return " ".join(parts)


def _ieee(c: Cited) -> str:
    names = _et_al("ieee", [_name(a, "initials-first") for a in c.authors])
    authors = " ".join(names) if names[-1:] == ["et al."] else _and_list(names, "and", oxford=True)
    text = f'{authors}, "{c.title.rstrip(".")},"'
    if c.venue:
        text += f" in {c.venue}," if c.entry_type != "article" else f" {c.venue},"
    text += f" {c.year}"
    for identifier in _identifiers(c, "doi"):
        text += f", {identifier}"
    return _end(text)


def _apa(c: Cited) -> str:
    names = [_name(a, "family-first") for a in c.authors]
    parts = [f"{_and_list(names, '&', oxford=True)} ({c.year}).", _end(sentence_case(c.title))]
    if c.venue:
        parts.append(_end(f"In {c.venue}" if c.entry_type != "article" else c.venue))
    parts += _identifiers(c, "url")
    return " ".join(parts)


def _springer(c: Cited) -> str:
    names = [_name(a, "family-first-compact") for a in c.authors]
    text = f"{', '.join(names)}: {_end(c.title)}{_venue_and_year(c, 'In:')}"
    return " ".join([text, *_identifiers(c, "url")])


def _venue_and_year(c: Cited, lead: str) -> str:
    """ " In: Venue (2019)." after a title, `lead` for proceedings only; " (2019)." without a venue."""
    if not c.venue:
        return f" ({c.year})."
    return f" {lead} {c.venue} ({c.year})." if c.entry_type != "article" else f" {c.venue} ({c.year})."


def _first_inverted(c: Cited) -> list[str]:
    """Chicago's and MLA's names: the first one inverted ("Devlin, Jacob"), the others as they are."""
    return [_name(c.authors[0], "family-first-full"), *c.authors[1:]] if c.authors else []


def _et_al(style: str, names: list[str]) -> list[str]:
    """The names the style prints, "et al." last when it shortens the list."""
    shown = shown_authors(style, len(names))
    return names if shown == len(names) else [*names[:shown], "et al."]


def _vancouver(c: Cited) -> str:
    names = _et_al("vancouver", [_name(a, "vancouver") for a in c.authors])
    parts = [_end(", ".join(names)), _end(c.title)]
    if c.venue:
        parts.append(f"In: {c.venue}; {c.year}." if c.entry_type != "article" else f"{c.venue}. {c.year}.")
    else:
        parts.append(f"{c.year}.")
    parts += [f"doi:{c.doi}"] if c.doi else []
    parts += [f"arXiv:{c.arxiv_id}"] if c.arxiv_id else []
    return " ".join(parts)


def _chicago(c: Cited) -> str:
    names = _first_inverted(c)
    authors = f"{names[0]}, and {names[1]}" if len(names) == 2 else _and_list(names, "and", oxford=True)
    parts = [_end(authors), f"{c.year}.", f"“{_end(c.title.rstrip('.'))}”"]
    if c.venue:
        parts.append(_end(f"In {c.venue}" if c.entry_type != "article" else c.venue))
    parts += _identifiers(c, "url")
    return " ".join(parts)


def _mla(c: Cited) -> str:
    names = _first_inverted(c)
    authors = f"{names[0]}, and {names[1]}" if len(names) == 2 else ", ".join(_et_al("mla", names))
    text = f"{_end(authors)} “{_end(c.title.rstrip('.'))}”"
    text += f" {c.venue}, {c.year}" if c.venue else f" {c.year}"
    for identifier in _identifiers(c, "url"):
        text += f", {identifier}"
    return _end(text)


def _nature(c: Cited) -> str:
    names = _et_al("nature", [_name(a, "family-first") for a in c.authors])
    if names[-1] == "et al." or len(names) < 2:
        authors = " ".join(names)  # "Devlin, J. et al."
    else:
        authors = f"{', '.join(names[:-1])} & {names[-1]}"
    text = f"{authors} {_end(c.title)}{_venue_and_year(c, 'in')}"
    return " ".join([text, *_identifiers(c, "url")])


_RENDERERS: dict[str, Callable[[Cited], str]] = {
    "acl": _acl,
    "ieee": _ieee,
    "apa": _apa,
    "springer": _springer,
    "vancouver": _vancouver,
    "chicago": _chicago,
    "mla": _mla,
    "nature": _nature,
}


def render(cited: Cited, style: str) -> str:
    """The citation as one formatted reference string in `style`."""
    return _RENDERERS[style](cited)
