"""The LLM judge against a real loopback OpenAI-compatible server: what it is asked, how its answer maps
onto the verdict, and that no answer never becomes a guess."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from refhound.agents.index_search import Candidate
from refhound.agents.judge import Judgement, judge
from refhound.agents.judge_llm import (
    EVIDENCE_SOURCE,
    SCHEMA_NAME,
    JudgeReply,
    adjudicate,
)
from refhound.llm import LLMClient, unbounded_strings
from refhound.models import Evidence, FieldCheck, FieldStatus, ParsedFields, Record, Verdict
from refhound.net.breaker import CircuitBreaker
from refhound.normalize.titles import title_similarity
from refhound.settings import JudgeSettings, LLMSettings
from tests.llm_server import FakeLLMServer, completion, error

S = FieldStatus
MODEL = "judge-test"

VASWANI = Record(
    source="dblp",
    source_id="conf/nips/VaswaniSPUJGKP17",
    source_version="2021-09",
    title="Attention is All you Need",
    authors=["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit"],
    venue="Advances in Neural Information Processing Systems 30 (NIPS 2017)",
    year=2017,
    entry_type="inproceedings",
)
LSTM = Record(
    source="crossref",
    source_id="10.1162/neco.1997.9.8.1735",
    source_version="test",
    title="Long Short-Term Memory",
    authors=["Sepp Hochreiter", "Jürgen Schmidhuber"],
    venue="Neural Computation",
    year=1997,
    entry_type="article",
)
# The title says "we", the paper "you": in the borderline band (0.90).
NEAR_TITLE = ParsedFields(
    title="Attention is All we Need",
    authors=["Ashish Vaswani", "Noam Shazeer"],
    authors_truncated=True,
    venue="NIPS",
    year=2017,
)
# The right title; an author romanised differently ("ue" for "ü").
ROMANISED = ParsedFields(
    title="Long Short-Term Memory",
    authors=["Sepp Hochreiter", "Juergen Schmidhuber"],
    venue="Neural Computation",
    year=1997,
)


def rules(cited: ParsedFields, record: Record) -> Judgement:
    similarity = title_similarity(cited.title, record.title) if cited.title else 0.0
    return judge(cited, [Candidate(record, similarity, "title")], lambda k, y: [], JudgeSettings(), 2026)


def answer(
    decision: str, wrong_fields: list[str] | None = None, rationale: str = "as compared"
) -> dict[str, Any]:
    return {"decision": decision, "wrong_fields": wrong_fields or [], "rationale": rationale}


def settings(server: FakeLLMServer, **changes: Any) -> LLMSettings:
    values: dict[str, Any] = {"base_url": server.url, "model": MODEL, "timeout_s": 5.0, "max_retries": 1}
    return LLMSettings(**(values | changes))


@pytest.fixture()
def client(llm_server: FakeLLMServer) -> Iterator[LLMClient]:
    with LLMClient(settings(llm_server)) as opened:
        yield opened


def status(judgement: Judgement, field: str) -> FieldCheck:
    return next(f for f in judgement.fields if f.field == field)


def sent_fields(server: FakeLLMServer, position: int = 0) -> dict[str, Any]:
    """The JSON object in the user message of a request."""
    user = server.requests[position]["messages"][1]["content"]
    assert isinstance(user, str)
    return json.loads(user.split("\n", 1)[1])  # type: ignore[no-any-return]


def test_the_cases_used_here_are_borderline() -> None:
    assert rules(NEAR_TITLE, VASWANI).borderline is not None
    assert rules(ROMANISED, LSTM).borderline is not None


# --- the schema and the request -------------------------------------------------------------------------


def test_schema_bounds_every_field() -> None:
    schema = JudgeReply.model_json_schema()
    assert unbounded_strings(schema) == []
    assert set(schema["required"]) == {"decision", "wrong_fields", "rationale"}
    assert schema["additionalProperties"] is False
    properties = schema["properties"]
    assert properties["rationale"]["maxLength"] == 500
    assert properties["wrong_fields"]["maxItems"] == 6
    assert set(properties["wrong_fields"]["items"]["enum"]) == {
        "title", "authors", "venue", "year", "doi", "arxiv_id",
    }  # fmt: skip
    assert set(properties["decision"]["enum"]) == {
        "same_work_all_fields_match", "same_work_field_wrong", "different_work", "cannot_decide",
    }  # fmt: skip


def test_a_borderline_case_is_asked_with_the_strict_criteria(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    llm_server.script(answer("same_work_all_fields_match", rationale="Juergen is Jürgen in German spelling."))
    judgement = rules(ROMANISED, LSTM)
    settled = adjudicate(ROMANISED, judgement, client)

    (body,) = llm_server.requests
    assert body["model"] == MODEL and body["temperature"] == 0
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": SCHEMA_NAME, "schema": JudgeReply.model_json_schema(), "strict": True},
    }
    system = body["messages"][0]["content"]
    for criterion in (
        "same people in the same order",
        "up to abbreviation",
        "may differ by one year",
        "Any substantive difference is not a match",
        "cannot_decide",
        "never instructions",
    ):
        assert criterion in system
    sent = sent_fields(llm_server)
    assert sent["cited"]["authors"] == ["Sepp Hochreiter", "Juergen Schmidhuber"]
    assert sent["record"]["authors"] == ["Sepp Hochreiter", "Jürgen Schmidhuber"]
    assert sent["record"]["source"] == "crossref 10.1162/neco.1997.9.8.1735"
    assert sent["rules_doubt"] == judgement.borderline

    assert settled.verdict is Verdict.VERIFIED
    assert status(settled, "authors").status is S.BENIGN
    assert "per LLM judge" in status(settled, "authors").note
    assert settled.evidence[0] == judgement.evidence[0]
    assert settled.evidence[-1] == Evidence(
        source=EVIDENCE_SOURCE,
        record_id=MODEL,
        score=None,
        note="same_work_all_fields_match: Juergen is Jürgen in German spelling.",
    )
    assert judgement.verdict is Verdict.METADATA_ERROR  # the rules' judgement itself is not changed


def test_a_field_the_model_finds_wrong_is_a_metadata_error(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    llm_server.script(answer("same_work_field_wrong", ["title"], "'we' is not 'you'."))
    settled = adjudicate(NEAR_TITLE, rules(NEAR_TITLE, VASWANI), client)
    assert settled.verdict is Verdict.METADATA_ERROR
    title = status(settled, "title")
    assert title.status is S.MISMATCH and title.note.endswith("wrong per LLM judge")
    assert title.found == "Attention is All you Need"
    assert settled.evidence[-1].note == "same_work_field_wrong: 'we' is not 'you'."


def test_doubted_fields_the_model_does_not_name_become_benign(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    # The title is in doubt; the author order differs, which the rules allow and CiteAudit's criteria do not.
    cited = NEAR_TITLE.model_copy(update={"authors": ["Ashish Vaswani", "Niki Parmar", "Noam Shazeer"]})
    judgement = rules(cited, VASWANI)
    assert judgement.borderline is not None and status(judgement, "authors").status is S.BENIGN
    llm_server.script(
        answer("same_work_field_wrong", ["authors"], "The second and third authors are swapped.")
    )
    settled = adjudicate(cited, judgement, client)
    assert settled.verdict is Verdict.METADATA_ERROR
    assert status(settled, "authors").status is S.MISMATCH
    title = status(settled, "title")
    assert title.status is S.BENIGN and title.note.endswith("benign per LLM judge")
    assert settled.reason.startswith("wrong authors per dblp record conf/nips/VaswaniSPUJGKP17")


def test_naming_only_fields_that_agree_is_not_supported_by_the_evidence(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    llm_server.script(answer("same_work_field_wrong", ["year", "doi"]))  # 1997 = 1997; no DOI cited
    settled = adjudicate(ROMANISED, rules(ROMANISED, LSTM), client)
    assert settled.verdict is Verdict.UNVERIFIED
    assert "evidence does not support" in settled.reason
    assert status(settled, "year").status is S.MATCH


def test_another_work_than_a_near_title_is_unverified_never_fabricated(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    llm_server.script(answer("different_work", rationale="Another paper."))
    settled = adjudicate(NEAR_TITLE, rules(NEAR_TITLE, VASWANI), client)
    assert settled.verdict is Verdict.UNVERIFIED
    assert "another work" in settled.reason


def test_another_work_with_the_cited_title_keeps_the_rules_verdict(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    llm_server.script(answer("different_work"))
    settled = adjudicate(ROMANISED, rules(ROMANISED, LSTM), client)
    assert settled.verdict is Verdict.METADATA_ERROR
    assert settled.evidence[-1].note.startswith("different_work")


# The near title again, with an invented author the rules settle as wrong (no variant of any record author).
NEAR_TITLE_WRONG_AUTHOR = NEAR_TITLE.model_copy(
    update={"authors": ["Ashish Vaswani", "Noam Shazeer", "Petra Quillfeather"]}
)


def test_a_match_cannot_clear_a_mismatch_the_rules_settled(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    judgement = rules(NEAR_TITLE_WRONG_AUTHOR, VASWANI)
    assert judgement.doubted == ("title",)
    llm_server.script(answer("same_work_all_fields_match"))
    settled = adjudicate(NEAR_TITLE_WRONG_AUTHOR, judgement, client)
    assert settled.verdict is Verdict.METADATA_ERROR
    assert status(settled, "authors").status is S.MISMATCH and "LLM" not in status(settled, "authors").note
    assert status(settled, "title").status is S.BENIGN
    assert settled.reason.startswith("wrong authors per dblp record")


def test_another_work_than_a_near_title_leaves_its_other_mismatches_moot(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    llm_server.script(answer("different_work"))
    settled = adjudicate(NEAR_TITLE_WRONG_AUTHOR, rules(NEAR_TITLE_WRONG_AUTHOR, VASWANI), client)
    assert settled.verdict is Verdict.UNVERIFIED


def test_cannot_decide_is_unverified(llm_server: FakeLLMServer, client: LLMClient) -> None:
    llm_server.script(answer("cannot_decide", rationale="Too little to go on."))
    settled = adjudicate(NEAR_TITLE, rules(NEAR_TITLE, VASWANI), client)
    assert settled.verdict is Verdict.UNVERIFIED
    assert "could not decide" in settled.reason


def test_an_unconfirmed_field_stays_unverified_after_a_match(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    cited = ROMANISED.model_copy(update={"doi": "10.1162/neco.1997.9.8.1735"})  # the record has no DOI
    judgement = rules(cited, LSTM)
    assert judgement.borderline is not None and status(judgement, "doi").status is S.UNCHECKED
    llm_server.script(answer("same_work_all_fields_match"))
    settled = adjudicate(cited, judgement, client)
    assert settled.verdict is Verdict.UNVERIFIED
    assert "doi could not be confirmed" in settled.reason


# --- when the model is not asked ------------------------------------------------------------------------


def test_a_case_that_is_not_borderline_never_reaches_the_model(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    exact = ROMANISED.model_copy(update={"authors": ["Sepp Hochreiter", "Jürgen Schmidhuber"]})
    wrong_year = ROMANISED.model_copy(update={"year": 1995})
    for cited in (exact, wrong_year):
        judgement = rules(cited, LSTM)
        assert adjudicate(cited, judgement, client) is judgement
    assert llm_server.requests == []


def test_without_an_llm_the_rules_verdict_stands() -> None:
    judgement = rules(ROMANISED, LSTM)
    settled = adjudicate(ROMANISED, judgement, None)
    assert settled.verdict is judgement.verdict is Verdict.METADATA_ERROR
    assert settled.fields == judgement.fields and settled.evidence == judgement.evidence
    assert "not adjudicated" in settled.reason and judgement.borderline in settled.reason
    plain = rules(ROMANISED.model_copy(update={"year": 1995}), LSTM)
    assert adjudicate(ROMANISED, plain, None) is plain


def test_a_verdict_without_a_record_is_never_adjudicated(
    llm_server: FakeLLMServer, client: LLMClient
) -> None:
    fabricated = Judgement(Verdict.FABRICATED, [], [], "no record", borderline="a doubt")
    assert adjudicate(NEAR_TITLE, fabricated, client) is fabricated
    assert llm_server.requests == []


# --- no usable answer: unverified, never a guess ---------------------------------------------------------


def test_a_malformed_reply_is_retried(llm_server: FakeLLMServer, client: LLMClient) -> None:
    llm_server.script('{"decision": "same_work_all', answer("same_work_all_fields_match"))
    settled = adjudicate(ROMANISED, rules(ROMANISED, LSTM), client)
    assert settled.verdict is Verdict.VERIFIED
    assert len(llm_server.requests) == 2
    assert "not valid" in llm_server.requests[1]["messages"][-1]["content"]


@pytest.mark.parametrize(
    "second",
    [
        "still not JSON",
        answer("same_work", ["title"]),  # not a decision
        answer("cannot_decide", rationale="x" * 501),  # over the limit
        answer("same_work_field_wrong", ["title"] * 7),
    ],
)
def test_malformed_twice_is_unverified(llm_server: FakeLLMServer, client: LLMClient, second: Any) -> None:
    llm_server.script("not JSON", second)
    judgement = rules(NEAR_TITLE, VASWANI)
    settled = adjudicate(NEAR_TITLE, judgement, client)
    assert settled.verdict is Verdict.UNVERIFIED
    assert settled.reason.startswith("LLM judge unavailable: no valid 'judge_decision' reply in 2 attempt(s)")
    assert judgement.borderline in settled.reason
    assert settled.fields == judgement.fields
    assert all(e.source != EVIDENCE_SOURCE for e in settled.evidence)
    assert len(llm_server.requests) == 2


def test_server_errors_are_unverified_and_open_the_breaker(llm_server: FakeLLMServer) -> None:
    llm_server.script(*[error(500, "CUDA out of memory")] * 3)
    breaker = CircuitBreaker(threshold=3, cooldown_s=60.0)
    with LLMClient(settings(llm_server), breaker=breaker) as client:
        judgement = rules(NEAR_TITLE, VASWANI)
        reasons = [adjudicate(NEAR_TITLE, judgement, client).reason for _ in range(4)]
    assert all(r.startswith("LLM judge unavailable: HTTP 500") for r in reasons[:3])
    assert "CUDA out of memory" in reasons[0]
    assert reasons[3].startswith("LLM judge unavailable: circuit breaker open")
    assert len(llm_server.requests) == 3  # the fourth reference cost no request


def test_a_refusal_is_unverified(llm_server: FakeLLMServer, client: LLMClient) -> None:
    llm_server.script(error(400, "maximum context length exceeded", "vllm"))
    settled = adjudicate(NEAR_TITLE, rules(NEAR_TITLE, VASWANI), client)
    assert settled.verdict is Verdict.UNVERIFIED
    assert "HTTP 400" in settled.reason and "maximum context length" in settled.reason


class _Counting(httpx.BaseTransport):
    """Counts the requests that reach the network."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.sent = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent += 1
        return self.inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()


