#!/usr/bin/env python
"""Scanned manuscripts: the PDFs of ../shared rendered to page images (no text layer), read through OCR.

    python scripts/bench_scanned.py [--data ../shared/data/pdfs] [--dpi 200] [--acl] [--half A|B] [--limit N]
                                    [--max-pages N] [--out bench-out/scanned] [--json OUT]

Not part of CI: Tesseract takes seconds per page. Each PDF is rendered page by page at `--dpi` into a new PDF
holding only images (kept under `--out`, reused on the next run), and `extract_pdf` reads it (rules only, no
LLM); the same PDF's text layer is read too. Both are paired with the gold reference strings the way
scripts/eval_pdf_extract.py pairs them (normalised Indel similarity ≥ 0.9, greedy, one to one), and recall and
precision are reported beside each other, with OCR seconds per page.

Gold: excite-ssoar-dev's hand-checked reference strings; for the two ACL papers (`--acl`) GROBID's raw
reference strings from their TEI files, which are silver (GROBID's own output, not checked by hand). `--half`
takes the excite dev half of eval_pdf_extract.py, `--max-pages` its PDFs of at most N pages, `--limit` the
first N of those.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import pymupdf
from lxml import etree

sys.path.insert(0, str(Path(__file__).parent))

from eval_pdf_extract import excite_half, pair

from refhound.agents.extractor.extract import extract_pdf

_TEI = {"tei": "http://www.tei-c.org/ns/1.0"}


def render_scan(source: Path, target: Path, dpi: int) -> Path:
    """`source` with every page replaced by an image of itself: a PDF with no text layer."""
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with pymupdf.open(source) as original, pymupdf.open() as scan:
        for page in original:
            image = page.get_pixmap(dpi=dpi).tobytes("png")
            new = scan.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, stream=image)
        scan.save(target)
    return target


def grobid_raw(tei: Path) -> list[str]:
    tree = etree.parse(str(tei))
    notes = tree.iterfind(".//tei:listBibl/tei:biblStruct/tei:note[@type='raw_reference']", _TEI)
    return [" ".join("".join(note.itertext()).split()) for note in notes]


def measure(pdf: Path, gold: list[str], scan: Path) -> dict[str, object]:
    text_layer = [reference.raw for reference in extract_pdf(pdf).references]
    start = time.perf_counter()
    extraction = extract_pdf(scan)
    seconds = time.perf_counter() - start
    ocr = [reference.raw for reference in extraction.references]
    pages = extraction.pages or 1
    found_text, found_ocr = len(pair(gold, text_layer)), len(pair(gold, ocr))
    return {
        "pdf": pdf.name,
        "gold": len(gold),
        "pages": pages,
        "text_recall": found_text / len(gold) if gold else 1.0,
        "text_precision": found_text / len(text_layer) if text_layer else 0.0,
        "ocr_extracted": len(ocr),
        "ocr_found": found_ocr,
        "ocr_recall": found_ocr / len(gold) if gold else 1.0,
        "ocr_precision": found_ocr / len(ocr) if ocr else 0.0,
        "ocr_seconds": seconds,
        "seconds_per_page": seconds / pages,
        "section": extraction.section,
        "warnings": [w for w in extraction.warnings if "OCR" in w or "read by" in w],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data/pdfs"))
    parser.add_argument("--dpi", type=int, default=200)
    parser.add_argument("--acl", action="store_true", help="the two ACL papers (GROBID silver gold)")
    parser.add_argument("--half", choices=("A", "B"), help="an excite-ssoar-dev half")
    parser.add_argument("--limit", type=int, help="only the first N PDFs of the half")
    parser.add_argument("--max-pages", type=int, help="only the half's PDFs of at most N pages")
    parser.add_argument("--out", type=Path, default=Path("bench-out/scanned"))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    jobs: list[tuple[str, Path, list[str]]] = []
    if args.acl:
        for pdf in sorted((args.data / "acl-grobid-silver").glob("*.pdf")):
            jobs.append(("acl (GROBID silver)", pdf, grobid_raw(pdf.with_suffix(".tei.xml"))))
    if args.half:
        excite = args.data / "excite-ssoar-dev"
        pdfs = excite_half(list((excite / "pdf").glob("*.pdf")), args.half)
        if args.max_pages:
            pdfs = [pdf for pdf in pdfs if pymupdf.open(pdf).page_count <= args.max_pages]
        pdfs = pdfs[: args.limit]
        for pdf in pdfs:
            gold = [g.strip() for g in (excite / "gold-strings" / f"{pdf.stem}.txt").read_text().splitlines()]
            jobs.append((f"excite {args.half}", pdf, [g for g in gold if g]))
    rows = []
    for group, pdf, gold in jobs:
        scan = render_scan(pdf, args.out / f"{args.dpi}dpi" / pdf.name, args.dpi)
        row = {"group": group, **measure(pdf, gold, scan)}
        rows.append(row)
        print(
            "{group:<20} {pdf:<24} gold {gold:>3}  text R {text_recall:.2f} P {text_precision:.2f}  "
            "OCR R {ocr_recall:.2f} P {ocr_precision:.2f} ({ocr_found}/{ocr_extracted})  "
            "{seconds_per_page:.1f} s/page  {section}".format(**row),
            flush=True,
        )
    for group in dict.fromkeys(row["group"] for row in rows):
        chosen = [row for row in rows if row["group"] == group]
        gold = sum(int(row["gold"]) for row in chosen)  # type: ignore[call-overload]
        found = sum(int(row["ocr_found"]) for row in chosen)  # type: ignore[call-overload]
        extracted = sum(int(row["ocr_extracted"]) for row in chosen)  # type: ignore[call-overload]
        pages = sum(int(row["pages"]) for row in chosen)  # type: ignore[call-overload]
        seconds = sum(float(row["ocr_seconds"]) for row in chosen)  # type: ignore[arg-type]
        print(
            f"{group}: {len(chosen)} PDFs, OCR recall {found / gold:.3f} precision "
            f"{found / max(1, extracted):.3f} ({found} of {gold} gold, {extracted} extracted); "
            f"{seconds / pages:.1f} s per page over {pages} pages"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
