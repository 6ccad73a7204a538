"""A cited ACL Anthology address, checked against the Anthology the index holds as a DOI is against its
records."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.index.anthology import cited_anthology_id
from refhound.index.store import IndexStore
from refhound.models import FieldCheck, ParsedFields, Record, Reference, ReferenceResult, Severity, Verdict
from tests.conftest import build_index, check_offline

NAACL_2021 = "Proceedings of the 2021 Conference of the North American Chapter of the ACL"
ACL_2019 = "Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics"


def _paper(anthology_id: str, title: str, authors: list[str], venue: str, year: int) -> Record:
    return Record(
        source="acl-anthology",
        source_id=anthology_id,
        source_version="test",
        title=title,
        authors=authors,
        venue=venue,
        year=year,
        url=f"https://aclanthology.org/{anthology_id}",
        entry_type="inproceedings",
    )


# Real papers of two volumes, with their real metadata.
PAPERS = [
    _paper(
        "2021.naacl-main.62",
        "A Comparative Study on Schema-Guided Dialogue State Tracking",
        ["Jie Cao", "Yi Zhang"],
        NAACL_2021,
        2021,
    ),
    _paper(
        "2021.naacl-main.63",
        "Spoken Language Understanding for Task-oriented Dialogue Systems with Augmented Memory Networks",
        ["Jie Wu", "Ian Harris", "Hongzhi Zhao"],
        NAACL_2021,
        2021,
    ),
    _paper(
        "W19-0501",
        "A Distributional Model of Affordances in Semantic Type Coercion",
        ["Stephen McGregor", "Elisabetta Jezek"],
        "Proceedings of the 13th International Conference on Computational Semantics - Short Papers",
        2019,
    ),
    _paper(
        "P19-1097",
        "Argument Invention from First Principles",
        ["Yonatan Bilu", "Ariel Gera", "Daniel Hershcovich", "Benjamin Sznajder", "Dan Lahav", "Noam Slonim"],
        ACL_2019,
        2019,
    ),
]


@pytest.fixture(scope="module")
def anthology(tmp_path_factory: pytest.TempPathFactory) -> Iterator[IndexStore]:
    path = build_index(tmp_path_factory.mktemp("anthology") / "acl.sqlite", PAPERS, source="acl-anthology")
    with IndexStore.open(path) as store:
        yield store


@pytest.mark.parametrize(
    ("url", "anthology_id"),
    [
        ("https://aclanthology.org/2021.naacl-main.62", "2021.naacl-main.62"),
        ("https://aclanthology.org/2022.lrec-1.78/", "2022.lrec-1.78"),
        ("https://aclanthology.org/2024.findings-emnlp.319.pdf", "2024.findings-emnlp.319"),
        ("http://www.aclweb.org/anthology/P19-1097.pdf", "P19-1097"),
        ("https://www.aclweb.org/anthology/P/P16/P16-1001.pdf", "P16-1001"),
        ("https://aclanthology.org/w19-4301", "W19-4301"),
        # a volume, an event, front matter, another site: no paper
        ("https://aclanthology.org/2021.acl-long", None),
        ("https://aclanthology.org/volumes/2020.acl-main/", None),
        ("https://aclanthology.org/events/acl-2021/", None),
        ("https://aclanthology.org/2020.acl-main.0.pdf", None),
        ("https://aclanthology.org/W19-4300", None),
        ("https://aclanthology.org/P19-1000", None),
        ("https://doi.org/10.18653/v1/P19-1097", None),
        (None, None),
    ],
)
def test_the_anthology_id_a_cited_address_names(url: str | None, anthology_id: str | None) -> None:
    assert cited_anthology_id(url) == anthology_id


def _check(store: IndexStore, tmp_path: Path, **fields: object) -> ReferenceResult:
    cited = ParsedFields.model_validate(fields)
    return check_offline(Reference(id="1", raw="r", parsed=cited, structured=True), store, tmp_path)


def _url(result: ReferenceResult) -> FieldCheck | None:
    return next((f for f in result.fields if f.field == "url"), None)


def test_the_works_own_address_agrees(anthology: IndexStore, tmp_path: Path) -> None:
    result = _check(
        anthology,
        tmp_path,
        title="Argument Invention from First Principles",
        authors=next(p.authors for p in PAPERS if p.source_id == "P19-1097"),
        venue=ACL_2019,
        year=2019,
        url="https://www.aclweb.org/anthology/P19-1097.pdf",
    )
    assert result.verdict is Verdict.VERIFIED
    url = _url(result)
    assert url is not None and url.level == "url.same"


def test_the_address_agrees_when_the_doi_found_the_paper_first(tmp_path: Path) -> None:
    # Records found by the cited DOI are the same records the address names.
    paper = PAPERS[0].model_copy(update={"doi": "10.18653/v1/2021.naacl-main.62"})
    path = build_index(tmp_path / "acl.sqlite", [paper], source="acl-anthology")
    with IndexStore.open(path) as store:
        result = _check(
            store,
            tmp_path,
            title=paper.title,
            authors=paper.authors,
            venue=NAACL_2021,
            year=2021,
            doi="10.18653/v1/2021.naacl-main.62",
            url="https://aclanthology.org/2021.naacl-main.62/",
        )
    url = _url(result)
    assert result.verdict is Verdict.VERIFIED
    assert url is not None and url.level == "url.same"


def test_another_papers_address_is_a_major_error_of_a_real_title(
    anthology: IndexStore, tmp_path: Path
) -> None:
    # A real title whose address names the next paper of the volume, as a generator writes it.
    result = _check(
        anthology,
        tmp_path,
        title="A Comparative Study on Schema-Guided Dialogue State Tracking",
        authors=["Jie Cao", "Yi Zhang"],
        venue=NAACL_2021,
        year=2021,
        url="https://aclanthology.org/2021.naacl-main.63",
    )
    assert result.verdict is Verdict.METADATA_ERROR
    url = _url(result)
    assert url is not None and url.level == "url.another_works" and url.severity is Severity.MAJOR
    assert "Spoken Language Understanding" in url.note


def test_an_address_of_no_paper_in_a_held_volume_is_evidence_never_proof_of_the_work(
    anthology: IndexStore, tmp_path: Path
) -> None:
    cited = {
        "title": "Robust Dialogue State Tracking with Invented Memory",
        "authors": ["Jane Q. Public"],
        "venue": "Some Workshop on Dialogue",
        "year": 2021,
    }
    plain = _check(anthology, tmp_path, **cited)
    result = _check(anthology, tmp_path, **cited, url="https://aclanthology.org/2021.naacl-main.999")
    # The work may still be real, cited with a wrong address: never fabricated on the address alone.
    assert result.verdict is Verdict.UNVERIFIED
    url = _url(result)
    assert url is not None and url.level == "url.does_not_exist" and url.severity is Severity.MAJOR
    assert "no paper of the ACL Anthology has this address" in result.reason
    assert plain.likelihood is not None and result.likelihood is not None
    assert result.likelihood > plain.likelihood


@pytest.mark.parametrize(
    ("anthology_id", "held"),
    [
        ("2021.naacl-main.999", True),
        ("P19-1999", True),
        ("W19-0599", True),  # a workshop volume numbering its papers with two digits
        ("W19-5099", False),  # W19-50, another volume
        ("2021.icail-1.35", False),
        ("2024.findings-emnlp.319", False),
    ],
)
def test_a_volume_is_held_when_any_of_its_papers_is(
    anthology: IndexStore, anthology_id: str, held: bool
) -> None:
    assert anthology.holds_volume_of(anthology_id) is held


def test_an_address_in_a_volume_the_index_lacks_proves_nothing(anthology: IndexStore, tmp_path: Path) -> None:
    # The dump may predate the volume (a year's later Findings), or never hold it.
    result = _check(
        anthology,
        tmp_path,
        title="Robust Dialogue State Tracking with Invented Memory",
        authors=["Jane Q. Public"],
        year=2024,
        url="https://aclanthology.org/2024.findings-emnlp.319",
    )
    assert _url(result) is None
    assert result.verdict is Verdict.UNVERIFIED


def test_another_papers_address_on_an_unknown_title_is_reported_with_that_paper(
    anthology: IndexStore, tmp_path: Path
) -> None:
    result = _check(
        anthology,
        tmp_path,
        title="Conceptualizing a Lexical Resource of Dialogue Arguments",
        authors=["Jane Q. Public"],
        year=2019,
        url="https://aclanthology.org/P19-1097",
    )
    assert result.verdict is Verdict.UNVERIFIED
    url = _url(result)
    assert url is not None and url.level == "url.another_works"
    assert any(e.record_id == "P19-1097" for e in result.evidence)
