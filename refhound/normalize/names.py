"""Person names: parse the usual citation forms, and decide whether a cited name can be a record's name."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from refhound.normalize.text import collapse_whitespace, fold, latex_to_unicode

_ET_AL = re.compile(  # "(and) 1 others": the ACL template's count of the names left out; "more authors"
    r"^\W*(?:(?:and|&)\s*)?(?:et\.?\s*al(?:\.|ii|ia)?|(?:\d+\s+)?(?:others|more(?:\s+authors)?)|al\.|etc\.?)\W*$",
    re.IGNORECASE,
)
_DBLP_NUMBER = re.compile(r"\s+\d{4}$")
_TRAILING_ET_AL = re.compile(r"\s+et\.?\s*al\.?$", re.IGNORECASE)  # "David Jones et al" as one author
_SUFFIX = re.compile(r"^(?:jr|sr|jnr|snr|junior|júnior|ii|iii|iv)\.?$", re.IGNORECASE)
_INITIALS_DOTTED = re.compile(r"^(?:\w\.[-‐]?)+$")  # "J.", "J.A.", "J.-C."
# Vancouver style: "Smith JA", "Müller Ö"; at most this many capitals.
_MAX_BARE_INITIALS = 4
_WORD = re.compile(r"\w{2,}")
_PART = re.compile(r"[^\W_]+\.?")
# Family-name particles. Capitalised, only those that are rarely a name on their own count ("Le", "Da" and
# "Do" are common Vietnamese and Chinese names).
_PARTICLES = frozenset({
    "van", "von", "der", "den", "de", "del", "della", "delle", "dei", "degli", "di", "da", "das", "dos", "do",
    "du", "la", "le", "les", "lo", "ter", "ten", "te", "op", "zu", "zum", "zur", "af", "av", "bin", "ibn",
    "bint", "al", "el", "y", "e", "i", "vander", "vanden",
})  # fmt: skip
_CAPITAL_PARTICLES = frozenset({
    "van", "von", "der", "den", "de", "del", "della", "di", "du", "ter", "ten", "zu", "vander", "vanden",
    "st.", "ste.",  # "Saint" abbreviated: "Brian St. Thomas"
})  # fmt: skip
_CONJUNCTIONS = frozenset({"y", "e", "i"})  # Spanish/Portuguese/Catalan double surnames: "Agüera y Arcas"


class NameMatch(StrEnum):
    EXACT = "exact"
    COMPATIBLE = "compatible"
    NONE = "none"


@dataclass(frozen=True)
class PersonName:
    given: str
    family: str

    @property
    def display(self) -> str:
        return f"{self.given} {self.family}".strip()


def is_et_al(text: str) -> bool:
    """True for the markers that stand for omitted authors: "et al.", "et. al", "and others", "others"."""
    return bool(_ET_AL.match(text.strip()))


def _is_initials(token: str) -> bool:
    return bool(_INITIALS_DOTTED.match(token)) or _is_bare_initials(token)


def _is_bare_initials(token: str) -> bool:
    """Capitals without periods ("JA"), or single letters joined by hyphens for a hyphenated given name
    ("M-W", "W-t" for Wen-tau)."""
    parts = token.split("-")
    if len(parts) > 1:
        return (
            len(parts) <= _MAX_BARE_INITIALS
            and all(len(p) == 1 and p.isalpha() for p in parts)
            and token[0].isupper()
        )
    return len(token) <= _MAX_BARE_INITIALS and token.isalpha() and token.isupper()


def _spell_initials(token: str) -> str:
    """Bare initials get periods ("JA" -> "J. A.", "M-W" -> "M.-W."); other tokens are kept as written."""
    if not _is_bare_initials(token):
        return token
    return "-".join(" ".join(f"{letter.upper()}." for letter in part) for part in token.split("-"))


def _split_tokens(tokens: list[str]) -> PersonName:
    if len(tokens) == 1:
        return PersonName("", tokens[0])
    # Vancouver/PubMed order puts the family name first and the initials after: "Smith JA".
    if _is_initials(tokens[-1]) and not _is_initials(tokens[0]):
        start = len(tokens) - 1
        while start > 1 and _is_initials(tokens[start - 1]):
            start -= 1
        return PersonName(" ".join(_spell_initials(t) for t in tokens[start:]), " ".join(tokens[:start]))
    start = len(tokens) - 1
    for index in range(1, len(tokens) - 1):
        token = tokens[index]
        if token in _PARTICLES or token.lower() in _CAPITAL_PARTICLES:
            start = index - 1 if token in _CONJUNCTIONS and index > 1 else index
            break
    return PersonName(" ".join(tokens[:start]), " ".join(tokens[start:]))


def _without_suffixes(pieces: list[str]) -> list[str]:
    """The pieces that are no suffix ("Jr.", "III"); all of them if every one is."""
    return [piece for piece in pieces if not _SUFFIX.match(piece)] or pieces


@lru_cache(maxsize=1 << 16)
def parse_name(text: str) -> PersonName:
    """Parse "Last, First", "Last, Jr., First", "First Last", "F. M. Last", "Last FM" and "First von Last".

    Particles stay with the family name, dblp's numeric suffixes ("Chenglong Li 0002") and Jr./Sr./III
    are dropped, LaTeX is decoded, and diacritics are kept for display.
    """
    clean = _TRAILING_ET_AL.sub("", _DBLP_NUMBER.sub("", latex_to_unicode(text).strip(" {}\"'")))
    clean = collapse_whitespace(clean).strip(" ,;")
    parts = [part.strip() for part in clean.split(",") if part.strip()]
    parts = _without_suffixes(parts)
    if len(parts) >= 2:
        given = " ".join(_spell_initials(t) for t in " ".join(parts[1:]).split())
        # Chicago and MLA invert before the suffix: "Daumé III, Hal" is Hal Daumé III.
        return PersonName(given, " ".join(_without_suffixes(parts[0].split())))
    tokens = _without_suffixes(" ".join(parts).split())
    # A token without a letter is no part of a name: the ACL Anthology writes a mononym "Mausam .".
    tokens = [t for t in tokens if any(c.isalpha() for c in t)] or tokens
    return _split_tokens(tokens) if tokens else PersonName("", "")


@dataclass(frozen=True)
class _Part:
    text: str
    abbreviated: bool


@dataclass(frozen=True)
class _Form:
    """A parsed name folded for comparison."""

    family: str  # alphanumerics only, particles kept: "vandermaaten"
    core: str  # alphanumerics only, particles dropped: "maaten"
    given: tuple[_Part, ...]
    given_joined: str
    sequence: tuple[_Part, ...]  # given then family parts, particles dropped
    full: tuple[str, ...]  # every part in reading order, particles kept


def _parts(text: str) -> list[_Part]:
    return [
        _Part(token.rstrip("."), len(token) == 1 or token.endswith("."))
        for token in _PART.findall(fold(text))
    ]


@lru_cache(maxsize=1 << 16)
def _form(text: str) -> _Form:
    name = parse_name(text)
    given, family = _parts(name.given), _parts(name.family)
    core = [part for part in family if part.text not in _PARTICLES] or family
    return _Form(
        family="".join(part.text for part in family),
        core="".join(part.text for part in core),
        given=tuple(given),
        given_joined="".join(part.text for part in given),
        sequence=tuple(given + core),
        full=tuple(part.text for part in given + family),
    )


_NAME_WORD = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=1 << 16)
def name_words(name: str) -> tuple[str, ...]:
    """A name's words folded, punctuation and digits dropped: "Chee Wee (Ben)" -> chee, wee, ben; "M.-W." ->
    m, w; dblp's "Wei Wang 0001" -> wei, wang. Cached: re-reading an author list compares every cited piece
    with every record author's words."""
    return tuple(_NAME_WORD.findall(fold(name).lower()))


