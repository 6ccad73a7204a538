#!/usr/bin/env python
"""Reference extraction on synthetic manuscripts built from real reference strings, layout factor by factor.

    python scripts/bench_layouts.py [--half A|B] [--papers 200] [--seed 1] [--keep DIR] [--show N]

The dev PDFs are few, and every rule made on them has met new layouts on unseen papers. This benchmark draws
many layouts at random from named factors (how many entries, numbering, indentation, columns, type size,
heading, running headers, a line-number margin, what follows the list, how much body precedes it) and fills
them with the real reference strings of `../shared/data/reference-strings/anystyle-gold.xml.gz` (1,669
strings of many styles and disciplines). Each manuscript is written as a real PDF with PyMuPDF, extracted
with `extract_pdf` (rules only: no LLM, no network), and scored as `scripts/eval_pdf_extract.py` scores the
dev PDFs (greedy one-to-one pairs at normalised Indel similarity ≥ 0.9).

The strings fall into two fixed halves (by a hash of the string), and each half draws its layouts from its own
seeds: build on half A, report half B as well. Both halves draw from the same factor distribution, so half B
tests other strings and other draws of the same factors, not factors nobody wrote down.

Prints recall and precision per half, then per level of each factor (with the papers whose recall is under
0.8), so that a failing class shows as one factor's level. `--keep DIR` writes the PDFs and a JSON line per
paper; `--show N` prints the N worst papers' configurations.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import hashlib
import json
import random
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import pymupdf
from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from eval_pdf_extract import pair  # noqa: E402

from refhound.agents.extractor.extract import extract_pdf  # noqa: E402
from tests.agents.extractor.pdfmaker import A4, Text, write_pdf  # noqa: E402

GOLD = ROOT.parent / "shared" / "data" / "reference-strings" / "anystyle-gold.xml.gz"
TOP, BOTTOM, LEFT, RIGHT = 72.0, 770.0, 72.0, A4[0] - 72.0
GUTTER = 18.0

FACTORS: dict[str, list[str]] = {
    "entries": ["short (3-8)", "medium (10-30)", "long (40-80)"],
    "numbering": ["none", "[n]", "n."],
    "indent": ["hanging", "flush, gap between", "first line"],
    "columns": ["one", "two"],
    "size": ["8", "9", "10"],
    "heading": [
        "References",
        "REFERENCES",
        "Bibliography",
        "Literature Cited",
        "Works Cited",
        "Literatur",
        "Références",
        "7 References",
        "References and Notes",
    ],
    "heading_style": ["bold, larger", "bold", "plain"],
    "running": ["none", "header and page number", "page number only"],
    "line_numbers": ["no", "yes"],
    "after": ["nothing", "appendix", "biographies", "contact", "editorial dates"],
    "body_pages": ["0-1", "2-5"],
}

_WORDS = """
the of model data results social policy effect analysis we this study labour market evidence our
method show that in for with between groups across regions higher lower significant sample survey
countries network learning performance table figure section approach theory institutions change
over time respondents estimates measure variable effects outcome baseline training corpus language
task
""".split()  # noqa: SIM905 (a block of words reads better than a list of 55 strings)


@dataclass(frozen=True)
class Layout:
    entries: str
    numbering: str
    indent: str
    columns: str
    size: str
    heading: str
    heading_style: str
    running: str
    line_numbers: str
    after: str
    body_pages: str


def reference_strings() -> list[str]:
    """Each gold sequence's text as printed: its fields' texts joined by spaces."""
    with gzip.open(GOLD) as source:
        root = etree.parse(source).getroot()
    strings = []
    for sequence in root.iter("sequence"):
        parts = [child.text.strip() for child in sequence if child.tag != "citation-number" and child.text]
        text = " ".join(" ".join(parts).split())
        if len(text) >= 40:
            strings.append(text)
    return strings


def half_of(text: str) -> str:
    return "A" if hashlib.sha1(text.encode()).digest()[0] % 2 == 0 else "B"


def wrap(
    text: str, width: float, size: float, first_indent: float = 0.0, rest_indent: float = 0.0
) -> list[tuple[float, str]]:
    """(indent, line) pairs: greedy wrapping by the rendered width of Helvetica at `size`."""
    lines: list[tuple[float, str]] = []
    current = ""
    for word in _pieces(text.split(), width - max(first_indent, rest_indent), size):
        indent = first_indent if not lines else rest_indent
        candidate = f"{current} {word}".strip()
        if current and _width(candidate, size) > width - indent:
            lines.append((indent, current))
            current = word
        else:
            current = candidate
    if current:
        lines.append((first_indent if not lines else rest_indent, current))
    return lines


_HELVETICA = pymupdf.Font("helv")


def _width(text: str, size: float) -> float:
    """The printed width, by the font the text is set in (beyond Latin-1, the embedded one)."""
    return _HELVETICA.text_length(text, fontsize=size)


def _pieces(words: list[str], width: float, size: float) -> list[str]:
    """The words, each one wider than the column (a long URL) cut where the column ends, as typesetters do."""
    pieces = []
    for word in words:
        while _width(word, size) > width:
            cut = max(i for i in range(1, len(word)) if _width(word[:i], size) <= width)
            pieces.append(word[:cut])
            word = word[cut:]
        pieces.append(word)
    return pieces


def sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 20))]
    if rng.random() < 0.3:
        words.append(f"({rng.choice(['Smith', 'Brown', 'Lee', 'Müller'])}, {rng.randint(1980, 2020)})")
    return " ".join(words).capitalize() + "."


def paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(sentence(rng) for _ in range(sentences))


class Flow:
    """Lines poured into columns and pages, with running headers, page numbers and a line-number margin."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.pages: list[list[Text]] = []
        two = layout.columns == "two"
        self.width = (RIGHT - LEFT - GUTTER) / 2 if two else RIGHT - LEFT
        self.lefts = [LEFT, LEFT + self.width + GUTTER] if two else [LEFT]
        self.column, self.numbered = 0, 0
        self.y = BOTTOM + 1  # the first line opens a page

    def _new_page(self) -> None:
        page: list[Text] = []
        number = len(self.pages) + 1
        if self.layout.running == "header and page number":
            page.append(Text(LEFT, 50, "Journal of Synthetic Studies 12 (2021)", size=8))
        if self.layout.running != "none":
            page.append(Text(A4[0] / 2 - 5, 805, str(number), size=9))
        self.pages.append(page)
        self.column, self.y, self.numbered = 0, TOP, 0

    def _advance(self, height: float) -> None:
        if self.y + height > BOTTOM:
            if self.pages and self.column + 1 < len(self.lefts):
                self.column, self.y = self.column + 1, TOP
            else:
                self._new_page()

    def line(self, text: str, size: float, indent: float = 0.0, bold: bool = False, gap: float = 0.0) -> None:
        height = size * 1.2
        self._advance(height + gap)
        if self.y > TOP:
            self.y += gap
        self.pages[-1].append(Text(self.lefts[self.column] + indent, self.y, text, size=size, bold=bold))
        if self.layout.line_numbers == "yes":  # a proof's numbers, 1, 2, 3 … on each page, outside the text
            self.numbered += 1
            x = LEFT - 30 if self.column == 0 else RIGHT + 12
            self.pages[-1].append(Text(x, self.y, str(self.numbered), size=7))
        self.y += height

    def paragraph(self, text: str, size: float, gap: float) -> None:
        for i, (indent, line) in enumerate(wrap(text, self.width, size, first_indent=12.0)):
            self.line(line, size, indent, gap=gap if i == 0 else 0.0)


