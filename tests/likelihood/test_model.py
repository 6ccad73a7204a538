"""The likelihood model: loading it, its terms, the prior, and the one policy that turns it into flags."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from refhound.errors import ModelInvalid
from refhound.likelihood import Policy, assess, explain
from refhound.likelihood.levels import LEVELS, NO_EVIDENCE
from refhound.likelihood.model import FORMAT, PRIOR, features, load_model
from refhound.models import (
    FieldCheck,
    FieldStatus,
    FlagPolicy,
    ParsedFields,
    ReferenceResult,
    Severity,
    UnverifiedPolicy,
    Verdict,
    is_hallucinated,
)
from refhound.settings import LikelihoodSettings


def _model(tmp_path: Path, **changes: object) -> Path:
    data = {
        "format": FORMAT,
        "name": "test",
        "version": "1",
        "intercept": math.log(0.1 / 0.9),
        "base_rate": 0.1,
        "threshold": 0.5,
        "weights": {"authors.one_stranger": 3.0, "authors.given_name_other": -1.0, "title.exact": -1.0},
    } | changes
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _result(verdict: Verdict, *fields: FieldCheck, levels: tuple[str, ...] = ()) -> ReferenceResult:
    return ReferenceResult(
        id="1",
        raw="r",
        parsed=ParsedFields(title="t"),
        verdict=verdict,
        hallucinated=None,
        fields=list(fields),
        levels=list(levels),
        stage="judge",
        reason="wrong authors per dblp record x",
    )


STRANGER = FieldCheck(field="authors", status=FieldStatus.MISMATCH, level="authors.one_stranger")
GIVEN = FieldCheck(field="authors", status=FieldStatus.MISMATCH, level="authors.given_name_other")


def test_the_packaged_model_loads_and_knows_only_named_levels() -> None:
    model = load_model()
    assert 0 < model.threshold < 1 and 0 < model.base_rate < 1
    assert model.label.startswith("refhound-likelihood/")
    unknown = [level for level in model.weights if level not in LEVELS]
    assert not unknown, f"weights of levels with no words: {unknown}"
    assert not NO_EVIDENCE & set(model.weights), "a level that proves nothing carries a weight"


def test_every_term_is_listed_and_they_sum_to_the_likelihood(tmp_path: Path) -> None:
    model = load_model(_model(tmp_path))
    likelihood, terms = model.score(["title.exact", "authors.one_stranger", "rules.major", "venue.missing"])
    assert [t.level for t in terms] == [PRIOR, "authors.one_stranger", "title.exact"]  # strongest first
    assert likelihood == pytest.approx(1 / (1 + math.exp(-sum(t.weight for t in terms))))


def test_the_prior_moves_only_the_intercept(tmp_path: Path) -> None:
    model = load_model(_model(tmp_path))
    base, _ = model.score([])
    assert base == pytest.approx(0.1, abs=1e-4)  # terms are kept to four decimals
    assert model.score([], prior=0.01)[0] == pytest.approx(0.01, abs=1e-4)
    # The same evidence, in a population with fewer inventions, is less likely an invention.
    assert model.score(["authors.one_stranger"], prior=0.01)[0] < model.score(["authors.one_stranger"])[0]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "no such file"),
        ("{not json", "unreadable"),
        (json.dumps({"format": "refhound.likelihood/0"}), "format"),
        (json.dumps({"format": FORMAT, "name": "x"}), "missing or invalid field"),
    ],
)
def test_an_unusable_model_file_is_an_error_naming_it(
    tmp_path: Path, content: str | None, problem: str
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(ModelInvalid, match=problem) as caught:
        load_model(path)
    assert str(path) in str(caught.value)


def test_assess_flags_by_the_threshold_and_severity_follows_it(tmp_path: Path) -> None:
    policy = Policy.from_settings(LikelihoodSettings(model=_model(tmp_path)))
    invented = assess(_result(Verdict.METADATA_ERROR, STRANGER), policy, UnverifiedPolicy.UNKNOWN)
    slip = assess(_result(Verdict.METADATA_ERROR, GIVEN), policy, UnverifiedPolicy.UNKNOWN)
    assert (invented.hallucinated, invented.severity) == (True, Severity.MAJOR)
    assert (slip.hallucinated, slip.severity) == (False, Severity.MINOR)
    assert invented.likelihood is not None and slip.likelihood is not None
    assert invented.likelihood > 0.5 > slip.likelihood
    assert "one cited author no record author can be" in invented.reason
    assert [c.level for c in slip.contributions] == [PRIOR, "authors.given_name_other"]


def test_an_unverified_reference_with_no_evidence_stays_at_the_prior_and_is_left_to_the_policy(
    tmp_path: Path,
) -> None:
    policy = Policy.from_settings(LikelihoodSettings(model=_model(tmp_path)))
    nothing = _result(
        Verdict.UNVERIFIED, FieldCheck(field="title", status=FieldStatus.UNCHECKED, level="title.no_record")
    )
    for unverified_as, expected in ((UnverifiedPolicy.UNKNOWN, None), (UnverifiedPolicy.FAKE, True)):
        scored = assess(nothing, policy, unverified_as)
        assert scored.likelihood == pytest.approx(0.1, abs=1e-3)
        assert scored.hallucinated is expected
        assert "no evidence either way" in scored.reason


UNKNOWN = UnverifiedPolicy.UNKNOWN


def test_the_reason_the_flag_and_the_report_read_one_value(tmp_path: Path) -> None:
    # Log-odds whose likelihood is 0.004996: carried as 0.005, printed "0.01" by the table; the reason
    # printed "0.00" from the unrounded value.
    intercept = math.log(0.004996 / (1 - 0.004996))
    model = _model(tmp_path, intercept=intercept)
    policy = Policy.from_settings(LikelihoodSettings(model=model))
    scored = assess(_result(Verdict.UNVERIFIED), policy, UNKNOWN)
    assert scored.likelihood == 0.005
    assert f"likelihood of invention {scored.likelihood:.2f} " in scored.reason
    at = Policy.from_settings(LikelihoodSettings(model=model, threshold=0.005))
    assert assess(_result(Verdict.UNVERIFIED), at, UNKNOWN).hallucinated is True


def test_a_threshold_setting_overrides_the_models(tmp_path: Path) -> None:
    policy = Policy.from_settings(LikelihoodSettings(model=_model(tmp_path), threshold=0.99))
    assert (
        assess(_result(Verdict.METADATA_ERROR, STRANGER), policy, UnverifiedPolicy.UNKNOWN).hallucinated
        is False
    )


def test_flag_any_counts_every_metadata_error() -> None:
    assert is_hallucinated(Verdict.METADATA_ERROR, 0.1, 0.5) is False
    assert is_hallucinated(Verdict.METADATA_ERROR, 0.1, 0.5, flag=FlagPolicy.ANY) is True
    assert is_hallucinated(Verdict.VERIFIED, 0.1, 0.5, flag=FlagPolicy.ANY) is False


def test_features_are_the_field_levels_the_rules_grade_and_the_judges_own() -> None:
    graded = STRANGER.model_copy(update={"severity": Severity.MAJOR})
    assert features([graded], ["coverage.title_elsewhere"]) == [
        "authors.one_stranger",
        "rules.major",
        "coverage.title_elsewhere",
    ]


def test_explain_names_at_most_three_terms() -> None:
    model_terms = load_model().score(
        ["authors.one_stranger", "title.exact", "year.same", "venue.same_series"]
    )[1]
    text = explain(0.3, model_terms, 0.5)
    assert text.startswith("likelihood of invention 0.30 (not flagged at 0.50)")
    assert text.count("(+)") + text.count("(−)") <= 3
