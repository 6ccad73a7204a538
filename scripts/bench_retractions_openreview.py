"""Figures of retraction marks and `triage --openreview` (docs/benchmarks/retractions-openreview.md).

Retractions, offline, on real rows and real answers of ../shared:
- the 20 real Retraction Watch rows (`crossref-retractions/stub_retractions.csv`) in an index, each paper
  cited by its own metadata and checked with `refhound check --offline`: how many are marked, and right;
- arXiv's 200-line OAI sample: withdrawals read from the listings' comments;
- the 106 recorded responses: works marked by their own bodies (Crossref `updated-by`, OpenAlex
  `is_retracted`), and by the Retraction Watch rows.

OpenReview, against the loopback API v2 of the tests (tests/triage/openreview_server.py) serving the real
notes of ../shared in v2's envelope: the ICLR 2026 venue listed and its PDFs downloaded at the default
politeness (1 request/s), then the same run again (resumed).

Everything runs in a scratch folder with scratch XDG folders and the memory off.

    .venv/bin/python scripts/bench_retractions_openreview.py [--json OUT]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SERVICES = ROOT.parent / "shared" / "data" / "services"
ARXIV_SAMPLE = ROOT.parent / "shared" / "data" / "index" / "arxiv-oai-snapshot-sample-200.jsonl"


def _env(scratch: Path) -> dict[str, str]:
    return {
        **os.environ,
        "XDG_DATA_HOME": str(scratch / "data"),
        "XDG_CACHE_HOME": str(scratch / "cache"),
        "REFHOUND_MEMORY__ENABLED": "false",
    }


def _refhound(*args: str) -> Any:
    """The command line, in this process (its timings include no interpreter start-up)."""
    from typer.testing import CliRunner

    from refhound.cli import app

    return CliRunner().invoke(app, list(args))


def retraction_watch_rows(scratch: Path) -> dict[str, Any]:
    """Build an index of the 20 rows, check a .bib of their papers offline, count the marks."""
    rows_csv = SERVICES / "crossref-retractions" / "stub_retractions.csv"
    with rows_csv.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    index = scratch / "rw.sqlite"
    started = time.perf_counter()
    built = _refhound("index", "build", "--db", str(index), "--retraction-watch", str(rows_csv))
    assert built.exit_code == 0, built.stderr
    build_s = time.perf_counter() - started
    bib = scratch / "rw.bib"
    bib.write_text(
        "\n".join(
            f"@article{{rw{r['Record ID']}, title = {{{r['Title']}}}, "
            f"author = {{{' and '.join(r['Author'].split(';'))}}}, journal = {{{r['Journal']}}}, "
            f"year = {{{r['OriginalPaperDate'].split('/')[2][:4]}}}, doi = {{{r['OriginalPaperDOI']}}}}}"
            for r in rows
        ),
        encoding="utf-8",
    )
    started = time.perf_counter()
    done = _refhound("check", str(bib), "--index", str(index), "--offline", "--format", "json")
    check_s = time.perf_counter() - started
    report = json.loads(done.stdout)
    by_id = {r["id"]: r for r in report["references"]}
    right = sum(
        1
        for r in rows
        if (mark := by_id[f"rw{r['Record ID']}"]["retraction"])
        and mark["kind"] == "retracted"
        and mark["notice_doi"] == r["RetractionDOI"].lower()
    )
    return {
        "rows": len(rows),
        "marked": report["summary"]["retracted"],
        "marked_with_the_rows_notice": right,
        "verdicts": {
            k: report["summary"][k] for k in ("verified", "metadata_error", "fabricated", "unverified")
        },
        "exit_code": done.exit_code,
        "index_build_s": round(build_s, 2),
        "check_s": round(check_s, 2),
    }


def arxiv_withdrawals() -> dict[str, Any]:
    from refhound.retractions import is_withdrawal_comment

    lines = [
        json.loads(line) for line in ARXIV_SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    mentioning = [d["id"] for d in lines if "withdr" in (d.get("comments") or "").lower()]
    withdrawn = [d["id"] for d in lines if is_withdrawal_comment(d.get("comments"))]
    return {"listings": len(lines), "comments_mentioning_withdraw": mentioning, "withdrawn": withdrawn}


def recorded_responses(scratch: Path) -> dict[str, Any]:
    from refhound.index.ingest.retraction_watch import read_retraction_watch
    from refhound.index.store import IndexStore
    from tests.sources.recorded import load
    from tests.sources.test_recorded import _ask, _holds_no_title

    recordings = load(SERVICES / "recorded-responses.jsonl")
    answered = [r for r in recordings if r.kind != "transform" and r.status == 200 and not _holds_no_title(r)]
    records = [record for rec in answered for record in _ask(rec)]
    with IndexStore.create(scratch / "rw-only.sqlite") as store:
        store.ingest(read_retraction_watch(SERVICES / "crossref-retractions" / "stub_retractions.csv"))
        by_rows = sorted({r.doi or "" for r in records if store.retraction_notices(r.doi, r.arxiv_id)})
    return {
        "recordings": len(recordings),
        "records_mapped": len(records),
        "marked_by_their_own_body": sorted(r.source_id for r in records if r.retraction is not None),
        "marked_by_the_retraction_watch_rows": by_rows,
    }


def openreview(scratch: Path) -> dict[str, Any]:
    from refhound.settings import Settings
    from refhound.triage.openreview import download_venue
    from tests.triage.openreview_server import OpenReviewServer, v2_note

    folder = SERVICES / "openreview" / "refchecker-api-cache"
    notes = [v2_note(json.loads(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.json"))]
    venue = "ICLR.cc/2026/Conference"
    with OpenReviewServer(notes) as server:
        settings = Settings(
            openreview={"base_url": server.url}, check={"offline": False}
        )  # default politeness
        started = time.perf_counter()
        first = asyncio.run(download_venue(venue, scratch / "iclr", settings))
        first_s = time.perf_counter() - started
        requests_first = server.count
        started = time.perf_counter()
        again = asyncio.run(download_venue(venue, scratch / "iclr", settings))
        again_s = time.perf_counter() - started
        requests_again = server.count - requests_first
    return {
        "notes_served": len(notes),
        "venue": venue,
        "submissions": len(first.submissions),
        "pdfs_fetched": first.fetched,
        "requests": requests_first,
        "seconds": round(first_s, 2),
        "resumed": {
            "pdfs_fetched": again.fetched,
            "reused": again.reused,
            "requests": requests_again,
            "seconds": round(again_s, 2),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="Also write the figures here.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="refhound-bench-") as tmp:
        scratch = Path(tmp)
        os.environ.update(_env(scratch))
        figures = {
            "retraction_watch_rows": retraction_watch_rows(scratch),
            "arxiv_withdrawals": arxiv_withdrawals(),
            "recorded_responses": recorded_responses(scratch),
            "openreview": openreview(scratch),
        }
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
