"""The strict judge on real papers: each rule of the verdict table, through index retrieval."""

from __future__ import annotations

from pathlib import Path

import pytest

from refhound.agents.index_search import Candidate, find_candidates
from refhound.agents.judge import judge
from refhound.index.ingest.base import Dump
from refhound.index.store import IndexStore
from refhound.models import FieldStatus, ParsedFields, Record, Severity, Verdict
from refhound.normalize.titles import title_key, title_similarity
from refhound.refstring import parse_reference_string
from refhound.settings import JudgeSettings

SETTINGS = JudgeSettings()
BERT = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
BERT_AUTHORS = ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"]
RESNET_AUTHORS = ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"]


def run(store: IndexStore, **fields: object):  # type: ignore[no-untyped-def]
    cited = ParsedFields(**fields)  # type: ignore[arg-type]
    return judge(cited, find_candidates(cited, store, SETTINGS), store.coverage, SETTINGS, this_year=2026)


def statuses(judgement) -> dict[str, FieldStatus]:  # type: ignore[no-untyped-def]
    return {f.field: f.status for f in judgement.fields}


def test_exact_citation_is_verified(store: IndexStore) -> None:
    j = run(store, title=BERT, authors=BERT_AUTHORS, venue="NAACL-HLT", year=2019, doi="10.18653/v1/N19-1423")
    assert j.verdict is Verdict.VERIFIED
    assert statuses(j) == {
        "title": "match",
        "authors": "match",
        "venue": "match",
        "year": "match",
        "doi": "match",
    }
    assert j.evidence[0].record_id == "conf/naacl/DevlinCLT19"


def test_benign_differences_are_reported_not_hidden(store: IndexStore) -> None:
    j = run(
        store,
        title="The BERT -- pre-training of deep bidirectional transformers for language understanding.",
        authors=["J. Devlin", "M.-W. Chang", "K. Lee", "K. Toutanova"],
        venue="Proc. of NAACL",
        year=2019,
    )
    assert j.verdict is Verdict.VERIFIED
    assert statuses(j)["title"] is FieldStatus.BENIGN
    assert statuses(j)["authors"] is FieldStatus.BENIGN


def test_wrong_year_gives_the_correct_value_and_its_source(store: IndexStore) -> None:
    j = run(
        store,
        title="Deep Residual Learning for Image Recognition",
        authors=RESNET_AUTHORS,
        venue="CVPR",
        year=2015,
    )
    assert j.verdict is Verdict.METADATA_ERROR
    year = next(f for f in j.fields if f.field == "year")
    assert (year.status, year.cited, year.found) == (FieldStatus.MISMATCH, "2015", "2016")
    assert "dblp record conf/cvpr/HeZRS16" in j.reason


GPT3_AUTHORS = ["Tom B. Brown", "Benjamin Mann", "Nick Ryder", "Melanie Subbiah"]


def test_year_off_by_one_is_benign_for_a_preprint(store: IndexStore) -> None:
    j = run(
        store,
        title="Language models are few-shot learners",
        authors=GPT3_AUTHORS,
        venue="arXiv preprint",
        year=2021,
        arxiv_id="2005.14165",
    )
    assert j.verdict is Verdict.VERIFIED
    assert statuses(j)["year"] is FieldStatus.BENIGN
    assert statuses(j)["venue"] is FieldStatus.MATCH


def test_a_venue_the_index_knows_only_as_a_preprint_is_not_confirmed(store: IndexStore) -> None:
    j = run(
        store, title="Language models are few-shot learners", authors=GPT3_AUTHORS, venue="NeurIPS", year=2020
    )
    assert j.verdict is Verdict.UNVERIFIED
    assert statuses(j)["venue"] is FieldStatus.UNCHECKED


def test_a_preprint_cited_at_a_completely_indexed_venue_is_a_metadata_error(store: IndexStore) -> None:
    j = run(
        store, title="Language models are few-shot learners", authors=GPT3_AUTHORS, venue="ICML", year=2019
    )
    venue = next(f for f in j.fields if f.field == "venue")
    assert j.verdict is Verdict.METADATA_ERROR
    assert venue.status is FieldStatus.MISMATCH and "only a preprint" in venue.note
    # While the index lacks a volume held with ICML 2019, the published version may be in it: unconfirmed.
    cited = ParsedFields(
        title="Language models are few-shot learners", authors=GPT3_AUTHORS, venue="ICML", year=2019
    )
    j = judge(
        cited,
        find_candidates(cited, store, SETTINGS),
        store.coverage,
        SETTINGS,
        this_year=2026,
        unheld_volumes=lambda key, year: ("2019.findings-icml",),
    )
    venue = next(f for f in j.fields if f.field == "venue")
    assert (venue.level, venue.status) == ("venue.only_preprint_found", FieldStatus.UNCHECKED)


