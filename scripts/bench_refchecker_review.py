#!/usr/bin/env python
"""refhound on the references another checker flagged in awarded papers, as a person reviewed them.

    python scripts/bench_refchecker_review.py --repo GIT_DIR --index INDEX [--json OUT]

RefChecker's public scan (github.com/markrussinovich/refchecker-iclr2026) flagged 70 references of 56
awarded ICLR/ICML/NeurIPS papers as likely hallucinated, and a reviewer then marked each TP (materially
fabricated or conflated) or FP (a real work; formatting, missing metadata, a website, a work before 1970,
one author left out). GIT_DIR is a clone or mirror of that repository; the script reads
`_workspace/overview/awarded_paper_hallucinated_references.json` (the cited fields) and
`awarded_paper_hallucination_review.md` (the reviewer's TP/FP, in the same order) at HEAD, writes the
cited fields as CSL-JSON, runs `refhound check --offline` on it with the memory off and scratch folders,
and counts verdicts and flags per label. Those references are hard by selection: every one of them fooled
or worried another checker.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from list_pdf_flags import is_flag, run_check, scratch_environment

_FLAGS = "_workspace/overview/awarded_paper_hallucinated_references.json"
_REVIEW = "_workspace/overview/awarded_paper_hallucination_review.md"
_HEADING = re.compile(r"^### Reference (\d+): (.*) \((FP|TP)\)$", re.MULTILINE)


def _show(repo: Path, path: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(repo), "show", f"HEAD:{path}"], check=True, capture_output=True, text=True
    ).stdout


def _csl_item(key: str, cited: dict[str, Any]) -> dict[str, Any]:
    """The cited fields as RefChecker read them, as a CSL-JSON item."""
    item: dict[str, Any] = {"id": key, "type": "article", "title": cited["title"]}
    names = [name.rsplit(" ", 1) for name in cited.get("authors") or []]
    if names:  # "Given Names Family", as the other parser wrote them
        item["author"] = [{"given": n[0], "family": n[1]} if len(n) > 1 else {"literal": n[0]} for n in names]
    if cited.get("venue"):
        item["container-title"] = cited["venue"]
    if cited.get("year"):
        item["issued"] = {"date-parts": [[int(cited["year"])]]}
    if cited.get("doi"):
        item["DOI"] = cited["doi"]
    if cited.get("url"):
        item["URL"] = cited["url"]
    return item


def reviewed_items(repo: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The flagged references as CSL-JSON items, and each one's label (TP or FP) by item id."""
    flags = json.loads(_show(repo, _FLAGS))
    headings = _HEADING.findall(_show(repo, _REVIEW))
    references = [ref for paper in flags["papers"] for ref in paper["likely_hallucinated_references"]]
    if len(references) != len(headings):
        raise SystemExit(f"{len(references)} flagged references but {len(headings)} reviews")
    items, labels = [], {}
    for (number, title, label), reference in zip(headings, references, strict=True):
        cited = reference["original_reference"]
        if cited["title"].strip()[:15].lower() != title.strip()[:15].lower():
            raise SystemExit(f"review {number} ({title!r}) is not of {cited['title']!r}")
        key = f"ref{number}"
        items.append(_csl_item(key, cited))
        labels[key] = label
    return items, labels


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True, help="git directory of refchecker-iclr2026")
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--json", type=Path, help="write the check's report here")
    args = parser.parse_args()
    items, labels = reviewed_items(args.repo)
    with tempfile.TemporaryDirectory() as scratch:
        scratch_environment(scratch)
        csl = Path(scratch) / "reviewed.json"
        csl.write_text(json.dumps(items, ensure_ascii=False))
        report_path = args.json or Path(scratch) / "report.json"
        seconds = run_check([csl], args.index, report_path)
        report = json.loads(report_path.read_text())
    counts: Counter[tuple[str, str]] = Counter()
    for reference in report["references"]:
        label = labels[reference["id"]]
        decided = reference["verdict"] != "unverified" or reference["hallucinated"]
        counts[label, "decided" if decided else "undecided"] += 1
        if is_flag(reference, report["threshold"]):
            counts[label, "flagged"] += 1
            print(f"flagged {label}: {reference['id']} {reference['likelihood']:.2f} {reference['reason']}")
    for label, meaning in (("TP", "invented or conflated"), ("FP", "real")):
        total = sum(1 for value in labels.values() if value == label)
        print(
            f"{label} ({meaning}): {total}; decided {counts[label, 'decided']}, "
            f"flagged {counts[label, 'flagged']}"
        )
    print(f"model {report['model']}, threshold {report['threshold']}; {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
