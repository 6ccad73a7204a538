#!/usr/bin/env python
"""Reference extraction from real PDFs, measured against the ground truth in ../shared/data/pdfs.

    python scripts/eval_pdf_extract.py [--data DIR] [--half A|B] [--ignore-headings] [--show ID] [--json OUT]

excite-ssoar-dev (30 PDFs, hand-checked reference strings): reference-level recall and precision. Both
lists are compared in a comparison form (a leading list number such as "12." or "[12]" removed, accents
stripped, case folded, everything but letters and digits of any script dropped); a gold reference is
found when an extracted reference not yet paired has a normalized Indel similarity (rapidfuzz `ratio`/100)
of at least 0.9 with it. Pairing is greedy, best similarity first, one to one. Recall = found gold / gold;
precision = paired extracted / extracted.

The 30 excite PDFs fall into two fixed halves, so that a rule made on one half is judged on the other: the
PDFs sorted by file name (as strings), those at even positions (0, 2, 4, …) form half A, those at odd
positions half B. Every run reports both halves and the worst paper of each; `--half A|B` runs one only.

`--ignore-headings` makes the extractor recognise no heading at all, as if every paper named its list in a
way it does not know: the list must then be found by its shape (a numbered run, or a run of entry-like
blocks). It measures how lists under unknown headings fare, on papers whose headings are known.

arxiv-refextract: reference counts against refextract's (36 / 39 / 104) and whether the DOI / arXiv link
targets its tests list are among the extracted references. acl-grobid-silver: counts against GROBID's TEI
and the share of GROBID's titles (similarity ≥ 0.9) found among the extracted titles.
Timing: wall-clock seconds of `extract_pdf` per PDF (rules only, no LLM), median and maximum.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

from lxml import etree
from rapidfuzz import fuzz

from refhound.agents.extractor import section
from refhound.agents.extractor.extract import extract_pdf
from refhound.agents.extractor.result import Extraction
from refhound.normalize.text import fold

_NON_ALNUM = re.compile(r"[\W_]+")
_NUMBERING = re.compile(r"^\s*(?:\[\d{1,4}\]|\(\d{1,4}\)|\d{1,4}[.)]?\s)\s*")
_TEI = {"tei": "http://www.tei-c.org/ns/1.0"}
THRESHOLD = 0.9


def comparison_form(text: str) -> str:
    return _NON_ALNUM.sub("", fold(_NUMBERING.sub("", text, count=1)))


def pair(gold: list[str], extracted: list[str]) -> list[tuple[int, int, float]]:
    """Greedy one-to-one pairs (gold index, extracted index, similarity) at or above the threshold."""
    gold_forms = [comparison_form(text) for text in gold]
    extracted_forms = [comparison_form(text) for text in extracted]
    scored = [
        (fuzz.ratio(g, e) / 100, gi, ei)
        for gi, g in enumerate(gold_forms)
        for ei, e in enumerate(extracted_forms)
    ]
    scored = [item for item in scored if item[0] >= THRESHOLD]
    scored.sort(reverse=True)
    used_gold: set[int] = set()
    used_extracted: set[int] = set()
    pairs = []
    for score, gi, ei in scored:
        if gi not in used_gold and ei not in used_extracted:
            used_gold.add(gi)
            used_extracted.add(ei)
            pairs.append((gi, ei, score))
    return pairs


def timed_extract(path: Path, timings: list[float]) -> Extraction:
    start = time.perf_counter()
    extraction = extract_pdf(path)
    timings.append(time.perf_counter() - start)
    return extraction


def excite_half(pdfs: list[Path], half: str) -> list[Path]:
    """Half A: the PDFs at even positions of the name-sorted list; half B: those at odd positions."""
    ordered = sorted(pdfs, key=lambda pdf: pdf.name)
    return ordered[{"A": 0, "B": 1}[half] :: 2]


def summarize(rows: list[dict[str, object]]) -> dict[str, object]:
    """Pooled recall and precision of some papers, and the worst paper (lowest recall, then precision)."""
    gold_total = sum(int(row["gold"]) for row in rows)  # type: ignore[call-overload]
    extracted_total = sum(int(row["extracted"]) for row in rows)  # type: ignore[call-overload]
    found_total = sum(int(row["found"]) for row in rows)  # type: ignore[call-overload]
    worst = min(rows, key=lambda row: (float(row["recall"]), float(row["precision"])))  # type: ignore[arg-type]
    return {
        "papers": len(rows),
        "recall": found_total / gold_total if gold_total else 1.0,
        "precision": found_total / extracted_total if extracted_total else 0.0,
        "min_recall": min(float(row["recall"]) for row in rows),  # type: ignore[arg-type]
        "min_precision": min(float(row["precision"]) for row in rows),  # type: ignore[arg-type]
        "worst": f"{worst['id']} (R {float(worst['recall']):.2f}, P {float(worst['precision']):.2f})",  # type: ignore[arg-type]
        "gold": gold_total,
        "extracted": extracted_total,
        "found": found_total,
    }


def excite(root: Path, timings: list[float], show: str | None, half: str | None) -> dict[str, object]:
    rows = []
    all_pdfs = list((root / "pdf").glob("*.pdf"))
    halves = {name: {pdf.stem for pdf in excite_half(all_pdfs, name)} for name in ("A", "B")}
    for pdf in excite_half(all_pdfs, half) if half else sorted(all_pdfs, key=lambda pdf: pdf.name):
        gold = [line.strip() for line in (root / "gold-strings" / f"{pdf.stem}.txt").read_text().splitlines()]
        gold = [line for line in gold if line]
        extraction = timed_extract(pdf, timings)
        extracted = [reference.raw for reference in extraction.references]
        pairs = pair(gold, extracted)
        rows.append(
            {
                "id": pdf.stem,
                "gold": len(gold),
                "extracted": len(extracted),
                "found": len(pairs),
                "recall": len(pairs) / len(gold) if gold else 1.0,
                "precision": len(pairs) / len(extracted) if extracted else 0.0,
                "section": extraction.section,
                "half": "A" if pdf.stem in halves["A"] else "B",
            }
        )
        if show == pdf.stem:
            paired_gold = {gi for gi, _, _ in pairs}
            paired_extracted = {ei for _, ei, _ in pairs}
            print("MISSED gold:\n  " + "\n  ".join(g for i, g in enumerate(gold) if i not in paired_gold))
            print(
                "UNPAIRED extracted:\n  "
                + "\n  ".join(e for i, e in enumerate(extracted) if i not in paired_extracted)
            )
            print("warnings:", extraction.warnings)
    by_half = {
        name: summarize([row for row in rows if row["half"] == name])
        for name in ("A", "B")
        if any(row["half"] == name for row in rows)
    }
    return {**summarize(rows), "papers": rows, "halves": by_half}


_EXPECTED_LINKS = {
    "1503.07589v1.pdf": ["10.1103/PhysRevLett.13.321", "10.1016/j.physletb.2012.08.020", "1207.7214"],
    "2503.05372.pdf": ["10.1103/PhysRevD.68.037502"],
}


def arxiv(root: Path, timings: list[float]) -> list[dict[str, object]]:
    expected = json.loads((root / "expected_from_refextract_tests.json").read_text())
    rows = []
    for name, facts in expected.items():
        if name.startswith("_"):
            continue
        extraction = timed_extract(root / name, timings)
        found_ids = {
            (value or "").lower()
            for reference in extraction.references
            for value in (reference.parsed.doi, reference.parsed.arxiv_id, *reference.links)
        }
        targets = _EXPECTED_LINKS.get(name, [])
        hits = [t for t in targets if any(t.lower() in found for found in found_ids)]
        first = extraction.references[0].raw if extraction.references else ""
        last = extraction.references[-1].raw if extraction.references else ""
        rows.append(
            {
                "pdf": name,
                "expected": facts["n_references"],
                "extracted": len(extraction.references),
                "links_expected": targets,
                "links_found": hits,
                "first": first[:120],
                "last": last[:120],
            }
        )
    return rows


def grobid_titles(tei: Path) -> list[str]:
    tree = etree.parse(str(tei))
    titles = []
    for struct in tree.iterfind(".//tei:listBibl/tei:biblStruct", _TEI):
        title = struct.find("tei:analytic/tei:title", _TEI)
        if title is None:
            title = struct.find("tei:monogr/tei:title", _TEI)
        titles.append("".join(title.itertext()) if title is not None else "")
    return titles


def acl(root: Path, timings: list[float]) -> list[dict[str, object]]:
    rows = []
    for pdf in sorted(root.glob("*.pdf")):
        titles = grobid_titles(pdf.with_suffix(".tei.xml"))
        extraction = timed_extract(pdf, timings)
        ours = [reference.parsed.title or "" for reference in extraction.references]
        pairs = pair([t for t in titles if t], ours)
        rows.append(
            {
                "pdf": pdf.name,
                "grobid": len(titles),
                "extracted": len(extraction.references),
                "titles_agree": len(pairs),
                "titles_grobid": sum(1 for t in titles if t),
            }
        )
    return rows


def ocr(root: Path, scratch: Path) -> dict[str, object]:
    """OCR on a real reference list: pages 32–34 of excite 46445 rendered to images (200 dpi) and written as
    an image-only PDF; its OCR'd references are paired (rule above) with those the text layer gives."""
    import pymupdf

    source = pymupdf.open(root / "pdf" / "46445.pdf")
    scan = pymupdf.open()
    for number in range(31, 34):
        page = scan.new_page(width=source[number].rect.width, height=source[number].rect.height)
        page.insert_image(page.rect, pixmap=source[number].get_pixmap(dpi=200))
    scratch.mkdir(parents=True, exist_ok=True)
    scan.save(scratch / "scan-46445.pdf")
    start = time.perf_counter()
    ocred = extract_pdf(scratch / "scan-46445.pdf").references
    seconds = time.perf_counter() - start
    text_layer = [r.raw for r in extract_pdf(root / "pdf" / "46445.pdf").references if 32 <= r.page <= 34]
    found = len(pair(text_layer, [r.raw for r in ocred]))
    return {"pages": 3, "seconds": seconds, "text_layer": len(text_layer), "ocr": len(ocred), "paired": found}