@pytest.mark.parametrize(
    ("authors", "truncated", "verdict"),
    [
        (
            ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun", "Ross Girshick"],
            False,
            Verdict.METADATA_ERROR,
        ),
        (["Kaiming He", "Xiangyu Zhang"], False, Verdict.METADATA_ERROR),  # dropped without et al.
        (["Kaiming He", "Xiangyu Zhang"], True, Verdict.VERIFIED),  # "He, Zhang, et al."
        (
            ["Kaiming He", "Jian Sun", "Shaoqing Ren", "Xiangyu Zhang"],
            False,
            Verdict.VERIFIED,
        ),  # order differs after the first author
        (
            ["Jian Sun", "Kaiming He", "Shaoqing Ren", "Xiangyu Zhang"],
            False,
            Verdict.METADATA_ERROR,
        ),  # another first author (a minor error: see test_severity)
        (["He, K.", "Zhang, X.", "Ren, S.", "Sun, J."], False, Verdict.VERIFIED),
        (["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jane Sun"], False, Verdict.METADATA_ERROR),
    ],
)
def test_author_rules(store: IndexStore, authors: list[str], truncated: bool, verdict: Verdict) -> None:
    j = run(
        store,
        title="Deep residual learning for image recognition",
        authors=authors,
        authors_truncated=truncated,
        venue="CVPR",
        year=2016,
    )
    assert j.verdict is verdict, j.fields


@pytest.mark.parametrize(
    ("venue", "status"),
    [
        ("CVPR", FieldStatus.MATCH),
        ("Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition", FieldStatus.MATCH),
        ("arXiv preprint arXiv:1512.03385", FieldStatus.BENIGN),
        ("IEEE Transactions on Pattern Analysis and Machine Intelligence", FieldStatus.BENIGN),
        ("ICCV", FieldStatus.MISMATCH),
        ("CVPR Workshop on Deep Vision", FieldStatus.MISMATCH),
    ],
)
def test_venue_rules(store: IndexStore, venue: str, status: FieldStatus) -> None:
    j = run(
        store,
        title="Deep Residual Learning for Image Recognition",
        authors=RESNET_AUTHORS,
        venue=venue,
        year=2016,
    )
    assert statuses(j)["venue"] is status


@pytest.mark.parametrize(
    ("venue", "status"),
    [
        ("ACL workshop (SemEval)", FieldStatus.BENIGN),  # the satellite event cited with its host
        ("SemEval", FieldStatus.MATCH),
        ("ACL workshop", FieldStatus.MISMATCH),
        ("ACL", FieldStatus.MISMATCH),
    ],
)
def test_a_satellite_event_named_beside_its_host(venue: str, status: FieldStatus) -> None:
    from refhound.agents.field_rules import check_venue

    record = _record(
        "SemEval 2017 Task 10: ScienceIE - Extracting Keyphrases and Relations from Scientific Publications",
        ["Isabelle Augenstein", "Mrinal Das", "Sebastian Riedel", "Lakshmi Vikraman", "Andrew McCallum"],
        "Proceedings of the 11th International Workshop on Semantic Evaluation (SemEval-2017)",
        2017,
    )
    cited = ParsedFields(title=record.title, venue=venue, year=2017)
    assert check_venue(cited, record, SETTINGS, lambda key, year: []).status is status


@pytest.mark.parametrize(
    ("venue", "record_venue", "level"),
    [
        # A joint volume, cited by the series it names second.
        (
            "Proceedings of the 7th International Workshop on Semantic Evaluation (SemEval 2013)",
            "Second Joint Conference on Lexical and Computational Semantics (*SEM), Volume 2: "
            "Proceedings of the Seventh International Workshop on Semantic Evaluation (SemEval 2013)",
            "venue.names_it_among_others",
        ),
        # A conference's Findings or workshop volume names the conference, but is not its main proceedings.
        ("EMNLP 2020", "Findings of the Association for Computational Linguistics: EMNLP 2020", None),
        (
            "CVPR 2019",
            "IEEE Conference on Computer Vision and Pattern Recognition Workshops, CVPR Workshops 2019",
            None,
        ),
    ],
)
def test_a_volume_that_names_the_cited_series_among_others(
    venue: str, record_venue: str, level: str | None
) -> None:
    from refhound.agents.field_rules import check_venue

    record = _record("A Task of the Year", ["Ann Writer"], record_venue, 2013)
    check = check_venue(
        ParsedFields(title=record.title, venue=venue, year=2013), record, SETTINGS, lambda k, y: []
    )
    if level is None:
        assert check.level != "venue.names_it_among_others" and check.status is FieldStatus.MISMATCH, check
    else:
        assert (check.level, check.status) == (level, FieldStatus.BENIGN), check


