"""arXiv OAI-PMH harvesting (refhound/index/oai.py) against a loopback server over the real snapshot
sample: paging by resumption token, `from`, deleted records, flow control, expired tokens, OAI errors, and the
address guard every request goes through (a redirect to a refused address included)."""

from __future__ import annotations

from typing import Any

import pytest

from refhound.index.download import Patience
from refhound.index.ingest.arxiv import read_arxiv_snapshot
from refhound.index.oai import OaiError, OaiHarvest
from refhound.settings import Settings
from tests.conftest import shared_path
from tests.index.oai_server import OaiServer, load_snapshot

FAST = Patience(retries=2, backoff_s=0.0, timeout_s=5.0)
LOOPBACK = Settings(net={"allow": ["127.0.0.1"]})  # the test servers listen on loopback


@pytest.fixture()
def works() -> list[dict[str, Any]]:
    return load_snapshot(shared_path("index", "arxiv-oai-snapshot-sample-200.jsonl"))


def harvest(server: OaiServer, since: str | None, token: str | None = None) -> OaiHarvest:
    return OaiHarvest(
        server.url, since, token=token, delay_s=0, patience=FAST, version="2022-04-01", settings=LOOPBACK
    )


def test_a_full_harvest_pages_through_every_record_and_maps_as_the_snapshot(
    works: list[dict[str, Any]],
) -> None:
    with OaiServer(works, page_size=30) as server:
        run = harvest(server, None)
        records = list(run.records())
    assert len(records) == 200 and run.pages == 7 and run.token is None
    assert run.next_from == "2022-04-01"
    snapshot = {
        r.source_id: r
        for r in read_arxiv_snapshot(
            shared_path("index", "arxiv-oai-snapshot-sample-200.jsonl"), version="2022-04-01"
        ).records
    }
    same = sum(
        (r.title, r.authors, r.year, r.doi) == (s.title, s.authors, s.year, s.doi)
        for r in records
        for s in [snapshot[r.source_id]]
    )
    assert same == 200


def test_from_selects_what_changed_since(works: list[dict[str, Any]]) -> None:
    with OaiServer(works) as server:
        records = list(harvest(server, "2015-01-01").records())
        assert server.requests[0] == {"verb": "ListRecords", "metadataPrefix": "arXiv", "from": "2015-01-01"}
    assert len(records) == sum(w["update_date"] >= "2015-01-01" for w in works) > 0


def test_nothing_new_is_an_empty_harvest_not_an_error(works: list[dict[str, Any]]) -> None:
    with OaiServer(works) as server:
        assert list(harvest(server, "2030-01-01").records()) == []


def test_deleted_records_are_listed(works: list[dict[str, Any]]) -> None:
    with OaiServer(works) as server:
        server.deleted = {works[0]["id"]}
        run = harvest(server, None)
        assert len(list(run.records())) == 199
    assert run.deleted == [works[0]["id"]]


def test_flow_control_503_is_waited_out(works: list[dict[str, Any]]) -> None:
    with OaiServer(works, page_size=100) as server:
        server.busy = 2
        assert len(list(harvest(server, None).records())) == 200


def test_an_expired_token_is_a_clear_error_and_the_pages_read_stay(works: list[dict[str, Any]]) -> None:
    with OaiServer(works, page_size=50) as server:
        run = harvest(server, "2007-01-01")
        server.expire_tokens = True
        dump = run.dump()
        got = list(dump.records)
    assert len(got) == 50  # the first page
    assert run.failure is not None and run.failure.code == "badResumptionToken"
    assert "restarts from 2007-01-01" in str(run.failure)


def test_other_oai_errors_and_non_oai_answers_are_errors(works: list[dict[str, Any]]) -> None:
    with OaiServer(works) as server:
        bad = OaiHarvest(
            server.url.replace("/oai2", "/oai2"), None, delay_s=0, patience=FAST, settings=LOOPBACK
        )
        bad_token = harvest(server, None, token="nonsense")
        server.expire_tokens = True
        with pytest.raises(OaiError, match=r"badResumptionToken|expired"):
            list(bad_token.records())
        server.expire_tokens = False
        assert len(list(bad.records())) == 200
        server.busy = 10
        with pytest.raises(OaiError, match=r"HTTP 503 after 3 attempts.*harvest from the beginning"):
            list(harvest(server, None).records())


def test_a_harvest_on_a_loopback_address_is_refused_unless_allowed(works: list[dict[str, Any]]) -> None:
    """The harvest goes through the address guard, as dump downloads do: a loopback base URL is refused at
    once (not retried), before any request reaches the server, unless `net.allow` names it."""
    with OaiServer(works, page_size=100) as server:
        run = OaiHarvest(server.url, None, delay_s=0, patience=FAST, settings=Settings())
        assert list(run.dump().records) == []
        assert server.requests == []
        assert run.failure is not None
        assert "refused: 127.0.0.1 is a loopback address; allow it with the setting net.allow" in str(
            run.failure
        )
        assert len(list(harvest(server, None).records())) == 200


def test_a_redirect_is_judged_by_the_guard_hop_by_hop(works: list[dict[str, Any]]) -> None:
    """A harvest URL that redirects is followed to an allowed address, and refused, naming the host, when
    the redirect leads to an address the guard refuses (127.0.0.2: loopback, but not the 127.0.0.1 that
    `net.allow` names); that refusal is not retried."""
    with OaiServer(works, page_size=100) as server:
        moved = server.url.replace("/oai2", "/moved")
        server.moved_to = server.url
        run = OaiHarvest(moved, None, delay_s=0, patience=FAST, settings=LOOPBACK)
        assert len(list(run.records())) == 200 and run.pages == 2
        server.moved_to = server.url.replace("127.0.0.1", "127.0.0.2")
        server.requests.clear()
        refused = OaiHarvest(moved, None, delay_s=0, patience=FAST, settings=LOOPBACK)
        with pytest.raises(OaiError, match=r"refused: 127\.0\.0\.2 is a loopback address; allow it with"):
            list(refused.records())
        assert len(server.requests) == 1  # the redirect itself; nothing reached 127.0.0.2, nothing retried
