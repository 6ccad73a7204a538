"""Bad input and limits: each a clear 4xx answer or a job failed with its reason; nothing left on disk."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pymupdf
import pytest

from refhound.server import checks
from refhound.server.config import ServerLimits
from tests.server.conftest import BIB, Server, make_server
from tests.server.live import LiveServer


@pytest.fixture()
def small(small_index: Path, tmp_path: Path) -> Iterator[Server]:
    limits = ServerLimits(
        max_upload_bytes=512 * 1024, max_pdf_pages=50, workers=1, queue=0, job_timeout_s=2.0
    )
    yield from make_server(small_index, tmp_path, limits)


def error_of(response: httpx.Response) -> str:
    body = response.json()
    assert set(body) == {"error"}, body
    message: str = body["error"]
    return message


def test_malformed_multipart_is_400(server: Server) -> None:
    body = (
        b'--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.bib"\r\n\r\nno closing boundary'
    )
    response = server.call(
        "POST", "/api/v1/check", content=body, headers={"Content-Type": "multipart/form-data; boundary=xyz"}
    )
    assert response.status_code == 400
    assert error_of(response)
    no_boundary = server.call(
        "POST", "/api/v1/check", content=b"abc", headers={"Content-Type": "multipart/form-data"}
    )
    assert no_boundary.status_code == 400 and error_of(no_boundary)
    assert server.uploads_left() == []


def test_a_wrong_content_type_is_415(server: Server) -> None:
    response = server.call(
        "POST", "/api/v1/check", content=BIB.encode(), headers={"Content-Type": "text/plain"}
    )
    assert response.status_code == 415
    assert "multipart/form-data" in error_of(response)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"{not json", "not JSON"),
        (b'{"references": []}', "references"),
        (b'{"references": ["x"], "colour": "red"}', "colour"),
        (b'{"references": ["   "]}', "reference 1 is empty"),
        (b'{"references": ["x"], "flag": "some"}', "flag"),
    ],
)
def test_bad_json_is_400_naming_the_problem(server: Server, body: bytes, expected: str) -> None:
    response = server.call(
        "POST", "/api/v1/check", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert expected in error_of(response)


def test_no_input_and_an_empty_file_are_422(server: Server) -> None:
    response = server.call("POST", "/api/v1/check", files={"other": ("a.bib", b"x")})
    assert response.status_code == 422 and "no input" in error_of(response)
    empty = server.call("POST", "/api/v1/check", files={"file": ("refs.bib", b"")})
    assert empty.status_code == 422 and error_of(empty) == "refs.bib: empty file"
    assert server.uploads_left() == []


def test_random_bytes_named_pdf_fail_with_the_reason(server: Server) -> None:
    junk = bytes(range(256)) * 40
    response = server.call("POST", "/api/v1/check", files={"file": ("paper.pdf", junk, "application/pdf")})
    assert response.status_code == 422
    assert error_of(response) == "paper.pdf: not a PDF (no %PDF- header)"
    started = server.call("POST", "/api/v1/jobs", files={"file": ("paper.pdf", junk)})
    job = wait_for(server, started.json()["id"])
    assert (job["status"], job["error"]) == ("failed", "paper.pdf: not a PDF (no %PDF- header)")
    assert server.uploads_left() == []


def test_an_unusable_file_does_not_stop_the_good_one(server: Server) -> None:
    response = server.call(
        "POST",
        "/api/v1/check",
        files=[("file", ("junk.pdf", b"\x00\x01garbage")), ("file", ("refs.bib", BIB.encode()))],
    )
    assert response.status_code == 200
    report = response.json()
    assert report["summary"]["total"] == 2
    (problem,) = report["problems"]
    assert (problem["input"], problem["location"], problem["message"]) == (
        "junk.pdf",
        None,
        "not a PDF (no %PDF- header)",
    )
    assert response.headers["x-refhound-flagged"] == "true"  # as `refhound check` exits 1 on an input problem


def test_an_upload_over_the_cap_is_413(small: Server) -> None:
    big = b"%" + b"x" * (600 * 1024)
    response = small.call("POST", "/api/v1/check", files={"file": ("refs.bib", big)})
    assert response.status_code == 413
    assert error_of(response) == "the upload is 0.6 MB, larger than this server accepts (0.5 MB at most)"

    async def chunks() -> Any:  # no Content-Length: the cap stops the stream as it passes
        boundary = b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.bib"\r\n\r\n'
        yield boundary
        for _ in range(150):
            yield b"y" * 4096

    streamed = small.call(
        "POST", "/api/v1/check", content=chunks(), headers={"Content-Type": "multipart/form-data; boundary=b"}
    )
    assert streamed.status_code == 413 and "at most" in error_of(streamed)
    assert small.uploads_left() == []


def test_a_pdf_of_thousands_of_pages_is_refused(small: Server, tmp_path: Path) -> None:
    document = pymupdf.open()
    for _ in range(2000):
        document.new_page()
    data = document.tobytes(garbage=4, deflate=True)
    document.close()
    assert len(data) < 512 * 1024  # small on the wire, thousands of pages inside
    response = small.call("POST", "/api/v1/check", files={"file": ("long.pdf", data)})
    assert response.status_code == 422
    assert error_of(response) == "long.pdf: the PDF has 2000 pages; this server reads at most 50"
    assert small.uploads_left() == []


def test_a_file_name_with_dotdot_is_only_a_name(server: Server, tmp_path: Path) -> None:
    response = server.call("POST", "/api/v1/check", files={"file": ("../../outside.bib", BIB.encode())})
    assert response.status_code == 200
    assert response.json()["inputs"] == ["outside.bib"]
    assert not (tmp_path / "outside.bib").exists() and not (tmp_path.parent / "outside.bib").exists()
    windows = server.call("POST", "/api/v1/check", files={"file": ("..\\..\\x\\refs.bib", BIB.encode())})
    assert windows.json()["inputs"] == ["refs.bib"]
    assert server.uploads_left() == []


def test_a_full_queue_is_429_with_retry_after(small: Server) -> None:
    release = threading.Event()
    block(small, release)
    try:
        first = small.call("POST", "/api/v1/jobs", json={"references": ["A. B. A title of a paper. 2020."]})
        assert first.status_code == 202
        refused = small.call("POST", "/api/v1/jobs", files={"file": ("refs.bib", BIB.encode())})
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "5"
        assert "queue is full" in error_of(refused)
        assert small.uploads_left() == []  # the refused upload is removed at once
    finally:
        release.set()
    assert wait_for(small, first.json()["id"])["status"] == "done"


def test_a_job_past_its_time_limit_fails_with_that_reason(small: Server) -> None:
    release = threading.Event()
    block(small, release)
    try:
        started = time.monotonic()
        response = small.call(
            "POST", "/api/v1/check", json={"references": ["A. B. A title of a paper. 2020."]}
        )
        assert response.status_code == 504
        assert "time limit of 2 s" in error_of(response)
        assert time.monotonic() - started < 10
        job_id = response.headers.get("x-refhound-job")
        assert job_id is None  # an error answer carries no report
    finally:
        release.set()
    assert small.call("GET", "/api/v1/health").status_code == 200  # and the server keeps serving


def test_a_closed_index_makes_health_503(server: Server) -> None:
    server.state.runtime.store.close()
    response = server.call("GET", "/api/v1/health")
    assert response.status_code == 503
    assert "index" in response.json()["error"]


def test_a_client_that_disconnects_mid_upload(small_index: Path, tmp_path: Path) -> None:
    for server in make_server(small_index, tmp_path):
        with LiveServer(server.app) as running:
            head = (
                b"POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n"
            )
            part = (
                b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.bib"\r\n\r\n' + b"z" * 5000
            )
            with socket.create_connection(("127.0.0.1", running.port)) as raw:
                raw.sendall(head + part)
                time.sleep(0.3)
            time.sleep(0.5)
            health = httpx.get(running.url + "/api/v1/health", timeout=10)
            assert health.status_code == 200
            assert health.json()["jobs"] == {"queued": 0, "running": 0, "workers": 2, "queue": 64}
            good = httpx.post(
                running.url + "/api/v1/check", files={"file": ("refs.bib", BIB.encode())}, timeout=60
            )
            assert good.status_code == 200
        assert server.uploads_left() == []


def block(server: Server, release: threading.Event) -> None:
    """Make every check wait for `release` (and stop when its time limit passes), like a slow one."""
    runtime = server.state.runtime

    def slow_check(references: list[Any], **hooks: Any) -> list[Any]:
        while not release.wait(0.05):
            if hooks["expired"]():
                from refhound.server.runtime import JobExpired

                raise JobExpired
        return []

    runtime.check = slow_check  # type: ignore[method-assign]


def wait_for(server: Server, job_id: str, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        view: dict[str, Any] = server.call("GET", f"/api/v1/jobs/{job_id}").json()
        if view["status"] in ("done", "failed") or time.monotonic() > deadline:
            return view
        time.sleep(0.05)


def test_shutting_down_stops_a_running_job_with_that_reason(small: Server) -> None:
    release = threading.Event()
    block(small, release)
    try:
        started = small.call("POST", "/api/v1/jobs", json={"references": ["A. B. A title of a paper. 2020."]})
        job = small.state.jobs.get(started.json()["id"])
        assert job is not None
        while job.state.value == "queued":
            time.sleep(0.01)
        began = time.monotonic()
        small.state.jobs.close()  # waits for the running job, which stops at its next check of the clock
        assert time.monotonic() - began < 5
        assert (job.state.value, job.error) == ("failed", "the server shut down before the check finished")
        refused = small.call("POST", "/api/v1/jobs", json={"references": ["A. B. A title. 2020."]})
        assert refused.status_code == 429
    finally:
        release.set()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("refs.json", b"{not json at all", "refs.json: "),
        ("refs.bib", b"\x00\x01\x02\x03binary\x00" * 50, "refs.bib: "),
        ("notes.txt", b"12\n\n34\n", "notes.txt"),
    ],
)
def test_an_input_with_no_reference_is_422_naming_it(
    server: Server, name: str, content: bytes, message: str
) -> None:
    response = server.call("POST", "/api/v1/check", files={"file": (name, content)})
    assert response.status_code == 422, response.text
    assert error_of(response).startswith(message)
    assert str(server.state.upload_parent) not in response.text


def test_shutting_down_removes_the_uploads_of_queued_jobs(small_index: Path, tmp_path: Path) -> None:
    limits = ServerLimits(workers=1, queue=4, job_timeout_s=30.0)
    for server in make_server(small_index, tmp_path, limits):
        release = threading.Event()
        block(server, release)
        try:
            for _ in range(3):  # one runs (blocked), two wait with their uploads on disk
                started = server.call("POST", "/api/v1/jobs", files={"file": ("refs.bib", BIB.encode())})
                assert started.status_code == 202
            assert len(server.uploads_left()) >= 2
            server.state.jobs.close()
        finally:
            release.set()
        assert server.uploads_left() == []


def test_the_time_limit_covers_reading_the_inputs(
    small_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A job whose inputs take longer to read than its limit is answered at the limit, failed with the
    reading named, and keeps that reason once its reading returns."""
    real_read = checks.read_references
    reading = threading.Event()

    def slow_read(*args: Any) -> Any:
        reading.set()
        time.sleep(2.5)
        return real_read(*args)

    monkeypatch.setattr(checks, "read_references", slow_read)
    reason = "reading the inputs ran past the server's time limit of 0.5 s"
    for server in make_server(small_index, tmp_path, ServerLimits(job_timeout_s=0.5)):
        started = time.monotonic()
        response = server.call("POST", "/api/v1/check", files={"file": ("refs.bib", BIB.encode())})
        assert (response.status_code, error_of(response)) == (504, reason)
        assert time.monotonic() - started < 1.5  # at the limit, not when the reading ends
        job_id = server.call("POST", "/api/v1/jobs", files={"file": ("refs.bib", BIB.encode())}).json()["id"]
        assert reading.wait(10)
        view = wait_for(server, job_id)
        assert (view["status"], view["error"]) == ("failed", reason)
        time.sleep(2.6)  # its reading has returned: the reason stays
        assert wait_for(server, job_id)["error"] == reason
