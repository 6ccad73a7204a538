"""A wrong field's severity: major signals invention, minor is a human slip reported with its correction."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from refhound.agents.field_rules import CoAuthorship, KnownName, TitleText
from refhound.agents.index_search import Candidate
from refhound.agents.judge import Judgement, judge
from refhound.models import FieldCheck, FieldStatus, ParsedFields, Record, Severity, Verdict
from refhound.normalize.titles import title_similarity
from refhound.settings import JudgeSettings

SETTINGS = JudgeSettings()
LDA = Record(
    source="dblp",
    source_id="conf/nips/BleiNJ01",
    source_version="test",
    title="Latent Dirichlet Allocation",
    authors=["David M. Blei", "Andrew Y. Ng", "Michael I. Jordan"],
    venue="Advances in Neural Information Processing Systems 14 (NIPS 2001)",
    year=2001,
    entry_type="inproceedings",
)
FEDAVG = Record(
    source="dblp",
    source_id="conf/aistats/McMahanMRHA17",
    source_version="test",
    title="Communication-Efficient Learning of Deep Networks from Decentralized Data",
    authors=["Brendan McMahan", "Eider Moore", "Daniel Ramage", "Seth Hampson", "Blaise Agüera y Arcas"],
    venue="Proceedings of the 20th International Conference on Artificial Intelligence and Statistics",
    year=2017,
    doi="10.5555/aistats.2017.1273",
    entry_type="inproceedings",
)

FINDINGS = FEDAVG.model_copy(
    update={"venue": "Findings of the Association for Computational Linguistics: EMNLP 2020", "year": 2020}
)


def _named(record: Record, at: int, name: str) -> Record:
    """The record with its author at position `at` named `name`."""
    authors = list(record.authors)
    authors[at] = name
    return record.model_copy(update={"authors": authors})


def judged(
    record: Record,
    co_authorship: CoAuthorship | None = None,
    known_name: KnownName | None = None,
    title_text: TitleText | None = None,
    **changes: object,
) -> Judgement:
    fields = {
        "title": record.title,
        "authors": list(record.authors),
        "venue": record.venue,
        "year": record.year,
        **changes,
    }
    cited = ParsedFields(**fields)  # type: ignore[arg-type]
    candidate = Candidate(
        record, title_similarity(cited.title, record.title) if cited.title else 0.0, "title"
    )
    return judge(
        cited,
        [candidate],
        lambda key, year: [],
        SETTINGS,
        this_year=2026,
        co_authorship=co_authorship,
        known_name=known_name,
        title_text=title_text,
    )


def field(judgement: Judgement, name: str):  # type: ignore[no-untyped-def]
    return next(f for f in judgement.fields if f.field == name)


@pytest.mark.parametrize(
    ("record", "changes", "wrong"),
    [
        # A preprint's year, one before the published one.
        (FEDAVG, {"year": 2016}, "year"),
        # A year after, and no venue to say which version is cited.
        (FEDAVG, {"year": 2018, "venue": None}, "year"),
        # A preprint cited with its own year, years before the published version; with an arXiv id of
        # that year, however long before.
        (FEDAVG, {"year": 2014, "venue": "arXiv preprint"}, "year"),
        (FEDAVG, {"year": 2014, "venue": None, "arxiv_id": "1402.1234"}, "year"),
        (FEDAVG, {"year": 2010, "venue": "CoRR", "arxiv_id": "1003.1234"}, "year"),
        # An earlier version's author list: the last author joined later.
        (FEDAVG, {"authors": FEDAVG.authors[:4]}, "authors"),
        # A typo in a family name; a short or other given name; an initial for a name the record spells out.
        (LDA, {"authors": ["David M. Blie", "Andrew Y. Ng", "Michael I. Jordan"]}, "authors"),
        (
            _named(LDA, 1, "Jie Zhang"),
            {"authors": ["David M. Blei", "Jie Zhnag", "Michael I. Jordan"]},
            "authors",
        ),
        (LDA, {"authors": ["David M. Blei", "Andrew Y. Ng", "Michael I. Jordon"]}, "authors"),
        (LDA, {"authors": ["Dave Blei", "Andrew Y. Ng", "Michael I. Jordan"]}, "authors"),
        (LDA, {"authors": ["David M. Blei", "Y. Andrew Ng", "Michael I. Jordan"]}, "authors"),
        # A person known by a middle name, or by the name the record gives in parentheses; a nickname that
        # is no short form of the name; a name written family first and turned into initials.
        (
            _named(LDA, 0, "H. David Blei"),
            {"authors": ["D. Blei", "Andrew Y. Ng", "Michael I. Jordan"]},
            "authors",
        ),
        (
            _named(LDA, 0, "Chee Wee (Ben) Blei"),
            {"authors": ["Ben Blei", "Andrew Y. Ng", "Michael I. Jordan"]},
            "authors",
        ),
        (
            _named(LDA, 0, "Ruslan Blei"),
            {"authors": ["Russ Blei", "Andrew Y. Ng", "Michael I. Jordan"]},
            "authors",
        ),
        (
            _named(LDA, 0, "Anh Tuan Luu"),
            {"authors": ["Tuan, L. A.", "Andrew Y. Ng", "Michael I. Jordan"]},
            "authors",
        ),
        # A typo in the title.
        (
            FEDAVG,
            {"title": "Communication-Efficient Learning of Deep Networks from Decentralised Dta"},
            "title",
        ),
        # Another title for the work, cited as a preprint: the preprint's title may be an earlier one.
        (
            FEDAVG,
            {
                "title": "Federated Learning of Deep Networks from Decentralized Data",
                "venue": "arXiv preprint",
            },
            "title",
        ),
        # The title's words in another order.
        (
            FEDAVG,
            {"title": "Communication-Efficient Learning of Deep Networks from Data Decentralized"},
            "title",
        ),
        # The title without its subtitle.
        (
            FEDAVG.model_copy(update={"title": f"{FEDAVG.title}: the FedAvg algorithm"}),
            {"title": FEDAVG.title},
            "title",
        ),
        # A DOI cut short at a line break.
        (FEDAVG, {"doi": "10.5555/aistats"}, "doi"),
        # A digit wrong, or two swapped, in the identifier.
        (FEDAVG, {"doi": "10.5555/aistats.2017.1213"}, "doi"),
        (FEDAVG, {"doi": "10.5555/aistats.2017.1237"}, "doi"),
        # A Student Research Workshop paper cited at its conference's main proceedings.
        (
            FEDAVG.model_copy(
                update={
                    "venue": "Proceedings of the 58th Annual Meeting of the ACL: Student Research Workshop"
                }
            ),
            {"venue": "Proceedings of ACL 2020"},
            "venue",
        ),
        # A Findings paper cited at its host conference's main proceedings.
        (
            FINDINGS,
            {"venue": "Proceedings of the 2020 Conference on Empirical Methods in NLP (EMNLP)"},
            "venue",
        ),
        # The series' acronym with a typo.
        (LDA, {"venue": "In Proceedings, 14th NIPZ"}, "venue"),
        # A string cut at its start, inside the author list: the record's last authors, the first of them
        # a bare family name.
        (FEDAVG, {"authors": ["Hampson", "Blaise Agüera y Arcas"]}, "authors"),
        # Only the first of two family names ("Dalvi, B." for Bhavana Dalvi Mishra).
        (
            _named(LDA, 1, "Andrew García Ng"),
            {"authors": ["David M. Blei", "García, A.", "Michael I. Jordan"]},
            "authors",
        ),
        # Only the last part of a hyphenated family name, perhaps with a typo ("Iparraguirre, Jorge" and
        # "Bombarell, R." for Jorge Aguilera-Iparraguirre and Rafael Gómez-Bombarelli).
        (
            _named(LDA, 1, "Rafael Gómez-Bombarelli"),
            {"authors": ["David M. Blei", "Bombarell, R.", "Michael I. Jordan"]},
            "authors",
        ),
        # Every author, another one first.
        (LDA, {"authors": ["Andrew Y. Ng", "David M. Blei", "Michael I. Jordan"]}, "authors"),
    ],
)
def test_a_human_slip_is_a_minor_error_with_its_correction(
    record: Record, changes: dict[str, object], wrong: str
) -> None:
    j = judged(record, **changes)
    assert j.verdict is Verdict.METADATA_ERROR, j.reason
    assert j.severity is Severity.MINOR, j.fields
    assert field(j, wrong).status is FieldStatus.MISMATCH and field(j, wrong).severity is Severity.MINOR
    assert field(j, wrong).found  # the correction
    assert field(j, wrong).level  # the level the likelihood model weighs


REPL4NLP = FEDAVG.model_copy(
    update={
        "source": "acl-anthology",
        "source_id": "W19-4302",
        "venue": "Proceedings of the 4th Workshop on Representation Learning for NLP (RepL4NLP-2019)",
        "year": 2019,
    }
)


@pytest.mark.parametrize(
    ("record", "cited_venue", "host", "severity"),
    [
        # A workshop paper cited by the conference that hosted the workshop: a slip.
        (REPL4NLP, "Proceedings of ACL 2019", "acl-2019", Severity.MINOR),
        # ... by another conference: another event.
        (REPL4NLP, "Proceedings of EMNLP 2019", "acl-2019", Severity.MAJOR),
        # ... where the index knows no host: another event, as before hosts were kept.
        (REPL4NLP, "Proceedings of ACL 2019", None, Severity.MAJOR),
        # ... where the volume is filed under the year's catch-all workshop event alone, its host not
        # recorded: a conference of that year the Anthology publishes may be it.
        (REPL4NLP, "Proceedings of ACL 2019", "ws-2019", Severity.MINOR),
        # A workshop whose name says its host ("2019 ACL Workshop …"), cited by that host.
        (
            REPL4NLP.model_copy(update={"venue": "Proceedings of the 2019 ACL Workshop BlackboxNLP"}),
            "Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics",
            None,
            Severity.MINOR,
        ),
        (
            REPL4NLP.model_copy(
                update={"venue": "Proceedings of the Workshop on Figurative Language @ ACL 2019"}
            ),
            "Proceedings of ACL 2019",
            None,
            Severity.MINOR,
        ),
    ],
)
def test_a_volume_cited_by_the_conference_that_hosted_it(
    record: Record, cited_venue: str, host: str | None, severity: Severity
) -> None:
    cited = ParsedFields(title=record.title, authors=list(record.authors), venue=cited_venue, year=2019)
    j = judge(
        cited,
        [Candidate(record, 1.0, "title")],
        lambda key, year: [("acl-anthology", 1)],  # every venue-year held completely: no other version
        SETTINGS,
        this_year=2026,
        host_events=lambda r: [host] if host and r is record else [],
    )
    assert field(j, "venue").status is FieldStatus.MISMATCH
    assert (field(j, "venue").severity, j.severity) == (severity, severity), field(j, "venue").note


def test_a_workshop_whose_host_is_not_recorded_needs_a_conference_the_anthology_published_that_year() -> None:
    cited = ParsedFields(title=REPL4NLP.title, authors=list(REPL4NLP.authors), venue="ACL 2019", year=2019)

    def venue(held_by: str) -> FieldCheck:
        j = judge(
            cited,
            [Candidate(REPL4NLP, 1.0, "title")],
            lambda key, year: [(held_by, 1)],
            SETTINGS,
            this_year=2026,
            host_events=lambda r: ["ws-2019"],
        )
        return field(j, "venue")

    assert (venue("acl-anthology").level, venue("acl-anthology").severity) == (
        "venue.host_not_recorded",
        Severity.MINOR,
    )
    assert venue("dblp").severity is Severity.MAJOR


@pytest.mark.parametrize(
    ("record", "changes", "wrong"),
    [
        # An author who is no variant of any record author.
        (LDA, {"authors": ["David M. Blei", "Andrew Y. Ng", "Petra Quillfeather"]}, "authors"),
        # Another given name with the right family name: another person.
        (LDA, {"authors": ["Daniel M. Blei", "Andrew Y. Ng", "Michael I. Jordan"]}, "authors"),
        # The first author dropped, even when the others are the record's last authors in order.
        (LDA, {"authors": ["Andrew Y. Ng", "Michael I. Jordan"]}, "authors"),
        (LDA, {"authors": ["Ng", "Jordan"]}, "authors"),
        # Another author named first, the first left to 'et al.' ("Ng et al." for Blei et al.).
        (LDA, {"authors": ["Andrew Y. Ng"], "authors_truncated": True}, "authors"),
        # Another event's venue.
        (FEDAVG, {"venue": "International Conference on Machine Learning"}, "venue"),
        (FINDINGS, {"venue": "Proceedings of the 58th Annual Meeting of the ACL"}, "venue"),
        # A workshop cited by a conference that did not host it is another event.
        (
            FEDAVG.model_copy(
                update={"venue": "Proceedings of the Workshop on Figurative Language @ ACL 2020"}
            ),
            {"venue": "Proceedings of EMNLP 2020"},
            "venue",
        ),
        # A conference the venue table does not know, for a work of a series it knows.
        (LDA, {"venue": "Symposium on Probabilistic Topic Models"}, "venue"),
        (LDA, {"venue": "International Conference on Quantum Machine Learning"}, "venue"),
        # Names the record lacks among its authors, not only after them.
        (
            LDA,
            {"authors": ["David M. Blei", "Petra Quillfeather", "Andrew Y. Ng", "Michael I. Jordan"]},
            "authors",
        ),
        # Another title for the work, cited at its venue.
        (FEDAVG, {"title": "Federated Learning of Deep Networks from Decentralized Data"}, "title"),
        # A year no version of the work has: at the venue, or as a preprint long before it.
        (FEDAVG, {"year": 2012}, "year"),
        (FEDAVG, {"year": 2015}, "year"),
        (FEDAVG, {"year": 2010, "venue": "arXiv preprint"}, "year"),
        # A DOI that is not the work's.
        (FEDAVG, {"doi": "10.1109/cvpr.2016.90"}, "doi"),
        # Another paper number of the same volume: most characters shared, and another paper all the same.
        (FEDAVG, {"doi": "10.5555/aistats.2017.1853"}, "doi"),
        # A year after the published version's, at its own venue: no version of the work has it.
        (FEDAVG, {"year": 2018}, "year"),
        # In a name of a syllable or two, one letter makes another name: another person, not a typo.
        (
            _named(LDA, 1, "Jie Zhang"),
            {"authors": ["David M. Blei", "Jie Huang", "Michael I. Jordan"]},
            "authors",
        ),
        (
            _named(LDA, 1, "Kwang-Ting Cheng"),
            {"authors": ["David M. Blei", "Ming-Ming Cheng", "Michael I. Jordan"]},
            "authors",
        ),
        (
            _named(LDA, 1, "Tai-Wei Chang"),
            {"authors": ["David M. Blei", "Kai-Wei Chang", "Michael I. Jordan"]},
            "authors",
        ),
        # A middle initial is not a native given name behind an adopted one.
        (
            _named(LDA, 1, "Jennifer Foster"),
            {"authors": ["David M. Blei", "Dylan J. Foster", "Michael I. Jordan"]},
            "authors",
        ),
        # Romanisation merges Y and I: "Yannick" is no spelling of "Isabelle".
        (
            _named(LDA, 1, "Isabelle Estève"),
            {"authors": ["David M. Blei", "Yannick Estève", "Michael I. Jordan"]},
            "authors",
        ),
    ],
)
def test_a_sign_of_invention_is_a_major_error(record: Record, changes: dict[str, object], wrong: str) -> None:
    j = judged(record, **changes)
    assert j.verdict is Verdict.METADATA_ERROR, j.reason
    assert j.severity is Severity.MAJOR
    assert field(j, wrong).severity is Severity.MAJOR
    assert field(j, wrong).level


def test_names_after_the_records_whole_list_are_a_later_version_when_they_wrote_with_its_authors() -> None:
    # A later version's author list, or a record short of authors: the record's whole list, in order, then
    # names it lacks, one of whom has written with its authors in other records.
    authors = [*LDA.authors, "Petra Quillfeather", "Thomas L. Griffiths"]
    asked: list[tuple[str, tuple[str, ...]]] = []

    def griffiths_wrote_with_blei(name: str, others: Sequence[str]) -> str | None:
        asked.append((name, tuple(others)))
        found = name == "Thomas L. Griffiths" and "David M. Blei" in others
        return "dblp conf/x lists Thomas L. Griffiths with David M. Blei" if found else None

    j = judged(LDA, co_authorship=griffiths_wrote_with_blei, authors=authors)
    assert j.verdict is Verdict.METADATA_ERROR and j.severity is Severity.MINOR, j.fields
    assert "(dblp conf/x lists Thomas L. Griffiths with David M. Blei)" in (field(j, "authors").note or "")
    assert asked[0] == ("Petra Quillfeather", tuple(LDA.authors))


def test_a_name_after_the_records_whole_list_who_never_wrote_with_its_authors_is_a_major_error() -> None:
    # An invented name appended to a real list: nobody it has written with.
    for co_authorship in (None, lambda name, others: None):
        j = judged(LDA, co_authorship=co_authorship, authors=[*LDA.authors, "Petra Quillfeather"])
        assert j.severity is Severity.MAJOR
        assert "Petra Quillfeather is no variant" in (field(j, "authors").note or "")


@pytest.mark.parametrize(
    ("authors", "level"),
    [
        # The record author's given name in full, in the same place, another family name: a name changed
        # (Johannes Klicpera now writes as Johannes Gasteiger) or a slip. The model weighs the level.
        (["David M. Blei", "Andrew Y. Ng", "Michael I. Gasteiger"], "authors.family_name_other"),
        (["David M. Blei", "Andrew Gasteiger", "Michael I. Jordan"], "authors.family_name_other"),
        # An initial alone, or the name in another place, says nothing of the person.
        (["David M. Blei", "A. Gasteiger", "Michael I. Jordan"], "authors.one_stranger"),
        (["David M. Blei", "Michael I. Jordan", "Andrew Gasteiger"], "authors.one_stranger"),
        (["Andrew Gasteiger", "Michael Flint", "Michael I. Jordan"], "authors.mostly_strangers"),
    ],
)
def test_a_stranger_in_the_place_of_an_author_with_the_same_given_name_is_a_level_of_its_own(
    authors: list[str], level: str
) -> None:
    j = judged(LDA, authors=authors)
    assert field(j, "authors").level == level
    assert field(j, "authors").severity is Severity.MAJOR


IBERIAN = LDA.model_copy(
    update={"authors": ["Frantisek Kratochvil", "Luís Morgado da Costa", "María Rodríguez Sánchez"]}
)


@pytest.mark.parametrize(
    ("stranger", "level"),
    [
        # A double family name written inverted, with another given name: the family name in place, though
        # the record's natural order parses "Morgado" as a given name.
        ("Morgado da Costa, Lus", "authors.given_name_other"),
        # A given name of the record is no family name's part.
        ("Luís, Pablo", "authors.one_stranger"),
    ],
)
def test_another_given_name_before_a_double_family_name_is_a_level_of_its_own(
    stranger: str, level: str
) -> None:
    j = judged(IBERIAN, authors=["Kratochvil, Frantisek", stranger, "Rodríguez Sánchez, María"])
    assert field(j, "authors").level == level, field(j, "authors")


def _griffiths(name: str, others: Sequence[str]) -> str | None:
    return (
        "dblp conf/x lists Thomas L. Griffiths with David M. Blei" if name == "Thomas L. Griffiths" else None
    )


@pytest.mark.parametrize(
    ("record", "changes", "verdict"),
    [
        # The journal version, the index holding only the conference paper (JMLR 2003 for NIPS 2001) …
        (LDA, {"venue": "Journal of Machine Learning Research", "year": 2003}, Verdict.VERIFIED),
        # … and the conference paper, the index holding only the journal version.
        (
            LDA.model_copy(update={"venue": "Journal of Machine Learning Research", "year": 2003}),
            {"venue": "Advances in Neural Information Processing Systems 14 (NIPS 2001)", "year": 2001},
            Verdict.VERIFIED,
        ),
        # A journal the venue rules do not know: its name is the venue check's doubt, not the year's.
        (
            LDA,
            {"venue": "Journal of Statistical Mechanics: Theory and Experiment", "year": 2002},
            Verdict.METADATA_ERROR,
        ),
    ],
)
def test_the_other_versions_own_year_is_no_error(
    record: Record, changes: dict[str, object], verdict: Verdict
) -> None:
    j = judged(record, **changes)
    assert j.verdict is verdict, j.reason
    assert field(j, "year").status is FieldStatus.BENIGN and field(j, "year").level == "year.journal_version"


@pytest.mark.parametrize("year", [2000, 2001 + 4])
def test_a_journal_year_no_version_can_have_is_still_wrong(year: int) -> None:
    # Before the conference paper, or further after it than journal versions come.
    j = judged(LDA, venue="Journal of Machine Learning Research", year=year)
    assert field(j, "year").status is FieldStatus.MISMATCH, j.fields
    assert field(j, "year").level != "year.journal_version"


@pytest.mark.parametrize(
    ("cited", "benign"),
    [
        ({"year": 2016, "arxiv_id": "1602.05629"}, True),  # a year before: the preprint's own
        ({"year": 2018, "arxiv_id": "1802.00001"}, True),  # posted after the proceedings, that year
        ({"year": 2018, "arxiv_id": "1602.05629"}, False),  # the year after, no version's: a wrong year
        # a preprint's later version
        ({"year": 2018, "venue": "arXiv preprint", "arxiv_id": "1602.05629"}, True),
    ],
)
def test_a_year_one_off_is_a_preprints_only_where_one_can_have_it(
    cited: dict[str, object], benign: bool
) -> None:
    j = judged(FEDAVG, **cited)
    year = field(j, "year")
    assert (year.status is FieldStatus.BENIGN) is benign, j.fields
    assert year.level == ("year.preprint_one_off" if benign else "year.no_version_one_after")


JOURNAL_VERSION = {
    "venue": "Journal of Machine Learning Research",
    "year": 2003,
    "authors": ["David M. Blei", "Thomas L. Griffiths", "Andrew Y. Ng", "Michael I. Jordan"],
}


def test_the_journal_version_with_a_colleague_who_joined_it_is_a_minor_error() -> None:
    # The journal version of a conference paper, with an author who joined it: one who has written with
    # the record's authors in other records.
    j = judged(LDA, co_authorship=_griffiths, **JOURNAL_VERSION)
    assert j.verdict is Verdict.METADATA_ERROR and j.severity is Severity.MINOR, j.fields
    assert "the journal version's list" in (field(j, "authors").note or "")


def test_a_colleague_among_the_records_authors_is_a_record_short_of_an_author() -> None:
    # A database that lost an author in the middle of the list (a later version's list reads the same):
    # the record's authors in order, a name among them who has written with them elsewhere.
    authors = ["David M. Blei", "Thomas L. Griffiths", "Andrew Y. Ng", "Michael I. Jordan"]
    j = judged(LDA, co_authorship=_griffiths, authors=authors)
    assert j.verdict is Verdict.METADATA_ERROR and j.severity is Severity.MINOR, j.fields
    assert "a record short of authors" in (field(j, "authors").note or "")
    j = judged(LDA, co_authorship=lambda name, others: None, authors=authors)
    assert j.severity is Severity.MAJOR


def test_the_journal_version_with_a_name_nobody_wrote_with_is_still_its_list() -> None:
    # The index may never have seen the one who joined (a co-author of no other record it holds): the
    # journal version is what explains the name, a level of its own for the likelihood to weigh.
    j = judged(LDA, co_authorship=lambda name, others: None, **JOURNAL_VERSION)
    assert field(j, "authors").level == "authors.journal_list"
    assert field(j, "authors").severity is Severity.MINOR


def test_a_single_author_record_extended_by_another_name_is_a_major_error() -> None:
    # One name in common is too little to read the rest as a later version's authors.
    solo = LDA.model_copy(update={"authors": ["David M. Blei"]})
    j = judged(solo, authors=["David M. Blei", "Petra Quillfeather"])
    assert j.severity is Severity.MAJOR


def test_an_unrecognised_journal_for_a_known_conference_stays_minor() -> None:
    # A journal version may exist under a name the table does not know: not proof of invention.
    j = judged(LDA, venue="Journal of Probabilistic Topic Models")
    assert j.verdict is Verdict.METADATA_ERROR and j.severity is Severity.MINOR, j.fields


def test_a_known_journal_for_a_workshop_paper_of_no_known_series_is_its_journal_version() -> None:
    # WordNet: a workshop paper of 1992, cited as its Communications of the ACM article of 1995.
    wordnet = Record(
        source="dblp",
        source_id="conf/naacl/Miller92",
        source_version="test",
        title="WordNet: A Lexical Database for English",
        authors=["George A. Miller"],
        venue="Speech and Natural Language: Proceedings of a Workshop Held at Harriman, New York, 1992",
        year=1992,
        entry_type="inproceedings",
    )
    j = judged(wordnet, venue="Communications of the ACM", year=1995)
    assert field(j, "venue").level == "venue.journal_version"
    assert field(j, "year").level == "year.journal_version"
    assert j.severity is not Severity.MAJOR


def test_a_journal_version_with_its_own_doi_is_no_error() -> None:
    # Pătraşcu and Thorup's STOC 2011 paper cited as its J. ACM article of 2012, with the article's DOI.
    stoc = Record(
        source="dblp",
        source_id="conf/stoc/PatrascuT11",
        source_version="test",
        title="The Power of Simple Tabulation Hashing",
        authors=["Mihai Patrascu", "Mikkel Thorup"],
        venue="Proceedings of the 43rd ACM Symposium on Theory of Computing, STOC 2011",
        year=2011,
        doi="10.1145/1993636.1993638",
        entry_type="inproceedings",
    )
    j = judged(stoc, venue="J. ACM", year=2012, doi="10.1145/2220357.2220361")
    assert field(j, "venue").level == "venue.journal_version"
    assert field(j, "year").level == "year.journal_version"
    assert field(j, "doi").level == "doi.of_cited_version"  # only doi.org can tell whose it is
    assert not [f for f in j.fields if f.status is FieldStatus.MISMATCH], j.fields


@pytest.mark.parametrize("title", [LDA.title, "Latent Dirichlet Allocation for Topic Models"])
def test_a_thesis_is_not_its_authors_paper(title: str) -> None:
    # A thesis shares or comes near the title of its author's papers ("A Statistical Approach to Rule
    # Learning", a PhD thesis of 2008 and a paper of 2006): the paper's fields do not show the thesis's.
    thesis = judged(LDA, title=title, authors=["David M. Blei"], venue="PhD thesis, UC Berkeley", year=2004)
    assert thesis.verdict is Verdict.UNVERIFIED, thesis.reason
    assert thesis.record is None and not [f for f in thesis.fields if f.status is FieldStatus.MISMATCH]


def test_one_major_field_makes_the_whole_error_major() -> None:
    j = judged(FEDAVG, year=2016, venue="International Conference on Machine Learning")
    assert field(j, "year").severity is Severity.MINOR and field(j, "venue").severity is Severity.MAJOR
    assert j.severity is Severity.MAJOR


def test_a_generic_title_by_other_authors_in_another_year_is_not_the_cited_work() -> None:
    record = LDA.model_copy(
        update={"title": "Deep learning", "authors": ["Ruslan Salakhutdinov"], "year": 2014}
    )
    j = judged(record, authors=["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"], venue="Nature", year=2015)
    assert j.verdict is Verdict.UNVERIFIED


def test_a_real_title_with_invented_authors_at_its_venue_and_year_is_a_major_error() -> None:
    j = judged(LDA, authors=["Petra Quillfeather", "Tomás Ybarra"])
    assert (j.verdict, j.severity) == (Verdict.METADATA_ERROR, Severity.MAJOR)


@pytest.mark.parametrize(
    ("arxiv_id", "year", "venue"), [("1713.01234", 2017, None), ("1503.1234", 2015, None)]
)
def test_an_impossible_arxiv_id_is_a_wrong_field_at_once(arxiv_id: str, year: int, venue: str | None) -> None:
    record = FEDAVG.model_copy(update={"year": year, "venue": None})
    j = judged(record, arxiv_id=arxiv_id, year=year, venue=venue)
    assert field(j, "arxiv_id").status is FieldStatus.MISMATCH
    assert (j.verdict, j.severity) == (Verdict.METADATA_ERROR, Severity.MAJOR)


def test_an_arxiv_id_posted_after_the_cited_year_says_what_it_may_be() -> None:
    # A paper posted years after it was written (a 2011 report as arXiv 2010.16061) or an invented id.
    record = FEDAVG.model_copy(update={"year": 2017, "venue": None})
    j = judged(record, arxiv_id="1803.01234", year=2017, venue="arXiv preprint")
    assert (j.verdict, j.severity) == (Verdict.METADATA_ERROR, Severity.MINOR)
    check = field(j, "arxiv_id")
    assert (check.status, check.level, check.severity) == (
        FieldStatus.MISMATCH,
        "arxiv_id.after_cited_year",
        Severity.MINOR,
    )
    assert check.note == (
        "the id was given in 2018, after the cited year 2017: posted after it was written, or invented"
    )


def test_an_arxiv_id_of_the_january_after_the_cited_year_is_a_slip() -> None:
    # arXiv numbers a preprint sent on 31 December in the January after ("The Pile", arXiv:2101.00027, 2020).
    record = FEDAVG.model_copy(update={"year": 2017, "venue": None})
    j = judged(record, arxiv_id="1801.00027", year=2017, venue="arXiv preprint")
    check = field(j, "arxiv_id")
    assert (check.status, check.level, check.severity) == (
        FieldStatus.MISMATCH,
        "arxiv_id.next_january",
        Severity.MINOR,
    )
    assert j.verdict is Verdict.METADATA_ERROR
    assert j.severity is Severity.MINOR


def test_a_possible_arxiv_id_on_a_matching_work_is_verified_and_left_unchecked() -> None:
    j = judged(FEDAVG, arxiv_id="1602.05629")
    assert j.verdict is Verdict.VERIFIED
    assert field(j, "arxiv_id").status is FieldStatus.UNCHECKED
    assert "arXiv id could not be checked: only arXiv can" in j.reason


def test_an_arxiv_id_posted_after_a_venue_paper_is_possible() -> None:
    j = judged(FEDAVG, arxiv_id="1802.01234")  # a conference paper may reach arXiv after it appeared
    assert j.verdict is Verdict.VERIFIED


@pytest.mark.parametrize(
    "venue", ["Proceedings of Machine Learning Research", "PMLR, volume 54", "JMLR W&CP"]
)
def test_the_proceedings_series_of_the_conference_is_its_venue(venue: str) -> None:
    # PMLR publishes AISTATS: naming the series alone names no other event.
    j = judged(FEDAVG, venue=venue)
    assert field(j, "venue").status is FieldStatus.BENIGN, j.fields
    assert j.verdict is Verdict.VERIFIED


def test_a_proceedings_series_that_does_not_publish_the_conference_is_another_venue() -> None:
    j = judged(LDA, venue="Proceedings of Machine Learning Research")  # NeurIPS is not in PMLR
    assert field(j, "venue").status is FieldStatus.MISMATCH
    assert field(j, "venue").severity is Severity.MAJOR


def test_an_anonymous_submission_under_review_names_no_authors() -> None:
    j = judged(
        FEDAVG,
        authors=["Anonymous"],
        venue="Submitted to International Conference on Learning Representations",
    )
    assert j.verdict is Verdict.VERIFIED, j.reason
    assert field(j, "authors").status is FieldStatus.MISSING


def test_anonymous_authors_of_a_published_work_or_a_preprint_are_not_the_records() -> None:
    j = judged(FEDAVG, authors=["Anonymous"])
    assert j.verdict is Verdict.METADATA_ERROR and j.severity is Severity.MAJOR, j.reason
    # As a preprint too: a title this long names one work, whoever is cited as its authors.
    preprint = judged(FEDAVG, authors=["Anonymous"], venue="arXiv preprint")
    assert preprint.verdict is Verdict.METADATA_ERROR and preprint.record == FEDAVG, preprint.reason
    assert field(preprint, "authors").status is FieldStatus.MISMATCH
    # A generic title is not: with no author in common, another work may have it.
    generic = FEDAVG.model_copy(update={"title": "Federated learning"})
    other = judged(generic, title="Federated learning", authors=["Anonymous"], venue="arXiv preprint")
    assert other.verdict is Verdict.UNVERIFIED, other.reason


def test_arxivs_doi_of_the_preprint_is_checked_like_its_arxiv_id() -> None:
    # The record is the published version with its own DOI and no arXiv id: only arXiv can tell whose
    # preprint the DOI names, so the work is verified with the DOI unchecked, as a cited arXiv id is.
    j = judged(FEDAVG, venue="arXiv preprint", year=2016, doi="10.48550/arXiv.1602.05629")
    assert j.verdict is Verdict.VERIFIED, j.reason
    assert field(j, "doi").status is FieldStatus.UNCHECKED and "arXiv DOI" in j.reason
    # A record that has an arXiv id tells: another preprint's DOI is another work's identifier.
    with_id = FEDAVG.model_copy(update={"arxiv_id": "1602.05629"})
    j = judged(with_id, doi="10.48550/arXiv.1706.03762")
    assert j.severity is Severity.MAJOR and field(j, "doi").severity is Severity.MAJOR


def test_a_title_cited_without_its_subtitle_is_the_work_with_a_minor_error() -> None:
    # The title's similarity is far below a near title's, but it is the record's main title, and the
    # authors, year and venue agree.
    record = LDA.model_copy(
        update={"title": f"{LDA.title}: A Generative Model of Text Corpora and Its Inference"}
    )
    j = judged(record, title=LDA.title)
    assert j.verdict is Verdict.METADATA_ERROR and j.severity is Severity.MINOR, j.reason
    # With other authors it is not taken for the work.
    other = judged(record, title=LDA.title, authors=["Petra Quillfeather"])
    assert other.verdict is Verdict.UNVERIFIED, other.reason


@pytest.mark.parametrize(
    ("venue", "cited"),
    [
        # Another partner of a joint conference.
        (
            "Proceedings of the 21st International Conference on Computational Linguistics and 44th Annual "
            "Meeting of the Association for Computational Linguistics",
            "Proceedings of ACL 2006",
        ),
        (
            "Proceedings of the 2019 Conference on Empirical Methods in Natural Language Processing and "
            "the 9th International Joint Conference on Natural Language Processing (EMNLP-IJCNLP)",
            "IJCNLP 2019",
        ),
        # A series named with the conference it was held with.
        (
            "Proceedings of the Seventh Joint Conference on Lexical and Computational Semantics",
            "*SEM@NAACL-HLT",
        ),
    ],
)
def test_a_joint_conference_or_a_series_held_with_a_host_is_its_own_venue(venue: str, cited: str) -> None:
    j = judged(FEDAVG.model_copy(update={"venue": venue}), venue=cited)
    assert j.verdict is Verdict.VERIFIED, j.fields


def test_a_given_name_written_without_its_hyphen_is_the_same_name() -> None:
    record = _named(LDA, 0, "Ming-Wei Blei")
    j = judged(record, authors=["Mingwei Blei", "Andrew Y. Ng", "Michael I. Jordan"])
    assert j.severity is not Severity.MAJOR, j.fields


@pytest.mark.parametrize(
    ("at", "cited_name", "known", "severity"),
    [
        (1, "Eider Mooore", False, Severity.MINOR),  # a letter added to a short family name nobody has
        (3, "Sath Hampson", False, Severity.MINOR),  # a letter wrong in a short given name
        (1, "Eider Moone", True, Severity.MAJOR),  # a letter from the record's, but someone the index knows
        (1, "Eider Morgan", False, Severity.MAJOR),  # nowhere near: another name, known or not
    ],
)
def test_a_name_nobody_has_a_letter_from_a_record_authors_is_a_typo(
    at: int, cited_name: str, known: bool, severity: Severity
) -> None:
    j = judged(FEDAVG, known_name=lambda name: known, authors=_named(FEDAVG, at, cited_name).authors)
    assert (field(j, "authors").severity, j.severity) == (severity, severity), field(j, "authors").note


@pytest.mark.parametrize(
    "changes",
    [
        {"venue": "GitHub repository", "year": 2019},
        {"venue": "Zenodo", "year": 2023},
        {"venue": None, "url": "https://github.com/example/fedavg", "year": 2015},
        {"venue": None, "doi": "10.5281/zenodo.1212303", "year": 2021},
    ],
)
def test_a_works_code_or_data_cited_where_it_is_kept_is_not_another_venue_or_year(
    changes: dict[str, object],
) -> None:
    # Software and datasets are released on their own dates, before their paper and after it.
    j = judged(FEDAVG, **changes)
    assert j.severity is Severity.MINOR, j.fields
    assert field(j, "year").level == "year.repository_release"
    if changes["venue"]:
        assert field(j, "venue").status is FieldStatus.BENIGN
        assert field(j, "venue").level == "venue.cited_as_repository"


def test_a_year_no_version_has_is_still_major_for_a_paper_cited_with_a_link_to_its_code() -> None:
    # A venue cited beside the link says the paper is cited, and the paper has one year.
    j = judged(FEDAVG, year=2012, url="https://github.com/example/fedavg")
    assert field(j, "year").severity is Severity.MAJOR


ICLR_PAPER = FEDAVG.model_copy(
    update={"venue": "8th International Conference on Learning Representations, ICLR 2020", "year": 2020}
)


@pytest.mark.parametrize(
    ("venue", "year"),
    [
        ("ICLR 2020 Workshop on Causal Learning for Decision Making", 2020),
        ("NeurIPS 2019 Workshop on Deep Reinforcement Learning", 2019),
    ],
)
def test_a_workshop_of_a_known_event_where_the_paper_was_also_presented_is_a_slip(
    venue: str, year: int
) -> None:
    j = judged(ICLR_PAPER, venue=venue, year=year)
    assert field(j, "venue").level == "venue.workshop_version"
    assert j.severity is Severity.MINOR, j.fields


@pytest.mark.parametrize(
    ("venue", "year", "level"),
    [
        # Years apart: not the same time's presentation.
        ("ICML 2016 Workshop on Deep Learning", 2016, "venue.other_known_series"),
        # No event named: nothing says the workshop exists.
        ("Annual Workshop on AI Safety and Alignment", 2020, "venue.workshop_vs_conference"),
    ],
)
def test_a_workshop_years_apart_or_of_no_known_event_stays_another_venue(
    venue: str, year: int, level: str
) -> None:
    j = judged(ICLR_PAPER, venue=venue, year=year)
    assert field(j, "venue").level == level
    assert field(j, "venue").severity is Severity.MAJOR


@pytest.mark.parametrize("year", [2022, 2023])
def test_a_conference_cited_for_a_workshop_paper_is_its_conference_version(year: int) -> None:
    # "Sparks: Inspiration for Science Writing …" was shown at the In2Writing workshop (ACL 2022) and
    # published at DIS 2022; a workshop's paper reaches a conference the same year or later.
    workshop_paper = FEDAVG.model_copy(
        update={
            "venue": "Proceedings of the First Workshop on Intelligent and Interactive Writing Assistants",
            "year": 2022,
        }
    )
    j = judged(workshop_paper, venue="Designing Interactive Systems Conference", year=year)
    assert field(j, "venue").level == "venue.conference_for_workshop_paper"
    assert field(j, "year").level == ("year.same" if year == 2022 else "year.conference_version")
    assert j.severity is Severity.MINOR, j.fields


def test_a_preprints_author_list_may_differ_from_the_published_versions() -> None:
    # People join or leave a work at publication: a name the published record lacks, or its first author
    # not yet on the preprint, is a slip of the version cited.
    joined = ["Brendan McMahan", "Petra Quillfeather", "Daniel Ramage", "Seth Hampson"]
    j = judged(FEDAVG, venue="arXiv preprint", authors=joined)
    assert field(j, "authors").level == "authors.preprint_list"
    assert j.severity is Severity.MINOR, j.fields
    later_first = FEDAVG.authors[1:]
    assert field(judged(FEDAVG, venue="arXiv preprint", authors=later_first), "authors").level == (
        "authors.preprint_list"
    )
    # The published list all in it, in order, first first: the preprint's, however many it adds.
    grown = ["Brendan McMahan", "Petra Quillfeather", "Ivo Marchetti", *FEDAVG.authors[1:]]
    assert field(judged(FEDAVG, venue="arXiv preprint", authors=grown), "authors").level == (
        "authors.preprint_list"
    )
    # A preprint cited by its year alone: no venue, a year before the published record's.
    assert FEDAVG.year is not None
    j = judged(FEDAVG, venue=None, year=FEDAVG.year - 1, authors=joined)
    assert field(j, "authors").level == "authors.preprint_list"
    # With no venue and the record's own year, it may be the published work: a stranger.
    assert field(judged(FEDAVG, venue=None, authors=joined), "authors").level == "authors.one_stranger"
    # Most of the list no author of the work: not a version's list.
    strangers = ["Brendan McMahan", "Petra Quillfeather", "Ivo Marchetti", "Sunniva Lindqvist"]
    j = judged(FEDAVG, venue="arXiv preprint", authors=strangers)
    assert field(j, "authors").level == "authors.mostly_strangers"
    assert j.severity is Severity.MAJOR


def test_a_title_cut_short_with_a_number_in_digits_is_the_work_without_its_last_words() -> None:
    vit = FEDAVG.model_copy(update={"title": "Three Things Everyone Should Know About Vision Transformers"})
    j = judged(vit, title="3 Things Everyone Should Know About Vision")
    assert field(j, "title").level == "title.subtitle"
    assert j.severity is Severity.MINOR


@pytest.mark.parametrize(
    ("year", "level", "severity"),
    [
        # No venue cited: the year of an earlier version the index does not hold (FedAvg's preprint: 2016).
        (2016, "year.one_before", Severity.MINOR),
        (2015, "year.before_no_venue", Severity.MINOR),
        (2014, "year.before_no_venue", Severity.MINOR),
        # Further back than a preprint leads its paper, or after it: still a year no version has.
        (2013, "year.no_version_years_before", Severity.MAJOR),
        (2019, "year.no_version_two_after", Severity.MAJOR),
    ],
)
def test_a_year_before_the_only_version_with_no_venue_cited_is_an_earlier_versions(
    year: int, level: str, severity: Severity
) -> None:
    j = judged(FEDAVG, venue=None, doi=None, year=year)
    assert (field(j, "year").level, field(j, "year").severity) == (level, severity), field(j, "year")


def test_a_year_two_before_the_venues_with_that_venue_cited_stays_a_year_no_version_has() -> None:
    j = judged(FEDAVG, year=2015)
    assert field(j, "year").level == "year.no_version_two_before"
    assert j.severity is Severity.MAJOR


@pytest.mark.parametrize(
    ("record_title", "cited_title", "level"),
    [
        (
            "Towards Temporal Scoping of Relational Facts based on Wikipedia Data",
            "Temporal scoping of relational facts based on Wikipedia data",
            "title.first_words",
        ),
        (
            "Understanding Sharpness in Deep Networks",
            "Towards Understanding Sharpness in Deep Networks",
            ("title.first_words"),
        ),
        # The work's name before a colon left out, a rest too short to name one work alone.
        (
            "GloVe: Global Vectors for Word Representation",
            "Global Vectors for Word Representation",
            "title.other_words",
        ),
        # A lead of more than a third of the title is more than its start loses.
        (
            "A Closer Look at Temporal Scoping of Relational Facts",
            "Temporal Scoping of Relational Facts",
            "title.other_words",
        ),
        # A longer lead, where the rest keeps two thirds of the words.
        (
            "Efficient Learning by Directed Acyclic Graph For Resource Constrained Prediction",
            "Directed Acyclic Graph For Resource Constrained Prediction",
            "title.first_words",
        ),
        # A word left out, another misspelt.
        (
            "Online Learning Asymmetric Boosted Classifiers for Object Detection",
            "Online asymetric boosted classifiers for object detection",
            "title.words_left_out",
        ),
        # One phrase left out within a title that keeps two thirds of its words.
        (
            "Instance-Level Segmentation for Autonomous Driving with Deep Densely Connected MRFs",
            "Instance-Level Segmentation with Deep Densely Connected MRFs",
            "title.words_left_out",
        ),
        # A word left out inside the title, the rest in order.
        (
            "A blind sparse deconvolution method for neural spike identification",
            "A blind deconvolution method for neural spike identification",
            "title.words_left_out",
        ),
        # A word added: the record writes a comma where the citation has "and".
        ("Total Variation, Cheeger Cuts", "Total variation and Cheeger cuts", "title.words_left_out"),
        # A word that turns the title round makes another title.
        (
            "Deep networks generalize to small image shifts",
            "Deep networks do not generalize to small image shifts",
            "title.other_words",
        ),
        # A word changed is not a word left out.
        (
            "A blind sparse deconvolution method for neural spike identification",
            "A blind dense deconvolution method for neural spike identification",
            "title.other_words",
        ),
        # Three words are more than a memory drops.
        (
            "A blind sparse deconvolution method for neural spike identification in array recordings",
            "A blind deconvolution method for spike identification in recordings",
            "title.other_words",
        ),
    ],
)
def test_a_title_with_words_left_out_is_a_slip(record_title: str, cited_title: str, level: str) -> None:
    check = field(judged(LDA.model_copy(update={"title": record_title}), title=cited_title), "title")
    assert check.level == level, check
    slips = ("title.first_words", "title.words_left_out")
    assert check.severity is (Severity.MINOR if level in slips else Severity.MAJOR)


def test_a_title_word_in_another_form_is_a_slip() -> None:
    # "Automated labeling of semantic roles" for Gildea and Jurafsky's "Automatic Labeling of Semantic Roles".
    srl = LDA.model_copy(update={"title": "Automatic Labeling of Semantic Roles"})
    j = judged(srl, title="Automated labeling of semantic roles")
    assert field(j, "title").level == "title.word_form"
    assert j.severity is Severity.MINOR
    # Another word altogether is another work's title.
    other = judged(srl, title="Automatic Parsing of Semantic Roles")
    assert field(other, "title").level == "title.other_words"
    # Named by its form however near the titles are: a long title with one word in the plural is no typo.
    pose = LDA.model_copy(
        update={"title": "Real-time human pose recognition in parts from single depth images"}
    )
    near = judged(pose, title="Real-Time Human Pose Recognition in Parts from a Single Depth Image")
    assert field(near, "title").level == "title.word_form"
    # A word misspelt in a title too short for nearness to say so.
    srt = LDA.model_copy(update={"title": "A Generalized Representer Theorem"})
    misspelt = judged(srt, title="A genelarized representer theorem")
    assert field(misspelt, "title").level == "title.misspelt_word"
    assert misspelt.severity is Severity.MINOR
    # A word replaced by another is no misspelling, however alike the words' letters.
    swapped = judged(srt, title="A Specialized Representer Theorem")
    assert field(swapped, "title").level == "title.other_words"
    # Nearness alone, where no form names the difference, is a typo.
    typo = judged(pose, title="Real-time human pose recognition in parts from one depth images")
    assert field(typo, "title").level == "title.typo"


def test_another_preposition_in_a_title_is_a_slip() -> None:
    # "Cue integration in figure/ground labeling" for Ren, Fowlkes and Malik's "… for Figure/Ground …".
    cue = LDA.model_copy(update={"title": "Cue Integration for Figure/Ground Labeling"})
    j = judged(cue, title="Cue integration in figure/ground labeling")
    assert (field(j, "title").level, j.severity) == ("title.function_word", Severity.MINOR)
    # With a word in another form beside it, still the same words.
    j = judged(cue, title="Cue integrating in figure/ground labeling")
    assert field(j, "title").level == "title.function_word"
    # A content word for another, or a preposition that turns the title round, is another title.
    assert field(judged(cue, title="Cue Integration for Figure/Ground Parsing"), "title").level == (
        "title.other_words"
    )
    assert field(judged(cue, title="Cue Integration without Figure/Ground Labeling"), "title").level == (
        "title.other_words"
    )
    # A longer preposition says how: "towards" for "for" is a changed title.
    assert field(judged(cue, title="Cue Integration towards Figure/Ground Labeling"), "title").level == (
        "title.other_words"
    )


@pytest.mark.parametrize(
    ("record_title", "cited_title", "level"),
    [
        # Words written as their acronym.
        (
            "Counterfactual Analysis of Saliency Maps for Deep Reinforcement Learning",
            "Counterfactual Analysis of Saliency Maps for Deep RL",
            "title.acronym",
        ),
        # Cut short, a word in another form in what is left.
        (
            "Predicting Depth, Surface Normals and Semantic Labels with a Common Multi-scale Architecture",
            "Predicting depth, surface normal and semantic labels with a common multi-scale",
            "title.subtitle",
        ),
        # Letters that are no initials of the words they stand in for.
        (
            "Counterfactual Analysis of Saliency Maps for Deep Reinforcement Learning",
            "Counterfactual Analysis of Saliency Maps for Deep RN",
            "title.other_words",
        ),
    ],
)
def test_a_title_written_shorter_is_a_slip(record_title: str, cited_title: str, level: str) -> None:
    check = field(judged(LDA.model_copy(update={"title": record_title}), title=cited_title), "title")
    assert check.level == level, check


def test_the_cited_versions_own_doi_is_no_evidence_against_the_record() -> None:
    # He, Sun and Tang's TPAMI 2010 article, cited with its own DOI, found as their CVPR 2009 paper.
    haze = LDA.model_copy(
        update={
            "venue": "2009 IEEE Conference on Computer Vision and Pattern Recognition",
            "year": 2009,
            "doi": "10.1109/cvpr.2009.5206515",
        }
    )
    tpami = {"venue": "IEEE Transactions on Pattern Analysis and Machine Intelligence", "year": 2010}
    j = judged(haze, doi="10.1109/tpami.2010.168", **tpami)
    assert field(j, "doi").level == "doi.of_cited_version", j.fields
    assert field(j, "doi").status is FieldStatus.UNCHECKED
    assert j.severity is None
    # The same DOI cited for the conference paper is another DOI than the record's.
    j = judged(haze, doi="10.1109/tpami.2010.168")
    assert (field(j, "doi").level, j.severity) == ("doi.differs", Severity.MAJOR)


def test_an_affiliation_read_into_the_author_list_is_no_stranger() -> None:
    # A reference manager's "Metari, S and Sherbrooke, Université De" for Samy Metari and François Deschênes.
    two = LDA.model_copy(update={"authors": ["Samy Metari", "François Deschênes"]})
    check = field(judged(two, authors=["Metari, S", "Sherbrooke, Université De"]), "authors")
    assert check.severity is Severity.MINOR, check
    for affiliation in ("Institute of Automation", "Microsoft Research Labs", "Google Inc"):
        check = field(judged(two, authors=["Samy Metari", affiliation]), "authors")
        assert check.severity is Severity.MINOR, (affiliation, check)
    # A person's name in the same place is a stranger.
    check = field(judged(two, authors=["Samy Metari", "Pierre Dupont"]), "authors")
    assert check.severity is Severity.MAJOR, check


def test_words_of_titles_read_into_the_author_list_are_no_stranger() -> None:
    # A reference manager's "Dai, Na and Davison, Brian D and Sci, Computer" (Computer Science, the
    # affiliation): words the index knows from titles and as no author's family name.
    three = LDA.model_copy(update={"authors": ["Na Dai", "Milad Shokouhi", "Brian D. Davison"]})
    cited = ["Dai, Na", "Davison, Brian D", "Sci, Computer"]
    check = field(judged(three, title_text=lambda name: name == "Sci, Computer", authors=cited), "authors")
    assert (check.level, check.severity) == ("authors.variants_and_left_out", Severity.MINOR), check
    # Where the index says the name is a person's, it is a stranger.
    check = field(judged(three, authors=cited), "authors")
    assert check.severity is Severity.MAJOR, check


def test_a_journal_versions_list_may_add_or_drop_people_of_the_conference_papers() -> None:
    # Bengio et al.'s JMLR 2003 article adds Christian Jauvin to the NIPS 2000 paper's three: a co-author
    # the index never saw with them, so no co-authorship says so; the journal version does.
    nplm = LDA.model_copy(
        update={
            "title": "A Neural Probabilistic Language Model",
            "authors": ["Yoshua Bengio", "Réjean Ducharme", "Pascal Vincent"],
            "venue": "Advances in Neural Information Processing Systems 13 (NIPS 2000)",
            "year": 2000,
        }
    )
    added = [*nplm.authors, "Christian Jauvin"]
    j = judged(nplm, authors=added, venue="Journal of Machine Learning Research", year=2003)
    assert field(j, "authors").level == "authors.journal_list"
    assert j.severity is Severity.MINOR, j.fields
    # The same list at the conference's own venue: a name no version explains.
    assert field(judged(nplm, authors=added), "authors").level == "authors.one_stranger"
    # Another first author is another work's, whatever the version.
    first_other = ["Christian Jauvin", "Réjean Ducharme", "Pascal Vincent"]
    j = judged(nplm, authors=first_other, venue="Journal of Machine Learning Research", year=2003)
    assert field(j, "authors").severity is Severity.MAJOR
    # ... unless every author of the conference paper is in it: the journal version's own order (Crammer
    # et al.'s JMLR 2006 "Online Passive-Aggressive Algorithms" for Shalev-Shwartz et al.'s NIPS 2003).
    reordered = ["Réjean Ducharme", "Christian Jauvin", "Yoshua Bengio", "Pascal Vincent"]
    j = judged(nplm, authors=reordered, venue="Journal of Machine Learning Research", year=2003)
    assert field(j, "authors").level == "authors.journal_list"


@pytest.mark.parametrize(
    ("cited", "recorded"),
    [
        ("Zhenming, L", "Zhenming Liu"),  # given and family names the other way round, the family an initial
        ("Hiep, VH", "Hoang-Hiep Vu"),  # a Vietnamese name's parts in another order, initials run together
        ("Feifei, L.", "Fei-Fei Li"),  # the other way round, the given name written joined
        ("B.V.K, Kumar", "B. V. K. Vijaya Kumar"),  # the other way round, initials where the family name is
        ("Ramón Fernandez Astudillo", "Ramón Fermandez"),  # the first of two family names, a typo in either
        (
            "Iryn",
            "Iryna Gurevych",
        ),  # the family name lost, the given name cut short ("Falke, Tobias and Iryn")
        ("Doug", "Doug Downey"),  # the given name alone
    ],
)
def test_a_name_written_another_way_is_no_stranger(cited: str, recorded: str) -> None:
    record = _named(LDA, 1, recorded)
    authors = [record.authors[0], cited, record.authors[2]]
    assert field(judged(record, authors=authors), "authors").severity is not Severity.MAJOR


def test_one_name_split_in_two_is_no_stranger() -> None:
    # A reference manager splits a name of several given and family names in two ("Nuno, Ricardo and
    # Campos, Taborda" for Ricardo Nuno Taborda Campos).
    record = _named(LDA, 1, "Ricardo Nuno Taborda Campos")
    authors = [record.authors[0], "Nuno, Ricardo", "Campos, Taborda", record.authors[2]]
    check = field(judged(record, authors=authors), "authors")
    assert check.severity is Severity.MINOR and check.level == "authors.written_another_way", check
    # Two names whose words are no record author's stay what they are.
    other = [record.authors[0], "Nuno, Ricardo", "Campos, Pedro", record.authors[2]]
    assert field(judged(record, authors=other), "authors").severity is Severity.MAJOR


@pytest.mark.parametrize("cited", ["Mark", "Ir"])
def test_a_one_word_name_is_a_given_name_only_where_it_begins_one(cited: str) -> None:
    record = _named(LDA, 1, "Iryna Gurevych")
    authors = [record.authors[0], cited, record.authors[2]]
    assert field(judged(record, authors=authors), "authors").level == "authors.one_stranger"


def test_a_name_written_twice_is_no_stranger() -> None:
    # "Ritter, Alan and Ritter, Alan and Clark, Sam and Etzioni, Oren": a list copied with a slip, whose
    # second name left another author out.
    four = LDA.model_copy(update={"authors": [*LDA.authors, "Oren Etzioni"]})
    check = field(judged(four, authors=[four.authors[0], four.authors[0], *four.authors[2:]]), "authors")
    assert (check.level, check.severity) == ("authors.left_out", Severity.MINOR), check
    assert "written twice: David M. Blei" in (check.note or "")
    # Written again in another form ("Zhao, Junbo Jake; Zhao, Junbo"): the same repetition.
    check = field(judged(four, authors=[four.authors[0], "D. Blei", *four.authors[1:]]), "authors")
    assert check.status is FieldStatus.BENIGN, check
    # Nobody left out: the list is the record's, written with a repetition.
    check = field(judged(LDA, authors=[*LDA.authors[:2], LDA.authors[1], LDA.authors[2]]), "authors")
    assert check.status is FieldStatus.BENIGN, check


def test_a_lone_initial_ending_a_list_is_a_name_cut_off_not_a_stranger() -> None:
    authors = [LDA.authors[0], LDA.authors[1], "A"]
    check = field(judged(LDA, authors=authors), "authors")
    assert check.severity is Severity.MINOR, check


@pytest.mark.parametrize(
    ("cited", "level"),
    [
        ("Proceedings of ICCASP", "venue.acronym_typo"),  # two edits in six letters: a typo
        ("Proceedings of ICAS", "venue.acronym_typo"),  # one edit
        ("Proceedings of ICCAP", "venue.other_conference"),  # three: another event
    ],
)
def test_an_acronym_with_a_typo_is_its_series(cited: str, level: str) -> None:
    record = LDA.model_copy(
        update={
            "venue": "IEEE International Conference on Acoustics, Speech and Signal Processing, ICASSP 2019",
            "year": 2019,
        }
    )
    assert field(judged(record, venue=cited), "venue").level == level


def test_a_generic_titles_namesake_sharing_one_author_beside_a_stranger_is_not_the_work() -> None:
    tutorial = LDA.model_copy(
        update={
            "title": "Automatic Summarization",
            "authors": ["Ani Nenkova", "Sameer Maskey", "Yang Liu"],
            "venue": "Proceedings of ACL 2011: Tutorial Abstracts",
            "year": 2011,
        }
    )
    monograph = {"venue": "Foundations and Trends in Information Retrieval", "year": 2011}
    # Nenkova and McKeown's monograph: another work of the same two words.
    j = judged(tutorial, authors=["Ani Nenkova", "Kathleen McKeown"], **monograph)
    assert j.verdict is Verdict.UNVERIFIED, j.fields
    # Two shared authors, or every other name a record author's written another way, name the work.
    j = judged(tutorial, authors=["Ani Nenkova", "Sameer Maskey", "Kathleen McKeown"], **monograph)
    assert j.verdict is Verdict.METADATA_ERROR
    j = judged(tutorial, authors=["Ani Nenkova", "Sameer Maskay"], **monograph)
    assert j.verdict is Verdict.METADATA_ERROR


def test_a_later_year_at_a_venue_the_rules_do_not_know_may_be_the_later_versions() -> None:
    # Morimoto and Doya's ICML 2000 paper cited as its 2001 article in "Robotics and Autonomous Systems",
    # a journal the venue table does not know.
    assert FEDAVG.year is not None
    j = judged(FEDAVG, venue="Robotics and Autonomous Systems", year=FEDAVG.year + 1)
    assert field(j, "year").level == "year.unknown_venue_version"
    assert j.severity is Severity.MINOR, j.fields
    # Past the years a journal version takes, no version has the year.
    j = judged(FEDAVG, venue="Robotics and Autonomous Systems", year=FEDAVG.year + 4)
    assert field(j, "year").severity is Severity.MAJOR
    # The record's own venue, unknown to the table too, with another year: a year no version has.
    unknown = FEDAVG.model_copy(update={"venue": "Robotics and Autonomous Systems"})
    j = judged(unknown, year=FEDAVG.year + 1)
    assert field(j, "year").level == "year.no_version_one_after"
