"""Triage rows: ranking, flags and the CSV."""

from __future__ import annotations

import csv
import io

from refhound.triage.rows import PaperRow, VerdictCounts, error_row, ranked, to_csv


def _row(paper: str, expected: float = 0.0, highest: float = 0.0, total: int = 10) -> PaperRow:
    return PaperRow(
        paper=paper,
        status="checked",
        references=total,
        verdicts=VerdictCounts(verified=total),
        expected_invented=expected,
        max_likelihood=highest,
    )


def test_ranking_is_expected_invented_then_highest_likelihood_then_errors() -> None:
    rows = [
        error_row("broken.pdf", "empty file"),
        _row("clean.pdf", 0.4, 0.05),
        # two slips graded likely (0.3 each) do not outrank one reference that is almost surely invented
        _row("slips.pdf", 0.6, 0.3),
        _row("fake.pdf", 1.3, 0.97),
        _row("sure.pdf", 0.6, 0.55),
    ]
    assert [r.paper for r in ranked(rows)] == ["fake.pdf", "sure.pdf", "slips.pdf", "clean.pdf", "broken.pdf"]


def test_csv_cells_never_start_a_formula() -> None:
    rows = [error_row('=HYPERLINK("http://x").pdf', "@SUM(A1)"), _row("+plus.pdf")]
    table = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert table[0]["paper"] == '\'=HYPERLINK("http://x").pdf' and table[0]["error"] == "'@SUM(A1)"
    assert table[1]["paper"] == "'+plus.pdf"
