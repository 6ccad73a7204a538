"""Scores of a likelihood: AUCs, calibration error and the threshold sweep, on hand-checked examples."""

from __future__ import annotations

import pytest

from refhound.benchmark.fit import (
    Row,
    bootstrap_interval,
    clopper_pearson_upper,
    fit_logistic,
    platt,
    vocabulary,
)
from refhound.benchmark.labels import HALLMARK, invented
from refhound.benchmark.ranking import (
    average_precision,
    expected_calibration_error,
    reliability,
    roc_auc,
    threshold_sweep,
)


def test_roc_auc_is_the_share_of_pairs_ranked_right_with_ties_half() -> None:
    assert roc_auc([(True, 0.9), (False, 0.1)]) == 1.0
    assert roc_auc([(True, 0.1), (False, 0.9)]) == 0.0
    assert roc_auc([(True, 0.5), (False, 0.5)]) == 0.5
    # positives 0.8, 0.4; negatives 0.6, 0.2: of four pairs, three right
    assert roc_auc([(True, 0.8), (True, 0.4), (False, 0.6), (False, 0.2)]) == pytest.approx(0.75)
    assert roc_auc([(True, 0.8)]) is None


def test_average_precision() -> None:
    # ranked: T F T  -> precision at each positive: 1/1, 2/3
    assert average_precision([(True, 0.9), (False, 0.8), (True, 0.7)]) == pytest.approx((1 + 2 / 3) / 2)
    assert average_precision([(False, 0.9)]) is None


def test_calibration_error_is_zero_when_rates_match_scores() -> None:
    pairs = [(True, 0.25)] + [(False, 0.25)] * 3 + [(True, 0.75)] * 3 + [(False, 0.75)]
    assert expected_calibration_error(pairs) == pytest.approx(0.0)
    assert [b.n for b in reliability(pairs)] == [4, 4]
    assert expected_calibration_error([(False, 0.9)] * 10) == pytest.approx(0.9)


def test_threshold_sweep() -> None:
    rows = {r["threshold"]: r for r in threshold_sweep([(True, 0.9), (False, 0.3)], [0.2, 0.5])}
    assert rows[0.2]["fpr"] == 1.0 and rows[0.5]["fpr"] == 0.0 and rows[0.5]["f1"] == 1.0


def test_clopper_pearson_upper_bounds() -> None:
    assert clopper_pearson_upper(0, 100) == pytest.approx(0.0362, abs=5e-4)  # the "rule of three" region
    assert clopper_pearson_upper(1, 10) == pytest.approx(0.445, abs=1e-3)
    assert clopper_pearson_upper(0, 0) == 1.0


def test_bootstrap_interval_holds_the_statistic() -> None:
    pairs = [(i % 3 == 0, (i % 10) / 10) for i in range(200)]
    low, high = bootstrap_interval(pairs, expected_calibration_error, draws=200)
    assert low <= expected_calibration_error(pairs) <= high


def test_the_fit_learns_a_levels_direction_and_leaves_rare_ones_out() -> None:
    rows = [Row("a", 1, True, ("authors.one_stranger",), "metadata_error")] * 30
    rows += [Row("a", 1, False, ("authors.given_name_other",), "metadata_error")] * 30
    rows += [Row("a", 1, True, ("venue.acronym_typo",), "metadata_error")]  # seen once
    levels = vocabulary(rows, min_count=5)
    assert levels == ["authors.given_name_other", "authors.one_stranger"]
    fitted = fit_logistic(rows, [1.0] * len(rows), levels, l2=1.0)
    assert fitted.weights["authors.one_stranger"] > 0 > fitted.weights["authors.given_name_other"]
    slope, _ = platt([fitted.logit(r.features) for r in rows], [r.label for r in rows])
    assert slope > 0


def test_labels_map_slips_to_real_and_reject_unknown_types() -> None:
    assert invented("hallmark", "partial_author_list") is False
    assert invented("hallmark", "plausible_fabrication") is True
    assert invented("generated", "author_name_perturbation") is False
    assert invented("generated", "author_deletion") is None
    assert set(HALLMARK) >= {"valid", "preprint_as_published", "arxiv_version_mismatch"}
    with pytest.raises(KeyError, match="no meaning"):
        invented("hallmark", "a_new_type")
