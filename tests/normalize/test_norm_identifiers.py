"""DOIs and arXiv ids in the forms citations, BibTeX fields and PDFs carry them."""

from __future__ import annotations

import pytest

from refhound.normalize.identifiers import (
    arxiv_id_from_doi,
    arxiv_version,
    arxiv_year,
    find_arxiv_id,
    find_doi,
    normalize_arxiv_id,
    normalize_doi,
    not_a_title,
)

KDD_DOI = "10.1145/3292500.3330701"


@pytest.mark.parametrize(
    ("text", "doi"),
    [
        ("10.1145/3292500.3330701", KDD_DOI),
        ("doi:10.1145/3292500.3330701", KDD_DOI),
        ("DOI: 10.1145/3292500.3330701", KDD_DOI),
        ("https://doi.org/10.1145/3292500.3330701", KDD_DOI),
        ("http://dx.doi.org/10.1145/3292500.3330701", KDD_DOI),
        ("https://www.doi.org/10.1145/3292500.3330701", KDD_DOI),
        ("https://doi.org/10.1145%2F3292500.3330701", KDD_DOI),
        ("10.1145/3292500.3330701.", KDD_DOI),
        ("10.1145/3292500.3330701,", KDD_DOI),
        ("10.1145/3292500.3330701;", KDD_DOI),
        ("(10.1145/3292500.3330701)", KDD_DOI),
        ("<https://doi.org/10.1145/3292500.3330701>", KDD_DOI),
        ("10.18653/v1/2021.woah-1.1", "10.18653/v1/2021.woah-1.1"),
        ("10.1109/CVPR52729.2023.00373", "10.1109/cvpr52729.2023.00373"),
        ("10.48550/arXiv.2310.01362", "10.48550/arxiv.2310.01362"),
        ("10.1016/S0004-3702(01)00129-1", "10.1016/s0004-3702(01)00129-1"),
        (
            "10.1002/(SICI)1097-4636(199606)31:2<213::AID-JBM9>3.0.CO;2-L",
            "10.1002/(sici)1097-4636(199606)31:2<213::aid-jbm9>3.0.co;2-l",
        ),
        ("10.1007/3-540-44581-1\\_23", "10.1007/3-540-44581-1_23"),  # LaTeX-escaped, as dblp's BibTeX
        ("10.1007/3-540-44581-1{\\_}23", "10.1007/3-540-44581-1_23"),
        ("10.5555", None),
        ("10.5555/", None),
        ("1234.5", None),
        ("https://arxiv.org/abs/2005.14165", None),
        ("", None),
    ],
)
def test_normalize_doi(text: str, doi: str | None) -> None:
    assert normalize_doi(text) == doi


@pytest.mark.parametrize(
    ("text", "doi"),
    [
        ("In KDD, pages 2623–2631, 2019. doi: 10.1145/3292500.3330701.", KDD_DOI),
        ("Available at https://doi.org/10.1145/3292500.3330701 (accessed 2024).", KDD_DOI),
        ("url = {https://dl.acm.org/doi/10.1145/3292500.3330701}", KDD_DOI),
        ("see https://doi.org/10.1145%2F3292500.3330701", KDD_DOI),
        ("Proc. ACL, pp. 1--5 (DOI 10.18653/v1/2021.woah-1.1)", "10.18653/v1/2021.woah-1.1"),
        ("Vaswani et al. Attention is all you need. NeurIPS 2017.", None),
        ("Volume 10.5555, pages 1-10", None),
    ],
)
def test_find_doi(text: str, doi: str | None) -> None:
    assert find_doi(text) == doi


