#!/usr/bin/env python
"""Reference extraction on manuscripts that a browser engine typeset: HTML and CSS printed by Chromium.

    python scripts/bench_browser_lists.py [--half A|B] [--papers 100] [--seed 1] [--keep DIR] [--show N]

Manuscripts written in a web editor (Google Docs, a notebook, a preprint published as a web page) reach PDF
through a browser's print engine: Blink lays the text out and Skia writes the PDF, neither of them TeX, a
word processor or this project's code. This benchmark writes manuscripts as HTML with the real reference
strings of `../shared/data/reference-strings/anystyle-gold.xml.gz` (the halves of `scripts/bench_layouts.py`:
build on half A, report half B as well), laid out by CSS factors (a list numbered by the browser or by hand,
hanging or first-line indents, space between entries, leading, fonts, justification, the list in CSS
columns, links, the browser's own page header and footer, what follows the list), and has headless Chromium
print them (`--keep DIR` keeps the PDFs and a JSON line per paper). Each PDF is extracted with `extract_pdf`
(rules only) and scored as the dev PDFs are (greedy one-to-one pairs at normalised Indel similarity >= 0.9);
the gold strings are the strings typed, without the number a numbered list adds.

Needs Debian's chromium (/usr/bin/chromium), Playwright and the DejaVu, Latin Modern and Charter fonts. Not
part of the test suite.
"""

from __future__ import annotations

import argparse
import html
import random
import re
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_layouts import (  # noqa: E402
    Parts,
    back_matter,
    half_of,
    keep_rows,
    paper_row,
    paragraph,
    print_headline,
    print_levels,
    print_worst,
    reference_parts,
    text_of,
)

from refhound.agents.extractor.extract import extract_pdf  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
FACTORS: dict[str, list[str]] = {
    "entries": ["short (3-8)", "medium (10-30)", "long (40-80)"],
    "marker": ["none", "[n] typed", "ol (the browser's numbers)"],
    "indent": ["hanging", "first line", "none"],
    "space_between": ["none", "0.5 em", "1 em"],
    "leading": ["1.2", "1.5", "2"],
    "font": ["DejaVu Serif", "DejaVu Sans", "Latin Modern Roman", "Bitstream Charter"],
    "size": ["10pt", "11pt", "12pt"],
    "alignment": ["left", "justified"],
    "columns": ["one", "two"],
    "heading": ["References", "Bibliography", "Literatur", "Works Cited", "REFERENCES"],
    "page_furniture": ["none", "page number", "page number and running title"],
    "italics": ["none", "container titles"],
    "links": ["plain text", "hyperlinks"],
    "after": ["nothing", "appendix", "biographies", "contact", "editorial dates"],
    "paper": ["A4", "Letter"],
}  # fmt: skip
_ENTRIES = {"short (3-8)": (3, 8), "medium (10-30)": (10, 30), "long (40-80)": (40, 80)}
_ITALIC_TAGS = {"container-title", "journal"}
_URL = re.compile(r"(?:https?://|doi:|www\.)\S+")


@dataclass(frozen=True)
class Layout:
    entries: str
    marker: str
    indent: str
    space_between: str
    leading: str
    font: str
    size: str
    alignment: str
    columns: str
    heading: str
    page_furniture: str
    italics: str
    links: str
    after: str
    paper: str


def draw_layout(rng: random.Random) -> Layout:
    return Layout(*(rng.choice(levels) for levels in FACTORS.values()))


def _linked(text: str, layout: Layout) -> str:
    """Escaped text, its URLs and DOIs as links where the layout says so."""
    if layout.links == "plain text":
        return html.escape(text)
    out, last = [], 0
    for match in _URL.finditer(text):
        out += [html.escape(text[last : match.start()]), f'<a href="{html.escape(match.group())}">']
        out += [html.escape(match.group()), "</a>"]
        last = match.end()
    return "".join([*out, html.escape(text[last:])])


def _entry(parts: Parts, layout: Layout) -> str:
    """One reference's text, its container title in italics where the layout says so."""
    pieces = []
    for tag, text in parts:
        marked = _linked(text, layout)
        italic = layout.italics == "container titles" and tag in _ITALIC_TAGS
        pieces.append(f"<i>{marked}</i>" if italic else marked)
    return " ".join(pieces)


