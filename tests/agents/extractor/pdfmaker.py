"""Real PDFs built with PyMuPDF for the extractor's tests: text placed at given coordinates, in given fonts.

A page is a list of `Text` pieces; `write_pdf` lays them out on A4 pages (595 × 842 pt). Helpers build the
common manuscript shapes: a one-column reference list, a two-column page, running headers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pymupdf

A4 = (595.0, 842.0)
LINE = 12.0  # baseline-to-baseline distance for 10 pt text


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # baseline
    text: str
    size: float = 10.0
    bold: bool = False
    link: str | None = None  # a URI link annotation over this piece
    italic: bool = False


def _font(page: pymupdf.Page, piece: Text) -> str:
    """Helvetica; embedded (with Unicode) for text beyond Latin-1, such as dashes and curly quotes, which the
    simple encoding of the base-14 font would turn into dots."""
    font = {(False, False): "helv", (True, False): "hebo", (False, True): "heit", (True, True): "hebi"}[
        (piece.bold, piece.italic)
    ]
    if all(ord(char) < 256 for char in piece.text):
        return font
    name = f"{font}-unicode"
    page.insert_font(fontname=name, fontbuffer=pymupdf.Font(font).buffer)
    return name


def write_pdf(path: Path, pages: Sequence[Sequence[Text]]) -> Path:
    document = pymupdf.open()
    for pieces in pages:
        page = document.new_page(width=A4[0], height=A4[1])
        for piece in pieces:
            font = _font(page, piece)
            page.insert_text((piece.x, piece.y), piece.text, fontsize=piece.size, fontname=font)
            if piece.link:
                width = pymupdf.get_text_length(piece.text, fontname=font[:4], fontsize=piece.size)
                rect = pymupdf.Rect(piece.x, piece.y - piece.size, piece.x + width, piece.y + 2)
                page.insert_link({"kind": pymupdf.LINK_URI, "from": rect, "uri": piece.link})
    document.save(path)
    document.close()
    return path


def column(lines: Sequence[str], x: float, y: float, indent: float = 0.0, hanging: bool = True) -> list[Text]:
    """Lines set one under the other; "\\t" at a line's start marks a continuation line (indented)."""
    pieces = []
    for i, line in enumerate(lines):
        continuation = line.startswith("\t")
        shift = indent if continuation == hanging else 0.0
        pieces.append(Text(x + shift, y + i * LINE, line.lstrip("\t")))
    return pieces


def entry_lines(entries: Sequence[tuple[str, str | None]]) -> list[str]:
    """`column`'s lines for entries of a first line and a continuation (None or empty when there is none)."""
    return [line for first, second in entries for line in (first, f"\t{second}" if second else "") if line]


def body(count: int, x: float = 72.0, y: float = 100.0, width_chars: int = 80) -> list[Text]:
    """Filler paragraphs of body text."""
    sentence = "The method is evaluated on three corpora and compared with strong baselines in detail "
    text = (sentence * 20)[:width_chars]
    return [Text(x, y + i * LINE, text) for i in range(count)]


def write_unmapped_type3_pdf(path: Path, lines: Sequence[bytes]) -> Path:
    """A one-page PDF whose lines are set in a Type 3 font whose glyph names map to no character, as dvips
    embeds TeX's bitmap fonts: a reader gets each glyph's code. Letters are named as usual; codes 0x00-0x1f
    get names of no character ("/a29"), so a line holds TeX's own code for a ligature or dash."""
    names = {code: f"a{code}" for code in range(32)}
    names |= {ord(c): c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"}
    procs = {name: b"500 0 0 0 400 600 d1 0 0 400 600 re f" for name in names.values()}
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    ]
    objects.append(
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>"
    )
    first_proc = 6
    charprocs = " ".join(f"/{name} {first_proc + i} 0 R" for i, name in enumerate(procs))
    differences = " ".join(f"{code} /{name}" for code, name in sorted(names.items()))
    widths = " ".join(["500"] * 128)
    objects.append(
        f"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 600] /FontMatrix [0.001 0 0 0.001 0 0] "
        f"/CharProcs << {charprocs} >> /Encoding << /Type /Encoding /Differences [{differences}] >> "
        f"/FirstChar 0 /LastChar 127 /Widths [{widths}] >>".encode()
    )
    shown = b"".join(b"1 0 0 1 72 %d Tm (%s) Tj " % (760 - 14 * i, line) for i, line in enumerate(lines))
    content = b"BT /F1 10 Tf " + shown + b"ET"
    objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    objects += [b"<< /Length %d >>\nstream\n%s\nendstream" % (len(proc), proc) for proc in procs.values()]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body_ in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body_)
    start = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, start)
    path.write_bytes(bytes(out))
    return path
