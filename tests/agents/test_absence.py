"""Absence from a venue-year held completely: when it counts as evidence, and the search behind it."""

from __future__ import annotations

from pathlib import Path

import pytest

from refhound.agents.candidates import held_venue
from refhound.agents.index_search import find_candidates
from refhound.index.store import IndexStore
from refhound.models import ParsedFields, Reference, Severity, Verdict
from refhound.normalize.venues import bare_conference_key, main_proceedings_key
from refhound.settings import JudgeSettings
from tests.conftest import check_offline

ICML_2019 = "Proceedings of the 36th International Conference on Machine Learning"


@pytest.mark.parametrize(
    ("venue", "key"),
    [
        (ICML_2019, "icml"),
        ("Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics", "acl"),
        # a bare acronym also names the series' companion, Findings and workshop volumes
        ("ICML", None),
        ("In WWW", None),
        ("EMNLP 2023", None),
        ("Proc. of ACL", None),
        # volumes beside the main proceedings
        ("Companion Proceedings of the The Web Conference 2018", None),
        ("Proceedings of the 58th Annual Meeting of the ACL: Student Research Workshop", None),
        # what is given at a conference without a paper in its proceedings
        ("Invited Talk by Kate Crawford at NIPS 2017", None),
        ("Keynote at the 36th International Conference on Machine Learning", None),
        (
            "Proceedings of IEEE International Conference on Computer Vision (ICCV-W 2013), 300 Faces "
            "in-the-Wild Challenge (300-W)",
            None,
        ),
        # a journal's year is published issue by issue
        ("Computational Linguistics", None),
    ],
)
def test_only_a_conferences_main_proceedings_make_absence_evidence(venue: str, key: str | None) -> None:
    assert main_proceedings_key(venue) == key


@pytest.mark.parametrize(
    ("venue", "key"),
    [
        ("ICML", "icml"),
        ("In WWW", "www"),
        ("EMNLP 2023", "emnlp"),
        ("Proc. of ACL", "acl"),
        (ICML_2019, None),  # the main proceedings, named
        ("Findings of EMNLP 2023", None),
        ("EMNLP Workshop BlackboxNLP", None),
        ("Computational Linguistics", None),
    ],
)
def test_a_conferences_bare_name_stands_for_any_volume_of_its_event(venue: str, key: str | None) -> None:
    assert bare_conference_key(venue) == key


def test_a_bare_name_makes_absence_evidence_only_where_every_volume_of_the_event_is_held() -> None:
    cited = ParsedFields(title="Sparse Hypergraph Attention", venue="In EMNLP", year=2021)
    assert held_venue(cited) is None  # the volumes of the event unknown
    assert held_venue(cited, lambda key, year: None) is None  # an event the dump lists nothing with
    assert held_venue(cited, lambda key, year: ("2021.nonarchival-1",)) is None
    assert held_venue(cited, lambda key, year: ()) == ("emnlp", True)
    venue = "Proceedings of the 2021 Conference on Empirical Methods in Natural Language Processing"
    named = cited.model_copy(update={"venue": venue})
    assert held_venue(named) == ("emnlp", False)


def test_a_proceedings_volume_cited_as_a_work_is_no_paper_missing_from_it() -> None:
    volume = "Proceedings of the Ninth International Conference on Language Resources and Evaluation"
    assert held_venue(ParsedFields(title=volume, venue=volume, year=2014)) is None


@pytest.mark.parametrize(
    "written",
    [
        "Revisiting Self Supervised Visual Representation Learning",  # a compound written apart
        "Revisiting Selfsupervised Visual Representation Learning",  # written joined
        'Revisiting "Self-Supervised" Visual Representation Learning',  # stray quote marks
        "Revisting Self-Supervised Visual Representation Learning",  # a typo
    ],
)
def test_before_absence_counts_the_venue_years_titles_are_compared_whole(
    written: str, store: IndexStore
) -> None:
    for year in (2019, 2020):  # the cited year, and one off
        cited = ParsedFields(title=written, venue=ICML_2019, year=year)
        found = find_candidates(cited, store, JudgeSettings())
        assert "conf/icml/KolesnikovZB19" in [c.record.source_id for c in found], (written, year)


def test_a_title_absent_from_a_complete_venue_year_fires_its_level_offline(
    store: IndexStore, tmp_path: Path
) -> None:
    invented = ParsedFields(
        title="Sparse Hypergraph Attention for Quantum Gradient Descent",
        authors=["Jane Doe"],
        venue=ICML_2019,
        year=2019,
    )
    result = check_offline(Reference(id="1", raw="r", parsed=invented, structured=True), store, tmp_path)
    assert result.verdict is Verdict.UNVERIFIED  # offline, a real work cited elsewhere looks the same
    assert "coverage.absent_from_complete" in result.levels
    assert result.likelihood is not None and result.likelihood > 0.5
    bare = invented.model_copy(update={"venue": "ICML"})
    result = check_offline(Reference(id="2", raw="r", parsed=bare, structured=True), store, tmp_path)
    assert "coverage.absent_from_complete" not in result.levels
    assert "can name a volume it may not hold" in result.reason


def test_a_work_under_another_of_its_titles_is_found_by_its_whole_author_list(
    store: IndexStore, tmp_path: Path
) -> None:
    # The preprint's title cited with the venue ("Image question answering: …" for NIPS 2015's "Exploring
    # Models and Data for Image Question Answering"): the cited authors' paper of that venue-year.
    renamed = ParsedFields(
        title="A Large-Scale Study of Self-Supervised Visual Models",
        authors=["Alexander Kolesnikov", "Xiaohua Zhai", "Lucas Beyer"],
        venue=ICML_2019,
        year=2019,
    )
    result = check_offline(Reference(id="1", raw="r", parsed=renamed, structured=True), store, tmp_path)
    title = next(f for f in result.fields if f.field == "title")
    assert title.level == "title.another_version" and result.severity is Severity.MINOR
    assert "coverage.absent_from_complete" not in result.levels
    # The list in another order, or the published list with a co-author who joined it, names it too
    # (OpenReview's submission title cited for ICLR 2019's "Representing Formal Languages: …").
    for authors in (
        ["Xiaohua Zhai", "Alexander Kolesnikov", "Lucas Beyer"],
        ["Alexander Kolesnikov", "Lucas Beyer"],  # Zhai joined it
    ):
        other = renamed.model_copy(update={"authors": authors})
        result = check_offline(Reference(id="3", raw="r", parsed=other, structured=True), store, tmp_path)
        title = next(f for f in result.fields if f.field == "title")
        assert title.level == "title.another_version" and result.severity is Severity.MINOR, authors
    # A list with a stranger, one leaving two of its authors out, or a title sharing no words, names no
    # work there: absence stands.
    for changes in (
        {"authors": ["Alexander Kolesnikov", "Xiaohua Zhai", "Jane Doe"]},
        {"authors": ["Alexander Kolesnikov"]},
        {"authors": ["Alexander Kolesnikov", "Xiaohua Zhai"]},  # cut short: without its last author
        {"title": "Sparse Hypergraph Attention for Quantum Gradient Descent"},
    ):
        other = renamed.model_copy(update=changes)
        result = check_offline(Reference(id="2", raw="r", parsed=other, structured=True), store, tmp_path)
        assert "coverage.absent_from_complete" in result.levels, changes
