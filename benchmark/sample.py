"""Real records for the generator: a seeded walk over an index, the pools perturbations draw from, and the
check that a fake is not, by accident, another real record.

Determinism: for one index file and one seed, the walk visits the same records in the same order, because
it shuffles row ids with the generator's own `random.Random` and reads rows by id. The pools (names, title
words, DOIs) come from the first records of a second walk with a derived seed, so drawing from them never
shifts which records the items are made from.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import date

from refhound.index.store import IndexStore
from refhound.normalize.identifiers import normalize_doi
from refhound.normalize.names import name_key, parse_name
from refhound.normalize.text import fold
from refhound.normalize.titles import title_key
from refhound.normalize.venues import parse_venue

_COLUMNS = (
    "id, source, source_id, title, authors, venue, venue_key, venue_kind, year, doi, arxiv_id, entry_type"
)
_FETCH = 500  # rows read per query during the walk
_POOL_RECORDS = 20_000  # records the name / title-word / DOI pools are built from
_MIN_TITLE_TOKENS = 4
_MAX_AUTHORS = 30
_MAX_VENUE_CHARS = 250


@dataclass(frozen=True)
class Cited:
    """A citation's fields as the generator writes them (a real record's, or perturbed)."""

    title: str
    authors: tuple[str, ...]
    venue: str | None
    year: int | None
    entry_type: str = "inproceedings"
    doi: str | None = None
    arxiv_id: str | None = None

    def but(self, **changes: object) -> Cited:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SourceRecord:
    """A record of the index the generator starts from."""

    rowid: int
    source: str
    source_id: str
    cited: Cited
    venue_key: str | None
    venue_kind: str | None

    @property
    def ref(self) -> str:
        return f"{self.source}:{self.source_id}"


def _record(row: tuple[object, ...]) -> SourceRecord:
    rowid, source, source_id, title, authors, venue, vkey, vkind, year, doi, arxiv, etype = row
    cited = Cited(
        title=str(title),
        authors=tuple(json.loads(str(authors))),
        venue=str(venue) if venue else None,
        year=int(str(year)) if year is not None else None,
        entry_type="article" if etype == "article" else "inproceedings",
        doi=str(doi) if doi else None,
        arxiv_id=str(arxiv) if arxiv else None,
    )
    return SourceRecord(
        int(str(rowid)),
        str(source),
        str(source_id),
        cited,
        str(vkey) if vkey else None,
        str(vkind) if vkind else None,
    )


def _person(name: str) -> tuple[str, str]:
    """A name reduced to what any citation style keeps: the family name and the first initial."""
    return name_key(name), fold(parse_name(name).given)[:1]


def suitable(record: SourceRecord, this_year: int) -> bool:
    """Records a manuscript would plausibly cite, with every field a citation prints: a real title (not
    "Table of contents"), named authors, a venue and a year."""
    c = record.cited
    return (
        len(title_key(c.title).split()) >= _MIN_TITLE_TOKENS
        and 1 <= len(c.authors) <= _MAX_AUTHORS
        and c.venue is not None
        and len(c.venue) <= _MAX_VENUE_CHARS
        and c.year is not None
        and 1950 <= c.year <= this_year
    )


@dataclass
class Pools:
    """What perturbations draw from: real names, real title words per venue, real DOIs."""

    names: list[str] = field(default_factory=list)
    given_names: list[str] = field(default_factory=list)
    titles_by_venue: dict[str, list[str]] = field(default_factory=dict)
    dois: list[str] = field(default_factory=list)


class IndexSampler:
    """Seeded, read-only access to an index's records for the generator."""

    def __init__(self, store: IndexStore, seed: int, this_year: int | None = None) -> None:
        self.store = store
        self.this_year = this_year or date.today().year
        self._db = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True)
        self.seed = seed
        (top,) = self._db.execute("SELECT coalesce(max(id), 0) FROM records").fetchone()
        self._top = int(top)

    def close(self) -> None:
        self._db.close()

    def walk(self, rng: random.Random) -> Iterator[SourceRecord]:
        """Suitable records in a random order given by `rng`, each at most once."""
        ids = list(range(1, self._top + 1))
        rng.shuffle(ids)
        for start in range(0, len(ids), _FETCH):
            chunk = ids[start : start + _FETCH]
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM records WHERE id IN ({','.join('?' * len(chunk))})", chunk
            ).fetchall()
            by_id = {int(row[0]): row for row in rows}
            for rowid in chunk:
                row = by_id.get(rowid)
                if row is not None:
                    record = _record(row)
                    if suitable(record, self.this_year):
                        yield record

    def pools(self) -> Pools:
        """Pools from the first records of a walk seeded apart from the items' walk."""
        pools = Pools()
        seen: set[str] = set()
        for count, record in enumerate(self.walk(random.Random(f"{self.seed}:pools"))):
            if count >= _POOL_RECORDS:
                break
            for name in record.cited.authors:
                if name not in seen and len(name.split()) >= 2:
                    seen.add(name)
                    pools.names.append(name)
                    given = parse_name(name).given.split()
                    if given and len(given[0]) > 2 and not given[0].endswith("."):
                        pools.given_names.append(given[0])
            pools.titles_by_venue.setdefault(record.venue_key or "", []).append(record.cited.title)
            if record.cited.doi:
                pools.dois.append(record.cited.doi)
        pools.given_names = sorted(set(pools.given_names))
        return pools

    def title_exists(self, title: str) -> bool:
        return bool(self.store.by_title_key(title_key(title)))

    def real_twin(self, cited: Cited) -> str | None:
        """Another real record this citation is equal to, if any (`source:id`), else None.

        Equal means: the same title key, the same people (family name and first initial, as a multiset),
        the same year, a venue of
        the same series (or, unrecognised, the same text), and no cited identifier the record lacks. This is
        equality after normalization only, not the judge's tolerance, so that discarding fakes never removes
        the ones the verifier happens to miss.
        """
        people = sorted(_person(a) for a in cited.authors)
        venue = parse_venue(cited.venue) if cited.venue else None
        for row in self.store.by_title_key(title_key(cited.title)):
            record = row.record
            if record.year != cited.year or sorted(_person(a) for a in record.authors) != people:
                continue
            if venue is not None and record.venue is not None:
                theirs = parse_venue(record.venue)
                same = venue.key == theirs.key if venue.key and theirs.key else venue.name == theirs.name
                if not same:
                    continue
            if cited.doi and normalize_doi(cited.doi) != (normalize_doi(record.doi) if record.doi else None):
                continue
            if cited.arxiv_id and cited.arxiv_id != record.arxiv_id:
                continue
            return f"{record.source}:{record.source_id}"
        return None
