#!/usr/bin/env python
"""Reference extraction on synthetic manuscripts built from real reference strings, layout factor by factor.

    python scripts/bench_layouts.py [--half A|B] [--papers 200] [--seed 1] [--typesetting]
                                    [--keep DIR] [--show N]

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

`--typesetting` adds factors of how journals and working papers set a list, written down after the rules
above were made: leading (a double-spaced manuscript), justified lines, italic titles, authors in small
capitals or capitals, and a list in parts under sub-headings ("Primary sources", "Reports"). They are drawn
from a random stream of their own, so that without the option every manuscript is the one it was.

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

# Drawn only with --typesetting, from a stream of their own; the first level of each is how the list is set
# without the option.
TYPESETTING: dict[str, list[str]] = {
    "leading": ["single", "one and a half", "double"],
    "justify": ["ragged", "justified"],
    "titles": ["roman", "italic"],
    "authors": ["as written", "small capitals", "capitals"],
    "subheadings": ["none", "by kind"],
}
_LEADING = {"single": 1.2, "one and a half": 1.8, "double": 2.4}
_SUBHEADINGS = [
    "Primary sources",
    "Secondary sources",
    "Books and articles",
    "Reports and documents",
    "Online sources",
    "Legal texts",
    "Data sources",
    "Archival sources",
]

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
    leading: str = "single"
    justify: str = "ragged"
    titles: str = "roman"
    authors: str = "as written"
    subheadings: str = "none"


# A reference as its gold sequence labels it: (field, text) parts in printed order.
Parts = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Piece:
    """A run of one style in a printed word (small capitals print lower-case letters as smaller capitals)."""

    text: str
    scale: float = 1.0
    italic: bool = False


def reference_parts() -> list[Parts]:
    """Each gold sequence's fields as printed, its number left out (sequences of 40 characters or more)."""
    with gzip.open(GOLD) as source:
        root = etree.parse(source).getroot()
    references = []
    for sequence in root.iter("sequence"):
        parts = tuple(
            (child.tag, " ".join(child.text.split()))
            for child in sequence
            if child.tag != "citation-number" and child.text and child.text.strip()
        )
        if len(text_of(parts)) >= 40:
            references.append(parts)
    return references


def text_of(parts: Parts) -> str:
    """The reference's text: its fields' texts joined by spaces."""
    return " ".join(" ".join(text for _, text in parts).split())


def half_of(text: str) -> str:
    return "A" if hashlib.sha1(text.encode()).digest()[0] % 2 == 0 else "B"


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


def wrap_styled(
    words: list[list[Piece]], width: float, size: float, first_indent: float = 0.0, rest_indent: float = 0.0
) -> list[tuple[float, list[list[Piece]]]]:
    """(indent, words) lines: greedy wrapping by the rendered width of each word's pieces; when every word is
    one piece, a word wider than the column (a long URL) is cut where the column ends, as typesetters do."""
    lines: list[tuple[float, list[list[Piece]]]] = []
    current: list[list[Piece]] = []
    used = 0.0
    room = width - max(first_indent, rest_indent)
    cut = (
        [
            [Piece(text, word[0].scale, word[0].italic)]
            for word in words
            for text in _pieces([word[0].text], room, size)
        ]
        if all(len(word) == 1 for word in words)
        else words
    )
    for word in cut:
        indent = first_indent if not lines else rest_indent
        added = _styled_width(word, size) + (_width(" ", size) if current else 0.0)
        if current and used + added > width - indent:
            lines.append((indent, current))
            current, used = [word], _styled_width(word, size)
        else:
            current, used = [*current, word], used + added
    if current:
        lines.append((first_indent if not lines else rest_indent, current))
    return lines


def _styled_width(word: list[Piece], size: float) -> float:
    return sum(  # type: ignore[no-any-return]
        (_HELVETICA_OBLIQUE if piece.italic else _HELVETICA).text_length(
            piece.text, fontsize=size * piece.scale
        )
        for piece in word
    )