def draw_layout(rng: random.Random) -> Layout:
    return Layout(**{name: rng.choice(levels) for name, levels in FACTORS.items()})


def entry_count(layout: Layout, rng: random.Random) -> int:
    low, high = {"short (3-8)": (3, 8), "medium (10-30)": (10, 30), "long (40-80)": (40, 80)}[layout.entries]
    return rng.randint(low, high)


def back_matter(layout: Layout, rng: random.Random) -> list[tuple[str, bool]]:
    """(text, is a heading) blocks that follow the list."""
    if layout.after == "appendix":
        return [
            ("Appendix A. Additional results", True),
            (paragraph(rng, 6), False),
            (paragraph(rng, 5), False),
        ]
    if layout.after == "biographies":
        return [
            (
                "Jane Doe is Associate Professor of Sociology at York University, Room 2060 Vari Hall, "
                "Toronto. Her research concerns labour markets and social policy.",
                False,
            ),
            (
                "John Roe is a Lecturer in Economics at the University of Leeds. He works on wage "
                "inequality and the measurement of skills.",
                False,
            ),
        ]
    if layout.after == "contact":
        return [
            ("Corresponding author:", True),
            (
                "Dr. Jane Doe, Department of Sociology, University of Leeds, Leeds LS2 9JT, United Kingdom. "
                "E-mail: j.doe@leeds.ac.uk",
                False,
            ),
        ]
    if layout.after == "editorial dates":
        return [
            ("Received: 12 March 2019 / Accepted: 3 June 2019 / Published online: 20 July 2019", False),
            ("© The Author(s) 2019. This article is published with open access.", False),
        ]
    return []