def name_key(text: str) -> str:
    """The folded family name with spaces and punctuation removed ("vandermaaten"), for index look-ups."""
    return _form(text).family


def _part_agrees(a: _Part, b: _Part) -> bool:
    if a.abbreviated or b.abbreviated:
        return (
            a.text.startswith(b.text)
            or b.text.startswith(a.text)
            or (a.abbreviated and _contracts(a.text, b.text))
            or (b.abbreviated and _contracts(b.text, a.text))
        )
    return a.text == b.text


def _contracts(short: str, name: str) -> bool:
    """Whether `short` is a contraction of `name`: its first letter, then others in order ("md" and "mohd"
    for mohammad, "kr" for kumar, "wm" for william, "fco" for francisco)."""
    if len(short) < 2 or len(short) >= len(name) or short[0] != name[0]:
        return False
    rest = iter(name[1:])
    return all(letter in rest for letter in short[1:])


def _in_order(shorter: tuple[_Part, ...], longer: tuple[_Part, ...]) -> bool:
    """Every part of `shorter` agrees with a part of `longer`, in the same order."""
    position = 0
    for part in shorter:
        while position < len(longer) and not _part_agrees(part, longer[position]):
            position += 1
        if position == len(longer):
            return False
        position += 1
    return True


def _short_form(a: _Part, b: _Part) -> bool:
    """One given name is the other's short form: "Will" / "William", "Chris" / "Christopher"."""
    short, long = sorted((a.text, b.text), key=len)
    return not (a.abbreviated or b.abbreviated) and len(short) >= 3 and long.startswith(short)


