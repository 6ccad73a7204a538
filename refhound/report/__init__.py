"""Report renderers: JSON (the contract), Markdown, text and HTML as strings; a rich table for terminals.

Each renderer is imported when a report is rendered in its format: the command line names `FORMATS` in its
options, and a usage error should not pay for loading them all."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from refhound.models import Report

# format → (module, function) of its renderer
_RENDERERS: dict[str, tuple[str, str]] = {
    "json": ("refhound.report.json", "render_json"),
    "md": ("refhound.report.markdown", "render_markdown"),
    "text": ("refhound.report.text", "render_text"),
    "html": ("refhound.report.html", "render_html"),
}
FORMATS: tuple[str, ...] = tuple(_RENDERERS)

__all__ = ["FORMATS", "print_report", "render"]


def render(report: Report, fmt: str) -> str:
    """The report rendered in `fmt`, one of `FORMATS`; ValueError for any other format."""
    try:
        module, function = _RENDERERS[fmt]
    except KeyError:
        raise ValueError(f"unknown report format {fmt!r}; expected one of: {', '.join(FORMATS)}") from None
    rendered: str = getattr(import_module(module), function)(report)
    return rendered


def print_report(report: Report, console: Console, *, whole: bool = False) -> None:
    """The report as a table on `console` (see `refhound.report.terminal`)."""
    from refhound.report.terminal import print_report as print_table

    print_table(report, console, whole=whole)
