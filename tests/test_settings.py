"""Settings: defaults, REFHOUND_* environment variables, the TOML config file, and refusal of unknown keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from refhound.cli import app
from refhound.cli.commands import main
from refhound.errors import ConfigInvalid
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


def test_sources_merge_key_by_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[judge]\ncandidates = 9\n[index]\npath = "from-file.sqlite"\n', encoding="utf-8")
    monkeypatch.setenv("REFHOUND_CONFIG", str(config))
    monkeypatch.setenv("refhound_judge__candidates", "5")  # any case, as the shell's convention varies
    settings = Settings(index={"auto_build": False})
    assert settings.judge.candidates == 5
    assert settings.index.path == Path("from-file.sqlite") and settings.index.auto_build is False


def test_a_list_setting_from_the_environment_is_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFHOUND_NET__ALLOW", '["intranet.example"]')
    assert Settings().net.allow == ["intranet.example"]
    monkeypatch.setenv("REFHOUND_NET__ALLOW", "intranet.example")
    with pytest.raises(ConfigInvalid, match=r"REFHOUND_NET__ALLOW: a list or table setting is written in"):
        Settings()


def test_other_refhound_variables_are_not_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = Settings()
    monkeypatch.setenv("REFHOUND_SOMETHING_ELSE", "1")
    assert Settings() == defaults  # neither refused nor read


def test_a_config_file_that_is_no_toml_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[judge\ncandidates = 3\n", encoding="utf-8")
    monkeypatch.setenv("REFHOUND_CONFIG", str(config))
    with pytest.raises(ConfigInvalid, match=rf"{config.name}: not valid TOML"):
        Settings()
    sample = Path(__file__).parents[1] / "examples" / "sample.bib"
    result = CliRunner().invoke(app, ["check", "--offline", str(sample)])  # read with its options
    assert result.exit_code == 2
    assert f"settings from {config}: not valid TOML" in result.output.replace("\n", "")
    with pytest.raises(SystemExit) as ended:  # read without: the command line's own handler
        main(["index", "stats"])
    assert ended.value.code == 2
    assert f"settings from {config}: not valid TOML" in capsys.readouterr().err.replace("\n", "")
