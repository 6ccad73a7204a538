#!/usr/bin/env python
"""The plausibility gate measured: references it would drop, and non-references it stops, per dev half.

    python scripts/calibrate_plausibility.py [--data ../shared/data] [--sweep]

Reference sets (every one should pass the gate):
- `gold A|B`: the excite-ssoar-dev gold reference strings, each parsed as the extractor parses an entry;
- `paired A|B`: the entries the extractor takes from those PDFs that pair with a gold string (the pairing of
  scripts/eval_pdf_extract.py): what the gate really sees;
- `citeaudit`: every CiteAudit dev-sample string, real and invented alike (an invented reference still reads
  as one and must reach the judge);
- `arxiv+acl`: every entry extracted from the five other PDFs of ../shared (no gold strings there).

Non-reference set (each should be stopped): `body A|B`, windows of three consecutive lines of the excite
PDFs' text before their reference list (body text, captions, front matter, affiliations, dates) that the
extractor's own first filter (four words and a year or identifier) would let through. `unpaired A|B` lists
the extracted entries that pair with no gold string, for reading (split or merged references, and junk).

Half A and B are the halves of eval_pdf_extract.py. The gate was set on half A; `--sweep` prints both halves
at other gates.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from eval_pdf_extract import excite_half, pair

from refhound.agents.extractor import plausibility
from refhound.agents.extractor.extract import _looks_like_reference, extract_pdf
from refhound.agents.extractor.plausibility import reference_likeness
from refhound.agents.extractor.section import find_reference_section
from refhound.pdf.document import open_pdf, read_pages
from refhound.refstring import parse_reference_string
from refhound.refstring.confidence import field_confidence
from refhound.settings import ExtractSettings


def score(raw: str) -> float:
    parsed = parse_reference_string(raw)
    return reference_likeness(raw, parsed, field_confidence(raw, parsed)).score


def body_windows(pdf: Path) -> list[str]:
    """Three-line windows of the text before the reference list that pass the extractor's first filter."""
    settings = ExtractSettings(ocr=False)
    document = open_pdf(pdf, settings.max_bytes)
    try:
        lines = read_pages(document, settings).lines
    finally:
        document.close()
    section = find_reference_section(lines)
    first = section.lines[0] if section.lines else None
    end = next((i for i, line in enumerate(lines) if line is first), len(lines))
    texts = [line.text for line in lines[: max(0, end - 1)]]
    windows = [" ".join(texts[i : i + 3]) for i in range(0, len(texts) - 2, 3)]
    return [window for window in windows if _looks_like_reference(window)]


def every_entry(pdf: Path) -> list[str]:
    """Every entry the extractor takes from a PDF, those the gate sets aside included, in list order."""
    extraction = extract_pdf(pdf)
    entries = sorted([*extraction.references, *extraction.set_aside], key=lambda entry: int(entry.id))
    return [entry.raw for entry in entries]


def collect(data: Path) -> dict[str, list[str]]:
    excite = data / "pdfs" / "excite-ssoar-dev"
    sets: dict[str, list[str]] = {}
    for half in ("A", "B"):
        gold_all: list[str] = []
        paired: list[str] = []
        unpaired: list[str] = []
        body: list[str] = []
        for pdf in excite_half(list((excite / "pdf").glob("*.pdf")), half):
            gold = [g.strip() for g in (excite / "gold-strings" / f"{pdf.stem}.txt").read_text().splitlines()]
            gold = [g for g in gold if g]
            extracted = every_entry(pdf)
            matched = {ei for _, ei, _ in pair(gold, extracted)}
            gold_all += gold
            paired += [text for i, text in enumerate(extracted) if i in matched]
            unpaired += [text for i, text in enumerate(extracted) if i not in matched]
            body += body_windows(pdf)
        sets |= {f"gold {half}": gold_all, f"paired {half}": paired, f"unpaired {half}": unpaired}
        sets[f"body {half}"] = body
    citeaudit = json.loads((data / "benchmarks" / "citeaudit" / "benchmark-dev-sample.json").read_text())
    records = citeaudit["data"] if isinstance(citeaudit, dict) else citeaudit
    sets["citeaudit"] = [record["citation"] for record in records if record.get("citation")]
    others = sorted((data / "pdfs" / "arxiv-refextract").glob("*.pdf"))
    others += sorted((data / "pdfs" / "acl-grobid-silver").glob("*.pdf"))
    sets["arxiv+acl"] = [raw for pdf in others for raw in every_entry(pdf)]
    return sets


def below(scores: Iterable[float], gate: float) -> int:
    return sum(1 for value in scores if value < gate)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--show", action="store_true", help="print the strings on the wrong side of the gate")
    args = parser.parse_args()
    sets = collect(args.data)
    scores = {name: [score(text) for text in texts] for name, texts in sets.items()}
    gates = [0.25, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65] if args.sweep else [plausibility.GATE]
    for gate in gates:
        print(f"gate {gate:.2f}:")
        for name, values in scores.items():
            stopped = below(values, gate)
            kind = "non-references stopped" if name.startswith("body") else "below the gate"
            share = stopped / max(1, len(values))
            print(f"  {name:<12} {len(values):5d} strings, {kind}: {stopped} ({share:.3f})")
    if args.show:
        for name, texts in sets.items():
            wrong = [
                (value, text)
                for value, text in zip(scores[name], texts, strict=True)
                if (value >= plausibility.GATE) == name.startswith("body")
            ]
            print(f"--- {name}: {len(wrong)} on the wrong side (or, for unpaired, passing)")
            for value, text in wrong[:40]:
                print(f"  {value:.2f}  {text[:160]}")


if __name__ == "__main__":
    main()
