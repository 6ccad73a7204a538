"""Retraction marks from each source's own wording: Crossref's `updated-by`/`update-to` (on a fixture WRITTEN
FROM Crossref's documented schema, named so: no recorded body carries them), Retraction Watch's CSV (a
fixture written from its documented 20-column header), arXiv's withdrawal comments, and which mark a work
shows."""

from __future__ import annotations

import json
from pathlib import Path

from refhound.formats.crossref import work_notices, work_records
from refhound.formats.openalex import work_record as openalex_record
from refhound.index.ingest.retraction_watch import read_retraction_watch
from refhound.index.store import IndexStore
from refhound.models import Retraction, RetractionKind
from refhound.retractions import Notice, arxiv_withdrawal, is_withdrawal_comment, iso_date, most_serious

FIXTURES = Path(__file__).parent / "fixtures"
K = RetractionKind


def _works() -> dict[str, dict[str, object]]:
    data = json.loads((FIXTURES / "crossref-updates-written-from-schema.json").read_text())
    return {name: work for name, work in data.items() if not name.startswith("_")}


def _record(name: str):  # type: ignore[no-untyped-def]
    return next(work_records(iter([(name, _works()[name])]), "2026-01-01", []))


def test_a_work_updated_by_a_retraction_is_retracted_whatever_else_updates_it() -> None:
    mark = _record("retracted_work").retraction
    assert mark == Retraction(
        kind=K.RETRACTED, notice_doi="10.5555/24242424y", date="2021-06-02", source="retraction-watch"
    )


def test_an_expression_of_concern_is_its_own_kind_from_the_publisher() -> None:
    mark = _record("concerned_work").retraction
    assert mark == Retraction(
        kind=K.EXPRESSION_OF_CONCERN, notice_doi="10.5555/eoc.1", date="2023-02", source="crossref"
    )


def test_an_erratum_or_a_new_version_is_no_mark() -> None:
    assert _record("corrected_work").retraction is None
    notices = work_notices(_works()["retraction_notice"])
    assert [n.key for n in notices] == ["10.5555/33334444"]  # the new version is not marked


def test_a_notice_update_to_marks_the_work_it_updates_not_itself() -> None:
    notice = _record("retraction_notice")
    assert notice.retraction is None
    (marked,) = work_notices(_works()["retraction_notice"])
    assert marked == Notice(
        "doi",
        "10.5555/33334444",
        Retraction(
            kind=K.WITHDRAWN, notice_doi="10.5555/withdrawal.notice", date="2024-05-06", source="crossref"
        ),
    )


def test_openalex_says_retracted_without_notice_or_date() -> None:
    work = {"id": "https://openalex.org/W1", "title": "T", "is_retracted": True}
    assert openalex_record(work, "v").retraction == Retraction(kind=K.RETRACTED, source="openalex")  # type: ignore[union-attr]
    assert openalex_record({**work, "is_retracted": False}, "v").retraction is None  # type: ignore[union-attr]


def test_arxiv_withdrawal_comments() -> None:
    assert is_withdrawal_comment("This paper has been withdrawn by the author due to a crucial error")
    assert is_withdrawal_comment("Withdrawn")
    assert is_withdrawal_comment("withdrawn by arXiv administrators due to disputed authorship")
    assert not is_withdrawal_comment("12 pages; supersedes the withdrawn v1 of a companion paper")
    assert not is_withdrawal_comment("37 pages, 15 figures; published version")
    assert not is_withdrawal_comment(None)
    mark = arxiv_withdrawal("paper withdrawn", "Wed, 5 Mar 2008 04:28:27 GMT")
    assert mark == Retraction(kind=K.WITHDRAWN, date="2008-03-05", source="arxiv")


def test_dates() -> None:
    assert iso_date("7/12/2023 0:00") == "2023-07-12"
    assert iso_date("2019-07-26T00:00:00Z") == "2019-07-26"
    assert iso_date("nonsense") is None


