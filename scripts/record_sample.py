"""What the benches that judge an index's own records, cited another way, share: their arguments, the
records they sample, and the rules judge called on one record as the SOP calls it (no coverage to prove
absence, the index answering who has written with whom)."""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

from refhound.agents.index_search import Candidate
from refhound.agents.judge import Judgement, judge
from refhound.index.store import IndexStore
from refhound.models import ParsedFields, Record
from refhound.normalize.titles import title_similarity
from refhound.settings import JudgeSettings

# The year the judge takes for "now": fixed, so that a run gives the same verdicts in any year.
_THIS_YEAR = 2026


def arguments(doc: str, seed: int) -> argparse.Namespace:
    """--index, --n and --seed, with the script's docstring as its help."""
    parser = argparse.ArgumentParser(
        description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--n", type=int, default=3000, help="records sampled")
    parser.add_argument("--seed", type=int, default=seed)
    return parser.parse_args()


def records_with_coauthors(db: sqlite3.Connection) -> list[Record]:
    """Every record of the index with two authors or more, in the table's order."""
    rows = db.execute(
        "SELECT source, source_id, title, authors, venue, year, doi FROM records WHERE authors LIKE '[%,%'"
    )
    return [
        Record(
            source=source,
            source_id=source_id,
            source_version="sample",
            title=title,
            authors=json.loads(authors),
            venue=venue,
            year=year,
            doi=doi,
        )
        for source, source_id, title, authors, venue, year, doi in rows
    ]


def judged(
    cited: ParsedFields, record: Record, store: IndexStore, settings: JudgeSettings, hosts: bool = True
) -> Judgement:
    """The rules judge's verdict on `cited` against `record`, the one candidate; `hosts=False` judges as
    an index that knows no volume's host event would."""
    similarity = title_similarity(cited.title or "", record.title)
    return judge(
        cited,
        [Candidate(record, similarity, "title")],
        lambda *_: [],
        settings,
        _THIS_YEAR,
        co_authorship=store.co_authorship,
        known_name=store.knows_name,
        host_events=store.host_events if hosts else None,
    )
