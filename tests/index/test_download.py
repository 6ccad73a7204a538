"""Dumps over HTTP (refhound/index/download.py) against a loopback server: a cut connection resumed with
Range, HTML or a 404 in place of the dump, a truncated gzip, a wrong md5, a server that ignores Range."""

from __future__ import annotations

import gzip
import hashlib
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.index.download import DownloadError, Patience, download, file_name
from refhound.settings import Settings
from tests.index.dump_server import DumpServer, cut, html_page

FAST = Patience(retries=3, backoff_s=0.01, timeout_s=5.0)
LOOPBACK = Settings(net={"allow": ["127.0.0.1"]})  # the test servers listen on loopback
_RNG = random.Random(17)
BODY = gzip.compress(
    b"<dblp>\n"
    + b"".join(
        b"<article key='k%d'><title>%x</title></article>\n" % (i, _RNG.getrandbits(64)) for i in range(20_000)
    )
    + b"</dblp>\n"
)
MD5 = hashlib.md5(BODY, usedforsecurity=False).hexdigest()


@pytest.fixture()
def server() -> Iterator[DumpServer]:
    with DumpServer(
        {"/xml/dblp.xml.gz": BODY, "/xml/dblp.xml.gz.md5": f"{MD5}  dblp.xml.gz\n".encode()}
    ) as s:
        yield s


def test_a_whole_download_with_its_checksum(server: DumpServer, tmp_path: Path) -> None:
    seen: list[tuple[int, int | None]] = []
    got = download(
        f"{server.url}/xml/dblp.xml.gz",
        tmp_path,
        LOOPBACK,
        progress=lambda done, total, rate: seen.append((done, total)),
        checksum_url=f"{server.url}/xml/dblp.xml.gz.md5",
        patience=FAST,
    )
    assert got.path.read_bytes() == BODY
    assert got.md5 == MD5 and not got.resumed and got.etag
    assert seen[-1] == (len(BODY), len(BODY))
    assert not (tmp_path / "dblp.xml.gz.part").exists()


