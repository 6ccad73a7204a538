"""The OpenAPI schema is valid, complete and exact: every `$ref` resolves, the error codes are the ones the
server sends, and a client generated from it (openapi-python-client) calls every operation."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

from tests.server.conftest import BIB, VERIFIED, Server
from tests.server.live import LiveServer

GENERATOR = Path(sys.executable).parent / "openapi-python-client"


def test_the_schema_is_valid_and_every_ref_resolves(server: Server) -> None:
    document = server.call("GET", "/openapi.json").json()
    validate(document)
    schemas = document["components"]["schemas"]
    refs = set(re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', json.dumps(document)))
    assert refs and refs <= set(schemas), refs - set(schemas)
    assert "HTTPValidationError" not in schemas  # FastAPI's 422 shape: this server answers 400 instead
    check = document["paths"]["/api/v1/check"]["post"]
    assert set(check["responses"]) == {"200", "400", "401", "403", "413", "415", "422", "429", "500", "504"}
    references = schemas["CheckBody"]["properties"]["references"]
    assert references["maxItems"] == server.state.limits.max_references
    assert set(document["paths"]["/api/v1/jobs/{job_id}/report"]["get"]["responses"]) == {
        "200",
        "400",
        "401",
        "404",
        "409",
    }


@pytest.fixture()
def client_package(server: Server, tmp_path: Path) -> Iterator[Any]:
    """A client package generated from the server's own schema, importable as `refhound_client`."""
    spec = tmp_path / "openapi.json"
    spec.write_text(server.call("GET", "/openapi.json").text, encoding="utf-8")
    output = tmp_path / "generated" / "refhound_client"
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
    done = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(spec), "--meta", "none", "--output-path", str(output)],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": path, "HOME": str(tmp_path)},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Unable to" not in done.stdout + done.stderr, done.stdout + done.stderr
    # openapi-python-client 0.29 types an operation with two body types (multipart or JSON) as `... | Unset`
    # whether or not the body is required (a Jinja scoping slip in its endpoint macro) without importing
    # `Unset`: import it, and change nothing else.
    for module in (output / "api").rglob("*.py"):
        text = module.read_text(encoding="utf-8")
        if "| Unset = UNSET" in text and "import UNSET, Response" in text:
            module.write_text(
                text.replace("import UNSET, Response", "import UNSET, Response, Unset"), "utf-8"
            )
    sys.path.insert(0, str(output.parent))
    try:
        yield importlib.import_module("refhound_client")
    finally:
        sys.path.remove(str(output.parent))
        for name in [n for n in sys.modules if n == "refhound_client" or n.startswith("refhound_client.")]:
            del sys.modules[name]
        shutil.rmtree(output, ignore_errors=True)


@pytest.mark.skipif(not GENERATOR.is_file(), reason="openapi-python-client is not installed (the dev extra)")
def test_a_generated_client_calls_every_operation(server: Server, client_package: Any) -> None:
    api = importlib.import_module("refhound_client.api.default")
    models = importlib.import_module("refhound_client.models")
    types = importlib.import_module("refhound_client.types")
    operations = sorted(p.stem for p in Path(api.__file__).parent.glob("*.py") if p.stem != "__init__")
    called: set[str] = set()

    def call(operation: str, **kwargs: Any) -> Any:
        module = importlib.import_module(f"refhound_client.api.default.{operation}")
        called.add(operation)
        return module.sync_detailed(client=client, **kwargs)

    with LiveServer(server.app) as live:
        client = client_package.Client(base_url=live.url, raise_on_unexpected_status=True, timeout=None)
        with client:
            health = call("health_api_v1_health_get")
            assert health.status_code == 200 and health.parsed.additional_properties["status"] == "ok"

            as_json = call(
                "check_api_v1_check_post", body=models.CheckBody(references=[VERIFIED], offline=True)
            )
            assert as_json.status_code == 200 and isinstance(as_json.parsed, models.Report)
            assert as_json.parsed.summary.total == 1

            upload = models.CheckApiV1CheckPostFilesBody(
                file=[types.File(payload=BytesIO(BIB.encode()), file_name="refs.bib")], offline=True
            )
            uploaded = call("check_api_v1_check_post", body=upload)
            assert uploaded.status_code == 200 and uploaded.parsed.summary.total == 2

            bad = call("check_api_v1_check_post", body=models.CheckBody(references=[" "]))
            assert bad.status_code == 400 and isinstance(bad.parsed, models.Error)

            started = call(
                "start_job_api_v1_jobs_post", body=models.CheckBody(references=[VERIFIED], offline=True)
            )
            assert started.status_code == 202
            job_id = started.parsed.id
            deadline = time.monotonic() + 60
            while (
                job := call("get_job_api_v1_jobs_job_id_get", job_id=job_id)
            ).parsed.status.value != "done":
                assert time.monotonic() < deadline, job.content
                time.sleep(0.1)
            assert isinstance(job.parsed.report, models.Report)
            report = call("job_report_api_v1_jobs_job_id_report_get", job_id=job_id)
            assert report.status_code == 200 and isinstance(report.parsed, models.Report)
            missing = call("get_job_api_v1_jobs_job_id_get", job_id="no-such-job")
            assert missing.status_code == 404 and isinstance(missing.parsed, models.Error)

            quotes = models.QuotesApiV1QuotesPostBody(
                document=types.File(
                    payload=BytesIO(b'It says "deep residual learning" [1].\n'), file_name="m.md"
                ),
                offline=True,
            )
            checked = call("quotes_api_v1_quotes_post", body=quotes)
            assert checked.status_code == 200
            assert checked.parsed.additional_properties["schema"] == "refhound.quotes/1"
    assert called == set(operations) and len(operations) == 6
