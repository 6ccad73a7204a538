"""The doi.org source against a loopback server playing doi.org and the agencies behind it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.errors import Unreachable
from refhound.models import ParsedFields, Record
from refhound.sources.base import DoiSource
from refhound.sources.doi import CSL_JSON, DoiOrg, csl_record
from refhound.sources.probes import Outcome, Prober
from tests.sources.doi_server import DoiServer, Registration
from tests.sources.fake_service import call, page, rate_limited, settings_for, unavailable
from tests.sources.works import LECUN

CSL = json.loads((Path(__file__).parent / "fixtures" / "doi-csl.json").read_text())
RESNET_DOI = "10.1109/cvpr.2016.90"
ARXIV_DOI = "10.48550/ARXIV.1706.03762"
NO_NEGOTIATION = "10.5555/landing-only"  # an agency that only redirects to the landing page


@pytest.fixture()
def server() -> Iterator[DoiServer]:
    registrations: list[Record | Registration] = [
        Registration(RESNET_DOI, CSL["crossref"]),
        Registration(ARXIV_DOI, CSL["datacite"]),
        Registration(NO_NEGOTIATION, None),
        LECUN,
    ]
    with DoiServer(registrations) as running:
        yield running


def by_doi(server: DoiServer, doi: str) -> Record | None:
    return call(settings_for("doi", server.url), DoiOrg.from_settings, lambda s: s.by_doi(doi))


def resolves(server: DoiServer, doi: str) -> bool:
    return call(settings_for("doi", server.url), DoiOrg.from_settings, lambda s: s.resolves(doi))


def test_crossrefs_csl_json_maps_to_a_record(server: DoiServer) -> None:
    record = by_doi(server, "https://doi.org/10.1109/CVPR.2016.90")
    assert record == Record(
        source="doi",
        source_id=RESNET_DOI,
        source_version="2025-05-06",
        title="Deep Residual Learning for Image Recognition",
        authors=["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],
        venue="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
        year=2016,
        doi=RESNET_DOI,
        url="http://dx.doi.org/10.1109/cvpr.2016.90",
        entry_type="inproceedings",
    )
    negotiated, followed = server.requests
    assert negotiated.path == f"/{RESNET_DOI}" and negotiated.headers["accept"] == CSL_JSON
    assert followed.path == f"/agency/csl/{RESNET_DOI}"  # doi.org's redirect to the agency, followed


def test_datacites_csl_json_of_an_arxiv_doi(server: DoiServer) -> None:
    record = by_doi(server, "10.48550/arXiv.1706.03762")
    assert record is not None
    assert (record.title, record.venue, record.year, record.entry_type, record.arxiv_id) == (
        "Attention Is All You Need",
        "arXiv",  # a preprint's server, from the publisher
        2017,  # a year given as a string
        "preprint",
        "1706.03762",
    )
    assert record.authors[-2:] == ["Lukasz Kaiser", "Illia Polosukhin"]
    assert record.url == "https://arxiv.org/abs/1706.03762"


def test_an_unregistered_doi_is_none_and_does_not_resolve(server: DoiServer) -> None:
    assert by_doi(server, "10.9999/fabricated.2023.001") is None
    assert resolves(server, "10.9999/fabricated.2023.001") is False
    assert server.paths == ["/10.9999/fabricated.2023.001", "/api/handles/10.9999/fabricated.2023.001"]


def test_an_agency_without_content_negotiation_resolves_without_metadata(server: DoiServer) -> None:
    assert by_doi(server, NO_NEGOTIATION) is None  # the landing page is no metadata: no crash, no record
    assert resolves(server, NO_NEGOTIATION) is True
    assert server.paths[:2] == [f"/{NO_NEGOTIATION}", f"/landing/{NO_NEGOTIATION}"]
    handle_request = server.requests[-1]
    assert handle_request.path == f"/api/handles/{NO_NEGOTIATION}" and handle_request.params == {
        "type": "URL"
    }


def test_the_identifier_probes_tell_the_three_answers_apart(server: DoiServer) -> None:
    async def probe(doi_org: DoiOrg) -> list[Outcome]:
        prober = Prober(doi=doi_org)
        outcomes = []
        for doi in (RESNET_DOI, NO_NEGOTIATION, "10.9999/fabricated"):
            (found,) = await prober.probe(ParsedFields(doi=doi))
            outcomes.append(found.outcome)
        return outcomes

    outcomes = call(settings_for("doi", server.url), DoiOrg.from_settings, probe)
    assert outcomes == [Outcome.FOUND, Outcome.RESOLVES, Outcome.MISSING]


def test_lookup_answers_the_cited_doi_only(server: DoiServer) -> None:
    settings = settings_for("doi", server.url)
    found = call(settings, DoiOrg.from_settings, lambda s: s.lookup(ParsedFields(title="x", doi=LECUN.doi)))
    assert [(r.title, r.year, r.venue, r.entry_type) for r in found] == [
        ("Deep Learning", 2015, "Nature", "article")
    ]
    assert call(settings, DoiOrg.from_settings, lambda s: s.lookup(ParsedFields(title="Deep Learning"))) == []
    assert call(settings, DoiOrg.from_settings, lambda s: s.lookup(ParsedFields(doi="10.9999/none"))) == []
    assert server.count == 3  # the negotiation and its redirect, then one 404


def test_something_that_is_no_doi_is_not_asked(server: DoiServer) -> None:
    assert by_doi(server, "not a doi") is None
    assert resolves(server, "doi: nothing") is False
    assert server.count == 0


def test_the_client_is_a_doi_source(server: DoiServer) -> None:
    async def check(doi_org: DoiOrg) -> bool:
        return isinstance(doi_org, DoiSource)

    assert call(settings_for("doi", server.url), DoiOrg.from_settings, check)


def test_429_with_retry_after_is_waited_out(server: DoiServer) -> None:
    server.fail(rate_limited(b"Too Many Requests", retry_after="0.2"))
    assert resolves(server, RESNET_DOI) is True
    first, second = server.requests
    assert second.at - first.at >= 0.19


def test_a_503_storm_is_unreachable_never_a_missing_doi(server: DoiServer) -> None:
    server.fail_always(unavailable())
    with pytest.raises(Unreachable, match=r"doi: HTTP 503"):
        by_doi(server, "10.9999/fabricated")
    with pytest.raises(Unreachable, match=r"doi: HTTP 503"):
        resolves(server, "10.9999/fabricated")


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (page(b'{"title": "Deep', CSL_JSON), "the CSL-JSON answer is not JSON"),
        (page(b'["a", "list"]', "application/json"), "JSON but not an object"),
    ],
)
def test_broken_csl_json_is_unreachable(server: DoiServer, fault: object, message: str) -> None:
    server.fail(fault)  # type: ignore[arg-type]
    with pytest.raises(Unreachable, match=message):
        by_doi(server, RESNET_DOI)


def test_csl_json_without_a_title_is_no_record(server: DoiServer) -> None:
    server.fail(page(b'{"DOI": "10.1109/cvpr.2016.90", "type": "component"}', CSL_JSON))
    assert by_doi(server, RESNET_DOI) is None


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (page(b"<html><body>Sign in to the Wi-Fi</body></html>"), "not JSON"),
        (page(b'{"responseCode": 2, "message": "Error"}', "application/json"), "responseCode 2"),
    ],
)
def test_an_unusable_handle_answer_is_unreachable(server: DoiServer, fault: object, message: str) -> None:
    server.fail(fault)  # type: ignore[arg-type]
    with pytest.raises(Unreachable, match=message):
        resolves(server, RESNET_DOI)


@pytest.mark.parametrize(
    "fault",
    [
        page(b"<html><body><h1>404 Not Found</h1>nginx</body></html>", status=404),
        page(b'{"responseCode": 2, "message": "Error"}', "application/json", status=404),
    ],
    ids=["a proxy's page", "another response code"],
)
def test_a_404_that_is_not_the_handle_services_is_unreachable_never_a_missing_doi(
    server: DoiServer, fault: object
) -> None:
    server.fail(fault)  # type: ignore[arg-type]
    with pytest.raises(Unreachable, match=r"doi: HTTP 404: .*not the service's own"):
        resolves(server, "10.9999/fabricated")


def test_a_mirror_without_the_handle_api_never_calls_a_doi_missing(server: DoiServer) -> None:
    async def probe(doi_org: DoiOrg) -> Outcome:
        (found,) = await Prober(doi=doi_org).probe(ParsedFields(doi="10.9999/fabricated"))
        return found.outcome

    mirror = settings_for("doi", f"{server.url}/mirror")  # answers every path with doi.org's 404 page
    assert call(mirror, DoiOrg.from_settings, probe) is Outcome.UNKNOWN
    assert call(settings_for("doi", server.url), DoiOrg.from_settings, probe) is Outcome.MISSING


def test_odd_csl_fields_are_tolerated() -> None:
    item = {
        "title": ["A <i>Title</i> in a list"],
        "author": [
            {"literal": "The Consortium"},
            "junk",
            {"given": "Ada"},
            {"family": "Lovelace", "given": None},
        ],
        "container-title": ["Journal", "J."],
        "issued": {"date-parts": [[None]]},
        "published-online": {"date-parts": [["2021", "3"]]},
        "type": "article-journal",
    }
    record = csl_record(item, "10.1000/x", "2025-05-06")
    assert record is not None
    assert (record.title, record.authors, record.venue, record.year, record.url) == (
        "A Title in a list",
        ["The Consortium", "Ada", "Lovelace"],
        "Journal",
        2021,
        "https://doi.org/10.1000/x",
    )
