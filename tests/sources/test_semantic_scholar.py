"""The Semantic Scholar source against a loopback server speaking the graph API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.errors import Unreachable
from refhound.models import ParsedFields, Record
from refhound.sources.semantic_scholar import FIELDS, SemanticScholar
from tests.sources.fake_service import call, json_reply, page, rate_limited, settings_for, unavailable
from tests.sources.semantic_scholar_server import TOO_MANY, SemanticScholarServer
from tests.sources.works import LECUN

FIXTURE = (Path(__file__).parent / "fixtures" / "semantic-scholar-search.json").read_bytes()
BERT = Record(
    source="test",
    source_id="bert",
    source_version="test",
    title="BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
    authors=["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
    venue="North American Chapter of the Association for Computational Linguistics",
    year=2019,
    doi="10.18653/v1/N19-1423",
    arxiv_id="1810.04805",
    entry_type="inproceedings",
)


@pytest.fixture()
def server() -> Iterator[SemanticScholarServer]:
    with SemanticScholarServer([BERT, LECUN]) as running:
        yield running


def lookup(server: SemanticScholarServer, cited: ParsedFields, **section: object) -> list[Record]:
    settings = settings_for("semantic_scholar", server.url, **section)
    return call(settings, SemanticScholar.from_settings, lambda s: s.lookup(cited))


def search(server: SemanticScholarServer, title: str) -> list[Record]:
    """The relevance search alone (a lookup asks the title match first)."""
    settings = settings_for("semantic_scholar", server.url)
    return call(settings, SemanticScholar.from_settings, lambda s: s.search(title))


def test_a_real_search_answer_maps_to_records(server: SemanticScholarServer) -> None:
    server.fail(page(FIXTURE, "application/json"))
    transformer, preprint = search(server, "Attention is all you need")
    assert transformer == Record(
        source="semantic_scholar",
        source_id="204e3073870fae3d05bcbc2f6a8e263d9b72e776",
        source_version="2025-05-06",
        title="Attention is All you Need",
        authors=[
            "Ashish Vaswani",
            "Noam M. Shazeer",
            "Niki Parmar",
            "Jakob Uszkoreit",
            "Llion Jones",
            "Aidan N. Gomez",
            "Lukasz Kaiser",
            "Illia Polosukhin",
        ],
        venue="Neural Information Processing Systems",
        year=2017,
        arxiv_id="1706.03762",
        url="https://www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776",
        entry_type="inproceedings",  # "Conference" wins over "JournalArticle"
    )
    # Semantic Scholar calls arXiv-only papers journal articles: their venue says they are preprints.
    assert (preprint.venue, preprint.entry_type, preprint.doi, preprint.authors) == (
        "arXiv.org",
        "preprint",
        "10.48550/arXiv.2305.12345",
        ["Zhen Qin"],
    )
    request = server.requests[-1]
    assert request.path == "/paper/search"
    assert request.params == {"query": "Attention is all you need", "limit": "5", "fields": FIELDS}
    assert "x-api-key" not in request.headers


def test_hyphens_are_split_because_the_api_matches_nothing_with_them(server: SemanticScholarServer) -> None:
    records = lookup(server, ParsedFields(title="BERT: Pre-training of deep bidirectional transformers"))
    assert records[0].title == BERT.title
    match, searched = server.requests  # the match (no close title) reads punctuation; the search does not
    assert match.params["query"] == "BERT: Pre-training of deep bidirectional transformers"
    assert searched.params["query"] == "BERT Pre training of deep bidirectional transformers"


def test_a_cited_doi_is_asked_first_and_ends_the_lookup_when_it_is_the_work(
    server: SemanticScholarServer,
) -> None:
    records = lookup(server, ParsedFields(title=BERT.title, doi="https://doi.org/10.18653/V1/N19-1423"))
    assert [(r.title, r.doi, r.arxiv_id, r.entry_type) for r in records] == [
        (BERT.title, "10.18653/v1/N19-1423", "1810.04805", "inproceedings")
    ]
    assert server.paths == ["/paper/DOI:10.18653/v1/n19-1423"]
    assert server.requests[-1].params == {"fields": FIELDS}


def test_a_cited_arxiv_id_is_asked_when_there_is_no_doi(server: SemanticScholarServer) -> None:
    records = lookup(server, ParsedFields(title=BERT.title, arxiv_id="arXiv:1810.04805v2"))
    assert [r.title for r in records] == [BERT.title]
    assert server.paths == ["/paper/arXiv:1810.04805"]


def test_unknown_identifiers_fall_back_to_the_title(server: SemanticScholarServer) -> None:
    cited = ParsedFields(title="Deep learning", doi="10.9999/none", arxiv_id="2101.99999")
    records = lookup(server, cited)
    assert records[0].title == "Deep Learning"
    assert server.paths == ["/paper/DOI:10.9999/none", "/paper/arXiv:2101.99999", "/paper/search/match"]


def test_unknown_identifiers_are_definite_nones(server: SemanticScholarServer) -> None:
    settings = settings_for("semantic_scholar", server.url)
    assert call(settings, SemanticScholar.from_settings, lambda s: s.by_doi("10.9999/none")) is None
    assert call(settings, SemanticScholar.from_settings, lambda s: s.by_arxiv_id("2101.99999")) is None
    assert call(settings, SemanticScholar.from_settings, lambda s: s.by_arxiv_id("not an id")) is None
    assert server.count == 2  # 404s are answers; a malformed id is not asked


def test_a_404_that_is_not_semantic_scholars_is_unreachable_never_a_none(
    server: SemanticScholarServer,
) -> None:
    settings = settings_for("semantic_scholar", server.url)
    server.fail(page(b"<html><body><h1>404 Not Found</h1>nginx</body></html>", status=404))
    with pytest.raises(Unreachable, match=r"HTTP 404: .*not the service's own"):
        call(settings, SemanticScholar.from_settings, lambda s: s.by_doi("10.9999/none"))
    server.fail(json_reply({"message": "Missing Authentication Token"}, 404))  # a gateway's, not the API's
    with pytest.raises(Unreachable, match=r"HTTP 404: .*not the service's own"):
        call(settings, SemanticScholar.from_settings, lambda s: s.by_arxiv_id("2101.99999"))


def test_nothing_found_is_an_empty_answer(server: SemanticScholarServer) -> None:
    assert lookup(server, ParsedFields(title="Quantum gravitational basket weaving")) == []
    server.fail(page(b'{"total": 0, "offset": 0}', "application/json"))  # no data list at all
    assert search(server, "Quantum gravitational basket weaving") == []
    server.fail(page(b'{"data": []}', "application/json"))  # the title match's real empty answer
    assert lookup(server, ParsedFields(title="Quantum gravitational basket weaving")) == []


def test_the_api_key_goes_in_the_x_api_key_header() -> None:
    with SemanticScholarServer([LECUN], api_key="s2-secret") as server:
        assert lookup(server, ParsedFields(title="Deep Learning"), api_key="s2-secret")[0].year == 2015
        assert server.requests[-1].headers["x-api-key"] == "s2-secret"
        with pytest.raises(Unreachable, match=r"HTTP 403: '\{\"message\": \"Forbidden\"\}'"):
            lookup(server, ParsedFields(title="Deep Learning"))  # no key: refused, never "not found"
        wrong = r"the API key was refused \(sources.semantic_scholar.api_key\): HTTP 403"
        with pytest.raises(Unreachable, match=wrong):
            lookup(server, ParsedFields(title="Deep Learning"), api_key="stale")


def test_429_with_retry_after_is_waited_out(server: SemanticScholarServer) -> None:
    server.fail(rate_limited(TOO_MANY, "application/json", retry_after="0.2"))
    assert lookup(server, ParsedFields(title="Deep Learning"))[0].title == "Deep Learning"
    first, second = server.requests
    assert second.at - first.at >= 0.19


def test_429_without_end_is_unreachable_with_the_message(server: SemanticScholarServer) -> None:
    server.fail_always(rate_limited(TOO_MANY, "application/json", retry_after="0"))
    with pytest.raises(
        Unreachable,
        match=r"semantic_scholar: HTTP 429: .*Too Many Requests.*after 2 attempts\); "
        r"sources.semantic_scholar.api_key is not set",
    ):
        lookup(server, ParsedFields(title="Deep Learning"), retries=1)


def test_a_503_storm_is_unreachable(server: SemanticScholarServer) -> None:
    server.fail_always(unavailable())
    with pytest.raises(Unreachable, match="HTTP 503"):
        lookup(server, ParsedFields(doi="10.1038/nature14539"))


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (page(b"<html><body>Gateway</body></html>"), r"not JSON \(HTTP 200, text/html\)"),
        (page(b'{"total": 3, "data": [{"paperId": "x"', "application/json"), "not JSON"),
        (page(b'{"total": 3, "offset": 0}', "application/json"), "a search result without data"),
        (page(b'{"error": "Unrecognized or unsupported fields: [x]"}', "application/json", 400), "HTTP 400"),
    ],
)
def test_an_unusable_search_answer_is_unreachable(
    server: SemanticScholarServer, fault: object, message: str
) -> None:
    server.fail(fault)  # type: ignore[arg-type]
    with pytest.raises(Unreachable, match=message):
        search(server, "Deep Learning")
    assert server.count == 1


def test_an_answer_that_is_no_paper_is_unreachable(server: SemanticScholarServer) -> None:
    server.fail(page(b'{"data": []}', "application/json"))
    with pytest.raises(Unreachable, match="not a paper"):
        lookup(server, ParsedFields(doi="10.1038/nature14539"))


def test_odd_papers_are_skipped(server: SemanticScholarServer) -> None:
    body = (
        b'{"total": 4, "offset": 0, "data": [{"paperId": "a", "title": null}, {"title": "No id"}, 7,'
        b' {"paperId": "b", "title": "Kept", "year": "2020",'
        b' "authors": [null, {"name": ""}, {"name": "A B"}],'
        b' "externalIds": null, "publicationVenue": null, "venue": "", "publicationTypes": null}]}'
    )
    server.fail(page(body, "application/json"))
    (record,) = search(server, "Kept")
    assert (record.source_id, record.year, record.authors, record.venue, record.entry_type) == (
        "b",
        None,
        ["A B"],
        None,
        "misc",
    )