def _given_agrees(a: tuple[_Part, ...], b: tuple[_Part, ...]) -> bool:
    """First given names agree (or one is the other's short form); other given names and initials may be
    present on one side only."""
    if not a or not b:
        return True
    if not (_part_agrees(a[0], b[0]) or _short_form(a[0], b[0])):
        return any(
            agrees(x, y) for x, y in ((a, b), (b, a)) for agrees in (_goes_by_a_later_name, _adopted_first)
        )
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    return _in_order(shorter[1:], longer[1:])


def _goes_by_a_later_name(a: tuple[_Part, ...], b: tuple[_Part, ...]) -> bool:
    """`a` is `b`'s given names without the first, an initial: the person goes by the next one, written in
    full ("Zico Kolter" for J. Zico Kolter, "Brendan McMahan" for H. Brendan McMahan)."""
    return (
        len(b) >= 2
        and b[0].abbreviated
        and not (a[0].abbreviated or b[1].abbreviated)
        and a[0].text == b[1].text
        and _in_order(a[1:], b[2:])
    )


def _adopted_first(a: tuple[_Part, ...], b: tuple[_Part, ...]) -> bool:
    """`a` is an adopted given name before the initials of every given name of `b`, two at least so that the
    initials name them: "Ricky T. Q. Chen" for Tian Qi Chen."""
    return (
        len(b) >= 2
        and len(a) == len(b) + 1
        and not a[0].abbreviated
        and all(part.abbreviated for part in a[1:])
        and all(_part_agrees(x, y) for x, y in zip(a[1:], b, strict=True))
    )


def _sequence_agrees(a: tuple[_Part, ...], b: tuple[_Part, ...]) -> bool:
    """Whole names agree where the family/given split differs ("A. Muñoz Garza" vs "Muñoz Garza, Andrés")."""
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1] or a[-1].abbreviated:
        return False
    return _given_agrees(a[:-1], b[:-1])


@lru_cache(maxsize=1 << 17)
def names_match(cited: str, found: str) -> NameMatch:
    """EXACT: the same name after folding; COMPATIBLE: can be the same person; NONE otherwise.

    Compatible covers initials against full names, short forms of a given name ("Will" / "William"), given
    names present on one side only, a missing given name, swapped given/family order (a middle name on one
    side only too), and family names that differ only in particles, hyphens or spaces.
    """
    if is_et_al(cited) or is_et_al(found):
        return NameMatch.NONE
    match = _match(cited, found)
    # A word in capitals may be a family name (small caps read from a PDF, "Paul LEE", "TE-LIN WU") as well
    # as Vancouver initials ("Smith JA"), or both in one name set in capitals ("BACH FR"): read it in mixed
    # case too, then with its last word kept as initials.
    for read in (_mixed_case, _initials_last, _particle_in_family):
        if match is not NameMatch.NONE:
            break
        as_read = read(cited), read(found)
        if as_read != (cited, found):
            match = _match(*as_read)
    if match is NameMatch.NONE:
        spelled = _initials_spelled_by(cited, found), _initials_spelled_by(found, cited)
        if spelled != (cited, found):
            match = _match(*spelled)
    if match is NameMatch.NONE:
        a, b = _form(cited), _form(found)
        if _particle_as_given(a, b) or _particle_as_given(b, a):
            match = NameMatch.COMPATIBLE
    return match