def test_a_server_that_is_down_is_unverified_and_opens_the_breaker() -> None:
    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    transport = _Counting()
    judgement = rules(ROMANISED, LSTM)
    with httpx.Client(transport=transport) as http:
        client = LLMClient(LLMSettings(base_url=f"http://127.0.0.1:{port}/v1"), http)
        settled = [adjudicate(ROMANISED, judgement, client) for _ in range(5)]
    assert {s.verdict for s in settled} == {Verdict.UNVERIFIED}
    assert settled[0].reason.startswith("LLM judge unavailable: cannot reach")
    assert client.breaker.is_open
    assert all("circuit breaker open" in s.reason for s in settled[3:])
    assert transport.sent == 3  # the default threshold; then no more network calls


def test_a_timeout_is_unverified(llm_server: FakeLLMServer) -> None:
    llm_server.script(completion(answer("same_work_all_fields_match"), delay_s=5.0))
    with LLMClient(settings(llm_server, timeout_s=0.2)) as client:
        settled = adjudicate(ROMANISED, rules(ROMANISED, LSTM), client)
    assert settled.verdict is Verdict.UNVERIFIED
    assert settled.reason.startswith("LLM judge unavailable: no reply from")
    assert "within 0.2s" in settled.reason


# --- other servers and long references ------------------------------------------------------------------


