"""`refhound quotes repair`: failing triples requoted from the same source (and re-checked) or dropped;
a quote the source does not hold is never written; every action is in the audit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from tests.llm_server import FakeLLMServer
from tests.quotes.rubric_llm import RubricLLMServer

SOURCE = (
    "The committee met on Tuesday. The trial enrolled 40 patients and found that the drug reduced symptoms "
    "by 12 percent. Unrelated, the weather in Paris was mild that spring."
)
TRIPLES = [
    {"statement": "The trial enrolled 40 patients.", "source_id": "trial",
     "evidence_quote": "The trial enrolled 40 patients", "id": "kept"},
    {"statement": "The drug reduced symptoms by 12 percent.", "source_id": "trial",
     "evidence_quote": "The committee met on Tuesday", "id": "irrelevant quote"},
    {"statement": "Rainfall in Lisbon doubled last year.", "source_id": "trial",
     "evidence_quote": "The committee met on Tuesday", "id": "unsupported"},
]  # fmt: skip


@pytest.fixture()
def work(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "trial.txt").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "triples.json").write_text(json.dumps(TRIPLES), encoding="utf-8")
    return tmp_path


def _repair(work: Path, url: str, *extra: str) -> tuple[int, str]:
    env = {"XDG_CACHE_HOME": str(work / "cache")}
    args = ["quotes", "repair", str(work / "triples.json"), "--source-dir", str(work / "src")]
    result = CliRunner().invoke(
        app, [*args, "--out", str(work / "out.json"), "--llm-url", url, *extra], env=env
    )
    return result.exit_code, result.stderr


def test_repair_keeps_requotes_and_drops(work: Path) -> None:
    with RubricLLMServer() as server:
        code, err = _repair(work, server.url)
    assert code == 1 and "1 kept, 1 repaired, 1 dropped" in err
    written = json.loads((work / "out.json").read_text(encoding="utf-8"))
    assert [t["id"] for t in written] == ["kept", "irrelevant quote"]  # other fields kept as they were
    assert written[1]["evidence_quote"] in SOURCE and "12 percent" in written[1]["evidence_quote"]
    audit = [
        json.loads(line) for line in (work / "out.json.audit.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert [line["type"] for line in audit] == ["run", "triple", "triple", "triple", "summary"]
    assert [line.get("action") for line in audit[1:4]] == ["kept", "repaired", "dropped"]
    assert audit[2]["after"]["status"] == "verified" and audit[2]["model"]["prompt_version"] == "repair.v1"
    # By default the given quote and the new one go through every evaluator.
    assert audit[0]["evaluators"] == ["entailment", "relevance", "factcheck"]
    assert (
        set(audit[2]["before"]["evaluations"])
        == set(audit[2]["after"]["evaluations"])
        == set(audit[0]["evaluators"])
    )
    assert all(item["verdict"] in {"entailed", "relevant", "supported"}
               for item in audit[2]["after"]["evaluations"].values())  # fmt: skip
    assert audit[3]["statement"] == "Rainfall in Lisbon doubled last year."  # dropped, but in the audit


def test_a_quote_the_source_does_not_hold_is_never_written(work: Path) -> None:
    (work / "triples.json").write_text(json.dumps(TRIPLES[1:2]), encoding="utf-8")
    with FakeLLMServer() as server:
        server.script(
            {"verdict": "neutral", "explanation": "off topic"},
            {
                "action": "requote",
                "quote": "the drug cured every patient within days",
                "explanation": "made up",
            },
            {"verdict": "entailed", "explanation": "a model that agrees with anything"},
        )
        # Narrowed to the gate: one scripted verdict per check.
        code, _ = _repair(work, server.url, "--evaluate", "entailment")
    assert code == 1 and json.loads((work / "out.json").read_text(encoding="utf-8")) == []
    line = json.loads((work / "out.json.audit.jsonl").read_text(encoding="utf-8").splitlines()[1])
    assert line["action"] == "dropped" and line["after"]["status"] == "not_found"


def test_an_llm_that_does_not_answer_stops_the_repair(work: Path) -> None:
    code, err = _repair(work, "http://127.0.0.1:9/v1")
    assert code == 2 and "nothing written" in err and not (work / "out.json").exists()


def test_repair_needs_one_source_option(work: Path) -> None:
    result = CliRunner().invoke(
        app, ["quotes", "repair", str(work / "triples.json"), "--out", str(work / "o.json")]
    )
    assert result.exit_code == 2 and "--source-dir" in result.stderr


def test_online_repair_refuses_non_public_addresses(work: Path) -> None:
    # The sources are fetched through the address guard: a loopback URL is refused, never read, and the
    # triple is dropped with the reason (no quote from a source that was not read is ever written).
    with RubricLLMServer() as server:
        triples = [{**TRIPLES[1], "source_id": server.url.replace("/v1", "/secret.txt")}]
        (work / "triples.json").write_text(json.dumps(triples), encoding="utf-8")
        env = {"XDG_CACHE_HOME": str(work / "cache"), "REFHOUND_CONFIG": str(work / "absent.toml")}
        args = ["quotes", "repair", str(work / "triples.json"), "--online", "--out", str(work / "out.json")]
        result = CliRunner().invoke(app, [*args, "--llm-url", server.url], env=env)
        assert all("secret" not in str(r.get("messages")) for r in server.requests)
    assert result.exit_code == 1, result.stderr
    line = json.loads((work / "out.json.audit.jsonl").read_text(encoding="utf-8").splitlines()[1])
    assert line["action"] == "dropped" and "could not be read" in line["reason"]
    assert "not public" in line["before"]["note"] or "refus" in line["before"]["note"]