@lru_cache(maxsize=1 << 16)
def _initials_spelled_by(text: str, other: str) -> str:
    """A Vancouver name with more initials than a name usually has ("Batista GEAPA" for Gustavo E. A. P. A.
    Batista) read with them as initials when they are exactly the initials of the other name's given names.
    Alone, five capitals are more often a family name ("SMITH") than initials; the other name decides."""
    words = text.split()
    last = words[-1] if len(words) >= 2 else ""
    if not (last.isalpha() and last.isupper() and len(last) > _MAX_BARE_INITIALS):
        return text
    given = name_words(parse_name(other).given)
    if "".join(word[0] for word in given) != last.lower():
        return text
    return " ".join([*words[:-1], *(f"{letter}." for letter in last)])


@lru_cache(maxsize=1 << 16)
def _mixed_case(text: str) -> str:
    """Every word of two or more capitals ("LEE", "DUPONT", "JA") written with one."""
    return _WORD.sub(lambda word: word.group().capitalize() if word.group().isupper() else word.group(), text)


@lru_cache(maxsize=1 << 16)
def _particle_in_family(text: str) -> str:
    """A name written given names first whose word before the family name is a particle in capitals
    ("Ronan Le Bras", "Chiara La Rosa") read inverted, the particle in the family name ("Le Bras, Ronan"),
    so that it meets the same person written "LeBras". The grammar leaves a capital "Le", "La" or "Da" to
    the given names, as they are names of their own in Vietnamese and Chinese."""
    words = text.split()
    if "," in text or len(words) < 3 or words[-2].lower() not in _PARTICLES or not words[-2][0].isupper():
        return text
    return f"{' '.join(words[-2:])}, {' '.join(words[:-2])}"


@lru_cache(maxsize=1 << 16)
def _initials_last(text: str) -> str:
    """A name in capitals read as Vancouver's: the last word, short enough, kept as initials, the others
    written in mixed case ("BACH FR" -> "Bach FR"); other names as written."""
    words = text.split()
    if len(words) < 2 or not _is_bare_initials(words[-1]):
        return text
    return " ".join([*map(_mixed_case, words[:-1]), words[-1]])


def _match(cited: str, found: str) -> NameMatch:
    a, b = _form(cited), _form(found)
    if not a.family or not b.family:
        return NameMatch.NONE
    if a.full == b.full or (a.family == b.family and a.given_joined == b.given_joined):
        return NameMatch.EXACT
    if (a.family == b.family or a.core == b.core) and (
        _given_agrees(a.given, b.given) or a.given_joined == b.given_joined
    ):
        return NameMatch.COMPATIBLE
    if a.given and b.given and a.core == b.given_joined and a.given_joined == b.core:
        return NameMatch.COMPATIBLE
    # Swapped, a middle name on one side only: "Trung Quoc Luong" / "Luong Trung".
    if a.given and b.given and a.core == b.given[0].text and b.core == a.given[0].text:
        return NameMatch.COMPATIBLE
    if _sequence_agrees(a.sequence, b.sequence):
        return NameMatch.COMPATIBLE
    return NameMatch.NONE


def _particle_as_given(a: _Form, b: _Form) -> bool:
    """`a` holds the particle that opens `b`'s family name as its last given name: BibTeX reads "Ronan Le
    Bras" as given names "Ronan Le", so a style abbreviates it "R. L. Bras", which a record writing the name
    "Ronan LeBras" has to meet (a record writing "Le Bras" apart meets it by its core family name)."""
    if not a.family or len(a.given) < 2 or len(b.family) <= len(a.family) or not b.family.endswith(a.family):
        return False
    particle = b.family[: -len(a.family)]
    return (
        particle in _PARTICLES
        and _part_agrees(a.given[-1], _Part(particle, False))
        and _given_agrees(a.given[:-1], b.given)
    )
