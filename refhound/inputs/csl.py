"""CSL-JSON input (Zotero, Pandoc, Mendeley exports): a list of items, or `{"items": [...]}`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from refhound.errors import InputError
from refhound.inputs.base import (
    DECODE_ERRORS,
    InputRead,
    decode_problem,
    identifier_as_title,
    identifiers_from_title,
    missing_title,
    unreadable_entry,
    year_of,
)
from refhound.inputs.jsonlist import item_spans
from refhound.inputs.screen import DEFAULT_LIMITS, EntryLimits, check_count, too_long
from refhound.models import InputProblem, ParsedFields, Reference
from refhound.normalize.identifiers import arxiv_id_from_doi, find_arxiv_id, normalize_doi
from refhound.normalize.names import is_et_al
from refhound.normalize.titles import clean_title
from refhound.refstring import ARXIV_VENUE, is_arxiv_venue, parse_author_list

_NAME_PARTS = ("given", "dropping-particle", "non-dropping-particle", "family")
_ARXIV_FIELDS = ("number", "URL", "note", "archive_location", "container-title", "publisher")


def _text(value: Any) -> str | None:
    """A CSL text value: a string or number, or the first of a list (old exports list container titles)."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, bool) or value is None:
        return None
    text = str(value).strip() if isinstance(value, str | int | float) else ""
    return text or None


def _name(value: Any) -> str | None:
    """A CSL name object as "Given particle Family, Suffix", or its `literal`."""
    if not isinstance(value, dict):
        return _text(value)
    literal = _text(value.get("literal"))
    if literal:
        return literal
    name = " ".join(part for part in (_text(value.get(key)) for key in _NAME_PARTS) if part)
    suffix = _text(value.get("suffix"))
    return f"{name}, {suffix}" if name and suffix else name or None


def _names(value: Any) -> tuple[list[str], bool]:
    """The names of a CSL `author` value, and whether it ended in "et al.": a list of name objects as the
    schema says, else what a hand-made file holds instead: one name object, or the author list as one
    string ("Smith, J. and Jones, K.")."""
    if isinstance(value, str):
        names, truncated = parse_author_list(value)
        return (names or [value.strip()] if value.strip() else []), truncated
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        return [], False
    names = [name for name in (_name(a) for a in value if a) if name]
    return [name for name in names if not is_et_al(name)], any(is_et_al(name) for name in names)


def _year(issued: Any) -> int | None:
    """The year of a CSL date: `date-parts` [[2019, 5, 1]], else `raw` or `literal` text."""
    if not isinstance(issued, dict):
        return year_of(_text(issued))
    parts = issued.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        year = year_of(_text(parts[0][0]))
        if year:
            return year
    return year_of(_text(issued.get("raw")) or _text(issued.get("literal")))


def _item_fields(item: dict[str, Any]) -> tuple[ParsedFields, str | None]:
    """`ParsedFields` from one CSL item, and the problem of a title that is only an identifier or a label."""
    names, truncated = _names(item.get("author"))
    raw_title = _text(item.get("title"))
    title = clean_title(raw_title) or None if raw_title else None
    as_identifier = identifier_as_title(title, "item")
    doi = normalize_doi(_text(item.get("DOI")) or "")
    held = (_text(item.get(key)) for key in _ARXIV_FIELDS)
    arxiv_id = next((found for text in held if (found := find_arxiv_id(text or ""))), None)
    url = _text(item.get("URL"))
    if title and as_identifier:
        doi, arxiv_id, url = identifiers_from_title(title, doi, arxiv_id, url)
        title = None
    arxiv_id = arxiv_id or (arxiv_id_from_doi(doi) if doi else None)
    venue = _text(item.get("container-title")) or _text(item.get("event-title"))
    if is_arxiv_venue(venue) or (not venue and arxiv_id):
        venue = ARXIV_VENUE
    parsed = ParsedFields(
        title=title,
        authors=names,
        authors_truncated=truncated,
        venue=venue,
        year=_year(item.get("issued")),
        doi=doi,
        arxiv_id=arxiv_id,
        url=url,
        volume=_text(item.get("volume")),
        pages=_text(item.get("page")),
    )
    return parsed, as_identifier


@dataclass(frozen=True)
class _Unreadable:
    """An item its decoder could not read (nested too deeply): reported, the other items still read."""

    error: BaseException


def count_csl_items(text: str) -> int | None:
    """How many items the file's list holds, by a scan (None when it is no list)."""
    spans = item_spans(text)
    return None if spans is None else len(spans)


def _items(text: str, source: str) -> list[Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            source, f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from error
    except DECODE_ERRORS as error:
        return _items_one_by_one(text, source, error)
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        return list(data["items"])
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and ("title" in data or "type" in data):
        return [data]  # a single item
    raise InputError(source, 'not CSL-JSON: expected a list of items or {"items": [...]}')


def _items_one_by_one(text: str, source: str, error: BaseException) -> list[Any]:
    """The items of a list the decoder could not read whole, each decoded alone."""
    spans = item_spans(text) if isinstance(error, RecursionError) else None
    if spans is None:
        raise InputError(source, f"not readable as JSON: {decode_problem(error)}") from error
    items: list[Any] = []
    for start, end in spans:
        try:
            items.append(json.loads(text[start:end]))
        except DECODE_ERRORS as item_error:
            items.append(_Unreadable(item_error))
    return items


def read_csl_json(text: str, source: str, limits: EntryLimits = DEFAULT_LIMITS) -> InputRead:
    """Every CSL item; an item that is not a JSON object, or has nothing to check, is reported. More items
    than `limits` allows raise `TooManyEntries`, and one longer than it allows is skipped, both before
    any item's fields are read."""
    items = _items(text, source)
    check_count(source, len(items), limits, "CSL items")
    read = InputRead()
    for position, item in enumerate(items, 1):
        location = f"item {position}"
        if isinstance(item, _Unreadable):
            read.problems.append(unreadable_entry(source, location, item.error))
            continue
        if not isinstance(item, dict):
            message = f"not a CSL item (a JSON object) but {type(item).__name__}, skipped"
            read.problems.append(InputProblem(input=source, location=location, message=message))
            continue
        try:  # an item nested near the decoder's depth can be too deep to write back
            raw = json.dumps(item, ensure_ascii=False)
            if limits.max_entry_chars is not None and len(raw) > limits.max_entry_chars:
                read.problems.append(too_long(source, location, len(raw), limits.max_entry_chars))
                continue
            parsed, as_identifier = _item_fields(item)
        except DECODE_ERRORS as error:
            read.problems.append(unreadable_entry(source, location, error))
            continue
        key = _text(item.get("id")) or str(position)
        read.references.append(Reference(id=key, raw=raw, parsed=parsed, input=source, structured=True))
        no_title = as_identifier or missing_title(parsed, "item")
        if no_title:
            read.problems.append(InputProblem(input=source, location=f"{location} ({key})", message=no_title))
    return read
