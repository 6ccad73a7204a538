"""The dblp source against a loopback server speaking dblp's search API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.errors import Unreachable
from refhound.models import ParsedFields, Record
from refhound.sources.dblp import Dblp, search_query
from tests.sources import works
from tests.sources.dblp_server import TOO_MANY, DblpServer
from tests.sources.fake_service import call, page, rate_limited, settings_for, unavailable

FIXTURE = (Path(__file__).parent / "fixtures" / "dblp-search.json").read_bytes()
RESNET = works.RESNET.model_copy(update={"venue": "CVPR"})  # dblp names venues short
SOLO = Record(
    source="test",
    source_id="solo",
    source_version="test",
    title="Residual Learning Revisited: A Note",
    authors=["Wei Wang 0042"],
    venue="CoRR",
    year=2020,
    entry_type="preprint",
)


@pytest.fixture()
def server() -> Iterator[DblpServer]:
    with DblpServer([RESNET, SOLO]) as running:
        yield running


def search(server: DblpServer, title: str) -> list[Record]:
    return call(
        settings_for("dblp", server.url), Dblp.from_settings, lambda s: s.lookup(ParsedFields(title=title))
    )


def test_a_real_dblp_answer_maps_to_records(server: DblpServer) -> None:
    server.fail(page(FIXTURE, "application/json; charset=utf-8"))
    nips, corr, tracking = search(server, "Attention is all you need")
    assert nips == Record(
        source="dblp",
        source_id="conf/nips/VaswaniSPUJGKP17",
        source_version="2025-05-06",
        title="Attention is All you Need",  # dblp's final period dropped
        authors=[
            "Ashish Vaswani",
            "Noam Shazeer",
            "Niki Parmar",
            "Jakob Uszkoreit",
            "Llion Jones",
            "Aidan N. Gomez",
            "Lukasz Kaiser",
            "Illia Polosukhin",
        ],
        venue="NIPS",
        year=2017,
        url="https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17",
        entry_type="inproceedings",
    )
    assert (corr.venue, corr.entry_type, corr.arxiv_id, corr.doi) == (
        "CoRR",
        "preprint",
        "1706.03762",
        "10.48550/ARXIV.1706.03762",
    )
    assert tracking.title == "Attention Is Not All You Need for Tracking?"
    assert tracking.authors == ["Chenglong Li"]  # a lone author object; the homonym number dropped
    assert (tracking.venue, tracking.entry_type, tracking.doi) == (
        "Pattern Recognit.",
        "article",
        "10.1016/J.PATCOG.2023.109563",
    )


def test_the_search_sends_the_title_words_as_json_query(server: DblpServer) -> None:
    records = search(server, "Deep residual learning: for image-recognition!")
    assert [r.title for r in records] == [RESNET.title]
    assert records[0].doi == "10.1109/CVPR.2016.90" and records[0].authors == RESNET.authors
    request = server.requests[-1]
    assert request.path == "/search/publ/api"
    assert request.params == {"q": "Deep residual learning for image recognition", "format": "json", "h": "5"}


def test_a_single_author_with_a_homonym_number(server: DblpServer) -> None:
    (record,) = search(server, "residual learning revisited")
    assert record.authors == ["Wei Wang"] and record.entry_type == "preprint" and record.venue == "CoRR"


def test_no_hit_is_an_empty_answer(server: DblpServer) -> None:
    assert search(server, "Quantum Gravitational Basket Weaving") == []
    assert server.count == 1


def test_a_citation_without_title_sends_nothing(server: DblpServer) -> None:
    settings = settings_for("dblp", server.url)
    assert (
        call(settings, Dblp.from_settings, lambda s: s.lookup(ParsedFields(doi="10.1109/CVPR.2016.90"))) == []
    )
    assert call(settings, Dblp.from_settings, lambda s: s.lookup(ParsedFields(title="?!"))) == []
    assert server.count == 0


def test_search_query_keeps_only_words() -> None:
    assert search_query('BERT: Pre-training of "Deep" (Bidirectional) Transformers') == (
        "BERT Pre training of Deep Bidirectional Transformers"
    )


def test_429_with_retry_after_is_waited_out(server: DblpServer) -> None:
    server.fail(rate_limited(TOO_MANY, "text/html", retry_after="0.2"))
    assert [r.title for r in search(server, RESNET.title)] == [RESNET.title]
    first, second = server.requests
    assert second.at - first.at >= 0.19


def test_a_503_storm_is_unreachable(server: DblpServer) -> None:
    server.fail_always(unavailable())
    with pytest.raises(Unreachable, match=r"dblp: HTTP 503.*\(after 3 attempts\)"):
        search(server, RESNET.title)


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (
            page(b"<html><body>dblp is down for maintenance</body></html>"),
            r"not JSON \(HTTP 200, text/html\)",
        ),
        (page(b'{"result": {"hits": {"@total": "1", "hit": [', "application/json"), "not JSON"),
        (page(b'{"result": {"status": {"@code": "200"}}}', "application/json"), "no result hits"),
        (page(b'{"error": "x"}', "application/json"), "no result hits"),
        (
            page(
                b'{"result": {"status": {"@code": "500", "text": "query failed"}, "hits": {}}}',
                "application/json",
            ),
            "status 500",
        ),
    ],
)
def test_an_unusable_answer_is_unreachable(server: DblpServer, fault: object, message: str) -> None:
    server.fail(fault)  # type: ignore[arg-type]
    with pytest.raises(Unreachable, match=message):
        search(server, RESNET.title)
    assert server.count == 1


def test_odd_hits_are_skipped(server: DblpServer) -> None:
    body = (
        b'{"result": {"status": {"@code": "200", "text": "OK"}, "hits": {"@total": "4", "hit": ['
        b'{"info": {"title": "No Key."}}, "junk", {"info": {"key": "k/1"}},'
        b'{"info": {"key": "k/2", "title": "Kept.", "year": 2020, "authors": {"author": ["Plain Name"]}}}'
        b"]}}}"
    )
    server.fail(page(body, "application/json"))
    records = search(server, "kept")
    assert [(r.source_id, r.title, r.year, r.authors) for r in records] == [
        ("k/2", "Kept", 2020, ["Plain Name"])
    ]


def test_a_lone_hit_object_is_read_like_a_list(server: DblpServer) -> None:
    body = b'{"result": {"hits": {"@total": "1", "hit": {"info": {"key": "k/9", "title": "Alone."}}}}}'
    server.fail(page(body, "application/json"))
    assert [r.source_id for r in search(server, "alone")] == ["k/9"]
