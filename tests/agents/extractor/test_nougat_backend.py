"""The nougat backend's path through extraction, with the model replaced by what it returns (Markdown).

These need neither torch nor transformers; the model call itself
(`refhound.pdf.nougat.page_markdown`: `NougatProcessor` and `VisionEncoderDecoderModel.generate` on a local
checkpoint) runs in `test_nougat_model.py` on a tiny checkpoint, where they are installed. Here: the
checkpoint check, the scanned pages left to nougat instead of Tesseract, the page images handed over, the
Markdown of nougat's own published output parsed into references, their pages, and the warnings."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from refhound.agents.extractor import extract_pdf
from refhound.pdf import nougat
from refhound.settings import Settings
from tests.agents.extractor.pdfmaker import body, write_pdf
from tests.agents.extractor.test_ocr import scanned

MARKDOWN = (Path(__file__).parent / "data" / "nougat-syncmatch-excerpt.mmd").read_text()


@pytest.fixture
def checkpoint(tmp_path: Path) -> Path:
    directory = tmp_path / "nougat-base"
    directory.mkdir()
    (directory / "config.json").write_text("{}")
    return directory


def test_the_checkpoint_and_the_libraries_are_checked(tmp_path: Path, checkpoint: Path) -> None:
    assert "no nougat checkpoint directory" in (nougat.nougat_problem(None) or "")
    assert "no config.json" in (nougat.nougat_problem(tmp_path) or "")
    problem = nougat.nougat_problem(checkpoint)
    assert problem is None or "pip install 'refhound[nougat]'" in problem


def test_scanned_pages_go_to_nougat_and_its_markdown_becomes_references(
    tmp_path: Path, checkpoint: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []

    def model(images: Sequence[Any], directory: Path) -> list[str]:
        seen.extend(images)
        assert directory == checkpoint
        return ["# A paper\n\nBody text.", MARKDOWN]

    monkeypatch.setattr("refhound.agents.extractor.extract.nougat_problem", lambda _checkpoint: None)
    monkeypatch.setattr(nougat, "page_markdown", model)
    typeset = write_pdf(tmp_path / "typeset.pdf", [body(30), body(30)])
    path = scanned(typeset, tmp_path / "scan.pdf")
    settings = Settings(extract={"ocr_backend": "nougat", "nougat_checkpoint": checkpoint})
    extraction = extract_pdf(path, settings)
    assert len(seen) == 2  # one image a page, rendered at nougat's resolution
    assert all(abs(image.size[0] - 595 * nougat.NOUGAT_DPI / 72) <= 1 for image in seen)
    assert len(extraction.references) == 9
    assert extraction.references[0].raw.startswith("Relja Arandjelovic and Andrew Zisserman.")
    assert extraction.references[0].parsed.year == 2012
    assert {reference.page for reference in extraction.references} == {2}
    assert extraction.section == "nougat markdown"
    assert extraction.warnings[0] == f"pages 1, 2 were read by OCR (nougat, checkpoint {checkpoint})"
    with pymupdf.open(path) as document:
        assert not document[1].get_text().strip()  # the scan has no text layer: nougat alone read it


def test_refhound_extract_takes_the_checkpoint_directory(
    tmp_path: Path, checkpoint: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from refhound.cli import app

    monkeypatch.setattr("refhound.agents.extractor.extract.nougat_problem", lambda _checkpoint: None)
    monkeypatch.setattr(nougat, "page_markdown", lambda images, directory: [MARKDOWN] * len(images))
    path = scanned(write_pdf(tmp_path / "typeset.pdf", [body(30)]), tmp_path / "scan.pdf")
    result = CliRunner().invoke(
        app, ["extract", str(path), "--format", "json", "--nougat-checkpoint", str(checkpoint)]
    )
    assert result.exit_code == 0, result.stderr
    assert '"section": "nougat markdown"' in result.stdout
    assert f"page 1 was read by OCR (nougat, checkpoint {checkpoint})" in result.stderr
