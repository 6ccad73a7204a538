"""The JSON report: exactly the `refhound.report/1` contract."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from refhound.models import ReferenceResult, Report, Summary

_REFERENCES = '\n  "references": [],\n'


def render_json(report: Report) -> str:
    """The report as `refhound.report/1` JSON (see `Report.to_json`)."""
    return report.to_json()


def write_json(report: Report, results: Iterable[ReferenceResult], out: TextIO) -> Summary:
    """`report` with `results` as its references, written to `out` a reference at a time, as
    `Report.to_json` writes the whole report (a report of a million references is never held); its
    summary. `report` holds no references itself."""
    assert not report.references
    head, tail = report.to_json().split(_REFERENCES, 1)
    out.write(head + '\n  "references": [')
    summary = Summary()
    for result in results:
        out.write(
            ("," if summary.total else "") + "\n" + _indented(result.model_dump_json(by_alias=True, indent=2))
        )
        summary.count(result)
    out.write("\n  ],\n" if summary.total else "],\n")
    zero = _indented(Summary().model_dump_json(indent=2), 2).lstrip()
    out.write(
        tail.replace(
            f'"summary": {zero}', f'"summary": {_indented(summary.model_dump_json(indent=2), 2).lstrip()}', 1
        )
    )
    return summary


def _indented(text: str, by: int = 4) -> str:
    """Every line of `text` indented by `by` spaces (it holds no line break but JSON's own)."""
    return " " * by + text.replace("\n", "\n" + " " * by)
