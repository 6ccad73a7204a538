"""Opening a PDF safely and reading its pages' lines, OCR'ing pages that have no text layer or one that does
not decode to text.

Everything a user can get wrong (not a PDF, encrypted, corrupt, truncated) becomes an `InputError` naming the
file; a damaged page is skipped with a warning and the other pages are still read.
"""

from __future__ import annotations

import math
import shutil
import statistics
import unicodedata
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import pymupdf

from refhound.errors import InputError
from refhound.inputs.files import check_pdf_file
from refhound.pdf.layout import (
    Gutter,
    Line,
    merge_pieces,
    own_gutters,
    page_pieces,
    reading_order,
    strip_running_text,
)
from refhound.pdf.line_numbers import line_number_columns
from refhound.pdf.nougat import nougat_problem
from refhound.pdf.ocr_regions import Region, bullet_left_of, column_regions, crop, ink_of
from refhound.pdf.ocr_words import OcrRegion, ocr_pieces
from refhound.settings import ExtractSettings

_OCR_LARGER = 1.3  # OCR'd text this much larger than the page's usual size is a heading or title ...
_OCR_HEADING_WORDS = 6  # ... when it is as short as one (the section finder's longest heading)
_MIN_TEXT_CHARS = 20  # fewer characters than this on a page with images: a scanned page
# A text layer that does not decode: a font without a Unicode map prints each glyph as some code, a control
# character, a Latin-1 letter or sign, a symbol of the Dingbats or private-use blocks. Scored as the share of
# such characters on the page times how many kinds of them it has (a plot's markers are one symbol repeated;
# French or Icelandic text has a few accented letters among many plain ones): of 10,170 pages of 607 real
# PDFs (R vignettes and ../shared's), text pages scored at most 2.3 (6.8 for a manual whose digits alone do
# not decode), undecoded pages 10.4 and above (a table of a symbol font's characters, 12.2, too).
_UNDECODED_SCORE = 8.0
_NO_TEXT_LAYER = "no text layer"
_UNDECODED = "a text layer that does not decode to text (fonts without a Unicode map)"
_NATIVE_DPI_FLOOR = 200  # a scan at least this fine is OCR'd at its own resolution (see `ocr_resolution`)


@dataclass
class PageText:
    """Every page's lines in reading order, and what went wrong on the way."""

    pages: list[list[Line]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)  # 1-based
    scanned_pages: list[int] = field(default_factory=list)  # 1-based, left for another OCR (`defer_ocr`)

    @property
    def lines(self) -> list[Line]:
        return [line for page in self.pages for line in page]


