"""A source's bytes → the text quotes are looked for in: PDF through the extractor's text layer, HTML
without its markup, scripts and styles, anything else as text — and a clear reason when there is none.

Whether bytes are HTML and in which encoding they are is the web agent's reading (`refhound.net.decode`:
the Content-Type, a byte-order mark, a `<meta charset>`, UTF-8, else Windows-1252, as browsers do).

PDF text is what the extractor reads (`refhound.pdf`: reading order across columns, running
headers and footers removed, OCR for pages without a text layer), lines joined by line breaks and pages by a
blank line; the matcher's normalization joins words hyphenated across lines.
"""

from __future__ import annotations

import re
import tempfile
import unicodedata
from pathlib import Path

from lxml import etree
from lxml import html as lxml_html

from refhound.errors import InputError
from refhound.net.decode import decode_html, html_type
from refhound.net.decode import looks_like_html as starts_like_html
from refhound.quotes.errors import SourceUnreadable
from refhound.settings import ExtractSettings

_BLOCKS = frozenset((
    "address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "dialog", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "td", "th", "tr",
    "ul",
))  # fmt: skip
_DROPPED = "//script|//style|//noscript|//template|//svg|//head|//iframe|//object"
_TEXT_CONTROLS = frozenset(b"\t\n\x0b\x0c\r\x1b")
_SPACES = re.compile(r"[ \t\u00a0]+")
_BLANKS = re.compile(r"\n{3,}")


def looks_like_pdf(data: bytes) -> bool:
    return data[:1024].lstrip().startswith(b"%PDF-")


def looks_like_html(data: bytes, content_type: str | None, name: str = "") -> bool:
    """HTML by its Content-Type; else, for a type that says little (or none), by its name or its start."""
    declared = html_type(content_type or "")
    if declared is not None:
        return declared
    return name.lower().endswith((".html", ".htm", ".xhtml")) or starts_like_html(data)


def _looks_binary(data: bytes) -> bool:
    sample = data[: 64 * 1024]
    if b"\x00" in sample:
        return True
    controls = sum(1 for byte in sample if byte < 0x20 and byte not in _TEXT_CONTROLS)
    return controls > len(sample) // 10


def decode(data: bytes, content_type: str | None = None) -> str:
    """Bytes as text, in the encoding they declare or show (see the module docstring); a byte-order mark
    left out, undecodable bytes as U+FFFD."""
    return decode_html(data, content_type or "")[0]


def tidy(text: str) -> str:
    """NFC, spaces collapsed within lines, at most one blank line in a row."""
    lines = [_SPACES.sub(" ", line).strip() for line in unicodedata.normalize("NFC", text).splitlines()]
    return _BLANKS.sub("\n\n", "\n".join(lines)).strip()


def _html_root(data: bytes, content_type: str | None) -> etree._Element:
    try:
        return lxml_html.document_fromstring(decode(data, content_type))
    except (etree.ParserError, ValueError) as error:
        raise SourceUnreadable(f"the HTML cannot be parsed ({error})") from error


def html_pdf_link(data: bytes, content_type: str | None = None) -> str | None:
    """A landing page's full-text PDF, as publishers declare it (Highwire `citation_pdf_url`)."""
    try:
        root = _html_root(data, content_type)
    except SourceUnreadable:
        return None
    links = root.xpath('//meta[@name="citation_pdf_url"]/@content')
    return str(links[0]).strip() if links and str(links[0]).strip() else None


def html_to_text(data: bytes, content_type: str | None = None) -> str:
    """The readable text of an HTML page: block elements on their own lines, no scripts or styles."""
    root = _html_root(data, content_type)
    for element in root.xpath(_DROPPED):
        element.drop_tree()
    parts: list[str] = []
    for event, element in etree.iterwalk(root, events=("start", "end")):
        tag = element.tag.lower() if isinstance(element.tag, str) else None
        if event == "start":
            if tag in _BLOCKS or tag == "br":
                parts.append("\n")
            if tag is not None and element.text:
                parts.append(element.text)
        else:
            if tag in _BLOCKS:
                parts.append("\n")
            if element.tail:
                parts.append(element.tail)
    return tidy("".join(parts))


def pdf_to_text(path: Path, settings: ExtractSettings) -> tuple[str, list[str]]:
    """A PDF's text through the extractor's text layer, and its warnings (damaged pages, OCR)."""
    from refhound.pdf.document import open_pdf, read_pages

    document = open_pdf(path, settings.max_bytes)
    try:
        pages = read_pages(document, settings)
    finally:
        document.close()
    text = "\n\n".join("\n".join(line.text for line in page) for page in pages.pages)
    return unicodedata.normalize("NFC", text).strip(), list(pages.warnings)


def pdf_bytes_to_text(data: bytes, settings: ExtractSettings) -> tuple[str, list[str]]:
    """A downloaded PDF's text: written to a temporary file so the extractor opens it as it opens any."""
    with tempfile.TemporaryDirectory(prefix="refhound-quotes-") as directory:
        path = Path(directory) / "source.pdf"
        path.write_bytes(data)
        try:
            return pdf_to_text(path, settings)
        except InputError as error:
            raise SourceUnreadable(error.problem) from error


def content_to_text(
    data: bytes, content_type: str | None, name: str, settings: ExtractSettings
) -> tuple[str, list[str]]:
    """The text of a source's bytes, whatever they are; `SourceUnreadable` says why there is none."""
    if not data.strip():
        raise SourceUnreadable("empty source")
    warnings: list[str] = []
    if looks_like_pdf(data):
        text, warnings = pdf_bytes_to_text(data, settings)
    elif looks_like_html(data, content_type, name):
        text = html_to_text(data, content_type)
    elif _looks_binary(data):
        kind = (content_type or "").split(";")[0].strip()
        raise SourceUnreadable(f"binary content{f' ({kind})' if kind else ''}, not text, HTML or PDF")
    else:
        text = (
            unicodedata.normalize("NFC", decode(data, content_type)).replace("\r\n", "\n").replace("\r", "\n")
        )
    if not text.strip():
        reason = "no text could be read from it"
        raise SourceUnreadable(reason + (f" ({warnings[-1]})" if warnings else ""))
    return text, warnings
