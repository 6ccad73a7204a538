"""Who may drive the server: the Host header must be a name it answers to (DNS rebinding), and another web
origin's page may not POST to it (CSRF) unless it holds the token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.server.config import served_hosts
from tests.server.conftest import VERIFIED, Server, make_server

PASTED = {"file": ("refs.txt", VERIFIED.encode(), "text/plain")}


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "127.0.0.1.nip.io", ""])
def test_a_foreign_host_header_is_refused(server: Server, host: str) -> None:
    response = server.call("GET", "/api/v1/health", headers={"Host": host})
    assert response.status_code == 400
    assert "is not a name this server answers to" in response.json()["error"]
    assert server.call("POST", "/api/v1/jobs", headers={"Host": host}, files=PASTED).status_code == 400
    assert server.state.jobs.counts()["queued"] + server.state.jobs.counts()["running"] == 0


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "localhost", "[::1]:8000", "LOCALHOST"])
def test_loopback_names_are_answered(server: Server, host: str) -> None:
    assert server.call("GET", "/api/v1/health", headers={"Host": host}).status_code == 200


def test_hosts_of_a_server_bound_elsewhere() -> None:
    assert served_hosts("10.0.0.5", ["refs.lab.example"]) == (
        ["localhost", "127.0.0.1", "::1", "refs.lab.example", "10.0.0.5"],
        False,
    )
    assert served_hosts("0.0.0.0", [])[1] is True  # any address, but still no unknown name


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:9999"},  # another port is another origin
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_cross_origin_upload_is_refused(server: Server, headers: dict[str, str]) -> None:
    response = server.call("POST", "/api/v1/jobs", headers=headers, files=PASTED)
    assert response.status_code == 403
    assert "from another origin" in response.json()["error"]
    assert server.uploads_left() == []


def test_the_pages_own_origin_and_plain_clients_are_accepted(server: Server) -> None:
    same = {"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-origin"}
    assert server.call("POST", "/api/v1/jobs", headers=same, files=PASTED).status_code == 202
    assert server.call("POST", "/api/v1/jobs", files=PASTED).status_code == 202


@pytest.fixture()
def tokened(small_index: Path, tmp_path: Path) -> Iterator[Server]:
    yield from make_server(small_index, tmp_path, token="s3cret-token")


def test_another_origin_with_the_token_is_accepted(tokened: Server) -> None:
    cross = {"Origin": "http://dashboard.example", "Sec-Fetch-Site": "cross-site"}
    refused = tokened.call("POST", "/api/v1/jobs", headers=cross, files=PASTED)
    assert refused.status_code == 403
    allowed = {**cross, "Authorization": "Bearer s3cret-token"}
    assert tokened.call("POST", "/api/v1/jobs", headers=allowed, files=PASTED).status_code == 202