@contextlib.contextmanager
def headings_ignored(active: bool) -> Iterator[None]:
    """With `active`, no line is taken for a reference-list heading (the pattern matches nothing)."""
    if not active:
        yield
        return
    with mock.patch.object(section, "_HEADING", re.compile(r"(?!)")):
        yield


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data/pdfs"))
    parser.add_argument("--half", choices=("A", "B"), help="only this half of excite-ssoar-dev (see above)")
    parser.add_argument(
        "--ignore-headings", action="store_true", help="recognise no heading: find every list by its shape"
    )
    parser.add_argument("--show", help="print the misses of one excite paper id")
    parser.add_argument("--json", type=Path, help="write all figures as JSON")
    parser.add_argument("--ocr", action="store_true", help="also OCR three scanned pages (needs tesseract)")
    args = parser.parse_args()
    timings: list[float] = []
    with headings_ignored(args.ignore_headings):
        result = {
            "excite": excite(args.data / "excite-ssoar-dev", timings, args.show, args.half),
            "arxiv": arxiv(args.data / "arxiv-refextract", timings),
            "acl": acl(args.data / "acl-grobid-silver", timings),
        }
    result["seconds"] = {"pdfs": len(timings), "median": statistics.median(timings), "max": max(timings)}
    ex = result["excite"]
    summary = "excite-ssoar-dev: recall {recall:.3f} precision {precision:.3f} (gold {gold}, "
    summary += "extracted {extracted}, found {found}); "
    summary += "per-paper min recall {min_recall:.3f}, min precision {min_precision:.3f}"
    print(summary.format(**ex))
    for name, figures in ex["halves"].items():
        print(
            f"  half {name} ({{papers}} papers): recall {{recall:.3f}} precision {{precision:.3f}}; "
            "min recall {min_recall:.3f}; worst paper {worst}".format(**figures)
        )
    for row in ex["papers"]:
        print(
            "  {half} {id:>6} gold {gold:>3} extracted {extracted:>3} found {found:>3} "
            "R {recall:.2f} P {precision:.2f}  {section}".format(**row)
        )
    for row in result["arxiv"]:
        print(
            "arxiv {pdf}: {extracted} refs (refextract {expected}); links found {links_found} of "
            "{links_expected}".format(**row)
        )
        print("   first:", row["first"], "\n   last: ", row["last"])
    for row in result["acl"]:
        print(
            "acl {pdf}: {extracted} refs (GROBID {grobid}); titles agreeing with GROBID's {titles_agree}/"
            "{titles_grobid}".format(**row)
        )
    print("seconds per PDF: median {median:.3f}, max {max:.3f} over {pdfs} PDFs".format(**result["seconds"]))
    if args.ocr:
        result["ocr"] = ocr(args.data / "excite-ssoar-dev", Path("bench-out/pdf"))
        print(
            "OCR, 3 scanned pages of excite 46445: {ocr} references, {paired} of the text layer's "
            "{text_layer} paired; {seconds:.1f} s".format(**result["ocr"])
        )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
