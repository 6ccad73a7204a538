#!/usr/bin/env python3
"""How long the web stage takes to read a page's bibliographic metadata (`records_from_html`).

Every crawled search result and every URL a reference cites goes through it. Times each page of the web
tests' fixtures (arXiv abstract pages, ACL Anthology and dblp pages, a publisher page with citation_*
tags, Dublin Core, JSON-LD, pages without metadata) and the same publisher page padded to the web
stage's body cap (2 MiB of article text after the metadata), as a long full-text page.

    python scripts/bench_web_metadata.py --repeat 200
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from refhound.settings import WebSettings
from refhound.web.metadata import needs_javascript, records_from_html

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "web" / "fixtures"


def timed_ms(html: str, url: str, repeat: int) -> tuple[float, float, int]:
    """Median and p95 milliseconds of one read, and the records found."""
    times = []
    found = 0
    for _ in range(repeat):
        started = time.perf_counter()
        records = records_from_html(url, html)
        if not records:
            needs_javascript(html)  # what the crawler asks next of a page without metadata
        times.append((time.perf_counter() - started) * 1000)
        found = len(records)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], found


def padded(html: str, size: int) -> str:
    paragraph = "<p>" + "Deep residual networks ease the training of very deep models. " * 20 + "</p>\n"
    body = paragraph * (size // len(paragraph) + 1)
    return html.replace("</body>", body[: max(0, size - len(html))] + "</body>")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    pages = {path.name: path.read_text(encoding="utf-8") for path in sorted(FIXTURES.glob("*.html"))}
    cap = WebSettings().max_page_bytes
    pages[f"publisher-nature14539.html padded to {cap // 1024} KiB"] = padded(
        pages["publisher-nature14539.html"], cap
    )
    print(f"records_from_html, median of {args.repeat} reads per page\n")
    print("| page | KiB | records | median ms | p95 ms |")
    print("|---|---:|---:|---:|---:|")
    for name, html in pages.items():
        median, p95, found = timed_ms(html, "https://example.org/paper", args.repeat)
        print(f"| {name} | {len(html.encode()) / 1024:,.1f} | {found} | {median:.3f} | {p95:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
