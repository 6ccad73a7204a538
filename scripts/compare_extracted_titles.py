#!/usr/bin/env python
"""How many titles of another tool's reference lists the extractor and parser find in the same PDFs.

    python scripts/compare_extracted_titles.py DIR [--show]

DIR holds pairs `NAME.pdf` and `NAME.json`, the JSON a list of objects with a "title" (as RefChecker's
`bibliography.json` files are). Every PDF goes through `extract_pdf` and `parse_reference_string`; a listed
title is found when a parsed title has `title_similarity` of at least 0.9 with it. The other list is not a
gold standard (an LLM or another parser wrote it): a title it lists that no parsed title matches is a place
to look, not an error proven. `--show` lists those titles with the closest parsed one.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from refhound.agents.extractor.extract import extract_pdf
from refhound.normalize.titles import title_similarity
from refhound.refstring.parse import parse_reference_string

_FOUND = 0.9


def _parsed_titles(pdf: Path) -> list[str]:
    return [t for t in (parse_reference_string(ref.raw).title for ref in extract_pdf(pdf).references) if t]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--show", action="store_true", help="list the titles not found")
    args = parser.parse_args()
    listed = found = extracted = 0
    for pdf in sorted(args.dir.glob("*.pdf")):
        titles = [
            item["title"] for item in json.loads(pdf.with_suffix(".json").read_text()) if item.get("title")
        ]
        ours = _parsed_titles(pdf)
        hits = 0
        for title in titles:
            score, best = max(((title_similarity(title, t), t) for t in ours), default=(0.0, ""))
            if score >= _FOUND:
                hits += 1
            elif args.show:
                print(f"  {pdf.name}: {title!r} (closest: {best!r})")
        print(f"{pdf.name}: {hits} of {len(titles)} listed titles found; {len(ours)} references parsed")
        listed, found, extracted = listed + len(titles), found + hits, extracted + len(ours)
    print(f"all: {found} of {listed} listed titles found ({found / max(listed, 1):.3f}); {extracted} parsed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
