"""scripts/eval_pdf_extract.py splits the excite development PDFs into two fixed halves."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests.scripts import load_script


def _script() -> ModuleType:
    return load_script("eval_pdf_extract")


def test_halves_are_the_even_and_odd_positions_of_the_name_sorted_list() -> None:
    script = _script()
    pdfs = [Path(f"{name}.pdf") for name in ("9570", "11246", "5048", "11611", "12279")]
    # Sorted as strings: 11246, 11611, 12279, 5048, 9570.
    assert [p.stem for p in script.excite_half(pdfs, "A")] == ["11246", "12279", "9570"]
    assert [p.stem for p in script.excite_half(pdfs, "B")] == ["11611", "5048"]


def test_summary_names_the_worst_paper() -> None:
    rows = [
        {"id": "1", "gold": 10, "extracted": 10, "found": 10, "recall": 1.0, "precision": 1.0},
        {"id": "2", "gold": 10, "extracted": 8, "found": 6, "recall": 0.6, "precision": 0.75},
    ]
    summary = _script().summarize(rows)
    assert summary["recall"] == 16 / 20
    assert summary["precision"] == 16 / 18
    assert summary["worst"] == "2 (R 0.60, P 0.75)"
