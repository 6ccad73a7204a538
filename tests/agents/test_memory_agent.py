"""The memory stage: remembered records nominated as candidates, confirmed (or not) by the judge's rules."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

import pytest

from refhound.agents.context import AgentContext
from refhound.agents.judge import judge
from refhound.agents.memory import MemoryOpener, memory_opener, recall_from_memory, remember_verified
from refhound.errors import MemoryUnavailable
from refhound.index.store import IndexStore
from refhound.memory.store import VerifiedMemory
from refhound.models import ParsedFields, Reference, ReferenceResult, Verdict
from refhound.settings import MemorySettings, Settings
from tests.conftest import RECORDS

BERT = next(r for r in RECORDS if r.source_id == "conf/naacl/DevlinCLT19")
RESNET = next(r for r in RECORDS if r.source_id == "conf/cvpr/HeZRS16")
DAY = date(2025, 3, 14)


def reference(**fields: object) -> Reference:
    return Reference(id="1", raw="…", parsed=ParsedFields(**fields))  # type: ignore[arg-type]


BERT_APA = reference(
    title="Bert: pre-training of deep bidirectional transformers for language understanding.",
    authors=["Devlin, J.", "Chang, M.-W.", "Lee, K.", "Toutanova, K."],
    venue="Proceedings of NAACL-HLT",
    year=2019,
    doi="10.18653/v1/N19-1423",
)


@pytest.fixture()
def opener(tmp_path: Path) -> Iterator[MemoryOpener]:
    opened = memory_opener(MemorySettings(path=tmp_path / "memory"))
    yield opened
    opened.close()


@pytest.fixture()
def context(store: IndexStore, opener: MemoryOpener) -> AgentContext:
    settings = Settings(memory=opener.settings)
    return AgentContext(settings=settings, store=store, this_year=2026, open_memory=opener)


@pytest.fixture()
def remembered(context: AgentContext) -> VerifiedMemory:
    memory = context.open_memory()
    assert memory is not None
    memory.remember_many(RECORDS, stage="scholar", verified_at=DAY)
    return memory


def decide(reference: Reference, context: AgentContext, candidates: tuple) -> Verdict:  # type: ignore[type-arg]
    settings = context.settings.judge
    return judge(reference.parsed, list(candidates), context.store.coverage, settings, 2026).verdict


def test_remembered_record_is_nominated_and_the_judge_confirms_it(
    context: AgentContext, remembered: VerifiedMemory
) -> None:
    findings = recall_from_memory(BERT_APA, context)
    best = findings.candidates[0]
    assert best.record == BERT
    assert (best.stage, best.via) == ("memory", "title")
    assert best.note == "remembered: verified by scholar on 2025-03-14"
    assert best.title_similarity == 1.0  # refhound.normalize.titles, not the vector similarity
    assert findings.note == "1 remembered candidate (best 1.00)"  # the same text key as the record's
    judgement = judge(
        BERT_APA.parsed, list(findings.candidates), context.store.coverage, context.settings.judge, 2026
    )
    assert judgement.verdict is Verdict.VERIFIED
    assert judgement.evidence[0].record_id == BERT.source_id


def test_similarity_only_nominates_the_rules_decide(
    context: AgentContext, remembered: VerifiedMemory
) -> None:
    wrong_year = reference(
        title="Deep residual learning for image recognition",
        authors=["K. He", "X. Zhang", "S. Ren", "J. Sun"],
        venue="CVPR",
        year=2015,
    )
    findings = recall_from_memory(wrong_year, context)
    assert findings.candidates[0].record == RESNET
    assert decide(wrong_year, context, findings.candidates) is Verdict.METADATA_ERROR


def test_unrelated_citation_gets_no_candidate(context: AgentContext, remembered: VerifiedMemory) -> None:
    unrelated = reference(
        title="Crystal structure prediction of organic semiconductors", authors=["Maria Garcia"], year=2021
    )
    findings = recall_from_memory(unrelated, context)
    assert findings.candidates == ()
    assert findings.note == "no remembered record above 0.80"


def test_disabled_memory_is_never_opened(store: IndexStore, tmp_path: Path) -> None:
    settings = MemorySettings(enabled=False, path=tmp_path / "memory")
    opener = memory_opener(settings)
    assert opener() is None
    context = AgentContext(
        settings=Settings(memory=settings), store=store, this_year=2026, open_memory=opener
    )
    assert recall_from_memory(BERT_APA, context).note == "memory off"
    remember_verified(_result(Verdict.VERIFIED, "scholar"), BERT, "scholar", context)
    assert not (tmp_path / "memory").exists()


def test_opener_opens_lazily_once_for_all_threads(opener: MemoryOpener) -> None:
    assert not opener.opened
    assert not opener.settings.path.exists()
    with ThreadPoolExecutor(max_workers=8) as pool:
        memories = list(pool.map(lambda _: opener(), range(16)))
    assert opener.opened
    assert all(m is memories[0] for m in memories)


def test_unusable_memory_is_reported_not_fatal(store: IndexStore, tmp_path: Path) -> None:
    (tmp_path / "memory").write_text("a file")
    opener = memory_opener(MemorySettings(path=tmp_path / "memory"))
    context = AgentContext(
        settings=Settings(memory=opener.settings), store=store, this_year=2026, open_memory=opener
    )
    for _ in range(2):  # tried once, the same answer after
        findings = recall_from_memory(BERT_APA, context)
        assert findings.candidates == ()
        assert findings.note.startswith("memory unusable: memory ")
        assert "is a file" in findings.note
    with pytest.raises(MemoryUnavailable):
        opener()
    remember_verified(_result(Verdict.VERIFIED, "scholar"), BERT, "scholar", context)  # logged, not raised


def _result(verdict: Verdict, stage: str) -> ReferenceResult:
    return ReferenceResult(
        id="1", raw="…", parsed=BERT_APA.parsed, verdict=verdict, hallucinated=False, stage=stage
    )


@pytest.mark.parametrize(
    ("verdict", "stage", "kept"),
    [
        (Verdict.VERIFIED, "scholar", True),
        (Verdict.VERIFIED, "web", True),
        (Verdict.VERIFIED, "index", False),
        (Verdict.VERIFIED, "memory", False),
        (Verdict.METADATA_ERROR, "scholar", False),
        (Verdict.UNVERIFIED, "scholar", False),
    ],
)
def test_only_verified_records_from_slow_stages_are_written_back(
    context: AgentContext, opener: MemoryOpener, verdict: Verdict, stage: str, kept: bool
) -> None:
    remember_verified(_result(verdict, stage), BERT, stage, context)
    if not kept:
        assert not opener.opened  # nothing to write: the memory is not even opened
        return
    memory = context.open_memory()
    assert memory is not None and memory.count() == 1
    recalled = memory.recall(BERT_APA.parsed, k=1)[0]
    assert (recalled.record, recalled.stage, recalled.verified_at) == (BERT, stage, date.today())
    findings = recall_from_memory(BERT_APA, context)
    assert decide(BERT_APA, context, findings.candidates) is Verdict.VERIFIED