def open_pdf(path: Path, max_bytes: int) -> pymupdf.Document:
    """The document, or an `InputError` saying why it cannot be read."""
    check_pdf_file(path, max_bytes)
    try:
        document = pymupdf.open(path, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as error:
        raise InputError(path, f"corrupt PDF, cannot be opened ({error})") from error
    if document.needs_pass and not document.authenticate(""):
        document.close()
        raise InputError(path, "encrypted PDF: it needs a password, so its text cannot be read")
    if document.page_count == 0:
        document.close()
        raise InputError(path, "PDF has no pages (truncated or corrupt)")
    return document


def tesseract_available() -> bool:
    return shutil.which("tesseract") is not None


def _ocr_backend_warning(settings: ExtractSettings) -> str | None:
    """What to tell the user when the configured OCR backend is not the one that runs."""
    if settings.ocr_backend != "nougat":
        return None
    problem = nougat_problem(settings.nougat_checkpoint)
    return f"the nougat OCR backend cannot run ({problem}); Tesseract is used instead" if problem else None


def _why_ocr(page: pymupdf.Page, lines: list[Line]) -> str | None:
    """Why the page's text must come from OCR, or None when its text layer serves."""
    if sum(len(line.text) for line in lines) < _MIN_TEXT_CHARS:
        return _NO_TEXT_LAYER if page.get_images(full=False) else None
    return _UNDECODED if undecoded(lines) else None


def _odd(char: str) -> bool:
    """A character that a text rarely holds but undecoded glyphs often read as: a control or private-use
    code, the replacement character, a Latin-1 letter or sign, a symbol or number beyond the common blocks
    (mathematical and currency signs and letters of any script aside)."""
    code, category = ord(char), unicodedata.category(char)
    if category[0] == "L" and code > 0xFF:
        return False
    if category in ("Cc", "Co") or code == 0xFFFD or 0x80 <= code <= 0xFF:
        return True
    return not (category[0] == "L" or category in ("Nd", "Sm", "Sc") or code < 0x2070)


def undecoded(lines: list[Line]) -> bool:
    """Whether the lines' text is the glyph codes of fonts without a Unicode map rather than text."""
    chars = [char for line in lines for char in line.text if not char.isspace()]
    # Printable ASCII is never odd: its Unicode category need not be looked up (most of a page's characters).
    odd = [char for char in chars if not (char.isascii() and char.isprintable()) and _odd(char)]
    return bool(odd) and len(odd) / len(chars) * len(set(odd)) >= _UNDECODED_SCORE


def ocr_resolution(page: pymupdf.Page, configured: int) -> int:
    """The resolution a scanned page is rendered at for OCR: the configured one, or the scan's own where
    that is lower but at least `_NATIVE_DPI_FLOOR`.

    A scan holds no detail beyond its pixels: rendering a 200-dpi scan at 300 dpi interpolates, and Tesseract
    took about a fifth more time on it for the same references (the two ACL papers scanned at 200 dpi:
    recall and precision 0.976 / 0.988 either way, 8.4–8.5 against 7.0–7.4 CPU s a page). Below the floor
    the configured resolution stays, untested: Tesseract reads small type better from more pixels. The
    scan's resolution is its largest image's pixels over the inches it covers (the image's own dpi tag is
    often wrong)."""
    best: tuple[float, int] | None = None
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        area = (x1 - x0) * (y1 - y0)
        if area > 0 and (best is None or area > best[0]):
            # Pixels over square inches, so that a page turned a quarter needs no pairing of the sides.
            best = (area, round(72 * math.sqrt(info["width"] * info["height"] / area)))
    native = best[1] if best else None
    if native is None or native < _NATIVE_DPI_FLOOR:
        return configured
    return min(configured, native)


def _ocr_lines(page: pymupdf.Page, number: int, settings: ExtractSettings) -> list[Line]:
    """The page's lines as Tesseract reads them, each column of a two-column stretch read on its own
    (`column_regions`), with the bullets Tesseract drops put back; `_even_ocr_sizes` evens their type sizes
    out once they are in reading order and joined.

    Tesseract's size estimate wobbles by a point or more from line to line ("In CVPR, 2016." can come out
    larger than the reference it ends), and a line whose box swallowed its neighbour's comes out half as
    large again, which would read as a change of style or a heading ending the list; only clearly larger
    short lines that open as a heading does keep their own size.
    """
    dpi = ocr_resolution(page, settings.ocr_dpi)
    image = page.get_pixmap(dpi=dpi)
    tessdata = pymupdf.get_tessdata()
    to_page = page.rect.width / image.width  # points per pixel
    ink = ink_of(image)
    # On a rotated page the image is turned against the page's coordinates: it is read whole, as one region.
    upright = page.rotation == 0
    regions = column_regions(ink, dpi) if upright else [Region(0, 0, image.width, image.height)]
    read, documents = [], []  # a textpage needs its document open
    for region in regions:
        # Tesseract's output is a one-page PDF of the region with an invisible text layer, sized by the
        # image's resolution; its words are scaled to the page's points and moved to where the region lies.
        ocr = pymupdf.open(
            stream=crop(image, region).pdfocr_tobytes(
                compress=False, language=settings.ocr_language, tessdata=tessdata
            )
        )
        documents.append(ocr)
        ocr_page = ocr.load_page(0)
        scale = (region.x1 - region.x0) * to_page / ocr_page.rect.width
        to_points = pymupdf.Matrix(scale, scale) * page.derotation_matrix
        textpage = ocr_page.get_textpage(flags=0, matrix=to_points)
        one_column = region.x0 > 0 or region.x1 < image.width
        read.append(OcrRegion(textpage, region.x0 * to_page, region.y0 * to_page, one_column))
    pieces = []
    for piece in ocr_pieces(number, read):
        y0, y1 = int(piece.y0 / to_page), int(piece.y1 / to_page)
        bullet = bullet_left_of(ink, int(piece.x0 / to_page), y0, y1) if upright else None
        if bullet is not None and not piece.text.startswith("•"):
            piece = replace(piece, x0=bullet * to_page, text=f"• {piece.text}")
        pieces.append(piece)
    return merge_pieces(pieces)


def _even_ocr_sizes(lines: list[Line], usual: float) -> list[Line]:
    """An OCR'd page's lines, in reading order and joined, with type sizes evened out to the usual size of
    the document's OCR'd lines (see `_ocr_lines`).

    The usual size is the whole document's, not the page's: a page that holds body text and the start of
    the list evens out to the body's size, a page of references only to the list's, and the list would seem
    to change size at the page break, which ends it."""
    if not lines:
        return lines
    spacing = statistics.median(line.height for line in lines)
    evened: list[Line] = []
    for i, line in enumerate(lines):
        previous = lines[i - 1] if i else None
        # A heading stands apart from the line above it; a line of a list sits at the usual spacing.
        apart = previous is None or previous.column != line.column or line.y0 - previous.y1 > 0.5 * spacing
        heading = line.size > usual * _OCR_LARGER and apart and _heading_shaped(line.text)
        evened.append(line if heading else replace(line, size=usual))
    return evened


def _heading_shaped(text: str) -> bool:
    """Short, not opening in lower case, without a comma and not ending in punctuation, as headings are (a
    line's continuation opens in lower case, a line of names has commas, a title in a list ends in a stop)."""
    return (
        len(text.split()) <= _OCR_HEADING_WORDS
        and not text[:1].islower()
        and "," not in text
        and not text.rstrip().endswith((".", ",", ";", ":", "-"))
    )


def read_pages(document: pymupdf.Document, settings: ExtractSettings, defer_ocr: bool = False) -> PageText:
    """All pages' lines (up to `max_pages`), OCR'ing image-only pages and pages whose text layer does not
    decode, running headers and footers removed.

    With `defer_ocr`, those pages are listed in `scanned_pages` and left empty, for another OCR (nougat) to
    read."""
    result = PageText()
    if document.is_repaired:
        result.warnings.append(
            "the PDF is damaged (truncated or corrupt) and was repaired: pages or text may be missing"
        )
    heights: list[float] = []
    count = min(document.page_count, settings.max_pages)
    if document.page_count > count:
        result.warnings.append(f"only the first {count} of {document.page_count} pages were read (max_pages)")
    ocr_missing: dict[str, list[int]] = {}  # pages left without text, by why they needed OCR
    undecoded_pages: list[int] = []  # pages OCR'd though they had a text layer
    pieces: list[list[Line]] = []  # per page, before pieces on one baseline join (OCR'd pages: joined lines)
    for number in range(count):
        try:
            page = document.load_page(number)
            page_text, page_height = page_pieces(page, number)
            if why := _why_ocr(page, merge_pieces(page_text)):
                if defer_ocr:
                    result.scanned_pages.append(number + 1)
                    page_text = []
                elif not settings.ocr or not tesseract_available():
                    ocr_missing.setdefault(why, []).append(number + 1)
                    page_text = []  # a page number, or glyph codes: no text to read
                else:
                    if not result.ocr_pages and (backend := _ocr_backend_warning(settings)):
                        result.warnings.append(backend)
                    page_text = _ocr_lines(page, number, settings)
                    page_height = page.rect.height  # OCR reads the page as it is shown
                    result.ocr_pages.append(number + 1)
                    if why == _UNDECODED:
                        undecoded_pages.append(number + 1)
            heights.append(page_height)
            pieces.append(page_text)
        except (RuntimeError, ValueError) as error:  # MuPDF's errors for a damaged page or content stream
            result.warnings.append(f"page {number + 1} could not be read and was skipped ({error})")
            heights.append(0.0)
            pieces.append([])
    # Line numbers down the margin go before anything reads the lines: they would join the text they number.
    numbered = line_number_columns(pieces)
    if any(numbered):
        result.warnings.append(
            f"line numbers in the margin were removed on {sum(1 for n in numbered if n)} pages"
        )
    ordered: list[list[Line]] = []
    gutters: list[Gutter] = []
    kept = [
        [piece for i, piece in enumerate(page_text) if i not in drop]
        for page_text, drop in zip(pieces, numbered, strict=True)
    ]
    for number, page_text in enumerate(kept):
        following = kept[number + 1] if number + 1 < len(kept) else []
        lines, gutters = reading_order(page_text, gutters, after=partial(own_gutters, following))
        ordered.append(lines)
    ocr_sizes = [line.size for number in result.ocr_pages for line in ordered[number - 1]]
    usual = statistics.median(ocr_sizes) if ocr_sizes else 0.0
    result.pages = [
        _even_ocr_sizes(lines, usual) if number + 1 in result.ocr_pages else lines
        for number, lines in enumerate(ordered)
    ]
    if undecoded_pages:
        result.warnings.append(f"{_pages_have(undecoded_pages)} {_UNDECODED}")
    for why, pages in ocr_missing.items():
        cause = (
            "OCR is switched off"
            if not settings.ocr
            else "Tesseract (Debian package tesseract-ocr) is not installed"
        )
        were = "was" if len(pages) == 1 else "were"
        result.warnings.append(f"{_pages_have(pages)} {why} and {were} not OCR'd: {cause}")
    result.pages = strip_running_text(result.pages, heights)
    return result


def _pages_have(pages: list[int]) -> str:
    return f"page {pages[0]} has" if len(pages) == 1 else f"pages {_page_list(pages)} have"


def _page_list(pages: list[int]) -> str:
    return ", ".join(map(str, pages[:10])) + (f" and {len(pages) - 10} more" if len(pages) > 10 else "")
