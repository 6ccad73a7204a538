#!/usr/bin/env python
"""Scanned manuscripts: the PDFs of ../shared rendered to page images (no text layer), read through OCR.

    python scripts/bench_scanned.py [--data ../shared/data/pdfs] [--dpi 200] [--acl] [--half A|B] [--limit N]
                                    [--pdf NAME ...]
                                    [--max-pages N] [--out bench-out/scanned] [--json OUT] [--dump DIR]
                                    [--ocr-dpi N] [--ocr-cache DIR]

Not part of CI: Tesseract takes seconds per page. Each PDF is rendered page by page at `--dpi` into a new PDF
holding only images (kept under `--out`, reused on the next run), and `extract_pdf` reads it (rules only, no
LLM); the same PDF's text layer is read too. Both are paired with the gold reference strings the way
scripts/eval_pdf_extract.py pairs them (normalised Indel similarity ≥ 0.9, greedy, one to one), and recall and
precision are reported beside each other, with seconds per page of the scan's extraction, wall-clock and
CPU (this process's: Tesseract runs inside it through MuPDF), the latter less swayed by other work on the
machine.

Gold: excite-ssoar-dev's hand-checked reference strings; for the two ACL papers (`--acl`) GROBID's raw
reference strings from their TEI files, which are silver (GROBID's own output, not checked by hand). `--half`
takes the excite dev half of eval_pdf_extract.py, `--max-pages` its PDFs of at most N pages, `--limit` the
first N of those, `--pdf NAME` (repeatable) only the PDFs of that name.

`--dump DIR` writes, per PDF, the gold strings no extracted reference paired with, the extracted references
that paired with no gold string (each with its best similarity and the string it came closest to), and the
pairs. `--ocr-cache DIR` keeps Tesseract's output per page image (keyed by the image's pixels, language and
the call's options) so that a rerun after a change downstream of OCR skips Tesseract; its seconds per page
then measure everything but Tesseract, and the summary says how many pages came from the cache.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import pymupdf
from lxml import etree

sys.path.insert(0, str(Path(__file__).parent))

from eval_pdf_extract import THRESHOLD, comparison_form, excite_half, pair
from rapidfuzz import fuzz

from refhound.agents.extractor.extract import extract_pdf
from refhound.settings import Settings

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


_cache_hits = [0, 0]  # pages read from the OCR cache, pages OCR'd


def cache_ocr(directory: Path) -> None:
    """Tesseract's output (the one-page PDF MuPDF makes of a page image) kept per image under `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    original = pymupdf.Pixmap.pdfocr_tobytes

    def cached(pixmap: pymupdf.Pixmap, *args: object, **kwargs: object) -> bytes:
        key = hashlib.sha256(pixmap.samples)
        key.update(repr((pixmap.width, pixmap.height, pixmap.n, args, sorted(kwargs.items()))).encode())
        path = directory / f"{key.hexdigest()}.pdf"
        if path.exists():
            _cache_hits[0] += 1
            return path.read_bytes()
        _cache_hits[1] += 1
        data: bytes = original(pixmap, *args, **kwargs)
        path.write_bytes(data)
        return data

    pymupdf.Pixmap.pdfocr_tobytes = cached  # type: ignore[method-assign]


