"""`refhound config show|init`: the effective settings as TOML, and a commented sample settings file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from refhound.cli.output import err, fail, settings_from_options, write_output

if TYPE_CHECKING:
    from pydantic import BaseModel

config_app = typer.Typer(
    help="Show the effective settings or write a sample file. Precedence, highest first: command-line "
    "options, REFHOUND_* environment variables (REFHOUND_SOURCES__MAILTO=you@example.org), the settings "
    "file (--config FILE, $REFHOUND_CONFIG or the user config folder's config.toml), the defaults.",
    no_args_is_help=True,
    add_completion=False,
)

_SECRET_SUFFIXES = ("key", "token", "password", "secret")


def _toml_value(value: Any) -> str:
    """A TOML literal for a settings value (JSON's strings, numbers, booleans and arrays are TOML's)."""
    if isinstance(value, dict):
        # TOML has no null: an unset key is left out.
        items = [f"{key} = {_toml_value(item)}" for key, item in value.items() if item is not None]
        return "{ " + ", ".join(items) + " }"
    return json.dumps(value, ensure_ascii=False)


def _table_lines(name: str, values: dict[str, Any], mask: bool) -> list[str]:
    """`[name]` and its keys; nested tables after the plain keys, unset (None) keys as comments."""
    lines, nested = [f"[{name}]"], []
    for key, value in values.items():
        if isinstance(value, dict) and all(not isinstance(v, dict) for v in value.values()) and value:
            nested.append((f"{name}.{key}", value))
        elif value is None:
            lines.append(f"# {key} = (unset)")
        elif mask and key.endswith(_SECRET_SUFFIXES) and value:
            lines.append(f'{key} = "***"  # set; not shown')
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    for table, value in nested:
        lines += ["", *_table_lines(table, value, mask)]
    return lines


@config_app.command()
def show(
    secrets: Annotated[
        bool, typer.Option("--secrets", help="Show API keys instead of masking them.")
    ] = False,
) -> None:
    """Print the settings in effect (defaults, file, environment merged) as TOML."""
    from refhound.settings import default_config_path

    settings = settings_from_options()
    path = default_config_path()
    source = f"{path}" if path.is_file() else f"{path} (absent: defaults and environment only)"
    lines = [f"# refhound settings in effect; file: {source}"]
    for name, values in settings.model_dump(mode="json").items():
        lines += ["", *_table_lines(name, values, mask=not secrets)]
    write_output("\n".join(lines), None)


def _commented(name: str, section: BaseModel) -> list[str]:
    """A section of the sample file: every key commented out at its default, under its description."""
    lines = [f"# [{name}]"]
    defaults = section.model_dump(mode="json")
    for key, field in type(section).model_fields.items():
        if field.description:
            lines += [f"# {line}" for line in _wrapped(field.description)]
        value = defaults[key]
        shown = "(unset)" if value is None else _toml_value(value)
        lines += [f"# {key} = {shown}", "#"]
    return lines


def _wrapped(text: str, width: int = 100) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width=width) or [""]


@config_app.command()
def init(
    path: Annotated[
        Path | None,
        typer.Argument(metavar="[FILE]", help="Where to write (default: the settings file refhound reads)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a sample settings file: every setting commented out at its default, with what it does."""
    from refhound.settings import Settings, default_config_path

    target = path or default_config_path()
    if target.exists() and not force:
        raise fail(f"{target} exists; give --force to overwrite it, or another FILE")
    defaults = Settings.model_construct()  # the defaults only: not the environment, not an existing file
    lines = [
        "# refhound settings. To change a key, uncomment it and its [section] line. Command-line options and",
        "# REFHOUND_* environment variables (section and key joined by __, e.g. REFHOUND_SOURCES__MAILTO)",
        "# take precedence over this file.",
        "",
    ]
    for name, field in Settings.model_fields.items():
        section = getattr(defaults, name, None) or field.get_default(call_default_factory=True)
        lines += [f"# --- {field.description or name}", *_commented(name, section), ""]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines), encoding="utf-8")
    err.say(f"wrote {target}")