_HELVETICA_OBLIQUE = pymupdf.Font("heit")


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
        self.leading = _LEADING[layout.leading]

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

    def line(
        self,
        text: str,
        size: float,
        indent: float = 0.0,
        bold: bool = False,
        gap: float = 0.0,
        italic: bool = False,
    ) -> None:
        self.styled_line([[Piece(word, italic=italic)] for word in text.split()], size, indent, bold, gap)

    def styled_line(
        self,
        words: list[list[Piece]],
        size: float,
        indent: float = 0.0,
        bold: bool = False,
        gap: float = 0.0,
        justify: bool = False,
    ) -> None:
        """One line; justified, its words spread to the column's right edge, each word placed on its own."""
        height = size * self.leading
        self._advance(height + gap)
        if self.y > TOP:
            self.y += gap
        x = self.lefts[self.column] + indent
        space = _width(" ", size)
        if justify and len(words) > 1:
            ink = sum(_styled_width(word, size) for word in words)
            space = max(space, (self.width - indent - ink) / (len(words) - 1))
        runs: list[tuple[float, Piece]] = []  # (x, piece): runs of one style, joined across plain spaces
        for i, word in enumerate(words):
            for j, piece in enumerate(word):
                touches = j > 0 or (i > 0 and not justify)
                if (
                    runs
                    and touches
                    and (runs[-1][1].scale, runs[-1][1].italic) == (piece.scale, piece.italic)
                ):
                    at, last = runs[-1]
                    text = last.text + ("" if j > 0 else " ") + piece.text
                    runs[-1] = (at, Piece(text, last.scale, last.italic))
                else:
                    runs.append((x, piece))
                x += _styled_width([piece], size)
            x += space
        for start, piece in runs:
            self.pages[-1].append(
                Text(start, self.y, piece.text, size=size * piece.scale, bold=bold, italic=piece.italic)
            )
        if self.layout.line_numbers == "yes":  # a proof's numbers, 1, 2, 3 … on each page, outside the text
            self.numbered += 1
            x = LEFT - 30 if self.column == 0 else RIGHT + 12
            self.pages[-1].append(Text(x, self.y, str(self.numbered), size=7))
        self.y += height

    def paragraph(self, text: str, size: float, gap: float) -> None:
        words = [[Piece(word)] for word in text.split()]
        for i, (indent, line) in enumerate(wrap_styled(words, self.width, size, first_indent=12.0)):
            self.styled_line(line, size, indent, gap=gap if i == 0 else 0.0)


def draw_layout(rng: random.Random, typesetting: random.Random | None) -> Layout:
    levels = {name: rng.choice(levels) for name, levels in FACTORS.items()}
    if typesetting is not None:
        levels |= {name: typesetting.choice(options) for name, options in TYPESETTING.items()}
    return Layout(**levels)


def styled_words(parts: Parts, layout: Layout) -> list[list[Piece]]:
    """The reference's words, each as its styled pieces: the container's name (or a book's title) in italics,
    the authors in capitals or small capitals, as the layout sets them."""
    italic_field = next(
        (tag for tag in ("journal", "container-title") if any(t == tag for t, _ in parts)), "title"
    )
    words = []
    for tag, text in parts:
        for word in text.split():
            italic = layout.titles == "italic" and tag == italic_field
            if tag == "author" and layout.authors == "capitals":
                words.append([Piece(word.upper(), italic=italic)])
            elif tag == "author" and layout.authors == "small capitals":
                words.append(_small_capitals(word, italic))
            else:
                words.append([Piece(word, italic=italic)])
    return words


def _small_capitals(word: str, italic: bool) -> list[Piece]:
    pieces: list[Piece] = []
    for char in word:
        scale = 0.8 if char.islower() else 1.0
        if pieces and pieces[-1].scale == scale:
            pieces[-1] = Piece(pieces[-1].text + char.upper(), scale, italic)
        else:
            pieces.append(Piece(char.upper(), scale, italic))
    return pieces


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


def _subheadings(count: int, rng: random.Random) -> dict[int, str]:
    """The entry numbers that open a part of the list, each with its sub-heading: two or three parts."""
    parts = min(rng.choice([2, 3]), count)
    starts = sorted(rng.sample(range(2, count + 1), parts - 1)) if count > 1 else []
    return dict(zip([1, *starts], rng.sample(_SUBHEADINGS, parts), strict=True))


def build(layout: Layout, references: list[Parts], rng: random.Random, path: Path) -> None:
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
    hanging = 12.0 if layout.indent == "hanging" else 0.0
    first = 12.0 if layout.indent == "first line" else 0.0
    gap = size * 0.6 if layout.indent == "flush, gap between" else 1.0
    subheadings = _subheadings(len(references), rng) if layout.subheadings == "by kind" else {}
    for n, parts in enumerate(references, start=1):
        if n in subheadings:
            flow.line(subheadings[n], size, bold=rng.random() < 0.5, italic=rng.random() < 0.5, gap=size)
        label = {"none": [], "[n]": [[Piece(f"[{n}]")]], "n.": [[Piece(f"{n}.")]]}[layout.numbering]
        lines = wrap_styled(label + styled_words(parts, layout), flow.width, size, first, hanging)
        for i, (indent, words) in enumerate(lines):
            last = i == len(lines) - 1
            flow.styled_line(
                words,
                size,
                indent,
                gap=gap if i == 0 else 0.0,
                justify=layout.justify == "justified" and not last,
            )
    for text, heading in back_matter(layout, rng):
        if heading:
            flow.line(text, body_size, bold=True, gap=10.0)
        else:
            flow.paragraph(text, body_size, gap=4.0)
    write_pdf(path, flow.pages)