def dump(path: Path, gold: list[str], extracted: list[str]) -> None:
    """The unpaired gold and extracted strings, each with its closest counterpart, then the pairs."""
    pairs = pair(gold, extracted)
    gold_forms = [comparison_form(text) for text in gold]
    extracted_forms = [comparison_form(text) for text in extracted]

    def closest(form: str, others: list[str], texts: list[str]) -> str:
        if not others:
            return "(nothing)"
        score, index = max((fuzz.ratio(form, other) / 100, i) for i, other in enumerate(others))
        return f"{score:.2f} {texts[index]}"

    paired_gold = {gi for gi, _, _ in pairs}
    paired_extracted = {ei for _, ei, _ in pairs}
    out = [f"threshold {THRESHOLD}; {len(pairs)} pairs, {len(gold)} gold, {len(extracted)} extracted", ""]
    out.append("MISSED gold (closest extracted):")
    for gi, text in enumerate(gold):
        if gi not in paired_gold:
            out += [f"  G{gi}: {text}", f"     ~ {closest(gold_forms[gi], extracted_forms, extracted)}"]
    out += ["", "UNPAIRED extracted (closest gold):"]
    for ei, text in enumerate(extracted):
        if ei not in paired_extracted:
            out += [f"  E{ei}: {text}", f"     ~ {closest(extracted_forms[ei], gold_forms, gold)}"]
    out += ["", "PAIRS:"]
    for gi, ei, score in sorted(pairs, key=lambda item: item[1]):
        out += [f"  E{ei} {score:.2f} G{gi}: {extracted[ei]}", f"           gold: {gold[gi]}"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")


def measure(
    pdf: Path, gold: list[str], scan: Path, settings: Settings, dump_dir: Path | None = None
) -> dict[str, object]:
    text_layer = [reference.raw for reference in extract_pdf(pdf).references]
    start, cpu_start = time.perf_counter(), time.process_time()
    extraction = extract_pdf(scan, settings)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    ocr = [reference.raw for reference in extraction.references]
    pages = extraction.pages or 1
    found_text, found_ocr = len(pair(gold, text_layer)), len(pair(gold, ocr))
    if dump_dir is not None:
        dump(dump_dir / f"{pdf.stem}.txt", gold, ocr)
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
        "cpu_seconds": cpu_seconds,
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
    parser.add_argument("--pdf", action="append", help="only this PDF of the half (a file name; repeatable)")
    parser.add_argument("--max-pages", type=int, help="only the half's PDFs of at most N pages")
    parser.add_argument("--out", type=Path, default=Path("bench-out/scanned"))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--dump", type=Path, help="write missed and unpaired strings per PDF here")
    parser.add_argument("--ocr-dpi", type=int, help="extract.ocr_dpi (default: the settings' default)")
    parser.add_argument("--ocr-cache", type=Path, help="keep Tesseract's output per page image here")
    args = parser.parse_args()
    settings = Settings(extract={"ocr_dpi": args.ocr_dpi}) if args.ocr_dpi else Settings()
    if args.ocr_cache:
        cache_ocr(args.ocr_cache)
    jobs: list[tuple[str, Path, list[str]]] = []
    if args.acl:
        for pdf in sorted((args.data / "acl-grobid-silver").glob("*.pdf")):
            jobs.append(("acl (GROBID silver)", pdf, grobid_raw(pdf.with_suffix(".tei.xml"))))
    if args.half:
        excite = args.data / "excite-ssoar-dev"
        pdfs = excite_half(list((excite / "pdf").glob("*.pdf")), args.half)
        if args.max_pages:
            pdfs = [pdf for pdf in pdfs if pymupdf.open(pdf).page_count <= args.max_pages]
        if args.pdf:
            pdfs = [pdf for pdf in pdfs if pdf.name in args.pdf]
        pdfs = pdfs[: args.limit]
        for pdf in pdfs:
            gold = [g.strip() for g in (excite / "gold-strings" / f"{pdf.stem}.txt").read_text().splitlines()]
            jobs.append((f"excite {args.half}", pdf, [g for g in gold if g]))
    rows = []
    for group, pdf, gold in jobs:
        scan = render_scan(pdf, args.out / f"{args.dpi}dpi" / pdf.name, args.dpi)
        row = {"group": group, **measure(pdf, gold, scan, settings, args.dump)}
        rows.append(row)
        print(
            "{group:<20} {pdf:<24} gold {gold:>3}  text R {text_recall:.2f} P {text_precision:.2f}  "
            "OCR R {ocr_recall:.2f} P {ocr_precision:.2f} ({ocr_found}/{ocr_extracted})  "
            "{seconds_per_page:.1f} s/page ({cpu_per_page:.1f} CPU)  {section}".format(
                **row,
                cpu_per_page=float(row["cpu_seconds"]) / int(row["pages"]),  # type: ignore[call-overload]
            ),
            flush=True,
        )
    for group in dict.fromkeys(row["group"] for row in rows):
        chosen = [row for row in rows if row["group"] == group]
        gold = sum(int(row["gold"]) for row in chosen)  # type: ignore[call-overload]
        found = sum(int(row["ocr_found"]) for row in chosen)  # type: ignore[call-overload]
        extracted = sum(int(row["ocr_extracted"]) for row in chosen)  # type: ignore[call-overload]
        pages = sum(int(row["pages"]) for row in chosen)  # type: ignore[call-overload]
        seconds = sum(float(row["ocr_seconds"]) for row in chosen)  # type: ignore[arg-type]
        cpu = sum(float(row["cpu_seconds"]) for row in chosen)  # type: ignore[arg-type]
        print(
            f"{group}: {len(chosen)} PDFs, OCR recall {found / gold:.3f} precision "
            f"{found / max(1, extracted):.3f} ({found} of {gold} gold, {extracted} extracted); "
            f"{seconds / pages:.1f} s per page ({cpu / pages:.1f} CPU seconds) over {pages} pages"
        )
    if args.ocr_cache:
        print(f"OCR cache: {_cache_hits[0]} page images read from it, {_cache_hits[1]} OCR'd")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
