"""The nougat backend with the model call really run: transformers' `NougatProcessor` and
`VisionEncoderDecoderModel.generate` on a tiny checkpoint built here (`nougat_checkpoint`), through
`extract_pdf` and `refhound extract --nougat-checkpoint`. What such a model can show: every scanned page is
rendered, processed and read by the encoder, `generate` runs with refhound's settings and stops at `</s>`, the
decoded and post-processed text is what the Markdown parser reads, and the references, pages, section and
warnings follow from it. It says nothing of nougat's quality (no released checkpoint here).

Needs the `nougat` extra and torch (`scripts/setup --with-nougat`); skipped without them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refhound.agents.extractor import extract_pdf, nougat_backend
from refhound.pdf import nougat
from refhound.settings import Settings
from tests.agents.extractor.pdfmaker import body, write_pdf
from tests.agents.extractor.test_ocr import needs_tesseract, scanned

for _module in ("torch", "Levenshtein", "nltk"):
    pytest.importorskip(_module, reason=f"{_module} is not installed (scripts/setup --with-nougat)")
# the tiny checkpoint is built with transformers 5's classes (NougatTokenizer, NougatImageProcessorPil)
pytest.importorskip("transformers", minversion="5", reason="transformers 5 is not installed (--with-nougat)")

from tests.agents.extractor.nougat_checkpoint import IMAGE_SIZE, build_checkpoint  # noqa: E402

pytestmark = pytest.mark.slow  # about 10 s a page on a loaded 2-core CPU: the decoder runs token by token

REFERENCES = (
    "## References\n\n"
    "* [1] Relja Arandjelovic and Andrew Zisserman. Three things everyone should know to improve object "
    "retrieval. In _CVPR_, 2012.\n"
    "* [2] Yann LeCun. A path towards autonomous machine intelligence. _OpenReview_, 2022.\n"
)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_checkpoint(tmp_path_factory.mktemp("nougat-tiny"), REFERENCES)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[Any]]]:
    """What reaches `generate` and the Markdown parser, recorded while both still run for real."""
    from transformers import VisionEncoderDecoderModel

    seen: dict[str, list[Any]] = {"generate": [], "markdown": []}
    generate = VisionEncoderDecoderModel.generate
    parse = nougat_backend.references_from_markdown

    def recording_generate(self: Any, pixel_values: Any, **kwargs: Any) -> Any:
        ids = generate(self, pixel_values, **kwargs)
        seen["generate"].append((tuple(pixel_values.shape), kwargs, ids))
        return ids

    def recording_parse(markdown: str) -> list[str]:
        seen["markdown"].append(markdown)
        return parse(markdown)

    monkeypatch.setattr(VisionEncoderDecoderModel, "generate", recording_generate)
    monkeypatch.setattr(nougat_backend, "references_from_markdown", recording_parse)
    yield seen


def test_the_checkpoint_passes_the_check(checkpoint: Path) -> None:
    assert nougat.nougat_problem(checkpoint) is None


def test_scanned_pages_are_read_by_the_model(
    tmp_path: Path, checkpoint: Path, calls: dict[str, list[Any]]
) -> None:
    path = scanned(write_pdf(tmp_path / "typeset.pdf", [body(30), body(30)]), tmp_path / "scan.pdf")
    settings = Settings(extract={"ocr_backend": "nougat", "nougat_checkpoint": checkpoint})
    extraction = extract_pdf(path, settings)

    assert len(calls["generate"]) == 2  # one call a page
    for shape, kwargs, ids in calls["generate"]:
        assert shape == (1, 3, *IMAGE_SIZE)  # the page image, resized by the checkpoint's processor
        assert kwargs == {"min_length": 1, "max_new_tokens": 3584, "bad_words_ids": [[3]]}  # 3: <unk>
        assert ids[0, -1].item() == 2 and ids.shape[1] < 3584  # stopped at </s>, not at the cap
    # the pages' decoded, post-processed text is what the parser reads
    (markdown,) = calls["markdown"]
    assert markdown.count(REFERENCES.strip()) == 2
    assert [reference.raw for reference in extraction.references] == [
        "Relja Arandjelovic and Andrew Zisserman. Three things everyone should know to improve object "
        "retrieval. In CVPR, 2012.",
        "Yann LeCun. A path towards autonomous machine intelligence. OpenReview, 2022.",
    ]
    assert [reference.parsed.year for reference in extraction.references] == [2012, 2022]
    assert extraction.references[1].parsed.title == "A path towards autonomous machine intelligence"
    assert extraction.section == "nougat markdown"
    assert extraction.warnings[0] == f"pages 1, 2 were read by OCR (nougat, checkpoint {checkpoint})"
    assert extraction.warnings[1].startswith("2 of the 2 references come from OCR of page images (nougat)")
    assert extraction.ocr_pages == [1, 2]


@needs_tesseract
def test_without_a_list_in_the_model_text_tesseract_reads_the_pages(
    tmp_path: Path, calls: dict[str, list[Any]]
) -> None:
    no_list = build_checkpoint(tmp_path / "nougat-no-list", "# A paper\n\nBody text, and no list.\n")
    path = scanned(write_pdf(tmp_path / "typeset.pdf", [body(30)]), tmp_path / "scan.pdf")
    extraction = extract_pdf(path, Settings(extract={"ocr_backend": "nougat", "nougat_checkpoint": no_list}))
    assert len(calls["generate"]) == 1
    assert "Body text, and no list." in calls["markdown"][0]
    assert extraction.section != "nougat markdown"
    assert "nougat found no reference list on the scanned pages; Tesseract reads them instead" in (
        extraction.warnings
    )
    assert "page 1 was read by OCR (Tesseract)" in extraction.warnings


def test_refhound_extract_runs_the_model(
    tmp_path: Path, checkpoint: Path, calls: dict[str, list[Any]]
) -> None:
    from typer.testing import CliRunner

    from refhound.cli import app

    path = scanned(write_pdf(tmp_path / "typeset.pdf", [body(30)]), tmp_path / "scan.pdf")
    result = CliRunner().invoke(
        app, ["extract", str(path), "--format", "json", "--nougat-checkpoint", str(checkpoint)]
    )
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["section"] == "nougat markdown"
    assert [(reference["page"], reference["parsed"]["year"]) for reference in report["references"]] == [
        (1, 2012),
        (1, 2022),
    ]
    assert len(calls["generate"]) == 1
    assert f"page 1 was read by OCR (nougat, checkpoint {checkpoint})" in result.stderr