@pytest.mark.parametrize(
    ("venue", "status", "level"),
    [
        ("NUT@EMNLP", FieldStatus.BENIGN, "venue.acronym_of_name"),  # dblp's short name, held with EMNLP
        ("MRQA@EMNLP", FieldStatus.MISMATCH, "venue.differs"),  # another workshop held with EMNLP
        ("NTT@EMNLP", FieldStatus.MISMATCH, "venue.differs"),  # an acronym of other words
    ],
)
def test_a_workshop_cited_by_its_acronym(venue: str, status: FieldStatus, level: str) -> None:
    from refhound.agents.field_rules import check_venue

    record = _record(
        "A Simple Text Normalization Benchmark",
        ["Ann Writer"],
        "Proceedings of the 3rd Workshop on Noisy User-generated Text",
        2017,
    )
    cited = ParsedFields(title=record.title, venue=venue, year=2017)
    check = check_venue(cited, record, SETTINGS, lambda key, year: [])
    assert (check.status, check.level) == (status, level)


def test_doi_of_another_work_is_a_mismatch(store: IndexStore) -> None:
    j = run(
        store,
        title="Attention is not Explanation",
        authors=["Sarthak Jain", "Byron C. Wallace"],
        venue="NAACL",
        year=2019,
        doi="https://doi.org/10.18653/v1/N19-1423",
    )
    assert j.verdict is Verdict.METADATA_ERROR
    doi = next(f for f in j.fields if f.field == "doi")
    assert doi.status is FieldStatus.MISMATCH and doi.found == "10.18653/v1/n19-1357"


def test_the_works_short_name_alone_is_its_title_where_the_doi_names_it(store: IndexStore) -> None:
    # "BERT" for "BERT: Pre-training of …", as a reference manager's short title keeps it.
    j = run(store, title="BERT", authors=BERT_AUTHORS, venue="NAACL", year=2019, doi="10.18653/v1/N19-1423")
    title = next(f for f in j.fields if f.field == "title")
    assert (title.level, title.severity) == ("title.subtitle", Severity.MINOR), j.fields
    assert statuses(j)["doi"] is FieldStatus.MATCH
    assert j.evidence[0].record_id == "conf/naacl/DevlinCLT19"
    # Another work's DOI stays another work's: the short name is not its title's.
    j = run(store, title="BERT", authors=BERT_AUTHORS, venue="NAACL", year=2019, doi="10.18653/v1/N19-1357")
    assert statuses(j).get("doi") is not FieldStatus.MATCH


def test_near_miss_title_is_a_metadata_error_with_the_real_title(store: IndexStore) -> None:
    j = run(
        store,
        title="Attention is All we Need",
        authors=["Ashish Vaswani", "Noam Shazeer"],
        authors_truncated=True,
        venue="NIPS",
        year=2017,
    )
    assert j.verdict is Verdict.METADATA_ERROR
    title = next(f for f in j.fields if f.field == "title")
    assert title.status is FieldStatus.MISMATCH and title.found == "Attention is All you Need"


def test_real_title_with_invented_authors_is_a_metadata_error(store: IndexStore) -> None:
    j = run(
        store,
        title="Attention is not Explanation",
        authors=["Petra Silva", "Yuki Sato"],
        venue="NAACL",
        year=2019,
    )
    assert j.verdict is Verdict.METADATA_ERROR
    assert statuses(j)["authors"] is FieldStatus.MISMATCH


def test_a_title_missing_from_a_complete_venue_is_wrong_but_offline_not_proof_of_fabrication(
    store: IndexStore,
) -> None:
    # A real work cited at another venue or year is missing there as well: only the online sources can tell.
    j = run(
        store,
        title="Contrastive Curriculum Distillation for Sparse Mixture Models",
        authors=["Wei Seo", "Tamara Fu"],
        venue="Proceedings of the 36th International Conference on Machine Learning",
        year=2019,
    )
    assert j.verdict is Verdict.UNVERIFIED
    assert "ICML 2019" in j.reason and "dblp" in j.reason and "online sources can tell" in j.reason
    assert j.levels == ("coverage.absent_from_complete",)


# A work no index record has, cited by ICML 2019's main proceedings, which the test index holds completely.
INVENTED_AT_ICML_2019 = ParsedFields(
    title="Contrastive Curriculum Distillation for Sparse Mixture Models",
    authors=["Wei Seo", "Tamara Fu"],
    venue="Proceedings of the 36th International Conference on Machine Learning",
    year=2019,
)


