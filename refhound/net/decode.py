"""Bytes of an answer → HTML text: is it HTML at all, and in which character encoding.

Scholarly pages are still served in Latin-1, Windows-1252, Shift_JIS or GB2312, often without a charset in
the Content-Type header. The encoding is taken, as browsers do, from a byte-order mark, then the header,
then a `<meta charset>` / `<meta http-equiv>` near the top; without any, UTF-8 if the bytes are valid
UTF-8, else Windows-1252 (the web's de-facto Latin-1). Undecodable bytes become U+FFFD: a page with a few
broken characters still has readable metadata, and a cut-off multi-byte character at the body cap is
harmless.
"""

from __future__ import annotations

import codecs
import re

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
# Types that may hold HTML served carelessly: sniffed, not trusted.
_SNIFFED_TYPES = frozenset({"", "text/plain", "application/octet-stream", "application/xml", "text/xml"})
_HTML_START = re.compile(
    rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|meta|body|title)\b",
    re.IGNORECASE | re.DOTALL,
)
_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9._:-]+)", re.IGNORECASE)
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_PRESCAN = 4096
# Text codecs Python has but the web does not use for pages (the HTML standard forbids UTF-7).
_NOT_PAGE_ENCODINGS = frozenset(
    {"utf-7", "idna", "punycode", "unicode-escape", "raw-unicode-escape", "undefined", "mbcs", "oem"}
)


def mime_type(content_type: str) -> str:
    """ "text/html; charset=iso-8859-1" → "text/html"."""
    return content_type.split(";", 1)[0].strip().lower()


def html_type(content_type: str) -> bool | None:
    """True for an HTML type, False for one that is surely not HTML (PDF, images…), None to sniff."""
    mime = mime_type(content_type)
    if mime in HTML_TYPES:
        return True
    if mime in _SNIFFED_TYPES:
        return None
    return False


def looks_like_html(body: bytes) -> bool:
    """Whether a body whose type says little starts like an HTML document (and is not binary)."""
    head = body[:_PRESCAN]
    if b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            head = head[len(bom) :].decode(encoding, "replace").encode("utf-8")
            break
    return _HTML_START.match(head) is not None


def declared_charset(content_type: str, body: bytes) -> str | None:
    """The encoding a BOM, the Content-Type header or a meta tag declares (a codec Python knows), if any."""
    for bom, encoding in _BOMS:
        if body.startswith(bom):
            return encoding
    header = _HEADER_CHARSET.search(content_type)
    if header and (known := _codec(header.group(1))):
        return known
    meta = _META_CHARSET.search(body[:_PRESCAN])
    if meta and (known := _codec(meta.group(1).decode("ascii", "replace"))):
        # A page that declares UTF-16 in an ASCII-compatible meta tag cannot be UTF-16 (the HTML standard).
        return "utf-8" if known.startswith("utf-16") else known
    return None


def decode_html(body: bytes, content_type: str = "") -> tuple[str, str]:
    """(text, encoding used) of an HTML body; never raises."""
    encoding = declared_charset(content_type, body)
    if encoding is None:
        try:
            return body.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            encoding = "windows-1252" if not _mostly_valid_utf8(body) else "utf-8"
    try:
        text = body.decode(encoding, "replace")
    except (LookupError, UnicodeError):  # a codec that cannot decode with replacement: read as UTF-8
        text, encoding = body.decode("utf-8", "replace"), "utf-8"
    return text.removeprefix("\ufeff"), encoding


def _codec(name: str) -> str | None:
    """Python's name for a declared charset; None for one that is no web page encoding (unknown, or a
    codec such as "hex", "rot13" or "unicode_escape" that a page may name but no browser decodes with).
    Latin-1 means Windows-1252."""
    try:
        canonical = codecs.lookup(name.strip().lower()).name
        "<".encode(canonical)  # LookupError for the bytes-to-bytes and text-to-text codecs
    except (LookupError, UnicodeError):
        return None
    if canonical in _NOT_PAGE_ENCODINGS:
        return None
    return "windows-1252" if canonical in ("latin-1", "iso8859-1", "ascii") else canonical


def _mostly_valid_utf8(body: bytes) -> bool:
    """A UTF-8 body cut inside a character at the cap, or a long one with a rare stray byte, is UTF-8."""
    for cut in (1, 2, 3):
        try:
            body[:-cut].decode("utf-8")
            return True
        except UnicodeDecodeError:
            continue
    text = body.decode("utf-8", "replace")
    return len(text) >= 2000 and text.count("\ufffd") <= len(text) // 1000
