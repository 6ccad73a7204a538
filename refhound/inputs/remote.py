"""Inputs named by an arXiv id or a URL (filled in below)."""

from __future__ import annotations

from pathlib import Path

from refhound.settings import Settings


def fetch_if_remote(path: Path, settings: Settings) -> Path:
    return path