def test_a_cut_connection_is_resumed_with_range(server: DumpServer, tmp_path: Path) -> None:
    server.fail("/xml/dblp.xml.gz", cut(len(BODY) // 3), cut(len(BODY) // 3))
    got = download(f"{server.url}/xml/dblp.xml.gz", tmp_path, LOOPBACK, patience=FAST)
    assert got.path.read_bytes() == BODY and got.resumed
    ranges = [r for p, r in server.log if p == "/xml/dblp.xml.gz"]
    assert ranges[0] is None
    assert ranges[1] == f"bytes={len(BODY) // 3}-"
    assert ranges[2] == f"bytes={2 * (len(BODY) // 3)}-"


def test_a_transfer_that_keeps_failing_leaves_a_resumable_part(server: DumpServer, tmp_path: Path) -> None:
    server.fail("/xml/dblp.xml.gz", *[cut(1000)] * 4)
    url = f"{server.url}/xml/dblp.xml.gz"
    with pytest.raises(
        DownloadError,
        match=r"without sending complete .* 4,000 bytes kept .* run the same command again to resume",
    ):
        download(url, tmp_path, LOOPBACK, patience=FAST)
    assert (tmp_path / "dblp.xml.gz.part").stat().st_size == 4000
    assert not (tmp_path / "dblp.xml.gz").exists()
    got = download(url, tmp_path, LOOPBACK, patience=FAST)  # run again: resumes at byte 4000
    assert got.path.read_bytes() == BODY and got.resumed
    assert server.log[-1] == ("/xml/dblp.xml.gz", "bytes=4000-")


def test_a_server_that_ignores_range_starts_over(tmp_path: Path) -> None:
    with DumpServer({"/d.gz": BODY}, ranges=False) as server:
        server.fail("/d.gz", cut(5000))
        got = download(f"{server.url}/d.gz", tmp_path, LOOPBACK, patience=FAST)
    assert got.path.read_bytes() == BODY


def test_html_instead_of_the_dump_is_an_error(server: DumpServer, tmp_path: Path) -> None:
    server.fail("/xml/dblp.xml.gz", html_page())
    with pytest.raises(DownloadError, match="an HTML page"):
        download(f"{server.url}/xml/dblp.xml.gz", tmp_path, LOOPBACK, patience=FAST)
    assert not (tmp_path / "dblp.xml.gz").exists()


def test_html_sent_as_octet_stream_is_still_an_error(tmp_path: Path) -> None:
    page = b"<!DOCTYPE html>\n<html><body>moved</body></html>"
    with DumpServer({"/dblp.xml.gz": page}) as server, pytest.raises(DownloadError, match="an HTML page"):
        download(f"{server.url}/dblp.xml.gz", tmp_path, LOOPBACK, patience=FAST)


def test_a_404_is_an_error_not_retried(server: DumpServer, tmp_path: Path) -> None:
    with pytest.raises(DownloadError, match="HTTP 404"):
        download(f"{server.url}/xml/missing.xml.gz", tmp_path, LOOPBACK, patience=FAST)
    assert len(server.log) == 1


def test_a_503_is_retried(server: DumpServer, tmp_path: Path) -> None:
    server.fail("/xml/dblp.xml.gz", html_page(503), html_page(503))
    got = download(f"{server.url}/xml/dblp.xml.gz", tmp_path, LOOPBACK, patience=FAST)
    assert got.path.read_bytes() == BODY


def test_a_truncated_gzip_is_an_error_and_deleted(tmp_path: Path) -> None:
    with (
        DumpServer({"/dblp.xml.gz": BODY[: len(BODY) // 2]}) as server,
        pytest.raises(DownloadError, match="not a whole gzip file"),
    ):
        download(f"{server.url}/dblp.xml.gz", tmp_path, LOOPBACK, patience=FAST)
    assert not list(tmp_path.iterdir())


def test_a_wrong_checksum_is_an_error_and_deleted(server: DumpServer, tmp_path: Path) -> None:
    server.files["/xml/dblp.xml.gz.md5"] = b"0" * 32 + b"  dblp.xml.gz\n"
    with pytest.raises(DownloadError, match="checksum mismatch"):
        download(
            f"{server.url}/xml/dblp.xml.gz",
            tmp_path,
            LOOPBACK,
            checksum_url=f"{server.url}/xml/dblp.xml.gz.md5",
            patience=FAST,
        )
    assert not list(tmp_path.iterdir())


def test_a_checksum_file_that_is_not_one_is_an_error(server: DumpServer, tmp_path: Path) -> None:
    server.files["/xml/dblp.xml.gz.md5"] = b"<html>nope</html>"
    with pytest.raises(DownloadError, match="not an md5 checksum file"):
        url = f"{server.url}/xml/dblp.xml.gz"
        download(url, tmp_path, LOOPBACK, checksum_url=f"{url}.md5")


def test_a_full_disk_is_a_clear_error(server: DumpServer, tmp_path: Path) -> None:
    full = Path("/dev/full")
    if not full.exists():
        pytest.skip("/dev/full not present")
    folder = tmp_path / "dumps"
    folder.mkdir()
    (folder / "dblp.xml.gz.part").symlink_to(full)
    with pytest.raises(DownloadError, match=r"cannot write .*No space left"):
        download(f"{server.url}/xml/dblp.xml.gz", folder, LOOPBACK, patience=FAST)


def test_file_names() -> None:
    assert file_name("https://dblp.org/xml/dblp.xml.gz") == "dblp.xml.gz"
    assert file_name("https://example.org/a%20b/") == "a b"


def test_no_published_checksum_is_no_error_and_is_recorded(server: DumpServer, tmp_path: Path) -> None:
    url = f"{server.url}/xml/dblp.xml.gz"
    got = download(url, tmp_path, LOOPBACK, checksum_url=f"{server.url}/xml/none.md5", patience=FAST)
    assert got.path.read_bytes() == BODY and not got.checksum_checked
    again = download(url, tmp_path / "2", LOOPBACK, checksum_url=f"{url}.md5", patience=FAST)
    assert again.checksum_checked


def test_a_dump_on_a_loopback_address_is_refused_unless_allowed(server: DumpServer, tmp_path: Path) -> None:
    """Downloads go through the address guard, as every other fetch: a loopback URL is refused at once
    (not retried), before any request reaches the server, unless `net.allow` names it."""
    url = f"{server.url}/xml/dblp.xml.gz"
    with pytest.raises(DownloadError, match=r"refused: 127\.0\.0\.1 is a loopback address.*net\.allow"):
        download(url, tmp_path, Settings(), checksum_url=f"{url}.md5", patience=FAST)
    with pytest.raises(DownloadError, match=r"refused: 127\.0\.0\.1 is a loopback address"):
        download(url, tmp_path, Settings(), patience=FAST)
    assert server.log == [] and not list(tmp_path.iterdir())
    assert download(url, tmp_path, LOOPBACK, patience=FAST).path.read_bytes() == BODY
