"""Records from outside the index as the judge's candidates: those that may be the cited work, best first.

Shared by the stages that gather records online (scholar, web): a record is a candidate when its title is
near the cited one (`near_title`), or when it carries the cited DOI / arXiv id whatever its title (the
judge tells a DOI of another work from a typo). Every stage, the index's too, ranks its candidates with
`best_first`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from refhound.agents.alignment import PrintedString
from refhound.agents.context import Candidate
from refhound.index.anthology import anthology_id_in
from refhound.models import ParsedFields, Record
from refhound.normalize.names import name_key
from refhound.normalize.titles import main_title_of, title_key, title_similarity
from refhound.normalize.venues import bare_conference_key, main_proceedings_key
from refhound.settings import JudgeSettings
from refhound.sources.base import same_identifier

# A work renamed at publication (its preprint's title cited) is named by its whole author list, and at most
# this many co-authors who joined it at publication.
AUTHORS_JOINED = 1


def records_as_candidates(
    cited: ParsedFields,
    records: Iterable[Record],
    settings: JudgeSettings,
    stage: str,
    note: Callable[[Record], str] = lambda record: "",
    raw: str | None = None,
) -> list[Candidate]:
    """At most `settings.candidates` candidates, each record once, best first.

    With the printed string `raw`, a record far from the parsed title is a candidate too when the string
    prints its title and authors (`agents/alignment.py`): the parse is then in doubt, not the work.
    """
    seen: set[tuple[str, str, str]] = set()
    string = PrintedString(raw) if raw else None
    candidates = []
    for record in records:
        key = (record.source, record.source_id.casefold(), record.title.casefold())
        if key in seen:
            continue
        seen.add(key)
        similarity = title_similarity(cited.title, record.title) if cited.title else 0.0
        via = same_identifier(cited, record) or "title"
        if via == "title" and not near_title(cited.title, record.title, similarity, settings):
            printed = string.find(record) if string is not None else None
            if printed is None or not printed.confirms():
                continue
            via = "raw"
        candidates.append(Candidate(record, similarity, via, stage=stage, note=note(record)))
    return best_first(cited, candidates, settings.candidates)


def near_title(cited: str | None, found: str, similarity: float, settings: JudgeSettings) -> bool:
    """Whether a record's title is near enough the cited one for the record to be the cited work: similar
    (`similarity` is theirs), or one of them the other without its subtitle."""
    return similarity >= settings.title_candidate_similarity or bool(cited and main_title_of(cited, found))


def named_by_anthology_id(anthology_id: str, candidates: Iterable[Candidate]) -> Candidate | None:
    """The candidate that is a record of the Anthology paper with this ID, however it was found."""
    return next((c for c in candidates if anthology_id_in(c.record) == anthology_id), None)


def best_first(cited: ParsedFields, candidates: list[Candidate], limit: int) -> list[Candidate]:
    """The `limit` best candidates: by title similarity, then the cited year, then shared author names
    (generic titles such as "Introduction" can have hundreds of exact matches)."""
    cited_names = {name_key(a) for a in cited.authors}
    ranked = sorted(
        candidates,
        key=lambda c: (
            c.title_similarity,
            c.record.year == cited.year,
            len(cited_names.intersection(name_key(a) for a in c.record.authors)),
        ),
        reverse=True,
    )
    return ranked[:limit]


# The volumes of a conference's event of a year the index lacks, None when unknown (`IndexStore.event_gaps`).
EventGaps = Callable[[str, int], tuple[str, ...] | None]


class HeldVenue(NamedTuple):
    key: str
    whole_event: bool  # cited by its bare name: every volume of its event, not its main proceedings only


def held_venue(cited: ParsedFields, event_gaps: EventGaps | None = None) -> HeldVenue | None:
    """The series whose cited year, when the index holds it completely, makes the work's absence evidence: a
    paper (not a proceedings volume cited as a work) cited by the main proceedings of a conference
    (`main_proceedings_key`) in a given year, or by its bare name ("EMNLP 2022") where `event_gaps` says
    the index lacks no volume of that year's event the name can mean."""
    if not cited.venue or cited.year is None or not cited.title:
        return None
    if title_key(cited.title).startswith("proceedings "):
        return None
    main = main_proceedings_key(cited.venue)
    if main is not None:
        return HeldVenue(main, whole_event=False)
    bare = bare_conference_key(cited.venue)
    if bare is not None and event_gaps is not None and event_gaps(bare, cited.year) == ():
        return HeldVenue(bare, whole_event=True)
    return None
