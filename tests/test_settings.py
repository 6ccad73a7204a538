"""Settings: defaults, REFHOUND_* environment variables, the TOML config file, and refusal of unknown keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from refhound.models import UnverifiedPolicy
from refhound.settings import Settings


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("REFHOUND_CONFIG", "REFHOUND_INDEX__PATH", "REFHOUND_JUDGE__CANDIDATES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REFHOUND_CONFIG", str(tmp_path / "absent.toml"))


def test_every_field_is_described() -> None:
    for section in (Settings, *(f.annotation for f in Settings.model_fields.values())):
        for name, field in section.model_fields.items():  # type: ignore[union-attr]
            assert field.description, f"{section.__name__}.{name} has no description"  # type: ignore[union-attr]


def test_environment_overrides_nested_fields(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REFHOUND_INDEX__PATH", str(tmp_path / "x.sqlite"))
    monkeypatch.setenv("REFHOUND_JUDGE__CANDIDATES", "7")
    settings = Settings()
    assert settings.index.path == tmp_path / "x.sqlite"
    assert settings.judge.candidates == 7


def test_toml_file_is_read_and_environment_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[judge]\ncandidates = 9\n[check]\nunverified_as = "fake"\n', encoding="utf-8")
    monkeypatch.setenv("REFHOUND_CONFIG", str(config))
    settings = Settings()
    assert settings.judge.candidates == 9 and settings.check.unverified_as is UnverifiedPolicy.FAKE
    monkeypatch.setenv("REFHOUND_JUDGE__CANDIDATES", "3")
    assert Settings().judge.candidates == 3


def test_unknown_keys_are_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[judge]\ncandidate = 9\n", encoding="utf-8")
    monkeypatch.setenv("REFHOUND_CONFIG", str(config))
    with pytest.raises(ValidationError, match="candidate"):
        Settings()
