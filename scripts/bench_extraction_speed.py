#!/usr/bin/env python
"""Extraction time per text PDF, in-process: `extract_pdf` (rules only) on every PDF of ../shared, CPU
seconds best of 3 per PDF, then the median, mean and maximum over the PDFs.

    python scripts/bench_extraction_speed.py [--data ../shared/data/pdfs] [--runs 3]

CPU time of this process (`time.process_time`), so that other work on a shared machine inflates it less than
wall-clock time; OCR is off for these PDFs, which all have a text layer.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from refhound.agents.extractor.extract import extract_pdf


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data/pdfs"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    best = []
    for pdf in sorted(args.data.rglob("*.pdf")):
        times = []
        for _ in range(args.runs):
            start = time.process_time()
            extract_pdf(pdf)
            times.append(time.process_time() - start)
        best.append(min(times))
    print(
        f"{len(best)} PDFs, CPU seconds per PDF (best of {args.runs}): median {statistics.median(best):.3f}, "
        f"mean {statistics.mean(best):.3f}, max {max(best):.3f}"
    )


if __name__ == "__main__":
    main()