def test_absence_from_a_conferences_main_volume_proves_nothing_while_its_findings_are_missing(
    store: IndexStore,
) -> None:
    # The dump lists ICML 2019 with its Findings, of which the index has no paper: a Findings paper cited by
    # the conference's name is a slip, so the main proceedings held completely do not prove the work absent.
    cited = INVENTED_AT_ICML_2019
    found = find_candidates(cited, store, SETTINGS)

    def unheld(key: str, year: int) -> tuple[str, ...]:
        return ("2019.findings-icml",) if (key, year) == ("icml", 2019) else ()

    j = judge(cited, found, store.coverage, SETTINGS, this_year=2026, unheld_volumes=unheld)
    assert j.verdict is Verdict.UNVERIFIED
    assert "coverage.absent_from_complete" not in j.levels
    assert "it lacks 2019.findings-icml, held with it" in j.reason
    # Every volume held: absence counts again.
    j = judge(cited, found, store.coverage, SETTINGS, this_year=2026, unheld_volumes=lambda key, year: ())
    assert j.levels == ("coverage.absent_from_complete",)


@pytest.mark.parametrize("venue", ["ICML", "In Proc. of ICML 2019"])
def test_a_bare_acronym_proves_no_absence_it_also_names_volumes_the_index_may_not_hold(
    store: IndexStore, venue: str
) -> None:
    j = run(
        store,
        title="Contrastive Curriculum Distillation for Sparse Mixture Models",
        authors=["Wei Seo", "Tamara Fu"],
        venue=venue,
        year=2019,
    )
    assert j.verdict is Verdict.UNVERIFIED and j.levels == ()
    assert "ICML 2019 completely" in j.reason and "can name a volume it may not hold" in j.reason


def test_a_bare_acronym_proves_absence_where_every_volume_of_the_event_is_held(store: IndexStore) -> None:
    cited = INVENTED_AT_ICML_2019.model_copy(update={"venue": "ICML"})
    found = find_candidates(cited, store, SETTINGS)
    j = judge(cited, found, store.coverage, SETTINGS, this_year=2026, event_gaps=lambda key, year: ())
    assert j.levels == ("coverage.absent_from_complete",)
    assert (
        "any volume of ICML 2019 (cited as 'ICML'" in j.reason and "every volume the dump lists" in j.reason
    )

    # A listed volume the index lacks: the work may be there, and the reason names it.
    def lacking(key: str, year: int) -> tuple[str, ...]:
        return ("2019.nonarchival-1",)

    j = judge(cited, found, store.coverage, SETTINGS, this_year=2026, event_gaps=lacking)
    assert j.levels == () and "it lacks 2019.nonarchival-1, listed with the event" in j.reason


def test_a_title_no_online_source_has_either_at_a_complete_venue_is_fabricated(store: IndexStore) -> None:
    cited = INVENTED_AT_ICML_2019
    candidates = find_candidates(cited, store, SETTINGS)
    j = judge(cited, candidates, store.coverage, SETTINGS, this_year=2026, searched_online=True)
    assert j.verdict is Verdict.FABRICATED
    assert "icml" in j.reason.casefold() and "dblp" in j.reason and "no online source" in j.reason


def test_unknown_title_outside_coverage_is_unverified(store: IndexStore) -> None:
    j = run(
        store,
        title="Contrastive Curriculum Distillation for Sparse Mixture Models",
        authors=["Wei Seo", "Tamara Fu"],
        venue="ICLR",
        year=2023,
    )
    assert j.verdict is Verdict.UNVERIFIED
    assert "does not cover" in j.reason


def test_a_citation_without_title_venue_or_year_says_what_the_index_could_not_show(store: IndexStore) -> None:
    # Only an identifier no record carries: its resolver, not the index, can say whose it is.
    j = run(store, arxiv_id="2112.09118")
    assert j.verdict is Verdict.UNVERIFIED
    assert "no title to search by" in j.reason and "arXiv id 2112.09118" in j.reason
    # A title no record has, with no venue and year: nothing says the index would hold it.
    j = run(store, title="Contrastive Curriculum Distillation for Sparse Mixture Models", authors=["Wei Seo"])
    assert j.verdict is Verdict.UNVERIFIED
    assert "with no venue and year cited" in j.reason


def test_a_year_in_the_future_is_never_verified(store: IndexStore) -> None:
    j = run(
        store,
        title="Attention is not Explanation",
        authors=["Sarthak Jain", "Byron C. Wallace"],
        venue="NAACL",
        year=2033,
    )
    assert j.verdict is Verdict.METADATA_ERROR
    assert "future" in next(f.note for f in j.fields if f.field == "year")


