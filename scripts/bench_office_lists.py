#!/usr/bin/env python
"""Reference extraction on manuscripts that a word processor typeset: LibreOffice Writer, from RTF.

    python scripts/bench_office_lists.py [--half A|B] [--papers 100] [--seed 1] [--keep DIR] [--show N]

Most social-science manuscripts are written in a word processor, not in LaTeX: a reference list is a run of
paragraphs with a hanging or first-line indent (or a number and a tab), justified or not, single- to
double-spaced, often with space between entries, under a heading in bold, with a page number in the footer
and a running title in the header. This benchmark writes such manuscripts as RTF, with the real reference
strings of `../shared/data/reference-strings/anystyle-gold.xml.gz` (the halves of `scripts/bench_layouts.py`:
build on half A, report half B as well), and has LibreOffice Writer (headless) typeset them to PDF: its own
line breaking, justification, widow and orphan control and font metrics, none of
them this project's code. Each PDF is extracted with `extract_pdf` (rules only) and scored as the dev PDFs
are (greedy one-to-one pairs at normalised Indel similarity >= 0.9); the gold strings are the strings
typed, without the number a numbered list adds.

Needs LibreOffice Writer (Debian: libreoffice-writer-nogui) and the DejaVu and Latin Modern fonts. Not part
of the test suite.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
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

FACTORS: dict[str, list[str]] = {
    "entries": ["short (3-8)", "medium (10-30)", "long (40-80)"],
    "marker": ["none", "[n] and a tab", "n. and a tab"],
    "indent": ["hanging", "first line", "none"],
    "space_between": ["none", "6 pt", "a blank line"],
    "spacing": ["single", "1.5", "double"],
    "font": ["DejaVu Serif", "DejaVu Sans", "Latin Modern Roman", "Bitstream Charter"],
    "size": ["10", "11", "12"],
    "alignment": ["left", "justified"],
    "columns": ["one", "two"],
    "heading": ["References", "Bibliography", "Literatur", "Works Cited", "REFERENCES"],
    "page_furniture": ["none", "page number", "page number and running title"],
    "italics": ["none", "container titles"],
    "after": ["nothing", "appendix", "biographies", "contact", "editorial dates"],
    "paper": ["A4", "letter"],
}  # fmt: skip
_ENTRIES = {"short (3-8)": (3, 8), "medium (10-30)": (10, 30), "long (40-80)": (40, 80)}
_PAPER = {"A4": (11906, 16838), "letter": (12240, 15840)}  # twips
_ITALIC_TAGS = {"container-title", "journal"}


@dataclass(frozen=True)
class Layout:
    entries: str
    marker: str
    indent: str
    space_between: str
    spacing: str
    font: str
    size: str
    alignment: str
    columns: str
    heading: str
    page_furniture: str
    italics: str
    after: str
    paper: str


def draw_layout(rng: random.Random) -> Layout:
    return Layout(*(rng.choice(levels) for levels in FACTORS.values()))


def rtf_text(text: str) -> str:
    """Plain text as RTF: its control characters escaped, every non-ASCII character as `\\uN?` (UTF-16)."""
    out = []
    for char in text:
        if char in "\\{}":
            out.append("\\" + char)
        elif ord(char) < 128:
            out.append(char)
        else:
            encoded = char.encode("utf-16-le")
            for i in range(0, len(encoded), 2):
                unit = int.from_bytes(encoded[i : i + 2], "little")
                out.append(f"\\u{unit - 65536 if unit > 32767 else unit}?")
    return "".join(out)


def _entry(parts: Parts, layout: Layout) -> str:
    """One reference's text, its container title in italics where the layout says so."""
    pieces = []
    for tag, text in parts:
        escaped = rtf_text(text)
        italic = layout.italics == "container titles" and tag in _ITALIC_TAGS
        pieces.append("{\\i " + escaped + "}" if italic else escaped)
    return " ".join(pieces)


