"""A triage row per paper (`refhound.triage/1`), the ranking, and the CSV.

A paper's row counts its verdicts, its hallucinated references (fabricated works and major metadata errors,
plus unverified ones when `--unverified-as fake`) and its minor slips, and names its worst references in
`flags`. Papers are ranked most suspicious first: hallucinated references, then minor errors, then the share
left unverified; papers that could not be checked follow, with their reason.
"""

from __future__ import annotations

import csv
import io
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from refhound.models import FieldStatus, ReferenceResult, Report, Verdict, problem_rank
from refhound.report._common import display_title

TRIAGE_SCHEMA = "refhound.triage/1"
MAX_FLAGS = 5
_TITLE_CHARS = 70


class VerdictCounts(BaseModel):
    model_config = ConfigDict(extra="forbid")

    verified: int = 0
    metadata_error: int = 0
    fabricated: int = 0
    unverified: int = 0


class PaperRow(BaseModel):
    """One paper of the triage: checked, with its counts and worst references, or an error."""

    model_config = ConfigDict(extra="forbid")

    paper: str = Field(description="Path relative to the PATH it came from; archive members as a.zip!m.pdf.")
    status: Literal["checked", "error"]
    error: str | None = None
    references: int = 0
    verdicts: VerdictCounts = Field(default_factory=VerdictCounts)
    hallucinated: int = 0
    minor: int = 0
    flags: list[str] = Field(default_factory=list)
    report: str | None = Field(default=None, description="papers/<slug>.json, relative to the output folder.")
    html: str | None = Field(default=None, description="papers/<slug>.html, relative to the output folder.")

    @property
    def unverified_share(self) -> float:
        return self.verdicts.unverified / self.references if self.references else 0.0


def _short(text: str) -> str:
    return text if len(text) <= _TITLE_CHARS else text[: _TITLE_CHARS - 1] + "…"


def flag_line(result: ReferenceResult) -> str:
    """E.g. '[12] fabricated: "Sparse Mixture Attention…"' or '[3] major error, year 2021 → 2017: "…"'."""
    title = f'"{_short(display_title(result))}"'
    if result.verdict is Verdict.FABRICATED:
        return f"[{result.id}] fabricated: {title}"
    if result.verdict is Verdict.UNVERIFIED:
        return f"[{result.id}] unverified: {title}"
    wrong = [c for c in result.fields if c.status is FieldStatus.MISMATCH]
    fixes = ", ".join(
        f"{c.field} differ" if c.field == "authors" else f"{c.field} {c.cited or '—'} → {c.found or '—'}"
        for c in wrong[:2]
    )
    severity = result.severity.value if result.severity else "major"
    return f"[{result.id}] {severity} error" + (f", {_short(fixes)}" if fixes else "") + f": {title}"


def checked_row(paper: str, report: Report, report_path: str, html_path: str) -> PaperRow:
    """The row of a checked paper from its report."""
    summary = report.summary
    worst = sorted(
        (r for r in report.references if r.hallucinated or r.verdict is Verdict.METADATA_ERROR),
        key=problem_rank,
    )
    return PaperRow(
        paper=paper,
        status="checked",
        references=summary.total,
        verdicts=VerdictCounts(
            verified=summary.verified,
            metadata_error=summary.metadata_error,
            fabricated=summary.fabricated,
            unverified=summary.unverified,
        ),
        hallucinated=sum(1 for r in report.references if r.hallucinated),
        minor=summary.minor,
        flags=[flag_line(r) for r in worst[:MAX_FLAGS]],
        report=report_path,
        html=html_path,
    )


def error_row(paper: str, error: str) -> PaperRow:
    return PaperRow(paper=paper, status="error", error=" ".join(error.split()))


def ranked(rows: list[PaperRow]) -> list[PaperRow]:
    """Most suspicious first: hallucinated, then minor errors, then share unverified; errors last."""
    return sorted(
        rows,
        key=lambda row: (
            row.status == "error",
            -row.hallucinated,
            -row.minor,
            -row.unverified_share,
            row.paper,
        ),
    )


CSV_COLUMNS = (
    "rank",
    "paper",
    "status",
    "error",
    "references",
    "verified",
    "metadata_error",
    "fabricated",
    "unverified",
    "hallucinated",
    "minor",
    "flags",
    "report",
)


def _cell(text: str) -> str:
    """Text for a spreadsheet: a cell a submission controls never starts as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def to_csv(rows: list[PaperRow]) -> str:
    """One line per paper in ranking order; flags joined with ' | '."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rank, row in enumerate(rows, 1):
        counts = row.verdicts
        writer.writerow(
            [
                rank,
                _cell(row.paper),
                row.status,
                _cell(row.error or ""),
                row.references,
                counts.verified,
                counts.metadata_error,
                counts.fabricated,
                counts.unverified,
                row.hallucinated,
                row.minor,
                _cell(" | ".join(row.flags)),
                row.report or "",
            ]
        )
    return out.getvalue()