def test_prompt_mode_works(llm_server: FakeLLMServer) -> None:
    llm_server.script("```json\n" + json.dumps(answer("same_work_field_wrong", ["title"])) + "\n```")
    with LLMClient(settings(llm_server, structured_output="prompt")) as client:
        settled = adjudicate(NEAR_TITLE, rules(NEAR_TITLE, VASWANI), client)
    assert settled.verdict is Verdict.METADATA_ERROR
    (body,) = llm_server.requests
    assert "response_format" not in body
    system = body["messages"][0]["content"]
    assert "same people in the same order" in system
    assert json.dumps(JudgeReply.model_json_schema(), ensure_ascii=False) in system


def test_long_fields_are_cut_before_they_are_sent(llm_server: FakeLLMServer, client: LLMClient) -> None:
    long_title = "Attention " + "really " * 200 + "is all you need"
    names = [f"Author{i} " + "Longname" * 20 for i in range(30)]
    cited = ParsedFields(
        title=long_title, authors=names, venue="Proceedings " * 50, year=2017, doi="10.1/" + "x" * 300
    )
    judgement = Judgement(
        Verdict.METADATA_ERROR,
        [
            FieldCheck(field="title", status=S.MISMATCH, cited=long_title, found=long_title + " again"),
            FieldCheck(field="authors", status=S.MATCH, cited="; ".join(names), found="; ".join(names)),
        ],
        [Evidence(source="dblp", record_id="conf/x/Y17", score=0.9)],
        "wrong title per dblp record conf/x/Y17",
        borderline="title similarity 0.90: " + "a doubt " * 200,
    )
    llm_server.script(answer("cannot_decide"))
    adjudicate(cited, judgement, client)
    user = llm_server.requests[0]["messages"][1]["content"]
    sent = sent_fields(llm_server)
    assert len(sent["cited"]["title"]) == 300 and sent["cited"]["title"].endswith("…")
    assert sent["cited"]["title"] == long_title[:299] + "…"
    assert len(sent["cited"]["authors"]) == 13 and sent["cited"]["authors"][-1] == "… and 18 more"
    assert all(len(name) <= 80 for name in sent["cited"]["authors"])
    assert len(sent["cited"]["venue"]) <= 200 and len(sent["cited"]["doi"]) <= 100
    assert len(sent["record"]["title"]) == 300 and len(sent["record"]["authors"]) == 13
    assert len(sent["rules_doubt"]) == 600
    assert sent["record"]["venue"] is None
    assert len(user) < 6000
