"""`POST /api/v1/quotes` with `evaluate`: the evaluators on the server's LLM, not_run without one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.quotes.rubric_llm import RubricLLMServer
from tests.server.conftest import Server

SOURCE = "We find that the residual networks are easier to optimize and gain accuracy from depth.\n"
DOCUMENT = (
    "Deeper residual networks optimize easily, as He et al. write: "
    '"the residual networks are easier to optimize and gain accuracy from depth" [1].\n\n[1]: resnet.txt\n'
)


def _post(server: Server, **data: str) -> dict[str, object]:
    files = [("document", ("memo.md", DOCUMENT.encode())), ("source", ("resnet.txt", SOURCE.encode()))]
    response = server.call("POST", "/api/v1/quotes", files=files, data=data)
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


@pytest.fixture(autouse=True)
def _scratch_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_evaluate_without_an_llm_says_not_run(server: Server) -> None:
    report = _post(server, evaluate="entailment,factcheck")
    [quote] = report["quotes"]  # type: ignore[misc]
    assert report["evaluated"] == ["entailment", "factcheck"]
    assert quote["evaluations"]["entailment"]["verdict"] == "not_run"
    assert quote["alterations"] == [] and quote["confidence"] == 1.0
    assert "evaluations" not in _post(server)["quotes"][0]  # type: ignore[index]


def test_evaluate_on_the_servers_llm(server: Server, tmp_path: Path) -> None:
    with RubricLLMServer() as llm:
        server.state.quotes.settings.llm.base_url = llm.url
        server.state.quotes.settings.quotes.evaluation_cache = tmp_path / "v.sqlite"
        report = _post(server, evaluate="all")
    [quote] = report["quotes"]  # type: ignore[misc]
    assert quote["evaluations"]["relevance"]["verdict"] == "relevant"
    assert quote["evaluations"]["entailment"]["prompt_version"] == "entailment.v1"
    assert quote["evidence"]["passage"]["start"] == 0


def test_a_bad_evaluate_field_is_a_400(server: Server) -> None:
    files = [("document", ("memo.md", DOCUMENT.encode()))]
    response = server.call("POST", "/api/v1/quotes", files=files, data={"evaluate": "vibes"})
    assert response.status_code == 400 and "evaluate" in response.json()["error"]
