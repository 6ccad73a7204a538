"""How wrong a wrong field is: `major` (signals a hallucination) or `minor` (a human slip).

A reviewer acts on a flag, so a slip a careful author makes (a name typo or variant, a nickname, an
earlier or later version's author list, a preprint's year, the journal version of a conference paper) must
not read as invention. Major is what invention looks like: an author who is no variant of any record author, a
dropped first author, another work's title or identifier, another event's venue, a year no version of the
work has.

`grade` gives every mismatched field check its severity; `overall` the verdict's: major when any field
is major.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from rapidfuzz.distance import OSA, Indel

from refhound.agents.field_rules import (
    AuthorComparison,
    NameLookups,
    cites_journal_version,
    cites_preprint,
    cites_repository,
    later_version_at_unknown_venue,
    name_variant,
)
from refhound.models import FieldCheck, FieldStatus, ParsedFields, Record, Severity
from refhound.normalize.identifiers import arxiv_year
from refhound.normalize.names import PersonName, name_words, parse_name
from refhound.normalize.text import fold
from refhound.normalize.titles import main_title_of, name_before_colon, numbers_as_digits, title_key
from refhound.normalize.venues import parse_venue
from refhound.settings import JudgeSettings

S = FieldStatus
MAJOR, MINOR = Severity.MAJOR, Severity.MINOR
# A grade: the severity, why (for people), and the comparison level's name within its field (for code).
Graded = tuple[Severity, str, str]

# A name this similar to a record author's (same first initial) is a typo of it: "Schmidhuber" /
# "Schmidhueber", "Krizhevsky" / "Krizhevksy".
_NAME_TYPO_SIMILARITY = 0.8
# A name this long with two letters swapped is that name misspelt; from the second length, with any letter
# wrong, missing or added (shorter names are a syllable or two, where one letter makes another name).
_MIN_TYPO_NAME = 4
_MIN_FREE_TYPO_NAME = 6
# Words of institutions, which reference managers read into author lists from a PDF's affiliations.
_INSTITUTION_STEMS = ("universit", "institut", "laborator", "departement", "department")
_INSTITUTION_WORDS = frozenset({"college", "academy", "inc", "ltd", "gmbh", "corporation", "labs"})
# A name nobody in the index has is read as a record author's misspelt from this length ("Oguz" / "Ouguz");
# shorter ones ("Li", "Wu") are a letter from too many names.
_MIN_MISSPELT_NAME = 3
# A one-word name that begins a record author's first given name, from this length, is that author's name
# without its family name ("Iryn" for Iryna Gurevych); two letters begin too many names.
_MIN_GIVEN_NAME_ALONE = 3
# Two cited names are one record author's split in two when together they have this many words at least.
_MIN_WORDS_OF_A_SPLIT_NAME = 3
# A family name that begins another, from this length, is that name shortened.
_MIN_SHORTENED_FAMILY = 5
# A preprint is posted up to this many years before the version a venue publishes.
_PREPRINT_LEAD_YEARS = 3
# An identifier this many edits from the record's (a character wrong, missing or added, two swapped) is a
# typo of it. Not a similarity share: identifiers of one publisher's volume share most of their characters,
# so "acl-long.676" for "acl-long.377" is as similar as a typo and names another paper.
_IDENTIFIER_TYPO_EDITS = 1
# Common English nicknames of given names. Those that are a prefix of the name ("Chris" / "Christopher")
# the name rules accept as short forms before a mismatch is graded; the others are a slip, not a stranger.
_NICKNAMES = frozenset(
    frozenset(pair)
    for pair in (
        ("bob", "robert"),
        ("rob", "robert"),
        ("bill", "william"),
        ("will", "william"),
        ("liam", "william"),
        ("dick", "richard"),
        ("rick", "richard"),
        ("jim", "james"),
        ("jimmy", "james"),
        ("mike", "michael"),
        ("tom", "thomas"),
        ("dave", "david"),
        ("andy", "andrew"),
        ("drew", "andrew"),
        ("tony", "anthony"),
        ("ted", "edward"),
        ("ed", "edward"),
        ("ned", "edward"),
        ("jack", "john"),
        ("johnny", "john"),
        ("peggy", "margaret"),
        ("meg", "margaret"),
        ("kate", "katherine"),
        ("katie", "katherine"),
        ("kathy", "katherine"),
        ("liz", "elizabeth"),
        ("beth", "elizabeth"),
        ("betty", "elizabeth"),
        ("bert", "albert"),
        ("al", "albert"),
        ("hank", "henry"),
        ("harry", "henry"),
        ("chuck", "charles"),
        ("charlie", "charles"),
        ("larry", "lawrence"),
        ("jerry", "gerald"),
        ("joe", "joseph"),
        ("steve", "stephen"),
        ("steve", "steven"),
        ("sue", "susan"),
        ("nick", "nicholas"),
        ("matt", "matthew"),
        ("greg", "gregory"),
        ("pete", "peter"),
        ("geoff", "geoffrey"),
        ("jeff", "jeffrey"),
        ("ben", "benjamin"),
        ("sasha", "alexander"),
        ("alex", "alexander"),
        ("sasha", "alexandra"),
        ("sasha", "aleksandr"),
        ("russ", "ruslan"),
        ("russ", "russell"),
        ("zack", "zachary"),
        ("zach", "zachary"),
        ("becky", "rebecca"),
        ("ed", "eduard"),
        ("eddie", "edward"),
        ("kathy", "kathleen"),
        ("kate", "kathleen"),
        ("kate", "catherine"),
        ("nate", "nathan"),
        ("nate", "nathaniel"),
        ("dima", "dmitry"),
        ("dima", "dmitri"),
        ("misha", "mikhail"),
        ("kostas", "konstantinos"),
        ("kolya", "nikolai"),
        ("vova", "vladimir"),
        ("jen", "jennifer"),
        ("jenny", "jennifer"),
        ("danny", "daniel"),
        ("gabe", "gabriel"),
        ("sandy", "alexander"),
        ("sandy", "sandra"),
        ("tim", "timothy"),
        ("lucy", "lucia"),
    )
)
# A name of this many words, all of them accounted for, needs only one written in full to be the same name.
_MIN_WORDS_ONE_FULL = 3
# A cited list that repeats the record's whole list in order before adding names reads as a later version's
# (or the record is short of authors) only when the record has this many authors to agree on.
_MIN_EXTENDED_AUTHORS = 2
# Why a name the published record lacks, or its first author left out, is a slip on a preprint.
_PREPRINT_LIST = ": a preprint's list, which may have changed at publication"
_JOURNAL_LIST = ": the journal version's list, which may add or drop people of the conference paper's"
# A cited title that is the record's without its subtitle (or the reverse) keeps this many words at least.
_MIN_SHORT_TITLE_WORDS = 3
_MAX_FIRST_WORDS = 2  # "Towards", "On the": the most words a title's start loses and stays the work's
_MIN_WORDS_KEPT = 4  # a title with words left out, at its start or within, keeps this many at least
_MAX_WORDS_LEFT_OUT = 2  # within a title, as a memory drops or adds them ("sparse", "and")
# One phrase of a title left out, at its start or within, is a slip while the other title keeps this share of
# the words: what an earlier version's title lacked ("… for Autonomous Driving …") or a memory dropped.
_MIN_SHARE_KEPT_BY_A_PHRASE = 2 / 3
# A title word in another form: at most this many such words, each sharing a stem this long.
_MAX_WORD_FORMS = 2
_MIN_STEM = 4
# A title word misspelt: from five letters one edit, from eight two; shorter words are a letter from others.
_MIN_MISSPELT_WORD = 5
_MIN_WORD_TWO_EDITS = 8
_MIN_ACRONYM_WORDS = 2  # "RL" for "Reinforcement Learning": an acronym stands for two words or more
# The short prepositions and conjunctions memory swaps, a title keeping its meaning ("in" for "for"). Longer
# ones say how ("towards", "using", "via"), and "without" or "against" turn a title round: another title.
_FUNCTION_WORDS = frozenset({"of", "for", "in", "on", "to", "with", "by", "at", "from", "and", "as", "into"})
# Words that turn a title round when left out or added: "Attention is not Explanation" is another work.
_TURNING_WORDS = frozenset({"not", "no", "non", "without", "against"})


def grade(
    cited: ParsedFields,
    record: Record,
    fields: Sequence[FieldCheck],
    authors: AuthorComparison,
    title_similarity: float,
    settings: JudgeSettings,
    names: NameLookups,
) -> list[FieldCheck]:
    """The field checks, each mismatch with its severity and, for a minor one, why it is minor. `names`
    says what the index knows of the cited names the record lacks."""
    # The journal version of the work: a journal the venue check knows, where the record is in proceedings.
    journal_version = cites_journal_version(cited, record) and any(
        check.level == "venue.journal_version" for check in fields
    )
    graded = []
    for check in fields:
        if check.status is not S.MISMATCH or check.severity is not None:
            graded.append(check)  # a rule that knew the mismatch for what it is has graded it already
            continue
        severity, why, level = _grade_one(
            check,
            cited,
            record,
            authors,
            title_similarity,
            journal_version,
            settings,
            names,
        )
        note = "; ".join(part for part in (check.note, why) if part)
        graded.append(
            check.model_copy(update={"severity": severity, "note": note, "level": f"{check.field}.{level}"})
        )
    return graded


def overall(fields: Sequence[FieldCheck]) -> Severity | None:
    """Major when a mismatched field is major, minor when every mismatch is minor, None without one."""
    severities = [f.severity or MAJOR for f in fields if f.status is S.MISMATCH]
    if not severities:
        return None
    return MAJOR if MAJOR in severities else MINOR


def _grade_one(
    check: FieldCheck,
    cited: ParsedFields,
    record: Record,
    authors: AuthorComparison,
    title_similarity: float,
    journal_version: bool,
    settings: JudgeSettings,
    names: NameLookups,
) -> Graded:
    match check.field:
        case "title":
            # A preprint's title may be an earlier one than the version the record publishes.
            earlier = _preprint_of_published(cited, record)
            return _title(cited.title or "", record.title, title_similarity, settings, earlier)
        case "authors":
            return _authors(authors, cited, record, journal_version, settings, names)
        case "venue":
            return _venue(cited, record)
        case "year":
            return _year(cited, record)
        case "doi" | "arxiv_id":
            return _identifier(check)
    return MAJOR, "", "differs"


def _preprint_of_published(cited: ParsedFields, record: Record) -> bool:
    """Whether the citation is to the preprint of a work the record publishes, whose title and author list
    may be earlier ones: it names a preprint server, or no venue and a year before the record's (a preprint
    cited by its year alone, as a reference manager keeps an arXiv page)."""
    if record.entry_type == "preprint":
        return False
    earlier = (
        not cited.venue and cited.year is not None and record.year is not None and cited.year < record.year
    )
    return cites_preprint(cited) or earlier


def _title(
    cited: str, found: str, similarity: float, settings: JudgeSettings, preprint_cited: bool
) -> Graded:
    # A named form of difference first; nearness alone ("a typo") only where none names it.
    ours, theirs = numbers_as_digits(title_key(cited)).split(), numbers_as_digits(title_key(found)).split()
    if sorted(ours) == sorted(theirs):
        return MINOR, "the title's words in another order", "reordered"
    if _word_forms(ours, theirs):
        return MINOR, "the title with a word in another form", "word_form"
    if _function_word_swapped(ours, theirs):
        return MINOR, 'the title with another preposition or conjunction ("in" for "for")', "function_word"
    if _acronym_for_words(ours, theirs) or _acronym_for_words(theirs, ours):
        return MINOR, 'the title with words written as their acronym ("Deep RL")', "acronym"
    shorter, longer = sorted((ours, theirs), key=len)
    start = longer[: len(shorter)]
    cut_short = len(shorter) >= _MIN_SHORT_TITLE_WORDS and (start == shorter or _word_forms(shorter, start))
    if cut_short or main_title_of(cited, found) or name_before_colon(cited, found):
        return MINOR, "the title with or without its subtitle, a bracketed note or a translation", "subtitle"
    if _first_words_left_out(shorter, longer, cited if len(ours) > len(theirs) else found):
        return MINOR, 'the title with or without its first words ("Towards …")', "first_words"
    if _words_left_out(shorter, longer):
        why = "the title with a word or two, or a phrase, left out or added, the others in order"
        return MINOR, why, "words_left_out"
    if _misspelt_words(ours, theirs):
        return MINOR, 'a word of the title misspelt ("genelarized")', "misspelt_word"
    if similarity >= settings.title_borderline_similarity:
        return MINOR, "a typo in the title", "typo"
    if preprint_cited:
        why = "cited as a preprint, whose title may be an earlier one than the published version's"
        return MINOR, why, "near_on_preprint"
    return MAJOR, "", "other_words"


def _first_words_left_out(shorter: Sequence[str], longer: Sequence[str], longer_title: str) -> bool:
    """Whether the shorter title is the longer one without its first word or two ("Temporal scoping …" for
    "Towards temporal scoping …"), or a longer lead that leaves two thirds of the words ("Directed Acyclic
    Graph for …" for "Efficient Learning by Directed Acyclic Graph for …"), keeping four words or more. A
    lead closed by a colon is the work's name ("BERT: …"), which a citation does not leave out."""
    left_out = len(longer) - len(shorter)
    few = left_out <= _MAX_FIRST_WORDS or _a_phrase_kept_short(shorter, longer)
    if not (left_out > 0 and few) or len(shorter) < _MIN_WORDS_KEPT:
        return False
    return list(longer[left_out:]) == list(shorter) and ":" not in " ".join(longer_title.split()[:left_out])


def _words_left_out(shorter: Sequence[str], longer: Sequence[str]) -> bool:
    """Whether the shorter title is the longer one with a word or two left out after its first ("A blind
    deconvolution method …" for "A blind sparse deconvolution method …", "Total Variation, Cheeger Cuts" for
    "Total variation and Cheeger cuts"), each kept word perhaps misspelt or in another form ("Online
    asymetric boosted …" for "Online Learning Asymmetric Boosted …"), or one longer phrase that leaves two
    thirds of the words ("Instance-Level Segmentation with …" for "Instance-Level Segmentation for
    Autonomous Driving with …"), keeping four words or more in order: a slip of memory or an earlier
    version's title, not a word changed. The first words are `_first_words_left_out`'s to judge, and a word
    that turns the title round ("not", "without") makes another title."""
    left_out = len(longer) - len(shorter)
    if left_out <= 0 or len(shorter) < _MIN_WORDS_KEPT or shorter[0] != longer[0]:
        return False
    extra = Counter(longer) - Counter(shorter)
    if extra.keys() & _TURNING_WORDS:
        return False
    if left_out <= _MAX_WORDS_LEFT_OUT:
        # Each found after the one before it, itself or misspelt or in another form ("asymetric").
        remaining = iter(longer)
        return all(any(_one_word(word, other) for other in remaining) for word in shorter)
    # More words, as one phrase.
    kept = next((at for at, (a, b) in enumerate(zip(shorter, longer, strict=False)) if a != b), len(shorter))
    return _a_phrase_kept_short(shorter, longer) and list(longer[kept + left_out :]) == list(shorter[kept:])


def _one_word(a: str, b: str) -> bool:
    return a == b or _misspelt_word(a, b) or _another_form(a, b)


def _a_phrase_kept_short(shorter: Sequence[str], longer: Sequence[str]) -> bool:
    """Whether a title without a phrase keeps enough of the other's words to be the same title."""
    return len(shorter) >= _MIN_SHARE_KEPT_BY_A_PHRASE * len(longer)


def _word_forms(ours: Sequence[str], theirs: Sequence[str]) -> bool:
    """The same words in the same order but one or two, each another form of its word: a stem of four
    letters or more that leaves at most three letters of ending ("Automated" for "Automatic", "Parsing"
    for "Parser", "Labelling" for "Labeling")."""
    changed = _changed_words(ours, theirs)
    return bool(changed) and all(_another_form(a, b) for a, b in changed)


def _changed_words(ours: Sequence[str], theirs: Sequence[str]) -> list[tuple[str, str]]:
    """The words of two titles of as many words that differ in place, each with the other's; none when the
    titles differ in length or in more than `_MAX_WORD_FORMS` words (no slip of a word or two explains
    them)."""
    if len(ours) != len(theirs):
        return []
    changed = [(a, b) for a, b in zip(ours, theirs, strict=True) if a != b]
    return changed if len(changed) <= _MAX_WORD_FORMS else []


def _misspelt_words(ours: Sequence[str], theirs: Sequence[str]) -> bool:
    """The same words in the same order but one or two, each the other misspelt: its first letter kept, a
    letter wrong, missing, added or two swapped in a word of five letters or more, two edits from eight
    ("genelarized" for "generalized", "recogntion" for "recognition"). A word replaced by another word is
    farther than that ("Inference" for "Reasoning")."""
    changed = _changed_words(ours, theirs)
    return bool(changed) and all(_misspelt_word(a, b) for a, b in changed)


def _misspelt_word(a: str, b: str) -> bool:
    shorter = min(len(a), len(b))
    if shorter < _MIN_MISSPELT_WORD or a[0] != b[0]:
        return False
    return OSA.distance(a, b) <= (1 if shorter < _MIN_WORD_TWO_EDITS else 2)


def _another_form(a: str, b: str) -> bool:
    """Two forms of one word: a stem of four letters or more, at most three letters of ending after it."""
    return (stem := _shared_start(a, b)) >= _MIN_STEM and stem >= min(len(a), len(b)) - 3


def _function_word_swapped(ours: Sequence[str], theirs: Sequence[str]) -> bool:
    """The same words in the same order but one or two, one of them at least a preposition or conjunction
    written for another ("Cue integration in figure/ground labeling" for "… for …"), the other in another
    form: a slip of memory that keeps every content word."""
    changed = _changed_words(ours, theirs)
    swapped = [(a, b) for a, b in changed if a in _FUNCTION_WORDS and b in _FUNCTION_WORDS]
    return bool(swapped) and all(pair in swapped or _another_form(*pair) for pair in changed)


def _acronym_for_words(short: Sequence[str], long: Sequence[str]) -> bool:
    """Whether `short` is `long` with a run of its words written as their acronym: "… Saliency Maps for Deep
    RL" for "… for Deep Reinforcement Learning"."""
    spanned = len(long) - len(short) + 1  # the words the acronym stands for
    if spanned < _MIN_ACRONYM_WORDS:
        return False
    at = next((i for i, (a, b) in enumerate(zip(short, long, strict=False)) if a != b), len(short))
    return (
        at < len(short)
        and short[at] == "".join(word[0] for word in long[at : at + spanned])
        and short[at + 1 :] == long[at + spanned :]
    )


def _shared_start(a: str, b: str) -> int:
    """How many letters two words share from their start."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def _authors(
    authors: AuthorComparison,
    cited: ParsedFields,
    record: Record,
    journal_version: bool,
    settings: JudgeSettings,
    names: NameLookups,
) -> Graded:
    if authors.tail_of_record and _cut_inside_a_name(cited.authors):
        return (
            MINOR,
            f"only the record's last {len(cited.authors)} of {len(record.authors)} authors, the first a bare "
            "family name: the string seems to begin inside its author list",
            "record_tail",
        )
    # A later or journal version's list, or a record short of authors (a database that lost one), adds
    # people of the same group: one of the added names has written with the record's authors elsewhere.
    # An invented name has not.
    evidence = None
    if authors.keeps_record and len(record.authors) >= _MIN_EXTENDED_AUTHORS:
        found = (names.co_authorship(name, record.authors) for name in authors.unmatched)
        evidence = next((said for said in found if said), None)
    if evidence is not None:
        where = "after them" if authors.extends_record else "among them"
        version = "the journal version's list" if journal_version else "a later version's list"
        return (
            MINOR,
            f"the record's {len(record.authors)} authors, in order, with {len(authors.unmatched)} more "
            f"{where}, who write with them ({evidence}): {version}, or a record short of authors",
            "coauthor_added",
        )
    unused = list(authors.unused)
    halves = _halves_of_one_name(authors.unmatched, cited.authors, unused)
    unused = [name for name in unused if name not in halves.values()]
    misspelt, strangers = [], []
    for name in authors.unmatched:
        if _lone_initial(name) or _institution(name) or names.title_text(name) or name in halves:
            # a list cut inside a name ("…, Estevam R. Hruschka and A"), a reference manager's affiliation
            # or keywords read as an author ("Sherbrooke, Université De", "Sci, Computer"), or half of a
            # name it split: no one to compare
            continue
        other = next((o for o in unused if _variant(name, o, settings)), None)
        if other is None:
            # A name nobody in the index has, a letter or two from a record author's, is that author's name
            # misspelt ("Preslav Nvakov"); one a letter from another person's ("Jun Tang" for Jun Yang) is
            # that person, whom the index knows.
            other = next((o for o in unused if _misspelt(name, o)), None)
            if other is None or names.known_name(name):
                strangers.append(name)
                continue
            misspelt.append(f"{name} for {other}")
        unused.remove(other)
    # A preprint's list is often not the published version's: people join or leave at publication.
    preprint = _preprint_of_published(cited, record)
    if strangers:
        are = "is" if len(strangers) == 1 else "are"
        why = f"{', '.join(strangers)} {are} no variant of any author of the record"
        level = _stranger_level(strangers, unused, cited.authors, record.authors)
        a_few = level in ("one_stranger", "some_strangers", "family_name_other")
        # However many names a preprint adds, it is the published list when that list is all in it, in
        # order, first first: people leave a work at publication.
        if preprint and (a_few or authors.keeps_record):
            return MINOR, f"{why}{_PREPRINT_LIST}", "preprint_list"
        # A journal version is often written with other people than the conference paper it extends
        # (one who joined, one who left): its first author is the work's, or every author of the
        # conference paper is in it, in whatever order.
        kept = _first_author_kept(authors, cited, record) or not authors.unused
        if a_few and journal_version and kept:
            return MINOR, f"{why}{_JOURNAL_LIST}", "journal_list"
        return MAJOR, why, level
    first = record.authors[0] if record.authors else None
    if first is not None and first in unused:
        why = f"the first author, {first}, is left out"
        if preprint:
            return MINOR, f"{why}{_PREPRINT_LIST}", "preprint_list"
        return MAJOR, why, "first_left_out"
    if authors.first_displaced and not authors.unmatched and not unused:
        return MINOR, "every author cited, in another order", "first_elsewhere"
    typos = f" (a typo: {'; '.join(misspelt)}, a name no author of the index has)" if misspelt else ""
    if authors.unmatched and unused and not cited.authors_truncated:
        return (
            MINOR,
            f"names written another way{typos}, and authors left out as in an earlier version's list",
            "variants_and_left_out",
        )
    if authors.unmatched:
        level = "misspelt_unknown_name" if misspelt else "written_another_way"
        return MINOR, f"names written another way{typos or ' (a typo, a variant or a short form)'}", level
    return MINOR, "authors left out, as in an earlier version's list", "left_out"


def a_stranger(name: str, record_authors: Sequence[str], settings: JudgeSettings) -> bool:
    """Whether a cited name the rules did not pair is no record author written another way or misspelt."""
    return not any(_variant(name, other, settings) or _misspelt(name, other) for other in record_authors)


def _first_author_kept(authors: AuthorComparison, cited: ParsedFields, record: Record) -> bool:
    """Whether the record's first author is cited first: paired, no other record author before, and the
    first cited name no stranger."""
    return (
        bool(record.authors and cited.authors)
        and record.authors[0] not in authors.unused
        and not authors.first_displaced
        and cited.authors[0] not in authors.unmatched
    )


def _stranger_level(
    strangers: Sequence[str], unpaired: Sequence[str], cited: Sequence[str], recorded: Sequence[str]
) -> str:
    """The level of cited names no record author can be: each with a record author's family name and
    another given name ("Anant K. Agarwal" for Aman Agarwal); each in the place of a record author with the
    same given name and another family name ("Johannes Gasteiger" for Johannes Klicpera, who changed it);
    one among several right ones; or most of the list."""
    families = {family for name in unpaired for family in _family_forms(name)}
    if all(_family(parse_name(name).family) in families for name in strangers):
        return "given_name_other"
    if all(_renamed_in_place(name, cited, recorded, unpaired) for name in strangers):
        return "family_name_other"
    if len(strangers) == 1:
        return "one_stranger"
    return "mostly_strangers" if 2 * len(strangers) > len(cited) else "some_strangers"


def _renamed_in_place(
    name: str, cited: Sequence[str], recorded: Sequence[str], unpaired: Sequence[str]
) -> bool:
    """Whether the record author at the cited name's place in the list is unpaired and has its first given
    name, written in full in both: the same person under a new family name (marriage, a name changed and
    applied to earlier work), or the family name slipped."""
    place = cited.index(name)
    if place >= len(recorded) or recorded[place] not in unpaired:
        return False
    # `name_words` folds and lower-cases: "Jürgen" and "Jurgen" are one given name.
    ours, theirs = name_words(parse_name(name).given), name_words(parse_name(recorded[place]).given)
    return bool(ours and theirs) and len(ours[0]) > 1 and ours[0] == theirs[0]


def _cut_inside_a_name(names: Sequence[str]) -> bool:
    """Whether a list reads as cut between a given name and a family name: the first name is a bare
    family name, the others are not. "Pyysalo. Aurora-M: …" for a paper with 41 authors is a string cut at a
    page or column break, or split from its head by the extractor; no citation style prints one bare family
    name before full ones, and no invented list does. A lone bare family name counts too, as the cut leaves
    it when it falls inside the last name ("Pyysalo."): a citation that names only a work's last author,
    by family name alone, is then a minor error with its correction, not a sign of invention."""
    given = [bool(parse_name(name).given) for name in names]
    return bool(given) and not given[0] and all(given[1:])


def _variant(cited: str, found: str, settings: JudgeSettings) -> bool:
    """Whether a cited name the rules did not pair can be `found` written with a slip: another form
    (order, script, adopted name, an initial for a name), a typo in either name, a family name shortened,
    or a nickname. Another given name with the right family name ("Vivek" for "Varsha") is another person.
    """
    if name_variant(cited, found, settings.author_borderline_similarity) or _same_words(cited, found):
        return True
    if any(only(a, b) for only in _ONE_FAMILY_NAME for a, b in ((cited, found), (found, cited))):
        return True
    if _given_name_alone(cited, found):
        return True
    a, b = parse_name(cited), parse_name(found)
    if _written_backwards(a, b) or _written_backwards(b, a):
        return True
    family_a, family_b = _family(a.family), _family(b.family)
    if not family_a or not family_b:
        return False
    if family_a == family_b:
        return _given_agrees(a.given, b.given)
    first_a, first_b = (name_words(a.given) or ("",))[0], (name_words(b.given) or ("",))[0]
    initials_agree = not first_a or not first_b or first_a[0] == first_b[0]
    # A family name shortened or lengthened ("Gholami" / "Gholaminejad"), or with a typo.
    shorter, longer = sorted((family_a, family_b), key=len)
    shortened = len(shorter) >= _MIN_SHORTENED_FAMILY and longer.startswith(shorter)
    return initials_agree and (shortened or _typo(family_a, family_b))


def _misspelt(cited: str, found: str) -> bool:
    """Whether a name is `found` with a typo the name rules do not take alone: the same family name and a
    first given name an edit from the record's (two from six letters on: "Steven" / "Stephen"), or the
    given names agreeing and the family name as near ("Nvakov" / "Nakov", "Golahn" / "Golshan"). Whether it
    is a typo or another person's name, only the index can tell (see `_authors`)."""
    a, b = parse_name(cited), parse_name(found)
    family_a, family_b = _family(a.family), _family(b.family)
    if family_a == family_b:
        first_a, first_b = (name_words(a.given) or ("",))[0], (name_words(b.given) or ("",))[0]
        return _near(first_a, first_b)
    return bool(family_a and family_b) and _given_agrees(a.given, b.given) and _near(family_a, family_b)


def _near(a: str, b: str) -> bool:
    """One edit apart (a letter wrong, missing, added, or two swapped), two from six letters on."""
    shorter = min(len(a), len(b))
    if shorter < _MIN_MISSPELT_NAME:
        return False
    return OSA.distance(a, b) <= (1 if shorter < _MIN_FREE_TYPO_NAME else 2)


def _first_family_name_only(short: str, full: str) -> bool:
    """Whether `short` is `full` with only the first of two family names, the given name agreeing: "Dalvi,
    B." for Bhavana Dalvi Mishra, "García, J." for Juan García Márquez. Written given names first, the
    grammar reads the first family name as a middle name."""
    a = parse_name(short)
    family, given, words = name_words(a.family), name_words(a.given), name_words(full)
    if len(family) != 1 or not given or len(words) < len(given) + 2:
        return False
    middle = words[len(given) : -1]
    # The first family name may carry a typo on either side ("Fermandez" for Ramón Fernandez Astudillo).
    in_middle = any(family[0] == word or _near(family[0], word) for word in middle)
    return in_middle and _given_agrees(a.given, " ".join(words[: len(given)]))


def _last_family_name_only(short: str, full: str) -> bool:
    """Whether `short` is `full` with only the last part of a hyphenated family name, the given name
    agreeing, the part perhaps with a typo: "Iparraguirre, Jorge" and "Bombarell, R." for Jorge
    Aguilera-Iparraguirre and Rafael Gómez-Bombarelli, as Google Scholar's entry for their paper has them."""
    a, b = parse_name(short), parse_name(full)
    family, full_family = name_words(a.family), name_words(b.family)
    if len(family) != 1 or len(full_family) < 2 or "-" not in b.family:
        return False
    last = full_family[-1]
    return (family[0] == last or _near(family[0], last)) and _given_agrees(a.given, b.given)


_ONE_FAMILY_NAME = (_first_family_name_only, _last_family_name_only)


def _halves_of_one_name(
    unmatched: Sequence[str], cited: Sequence[str], unpaired: Sequence[str]
) -> dict[str, str]:
    """Cited names that are the two halves of one unpaired record author's name, each to that author: two
    names next to each other in the list whose words together are the author's, three words or more
    ("Nuno, Ricardo" and "Campos, Taborda" for Ricardo Nuno Taborda Campos), as a reference manager splits a
    name of several given and family names."""
    halves: dict[str, str] = {}
    for first, second in pairwise(cited):
        if first not in unmatched or second not in unmatched or first in halves:
            continue
        words = sorted([*name_words(first), *name_words(second)])
        whole = next((name for name in unpaired if sorted(name_words(name)) == words), None)
        if whole is not None and len(words) >= _MIN_WORDS_OF_A_SPLIT_NAME and whole not in halves.values():
            halves[first] = halves[second] = whole
    return halves


def _given_name_alone(short: str, full: str) -> bool:
    """Whether `short` is one word, `full`'s first given name or its start, three letters or more: "Doug" for
    Doug Downey, "Iryn" for Iryna Gurevych. A reference manager that lost the family name leaves the given
    name, as one that lost the given name leaves the family name, which the name rules already take."""
    words, given = name_words(short), name_words(parse_name(full).given)
    return (
        len(words) == 1
        and len(words[0]) >= _MIN_GIVEN_NAME_ALONE
        and bool(given)
        and given[0].startswith(words[0])
    )


def _lone_initial(name: str) -> bool:
    """Whether a cited name is a single letter: what is left of a name cut off, not a person's name."""
    words = name_words(name)
    return len(words) == 1 and len(words[0]) == 1


def _institution(name: str) -> bool:
    """Whether a cited "name" is an institution's: a word of one no person's name has ("Université",
    "Institute", "Laboratory", "Inc")."""
    return any(word.startswith(_INSTITUTION_STEMS) or word in _INSTITUTION_WORDS for word in name_words(name))


def _written_backwards(a: PersonName, b: PersonName) -> bool:
    """Whether `a` is `b` with its given and family names the other way round: the family name cut to its
    initial ("Zhenming, L." for Zhenming Liu, "Feifei, L." for Fei-Fei Li), or the given names' initials
    where the family name belongs ("B.V.K, Kumar" for B. V. K. Vijaya Kumar: no family name is initials)."""
    family, given, other_given = name_words(a.family), name_words(a.given), name_words(b.given)
    other_family = _family(b.family)
    if family and all(len(word) == 1 for word in family) and len(given) == 1 and len(given[0]) > 1:
        return given[0] == other_family and [word[0] for word in other_given[: len(family)]] == list(family)
    return (
        len(family) == 1
        and len(given) == 1
        and len(given[0]) == 1
        and bool(other_given and other_family)
        and len(other_given[0]) > 1
        and family[0] in (other_given[0], "".join(other_given))
        and other_family.startswith(given[0])
    )


def _given_agrees(cited: str, found: str) -> bool:
    """With the same family name: whether one name's first given name is one of the other's given names,
    written in full, as an initial, with a typo or as a nickname. People go by a middle name ("Z. Kolter"
    for J. Zico Kolter, "Brendan McMahan" for H. Brendan McMahan) or by a name the record gives in
    parentheses ("Ben Leong" for Chee Wee (Ben) Leong); another first name with no given name in common
    ("Vivek" for "Varsha") is another person."""
    ours, theirs = name_words(cited), name_words(found)
    if not ours or not theirs:
        return True
    # The first given names agree; or, split into words in two ways ("Mingwei" / "Ming-Wei"), the whole
    # given names but for a typo. Split alike, a syllable apart is another name ("Kai-Wei" / "Tai-Wei").
    joined_typo = len(ours) != len(theirs) and _typo("".join(ours), "".join(theirs))
    if _same_given(ours[0], theirs[0]) or joined_typo:
        return True
    # A later given name counts only written in full, in the record ("Z. Kolter" for J. Zico Kolter) or in
    # the citation ("J. Zico Kolter" for Zico Kolter): a later initial may be an invented first name's
    # neighbour ("Sumaiya S. Zettlemoyer" for Luke S. Zettlemoyer, "Y. D. Hromada" for Daniel D. Hromada).
    return any(len(word) > 1 and _same_given(ours[0], word) for word in theirs[1:]) or (
        len(theirs[0]) > 1 and any(len(word) > 1 and _same_given(theirs[0], word) for word in ours[1:])
    )


def _family(family: str) -> str:
    return fold(family).replace(" ", "").lower()


def _family_forms(name: str) -> set[str]:
    """A name's family name, and the same with its given names' last words before it: a double family name
    written in natural order ("Luís Morgado da Costa") is parsed with its first part as a given name, where
    the inverted form ("Morgado da Costa, Luís") keeps it whole."""
    parsed = parse_name(name)
    given = parsed.given.split()
    # The first given name stays one, and an initial is no family name's part.
    words = [word for word in given[1:] if len(word.rstrip(".")) > 1]
    return {_family(" ".join([*words[k:], parsed.family])) for k in range(len(words) + 1)}


def _same_given(a: str, b: str) -> bool:
    if a == b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    return _typo(a, b) or _nickname(a, b)


def _typo(a: str, b: str) -> bool:
    """One letter wrong, missing, added or swapped ("Schmidhueber"), or most letters shared. In a name of
    a syllable or two ("Yang", "Ming", "Hwan") one letter wrong, missing or added makes another name ("Tang",
    "Ting", "Han"), so there only two letters swapped are a typo ("Blie", "Zhnag"); in "Li" / "Lu" none."""
    a, b = a.rstrip("."), b.rstrip(".")
    shorter = min(len(a), len(b))
    if shorter < _MIN_TYPO_NAME:
        return False
    if shorter < _MIN_FREE_TYPO_NAME:
        return len(a) == len(b) and sorted(a) == sorted(b) and OSA.distance(a, b) == 1
    return OSA.distance(a, b) <= 1 or Indel.normalized_similarity(a, b) >= _NAME_TYPO_SIMILARITY


def _nickname(a: str, b: str) -> bool:
    return frozenset((a.rstrip("."), b.rstrip("."))) in _NICKNAMES


def _same_words(cited: str, found: str) -> bool:
    """The same name words in any order, an initial standing for a word: "M. Pawan Kumar" / "Pawan Kumar
    Mudigonda" (a given name written as a family name's initial). Two full words must agree, or one when
    every word of a three-word name is accounted for: "Tuan, L. A." for Anh Tuan Luu, who publishes family
    name first as Luu Anh Tuan. The words are read as written, and as the parser reads them, initials run
    together split: "Hiep, VH" for Hoang-Hiep Vu."""
    written = _words_agree(name_words(cited), name_words(found))
    return written or _words_agree(_parsed_words(cited), _parsed_words(found))


def _words_agree(ours: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    if len(ours) > len(theirs):
        ours, theirs = theirs, ours
    left, full = list(theirs), 0
    for word in ours:
        partner = next((t for t in left if t == word), None) or next(
            (t for t in left if (len(word) == 1 or len(t) == 1) and t[:1] == word[:1]), None
        )
        if partner is None:
            return False
        left.remove(partner)
        full += partner == word and len(word) > 1
    return full >= 2 or (full == 1 and not left and len(theirs) >= _MIN_WORDS_ONE_FULL)


def _parsed_words(name: str) -> tuple[str, ...]:
    """A name's words as the parser reads them, given names first: "Hiep, VH" -> v, h, hiep."""
    parsed = parse_name(name)
    return name_words(parsed.given) + name_words(parsed.family)


def _venue(cited: ParsedFields, record: Record) -> Graded:
    """Venues the table knows apart, a workshop for the main event and a preprint cited as published
    are graded major where they are found (field_rules); what is left are names the table does not know."""
    ours = parse_venue(cited.venue) if cited.venue else None
    theirs = parse_venue(record.venue) if record.venue else None
    if ours is None or theirs is None:
        return MAJOR, "", "differs"
    if ours.key is None and theirs.key is None:
        return MINOR, "venue names the rules cannot recognise; check the correction", "neither_known"
    return MINOR, "one venue name is not recognised; check the correction", "one_unknown"


def _year(cited: ParsedFields, record: Record) -> Graded:
    if cited.year is None or record.year is None:
        return MAJOR, "", "differs"
    gap = cited.year - record.year
    if cites_repository(cited):
        # Code and data are released before their paper and again after it: any year can be a release's.
        return MINOR, "a release's year of the work's code or data, not its paper's", "repository_release"
    if gap == -1:
        return MINOR, "a year before the published version's: the preprint's year", "one_before"
    # A year after the published version's is another version's only where one can come later.
    # `check_year` has found those benign (a preprint cited or posted after the proceedings, a preprint
    # record, the journal version); with no venue cited, nothing says which version is meant. At the
    # record's own venue no version has it.
    if gap == 1 and not cited.venue:
        return MINOR, "a year after the record's: a later version's year", "one_after_version"
    if later_version_at_unknown_venue(cited, record):
        why = "a later year at a venue the rules do not know: the later version's (a journal, a chapter)?"
        return MINOR, why, "unknown_venue_version"
    if gap < 0 and cites_preprint(cited):
        id_year = arxiv_year(cited.arxiv_id) if cited.arxiv_id else None
        if -gap <= _PREPRINT_LEAD_YEARS or id_year == cited.year:
            return MINOR, f"the preprint's year, {-gap} years before the published version's", "preprint_lead"
    if gap < 0 and not cited.venue and -gap <= _PREPRINT_LEAD_YEARS:
        # No venue cited, so no venue-year is claimed: a year before the only version the index holds is
        # the one an earlier version carries (a preprint, a report), as a year after it is a later one's.
        note = f"no venue cited: an earlier version's year, {-gap} before the record's"
        return MINOR, note, "before_no_venue"
    # No version has the year; how far and which way still tell a slip (a proceedings volume dated the
    # year after its meeting) from an invented year.
    direction = "after" if gap > 0 else "before"
    distance = {1: "one", 2: "two"}.get(abs(gap), "years")
    return MAJOR, "a year no version of the work has", f"no_version_{distance}_{direction}"


def _identifier(check: FieldCheck) -> Graded:
    """Another work's identifier and one that does not exist are graded major where they are found."""
    if not check.cited or not check.found:
        return MAJOR, "", "differs"
    cited, found = check.cited.casefold(), check.found.casefold()
    if found.startswith(cited):
        return MINOR, "the identifier cut short (broken across a line?)", "cut_short"
    if OSA.distance(cited, found) <= _IDENTIFIER_TYPO_EDITS:
        return MINOR, "a typo in the identifier", "typo"
    return MAJOR, "", "differs"
