"""Hostile and careless bodies: each malformed one is a 400 naming its problem (never a 500), and a
well-formed request over a count limit is a 422 whether it came as JSON or as an upload."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from refhound.server.config import MB, ServerLimits
from refhound.server.requests import MAX_JSON_BYTES
from tests.server.conftest import VERIFIED, Server, make_server

JSON = {"Content-Type": "application/json"}


def post_json(server: Server, body: bytes, path: str = "/api/v1/check") -> tuple[int, str]:
    response = server.call("POST", path, content=body, headers=JSON)
    assert response.headers["content-type"] == "application/json"
    return response.status_code, response.json()["error"]


@pytest.mark.parametrize("path", ["/api/v1/check", "/api/v1/jobs"])
@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b'{"references": ["Caf\xe9 au lait. 2019."]}', "the body is not UTF-8: byte 0xe9 at offset 20"),
        (b"\xff\xfe{}", "the body is not UTF-8: byte 0xff at offset 0"),
        (b"[" * 100_000 + b"]" * 100_000, "the body is nested too deeply"),
        (b'{"references": [{"a": ' * 300 + b"1" + b"}]" * 300 + b"}", "the body is nested too deeply"),
        (b'{"references": ["A title \\ud800 here. 2019."]}', "lone surrogate"),
        (b'{"references": ["A title \\udc00. 2019."]}', "lone surrogate"),
        (b'{"references": ["x"], "offline": "yes"}', "offline: Input should be a valid boolean"),
        (b'{"references": ["x"], "offline": 1}', "offline: Input should be a valid boolean"),
        (b'{"references": "x"}', "references: Input should be a valid array"),
        (b'{"references": [1]}', "references.0: Input should be a valid string"),
        (b"[]", "Input should be an object"),
    ],
)
def test_a_malformed_json_body_is_400_naming_the_problem(
    server: Server, path: str, body: bytes, expected: str
) -> None:
    status, error = post_json(server, body, path)
    assert status == 400
    assert expected in error


def test_a_surrogate_pair_is_text(server: Server) -> None:
    body = json.dumps({"references": [VERIFIED + " \U0001f600"], "offline": True}).encode()  # ensure_ascii
    assert b"\\ud83d\\ude00" in body
    assert server.call("POST", "/api/v1/check", content=body, headers=JSON).status_code == 200


def test_a_multipart_flag_must_be_true_or_false(server: Server) -> None:
    response = server.call(
        "POST", "/api/v1/check", data={"text": VERIFIED, "offline": "yes"}, files={"x": ("x", b"")}
    )
    assert response.status_code == 400 and "`offline` must be true or false" in response.json()["error"]


def test_a_lone_surrogate_in_an_uploaded_file_leaves_the_job_readable(server: Server) -> None:
    csl = json.dumps(
        [
            {"type": "article-journal", "title": "Bad \ud800 title", "author": [{"family": "Doe"}]},
            {"type": "article-journal", "title": "Deep learning", "author": [{"family": "LeCun"}]},
        ]
    ).encode()
    started = server.call("POST", "/api/v1/jobs", files={"file": ("refs.json", csl, "application/json")})
    assert started.status_code == 202
    job_id = started.json()["id"]
    deadline = time.monotonic() + 60
    while (job := server.call("GET", f"/api/v1/jobs/{job_id}")).json()["status"] in ("queued", "running"):
        assert job.status_code == 200 and time.monotonic() < deadline
        time.sleep(0.1)
    assert job.status_code == 200, job.text
    view = job.json()
    assert view["status"] == "done"
    assert view["progress"]["total"] == 1
    assert any("lone surrogate" in p["message"] for p in view["report"]["problems"])
    for form in ("json", "html", "md"):
        assert server.call("GET", f"/api/v1/jobs/{job_id}/report?format={form}").status_code == 200


@pytest.fixture()
def counted(small_index: Path, tmp_path: Path) -> Iterator[Server]:
    yield from make_server(small_index, tmp_path, ServerLimits(max_references=3, max_files=2))


@pytest.mark.parametrize("path", ["/api/v1/check", "/api/v1/jobs"])
def test_too_many_references_is_422_as_json_and_as_an_upload(counted: Server, path: str) -> None:
    """Counted before a job is admitted, on /jobs as on /check: no job, nothing left on disk."""
    four = [f"A. Author. Title number {n}. In Proceedings of Something, 2019." for n in range(4)]
    status, error = post_json(counted, json.dumps({"references": four, "offline": True}).encode(), path)
    assert (status, error) == (422, "4 references; this server checks at most 3")
    upload = counted.call(
        "POST", path, data={"offline": "true"}, files={"file": ("refs.txt", "\n\n".join(four))}
    )
    assert upload.status_code == 422
    assert upload.json()["error"] == "refs.txt: 4 references; this server checks at most 3 references per job"
    two = "\n\n".join(four[:2])
    files = [("file", ("a.txt", two)), ("file", ("b.txt", two))]
    both = counted.call("POST", path, data={"offline": "true"}, files=files)
    assert (both.status_code, both.json()["error"]) == (
        422,
        "b.txt: 2 references; this server checks at most 3 references per job (2 already in the inputs "
        "before it)",
    )
    assert counted.state.jobs.counts()["queued"] == counted.state.jobs.counts()["running"] == 0
    assert counted.uploads_left() == []


def test_too_many_files_is_422(counted: Server) -> None:
    files = [("file", (f"{n}.txt", VERIFIED.encode())) for n in range(3)]
    response = counted.call("POST", "/api/v1/check", files=files)
    assert response.status_code == 422
    assert "Too many files" in response.json()["error"]
    assert counted.uploads_left() == []


def test_one_overlong_reference_is_422_naming_its_length(server: Server) -> None:
    status, error = post_json(server, json.dumps({"references": ["x" * 20_000]}).encode())
    assert (status, error) == (
        422,
        "reference 1 is 20000 characters long; one reference may have at most 5000",
    )


@pytest.mark.parametrize("path", ["/api/v1/check", "/api/v1/jobs"])
def test_an_upload_of_too_many_bibtex_entries_is_422_before_parsing(
    counted: Server, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    def fail(text: str) -> None:
        raise AssertionError("parsed although counting refuses it")

    monkeypatch.setattr("refhound.inputs.bibstream.parse_bibtex", fail)
    bib = "\n".join(f"@article{{k{n}, title={{Title {n}}}, year={{2019}}}}" for n in range(5))
    response = counted.call("POST", path, files={"file": ("refs.bib", bib.encode())})
    assert response.status_code == 422
    assert (
        response.json()["error"]
        == "refs.bib: 5 BibTeX entries; this server checks at most 3 references per job"
    )
    assert counted.uploads_left() == []


def test_an_overlong_reference_in_an_upload_is_skipped_naming_its_length(server: Server) -> None:
    limit = server.state.limits.max_entry_chars
    text = f"{VERIFIED}\n\n{'x' * (limit + 1)}\n\n{VERIFIED}\n"
    response = server.call("POST", "/api/v1/check", files={"file": ("refs.txt", text.encode())})
    assert response.status_code == 200, response.text
    report = response.json()
    assert [ref["verdict"] for ref in report["references"]] == ["verified", "verified"]
    (problem,) = report["problems"]
    assert (problem["input"], problem["location"], problem["message"]) == (
        "refs.txt",
        "line 3",
        f"{limit + 1:,} characters long, too long for one reference (at most {limit:,}): skipped",
    )


def test_an_upload_that_is_one_overlong_reference_is_422_naming_its_length(server: Server) -> None:
    response = server.call("POST", "/api/v1/check", files={"file": ("refs.txt", b"x" * 3_000_000)})
    assert response.status_code == 422
    expected = "refs.txt (line 1): 3,000,000 characters long, too long for one reference"
    assert expected in response.json()["error"]


DEEP_JSON = b"[" * 100_000 + b"]" * 100_000


def test_an_upload_nested_too_deeply_is_422_naming_it(server: Server) -> None:
    response = server.call("POST", "/api/v1/check", files={"file": ("refs.json", DEEP_JSON)})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert "refs.json (item 1): nested too deeply to be read" in error
    assert str(server.state.upload_parent) not in error
    assert server.uploads_left() == []


def test_a_deep_upload_does_not_stop_the_good_one(server: Server) -> None:
    response = server.call(
        "POST",
        "/api/v1/check",
        data={"offline": "true"},
        files=[("file", ("deep.json", DEEP_JSON)), ("file", ("good.txt", VERIFIED.encode()))],
    )
    assert response.status_code == 200, response.text
    report = response.json()
    assert [ref["verdict"] for ref in report["references"]] == ["verified"]
    assert ("deep.json", "item 1", "nested too deeply to be read: skipped") in [
        (p["input"], p["location"], p["message"]) for p in report["problems"]
    ]


# --- JSON bodies: capped in bytes, and read two at a time -----------------------------------------------


def test_a_json_body_over_the_cap_is_413_naming_its_size(server: Server) -> None:
    body = b'{"references": ["' + b"x" * (20 * MB) + b'"]}'
    status, error = post_json(server, body)
    assert status == 413
    assert error == (
        f"the JSON body is {len(body) / MB:.1f} MB; a JSON check takes at most {MAX_JSON_BYTES // MB} MB "
        "(upload larger reference lists as a file)"
    )


def test_a_streamed_json_body_is_stopped_at_the_cap(server: Server) -> None:
    pulled = 0

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: the size shows only as it streams
        nonlocal pulled
        yield b'{"references": ["'
        for _ in range(40):
            pulled += 1
            yield b"x" * MB

    response = server.call("POST", "/api/v1/check", content=chunks(), headers=JSON)
    assert response.status_code == 413
    assert response.json()["error"].startswith(f"the JSON body is over {MAX_JSON_BYTES // MB} MB;")
    assert pulled == MAX_JSON_BYTES // MB  # the chunk that passed the cap was the last one read


def test_at_most_two_json_bodies_are_read_at_once(server: Server) -> None:
    """Two requests hold the readers while their bodies trickle in; a third is not read until one ends."""
    started: list[int] = []

    async def send_all() -> list[int]:
        release = asyncio.Event()

        def body(number: int) -> AsyncIterator[bytes]:
            async def chunks() -> AsyncIterator[bytes]:
                started.append(number)
                yield b'{"references": '
                await release.wait()
                yield b"[1]}"  # a wrong type: each ends as a quick 400

            return chunks()

        transport = httpx.ASGITransport(app=server.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
            requests = []
            for number in range(3):
                requests.append(
                    asyncio.create_task(client.post("/api/v1/check", content=body(number), headers=JSON))
                )
                await asyncio.sleep(0.2)
            assert sorted(started) == [0, 1]  # the third waits for a reader
            release.set()
            answers = await asyncio.gather(*requests)
        return [answer.status_code for answer in answers]

    assert asyncio.run(send_all()) == [400, 400, 400]
    assert sorted(started) == [0, 1, 2]
