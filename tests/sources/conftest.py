"""What every source test shares: no user config file may change the settings a test builds."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _no_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REFHOUND_CONFIG", str(tmp_path / "absent.toml"))
