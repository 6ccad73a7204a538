#!/usr/bin/env python
"""Speed of the quote checker.

    python scripts/bench_quotes.py [--data DIR] [--repeat N] [--json OUT]

1. Locating one 1,000-character quote in a 300 KB source (targets: < 20 ms), by layer: exact; normalized
   (curly apostrophes, "The" for "the", line breaks joined: the exact search fails first); fuzzy (three
   edits: edlib); not found (1,000 characters of other prose: every layer runs and fails). "warm" reuses
   the source's normalized form and q-gram index, as every quote after the first does; "cold" builds them.
2. A 50-quote Markdown report citing 20 sources (local text files of 40–60 KB), checked after its sources
   are read (target: < 1 s): 30 verbatim quotes, 10 with typographic changes, 5 altered (near_match), 5
   fabricated (not_found). Reading the 20 sources is timed apart.

The prose is the real text of ../shared/data/pdfs when present (the extractor's text layer), else a
deterministic pseudo-text, so the script runs on a fresh clone too. Times are medians of `--repeat` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from refhound.quotes.check import check_document
from refhound.quotes.document import Document
from refhound.quotes.fetch import SourceFetcher
from refhound.quotes.match import Haystack, locate
from refhound.quotes.models import Target
from refhound.quotes.textof import pdf_to_text
from refhound.settings import ExtractSettings, QuotesSettings, Settings

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "pdfs"
_WORDS = (
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be", "by", "on",
    "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "they", "you",
    "were", "her", "she", "there", "been", "one", "all", "we", "their", "has", "would", "when", "if", "so",
    "what", "can", "no", "said", "who", "more", "will", "evidence", "court", "model", "data", "results",
    "study", "method", "analysis", "sample", "effect", "theory", "policy", "market", "system",
)  # fmt: skip


def corpus(data: Path) -> tuple[str, str]:
    """Real prose from the PDFs (or pseudo-text), and a description of where it came from."""
    if data.exists():
        extract = ExtractSettings(ocr=False)
        texts = [pdf_to_text(pdf, extract)[0] for pdf in sorted(data.rglob("*.pdf"))]
        return "\n\n".join(texts), f"text of {len(texts)} PDFs in {data}"
    rng = random.Random(1)
    words = [rng.choice(_WORDS) for _ in range(400_000)]
    return " ".join(words), "pseudo-text (../shared absent)"


def _median_ms(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        function()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def _quote_at(text: str, start: int, size: int) -> str:
    """About `size` characters of `text` from a word start near `start`, as a reader copies them (words
    broken at a line end made whole, whitespace single)."""
    start = text.index(" ", start) + 1
    end = text.rindex(" ", start, start + size + 20)
    return " ".join(re.sub(r"(?<=[a-z])-\n(?=[a-z])", "", text[start:end]).split())


def bench_locate(text: str, repeat: int) -> dict[str, float]:
    settings = QuotesSettings()
    source = text[:300_000]
    start = source.index(" ", 150_000) + 1
    quote = source[start : source.rindex(" ", start, start + 1020)]  # as printed: exact
    typographic = " ".join(quote.split()).replace(" the ", " The ").replace("'", "\u2019")
    typographic = typographic.replace('"', "\u201d")
    edited = list(quote)
    for position in (200, 500, 800):
        edited[position] = "#"
    fuzzy = "".join(edited)
    other = _quote_at(text[300_000:] if len(text) > 400_000 else text[::-1], 10_000, 1000)
    warm = Haystack(source)
    warm.grams  # noqa: B018  (normalized and indexed once, as for every quote after the first)
    cases = {"exact": quote, "normalized": typographic, "fuzzy": fuzzy, "not_found": other}
    results: dict[str, float] = {"quote_chars": float(len(quote)), "source_chars": float(len(source))}
    for name, needle in cases.items():
        status = locate(needle, warm, settings).status

        def warm_run(needle: str = needle) -> object:
            return locate(needle, warm, settings)

        def cold_run(needle: str = needle) -> object:
            return locate(needle, Haystack(source), settings)

        results[f"{name}_warm_ms"] = _median_ms(warm_run, repeat)
        results[f"{name}_cold_ms"] = _median_ms(cold_run, repeat)
        print(f"  {name:<11} → {status:<10} warm {results[f'{name}_warm_ms']:7.2f} ms   "
              f"cold {results[f'{name}_cold_ms']:7.2f} ms")  # fmt: skip
    return results


def _report(directory: Path, text: str, rng: random.Random) -> Path:
    """20 source files and a 50-quote Markdown report citing them."""
    sources = []
    for number in range(1, 21):
        start = rng.randrange(0, max(1, len(text) - 60_000))
        body = text[start : start + rng.randrange(40_000, 60_000)]
        path = directory / f"source{number:02d}.txt"
        path.write_text(body, encoding="utf-8")
        sources.append(body)
    lines = ["# A report", ""]
    for index in range(50):
        number = index % 20 + 1
        body = sources[number - 1]
        quote = '"'
        while '"' in quote:  # a quotation mark inside would end the quote early
            quote = _quote_at(body, rng.randrange(0, len(body) - 2000), rng.randrange(80, 400))
        if 30 <= index < 40:
            quote = quote[:1].swapcase() + quote[1:].replace("'", "\u2019").replace(" - ", " \u2014 ")
        elif 40 <= index < 45:
            words = quote.split()
            words.insert(len(words) // 2, "significantly")
            quote = " ".join(words)
        elif index >= 45:
            quote = " ".join(rng.sample(_WORDS, 30))
        lines += [f"Finding {index}: the source says \u201c{quote}\u201d [{number}].", ""]
    lines += [f"[{n}]: source{n:02d}.txt" for n in range(1, 21)]
    report = directory / "report.md"
    report.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return report


async def _check_report(report: Path, repeat: int) -> dict[str, float]:
    settings = Settings()
    settings.check.offline = True
    settings.quotes.link_check = False
    document = Document(report, report.read_text(encoding="utf-8"), "markdown")
    read_times, check_times = [], []
    counts: dict[str, int] = {}
    for _ in range(repeat):
        fetcher = SourceFetcher(settings, None)
        began = time.perf_counter()
        for number in range(1, 21):
            await fetcher.get(Target("file", str(report.parent / f"source{number:02d}.txt")))
        read_times.append(time.perf_counter() - began)
        began = time.perf_counter()
        result = await check_document(document, settings, fetcher=fetcher)
        check_times.append(time.perf_counter() - began)
        counts = result.counts()
    print(f"  50 quotes, 20 sources: read {statistics.median(read_times) * 1000:.1f} ms, "
          f"checked in {statistics.median(check_times) * 1000:.1f} ms  {counts}")  # fmt: skip
    return {
        "read_sources_ms": statistics.median(read_times) * 1000,
        "check_after_read_ms": statistics.median(check_times) * 1000,
        **{f"count_{k}": float(v) for k, v in counts.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    text, origin = corpus(args.data)
    print(f"prose: {origin}, {len(text):,} characters")
    print("1,000-character quote in a 300 KB source (median of runs):")
    located = bench_locate(text, args.repeat)
    print("50-quote report against 20 sources:")
    with tempfile.TemporaryDirectory(prefix="bench-quotes-") as directory:
        report = _report(Path(directory), text, random.Random(3))
        checked = asyncio.run(_check_report(report, max(3, args.repeat // 4)))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {"prose": origin, "locate": located, "report": checked}
        args.json.write_text(json.dumps(payload, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
