"""Uploads on disk: a private directory per request, files under generated names, removed after.

The name a client gives a file is only shown back to it (sanitised); the file on disk is `0.pdf`, `1.bib`
… in a directory only this user can read, so no upload can name a path (`../`, `/etc/…`). The extension
is kept only when it is one refhound reads by (it picks the reader), else the content decides.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

_KNOWN_SUFFIXES = {
    ".pdf",
    ".bib",
    ".bibtex",
    ".bbl",
    ".json",
    ".csljson",
    ".txt",
    ".md",
    ".markdown",
    ".html",
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_MAX_NAME = 200
_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class SavedUpload:
    """An uploaded file: the name to show, and where it lies on disk."""

    name: str
    path: Path


def display_name(given: str | None, position: int) -> str:
    """The client's file name without any directory part or control characters (`upload-N` if none)."""
    base = PurePosixPath((given or "").replace("\\", "/")).name
    base = _CONTROL.sub("", base).strip()[:_MAX_NAME]
    return base if base not in ("", ".", "..") else f"upload-{position}"


class UploadDir:
    """A private temporary directory for one request's files; `remove()` deletes it and everything in it."""

    def __init__(self, parent: Path | None = None) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="refhound-serve-", dir=parent))  # mode 0700
        self._count = 0

    def save(self, source: BinaryIO, given_name: str | None) -> SavedUpload:
        """Copy an uploaded stream to a new file here; the name shown is the client's, sanitised."""
        name = display_name(given_name, self._count)
        suffix = PurePosixPath(name).suffix.lower()
        path = self.path / f"{self._count}{suffix if suffix in _KNOWN_SUFFIXES else ''}"
        self._count += 1
        with path.open("xb") as target:
            shutil.copyfileobj(source, target, _CHUNK)
        return SavedUpload(name, path)

    def save_text(self, text: str, name: str) -> SavedUpload:
        """Store pasted text like an upload of a plain-text file."""
        path = self.path / f"{self._count}.txt"
        self._count += 1
        path.write_text(text, encoding="utf-8")
        return SavedUpload(name, path)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