def document(layout: Layout, references: list[Parts], rng: random.Random) -> str:
    """The manuscript as HTML: a title, sections of body text, the list, what follows it."""
    indent = {
        "hanging": "padding-left: 2em; text-indent: -2em;",
        "first line": "text-indent: 2em;",
        "none": "",
    }[layout.indent]
    gap = {"none": "0", "0.5 em": "0.5em", "1 em": "1em"}[layout.space_between]
    align = "justify" if layout.alignment == "justified" else "left"
    columns = "column-count: 2; column-gap: 0.8cm;" if layout.columns == "two" else ""
    style = f"""
    @page {{ size: {layout.paper}; }}
    body {{ font-family: '{layout.font}'; font-size: {layout.size}; line-height: {layout.leading}; }}
    p.body {{ text-align: justify; margin: 0 0 0.6em 0; }}
    h1 {{ font-size: 1.6em; text-align: center; }}
    h2 {{ font-size: 1.2em; margin: 1.2em 0 0.6em 0; }}
    .refs {{ {columns} }}
    .refs p, .refs li {{ margin: 0 0 {gap} 0; text-align: {align}; {indent} }}
    .refs ol {{ margin: 0; padding-left: 2.2em; }}
    .refs ol li {{ text-indent: 0; padding-left: 0; }}
    """
    out = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{style}</style></head><body>"]
    out.append(f"<h1>{html.escape('A study of ' + paragraph(rng, 1)[:60])}</h1>")
    for number in range(1, rng.randint(3, 7)):
        out.append(f"<h2>{number} Results</h2>")
        out += [f"<p class='body'>{html.escape(paragraph(rng, rng.randint(3, 7)))}</p>" for _ in range(3)]
    out.append(f"<h2>{html.escape(layout.heading)}</h2><div class='refs'>")
    if layout.marker == "ol (the browser's numbers)":
        out.append("<ol>" + "".join(f"<li>{_entry(parts, layout)}</li>" for parts in references) + "</ol>")
    else:
        for n, parts in enumerate(references, start=1):
            marker = f"[{n}] " if layout.marker == "[n] typed" else ""
            out.append(f"<p>{marker}{_entry(parts, layout)}</p>")
    out.append("</div>")
    for text, heading in back_matter(layout, rng):  # type: ignore[arg-type]
        out.append(f"<h2>{html.escape(text)}</h2>" if heading else f"<p class='body'>{html.escape(text)}</p>")
    out.append("</body></html>")
    return "\n".join(out)


def _print_options(layout: Layout) -> dict:
    """Playwright's page.pdf options: paper, margins, and the browser's own header and footer."""
    options: dict = {"format": layout.paper, "print_background": False}
    options["margin"] = {"top": "2.5cm", "bottom": "2.5cm", "left": "2.5cm", "right": "2.5cm"}
    if layout.page_furniture != "none":
        options["display_header_footer"] = True
        footer = (
            '<div style="font-size:9pt; width:100%; text-align:center"><span class="pageNumber"></span></div>'
        )
        header = "<div></div>"
        if layout.page_furniture == "page number and running title":
            header = (
                '<div style="font-size:9pt; width:100%; text-align:right; margin-right:2.5cm; '
                'font-style:italic">Working Paper Series, Discussion Paper</div>'
            )
        options["header_template"] = header
        options["footer_template"] = footer
    return options


def run(half: str, papers: int, seed: int, keep: Path | None) -> list[dict]:
    from playwright.sync_api import sync_playwright

    pool = [parts for parts in reference_parts() if half_of(text_of(parts)) == half]
    workdir = keep or Path(tempfile.mkdtemp(prefix="bench-browser-"))
    workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = browser.new_page()
        for index in range(papers):
            rng = random.Random(f"{half}-{seed}-{index}")
            layout = draw_layout(rng)
            low, high = _ENTRIES[layout.entries]
            chosen = rng.sample(pool, min(len(pool), rng.randint(low, high)))
            name = f"{half}-{seed}-{index:04d}"
            page.set_content(document(layout, chosen, rng))
            pdf = workdir / f"{name}.pdf"
            page.pdf(path=str(pdf), **_print_options(layout))
            gold = [text_of(parts) for parts in chosen]
            extracted = [reference.raw for reference in extract_pdf(pdf).references]
            rows.append(paper_row(name, asdict(layout), gold, extracted))
            if keep is None:
                pdf.unlink()
        browser.close()
    if keep is not None:
        keep_rows(keep, half, seed, rows)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--half", choices=["A", "B"], action="append")
    parser.add_argument("--papers", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    if not CHROMIUM.is_file():
        sys.exit(f"{CHROMIUM} not found: install Debian's chromium")
    for half in args.half or ["A", "B"]:
        rows = run(half, args.papers, args.seed, args.keep)
        print_headline(half, rows)
        print_levels(rows, FACTORS, shown_whole=set(FACTORS))
        print_worst(rows, args.show)


if __name__ == "__main__":
    main()
