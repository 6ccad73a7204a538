"""`refhound index update` end to end against loopback servers publishing the real samples of ../shared:
dblp's dump re-read from its URL (new records in, dropped ones withdrawn, an unchanged ETag skipped, a cut
download resumed, a failed one leaving the index intact), arXiv harvested over OAI-PMH from the last
harvest date (paging, an expired token resumed), Crossref and OpenAlex venues paged by update date; the
harvests go through the address guard, each redirect hop judged."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.index.api_harvest import ApiHarvest
from refhound.index.download import Patience
from refhound.index.store import IndexStore
from refhound.index.update import UpdateOptions
from refhound.settings import Settings
from tests.conftest import shared_path
from tests.index.api_server import WorksServer, real_works
from tests.index.dump_server import DumpServer, cut, html_page
from tests.index.oai_server import OaiServer, load_snapshot
from tests.sources.recorded import RECORDINGS, load

# The dump servers listen on loopback, which the downloads' address guard refuses unless allowed.
ENV = {"COLUMNS": "250", "REFHOUND_NET__ALLOW": '["127.0.0.1"]'}
_ELEMENT = re.compile(r'(?s)<(\w+) mdate="([^"]+)" key="([^"]+)"[^>]*>.*?</\1>')


def dblp_sample() -> tuple[str, str, str, list[tuple[str, str, str]]]:
    """(head, body, tail, elements (tag, mdate, key)) of the real dblp sample."""
    text = shared_path("index", "dblp-sample.xml").read_text(encoding="latin-1")
    found = list(_ELEMENT.finditer(text))
    head, tail = text[: found[0].start()], text[found[-1].end() :]
    return head, text, tail, [(m.group(1), m.group(2), m.group(3)) for m in found]


def dblp_without(keys: set[str]) -> bytes:
    """The sample without the publications of these keys, as a gzip dump."""
    head, text, tail, _ = dblp_sample()
    kept = [m.group(0) for m in _ELEMENT.finditer(text) if m.group(3) not in keys]
    return gzip.compress((head + "".join(kept) + tail).encode("latin-1"))


def publish(server: DumpServer, body: bytes) -> None:
    server.files["/xml/dblp.xml.gz"] = body
    server.files["/xml/dblp.xml.gz.md5"] = hashlib.md5(body, usedforsecurity=False).hexdigest().encode()


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    fast = ["--retries", "2", "--backoff", "0.01"]
    result = CliRunner().invoke(app, ["index", *args, *fast], env=ENV | (env or {}))
    return result.exit_code, result.output


def keys(db: Path, source: str) -> set[str]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT source_id FROM records WHERE source = ?", (source,))
        return {str(r[0]) for r in rows}


@pytest.fixture()
def dblp_server() -> Any:
    files = {"/xml/dblp.dtd": shared_path("index", "dblp.dtd").read_bytes()}
    with DumpServer(files) as server:
        yield server


def test_dblp_update_adds_new_records_and_withdraws_dropped_ones(
    dblp_server: DumpServer, tmp_path: Path
) -> None:
    _, _, _, elements = dblp_sample()
    newest = max(elements, key=lambda e: e[1])[2]  # the record of the latest mdate: not in last month's dump
    dropped = elements[0][2]
    publish(dblp_server, dblp_without({newest}))
    db, url = tmp_path / "i.sqlite", f"{dblp_server.url}/xml/dblp.xml.gz"
    code, output = run("build", "--db", str(db), "--downloads", str(tmp_path / "dl"), "--dblp", url)
    assert code == 0, output
    before = keys(db, "dblp")
    assert newest not in before and dropped in before

    code, output = run("update", "--db", str(db), "--downloads", str(tmp_path / "dl"))
    assert code == 0 and "unchanged (same ETag)" in output, output

    publish(dblp_server, dblp_without({dropped}))
    dblp_server.content_type = "application/x-gzip"
    code, output = run("update", "--db", str(db), "--downloads", str(tmp_path / "dl"))
    assert code == 0, output
    after = keys(db, "dblp")
    assert after == (before - {dropped}) | {newest}
    assert "1 new, 1 withdrawn" in output
    with IndexStore.open(db) as store:
        stats = store.stats()
    assert stats["withdrawn"] == 1
    assert stats["origins"][0]["origin"] == url  # type: ignore[index]


def test_a_cut_download_during_an_update_is_resumed(dblp_server: DumpServer, tmp_path: Path) -> None:
    publish(dblp_server, dblp_without(set()))
    db = tmp_path / "i.sqlite"
    url = f"{dblp_server.url}/xml/dblp.xml.gz"
    assert run("build", "--db", str(db), "--downloads", str(tmp_path / "dl"), "--dblp", url)[0] == 0
    body = dblp_without({dblp_sample()[3][0][2]})
    publish(dblp_server, body)
    dblp_server.fail("/xml/dblp.xml.gz", cut(len(body) // 2))
    code, output = run("update", "--db", str(db), "--downloads", str(tmp_path / "dl"))
    assert code == 0 and "1 withdrawn" in output, output
    assert any(r == f"bytes={len(body) // 2}-" for p, r in dblp_server.log)


def test_a_failed_update_download_leaves_the_index_intact(dblp_server: DumpServer, tmp_path: Path) -> None:
    publish(dblp_server, dblp_without(set()))
    db = tmp_path / "i.sqlite"
    url = f"{dblp_server.url}/xml/dblp.xml.gz"
    assert run("build", "--db", str(db), "--downloads", str(tmp_path / "dl"), "--dblp", url)[0] == 0
    before = keys(db, "dblp")
    publish(dblp_server, dblp_without({dblp_sample()[3][0][2]}))
    dblp_server.fail("/xml/dblp.xml.gz", html_page())
    code, output = run("update", "--db", str(db), "--downloads", str(tmp_path / "dl"))
    assert code == 2 and "an HTML page" in output and "unchanged" in output, output
    assert keys(db, "dblp") == before


def _arxiv_index(tmp_path: Path, cutoff: str) -> tuple[Path, list[dict[str, Any]]]:
    """An index built from the snapshot sample as it was at `cutoff` (records updated before it)."""
    works = load_snapshot(shared_path("index", "arxiv-oai-snapshot-sample-200.jsonl"))
    old = tmp_path / f"arxiv-{cutoff}.jsonl"
    old.write_text("".join(json.dumps(w) + "\n" for w in works if w["update_date"] < cutoff))
    db = tmp_path / "i.sqlite"
    code, output = run("build", "--db", str(db), "--arxiv", str(old))
    assert code == 0, output
    return db, works


def test_arxiv_is_harvested_over_oai_pmh_from_the_snapshot_date(tmp_path: Path) -> None:
    db, works = _arxiv_index(tmp_path, "2015-01-01")
    newer = {w["id"] for w in works if w["update_date"] >= "2015-01-01"}
    assert not newer & keys(db, "arxiv")
    with OaiServer(works, page_size=5, now="2022-04-01") as server:
        code, output = run("update", "--db", str(db), "--arxiv-oai", server.url, "--oai-delay", "0")
        assert code == 0, output
        assert server.requests[0]["from"] == "2015-01-01"
        assert len(server.requests) == -(-len(newer) // 5)
        assert newer <= keys(db, "arxiv")
        assert f"{len(newer)} new" in output
        with IndexStore.open(db) as store:
            (origin,) = store.origins()
        assert origin["state"]["from"] == "2022-04-01" and origin["state"]["oai"] == server.url
        requests = len(server.requests)
        code, output = run("update", "--db", str(db), "--arxiv-oai", server.url, "--oai-delay", "0")
        assert code == 0 and server.requests[requests]["from"] == "2022-04-01", output


def test_an_expired_resumption_token_keeps_the_pages_read_and_resumes(tmp_path: Path) -> None:
    db, works = _arxiv_index(tmp_path, "2009-01-01")
    newer = {w["id"] for w in works if w["update_date"] >= "2009-01-01"}
    with OaiServer(works, page_size=10) as server:
        server.expire_tokens = True
        code, output = run("update", "--db", str(db), "--arxiv-oai", server.url, "--oai-delay", "0")
        assert code == 1 and "resumption token expired" in output, output
        assert len(newer & keys(db, "arxiv")) == 10  # the first page is kept
        with IndexStore.open(db) as store:
            (origin,) = store.origins()
        assert origin["state"]["from"] == "2009-01-01" and origin["state"]["token"]
        server.expire_tokens = False
        code, output = run("update", "--db", str(db), "--arxiv-oai", server.url, "--oai-delay", "0")
        assert code == 0, output
        assert newer <= keys(db, "arxiv")


needs_recordings = pytest.mark.skipif(not RECORDINGS.exists(), reason=f"{RECORDINGS} not present (../shared)")


@needs_recordings
def test_crossref_venue_harvest_pages_by_cursor_from_the_update_date(tmp_path: Path) -> None:
    works = real_works(load(), "crossref")
    pnas = {w["DOI"] for w in works if "0027-8424" in (w.get("ISSN") or [])}
    db = tmp_path / "i.sqlite"
    with WorksServer("crossref", works, page_size=1) as server:
        env = {"REFHOUND_SOURCES__CROSSREF__BASE_URL": server.url}
        with IndexStore.create(db):
            pass
        args = ["update", "--db", str(db), "--crossref", "issn:0027-8424", "--since", "2022-01-01"]
        code, output = run(*args, env=env)
        assert code == 0, output
        assert server.requests[0]["filter"] == "issn:0027-8424,from-update-date:2022-01-01"
        assert server.requests[0]["cursor"] == "*" and server.requests[1]["cursor"] == "c1"
    assert {k.lower() for k in keys(db, "crossref")} == {d.lower() for d in pnas} and len(pnas) == 2
    with IndexStore.open(db) as store:
        (origin,) = store.origins()
    assert origin["kind"] == "api" and origin["state"]["from"] != "2022-01-01"


@needs_recordings
def test_openalex_harvest_without_a_key_asks_for_new_works_and_says_so(tmp_path: Path) -> None:
    works = real_works(load(), "openalex")
    db = tmp_path / "i.sqlite"
    with WorksServer("openalex", works, page_size=2) as server:
        env = {"REFHOUND_SOURCES__OPENALEX__BASE_URL": server.url}
        with IndexStore.create(db):
            pass
        source = "primary_location.source.id:S4306400194"
        code, output = run("update", "--db", str(db), "--openalex", source, "--since", "2000-01-01", env=env)
        assert code == 0, output
        assert server.requests[0]["filter"] == f"{source},from_publication_date:2000-01-01"
    assert "no OpenAlex API key: new works only" in output
    expected = {
        w["id"].rsplit("/", 1)[-1]
        for w in works
        if (w.get("primary_location") or {}).get("source", {}).get("id", "").endswith("S4306400194")
    }
    assert keys(db, "openalex") == expected and expected


@needs_recordings
def test_a_harvest_that_stays_down_keeps_its_window(tmp_path: Path) -> None:
    works = real_works(load(), "crossref")
    db = tmp_path / "i.sqlite"
    with WorksServer("crossref", works) as server:
        server.fail_pages = 100
        env = {"REFHOUND_SOURCES__CROSSREF__BASE_URL": server.url}
        with IndexStore.create(db):
            pass
        args = ["update", "--db", str(db), "--crossref", "issn:2045-2322", "--since", "2020-01-01"]
        code, output = run(*args, env=env)
    assert code == 1 and "HTTP 503 after" in output, output
    with IndexStore.open(db) as store:
        (origin,) = store.origins()
    assert origin["state"]["from"] == "2020-01-01"


def test_an_oai_harvest_on_loopback_is_refused_without_net_allow(tmp_path: Path) -> None:
    db, works = _arxiv_index(tmp_path, "2015-01-01")
    with OaiServer(works, page_size=5) as server:
        args = ["update", "--db", str(db), "--arxiv-oai", server.url, "--oai-delay", "0"]
        code, output = run(*args, env={"REFHOUND_NET__ALLOW": "[]"})
        assert code == 1 and "refused: 127.0.0.1 is a loopback address" in output, output
        assert server.requests == []  # refused before any request, and not retried


def test_an_api_harvest_on_loopback_is_refused_unless_allowed() -> None:
    """The API harvest goes through the address guard with the update's settings: a loopback base URL is
    refused at once (no request reaches the server) unless `net.allow` names it."""
    fast = Patience(retries=2, backoff_s=0.0, timeout_s=5.0)
    with WorksServer("crossref", []) as server:
        options = UpdateOptions(patience=fast, settings=Settings())
        harvest = ApiHarvest("crossref", server.url, "issn:0027-8424", "2022-01-01", "v", options)
        assert list(harvest.dump().records) == [] and server.requests == []
        assert "refused: 127.0.0.1 is a loopback address; allow it with the setting net.allow" in str(
            harvest.failure
        )
        options.settings = Settings(net={"allow": ["127.0.0.1"]})
        harvest = ApiHarvest("crossref", server.url, "issn:0027-8424", "2022-01-01", "v", options)
        assert list(harvest.dump().records) == [] and harvest.failure is None
        assert len(server.requests) == 1 and harvest.pages == 1


def test_an_api_harvest_redirect_is_judged_hop_by_hop(tmp_path: Path) -> None:
    """A configured base URL is allowed on loopback, but a redirect from it is judged again: followed on
    127.0.0.1 (which `net.allow` names), refused naming 127.0.0.2, at once and without a retry."""
    db = tmp_path / "i.sqlite"
    with IndexStore.create(db):
        pass
    with WorksServer("crossref", []) as server:
        env = {"REFHOUND_SOURCES__CROSSREF__BASE_URL": f"{server.url}/moved"}
        args = ["update", "--db", str(db), "--crossref", "issn:0027-8424", "--since", "2022-01-01"]
        server.moved_to = server.url
        code, output = run(*args, env=env)
        assert code == 0 and len(server.requests) == 2, output  # /moved/works, then /works
        server.moved_to = server.url.replace("127.0.0.1", "127.0.0.2")
        server.requests.clear()
        code, output = run(*args, env=env)
        assert code == 1 and "refused: 127.0.0.2 is a loopback address" in output, output
        assert len(server.requests) == 1  # the redirect; nothing reached 127.0.0.2, nothing retried
    with IndexStore.open(db) as store:
        (origin,) = store.origins()
    assert origin["state"]["from"] == "2022-01-01"  # the refused harvest keeps its window


def test_stats_shows_each_source_its_date_and_its_harvest(tmp_path: Path) -> None:
    db, works = _arxiv_index(tmp_path, "2015-01-01")
    with OaiServer(works, page_size=50, now="2022-04-01") as server:
        assert run("update", "--db", str(db), "--arxiv-oai", server.url, "--oai-delay", "0")[0] == 0
    result = CliRunner().invoke(app, ["index", "stats", "--db", str(db)], env=ENV)
    assert result.exit_code == 0, result.output
    rows = result.stdout.splitlines()
    line = next(row for row in rows if "arxiv-2015-01-01.jsonl" in row and "dump" in row)
    assert "2022-04-01" in line  # harvested to the OAI server's response date
    result = CliRunner().invoke(app, ["index", "stats", "--db", str(db), "--json"], env=ENV)
    (origin,) = json.loads(result.stdout)["origins"]
    assert (origin["source"], origin["kind"], origin["harvested_to"]) == ("arxiv", "dump", "2022-04-01")


def test_bad_input_is_one_clear_message(tmp_path: Path) -> None:
    code, output = run("update", "--db", str(tmp_path / "none.sqlite"))
    assert code == 2 and "no index at" in output
    db = tmp_path / "i.sqlite"
    with IndexStore.create(db):
        pass
    code, output = run("update", "--db", str(db), "--crossref", "issn:1", "--since", "last week")
    assert code == 2 and "not a date" in output
    code, output = run("update", "--db", str(db))
    assert code == 2 and "nothing to update" in output and "refhound index build" in output
    works = shared_path("index", "arxiv-oai-snapshot-sample-200.jsonl")
    assert run("build", "--db", str(db), "--arxiv", str(works), "--version", "v7")[0] == 0
    code, output = run("update", "--db", str(db), "--arxiv-oai", "http://127.0.0.1:9/oai2")
    assert code == 1 and "no date to harvest from" in output