def document(layout: Layout, references: list[Parts], rng: random.Random) -> str:
    """The manuscript as RTF: a title, sections of body text, the list, what follows it."""
    size = int(layout.size) * 2  # half-points
    width, height = _PAPER[layout.paper]
    spacing = {"single": 240, "1.5": 360, "double": 480}[layout.spacing]
    body_par = f"\\pard\\plain\\f0\\fs{size}\\sl{spacing}\\slmult1\\sa120\\qj "
    out = [
        "{\\rtf1\\ansi\\deff0",
        "{\\fonttbl{\\f0 " + layout.font + ";}}",
        f"\\paperw{width}\\paperh{height}\\margl1440\\margr1440\\margt1440\\margb1440",
    ]
    if layout.page_furniture != "none":
        out.append("{\\footer\\pard\\plain\\qc\\f0\\fs20 {\\field{\\*\\fldinst PAGE}}\\par}")
    if layout.page_furniture == "page number and running title":
        out.append("{\\header\\pard\\plain\\qr\\f0\\i\\fs18 Working Paper Series, Discussion Paper\\par}")
    out.append("\\pard\\plain\\qc\\f0\\b\\fs32 " + rtf_text("A study of " + paragraph(rng, 1)[:60]) + "\\par")
    for number in range(1, rng.randint(3, 7)):
        out.append(
            f"\\pard\\plain\\f0\\b\\fs{size + 4}\\sb240\\sa120 {number} " + rtf_text("Results") + "\\par"
        )
        for _ in range(rng.randint(2, 4)):
            out.append(body_par + rtf_text(paragraph(rng, rng.randint(3, 7))) + "\\par")
    out.append(f"\\pard\\plain\\f0\\b\\fs{size + 4}\\sb240\\sa120 " + rtf_text(layout.heading) + "\\par")
    if layout.columns == "two":
        out.append("\\sect\\sbknone\\cols2\\colsx567")
    gap = {"none": 0, "6 pt": 120, "a blank line": spacing}[layout.space_between]
    indent = {"hanging": "\\li567\\fi-567", "first line": "\\fi567", "none": ""}[layout.indent]
    if layout.marker != "none":  # the number, then a tab to the text's indent
        indent = "\\li567\\fi-567\\tx567"
    align = "\\qj" if layout.alignment == "justified" else "\\ql"
    for n, parts in enumerate(references, start=1):
        marker = {"none": "", "[n] and a tab": f"[{n}]\\tab ", "n. and a tab": f"{n}.\\tab "}[layout.marker]
        out.append(
            f"\\pard\\plain\\f0\\fs{size}\\sl{spacing}\\slmult1\\sa{gap}{indent}{align} "
            + marker
            + _entry(parts, layout)
            + "\\par"
        )
    if layout.columns == "two":
        out.append("\\sect\\sbknone\\cols1")
    for text, heading in back_matter(layout, rng):  # type: ignore[arg-type]
        style = f"\\b\\fs{size + 2}\\sb240" if heading else f"\\fs{size}\\sa120"
        out.append(f"\\pard\\plain\\f0{style} " + rtf_text(text) + "\\par")
    out.append("}")
    return "\n".join(out) + "\n"


def typeset(sources: list[Path], outdir: Path, profile: Path) -> None:
    """Convert RTF files to PDF with one headless LibreOffice (one start-up for the batch)."""
    subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation=file://{profile}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(outdir),
            *map(str, sources),
        ],
        capture_output=True,
        timeout=60 + 20 * len(sources),
        check=False,
    )


def run(half: str, papers: int, seed: int, keep: Path | None) -> tuple[list[dict], list[str]]:
    pool = [parts for parts in reference_parts() if half_of(text_of(parts)) == half]
    workdir = keep or Path(tempfile.mkdtemp(prefix="bench-office-"))
    workdir.mkdir(parents=True, exist_ok=True)
    profile = Path(tempfile.mkdtemp(prefix="bench-office-profile-"))
    papers_drawn = []
    for index in range(papers):
        rng = random.Random(f"{half}-{seed}-{index}")
        layout = draw_layout(rng)
        low, high = _ENTRIES[layout.entries]
        chosen = rng.sample(pool, min(len(pool), rng.randint(low, high)))
        name = f"{half}-{seed}-{index:04d}"
        (workdir / f"{name}.rtf").write_text(document(layout, chosen, rng), encoding="ascii")
        papers_drawn.append((name, layout, chosen))
    sources = [workdir / f"{name}.rtf" for name, _, _ in papers_drawn]
    for start in range(0, len(sources), 20):
        typeset(sources[start : start + 20], workdir, profile)
    rows, failed = [], []
    for name, layout, chosen in papers_drawn:
        pdf = workdir / f"{name}.pdf"
        if not pdf.exists():
            failed.append(name)
            continue
        gold = [text_of(parts) for parts in chosen]
        extracted = [reference.raw for reference in extract_pdf(pdf).references]
        rows.append(paper_row(name, asdict(layout), gold, extracted))
    shutil.rmtree(profile, ignore_errors=True)
    if keep is None:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        keep_rows(keep, half, seed, rows)
    return rows, failed


def report(half: str, rows: list[dict], failed: list[str], show: int) -> None:
    print_headline(half, rows, f"not converted: {len(failed)}")
    print_levels(rows, FACTORS, shown_whole=set(FACTORS))
    print_worst(rows, show)


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
    if shutil.which("soffice") is None:
        sys.exit("soffice not found: install LibreOffice Writer (Debian: libreoffice-writer-nogui)")
    for half in args.half or ["A", "B"]:
        rows, failed = run(half, args.papers, args.seed, args.keep)
        report(half, rows, failed, args.show)


if __name__ == "__main__":
    main()
