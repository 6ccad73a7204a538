"""`refhound triage --openreview VENUE_ID` against a loopback OpenReview API v2
(tests/triage/openreview_server.py): the listing paged as openreview-py pages it, PDFs downloaded through
the SSRF-guarded client, politely (retried after 429/5xx) and resumably, a chair's token from the
environment, and the field mapping on 28 real notes (refchecker's reshaped copies, ../shared)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.errors import SourceError
from refhound.net.guard import AddressPolicy, GuardedTransport
from refhound.settings import Settings
from refhound.triage.openreview import download_venue, listing_path, submission_of
from tests.conftest import shared_path
from tests.sources.fake_service import Reply
from tests.triage.openreview_server import OpenReviewServer, v2_note

FIXTURE = Path(__file__).parent / "fixtures" / "openreview-notes-written-from-api-v2-shape.json"
VENUE = "Example.cc/2026/Conference"
TOKEN = "chair-token-for-tests"


def _notes() -> list[dict[str, Any]]:
    return list(json.loads(FIXTURE.read_text(encoding="utf-8"))["notes"])


def _settings(url: str, **openreview: Any) -> Settings:
    section = {"base_url": url, "rate_per_s": 1000.0, "backoff_s": 0.01, "page_size": 2, **openreview}
    return Settings(openreview=section, check={"offline": False})


def _download(server: OpenReviewServer, folder: Path, token: str | None = None, **openreview: Any):  # type: ignore[no-untyped-def]
    return asyncio.run(download_venue(VENUE, folder, _settings(server.url, **openreview), token=token))


def test_a_venue_is_listed_page_by_page_and_its_public_pdfs_downloaded(tmp_path: Path) -> None:
    with OpenReviewServer(_notes(), private=frozenset({"bbbPrivate2"}), token=TOKEN) as server:
        got = _download(server, tmp_path / "venue")
        listings = [r for r in server.requests if r.path == "/notes"]
    assert [s.id for s in got.submissions] == ["aaaPublic01", "bbbPrivate2", "cccExternal", "dddPublic04"]
    # Pages of two, sorted by id, each after the last id of the page before; the count asked once.
    assert [r.params.get("after") for r in listings] == [None, "bbbPrivate2", "dddPublic04"]
    assert all(r.params["content.venueid"] == VENUE and r.params["sort"] == "id" for r in listings)
    assert listings[0].params.get("count") == "true"
    assert sorted(p.name for p in got.papers) == ["aaaPublic01.pdf", "dddPublic04.pdf"]
    assert all(p.read_bytes().startswith(b"%PDF-") for p in got.papers)
    assert "403" in got.skipped["bbbPrivate2"] and "permission" in got.skipped["bbbPrivate2"]
    assert got.skipped["cccExternal"].startswith("no PDF held by the venue")
    listing = json.loads(listing_path(tmp_path / "venue").read_text(encoding="utf-8"))
    assert [(s["id"], s["file"]) for s in listing["submissions"]][:2] == [
        ("aaaPublic01", "aaaPublic01.pdf"),
        ("bbbPrivate2", None),
    ]
    assert not any("authorization" in r.headers for r in server.requests)


def test_the_chairs_token_reads_what_is_not_public_and_a_second_run_fetches_nothing(tmp_path: Path) -> None:
    with OpenReviewServer(_notes(), private=frozenset({"bbbPrivate2"}), token=TOKEN) as server:
        first = _download(server, tmp_path / "venue", token=TOKEN)
        assert sorted(p.name for p in first.papers) == [
            "aaaPublic01.pdf",
            "bbbPrivate2.pdf",
            "dddPublic04.pdf",
        ]
        assert all(r.headers.get("authorization") == f"Bearer {TOKEN}" for r in server.requests)
        attachments = sum(r.path == "/attachment" for r in server.requests)
        again = _download(server, tmp_path / "venue", token=TOKEN)
        assert (again.fetched, again.reused) == (0, 3)
        assert sum(r.path == "/attachment" for r in server.requests) == attachments  # resumed: none again
    assert not list((tmp_path / "venue").glob("*.part"))


def test_429_and_5xx_are_retried_after_the_wait_asked_for(tmp_path: Path) -> None:
    with OpenReviewServer(_notes()) as server:
        server.fail(
            Reply(
                429,
                b'{"name":"RateLimitError","message":"Too many requests"}',
                "application/json",
                {"Retry-After": "0"},
            ),
            Reply(503, b"busy"),
        )
        got = _download(server, tmp_path / "venue")
    assert len(got.submissions) == 4 and not [s for s in got.skipped.values() if "429" in s]


def test_a_refused_listing_is_one_clear_error(tmp_path: Path) -> None:
    with OpenReviewServer(_notes()) as server:
        server.fail_always(Reply(403, b'{"name":"ForbiddenError","message":"Forbidden"}', "application/json"))
        with pytest.raises(SourceError, match="403: Forbidden"):
            _download(server, tmp_path / "venue")


def test_every_request_goes_through_the_address_guard(tmp_path: Path) -> None:
    """The client is the SSRF-guarded one: with a guard built from settings that do not configure this
    loopback API, the listing is refused before any connection (the server sees no request)."""
    with OpenReviewServer(_notes()) as server:
        problem = asyncio.run(_refused_listing(_settings(server.url, retries=0), tmp_path))
        assert server.count == 0
    assert "refused" in problem and "loopback" in problem


async def _refused_listing(settings: Settings, tmp_path: Path) -> str:
    policy = AddressPolicy.of(Settings())  # the default endpoints: this loopback server is not one of them
    transport = GuardedTransport(policy, httpx.Limits(max_connections=2))
    with pytest.raises(SourceError) as refused:
        await download_venue(VENUE, tmp_path / "never", settings, transport=transport)
    return refused.value.problem


def test_triage_openreview_end_to_end(
    tmp_path: Path, small_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with OpenReviewServer(_notes(), private=frozenset({"bbbPrivate2"}), token=TOKEN) as server:
        monkeypatch.setenv("REFHOUND_OPENREVIEW__BASE_URL", server.url)
        monkeypatch.setenv("REFHOUND_OPENREVIEW__RATE_PER_S", "1000")
        monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")
        for source in ("crossref", "openalex", "dblp", "arxiv", "semantic_scholar", "doi"):
            monkeypatch.setenv(f"REFHOUND_SOURCES__{source.upper()}__ENABLED", "false")
        monkeypatch.setenv("OPENREVIEW_TOKEN", TOKEN)
        out = tmp_path / "out"
        args = [
            "triage",
            "--openreview",
            VENUE,
            "--out",
            str(out),
            "--index",
            str(small_index),
            "--workers",
            "1",
        ]
        result = CliRunner().invoke(app, args)
        assert result.exit_code in (0, 1), result.stderr
        triage = json.loads((out / "triage.json").read_text(encoding="utf-8"))
        papers = {row["paper"]: row for row in triage["papers"]}
        assert set(papers) == {"aaaPublic01.pdf", "bbbPrivate2.pdf", "dddPublic04.pdf"}
        assert all(row["status"] == "checked" and row["references"] == 2 for row in papers.values())
        assert "3 PDFs downloaded now" in " ".join(result.stderr.split())
        again = CliRunner().invoke(app, args)
        assert "0 PDFs downloaded now, 3 kept from an earlier run" in " ".join(again.stderr.split())


def test_offline_refuses_openreview(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["triage", "--openreview", VENUE, "--out", str(tmp_path / "o"), "--offline"]
    )
    assert result.exit_code == 2 and "cannot run offline" in " ".join(result.stderr.split())


def test_the_field_mapping_on_28_real_notes() -> None:
    """refchecker's reshaped copies of 28 real notes (../shared), in v2's shape: every title, author list,
    venue id and PDF link is read; the 15 venue submissions' `/pdf/<sha1>.pdf` are the venue's PDFs, the 13
    dblp-imported notes' links (arXiv, PMLR or none) are not."""
    folder = shared_path("services", "openreview", "refchecker-api-cache")
    reshaped = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]
    assert len(reshaped) == 28
    for note in reshaped:
        submission = submission_of(v2_note(note))
        assert submission is not None
        assert (submission.id, submission.title, list(submission.authors)) == (
            note["id"],
            " ".join(note["title"].split()),
            note["authors"],
        )
        assert (submission.venue, submission.venueid, submission.pdf) == (
            note.get("venue"),
            note.get("venueid"),
            note.get("pdf_url") or None,
        )
    held = [n for n in reshaped if submission_of(v2_note(n)).held_pdf]  # type: ignore[union-attr]
    assert len(held) == 15
    assert all(not (n.get("venueid") or "").startswith("dblp.org") for n in held)


def test_real_notes_served_by_venue(tmp_path: Path) -> None:
    """The real ICLR 2026 notes served in v2's envelope: listed by their venue id, each PDF fetched."""
    folder = shared_path("services", "openreview", "refchecker-api-cache")
    notes = [v2_note(json.loads(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.json"))]
    iclr = "ICLR.cc/2026/Conference"
    expected = sorted(n["id"] for n in notes if n["content"].get("venueid", {}).get("value") == iclr)
    with OpenReviewServer(notes) as server:
        got = asyncio.run(download_venue(iclr, tmp_path / "iclr", _settings(server.url)))
    assert [s.id for s in got.submissions] == expected and len(expected) >= 5
    assert sorted(p.stem for p in got.papers) == expected