def test_a_doi_the_index_cannot_confirm_leaves_the_reference_unverified(store: IndexStore) -> None:
    j = run(
        store,
        title="Revisiting Self-Supervised Visual Representation Learning",
        authors=["Alexander Kolesnikov", "Xiaohua Zhai", "Lucas Beyer"],
        venue="ICML",
        year=2019,
        doi="10.47281/bed.57189",
    )
    assert j.verdict is Verdict.UNVERIFIED
    assert statuses(j)["doi"] is FieldStatus.UNCHECKED


def test_a_title_with_a_typo_is_still_found(store: IndexStore) -> None:
    j = run(
        store,
        title="Revisiting Self-Supervsied Visual Representation Learning",
        authors=["Alexander Kolesnikov", "Xiaohua Zhai", "Lucas Beyer"],
        venue="ICML",
        year=2019,
    )
    assert j.verdict is Verdict.METADATA_ERROR
    assert (
        next(f for f in j.fields if f.field == "title").found
        == "Revisiting Self-Supervised Visual Representation Learning"
    )


def test_no_title_and_no_identifier_is_unverified(store: IndexStore) -> None:
    assert run(store, authors=["Kaiming He"], year=2016).verdict is Verdict.UNVERIFIED


# --- borderline: what the rules flag but cannot settle (the verdict stays theirs) -------------------------


def _record(title: str, authors: list[str], venue: str, year: int, **extra: str) -> Record:
    return Record(
        source="crossref",
        source_id=extra.pop("doi", "x"),
        source_version="test",
        title=title,
        authors=authors,
        venue=venue,
        year=year,
        entry_type="article",
        **extra,
    )


LSTM = _record(
    "Long Short-Term Memory",
    ["Sepp Hochreiter", "Jürgen Schmidhuber"],
    "Neural Computation",
    1997,
    doi="10.1162/neco.1997.9.8.1735",
)
KOLMOGOROV = _record(
    "On the representation of continuous functions of many variables by superposition of continuous "
    "functions of one variable and addition",
    ["A. N. Kolmogorov"],
    "Doklady Akademii Nauk SSSR",
    1957,
)
GREENGARD = _record(
    "A fast algorithm for particle simulations",
    ["Leslie Greengard", "Vladimir Rokhlin"],
    "Journal of Computational Physics",
    1987,
)


VIETNAMESE = _record("The LAMBADA dataset", ["Ngoc Quan Pham", "Marco Baroni"], "ACL", 2016)
NODE = _record("Neural Ordinary Differential Equations", ["Tian Qi Chen", "Yulia Rubanova"], "NeurIPS", 2018)


def judge_against(record: Record, **fields: object):  # type: ignore[no-untyped-def]
    """The rules on one citation with `record` as the only candidate, and no index coverage."""
    cited = ParsedFields(**fields)  # type: ignore[arg-type]
    similarity = title_similarity(cited.title, record.title) if cited.title else 0.0
    return judge(cited, [Candidate(record, similarity, "title")], lambda key, year: [], SETTINGS, 2026)


def test_a_title_in_the_borderline_band_is_flagged(store: IndexStore) -> None:
    j = run(
        store,
        title="Attention is All we Need",
        authors=["Ashish Vaswani", "Noam Shazeer"],
        authors_truncated=True,
        venue="NIPS",
        year=2017,
    )
    assert j.verdict is Verdict.METADATA_ERROR  # unchanged
    assert j.borderline is not None and "title similarity 0.90" in j.borderline


def test_a_title_with_a_typo_is_not_borderline(store: IndexStore) -> None:
    j = run(
        store,
        title="Revisiting Self-Supervsied Visual Representation Learning",
        authors=["Alexander Kolesnikov", "Xiaohua Zhai", "Lucas Beyer"],
        venue="ICML",
        year=2019,
    )
    assert j.verdict is Verdict.METADATA_ERROR and j.borderline is None


def test_the_band_follows_the_setting(store: IndexStore) -> None:
    cited = ParsedFields(title="Attention is All we Need", authors=["Ashish Vaswani"], authors_truncated=True)
    settings = JudgeSettings(title_borderline_similarity=0.85)
    j = judge(cited, find_candidates(cited, store, settings), store.coverage, settings, this_year=2026)
    assert j.verdict is Verdict.METADATA_ERROR and j.borderline is None


def test_a_near_title_with_another_year_is_not_taken_for_the_work(store: IndexStore) -> None:
    # Near title, same authors, another year: another work of theirs as readily as a reworded title.
    j = run(
        store,
        title="Attention is All we Need",
        authors=["Ashish Vaswani", "Noam Shazeer"],
        authors_truncated=True,
        venue="NIPS",
        year=2015,
    )
    assert j.verdict is Verdict.UNVERIFIED


