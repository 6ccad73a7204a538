#!/usr/bin/env python
"""Layout analysis time per real PDF, and a fingerprint of its output to show a change leaves it unchanged.

    python scripts/bench_layout.py [--data DIR] [--runs 3] [--save OUT.json] [--compare BEFORE.json]
    python scripts/bench_layout.py --synthetic 6000

`--synthetic N` times `_merge_same_baseline` alone on one page of N pieces that never join (a dense table:
cells of 8 pt type in rows 10 pt apart, columns 30 pt apart), the case where comparing every pair was
quadratic (a plot or a table of thousands of labels on one page).

For every PDF under `DIR` (default ../shared/data/pdfs, all folders), times `read_pages` (text lines of
every page, baseline merging, columns, reading order, running text removed: the layout stage, no OCR)
best of `--runs` (CPU seconds of this process). Prints the five slowest PDFs. `--save` writes each PDF's
time and a SHA-256 of its lines (page, box rounded to 0.01 pt, text, size, bold, column, marker);
`--compare` checks the lines against a saved run and names every PDF whose layout output differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path

from refhound.pdf.document import open_pdf, read_pages
from refhound.settings import ExtractSettings


def fingerprint(path: Path, settings: ExtractSettings) -> tuple[str, int]:
    document = open_pdf(path, settings.max_bytes)
    try:
        text = read_pages(document, settings)
    finally:
        document.close()
    digest = hashlib.sha256()
    for line in text.lines:
        box = ",".join(f"{value:.2f}" for value in (line.x0, line.y0, line.x1, line.y1))
        digest.update(
            f"{line.page}|{box}|{line.text}|{line.size}|{line.bold}|{line.column}|{line.marker}\n".encode()
        )
    return digest.hexdigest(), len(text.lines)


def best_time(path: Path, settings: ExtractSettings, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        fingerprint(path, settings)
        best = min(best, time.process_time() - start)
    return best


def synthetic(pieces: int) -> float:
    from refhound.pdf.layout import Line, _merge_same_baseline

    per_row = 18
    lines = [
        Line(0, 20 + (i % per_row) * 30.0, 20 + (i // per_row) * 10.0, 40 + (i % per_row) * 30.0,
             28 + (i // per_row) * 10.0, f"c{i}", 8.0, False)
        for i in range(pieces)
    ]  # fmt: skip
    start = time.process_time()
    merged = _merge_same_baseline(lines)
    seconds = time.process_time() - start
    assert len(merged) == pieces
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data/pdfs"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--synthetic", type=int, help="time the baseline merge on N pieces of one page")
    args = parser.parse_args()
    if args.synthetic:
        print(f"_merge_same_baseline, {args.synthetic} pieces: {synthetic(args.synthetic):.3f} CPU s")
        return
    settings = ExtractSettings(ocr=False)
    rows = {}
    for pdf in sorted(args.data.rglob("*.pdf")):
        digest, lines = fingerprint(pdf, settings)
        rows[str(pdf.relative_to(args.data))] = {
            "cpu_seconds": best_time(pdf, settings, args.runs),
            "lines": lines,
            "sha256": digest,
        }
    slowest = sorted(rows.items(), key=lambda item: -item[1]["cpu_seconds"])
    total = sum(row["cpu_seconds"] for row in rows.values())
    print(f"{len(rows)} PDFs, layout CPU seconds (best of {args.runs}): total {total:.2f}")
    for name, row in slowest[:5]:
        print(f"  {row['cpu_seconds']:7.3f} s  {row['lines']:6d} lines  {name}")
    if args.compare:
        before = json.loads(args.compare.read_text())
        changed = [name for name, row in rows.items() if before.get(name, {}).get("sha256") != row["sha256"]]
        print(f"layout output differs from {args.compare} on {len(changed)} of {len(rows)} PDFs: {changed}")
    if args.save:
        args.save.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