def run(half: str, papers: int, seed: int, typesetting: bool, keep: Path | None) -> list[dict]:
    pool = [parts for parts in reference_parts() if half_of(text_of(parts)) == half]
    rows = []
    workdir = keep or Path(tempfile.mkdtemp(prefix="bench-layouts-"))
    workdir.mkdir(parents=True, exist_ok=True)
    for index in range(papers):
        rng = random.Random(f"{half}-{seed}-{index}")
        layout = draw_layout(
            rng, random.Random(f"{half}-{seed}-{index}-typesetting") if typesetting else None
        )
        chosen = rng.sample(pool, entry_count(layout, rng))
        gold = [text_of(parts) for parts in chosen]
        path = workdir / f"{half}-{seed}-{index:04d}.pdf"
        build(layout, chosen, rng, path)
        extracted = [reference.raw for reference in extract_pdf(path).references]
        rows.append(paper_row(path.name, asdict(layout), gold, extracted))
        if keep is None:
            path.unlink()
    if keep is not None:
        keep_rows(keep, half, seed, rows)
    return rows


def paper_row(paper: str, layout: dict, gold: list[str], extracted: list[str]) -> dict:
    """One manuscript's result: its layout, how many references it has, gives and pairs, and the strings."""
    return {
        "paper": paper,
        "layout": layout,
        "gold": len(gold),
        "extracted": len(extracted),
        "found": len(pair(gold, extracted)),
        "strings": {"gold": gold, "extracted": extracted},
    }


def keep_rows(keep: Path, half: str, seed: int, rows: list[dict]) -> None:
    """The rows as JSON lines beside the kept PDFs (`HALF-SEED.jsonl`), to read or score again."""
    with (keep / f"{half}-{seed}.jsonl").open("w") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def figures(rows: list[dict]) -> tuple[float, float, int]:
    gold = sum(row["gold"] for row in rows)
    extracted = sum(row["extracted"] for row in rows)
    found = sum(row["found"] for row in rows)
    broken = sum(1 for row in rows if row["found"] < 0.8 * row["gold"])
    return found / max(gold, 1), found / max(extracted, 1), broken


def report(half: str, rows: list[dict], show: int) -> None:
    print_headline(half, rows)
    print_levels(rows, {**FACTORS, **TYPESETTING}, shown_whole=set(FACTORS))
    print_worst(rows, show)


def print_headline(half: str, rows: list[dict], also: str = "") -> None:
    """A half's recall and precision over all its papers, and how many papers are under 0.8 recall; `also`
    is what a benchmark adds (papers left out)."""
    recall, precision, broken = figures(rows)
    print(
        f"\n## half {half}: {len(rows)} papers, {sum(r['gold'] for r in rows)} references: "
        f"recall {recall:.3f}, precision {precision:.3f}; papers under 0.8 recall: {broken}"
        + (f"; {also}" if also else "")
        + "\n"
    )


def print_levels(rows: list[dict], factors: dict[str, list[str]], shown_whole: set[str]) -> None:
    """Recall and precision per level of each factor (a row's `layout` names its level of each); a factor
    not in `shown_whole` only when the rows draw more than one of its levels."""
    print("| factor | level | papers | recall | precision | under 0.8 |\n|---|---|---:|---:|---:|---:|")
    for factor, levels in factors.items():
        groups: dict[str, list[dict]] = collections.defaultdict(list)
        for row in rows:
            groups[row["layout"][factor]].append(row)
        for level in levels:
            if groups[level] and (factor in shown_whole or len(groups) > 1):
                r, p, b = figures(groups[level])
                print(f"| {factor} | {level} | {len(groups[level])} | {r:.3f} | {p:.3f} | {b} |")


def print_worst(rows: list[dict], show: int) -> None:
    """The `show` papers of lowest recall, with their layouts."""
    for row in sorted(rows, key=lambda row: row["found"] / max(row["gold"], 1))[:show]:
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
    parser.add_argument("--typesetting", action="store_true", help="draw the typesetting factors too")
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    if not GOLD.exists():
        sys.exit(f"{GOLD} is missing: this benchmark reads the real reference strings of ../shared")
    for half in args.half or ["A", "B"]:
        report(half, run(half, args.papers, args.seed, args.typesetting, args.keep), args.show)


if __name__ == "__main__":
    main()