# A proceedings' front matter: the ACL Anthology holds "Book Reviews", "Advertisements", "Preface" with no
# authors, volume after volume.
BOOK_REVIEWS = _record("Book Reviews", [], "American Journal of Computational Linguistics", 1980)


def test_a_record_without_authors_is_not_taken_for_a_cited_work_of_the_same_generic_title() -> None:
    # TUGboat's bibliography: Poppelier and Hendrickson's book reviews, in another journal, twelve years on
    j = judge_against(
        BOOK_REVIEWS,
        title="Book reviews",
        authors=["Nico Poppelier", "Amy Hendrickson"],
        venue="Nederlandstalige TeX Gebruikersgroep",
        year=1992,
    )
    assert (j.verdict, j.record) == (Verdict.UNVERIFIED, None), j.reason


def test_front_matter_cited_by_no_one_is_not_another_volumes_of_the_same_title() -> None:
    # A 1994 book's preface, cited with its editors in an editor field and no author, is not a journal's
    # book reviews of 1980: a title this short names one work only at its venue and year.
    cited = {"title": "Book reviews", "authors": [], "venue": "The greening of industrial ecosystems"}
    j = judge_against(BOOK_REVIEWS, **cited, year=1994)
    assert (j.verdict, j.record) == (Verdict.UNVERIFIED, None), j.reason
    # A venue of no known series is named as cited, not shouted as an acronym.
    assert "does not cover 'The greening of industrial ecosystems' 1994 completely" in j.reason
    j = judge_against(
        BOOK_REVIEWS, **{**cited, "venue": "American Journal of Computational Linguistics"}, year=1980
    )
    assert j.record == BOOK_REVIEWS, j.reason


def test_a_record_without_authors_at_the_cited_venue_and_year_is_the_work() -> None:
    j = judge_against(
        BOOK_REVIEWS,
        title="Book reviews",
        authors=["Nico Poppelier"],
        venue="American Journal of Computational Linguistics",
        year=1980,
    )
    # compared with the record, every field right; its authors only a resolver could confirm
    assert (j.verdict, j.record) == (Verdict.UNVERIFIED, BOOK_REVIEWS), j.reason
    assert {f.field: f.status for f in j.fields}["venue"] is FieldStatus.MATCH


def test_a_doubtful_author_with_another_clear_error_is_not_borderline() -> None:
    j = judge_against(LSTM, title=LSTM.title, authors=["Sepp Hochreiter", "Juergen Schmidhuber"], year=1995)
    assert j.verdict is Verdict.METADATA_ERROR  # the year is wrong whoever the authors are
    assert j.borderline is None and j.doubted == ()


@pytest.mark.parametrize(
    ("record", "authors"),
    [
        (LSTM, ["Sepp Hochreiter", "Juergen Schmidhuber"]),  # ü written as ue
        (LSTM, ["Сепп Хохрайтер", "Юрген Шмидхубер"]),  # in Cyrillic
        (KOLMOGOROV, ["А. Н. Колмогоров"]),
        (VIETNAMESE, ["Quan Ngoc Pham", "Marco Baroni"]),  # given names in another order
    ],
)
def test_names_written_another_way_are_flagged(record: Record, authors: list[str]) -> None:
    j = judge_against(record, title=record.title, authors=authors, venue=record.venue, year=record.year)
    assert j.verdict is Verdict.METADATA_ERROR  # the rules alone cannot tell
    assert statuses(j)["authors"] is FieldStatus.MISMATCH
    assert j.doubted == ("authors",)
    assert j.borderline is not None and j.borderline.startswith("author names that may be the same people")


def test_an_adopted_given_name_before_the_initials_of_the_record_is_the_same_name() -> None:
    # "Ricky T. Q. Chen" is Tian Qi Chen: the initials spell both given names the record has.
    authors = ["Ricky T. Q. Chen", "Yulia Rubanova"]
    j = judge_against(NODE, title=NODE.title, authors=authors, venue=NODE.venue, year=NODE.year)
    assert j.verdict is Verdict.VERIFIED, j.reason


@pytest.mark.parametrize(
    "authors",
    [
        ["Sepp Hochreiter", "Jürgen Schmidt"],  # another person
        ["Juergen Schmidhuber"],  # Hochreiter dropped without "et al."
        ["Sepp Hochreiter", "Juergen Schmidhuber", "Alex Graves"],  # one added
        ["Сепп Хохрайтер", "Александр Грейвс"],
    ],
)
def test_real_author_errors_are_not_borderline(authors: list[str]) -> None:
    j = judge_against(LSTM, title=LSTM.title, authors=authors, venue="Neural Computation", year=1997)
    assert j.verdict is Verdict.METADATA_ERROR and j.borderline is None


