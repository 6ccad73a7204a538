"""Runs the SOP over a list of references: embedded index → judge, one reference at a time."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import date

from refhound.agents.index_search import find_candidates
from refhound.agents.judge import judge

from refhound.index.store import IndexStore
from refhound.models import Reference, ReferenceResult, is_hallucinated
from refhound.settings import Settings


def check_reference(
    reference: Reference, store: IndexStore, settings: Settings, this_year: int
) -> ReferenceResult:
    started = time.perf_counter()
    candidates = find_candidates(reference.parsed, store, settings.judge)
    judgement = judge(reference.parsed, candidates, store.coverage, settings.judge, this_year)
    return ReferenceResult(
        id=reference.id,
        raw=reference.raw,
        parsed=reference.parsed,
        verdict=judgement.verdict,
        hallucinated=is_hallucinated(judgement.verdict, settings.check.unverified_as),
        fields=judgement.fields,
        evidence=judgement.evidence,
        stage="index",
        elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
        reason=judgement.reason,
        input=reference.input,
    )


def check_references(
    references: Iterable[Reference],
    store: IndexStore,
    settings: Settings,
    progress: Callable[[], None] | None = None,
) -> list[ReferenceResult]:
    this_year = date.today().year
    results = []
    for reference in references:
        results.append(check_reference(reference, store, settings, this_year))
        if progress:
            progress()
    return results
