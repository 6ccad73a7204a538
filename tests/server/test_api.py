"""The HTTP API through httpx's ASGI transport: health, check, jobs, downloads, quotes, the token."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.server.conftest import BIB, FABRICATED, VERIFIED, Server, make_server


def test_health_reports_version_coverage_and_queue(server: Server) -> None:
    response = server.call("GET", "/api/v1/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["version"]
    assert body["offline"] is False
    assert body["index"]["records"] == 7
    venues = {entry["venue"] for entry in body["index"]["complete_coverage"]}
    assert "cvpr" in venues
    assert body["jobs"]["queued"] == 0


def test_check_a_bib_upload_returns_the_report_contract(server: Server) -> None:
    response = server.call("POST", "/api/v1/check", files={"file": ("refs.bib", BIB.encode(), "text/plain")})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["schema"] == "refhound.report/1"
    assert report["inputs"] == ["refs.bib"]
    by_id = {r["id"]: r for r in report["references"]}
    assert by_id["he2016deep"]["verdict"] == "verified"
    assert by_id["he2016deep"]["input"] == "refs.bib"  # the client's name, never the file on disk
    assert (by_id["jain2019"]["verdict"], by_id["jain2019"]["severity"]) == ("metadata_error", "minor")
    assert report["summary"]["total"] == 2
    # A minor slip is not flagged by default (exit code 0 of `refhound check`) ...
    assert response.headers["x-refhound-flagged"] == "false"
    # ... and is under flag=any.
    strict = server.call(
        "POST", "/api/v1/check", files={"file": ("refs.bib", BIB.encode())}, data={"flag": "any"}
    )
    assert strict.headers["x-refhound-flagged"] == "true"
    assert server.uploads_left() == []


def test_check_json_reference_strings(server: Server) -> None:
    response = server.call("POST", "/api/v1/check", json={"references": [VERIFIED, FABRICATED]})
    assert response.status_code == 200, response.text
    first, second = response.json()["references"]
    assert (first["id"], first["verdict"], first["input"]) == ("1", "verified", "request")
    assert (second["verdict"], second["hallucinated"]) == ("fabricated", True)
    assert response.headers["x-refhound-flagged"] == "true"
    # Offline, nothing can say "no such work": the same reference is unverified.
    offline = server.call("POST", "/api/v1/check", json={"references": [FABRICATED], "offline": True})
    assert offline.json()["references"][0]["verdict"] == "unverified"


def test_unverified_policy_sets_hallucinated(server: Server) -> None:
    unknown = "A. Nobody. An untitled note on nothing in particular. Unpublished manuscript, 1871."
    for policy, expected in (("real", False), ("fake", True), ("unknown", None)):
        response = server.call(
            "POST", "/api/v1/check", json={"references": [unknown], "unverified_as": policy}
        )
        (result,) = response.json()["references"]
        if result["verdict"] == "unverified":
            assert result["hallucinated"] is expected


def test_several_files_and_pasted_text_in_one_request(server: Server) -> None:
    response = server.call(
        "POST",
        "/api/v1/check",
        files=[("file", ("a.bib", BIB.encode())), ("file", ("b.txt", f"[1] {VERIFIED}\n".encode()))],
        data={"text": f"1. {FABRICATED}\n"},
    )
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["inputs"] == ["a.bib", "b.txt", "pasted.txt"]
    assert [r["input"] for r in report["references"]] == ["a.bib", "a.bib", "b.txt", "pasted.txt"]


def test_job_reports_progress_then_the_report_and_downloads(server: Server) -> None:
    started = server.call("POST", "/api/v1/jobs", files={"file": ("refs.bib", BIB.encode())})
    assert started.status_code == 202
    job_id = started.json()["id"]
    assert len(job_id) >= 20
    deadline = time.monotonic() + 60
    while True:
        view = server.call("GET", f"/api/v1/jobs/{job_id}").json()
        if view["status"] in ("done", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert view["status"] == "done", view
    assert view["progress"] == {"decided": 2, "total": 2}
    streamed = [r["id"] for r in view["references"]]  # in the order they were decided
    assert sorted(streamed) == ["he2016deep", "jain2019"]
    assert {r["id"]: r["position"] for r in view["references"]} == {"he2016deep": 0, "jain2019": 1}
    assert view["report"]["schema"] == "refhound.report/1" and view["flagged"] is False
    assert [r["id"] for r in view["report"]["references"]] == ["he2016deep", "jain2019"]
    later = server.call("GET", f"/api/v1/jobs/{job_id}", params={"since": 1}).json()
    assert [r["id"] for r in later["references"]] == streamed[1:]
    html = server.call("GET", f"/api/v1/jobs/{job_id}/report", params={"format": "html"})
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert "Attention is not Explanation" in html.text
    markdown = server.call("GET", f"/api/v1/jobs/{job_id}/report", params={"format": "md"})
    assert "jain2019" in markdown.text
    assert "attachment" in markdown.headers["content-disposition"]
    bad = server.call("GET", f"/api/v1/jobs/{job_id}/report", params={"format": "pdf"})
    assert bad.status_code == 400 and "error" in bad.json()


def test_unknown_job_is_404(server: Server) -> None:
    response = server.call("GET", "/api/v1/jobs/no-such-job")
    assert response.status_code == 404
    assert "no job" in response.json()["error"]


def test_quotes_checks_a_document_against_an_uploaded_source(server: Server) -> None:
    source = "We find that the residual networks are easier to optimize and gain accuracy from depth.\n"
    document = (
        "He et al. write that "
        '"the residual networks are easier to optimize and gain accuracy from depth" [1], '
        'and also that "residual networks never need batch normalization at all" [1].\n\n'
        "[1]: resnet.txt\n"
    )
    response = server.call(
        "POST",
        "/api/v1/quotes",
        files=[("document", ("memo.md", document.encode())), ("source", ("resnet.txt", source.encode()))],
    )
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["schema"] == "refhound.quotes/1"
    statuses = [q["status"] for q in report["quotes"]]
    assert statuses == ["verified", "not_found"]
    assert str(server.state.upload_parent) not in response.text  # uploads are named as the client named them
    assert server.uploads_left() == []


def test_quotes_never_read_a_server_file_the_document_names(server: Server, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(
        "the launch codes are zero zero zero zero and nobody should know that\n", encoding="utf-8"
    )
    document = f'It says "the launch codes are zero zero zero zero" [1].\n\n[1]: {secret}\n'
    response = server.call("POST", "/api/v1/quotes", files={"document": ("memo.md", document.encode())})
    assert response.status_code == 200, response.text
    (result,) = response.json()["quotes"]
    assert result["status"] == "citation_unresolved"
    assert "does not read" in response.text
    assert "nobody should know" not in response.text


@pytest.fixture()
def guarded(small_index: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    yield from make_server(small_index, tmp_path, token="s3cret-token")


def test_a_token_is_required_when_set(guarded: Server) -> None:
    assert guarded.call("GET", "/api/v1/health").status_code == 401
    wrong = guarded.call("GET", "/api/v1/health", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and "token" in wrong.json()["error"]
    right = guarded.call("GET", "/api/v1/health", headers={"Authorization": "Bearer s3cret-token"})
    assert right.status_code == 200
    assert guarded.call("GET", "/").status_code == 200  # the page holds no data; it asks for the token


def test_openapi_lists_the_v1_routes(server: Server) -> None:
    paths = server.call("GET", "/openapi.json").json()["paths"]
    assert {
        "/api/v1/health",
        "/api/v1/check",
        "/api/v1/jobs",
        "/api/v1/jobs/{job_id}",
        "/api/v1/quotes",
    } <= set(paths)
    docs = server.call("GET", "/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text
    assert "http" not in docs.text.replace("http-equiv", "")  # nothing loaded from elsewhere


def test_each_verdict_is_handed_back_as_it_is_decided(server: Server) -> None:
    from refhound.models import Reference
    from refhound.refstring import parse_reference_string

    runtime = server.state.runtime
    references = [
        Reference(id=str(n), raw=VERIFIED, parsed=parse_reference_string(VERIFIED)) for n in range(20)
    ]
    decided: list[str] = []
    results = runtime.check(
        references, offline=True, decided=lambda _, result: decided.append(result.id), expired=lambda: False
    )
    assert sorted(decided, key=int) == [r.id for r in results] == [str(n) for n in range(20)]


def test_a_source_answers_to_the_label_given_with_it(server: Server) -> None:
    source = b"Attention weights are not explanations of a model's predictions in general.\n"
    document = b'They argue that "attention weights are not explanations of a model\'s predictions" [7].\n'
    response = server.call(
        "POST",
        "/api/v1/quotes",
        files=[("document", ("memo.md", document)), ("source", ("jain.txt", source))],
        data={"label": "7", "offline": "true"},
    )
    assert response.status_code == 200, response.text
    (quote,) = response.json()["quotes"]
    assert (quote["citation"], quote["status"], quote["source"]) == ("[7]", "verified", "jain.txt")
    bad = server.call(
        "POST", "/api/v1/quotes", files=[("document", ("memo.md", document)), ("source", ("a b.txt", source))]
    )
    assert bad.status_code == 400 and "label" in bad.json()["error"]
    assert server.uploads_left() == []


def test_a_check_stops_at_the_first_verdict_past_its_time_limit(server: Server) -> None:
    from refhound.models import Reference
    from refhound.refstring import parse_reference_string
    from refhound.server.runtime import JobExpired

    references = [
        Reference(id=str(n), raw=VERIFIED, parsed=parse_reference_string(VERIFIED)) for n in range(40)
    ]
    decided: list[int] = []
    with pytest.raises(JobExpired):
        server.state.runtime.check(
            references,
            offline=True,
            decided=lambda *_: decided.append(1),
            expired=lambda: len(decided) >= 1,  # the limit passes with the first verdict
        )
    assert 1 <= len(decided) < 40
    # The runtime is still usable after a stopped check.
    (result,) = server.state.runtime.check(
        references[:1], offline=True, decided=lambda *_: None, expired=lambda: False
    )
    assert result.verdict == "verified"