def test_a_family_name_written_first_is_already_benign() -> None:
    j = judge_against(GREENGARD, title=GREENGARD.title, authors=["Greengard Leslie", "Rokhlin Vladimir"])
    assert j.verdict is Verdict.VERIFIED and j.borderline is None


def test_ascii_names_that_differ_are_not_a_romanisation_question(store: IndexStore) -> None:
    j = run(
        store,
        title="Deep residual learning for image recognition",
        authors=["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jane Sun"],
        venue="CVPR",
        year=2016,
    )
    assert j.verdict is Verdict.METADATA_ERROR and j.borderline is None


def test_an_unrecognised_but_similar_venue_is_flagged() -> None:
    j = judge_against(
        GREENGARD, title=GREENGARD.title, authors=GREENGARD.authors, venue="J. Comput. Phys.", year=1987
    )
    assert j.verdict is Verdict.METADATA_ERROR
    assert (
        j.borderline is not None
        and "'J. Comput. Phys.' vs 'Journal of Computational Physics'" in j.borderline
    )


@pytest.mark.parametrize("venue", ["Neural Networks", "Bioinformatics"])
def test_a_plainly_different_venue_is_not_borderline(venue: str) -> None:
    j = judge_against(LSTM, title=LSTM.title, authors=LSTM.authors, venue=venue, year=1997)
    assert j.verdict is Verdict.METADATA_ERROR and j.borderline is None


def test_two_recognised_venues_are_not_borderline(store: IndexStore) -> None:
    j = run(
        store,
        title="Deep Residual Learning for Image Recognition",
        authors=RESNET_AUTHORS,
        venue="ICCV",
        year=2016,
    )
    assert j.verdict is Verdict.METADATA_ERROR and j.borderline is None


def test_several_doubts_are_all_named() -> None:
    j = judge_against(
        GREENGARD,
        title=GREENGARD.title,
        authors=["Leslie Greengard", "Владимир Рохлин"],
        venue="J. Comput. Phys.",
        year=1987,
    )
    assert j.borderline is not None
    assert "author names" in j.borderline and "venue" in j.borderline


@pytest.mark.parametrize(
    "fields",
    [
        {"title": BERT, "authors": BERT_AUTHORS, "venue": "NAACL-HLT", "year": 2019},  # verified
        {"title": "Deep Residual Learning for Image Recognition", "authors": RESNET_AUTHORS, "year": 2015},
        {
            "title": "Contrastive Curriculum Distillation for Sparse Mixture Models",
            "venue": "ICML",
            "year": 2019,
        },
        {
            "title": "Language models are few-shot learners",
            "authors": GPT3_AUTHORS,
            "venue": "NeurIPS",
            "year": 2020,
        },
        {"authors": ["Kaiming He"], "year": 2016},
    ],
)
def test_unambiguous_cases_are_not_borderline(store: IndexStore, fields: dict[str, object]) -> None:
    assert run(store, **fields).borderline is None


def test_a_span_that_is_a_title_word_for_word_is_found_by_its_key(tmp_path: Path) -> None:
    """A long title that the full-text ranking puts behind shorter titles with the same rare words is
    still found in a string the parser misread (its first words taken for names)."""
    title = (
        "Combining Lexical, Syntactic, and Semantic Features with Maximum Entropy Models for Information "
        "Extraction"
    )
    shorter = "Combining Lexical Syntactic Semantic Features Maximum Entropy Models Information Extraction"
    records = [
        Record(
            source="acl-anthology", source_id=f"X{n}", source_version="t", title=shorter, authors=["J. Roe"]
        )
        for n in range(3)
    ]
    records.append(
        Record(
            source="acl-anthology",
            source_id="P04-3022",
            source_version="t",
            title=title,
            authors=["Nanda Kambhatla"],
            year=2004,
        )
    )
    with IndexStore.create(tmp_path / "i.sqlite") as store:
        store.ingest(Dump(source="acl-anthology", version="t", complete=False, records=iter(records)))
    store = IndexStore.open(tmp_path / "i.sqlite")
    assert "P04-3022" not in [r.record.source_id for r in store.search_title(title_key(title), 2)]
    raw = f"Kambhatla N. {title}. In: Proceedings of the ACL Interactive Poster and Demonstration; 2004."
    found = find_candidates(
        parse_reference_string(raw), store, SETTINGS.model_copy(update={"candidates": 2}), raw
    )
    assert "P04-3022" in [c.record.source_id for c in found]


BIOGRAPHY = (
    "Jane Doe is Associate Professor of Sociology at York University. Her research focuses on labour markets "
    "and migration. Address: Department of Sociology, Room 2060 Vari Hall, York University, 4700 Keele "
    "Street, Toronto, Ontario M3J 1P3, Canada."
)


