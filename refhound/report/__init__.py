"""Report renderers: JSON (the contract), Markdown, text and HTML as strings; a rich table for terminals."""

from __future__ import annotations

from collections.abc import Callable

from refhound.models import Report
from refhound.report.html import render_html
from refhound.report.json import render_json
from refhound.report.markdown import render_markdown
from refhound.report.terminal import print_report
from refhound.report.text import render_text

_RENDERERS: dict[str, Callable[[Report], str]] = {
    "json": render_json,
    "md": render_markdown,
    "text": render_text,
    "html": render_html,
}
FORMATS: tuple[str, ...] = tuple(_RENDERERS)

__all__ = [
    "FORMATS",
    "print_report",
    "render",
    "render_html",
    "render_json",
    "render_markdown",
    "render_text",
]


def render(report: Report, fmt: str) -> str:
    """The report rendered in `fmt`, one of `FORMATS`; ValueError for any other format."""
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        raise ValueError(f"unknown report format {fmt!r}; expected one of: {', '.join(FORMATS)}") from None
    return renderer(report)
