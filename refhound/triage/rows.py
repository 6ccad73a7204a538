"""A triage row per paper (`refhound.triage/1`), the ranking, and the CSV.

A paper's row counts its verdicts, its hallucinated references (those whose likelihood of invention reaches
the threshold, plus unverified ones when `--unverified-as fake`) and its minor slips, sums its references'
likelihoods (the expected number of invented references) and names its most likely invented references in
`flags`. Papers are ranked by that expected number, then by their highest single likelihood; papers that could
not be checked follow, with their reason.
"""

from __future__ import annotations

import csv
import io
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from refhound.models import FieldStatus, ReferenceResult, Report, Verdict, problem_rank
from refhound.report._common import display_title, retraction_text

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
    expected_invented: float = Field(
        default=0.0, description="The sum of the references' likelihoods: how many are expected invented."
    )
    max_likelihood: float = Field(default=0.0, description="The highest likelihood of any one reference.")
    flags: list[str] = Field(default_factory=list)
    retracted: int = Field(
        default=0, description="References whose cited work is retracted, withdrawn or under concern."
    )
    retractions: list[str] = Field(
        default_factory=list, description="One line per such reference: its id, mark, notice and title."
    )
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
    chance = f" (likelihood {result.likelihood:.2f})" if result.likelihood is not None else ""
    if result.verdict is Verdict.FABRICATED:
        return f"[{result.id}] fabricated{chance}: {title}"
    if result.verdict is Verdict.UNVERIFIED:
        return f"[{result.id}] unverified{chance}: {title}"
    wrong = [c for c in result.fields if c.status is FieldStatus.MISMATCH]
    fixes = ", ".join(
        f"{c.field} differ" if c.field == "authors" else f"{c.field} {c.cited or '—'} → {c.found or '—'}"
        for c in wrong[:2]
    )
    severity = result.severity.value if result.severity else "major"
    return f"[{result.id}] {severity} error{chance}" + (f", {_short(fixes)}" if fixes else "") + f": {title}"


def retraction_line(result: ReferenceResult) -> str:
    """E.g. '[7] RETRACTED (notice 10.1155/2023/9753475, 2023-09-27, retraction-watch): "The Dilemma…"'."""
    return f'[{result.id}] {retraction_text(result)}: "{_short(display_title(result))}"'


def checked_row(paper: str, report: Report, report_path: str, html_path: str) -> PaperRow:
    """The row of a checked paper from its report."""
    summary = report.summary
    worst = sorted(
        (r for r in report.references if r.hallucinated or r.verdict is Verdict.METADATA_ERROR),
        key=lambda r: (-(r.likelihood or 0.0), problem_rank(r)),
    )
    likelihoods = [r.likelihood or 0.0 for r in report.references]
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
        expected_invented=round(sum(likelihoods), 3),
        max_likelihood=max(likelihoods, default=0.0),
        flags=[flag_line(r) for r in worst[:MAX_FLAGS]],
        retracted=summary.retracted,
        retractions=[retraction_line(r) for r in report.references if r.retraction is not None],
        report=report_path,
        html=html_path,
    )


def error_row(paper: str, error: str) -> PaperRow:
    return PaperRow(paper=paper, status="error", error=" ".join(error.split()))


def ranked(rows: list[PaperRow]) -> list[PaperRow]:
    """Most suspicious first: the expected number of invented references, then the highest likelihood;
    errors last."""
    return sorted(
        rows,
        key=lambda row: (row.status == "error", -row.expected_invented, -row.max_likelihood, row.paper),
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
    "expected_invented",
    "max_likelihood",
    "flags",
    "report",
    "retracted",
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
                row.expected_invented,
                row.max_likelihood,
                _cell(" | ".join(row.flags)),
                row.report or "",
                row.retracted,
            ]
        )
    return out.getvalue()
