"""`refhound index build` with dumps given as URLs (loopback servers publishing the real samples of
../shared): the dump, dblp's DTD and .md5 fetched; the origin recorded; on any failure — HTML for the dump,
a 404, a wrong checksum, a dump that breaks off — the existing index left as it was."""

from __future__ import annotations

import gzip
import hashlib
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.index.store import IndexStore
from tests.conftest import shared_path
from tests.index.dump_server import DumpServer, cut, html_page

# The dump servers listen on loopback, which the downloads' address guard refuses unless allowed.
ENV = {"COLUMNS": "250", "REFHOUND_NET__ALLOW": '["127.0.0.1"]'}


def dblp_files() -> dict[str, bytes]:
    """The real dblp sample as dblp publishes its dump: gzip, its .md5 and the DTD in one folder."""
    body = gzip.compress(shared_path("index", "dblp-sample.xml").read_bytes())
    md5 = hashlib.md5(body, usedforsecurity=False).hexdigest()
    return {
        "/xml/dblp.xml.gz": body,
        "/xml/dblp.xml.gz.md5": f"{md5}  dblp.xml.gz\n".encode(),
        "/xml/dblp.dtd": shared_path("index", "dblp.dtd").read_bytes(),
    }


def build(db: Path, downloads: Path, *flags: str) -> tuple[int, str]:
    args = [
        "index",
        "build",
        "--db",
        str(db),
        "--downloads",
        str(downloads),
        "--retries",
        "2",
        "--backoff",
        "0.01",
    ]
    args += flags
    result = CliRunner().invoke(app, args, env=ENV)
    return result.exit_code, result.output


def records(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute("SELECT count(*) FROM records").fetchone()[0])


def test_dblp_from_a_url_with_its_dtd_and_checksum(tmp_path: Path) -> None:
    with DumpServer(dblp_files()) as server:
        url = f"{server.url}/xml/dblp.xml.gz"
        code, output = build(tmp_path / "i.sqlite", tmp_path / "dl", "--dblp", url)
        assert code == 0, output
        fetched = [path for path, _ in server.log]
    assert {"/xml/dblp.xml.gz", "/xml/dblp.xml.gz.md5", "/xml/dblp.dtd"} <= set(fetched)
    assert records(tmp_path / "i.sqlite") > 100
    with IndexStore.open(tmp_path / "i.sqlite") as store:
        (origin,) = store.origins()
    assert (origin["source"], origin["origin"], origin["kind"]) == ("dblp", url, "dump")
    assert origin["version"] == "2025-05-01"  # the dump's Last-Modified
    assert origin["state"]["etag"]


def test_a_cut_download_is_resumed_and_the_build_completes(tmp_path: Path) -> None:
    files = dblp_files()
    with DumpServer(files) as server:
        server.fail("/xml/dblp.xml.gz", cut(len(files["/xml/dblp.xml.gz"]) // 2))
        code, output = build(
            tmp_path / "i.sqlite", tmp_path / "dl", "--dblp", f"{server.url}/xml/dblp.xml.gz"
        )
        assert code == 0, output
        assert any(r and r.startswith("bytes=") for p, r in server.log if p == "/xml/dblp.xml.gz")


def _existing(tmp_path: Path) -> tuple[Path, int]:
    db = tmp_path / "i.sqlite"
    code, output = build(db, tmp_path / "dl0", "--dblp", str(shared_path("index", "dblp-sample.xml")))
    assert code == 0, output
    return db, records(db)


def test_html_instead_of_the_dump_leaves_the_index_intact(tmp_path: Path) -> None:
    db, before = _existing(tmp_path)
    files = dblp_files()
    with DumpServer(files) as server:
        server.fail("/xml/dblp.xml.gz", html_page())
        code, output = build(db, tmp_path / "dl", "--dblp", f"{server.url}/xml/dblp.xml.gz")
    assert code == 2
    assert "an HTML page" in output and "is unchanged" in output
    assert records(db) == before
    assert not (tmp_path / "i.sqlite.partial").exists()


def test_a_404_a_wrong_md5_and_a_truncated_gzip_leave_the_index_intact(tmp_path: Path) -> None:
    db, before = _existing(tmp_path)
    files = dblp_files()
    wrong = dict(files, **{"/xml/dblp.xml.gz.md5": b"0" * 32 + b"  dblp.xml.gz\n"})
    truncated = dict(files, **{"/xml/dblp.xml.gz": files["/xml/dblp.xml.gz"][:2000]})
    truncated["/xml/dblp.xml.gz.md5"] = (
        hashlib.md5(truncated["/xml/dblp.xml.gz"], usedforsecurity=False).hexdigest().encode()
    )
    for served, path, expected in (
        (files, "/xml/none.xml.gz", "HTTP 404"),
        (wrong, "/xml/dblp.xml.gz", "checksum mismatch"),
        (truncated, "/xml/dblp.xml.gz", "not a whole gzip file"),
    ):
        with DumpServer(served) as server:
            code, output = build(db, tmp_path / "dl", "--dblp", f"{server.url}{path}")
        assert code == 2 and expected in output, output
        assert records(db) == before
    with IndexStore.open(db) as store:  # still a usable index
        assert store.stats()["records"] == before


def test_a_dump_that_breaks_off_while_read_leaves_the_index_intact(tmp_path: Path) -> None:
    db, before = _existing(tmp_path)
    text = shared_path("index", "dblp-sample.xml").read_bytes()
    broken = tmp_path / "broken" / "dblp-2025-06-01.xml"
    broken.parent.mkdir()
    broken.write_bytes(text[: len(text) // 2])
    (broken.parent / "dblp.dtd").write_bytes(shared_path("index", "dblp.dtd").read_bytes())
    code, output = build(db, tmp_path / "dl", "--dblp", str(broken))
    assert code == 2, output
    assert records(db) == before
    with IndexStore.open(db) as store:  # the broken dump's origin is not recorded either
        assert [o["origin"] for o in store.origins()] == [str(shared_path("index", "dblp-sample.xml"))]


def test_a_full_disk_while_building_leaves_the_index_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, before = _existing(tmp_path)
    create = IndexStore.create

    def small(path: Path) -> IndexStore:  # the copy can grow by only a few pages: SQLITE_FULL
        store = create(path)
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages + 2}")
        return store

    monkeypatch.setattr(IndexStore, "create", small)
    code, output = build(
        db, tmp_path / "dl", "--arxiv", str(shared_path("index", "arxiv-oai-snapshot-sample-200.jsonl"))
    )
    assert code == 2 and "database or disk is full" in output and "is unchanged" in output, output
    assert records(db) == before
    assert not (tmp_path / "i.sqlite.partial").exists()