def test_a_future_year_read_from_a_string_without_authors_proves_nothing(store: IndexStore) -> None:
    # A biography the layout stage took for a reference: its "year" is a room number.
    parsed = parse_reference_string(BIOGRAPHY)
    assert parsed.year == 2060 and not parsed.authors
    j = judge(parsed, find_candidates(parsed, store, SETTINGS), store.coverage, SETTINGS, this_year=2026)
    assert j.verdict is not Verdict.FABRICATED
    assert "year.future" not in {f.level for f in j.fields} | set(j.levels)


def test_a_future_year_in_a_string_that_reads_as_a_reference_still_proves_invention(
    store: IndexStore,
) -> None:
    cited = ParsedFields(
        title="Contrastive Curriculum Distillation for Sparse Mixture Models", authors=["Wei Seo"], year=2060
    )
    j = judge(cited, find_candidates(cited, store, SETTINGS), store.coverage, SETTINGS, this_year=2026)
    assert j.verdict is Verdict.FABRICATED
    assert "coverage.future_year" in j.levels


def test_a_templates_fillers_are_wrong_fields_whatever_the_coverage(store: IndexStore) -> None:
    j = run(
        store,
        title="Augmented legal reasoning for case outcome prediction",
        authors=["Alex Bornmanica", "Jane Doe"],
        venue="arXiv",
        year=2024,
        url="https://arxiv.org/abs/2401.XXXX",
    )
    assert j.verdict is Verdict.UNVERIFIED  # a filler proves the citation wrong, not the work absent
    fillers = {f.field: (f.status, f.level, f.severity) for f in j.fields if f.level and "filler" in f.level}
    assert fillers == {
        "authors": (FieldStatus.MISMATCH, "authors.filler", "major"),
        "arxiv_id": (FieldStatus.MISMATCH, "arxiv_id.filler", "major"),
    }
    assert "Jane Doe is a template's filler" in next(f.note for f in j.fields if f.field == "authors")
    assert "Jane Doe is a template's filler, not an author" in j.reason


# A title of many words names one work; the index holds such titles under authors with no one in common
# for 0.04% of them.
CLASS_INCREMENTAL = _record(
    "Maintaining Discrimination and Fairness in Class Incremental Learning",
    ["Bowen Zhao", "Xi Xiao", "Guojun Gan", "Bin Zhang", "Shu-Tao Xia"],
    "CVPR",
    2020,
)
DEEP_LEARNING = _record(
    "Deep learning", ["Ian Goodfellow", "Yoshua Bengio", "Aaron Courville"], "MIT Press", 2016
)


def test_a_specific_title_with_invented_authors_and_another_year_is_that_work_with_wrong_fields() -> None:
    j = judge_against(
        CLASS_INCREMENTAL,
        title="Maintaining discrimination and fairness in class incremental learning",
        authors=["Y. Zhu", "D. Zhou", "Z. Wang"],
        venue="CVPR",
        year=2022,
    )
    assert (j.verdict, j.record) == (Verdict.METADATA_ERROR, CLASS_INCREMENTAL), j.reason
    assert statuses(j)["authors"] is FieldStatus.MISMATCH
    # The match rests on the title alone, a level the model weighs of its own.
    assert j.levels == ("identity.title_alone",)


def test_a_title_matched_with_a_cited_author_carries_no_identity_level() -> None:
    j = judge_against(
        CLASS_INCREMENTAL,
        title="Maintaining discrimination and fairness in class incremental learning",
        authors=["Bowen Zhao", "D. Zhou"],
        venue="CVPR",
        year=2022,
    )
    assert (j.verdict, j.levels) == (Verdict.METADATA_ERROR, ()), j.reason


def test_a_generic_title_under_other_authors_and_another_year_is_another_work() -> None:
    j = judge_against(
        DEEP_LEARNING,
        title="Deep learning",
        authors=["Yann LeCun", "Geoffrey Hinton"],
        venue="Nature",
        year=2015,
    )
    assert (j.verdict, j.record) == (Verdict.UNVERIFIED, None), j.reason


def test_how_many_words_name_one_work_is_a_setting() -> None:
    cited = ParsedFields(
        title=CLASS_INCREMENTAL.title, authors=["Y. Zhu", "D. Zhou"], venue="CVPR", year=2022
    )
    candidates = [Candidate(CLASS_INCREMENTAL, 1.0, "title")]
    strict = JudgeSettings(specific_title_words=12)
    assert judge(cited, candidates, lambda key, year: [], strict, 2026).verdict is Verdict.UNVERIFIED
