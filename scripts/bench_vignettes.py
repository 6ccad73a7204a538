#!/usr/bin/env python
"""Real papers nobody typeset for this project: the PDF vignettes of Debian's R packages, with the number of
references each should list read from its own Sweave source.

    python scripts/bench_vignettes.py DIR --fetch          # once: download and unpack the packages (Debian)
    python scripts/bench_vignettes.py DIR [--half A|B] [--pdf NAME ...] [--json OUT]

Many R packages ship their vignettes as PDFs with the `.Rnw` they were built from: articles of the Journal of
Statistical Software, tutorials and package papers, typeset by their authors with jss.cls, Bioconductor's
style and others, with figures among the references, hand-made `thebibliography` lists and fonts without a
Unicode map. `--fetch` downloads every `r-cran-*` and `r-bioc-*` package under 15 MB with `apt-get download`
(Debian's package client; nothing is installed) into DIR/debs and unpacks their `doc/` folders into DIR/x.

Gold is a count, not strings: the `\\bibitem`s of a `thebibliography`, else the distinct keys of the source's
`\\cite…{}` and `\\nocite{}` commands, for a source that has a bibliography, cites at least three keys, has no
`\\nocite{*}` and inputs no other file. A key cited but missing from the `.bib` still counts, so a few papers
sit one off. The figures are count-based: `covered` = Σ min(extracted, gold) / Σ gold, an upper bound of
recall (an entry split in two and two entries merged into one cancel out); `within` = papers whose count is
within max(1, 5%) of their gold; `under half` = papers that lost more than half their list, the failures
that matter most. Halves are by package name (CRC-32), so a package's vignettes stay in one half.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import time
import zlib
from pathlib import Path

from refhound.agents.extractor.extract import extract_pdf

_MAX_DEB_BYTES = 15_000_000
_CITE = re.compile(r"\\(?:no)?cite[a-zA-Z]*\*?\s*(?:\[[^\]]*\]\s*){0,2}\{([^}]*)\}")
_BIBLIOGRAPHY = re.compile(r"\\(?:bibliography|addbibresource|printbibliography)\b")
_INPUT = re.compile(r"\\(?:input|include)\{")
_MIN_GOLD = 3


def fetch(directory: Path) -> None:
    """Download the R packages' debs (under `_MAX_DEB_BYTES`) and unpack their doc/ folders."""
    debs, unpacked = directory / "debs", directory / "x"
    debs.mkdir(parents=True, exist_ok=True)
    names = subprocess.run(
        ["apt-cache", "search", "--names-only", "^r-(cran|bioc)-"], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    packages = sorted({line.split(" ", 1)[0] for line in names if line})
    show = subprocess.run(["apt-cache", "show", *packages], capture_output=True, text=True, check=True).stdout
    sizes: dict[str, int] = {}
    for record in show.split("\n\n"):
        fields = dict(re.findall(r"^(Package|Size): (\S+)", record, re.MULTILINE))
        if "Package" in fields and "Size" in fields:
            sizes.setdefault(fields["Package"], int(fields["Size"]))
    wanted = [name for name in packages if sizes.get(name, _MAX_DEB_BYTES) < _MAX_DEB_BYTES]
    for start in range(0, len(wanted), 50):
        subprocess.run(["apt-get", "download", *wanted[start : start + 50]], cwd=debs, check=False)
    for deb in sorted(debs.glob("*.deb")):
        target = unpacked / deb.name.split("_", 1)[0]
        if target.exists():
            continue
        target.mkdir(parents=True)
        tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(deb)], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target), "--wildcards", "*/doc/*"], input=tar, check=False)
    release = dict(
        line.split("=", 1) for line in Path("/etc/os-release").read_text().splitlines() if "=" in line
    ).get("VERSION_CODENAME", "?")
    (directory / "SOURCE.json").write_text(
        json.dumps({"debian": release, "packages": len(wanted), "debs": len(list(debs.glob("*.deb")))})
    )


def gold_count(source: Path) -> int | None:
    """How many references the vignette built from `source` lists, or None when the source cannot say."""
    lines = source.read_text(errors="replace").splitlines()
    text = "\n".join(line.split("%", 1)[0] for line in lines)  # comments out (a `%` in code is rare)
    if _INPUT.search(text):
        return None
    items = len(re.findall(r"\\bibitem\b", text))
    if items:
        return items if items >= _MIN_GOLD else None
    keys = {key.strip() for match in _CITE.finditer(text) for key in match.group(1).split(",") if key.strip()}
    if "*" in keys or not _BIBLIOGRAPHY.search(text) or len(keys) < _MIN_GOLD:
        return None
    return len(keys)


def half_of(pdf: Path, root: Path) -> str:
    package = pdf.relative_to(root).parts[0]
    return "A" if zlib.crc32(package.encode()) % 2 == 0 else "B"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("directory", type=Path)
    parser.add_argument("--fetch", action="store_true")
    parser.add_argument("--half", choices=["A", "B"])
    parser.add_argument("--pdf", action="append", default=[], help="only vignettes of this file name")
    parser.add_argument(
        "--json", type=Path, help="per paper: gold, extracted count, raw strings, CPU seconds"
    )
    args = parser.parse_args()
    if args.fetch:
        fetch(args.directory)
    root = args.directory / "x"
    papers = []
    for pdf in sorted(root.rglob("doc/*.pdf")):
        source = pdf.with_suffix(".Rnw")
        gold = gold_count(source) if source.exists() else None
        if gold is None or (args.half and half_of(pdf, root) != args.half):
            continue
        if args.pdf and pdf.name not in args.pdf:
            continue
        papers.append((pdf, gold))
    results = {}
    for pdf, gold in papers:
        started = time.process_time()
        extraction = extract_pdf(pdf)
        results[str(pdf.relative_to(root))] = {
            "half": half_of(pdf, root),
            "gold": gold,
            "extracted": len(extraction.references),
            "cpu": round(time.process_time() - started, 3),
            "warnings": extraction.warnings,
            "references": [reference.raw for reference in extraction.references],
        }
    for half in "AB":
        rows = [row for row in results.values() if row["half"] == half]
        if not rows:
            continue
        gold = sum(row["gold"] for row in rows)
        extracted = sum(row["extracted"] for row in rows)
        both = sum(min(row["gold"], row["extracted"]) for row in rows)
        within = sum(abs(row["extracted"] - row["gold"]) <= max(1, row["gold"] // 20) for row in rows)
        under = [
            name
            for name, row in results.items()
            if row["half"] == half and row["extracted"] < row["gold"] / 2
        ]
        cpu = sorted(row["cpu"] for row in rows)
        print(
            f"half {half}: {len(rows)} papers, gold {gold}, extracted {extracted}; "
            f"covered {both / gold:.3f}, of extracted {both / max(extracted, 1):.3f}; "
            f"within 5%: {within}; under half: {len(under)}; "
            f"CPU s per PDF median {cpu[len(cpu) // 2]:.2f}, max {cpu[-1]:.1f}"
        )
        for name in under:
            print(f"  under half: {name} {results[name]['extracted']} of {results[name]['gold']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
