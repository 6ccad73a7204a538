"""The LLM reference-string parser: one reference as printed in a paper in, `ParsedFields` out.

The model is asked for strict JSON (`ReferenceFields`, every string length-bounded) and told to copy text
exactly as printed, never to invent, and to give null for what the reference does not state.

The model must not invent, and its reply is not trusted to obey: a value that does not occur in the raw
string is dropped, compared on folded text (case, accents and punctuation ignored; numbers and identifiers
compared whole, so volume "3" is not found in "30" and a truncated DOI does not pass). That covers the
title, venue, year, DOI, arXiv id, URL, volume and pages; an author is dropped only when no word of the
name occurs, because "Vaswani, A." may come back as "A. Vaswani". A DOI or arXiv id the model missed but
the raw string holds is filled in deterministically.
"""

from __future__ import annotations

import re
from typing import Annotated
from urllib.parse import unquote

from pydantic import BaseModel, ConfigDict, Field

from refhound.llm import LLMClient
from refhound.models import ParsedFields
from refhound.normalize.identifiers import (
    arxiv_id_from_doi,
    find_arxiv_id,
    find_doi,
    normalize_arxiv_id,
    normalize_doi,
)
from refhound.normalize.names import is_et_al
from refhound.normalize.text import collapse_whitespace, fold
from refhound.normalize.titles import clean_title, title_key

SCHEMA_NAME = "reference_fields"
MAX_RAW_CHARS = 4000  # longer "references" are segmentation errors; the head still holds the fields
MAX_TOKENS = 4096  # a full reply (100 authors of 200 characters) fits

Author = Annotated[str, Field(max_length=200)]


# The JSON the model must reply with; its docstring is the schema's description, which the model reads.
# Every key is required, nullable instead of optional: OpenAI's strict mode accepts no optional keys.
class ReferenceFields(BaseModel):
    """The fields of one bibliographic reference, copied exactly as printed; null when not printed."""

    model_config = ConfigDict(extra="forbid")

    title: Annotated[str, Field(max_length=500)] | None
    authors: list[Author] = Field(max_length=100, description="As printed, in printed order; no 'et al.'.")
    venue: Annotated[str, Field(max_length=300)] | None
    year: Annotated[int, Field(ge=1500, le=2100)] | None
    doi: Annotated[str, Field(max_length=200)] | None
    arxiv_id: Annotated[str, Field(max_length=60)] | None
    url: Annotated[str, Field(max_length=500)] | None
    volume: Annotated[str, Field(max_length=50)] | None
    pages: Annotated[str, Field(max_length=50)] | None


SYSTEM_PROMPT = """\
You split one bibliographic reference, as printed in a scientific paper, into its fields.

Rules:
- Copy every value exactly as printed in the reference: same spelling, words and order. Do not correct, \
expand, abbreviate, translate or complete anything.
- Never invent. A field the reference does not state is null; authors is then an empty list.
- authors: one item per person, in printed order, each as printed ("Vaswani, A." or "Ashish Vaswani"). \
Leave out "et al." and "and others".
- title: the title of the cited work only, without quotation marks.
- venue: the journal, conference, book, series or archive the work appeared in, as printed.
- year: the publication year, as a number.
- doi, arxiv_id, url: only when printed in the reference.
- volume, pages: as printed, e.g. "30" and "5998-6008".

Reply with the JSON object only."""

_ET_AL_IN_TEXT = re.compile(r"\bet\.?\s*al\b|\band\s+others\b", re.IGNORECASE)
_NAME_WORD = re.compile(r"[^\W\d_]{2,}")
_NON_WORD = re.compile(r"[\W_]+")
_DOI_END = r"(?=[.,;:'\")\]>}]*(?:\s|$))"  # a DOI ends at whitespace, after any trailing punctuation
_ARXIV_PREFIX = re.compile(r"^\s*arxiv\s*:?\s*", re.IGNORECASE)


def _squash(text: str) -> str:
    """Folded letters and digits only: what two printings of the same words have in common."""
    return _NON_WORD.sub("", fold(text))


def _tokens(text: str) -> str:
    """Folded words, space-separated and padded, so that "3" is not found inside "30"."""
    return f" {_NON_WORD.sub(' ', fold(text)).strip()} "


