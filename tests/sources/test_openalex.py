"""The OpenAlex source against a loopback server speaking OpenAlex's wire format."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.errors import Unreachable
from refhound.models import ParsedFields, Record
from refhound.sources.base import DoiSource
from refhound.sources.openalex import OpenAlex
from tests.sources.fake_service import MAILTO, call, page, rate_limited, settings_for, unavailable
from tests.sources.openalex_server import RATE_LIMITED, OpenAlexServer
from tests.sources.works import LECUN

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "openalex-work.json").read_text())
RESNET = "Deep Residual Learning for Image Recognition"
NEAR = Record(
    source="test",
    source_id="near",
    source_version="test",
    title="Image Recognition by Residual Learning of Deep Features",
    authors=["A. Person"],
    venue="J. Imaging",
    year=2019,
)


@pytest.fixture()
def server() -> Iterator[OpenAlexServer]:
    with OpenAlexServer([FIXTURE, LECUN, NEAR]) as running:
        yield running


def test_the_client_is_a_doi_source(server: OpenAlexServer) -> None:
    async def is_doi_source(source: OpenAlex) -> bool:
        return isinstance(source, DoiSource) and source.name == "openalex"

    assert call(settings_for("openalex", server.url), OpenAlex.from_settings, is_doi_source)


def test_a_real_openalex_work_maps_to_a_record(server: OpenAlexServer) -> None:
    record = call(
        settings_for("openalex", server.url),
        OpenAlex.from_settings,
        lambda s: s.by_doi("https://doi.org/10.1109/CVPR.2016.90"),
    )
    assert record == Record(
        source="openalex",
        source_id="W2194775991",
        source_version="2025-05-06",
        title=RESNET,
        authors=["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],  # the raw name without an author
        venue="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
        year=2016,
        doi="10.1109/cvpr.2016.90",
        arxiv_id="1512.03385",  # from the arXiv location
        url="https://openalex.org/W2194775991",
        entry_type="inproceedings",  # "article" at a conference source
    )
    request = server.requests[-1]
    assert request.path == "/works/doi:10.1109/cvpr.2016.90"
    assert request.params["mailto"] == MAILTO and "api_key" not in request.params
    assert {"id", "authorships", "primary_location", "locations"} <= set(request.params["select"].split(","))


def test_search_finds_the_cited_title_first(server: OpenAlexServer) -> None:
    cited = ParsedFields(title="Deep residual learning for image recognition", authors=["K. He"], year=2016)
    records = call(settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.lookup(cited))
    assert records[0].title == RESNET  # relevance order: OpenAlex also lists works that merely share words
    near = next(r for r in records if r.title == NEAR.title)
    assert (near.source_id, near.doi, near.venue, near.year) == ("W1002", None, "J. Imaging", 2019)
    request = server.requests[-1]
    assert request.path == "/works"
    assert request.params["search"] == cited.title and request.params["per-page"] == "5"


def test_the_api_key_is_sent_when_set(server: OpenAlexServer) -> None:
    settings = settings_for("openalex", server.url, api_key="oa-secret")
    call(settings, OpenAlex.from_settings, lambda s: s.search(RESNET))
    assert server.requests[-1].params["api_key"] == "oa-secret"


def test_a_cited_doi_with_the_cited_title_needs_one_request(server: OpenAlexServer) -> None:
    cited = ParsedFields(title="Deep Learning", doi="10.1038/NATURE14539")
    records = call(settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.lookup(cited))
    assert [(r.title, r.year, r.venue) for r in records] == [("Deep Learning", 2015, "Nature")]
    assert server.paths == ["/works/doi:10.1038/nature14539"]


def test_a_doi_of_another_work_is_kept_and_the_title_still_searched(server: OpenAlexServer) -> None:
    cited = ParsedFields(title=RESNET, doi="10.1038/nature14539")
    records = call(settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.lookup(cited))
    assert [r.title for r in records] == ["Deep Learning", RESNET, NEAR.title]
    assert server.paths == ["/works/doi:10.1038/nature14539", "/works"]


def test_an_unknown_doi_is_a_definite_none(server: OpenAlexServer) -> None:
    settings = settings_for("openalex", server.url)
    assert call(settings, OpenAlex.from_settings, lambda s: s.by_doi("10.9999/no-such-work")) is None
    assert call(settings, OpenAlex.from_settings, lambda s: s.lookup(ParsedFields(doi="10.9999/nope"))) == []
    assert call(settings, OpenAlex.from_settings, lambda s: s.by_doi("not a doi")) is None
    assert server.count == 2  # a 404 is an answer, never retried; "not a doi" is not asked


def test_a_404_that_is_not_openalexs_is_unreachable_never_a_none(server: OpenAlexServer) -> None:
    server.fail(page(b"<html><body><h1>404 Not Found</h1>nginx</body></html>", status=404))
    with pytest.raises(Unreachable, match=r"openalex: HTTP 404: .*not the service's own"):
        call(
            settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.by_doi(LECUN.doi or "")
        )


def test_a_refused_api_key_names_its_setting(server: OpenAlexServer) -> None:
    server.fail(page(b'{"error": "Invalid API key"}', "application/json", status=401))
    settings = settings_for("openalex", server.url, api_key="wrong")
    with pytest.raises(Unreachable, match=r"the API key was refused \(sources.openalex.api_key\): HTTP 401"):
        call(settings, OpenAlex.from_settings, lambda s: s.search("Deep learning"))


def test_a_title_nobody_has_is_an_empty_answer(server: OpenAlexServer) -> None:
    cited = ParsedFields(title="Quantum Gravitational Basket Weaving")
    assert call(settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.lookup(cited)) == []


def test_429_with_retry_after_is_waited_out(server: OpenAlexServer) -> None:
    server.fail(rate_limited(RATE_LIMITED, "application/json", retry_after="0.2"))
    records = call(settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.search(RESNET))
    assert records[0].title == RESNET
    first, second = server.requests
    assert second.at - first.at >= 0.19


def test_a_503_storm_is_unreachable(server: OpenAlexServer) -> None:
    server.fail_always(unavailable())
    with pytest.raises(Unreachable, match=r"openalex: HTTP 503.*\(after 3 attempts\)"):
        call(settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.search(RESNET))


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (page(b"<html><body>Sign in to the Wi-Fi</body></html>"), r"not JSON \(HTTP 200, text/html\)"),
        (page(b'{"meta": {"count": 1}, "results": [{"id": ', "application/json"), "not JSON"),
        (page(b'{"meta": {"count": 0}}', "application/json"), "a work list without results"),
        (page(b'{"error": "Invalid query parameters error."}', "application/json", 400), "HTTP 400"),
    ],
)
def test_an_unusable_search_answer_is_unreachable(
    server: OpenAlexServer, fault: object, message: str
) -> None:
    server.fail(fault)  # type: ignore[arg-type]
    with pytest.raises(Unreachable, match=message):
        call(settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.search(RESNET))
    assert server.count == 1


def test_a_single_work_answer_that_is_no_work_is_unreachable(server: OpenAlexServer) -> None:
    server.fail(page(b'{"meta": {}, "results": []}', "application/json"))
    with pytest.raises(Unreachable, match="not an OpenAlex work"):
        call(settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.by_doi("10.1000/x"))


def test_odd_items_in_a_work_list_are_skipped(server: OpenAlexServer) -> None:
    works = [
        {"id": "https://openalex.org/W1", "title": None, "display_name": None},  # paratext: no title
        {"id": "https://openalex.org/W2", "title": RESNET, "publication_year": "2016", "authorships": None},
        "not a work",
        {"id": 42, "title": RESNET},
        {"id": "https://openalex.org/W3", "title": RESNET, "locations": [{"landing_page_url": 7}]},
    ]
    body = json.dumps({"meta": {"count": 5}, "results": works}).encode()
    server.fail(page(body, "application/json"))
    records = call(settings_for("openalex", server.url), OpenAlex.from_settings, lambda s: s.search(RESNET))
    assert [(r.source_id, r.year, r.authors) for r in records] == [("W2", None, [])]


def test_an_answer_of_the_wrong_shape_is_not_cached_and_a_good_one_is(
    server: OpenAlexServer, tmp_path: Path
) -> None:
    settings, cache = settings_for("openalex", server.url), tmp_path / "http.sqlite"
    server.fail(page(b'{"meta": {"count": 0}}', "application/json"))
    with pytest.raises(Unreachable, match="without results"):
        call(settings, OpenAlex.from_settings, lambda s: s.search(RESNET), cache=cache)
    for _ in range(2):
        records = call(settings, OpenAlex.from_settings, lambda s: s.search(RESNET), cache=cache)
        assert records[0].title == RESNET
    assert server.count == 2  # the broken answer was asked again; the good one came from the cache
