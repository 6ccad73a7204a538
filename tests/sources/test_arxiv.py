"""The arXiv source against a loopback server speaking arXiv's Atom API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.errors import Unreachable
from refhound.models import ParsedFields, Record
from refhound.sources.arxiv import Arxiv, parse_feed
from tests.sources.arxiv_server import ATOM_TYPE, ArxivServer, Preprint, entry_xml, error_entry, feed_xml
from tests.sources.fake_service import call, page, rate_limited, settings_for, unavailable

FIXTURE = (Path(__file__).parent / "fixtures" / "arxiv-feed.xml").read_bytes()
BERT_TITLE = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"


def _preprint(arxiv_id: str, title: str, authors: list[str], **extra: object) -> Preprint:
    record = Record(source="test", source_id=arxiv_id, source_version="test", title=title, authors=authors)
    return Preprint(record.model_copy(update={"arxiv_id": arxiv_id}), **extra)  # type: ignore[arg-type]


BERT = _preprint(
    "1810.04805", BERT_TITLE, ["Jacob Devlin", "Ming-Wei Chang"], version=2, published="2018-10-11T00:50:01Z"
)
TRANSFORMER = _preprint(
    "1706.03762",
    "Attention Is All You Need",
    ["Ashish Vaswani", "Noam Shazeer"],
    version=7,
    published="2017-06-12T17:57:34Z",
)
ACCENTED = _preprint(
    "2101.00001",
    r"A Study of $\ell_1$ Regularisation and the Na\"ive Bayes Model",
    ["Ren\\'e Descartes", "Zoë Müller"],
    published="2020-12-31T19:00:01Z",
)


@pytest.fixture()
def server() -> Iterator[ArxivServer]:
    with ArxivServer([BERT, TRANSFORMER, ACCENTED]) as running:
        yield running


def by_id(server: ArxivServer, arxiv_id: str) -> Record | None:
    return call(settings_for("arxiv", server.url), Arxiv.from_settings, lambda s: s.by_arxiv_id(arxiv_id))


def lookup(server: ArxivServer, cited: ParsedFields) -> list[Record]:
    return call(settings_for("arxiv", server.url), Arxiv.from_settings, lambda s: s.lookup(cited))


def test_a_real_arxiv_feed_maps_to_records() -> None:
    feed = parse_feed(FIXTURE, "2025-05-06")
    assert feed.error is None
    bert, maldacena = feed.records
    assert bert == Record(
        source="arxiv",
        source_id="1810.04805",
        source_version="2025-05-06",
        title=BERT_TITLE,  # the hard wrap undone
        authors=["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
        venue="arXiv",
        year=2018,  # the first version's year, not v2's
        arxiv_id="1810.04805",  # without the version
        url="https://arxiv.org/abs/1810.04805",
        entry_type="preprint",
    )
    # An old-style id; the DOI of the published version is kept, its journal reference is not the preprint.
    assert (maldacena.source_id, maldacena.year, maldacena.doi, maldacena.venue) == (
        "hep-th/9711200",
        1997,
        "10.1023/A:1026654312961",
        "arXiv",
    )


def test_an_id_in_any_form_finds_its_preprint(server: ArxivServer) -> None:
    record = by_id(server, "arXiv:1810.04805v1")
    assert record is not None and record.title == BERT_TITLE and record.year == 2018
    request = server.requests[-1]
    assert request.path == "/query" and request.params == {"id_list": "1810.04805", "max_results": "1"}


def test_latex_in_titles_and_names_is_decoded(server: ArxivServer) -> None:
    record = by_id(server, "https://arxiv.org/abs/2101.00001")
    assert record is not None
    assert record.title == "A Study of ℓ1 Regularisation and the Naïve Bayes Model"
    assert record.authors == ["René Descartes", "Zoë Müller"] and record.year == 2020


def test_a_well_formed_id_arxiv_does_not_hold_is_none(server: ArxivServer) -> None:
    assert by_id(server, "2101.99999") is None
    assert server.count == 1  # an empty feed is an answer: never retried


def test_a_malformed_id_is_none_without_asking(server: ArxivServer) -> None:
    assert by_id(server, "1234.5678.9") is None
    assert by_id(server, "not-an-id") is None
    assert server.count == 0


def test_arxivs_error_entry_for_an_id_is_a_definite_none(server: ArxivServer) -> None:
    server.fail(
        page(feed_xml("id_list=0801.00001", [error_entry("incorrect id format for 0801.00001")]), ATOM_TYPE)
    )
    assert by_id(server, "0801.0001") is None


def test_another_error_entry_for_an_id_is_unreachable(server: ArxivServer) -> None:
    server.fail(page(feed_xml("id_list=1706.03762", [error_entry("internal search failure")]), ATOM_TYPE))
    with pytest.raises(Unreachable, match=r"arXiv did not answer for the id 1706\.03762: internal search"):
        by_id(server, "1706.03762")


@pytest.mark.parametrize(
    ("feed", "problem"),
    [
        (
            feed_xml("id_list=1706.03762", [], total=1),
            r"holds 0 other or unreadable entries \(totalResults 1\)",
        ),
        (feed_xml("id_list=1706.03762", [entry_xml(BERT)]), r"holds 1 other or unreadable entries"),
    ],
    ids=["a count without its entry", "another preprint's entry"],
)
def test_a_feed_that_does_not_answer_for_the_id_is_unreachable(
    server: ArxivServer, feed: bytes, problem: str
) -> None:
    server.fail(page(feed, ATOM_TYPE))
    with pytest.raises(Unreachable, match=problem):
        by_id(server, "1706.03762")


def test_arxivs_error_entry_for_a_search_is_unreachable(server: ArxivServer) -> None:
    server.fail(page(feed_xml("search_query=ti:", [error_entry("malformed query")]), ATOM_TYPE))
    with pytest.raises(Unreachable, match="arxiv: arXiv did not understand the query: malformed query"):
        lookup(server, ParsedFields(title="Attention is all you need"))


def test_the_title_is_searched_as_a_phrase(server: ArxivServer) -> None:
    records = lookup(server, ParsedFields(title='Attention is "all" you need'))
    assert [r.source_id for r in records] == ["1706.03762"]
    request = server.requests[-1]
    assert request.params == {
        "search_query": 'ti:"Attention is all you need"',
        "max_results": "5",
        "sortBy": "relevance",
    }


def test_a_cited_id_with_the_cited_title_needs_one_request(server: ArxivServer) -> None:
    records = lookup(server, ParsedFields(title=BERT_TITLE, doi="10.48550/arXiv.1810.04805"))
    assert [r.source_id for r in records] == ["1810.04805"]
    assert server.count == 1


def test_an_id_of_another_preprint_is_kept_and_the_title_searched(server: ArxivServer) -> None:
    records = lookup(server, ParsedFields(title="Attention is all you need", arxiv_id="1810.04805"))
    assert [r.source_id for r in records] == ["1810.04805", "1706.03762"]
    assert server.count == 2


def test_nothing_to_look_up_sends_nothing(server: ArxivServer) -> None:
    assert lookup(server, ParsedFields(authors=["A. Person"], doi="10.1000/not-arxiv")) == []
    assert lookup(server, ParsedFields(title='"()"')) == []
    assert server.count == 0


def test_a_503_with_retry_after_is_retried(server: ArxivServer) -> None:
    server.fail(rate_limited(b"Rate exceeded.", retry_after="0.2"), unavailable())
    assert by_id(server, "1706.03762") is not None
    assert server.count == 3
    assert server.requests[1].at - server.requests[0].at >= 0.19


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"Rate exceeded.", "not an Atom feed"),
        (b"<html><body><h1>Access Denied</h1></body></html>", r"not an Atom feed \(root 'html'\)"),
        (FIXTURE[: len(FIXTURE) // 2], "not an Atom feed"),  # truncated
        (b"", "not an Atom feed"),
        (b'<?xml version="1.0"?><rss><channel/></rss>', "root 'rss'"),
    ],
)
def test_a_body_that_is_no_feed_is_unreachable(server: ArxivServer, body: bytes, message: str) -> None:
    server.fail(page(body, "text/plain"))
    with pytest.raises(Unreachable, match=message):
        by_id(server, "1706.03762")
    assert server.count == 1


def test_entries_without_id_or_title_are_skipped() -> None:
    entries = [
        "<entry><id>http://arxiv.org/abs/1706.03762v1</id><title></title></entry>",
        "<entry><id>not an arxiv url</id><title>Something</title></entry>",
        "<entry><id>http://arxiv.org/abs/1706.03762v1</id><title>Kept</title><published>soon</published></entry>",
    ]
    feed = parse_feed(feed_xml("x", entries), "2025-05-06")
    assert [(r.title, r.year) for r in feed.records] == [("Kept", None)]


def test_declared_entities_are_not_expanded() -> None:
    body = (
        b'<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY boom "BOOM">]>'
        b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/1706.03762v1</id>'
        b"<title>Safe &boom; title</title></entry></feed>"
    )
    records = parse_feed(body, "2025-05-06").records
    assert all("BOOM" not in r.title for r in records)


def test_a_body_that_is_no_feed_is_not_cached(server: ArxivServer, tmp_path: Path) -> None:
    settings, cache = settings_for("arxiv", server.url), tmp_path / "http.sqlite"
    server.fail(page(b"Rate exceeded.", "text/plain"))
    with pytest.raises(Unreachable, match="not an Atom feed"):
        call(settings, Arxiv.from_settings, lambda s: s.by_arxiv_id("1706.03762"), cache=cache)
    for _ in range(2):
        record = call(settings, Arxiv.from_settings, lambda s: s.by_arxiv_id("1706.03762"), cache=cache)
        assert record is not None and record.source_id == "1706.03762"
    assert server.count == 2
