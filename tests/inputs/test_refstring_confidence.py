"""`field_confidence` and `is_low_confidence` on real reference strings, clean and garbled."""

from __future__ import annotations

import pytest

from refhound.refstring import parse_reference_string, parse_reference_string_detailed
from refhound.refstring.confidence import FIELDS, field_confidence, is_low_confidence

CLEAN = [
    # APA: the year closes the author block, the title is the next sentence, "In" opens the venue.
    "Devlin, J., Chang, M.-W., Lee, K., & Toutanova, K. (2019). BERT: Pre-training of deep bidirectional "
    "transformers for language understanding. In Proceedings of NAACL-HLT (pp. 4171–4186).",
    # IEEE: a quoted title.
    "[7] Y. LeCun, Y. Bengio, and G. Hinton, “Deep learning,” Nature, vol. 521, no. 7553, pp. 436–444, 2015, "
    "doi: 10.1038/nature14539.",
    # EXCITE, as the PDF prints it.
    "Bluhm, K. (2001): Exporting or Abandoning the “German Model”? Labour Policies of German Manufacturing "
    "Firms in Central Europe. European Journal of Industrial Relations, 7(2): 153-74.",
]

GARBLED = [
    # A typo ends the author block after one name: the rest of it lands in the title.
    "Suddendorf. T. and Corballis, M. C. (1997) Mental Time Travel and the Evolution of the Human Mind. New "
    "York: Basic Books.",
    # A note between the author and the year.
    "Nuttin, J. (with the collaboration of W. Lens) (1985) Future Time Perspective and Motivation: Theory "
    "and Research Method. Hillsdale, NJ: Erlbaum.",
    # Physics style has no title at all.
    "A. Einstein, Ann. Phys. 17, 891 (1905).",
    # No author block.
    "[16] “Aeronautical Information Manual,” February 2012.",
]


@pytest.mark.parametrize("raw", CLEAN)
def test_clean_references_score_high(raw: str) -> None:
    confidence = field_confidence(raw, parse_reference_string(raw))
    assert confidence["title"] >= 0.85 and confidence["authors"] >= 0.85
    assert confidence["year"] >= 0.85 and confidence["venue"] >= 0.7
    assert not is_low_confidence(confidence)


@pytest.mark.parametrize("raw", GARBLED)
def test_garbled_references_are_flagged(raw: str) -> None:
    assert is_low_confidence(field_confidence(raw, parse_reference_string(raw)))


def test_every_field_is_scored_and_absent_ones_score_zero() -> None:
    raw = CLEAN[0]
    confidence = field_confidence(raw, parse_reference_string(raw))
    assert tuple(confidence) == FIELDS
    assert all(0.0 <= value <= 1.0 for value in confidence.values())
    assert (confidence["doi"], confidence["arxiv_id"], confidence["volume"]) == (0.0, 0.0, 0.0)
    assert confidence["pages"] > 0


def test_identifiers_found_by_their_patterns_score_high() -> None:
    ieee = CLEAN[1]
    assert field_confidence(ieee, parse_reference_string(ieee))["doi"] >= 0.9
    arxiv = "T. Brown et al. Language models are few-shot learners. arXiv preprint arXiv:2005.14165, 2020."
    confidence = field_confidence(arxiv, parse_reference_string(arxiv))
    assert confidence["arxiv_id"] >= 0.9 and confidence["venue"] >= 0.9
    assert confidence["year"] >= 0.8  # the "2005" of the arXiv number is no second year to doubt 2020 by


def test_a_quoted_title_beats_one_cut_at_a_comma() -> None:
    quoted = CLEAN[1]
    comma = "Coakley, Sarah, Powers and Submissions: Spirituality, Philosophy and Gender, Oxford: Blackwell."
    title = {raw: field_confidence(raw, parse_reference_string(raw))["title"] for raw in (quoted, comma)}
    assert title[quoted] > title[comma] >= 0.5


def test_a_misparsed_author_list_scores_low() -> None:
    """The title swallowed the second author: the title carries a name and a year, the one author has
    no given name."""
    raw = GARBLED[0]
    confidence = field_confidence(raw, parse_reference_string(raw))
    assert confidence["title"] < 0.5 and confidence["authors"] < 0.5


def test_values_changed_after_parsing_are_neutral() -> None:
    raw = CLEAN[0]
    edited = parse_reference_string(raw).model_copy(update={"title": "Something else entirely"})
    confidence = field_confidence(raw, edited)
    assert confidence["title"] == 0.5
    assert confidence["authors"] >= 0.85


def test_given_provenance_saves_a_second_parse() -> None:
    raw = CLEAN[2]
    detailed = parse_reference_string_detailed(raw)
    assert field_confidence(raw, detailed.fields, provenance=detailed.provenance) == field_confidence(
        raw, detailed.fields
    )


def test_is_low_confidence() -> None:
    assert is_low_confidence({})
    assert is_low_confidence({"title": 0.9, "authors": 0.4})
    assert is_low_confidence({"title": 0.0, "authors": 0.95})
    assert not is_low_confidence({"title": 0.5, "authors": 0.5})


def test_a_reference_in_capitals_is_trusted_less() -> None:
    """Capitals hide the case that tells names from title words: the same reference scores lower."""
    mixed = "He, K., Zhang, X., Ren, S., Sun, J. Deep residual learning for image recognition. CVPR 2016."
    capitals = mixed.upper()
    scores = {raw: field_confidence(raw, parse_reference_string(raw)) for raw in (mixed, capitals)}
    for field in ("title", "authors", "venue"):
        assert 0 < scores[capitals][field] < scores[mixed][field]
    assert scores[capitals]["year"] == scores[mixed]["year"]
