"""The quote checker on a real paper from ../shared/data/pdfs (skipped when that material is absent)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from refhound.quotes import check_document, read_document
from refhound.settings import Settings
from tests.conftest import shared_path

pytestmark = pytest.mark.shared


def test_quotes_from_a_real_pdf_cited_by_file_url(tmp_path: Path, offline: Settings) -> None:
    pdf = shared_path("pdfs", "acl-grobid-silver", "N18-3011.pdf")
    from refhound.quotes.textof import pdf_to_text

    text, _ = pdf_to_text(pdf, offline.extract)
    sentences = [s for s in re.split(r"(?<=\.)\s+(?=[A-Z])", text[2000:20000]) if 12 <= len(s.split()) <= 40]
    passage = " ".join(re.sub(r"(?<=[a-z])-\n(?=[a-z])", "", sentences[3]).split())
    altered = re.sub(r"\b(is|are|was|were)\b", r"\1 not", passage, count=1)
    if altered == passage:
        altered = passage.replace(" the ", " the very ", 1)
    doc = tmp_path / "review.md"
    doc.write_text(
        f'The paper states "{passage}" [1]. It also says "{altered}" [1].\n\n[1]: {pdf.resolve().as_uri()}\n',
        encoding="utf-8",
    )
    report = asyncio.run(check_document(read_document(doc, offline), offline))
    assert [r.status for r in report.results] == ["verified", "near_match"]
    assert report.results[0].source_sha256 and report.results[0].matched_text
