"""The extractor agent: a manuscript PDF in, structured references out.

    extract_pdf(path, settings) -> Extraction     references with parsed fields, confidence, page, links
    read_pdf_references(path, settings)           the same as `Reference`s and `InputProblem`s for `check`

Stages: the page text of `refhound.pdf` (opened safely, OCR for pages without text, lines in reading
order, no running headers) → `section` (where the list is) → `segment` (one entry per reference) → `links`
(the PDF's link annotations) → the deterministic reference-string parser, and `llm_backend` for what it is
unsure of.
"""

from __future__ import annotations

from pathlib import Path

from refhound.agents.extractor.extract import extract_pdf
from refhound.agents.extractor.plausibility import GATE, describe_missing
from refhound.agents.extractor.result import EXTRACT_SCHEMA, ExtractedReference, Extraction
from refhound.errors import InputError
from refhound.inputs.files import is_pdf  # re-exported: PDFs are told apart without the PDF library
from refhound.models import InputProblem, Reference
from refhound.settings import Settings

__all__ = [
    "EXTRACT_SCHEMA",
    "ExtractedReference",
    "Extraction",
    "extract_pdf",
    "is_pdf",
    "read_pdf_references",
]


def read_pdf_references(path: Path, settings: Settings) -> tuple[list[Reference], list[InputProblem]]:
    """The references of a PDF for checking, and its warnings and set-aside entries as problems.

    An entry below the plausibility gate is an extraction problem: shown with its text, never judged, so it
    has no verdict and no likelihood and counts in no summary; where no entry passes, each is still shown,
    after a problem saying that none read as a reference. Raises `InputError` when the PDF yields no entry
    at all (unreadable, or no reference list)."""
    extraction = extract_pdf(path, settings)
    set_aside = [set_aside_problem(str(path), entry) for entry in extraction.set_aside]
    if not extraction.references:
        reason = extraction.warnings[-1] if extraction.warnings else "no references found"
        if not set_aside:
            raise InputError(path, reason)
        count = len(set_aside)
        said = (
            "1 entry did not read as a reference"
            if count == 1
            else f"{count} entries did not read as references"
        )
        none = InputProblem(input=str(path), message=f"{reason}; {said}")
        return [], [none, *set_aside]
    problems = [InputProblem(input=str(path), message=warning) for warning in extraction.warnings]
    return extraction.as_references(), problems + set_aside


def set_aside_problem(source: str, entry: ExtractedReference) -> InputProblem:
    """The problem that shows an entry the plausibility gate set aside: where it is, why, and its text."""
    text = entry.raw if len(entry.raw) <= 300 else entry.raw[:299] + "…"
    return InputProblem(
        input=source,
        location=f"entry {entry.id} (page {entry.page})",
        message=(
            f"extraction problem, not checked: the entry does not read as a reference (likeness "
            f"{entry.likeness:.2f} < {GATE}; {describe_missing(entry.lacks)}): {text}"
        ),
    )
