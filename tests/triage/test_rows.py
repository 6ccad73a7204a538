"""Triage rows: ranking, flags and the CSV."""

from __future__ import annotations

import csv
import io

from refhound.triage.rows import PaperRow, VerdictCounts, error_row, ranked, to_csv


def _row(paper: str, hallucinated: int = 0, minor: int = 0, unverified: int = 0, total: int = 10) -> PaperRow:
    counts = VerdictCounts(verified=total - unverified, unverified=unverified)
    return PaperRow(
        paper=paper,
        status="checked",
        references=total,
        verdicts=counts,
        hallucinated=hallucinated,
        minor=minor,
    )


def test_ranking_is_hallucinated_then_minor_then_share_unverified_then_errors() -> None:
    rows = [
        error_row("broken.pdf", "empty file"),
        _row("clean.pdf"),
        _row("unsure.pdf", unverified=5),
        _row("slips.pdf", minor=3),
        _row("fakes.pdf", hallucinated=2),
        _row("fake.pdf", hallucinated=1, minor=5),
    ]
    assert [r.paper for r in ranked(rows)] == [
        "fakes.pdf",
        "fake.pdf",
        "slips.pdf",
        "unsure.pdf",
        "clean.pdf",
        "broken.pdf",
    ]


def test_csv_cells_never_start_a_formula() -> None:
    rows = [error_row('=HYPERLINK("http://x").pdf', "@SUM(A1)"), _row("+plus.pdf")]
    table = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert table[0]["paper"] == '\'=HYPERLINK("http://x").pdf' and table[0]["error"] == "'@SUM(A1)"
    assert table[1]["paper"] == "'+plus.pdf"
