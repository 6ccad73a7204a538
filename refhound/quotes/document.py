"""Reading the document whose quotes are checked: Markdown or plain text as written; a PDF draft through the
extractor's text layer and an HTML page without its markup (both then read as plain text).

Everything that makes a file no document at all — missing, a directory, larger than the limit, empty,
binary — is an `InputError` with a one-line reason, as for every other refhound input.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from refhound.errors import InputError
from refhound.inputs.files import check_input_file
from refhound.quotes.errors import SourceUnreadable
from refhound.quotes.textof import content_to_text, looks_like_html, looks_like_pdf
from refhound.settings import Settings

DocumentKind = Literal["markdown", "text"]
TRIPLES_SUFFIXES = (".json", ".jsonl")
_TEXT_SUFFIXES = (".txt", ".text")


@dataclass(frozen=True)
class Document:
    path: Path
    text: str
    kind: DocumentKind
    warnings: tuple[str, ...] = ()


def read_bytes(path: Path, max_bytes: int, kind: str = "document") -> bytes:
    """The file's bytes, or an `InputError` saying why it is unusable."""
    check_input_file(path, max_bytes, kind=kind)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(path, f"cannot be read: {error.strerror or error}") from error
    if not data.strip():
        raise InputError(path, "empty file")
    return data


def read_document(path: Path, settings: Settings) -> Document:
    """The document's text and how to read it (Markdown unless it is plain text, a PDF or HTML)."""
    data = read_bytes(path, settings.quotes.max_document_bytes)
    converted = looks_like_pdf(data) or looks_like_html(data, None, path.name)
    try:
        text, warnings = content_to_text(data, None, path.name, settings.extract)
    except SourceUnreadable as error:
        reason = error.reason
        if reason.startswith("binary content"):
            reason = "binary file, not a document (Markdown, text, HTML, PDF or a triples .json)"
        raise InputError(path, reason) from error
    kind: DocumentKind = "text" if converted or path.suffix.lower() in _TEXT_SUFFIXES else "markdown"
    return Document(path, text, kind, tuple(warnings))
