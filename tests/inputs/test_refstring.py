"""`parse_reference_string` on the common citation styles, written out for real papers."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from refhound.refstring import parse_author_list, parse_reference_string, strip_numbering
from tests.conftest import ROOT, shared_path

BERT = "BERT: Pre-training of deep bidirectional transformers for language understanding"
BERT_NAMES = ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"]
BERT_INVERTED = ["Devlin, J.", "Chang, M.-W.", "Lee, K.", "Toutanova, K."]

# raw string -> (title, authors, authors_truncated, venue, year, doi, arxiv_id)
CASES: dict[str, tuple[Any, ...]] = {
    # ACL / natbib
    "Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT: Pre-training of deep "
    "bidirectional transformers for language understanding. In Proceedings of NAACL-HLT, pages 4171–4186.": (
        BERT, BERT_NAMES, False, "Proceedings of NAACL-HLT", 2019, None, None,
    ),
    # APA
    "Devlin, J., Chang, M.-W., Lee, K., & Toutanova, K. (2019). BERT: Pre-training of deep bidirectional "
    "transformers for language understanding. In Proceedings of NAACL-HLT (pp. 4171–4186).": (
        BERT, BERT_INVERTED, False, "Proceedings of NAACL-HLT", 2019, None, None,
    ),
    # IEEE
    '[1] J. Devlin, M.-W. Chang, K. Lee, and K. Toutanova, "BERT: Pre-training of deep bidirectional '
    'transformers for language understanding," in Proc. NAACL-HLT, 2019, pp. 4171–4186.': (
        BERT, ["J. Devlin", "M.-W. Chang", "K. Lee", "K. Toutanova"], False, "Proc. NAACL-HLT", 2019, None,
        None,
    ),
    # Springer LNCS
    "Devlin, J., Chang, M.W., Lee, K., Toutanova, K.: BERT: Pre-training of deep bidirectional transformers "
    "for language understanding. In: NAACL-HLT. pp. 4171–4186 (2019)": (
        BERT, ["Devlin, J.", "Chang, M.W.", "Lee, K.", "Toutanova, K."], False, "NAACL-HLT", 2019, None, None,
    ),
    # Vancouver / PubMed
    "Smith JA, Doe B, Roe C. Title of the article. N Engl J Med. 2019;380(2):123-130. "
    "doi:10.1056/NEJMoa1234567": (
        "Title of the article", ["Smith JA", "Doe B", "Roe C"], False, "N Engl J Med", 2019,
        "10.1056/nejmoa1234567", None,
    ),
    # Chicago
    'Vaswani, Ashish, Noam Shazeer, Niki Parmar, et al. "Attention Is All You Need." Advances in Neural '
    "Information Processing Systems 30 (2017).": (
        "Attention Is All You Need", ["Vaswani, Ashish", "Noam Shazeer", "Niki Parmar"], True,
        "Advances in Neural Information Processing Systems", 2017, None, None,
    ),
    # arXiv, two ways
    "T. Brown et al. Language models are few-shot learners. arXiv preprint arXiv:2005.14165, 2020.": (
        "Language models are few-shot learners", ["T. Brown"], True, "arXiv", 2020, None, "2005.14165",
    ),
    "T. Brown et al. Language models are few-shot learners. CoRR, abs/2005.14165, 2020.": (
        "Language models are few-shot learners", ["T. Brown"], True, "arXiv", 2020, None, "2005.14165",
    ),
    # More real references, in the styles papers use.
    "Kaiming He, Xiangyu Zhang, Shaoqing Ren, and Jian Sun. 2016. Deep residual learning for image "
    "recognition. In Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR), "
    "pages 770–778. https://doi.org/10.1109/CVPR.2016.90": (
        "Deep residual learning for image recognition",
        ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"], False,
        "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR)", 2016,
        "10.1109/cvpr.2016.90", None,
    ),
    "Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. In International "
    "Conference on Learning Representations (ICLR).": (
        "Adam: A method for stochastic optimization", ["Kingma, D. P.", "Ba, J."], False,
        "International Conference on Learning Representations (ICLR)", 2015, None, None,
    ),
    "[7] Y. LeCun, Y. Bengio, and G. Hinton, “Deep learning,” Nature, vol. 521, no. 7553, pp. 436–444, "
    "2015, doi: 10.1038/nature14539.": (
        "Deep learning", ["Y. LeCun", "Y. Bengio", "G. Hinton"], False, "Nature", 2015,
        "10.1038/nature14539", None,
    ),
    "LeCun, Y., Bengio, Y. & Hinton, G. Deep learning. Nature 521, 436–444 (2015).": (
        "Deep learning", ["LeCun, Y.", "Bengio, Y.", "Hinton, G."], False, "Nature", 2015, None, None,
    ),
    "Hochreiter S, Schmidhuber J. Long short-term memory. Neural Comput. 1997;9(8):1735-1780.": (
        "Long short-term memory", ["Hochreiter S", "Schmidhuber J"], False, "Neural Comput", 1997, None, None,
    ),
    "Silver D, Huang A, Maddison CJ, Guez A, Sifre L, van den Driessche G, et al. Mastering the game of Go "
    "with deep neural networks and tree search. Nature. 2016;529(7587):484-9. doi: 10.1038/nature16961.": (
        "Mastering the game of Go with deep neural networks and tree search",
        ["Silver D", "Huang A", "Maddison CJ", "Guez A", "Sifre L", "van den Driessche G"], True, "Nature",
        2016, "10.1038/nature16961", None,
    ),
    "Sarthak Jain and Byron C. Wallace. 2019. Attention is not Explanation. In Proceedings of NAACL-HLT "
    "2019, pages 3543–3556, Minneapolis, Minnesota. Association for Computational Linguistics.": (
        "Attention is not Explanation", ["Sarthak Jain", "Byron C. Wallace"], False,
        "Proceedings of NAACL-HLT", 2019, None, None,
    ),
    "Mikolov, T., Chen, K., Corrado, G. and Dean, J., 2013. Efficient estimation of word representations in "
    "vector space. arXiv preprint arXiv:1301.3781.": (
        "Efficient estimation of word representations in vector space",
        ["Mikolov, T.", "Chen, K.", "Corrado, G.", "Dean, J."], False, "arXiv", 2013, None, "1301.3781",
    ),
    "[12] D. P. Kingma and M. Welling, “Auto-encoding variational Bayes,” in Proc. Int. Conf. Learn. "
    "Represent. (ICLR), 2014. [Online]. Available: https://arxiv.org/abs/1312.6114": (
        "Auto-encoding variational Bayes", ["D. P. Kingma", "M. Welling"], False,
        "Proc. Int. Conf. Learn. Represent. (ICLR)", 2014, None, "1312.6114",
    ),
    "Goodfellow, Ian, Yoshua Bengio, and Aaron Courville. Deep Learning. Cambridge, MA: MIT Press, 2016.": (
        "Deep Learning", ["Goodfellow, Ian", "Yoshua Bengio", "Aaron Courville"], False, None, 2016, None,
        None,
    ),
    "Kolesnikov, A., Zhai, X., Beyer, L.: Revisiting self-supervised visual representation learning. "
    "In: CVPR. pp. 1920–1929 (2019)": (
        "Revisiting self-supervised visual representation learning",
        ["Kolesnikov, A.", "Zhai, X.", "Beyer, L."], False, "CVPR", 2019, None, None,
    ),
}  # fmt: skip


@pytest.mark.parametrize("raw", list(CASES))
def test_style(raw: str) -> None:
    title, authors, truncated, venue, year, doi, arxiv_id = CASES[raw]
    parsed = parse_reference_string(raw)
    got = (parsed.title, parsed.authors, parsed.authors_truncated, parsed.venue, parsed.year, parsed.doi)
    assert got == (title, authors, truncated, venue, year, doi)
    assert parsed.arxiv_id == arxiv_id


def test_volume_pages_and_url() -> None:
    parsed = parse_reference_string(
        "Smith JA, Doe B, Roe C. Title of the article. N Engl J Med. 2019;380(2):123-130. "
        "https://doi.org/10.1056/NEJMoa1234567"
    )
    assert (parsed.volume, parsed.pages) == ("380", "123-130")
    assert parsed.url == "https://doi.org/10.1056/NEJMoa1234567"
    assert parsed.doi == "10.1056/nejmoa1234567"
    lncs = parse_reference_string(next(raw for raw in CASES if raw.startswith("Devlin, J., Chang, M.W.")))
    assert (lncs.volume, lncs.pages) == (None, "4171–4186")


def test_journal_without_title() -> None:
    """Physics and chemistry cite the journal straight after the authors."""
    parsed = parse_reference_string("A. Einstein, Ann. Phys. 17, 891 (1905).")
    assert (parsed.title, parsed.authors, parsed.year, parsed.volume) == (None, ["A. Einstein"], 1905, "17")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("[12] Title", "Title"), ("12. Title", "Title"), ("(3) Title", "Title"), ("2019. Title", "2019. Title")],
)
def test_strip_numbering(text: str, expected: str) -> None:
    assert strip_numbering(text) == expected


def test_author_list() -> None:
    assert parse_author_list("Keri, S. Kiss, I. Kelemen, O.") == (
        ["Keri, S.", "Kiss, I.", "Kelemen, O."],
        False,
    )
    assert parse_author_list("Gilbert, D. G., Rabinovich, N. E., ... Botros, N.")[1] is True
    assert parse_author_list("Andrade, Mário de.")[0] == ["Andrade, Mário de"]


def test_year_is_not_a_page_range_or_arxiv_number() -> None:
    parsed = parse_reference_string(
        "Cluxton, R. J. Comparison of services. Am. J. Hosp. Pharm. 36, 1215–1218."
    )
    assert parsed.year is None
    assert parse_reference_string("Brown, T. Few-shot learners. arXiv:2005.14165.").year is None


@pytest.mark.parametrize("raw", ["", "   ", "———.", "“unclosed quote", "et al.", "(((", "2019"])
def test_fragments_parse_without_inventing_fields(raw: str) -> None:
    parsed = parse_reference_string(raw)
    assert parsed.venue is None and parsed.authors == [] and parsed.doi is None


def test_long_pathological_string_is_fast() -> None:
    start = time.perf_counter()
    parse_reference_string(", ".join(["Smith, J. A."] * 400) + " Title. " + "A. B. " * 500)
    parse_reference_string("W " * 5000)
    assert time.perf_counter() - start < 2


def _eval_module() -> Any:
    spec = importlib.util.spec_from_file_location("eval_refstring", ROOT / "scripts" / "eval_refstring.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.shared
def test_anystyle_gold_figures() -> None:
    """Floors a little under the measured figures (title soft F1 0.923, date 0.992, author 0.987)."""
    gold: Path = shared_path("reference-strings", "anystyle-gold.xml.gz")
    scores = _eval_module().evaluate(gold)
    assert scores.n == 1669
    assert scores.soft["title"].prf()[2] >= 0.90
    assert scores.exact["date"].prf()[2] >= 0.97
    assert scores.soft["author"].prf()[2] >= 0.96
    assert scores.soft["container"].prf()[2] >= 0.80
