"""Citations in a Markdown report, scanned from its source text: markers in the running text, and the
definitions that say what each one points to.

Markers: numbered "[3]", ranges "[1-3]" and lists "[1, 4]"; footnotes "[^note]"; inline links
"[text](url)"; autolinks "<url>"; bare URLs; and "[label]" where a reference definition "[label]: url"
exists. "[3][2]" is two citations, whatever CommonMark makes of it (one link, text "3", label "2").

Definitions: reference definitions "[1]: url", footnote definitions "[^note]: text" (with indented
continuation lines), and reference-list entries — "[1] Author, Title. URL" lines anywhere, and "1. …" items
under a heading such as References, Sources or Bibliography. Definition lines are no running text: their
markers are not citations and their quoted titles are not quotations.

Where a citation points is read from what the document writes: a reference definition's destination as
written ("[1]: paper.pdf", "[2]: file:///srv/a.txt", "[3]: https://…", "[4]: 10.1000/xyz", "[5]:
arXiv:2005.14165"); a footnote or list entry is free text, searched for the first URL, else DOI, else arXiv
id, else a file name with a known extension. Relative paths and `file://` URLs resolve against the
document's directory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from refhound.normalize.identifiers import find_arxiv_id, find_doi, normalize_arxiv_id, normalize_doi
from refhound.quotes.layout import Span
from refhound.quotes.models import Definition, Marker, Target

_RANGE_LIMIT = 100  # a range wider than this is no citation ("[1-1999]")
_NUMBERS = r"\d{1,4}(?:\s*[-\u2013\u2014]\s*\d{1,4})?(?:\s*[,;]\s*\d{1,4}(?:\s*[-\u2013\u2014]\s*\d{1,4})?)*"
_MARKER = re.compile(
    r"(?P<image>!\[[^\]\n]*\]\([^)\n]*\))"
    r"|(?P<link>(?<!!)\[(?P<link_text>[^\]\n]*)\]\(\s*<?(?P<link_url>[^)\s>]+)>?(?:\s+\"[^\"\n]*\")?\s*\))"
    r"|(?P<footnote>\[\^(?P<note>[^\]\s]+)\])"
    rf"|(?P<numeric>\[(?P<numbers>{_NUMBERS})\](?!\())"
    r"|(?P<autolink><(?P<auto_url>(?:https?|file)://[^>\s]+)>)"
    r"|(?P<url>(?<![\w/=])(?:https?|file)://[^\s<>\"'\]]+)"
    r"|(?P<label>(?<!!)\[(?P<label_text>[^\]\n^]{1,100})\](?!\())"
)
_URL_TRAILING = ".,;:!?'\""
_REF_DEFINITION = re.compile(
    r"^ {0,3}\[(?P<label>[^\]\n]+)\]:[ \t]*(?P<dest><[^>\n]*>|\S+)(?P<rest>.*)$", re.M
)
_FOOTNOTE_DEFINITION = re.compile(
    r"^\[\^(?P<label>[^\]\s]+)\]:[ \t]*(?P<body>.*(?:\n(?:[ \t]+.*|[ \t]*(?=\n[ \t]+\S)))*)", re.M
)
_BRACKET_ENTRY = re.compile(r"^ {0,3}\[(?P<label>\d{1,4})\][ \t]+(?P<body>\S.*)$", re.M)
_LIST_ENTRY = re.compile(r"^ {0,3}(?P<label>\d{1,4})[.)][ \t]+(?P<body>\S.*)$", re.M)
_HEADING = re.compile(r"^(?:#{1,6}[ \t]+(?P<atx>.*)|(?P<setext>\S.*)\n[=-]{3,}[ \t]*)$", re.M)
_REFERENCE_HEADINGS = re.compile(
    r"^\W*(?:references?|sources?|bibliography|works cited|citations?|notes|footnotes|endnotes|literature)"
    r"\W*$",
    re.IGNORECASE,
)


@dataclass
class Citations:
    """Markers in the running text, definitions by key, and the spans definitions take up."""

    markers: list[Marker] = field(default_factory=list)
    definitions: dict[str, Definition] = field(default_factory=dict)
    definition_spans: list[Span] = field(default_factory=list)
    reference_spans: list[Span] = field(default_factory=list)  # definitions but footnotes: no running text
    footnote_spans: dict[str, Span] = field(default_factory=dict)  # a footnote definition's body


def _expand(numbers: str) -> tuple[str, ...] | None:
    keys: list[str] = []
    for part in re.split(r"\s*[,;]\s*", numbers.strip()):
        bounds = re.split(r"\s*[-\u2013\u2014]\s*", part)
        if len(bounds) == 1:
            keys.append(str(int(bounds[0])))
            continue
        low, high = int(bounds[0]), int(bounds[1])
        if high < low or high - low > _RANGE_LIMIT:
            return None
        keys.extend(str(n) for n in range(low, high + 1))
    return tuple(dict.fromkeys(keys))


def _trim_url(url: str) -> str:
    while url and (url[-1] in _URL_TRAILING or (url[-1] == ")" and url.count(")") > url.count("("))):
        url = url[:-1]
    return url


def reference_key(label: str) -> str:
    """The key of a reference-style label: numbers as themselves, others case-folded ("ref:smith")."""
    label = " ".join(label.split())
    return str(int(label)) if label.isdecimal() else "ref:" + label.casefold()


def _definitions(text: str, base: str | None, found: Citations) -> None:
    """Reference definitions, footnote definitions and reference-list entries, first one per key wins."""

    def add(key: str, body: str, span: Span, target_text: str | None = None) -> None:
        found.definition_spans.append(span)
        if not key.startswith("^"):
            found.reference_spans.append(span)
        if key in found.definitions:
            return
        target = parse_destination(target_text, base) if target_text else target_in_text(body, base)
        if target is not None:
            reason = None
        elif target_text:
            reason = f"its definition points to {target_text!r}, which refhound cannot read"
        else:
            reason = "its definition gives no URL, DOI, arXiv id or file"
        found.definitions[key] = Definition(key, body.strip(), target, reason, span[0], span[1])

    for match in _REF_DEFINITION.finditer(text):
        label = match.group("label")
        key = "^" + label[1:] if label.startswith("^") else reference_key(label)
        if key.startswith("^"):
            continue  # a footnote definition, read below with its continuation lines
        add(key, match.group(0), match.span(), match.group("dest").strip("<>"))
    for match in _FOOTNOTE_DEFINITION.finditer(text):
        key = "^" + match.group("label")
        add(key, match.group("body"), match.span())
        found.footnote_spans.setdefault(key, match.span("body"))
    for match in _BRACKET_ENTRY.finditer(text):
        if target_in_text(match.group("body"), base) is not None:
            add(reference_key(match.group("label")), match.group("body"), match.span())
    for start, end in _reference_sections(text):
        for match in _LIST_ENTRY.finditer(text, start, end):
            add(str(int(match.group("label"))), match.group("body"), match.span())
    found.definition_spans.sort()


def _reference_sections(text: str) -> list[Span]:
    """Spans from a References/Sources/… heading to the next heading (or the end)."""
    headings = list(_HEADING.finditer(text))
    sections: list[Span] = []
    for index, heading in enumerate(headings):
        title = heading.group("atx") if heading.group("atx") is not None else heading.group("setext")
        if _REFERENCE_HEADINGS.match(title.strip().strip("#").strip()):
            end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
            sections.append((heading.end(), end))
    return sections


def _in_spans(position: int, spans: list[Span]) -> bool:
    return any(start <= position < end for start, end in spans)


def scan_citations(text: str, masked: str, base: str | None) -> Citations:
    """Markers and definitions of a document; `masked` is the text with code blanked out."""
    found = Citations()
    _definitions(masked, base, found)
    for match in _MARKER.finditer(masked):
        if _in_spans(match.start(), found.definition_spans):
            continue
        marker = _marker(match, text, found)
        if marker is not None:
            found.markers.append(marker)
    return found


def _marker(match: re.Match[str], text: str, found: Citations) -> Marker | None:
    start, end = match.span()
    written = text[start:end]
    kind = match.lastgroup
    if kind == "image":
        return None
    if kind == "link":
        url = match.group("link_url")
        return Marker(start, end, written, "link", ("url:" + url,))
    if kind == "footnote":
        return Marker(start, end, written, "footnote", ("^" + match.group("note"),))
    if kind == "numeric":
        keys = _expand(match.group("numbers"))
        return Marker(start, end, written, "numeric", keys) if keys else None
    if kind == "autolink":
        return Marker(start, end, written, "autolink", ("url:" + match.group("auto_url"),))
    if kind == "url":
        url = _trim_url(match.group("url"))
        return Marker(start, start + len(url), url, "url", ("url:" + url,))
    key = reference_key(match.group("label_text"))
    if key in found.definitions and not key.isdigit():
        return Marker(start, end, written, "reference", (key,))
    return None


def display_label(key: str) -> str:
    """How a citation key is shown: "[3]", "[^note]", "[label]" or the URL."""
    if key.startswith("url:"):
        return key[4:]
    if key.startswith("ref:"):
        return f"[{key[4:]}]"
    return f"[{key}]"


# --- targets: where a citation points ---------------------------------------------------------------

_URL_IN_TEXT = re.compile(r"(?:https?|file)://[^\s<>\"'\]]+")
_FILE_IN_TEXT = re.compile(r"(?<![\w/.-])[\w./~-]+\.(?:pdf|txt|md|markdown|html?|xhtml|xml)\b", re.IGNORECASE)


def file_target(path_text: str, base: str | None) -> Target:
    """A local file, absolute: relative paths are the document's directory's ("~" is the home)."""
    path = Path(path_text).expanduser()
    if not path.is_absolute() and base is not None:
        path = Path(base) / path
    return Target("file", str(path.resolve()))


def _file_url(url: str, base: str | None) -> Target:
    """`file:///abs/path`, `file://localhost/abs/path`, and the common slip `file://relative/path`."""
    parts = urlsplit(url)
    path = unquote(parts.path)
    if parts.netloc and parts.netloc != "localhost":
        path = parts.netloc + path  # file://paper.pdf: a relative path written as a URL
    return file_target(path, base)


def parse_destination(destination: str, base: str | None) -> Target | None:
    """Where a reference definition's destination (or a locator given on the command line or in a triples
    file) points, taken as written: a URL, DOI, arXiv id or path; None for another scheme."""
    value = destination.strip()
    if not value:
        return None
    lowered = value.lower()
    if lowered.startswith("file://"):
        return _file_url(value, base)
    if lowered.startswith(("http://", "https://")):
        return Target("url", value)
    if (doi := normalize_doi(value)) is not None:
        return Target("doi", doi)
    if (arxiv := normalize_arxiv_id(value)) is not None:
        return Target("arxiv", arxiv)
    if "://" in value:
        return None  # another scheme (ftp, mailto …): nothing refhound can read
    return file_target(value, base)


def target_in_text(text: str, base: str | None) -> Target | None:
    """The first URL, else DOI, else arXiv id, else file name in free text (a footnote, a list entry)."""
    if (url := _URL_IN_TEXT.search(text)) is not None:
        return parse_destination(_trim_url(url.group()), base)
    if (doi := find_doi(text)) is not None:
        return Target("doi", doi)
    if (arxiv := find_arxiv_id(text)) is not None:
        return Target("arxiv", arxiv)
    if (name := _FILE_IN_TEXT.search(text)) is not None:
        return file_target(name.group(), base)
    return None
