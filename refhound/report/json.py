"""The JSON report: exactly the `refhound.report/1` contract."""

from __future__ import annotations

from refhound.models import Report


def render_json(report: Report) -> str:
    """The report as `refhound.report/1` JSON (see `Report.to_json`)."""
    return report.to_json()
