"""The generator and scoring of `scripts/eval_claims.py` (the figures of docs/benchmarks/claims.md)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def script():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import eval_claims

        yield eval_claims
    finally:
        sys.path.remove(str(ROOT / "scripts"))


def test_perturbations_change_what_they_say(script) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(1)
    changed = script._number_changed("The rate rose to 12.5 percent in 2019.", rng)
    assert changed != "The rate rose to 12.5 percent in 2019." and changed.count(" ") == 7
    assert script._negation_changed("The effect was large.") == "The effect was not large."
    assert script._negation_changed("The effect was not large.") == "The effect was large."
    swapped = script._name_swapped("as shown in Germany and elsewhere", ["Portugal"], rng)
    assert swapped == "as shown in Portugal and elsewhere"


def test_precision_and_recall(script) -> None:  # type: ignore[no-untyped-def]
    scores = script._prf([(True, True), (True, False), (False, True), (False, False)])
    assert (scores["precision"], scores["recall"], scores["accuracy"]) == (0.5, 0.5, 0.5)


def test_averitec_negatives_never_pair_a_claim_with_its_own_evidence(script) -> None:  # type: ignore[no-untyped-def]
    directory = ROOT.parent / "shared" / "data" / "claims" / "averitec-dev"
    if not directory.exists():
        pytest.skip("../shared/data/claims/averitec-dev is absent (evaluation data, read in place)")
    items = script.averitec(directory, random.Random(3), 30)
    own = {i.statement: i.source for i in items if i.kind == "own_evidence"}
    assert all(i.source != own[i.statement] for i in items if i.kind == "other_evidence")
    assert {i.kind for i in items} == {"own_evidence", "other_evidence"}


def test_the_questions_are_the_checkers_own(script) -> None:  # type: ignore[no-untyped-def]
    from refhound.quotes.evaluate import question, source_window

    source = "Intro. " * 900 + "The trial enrolled 40 patients. " + "Tail. " * 900
    statement, quote = "The trial enrolled 40 patients.", "The trial enrolled 40 patients"
    item = script.Item("generated", "true", statement, quote, source, True, True, True)
    asked = {name: (q, gold) for name, q, gold in script.questions_of(item)}
    assert set(asked) == {"relevance", "factcheck", "entailment"}
    window, where = source_window(source, source.find(item.quote))
    assert where.startswith("characters ") and where.endswith(f" of {len(source)}")
    for name, (built, gold) in asked.items():
        assert gold is True
        assert built == question(name, item.statement, item.quote, window, where)
    assert f"Source excerpt ({where}):" in asked["relevance"][0].user
