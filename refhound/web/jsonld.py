"""schema.org JSON-LD (`<script type="application/ld+json">`): drafts of the scholarly works a page describes.

Publishers write JSON-LD freely: one object, a list, or an `@graph`; `@type` a string, a list or a full
IRI; authors as strings, `Person`s (`name`, or `givenName` + `familyName`) or `Organization`s; the
venue up an `isPartOf` chain (issue → volume → periodical); the DOI in `identifier` (a string or a
`PropertyValue`), `sameAs` or `url`. Only the works themselves count: what an article *cites*
(`citation`) or *mentions* is not followed, so a reference list never becomes candidate records.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import lxml.html

from refhound.web import draft as clean
from refhound.web.draft import Draft

# Types of works worth a record, lower-case, without the schema.org prefix.
_WORK_TYPES = {
    "scholarlyarticle": "article",
    "medicalscholarlyarticle": "article",
    "article": "article",
    "techarticle": "article",
    "report": "techreport",
    "thesis": "phdthesis",
    "chapter": "incollection",
    "book": "book",
}
_CONTAINERS = frozenset(
    {"periodical", "publicationvolume", "publicationissue", "book", "bookseries", "creativeworkseries"}
)
_JSON_LD = "application/ld+json"
_MAX_SCRIPTS = 50
_MAX_ITEMS = 500


def jsonld_drafts(doc: lxml.html.HtmlElement) -> list[Draft]:
    """A draft per scholarly work in the page's JSON-LD; scripts that are not valid JSON are skipped."""
    drafts: list[Draft] = []
    scripts = [s for s in doc.iter("script") if (s.get("type") or "").strip().lower() == _JSON_LD]
    for script in scripts[:_MAX_SCRIPTS]:
        raw = (script.text or "").strip()
        if raw.startswith("<!--"):
            raw = raw.removeprefix("<!--").removesuffix("-->")
        try:
            data = json.loads(raw, strict=False)  # strict=False: raw newlines inside strings are common
        except ValueError:
            continue
        for item in _items(data):
            draft = _draft(item)
            if draft is not None:
                drafts.append(draft)
            if len(drafts) >= _MAX_ITEMS:
                return drafts
    return drafts


def _items(data: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    """The top-level objects, `@graph` members, and a page's `mainEntity`."""
    if depth > 3:
        return
    if isinstance(data, list):
        for value in data:
            yield from _items(value, depth + 1)
    elif isinstance(data, dict):
        if "@type" in data:
            yield data
        graph = data.get("@graph")
        if graph is not None:
            yield from _items(graph, depth + 1)
        main = data.get("mainEntity")
        if isinstance(main, dict | list):
            yield from _items(main, depth + 1)


def _types(item: dict[str, Any]) -> list[str]:
    raw = item.get("@type")
    values = raw if isinstance(raw, list) else [raw]
    return [v.rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower() for v in values if isinstance(v, str)]


def _draft(item: dict[str, Any]) -> Draft | None:
    kinds = [t for t in _types(item) if _WORK_TYPES.get(t)]
    if not kinds:
        return None
    found_title = clean.title(_string(item.get("headline")) or _string(item.get("name")))
    if not found_title:
        return None
    venue = _venue(item.get("isPartOf"))
    entry_type = _WORK_TYPES[kinds[0]]
    if entry_type == "article" and venue and any(w in venue.lower() for w in ("proceedings", "conference")):
        entry_type = "inproceedings"
    identifiers = [*_values(item.get("identifier")), *_values(item.get("sameAs")), *_values(item.get("url"))]
    identifiers.append(_string(item.get("@id")) or "")
    return Draft(
        "json-ld",
        title=found_title,
        authors=clean.authors(_people(item.get("author") or item.get("creator"))),
        venue=venue,
        year=clean.year(
            _string(item.get("datePublished"))
            or _string(item.get("dateCreated"))
            or _string(item.get("copyrightYear"))
        ),
        doi=next((d for d in map(clean.doi, identifiers) if d), None),
        arxiv_id=next((a for i in identifiers if "arxiv" in i.lower() and (a := clean.arxiv_id(i))), None),
        url=next((u for u in _values(item.get("url")) if u.startswith(("http://", "https://"))), None),
        entry_type=entry_type,
    )


def _string(value: Any) -> str | None:
    """A text value: a string, a number, the first of a list, or a `{"@value": …}`."""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list) and value:
        return _string(value[0])
    if isinstance(value, dict) and "@value" in value:
        return _string(value["@value"])
    return None


def _values(value: Any) -> list[str]:
    """Identifier-ish strings: plain, in lists, or `PropertyValue`s ("DOI: value" kept recognisable)."""
    out: list[str] = []
    for entry in value if isinstance(value, list) else [value]:
        if isinstance(entry, str):
            out.append(entry)
        elif isinstance(entry, dict):
            kind = (_string(entry.get("propertyID")) or "").lower()
            inner = _string(entry.get("value")) or _string(entry.get("@id")) or _string(entry.get("url"))
            if inner:
                out.append(f"doi:{inner}" if kind == "doi" and not inner.lower().startswith("doi") else inner)
    return out


def _people(value: Any) -> list[str]:
    names: list[str] = []
    entries = value if isinstance(value, list) else [value]
    for entry in entries[: clean.MAX_AUTHORS]:
        if isinstance(entry, str):
            names.append(entry)
        elif isinstance(entry, dict):
            given = _string(entry.get("givenName"))
            family = _string(entry.get("familyName"))
            name = _string(entry.get("name"))
            if given and family:
                names.append(f"{given} {family}")
            elif name:
                names.append(name)
            elif family:
                names.append(family)
        elif isinstance(entry, list):  # a nested list (JSON-LD @list flattened by hand)
            names.extend(_people(entry))
    return names


def _venue(value: Any) -> str | None:
    """The outermost named container up an `isPartOf` chain (the periodical, not the issue)."""
    best: str | None = None
    for _ in range(6):
        if isinstance(value, list):
            value = value[0] if value else None
        if isinstance(value, str):  # a name, or only the container's IRI
            return best if value.startswith(("http://", "https://")) else clean.text(value) or best
        if not isinstance(value, dict):
            break
        types = _types(value)
        name = clean.text(_string(value.get("name")))
        if name and (not types or any(t in _CONTAINERS for t in types)):
            best = name
        value = value.get("isPartOf")
    return best