def build(layout: Layout, references: list[str], rng: random.Random, path: Path) -> None:
    size = float(layout.size)
    body_size = max(size, 10.0)
    flow = Flow(layout)
    flow.line("A synthetic study of " + " ".join(rng.choice(_WORDS) for _ in range(5)), 16.0, bold=True)
    sections = rng.randint(1, 2) if layout.body_pages == "0-1" else rng.randint(6, 14)
    for number in range(1, sections + 1):
        flow.line(
            f"{number} {rng.choice(_WORDS).capitalize()} {rng.choice(_WORDS)}", 12.0, bold=True, gap=8.0
        )
        for _ in range(rng.randint(2, 4)):
            flow.paragraph(paragraph(rng, rng.randint(3, 7)), body_size, gap=2.0)
    heading_size = {"bold, larger": 12.0, "bold": body_size, "plain": body_size}[layout.heading_style]
    flow.line(layout.heading, heading_size, bold=layout.heading_style != "plain", gap=10.0)
    for n, text in enumerate(references, start=1):
        label = {"none": "", "[n]": f"[{n}] ", "n.": f"{n}. "}[layout.numbering]
        hanging = 12.0 if layout.indent == "hanging" else 0.0
        first = 12.0 if layout.indent == "first line" else 0.0
        gap = size * 0.6 if layout.indent == "flush, gap between" else 1.0
        for i, (indent, line) in enumerate(wrap(label + text, flow.width, size, first, hanging)):
            flow.line(line, size, indent, gap=gap if i == 0 else 0.0)
    for text, heading in back_matter(layout, rng):
        if heading:
            flow.line(text, body_size, bold=True, gap=10.0)
        else:
            flow.paragraph(text, body_size, gap=4.0)
    write_pdf(path, flow.pages)


def run(half: str, papers: int, seed: int, keep: Path | None) -> list[dict]:
    pool = [text for text in reference_strings() if half_of(text) == half]
    rows = []
    workdir = keep or Path(tempfile.mkdtemp(prefix="bench-layouts-"))
    workdir.mkdir(parents=True, exist_ok=True)
    for index in range(papers):
        rng = random.Random(f"{half}-{seed}-{index}")
        layout = draw_layout(rng)
        gold = rng.sample(pool, entry_count(layout, rng))
        path = workdir / f"{half}-{seed}-{index:04d}.pdf"
        build(layout, gold, rng, path)
        extracted = [reference.raw for reference in extract_pdf(path).references]
        found = len(pair(gold, extracted))
        rows.append(
            {
                "paper": path.name,
                "layout": asdict(layout),
                "gold": len(gold),
                "extracted": len(extracted),
                "found": found,
                "strings": {"gold": gold, "extracted": extracted},
            }
        )
        if keep is None:
            path.unlink()
    if keep is not None:
        with (keep / f"{half}-{seed}.jsonl").open("w") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return rows


def _figures(rows: list[dict]) -> tuple[float, float, int]:
    gold = sum(row["gold"] for row in rows)
    extracted = sum(row["extracted"] for row in rows)
    found = sum(row["found"] for row in rows)
    broken = sum(1 for row in rows if row["found"] < 0.8 * row["gold"])
    return found / max(gold, 1), found / max(extracted, 1), broken


def report(half: str, rows: list[dict], show: int) -> None:
    recall, precision, broken = _figures(rows)
    print(
        f"\n## half {half}: {len(rows)} papers, {sum(r['gold'] for r in rows)} references: "
        f"recall {recall:.3f}, "
        f"precision {precision:.3f}; papers under 0.8 recall: {broken}\n"
    )
    print("| factor | level | papers | recall | precision | under 0.8 |\n|---|---|---:|---:|---:|---:|")
    for factor in FACTORS:
        groups: dict[str, list[dict]] = collections.defaultdict(list)
        for row in rows:
            groups[row["layout"][factor]].append(row)
        for level in FACTORS[factor]:
            if groups[level]:
                r, p, b = _figures(groups[level])
                print(f"| {factor} | {level} | {len(groups[level])} | {r:.3f} | {p:.3f} | {b} |")
    for row in sorted(rows, key=lambda row: row["found"] / row["gold"])[:show]:
        print(
            f"- {row['paper']}: {row['found']}/{row['gold']} found, {row['extracted']} extracted; "
            f"{row['layout']}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--half", choices=["A", "B"], action="append")
    parser.add_argument("--papers", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    if not GOLD.exists():
        sys.exit(f"{GOLD} is missing: this benchmark reads the real reference strings of ../shared")
    for half in args.half or ["A", "B"]:
        report(half, run(half, args.papers, args.seed, args.keep), args.show)


if __name__ == "__main__":
    main()
