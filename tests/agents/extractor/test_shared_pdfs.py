"""The extractor on real manuscripts from ../shared/data/pdfs (skipped when that material is absent).

The recall/precision figures on excite-ssoar-dev are measured by scripts/eval_pdf_extract.py and recorded in
docs/benchmarks.md; these tests pin what the ground truth states exactly.
"""

from __future__ import annotations

import pytest

from refhound.agents.extractor import extract_pdf
from tests.conftest import shared_path

pytestmark = pytest.mark.shared


@pytest.mark.parametrize(("name", "count"), [("1503.07589v1.pdf", 36), ("2503.05372.pdf", 39)])
def test_arxiv_reference_counts(name: str, count: int) -> None:
    assert len(extract_pdf(shared_path("pdfs", "arxiv-refextract", name)).references) == count


def test_arxiv_link_targets_become_identifiers() -> None:
    references = extract_pdf(shared_path("pdfs", "arxiv-refextract", "1503.07589v1.pdf")).references
    dois = {reference.parsed.doi for reference in references}
    arxiv_ids = {reference.parsed.arxiv_id for reference in references}
    assert {"10.1103/physrevlett.13.321", "10.1016/j.physletb.2012.08.020"} <= dois
    assert "1207.7214" in arxiv_ids
    first = extract_pdf(shared_path("pdfs", "arxiv-refextract", "2503.05372.pdf")).references[0]
    assert "https://doi.org/10.1103/PhysRevD.68.037502" in first.links


def test_a_numbered_list_followed_by_an_author_list() -> None:
    """2502.21088 prints [1]–[101] and then the ATLAS author list, which is no reference."""
    references = extract_pdf(shared_path("pdfs", "arxiv-refextract", "2502.21088.pdf")).references
    assert len(references) == 101
    assert references[0].raw.startswith("S. D. Drell and T.-M. Yan")
    assert "Phys. Rev. Lett. 25 (1970) 316" in references[0].raw
    assert references[-1].raw.startswith("ATLAS Collaboration")
    assert "G. Aad" not in references[-1].raw


@pytest.mark.parametrize(("name", "count"), [("2020.acl-main.207.pdf", 57), ("N18-3011.pdf", 27)])
def test_acl_counts_within_two_of_grobid(name: str, count: int) -> None:
    assert abs(len(extract_pdf(shared_path("pdfs", "acl-grobid-silver", name)).references) - count) <= 2
