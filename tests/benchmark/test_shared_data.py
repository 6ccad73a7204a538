"""The loaders on the real benchmark files in ../shared (skipped when that material is absent)."""

from __future__ import annotations

from collections import Counter

import pytest

from refhound.benchmark.items import InputMode
from refhound.benchmark.loaders import load_citeaudit, load_hallmark
from refhound.benchmark.runner import check_input, parsed_from_fields
from tests.conftest import shared_path

pytestmark = pytest.mark.shared


def test_hallmark_dev_public_and_stress_test() -> None:
    dev = load_hallmark(shared_path("benchmarks", "hallmark", "dev_public.jsonl"))
    assert len(dev.items) == 1119
    assert Counter(i.hallucinated for i in dev.items) == {True: 606, False: 513}
    assert len({i.type for i in dev.items if i.hallucinated}) == 14
    assert Counter(i.tier for i in dev.items if i.hallucinated) == {1: 149, 2: 280, 3: 177}
    check_input(dev, InputMode.FIELDS)
    assert all(parsed_from_fields(i).title for i in dev.items)  # even the entries with broken LaTeX braces
    stress = load_hallmark(shared_path("benchmarks", "hallmark", "stress_test.jsonl"))
    assert (len(stress.items), sum(i.hallucinated for i in stress.items)) == (122, 121)


def test_citeaudit_dev_sample_splits_and_upstream_predictions() -> None:
    path = shared_path("benchmarks", "citeaudit", "benchmark-dev-sample.json")
    every = load_citeaudit(path)
    assert len(every.items) == 942 and every.has_upstream
    assert [i.id for i in every.items] == list(range(942))
    realworld, generated = load_citeaudit(path, "realworld"), load_citeaudit(path, "generated")
    assert (len(realworld.items), len(generated.items)) == (334, 608)
    assert sum(i.hallucinated for i in generated.items) == 250
    assert sum(i.hallucinated for i in realworld.items) == 46