class _Raw:
    """The raw reference string in the forms its fields are looked up in."""

    def __init__(self, raw: str) -> None:
        self.text = raw
        lower = unquote(raw).lower()
        self.lowers = (lower, re.sub(r"\s+", "", lower))  # the second rejoins identifiers broken by a space
        self.squashed = _squash(raw)
        self.tokens = _tokens(raw)
        self.title_words = title_key(raw).replace(" ", "")
        self.words = set(self.tokens.split())

    def has_words(self, value: str) -> bool:
        tokens = _tokens(value)
        return bool(tokens.strip()) and tokens in self.tokens

    def has_title(self, title: str) -> bool:
        key = title_key(title).replace(" ", "")
        return bool(key) and key in self.title_words

    def has_name(self, name: str) -> bool:
        words = _NAME_WORD.findall(fold(name))
        if not words:
            squashed = _squash(name)
            return bool(squashed) and squashed in self.squashed
        return any(w in self.words or (len(w) >= 4 and w in self.squashed) for w in words)

    def has_pattern(self, pattern: str) -> bool:
        return any(re.search(pattern, text) for text in self.lowers)

    def has_url(self, url: str) -> bool:
        return url.strip().lower() in self.lowers[1]


def _doi(value: str | None, raw: _Raw) -> str | None:
    doi = normalize_doi(value) if value else None
    if doi is None or not raw.has_pattern(rf"(?<![\w.]){re.escape(doi)}{_DOI_END}"):
        return None
    return doi


def _arxiv_id(value: str | None, raw: _Raw) -> str | None:
    arxiv_id = normalize_arxiv_id(value) if value else None
    if arxiv_id is None or value is None:
        return None
    # The model may copy an old-style id with its subject class ("math.GT/0309136"); the canonical
    # form drops it, so either spelling counts.
    printed = _ARXIV_PREFIX.sub("", value).lower()
    for form in {arxiv_id, printed}:
        if raw.has_pattern(rf"(?<![\w.-]){re.escape(form)}(?!\d)"):
            return arxiv_id
    return None


def _authors(names: list[str], raw: _Raw) -> tuple[list[str], bool]:
    truncated = bool(_ET_AL_IN_TEXT.search(raw.text))
    kept: list[str] = []
    for name in names:
        name = collapse_whitespace(name).strip(" ,;")
        if is_et_al(name):
            truncated = True
        elif name and raw.has_name(name):
            kept.append(name)
    return kept, truncated


def _text(value: str | None, raw: _Raw) -> str | None:
    value = collapse_whitespace(value) if value else None
    return value if value and raw.has_words(value) else None


def fields_from_reply(reply: ReferenceFields, raw: str) -> ParsedFields:
    """`ParsedFields` from a validated reply, keeping only what occurs in `raw` (see the module doc)."""
    text = _Raw(raw)
    title = clean_title(reply.title) if reply.title else None
    authors, truncated = _authors(reply.authors, text)
    year = reply.year if reply.year and text.has_pattern(rf"(?<!\d){reply.year}(?!\d)") else None
    doi = _doi(reply.doi, text) or find_doi(raw)
    arxiv_id = _arxiv_id(reply.arxiv_id, text) or find_arxiv_id(raw)
    if arxiv_id is None and doi is not None:
        arxiv_id = arxiv_id_from_doi(doi)
    url = reply.url.strip() if reply.url and text.has_url(reply.url) else None
    return ParsedFields(
        title=title if title and text.has_title(title) else None,
        authors=authors,
        authors_truncated=truncated,
        venue=_text(reply.venue, text),
        year=year,
        doi=doi,
        arxiv_id=arxiv_id,
        url=url,
        volume=_text(reply.volume, text),
        pages=_text(reply.pages, text),
    )


class LLMReferenceParser:
    """Parses reference strings with the model behind an `LLMClient` (one client, shared across calls)."""

    def __init__(self, client: LLMClient) -> None:
        self.client = client

    def parse(self, raw: str) -> ParsedFields:
        """The fields of one reference string.

        Raises what `LLMClient.complete_json` raises (all `LLMError`): the caller keeps its
        deterministic parse then, and never guesses.
        """
        raw = collapse_whitespace(raw)[:MAX_RAW_CHARS]
        reply = self.client.complete_json(
            SYSTEM_PROMPT, f"Reference:\n{raw}", ReferenceFields, SCHEMA_NAME, max_tokens=MAX_TOKENS
        )
        return fields_from_reply(reply, raw)