def test_the_most_serious_mark_shows_and_a_later_reinstatement_lifts_earlier_ones() -> None:
    concern = Retraction(kind=K.EXPRESSION_OF_CONCERN, date="2020-01-01", source="crossref")
    retracted = Retraction(kind=K.RETRACTED, date="2021-01-01", source="retraction-watch")
    assert most_serious([None, concern, retracted]) == retracted
    lifted = Notice("doi", "x", reinstated="2022-01-01")
    assert most_serious([concern, retracted, lifted]) is None
    later = Retraction(kind=K.RETRACTED, date="2023-01-01", source="retraction-watch")
    assert most_serious([retracted, lifted, later]) == later


def test_retraction_watch_rows_become_records_and_marks(tmp_path: Path) -> None:
    dump = read_retraction_watch(FIXTURES / "retraction-watch-written-from-header.csv")
    with IndexStore.create(tmp_path / "rw.db") as store:
        result = store.ingest(dump)
        assert result.records == 6  # every row's original paper is a record (the same paper once per row)
        # Marks kept: the retractions of papers 1 and 4, the concern on 2 (4's reinstatement is kept apart).
        assert store.stats()["retractions"] == 3
        mark = most_serious(store.retraction_notices("10.5555/RW.PAPER.1", None))
        assert mark == Retraction(
            kind=K.RETRACTED, notice_doi="10.5555/rw.notice.1", date="2021-06-02", source="retraction-watch"
        )
        concern = most_serious(store.retraction_notices("https://doi.org/10.5555/rw.paper.2", None))
        assert concern is not None and concern.kind is K.EXPRESSION_OF_CONCERN
        assert most_serious(store.retraction_notices("10.5555/rw.paper.3", None)) is None  # a correction
        assert most_serious(store.retraction_notices("10.5555/rw.paper.4", None)) is None  # reinstated
        (record,) = store.by_doi("10.5555/rw.paper.1")
        assert (record.record.title, record.record.authors, record.record.year) == (
            "A Retracted Example Paper",
            ["Ada Example", "Bo Sample"],
            2019,
        )


WITHDRAWN_FEED = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom"
      xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <opensearch:totalResults>1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/0704.0156v2</id>
    <updated>2008-03-05T04:28:27Z</updated>
    <published>2007-04-02T12:02:40Z</published>
    <title>Nonlinear force-free coronal magnetic field extrapolation scheme based
  on the direct boundary integral formulation</title>
    <summary>This paper has been withdrawn by the authors.</summary>
    <author><name>Han He</name></author>
    <author><name>Huaning Wang</name></author>
    <arxiv:comment>This paper has been withdrawn by the authors. This paper has been accepted for
  publication in JGR-Space Physics.</arxiv:comment>
  </entry>
</feed>"""


def test_an_arxiv_api_entry_whose_comment_withdraws_it_is_withdrawn() -> None:
    """An Atom entry in arXiv's API format (its fields as the API's documentation gives them, the values
    those of the real withdrawn listing 0704.0156): the comment marks it, dated by `<updated>`."""
    from refhound.sources.arxiv import parse_feed

    (record,) = parse_feed(WITHDRAWN_FEED, "2026-01-01").records
    assert record.retraction == Retraction(kind=K.WITHDRAWN, date="2008-03-05", source="arxiv")
    assert parse_feed(WITHDRAWN_FEED.replace(b"withdrawn", b"revised"), "v").records[0].retraction is None


def test_crossref_look_ups_ask_for_updated_by() -> None:
    from refhound.sources.crossref import _SELECT

    assert "updated-by" in _SELECT.split(",")


def test_the_real_withdrawn_listing_of_arxivs_sample_is_the_only_one_marked(tmp_path: Path) -> None:
    from refhound.index.ingest.arxiv import read_arxiv_snapshot
    from tests.conftest import shared_path

    sample = shared_path("index", "arxiv-oai-snapshot-sample-200.jsonl")
    with IndexStore.create(tmp_path / "arxiv.db") as store:
        store.ingest(read_arxiv_snapshot(sample))
        assert store.stats()["retractions"] == 1
        (notice,) = store.retraction_notices(None, "0704.0156")
        assert notice.retraction == Retraction(kind=K.WITHDRAWN, date="2008-03-05", source="arxiv")
        # The listing carries its journal version's DOI, which is not withdrawn with the preprint.
        assert store.retraction_notices("10.1029/2007JA012441", None) == []