@pytest.mark.parametrize(
    ("text", "arxiv_id", "version"),
    [
        ("2005.14165", "2005.14165", None),
        ("2005.14165v3", "2005.14165", 3),
        ("arXiv:2005.14165v2", "2005.14165", 2),
        ("arXiv: 2005.14165", "2005.14165", None),
        ("https://arxiv.org/abs/2005.14165", "2005.14165", None),
        ("https://arxiv.org/pdf/2005.14165v1.pdf", "2005.14165", 1),
        ("http://export.arxiv.org/abs/1810.04805v2", "1810.04805", 2),
        ("arXiv:1810.04805 [cs.CL]", "1810.04805", None),
        ("abs/1810.04805", "1810.04805", None),
        ("0704.0001", "0704.0001", None),
        ("1412.6980", "1412.6980", None),
        ("hep-th/9901001", "hep-th/9901001", None),
        ("math.GT/0309136", "math/0309136", None),
        ("arXiv:cs/0112017v1", "cs/0112017", 1),
        ("cs.LG/0101001", "cs/0101001", None),
        ("cond-mat/0207270v2", "cond-mat/0207270", 2),
        ("1234.5", None, None),
        ("0703.0001", None, None),  # new-style ids start in April 2007
        ("1501.0001", None, None),  # five-digit sequence numbers since 2015
        ("1412.12345", None, None),
        ("2013.12345", None, None),  # month 13
        ("foo/0101001", None, None),
        ("10.1145/3292500.3330701", None, None),
        ("", None, None),
    ],
)
def test_normalize_arxiv_id(text: str, arxiv_id: str | None, version: int | None) -> None:
    assert normalize_arxiv_id(text) == arxiv_id
    assert arxiv_version(text) == version


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("1711.05101", 2017),
        ("arXiv:2005.14165v3", 2020),
        ("hep-th/9901001", 1999),
        ("cs/0112017", 2001),
        ("2013.12345", None),  # month 13: no such id
        ("foo", None),
    ],
)
def test_arxiv_year(text: str, year: int | None) -> None:
    assert arxiv_year(text) == year


@pytest.mark.parametrize(
    ("text", "arxiv_id"),
    [
        ("Devlin et al. BERT. arXiv preprint arXiv:1810.04805, 2018.", "1810.04805"),
        ("CoRR abs/1810.04805", "1810.04805"),
        ("arXiv:1810.04805 [cs.CL]", "1810.04805"),
        ("https://arxiv.org/pdf/2005.14165v1.pdf", "2005.14165"),
        ("doi: 10.48550/arXiv.2310.01362", "2310.01362"),
        ("Maldacena, Adv. Theor. Math. Phys. 2 (1998) 231, hep-th/9711200v3.", "hep-th/9711200"),
        ("Dunfield, arXiv:math.GT/0309136", "math/0309136"),
        # A bare new-style number is an id only where the text speaks of arXiv or CoRR.
        ("Proceedings 2019, pages 1810.04805", None),
        ("arXiv version: https://doi.org/10.1109/CVPR52729.2023.00373", None),
        ("Nature 521, 436–444 (2015)", None),
        # A template's stand-in after the label is returned as printed, for the judge to call it filler.
        ("Llama 3. arXiv preprint arXiv:2407.XXXX, 2024.", "2407.XXXX"),
        ("https://arxiv.org/abs/2310.xxxxx", "2310.xxxxx"),
        ("Report 2407.XXXX, 2024.", None),
    ],
)
def test_find_arxiv_id(text: str, arxiv_id: str | None) -> None:
    assert find_arxiv_id(text) == arxiv_id


@pytest.mark.parametrize(
    ("doi", "arxiv_id"),
    [
        ("10.48550/arXiv.2310.01362", "2310.01362"),
        ("https://doi.org/10.48550/ARXIV.2005.14165", "2005.14165"),
        ("10.48550/arXiv.hep-th/9901001", "hep-th/9901001"),
        ("10.1145/3292500.3330701", None),
        ("not a doi", None),
    ],
)
def test_arxiv_id_from_doi(doi: str, arxiv_id: str | None) -> None:
    assert arxiv_id_from_doi(doi) == arxiv_id


@pytest.mark.parametrize(
    ("text", "not_title"),
    [
        ("arXiv:1409.1556", True),
        ("arXiv preprint arXiv:1512.03385", True),
        ("arXiv:1409.1556v6 [cs.CV]", True),
        ("CoRR abs/1409.1556", True),
        ("doi:10.1145/3292500.3330701", True),
        ("Available online: https://www.kaggle.com/c/carvana-image-masking-challenge", True),
        ("arXiv preprint", True),
        # A title that names its work beside the identifier is a title.
        ("Very deep convolutional networks, arXiv:1409.1556", False),
        ("ImageNet https://image-net.org", False),
        # A bare number is no identifier without arXiv named.
        ("1409.1556", False),
        ("2020", False),
        ("Preprint selection in online learning", False),
        ("", False),
    ],
)
def test_not_a_title(text: str, not_title: bool) -> None:
    assert not_a_title(text) is not_title
