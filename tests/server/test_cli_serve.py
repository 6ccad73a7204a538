"""`refhound serve`: the token rule for other addresses, and a real server process answering the API."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.server.config import is_loopback
from tests.server.conftest import BIB
from tests.server.live import free_port


def test_loopback_addresses() -> None:
    assert all(is_loopback(host) for host in ("127.0.0.1", "127.8.0.1", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(host) for host in ("0.0.0.0", "192.168.1.4", "::", "example.org"))


def test_binding_another_address_needs_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REFHOUND_SERVER_TOKEN", raising=False)
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0", "--port", "1"])
    assert result.exit_code == 2
    assert "--token" in result.stderr


def test_serve_answers_health_and_check(small_index: Path, tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "REFHOUND_MEMORY__ENABLED": "false", "REFHOUND_CONFIG": str(tmp_path / "none.toml")}
    command = [sys.executable, "-m", "refhound", "serve", "--port", str(port), "--index", str(small_index)]
    log = tmp_path / "serve.log"
    with log.open("w") as stderr:
        process = subprocess.Popen([*command, "--offline", "--token", "t0ken"], env=env, stderr=stderr)
    url = f"http://127.0.0.1:{port}"
    auth = {"Authorization": "Bearer t0ken"}
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(url + "/api/v1/health", headers=auth, timeout=5)
                break
            except httpx.TransportError:
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "refhound serve did not start"
                time.sleep(0.2)
        assert health.status_code == 200 and health.json()["offline"] is True
        assert httpx.get(url + "/api/v1/health", timeout=5).status_code == 401
        checked = httpx.post(
            url + "/api/v1/check", headers=auth, files={"file": ("refs.bib", BIB)}, timeout=60
        )
        assert checked.status_code == 200
        assert [r["verdict"] for r in checked.json()["references"]] == ["verified", "metadata_error"]
        assert httpx.get(url + "/", timeout=5).text.startswith("<!doctype html>")
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert process.returncode in (0, -15)
