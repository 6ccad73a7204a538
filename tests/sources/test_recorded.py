"""Every client against real answers of its service (`../shared/data/services/recorded-responses.jsonl`),
replayed over loopback: each recorded work maps to a record without loss, and each real "no such work" is
read as a definite none (or an empty result), never as an unreachable service."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from refhound.models import Record
from refhound.net.http import Fetched, HttpPool
from refhound.settings import Settings
from refhound.sources.crossref import Crossref, _no_such_work
from refhound.sources.openalex import OpenAlex
from refhound.sources.semantic_scholar import SemanticScholar
from tests.sources.fake_service import call, settings_for
from tests.sources.recorded import RECORDINGS, Recording, ReplayServer, load, losses, works_in

_CLIENTS: dict[str, tuple[Callable[[Settings, HttpPool], Any], str]] = {
    "crossref": (Crossref.from_settings, ""),
    "semantic_scholar": (SemanticScholar.from_settings, "/graph/v1"),
    "openalex": (OpenAlex.from_settings, ""),
}


def _recordings() -> list[Recording]:
    return load() if RECORDINGS.exists() else []


def _ask(rec: Recording) -> list[Record]:
    """What the client of `rec.service` reads from the recording, asked as refhound asks."""
    build, prefix = _CLIENTS[rec.service]
    with ReplayServer([rec]) as server:
        settings = settings_for(rec.service, server.url + prefix, retries=0)

        async def action(client: Any) -> list[Record]:
            if rec.kind == "doi":
                found = await client.by_doi(rec.doi)
                return [found] if found is not None else []
            if rec.kind == "match":
                matched = await client.match(rec.query)
                return [matched] if matched is not None else []
            result: list[Record] = await client.search(rec.query)
            return result

        return call(settings, build, action)


def _holds_no_title(rec: Recording) -> bool:
    return rec.status == 200 and all(not held.title for held in works_in(rec)) and bool(works_in(rec))


def outcome(rec: Recording) -> str:
    """How the client reads this recording, in words (the figure's rows)."""
    if rec.kind == "transform":
        return "BibTeX transform (an endpoint refhound does not use)"
    if _holds_no_title(rec):
        return f"body holds no title (recorded with select={rec.params.get('select')}): no record"
    records = _ask(rec)
    if rec.status == 404:
        return "real 404 read as no such work" if not records else "real 404 misread as a work"
    held = works_in(rec)
    if not held:
        return "empty result read as none" if not records else "empty result misread"
    if len(records) != len([h for h in held if h.title]):
        return f"{len(records)} records of {len(held)} works"
    lost = [loss for h, r in zip(held, records, strict=False) for loss in losses(h, r)]
    return "mapped without loss" if not lost else "mapped with loss: " + "; ".join(lost)


RECS = _recordings()
needs_recordings = pytest.mark.skipif(not RECS, reason=f"{RECORDINGS} not present (../shared)")


@needs_recordings
@pytest.mark.parametrize("rec", [r for r in RECS if r.kind != "transform"], ids=lambda r: r.label)
def test_every_recorded_answer_is_read_without_loss(rec: Recording) -> None:
    result = outcome(rec)
    assert result in (
        "mapped without loss",
        "real 404 read as no such work",
        "empty result read as none",
    ) or result.startswith("body holds no title"), result


@needs_recordings
def test_every_service_and_kind_is_covered() -> None:
    kinds = {(r.service, r.kind, r.status) for r in RECS}
    assert ("crossref", "doi", 404) in kinds
    assert ("semantic_scholar", "match", 404) in kinds
    assert ("semantic_scholar", "doi", 404) in kinds
    assert ("openalex", "doi", 404) in kinds
    assert {
        ("crossref", "search", 200),
        ("openalex", "search", 200),
        ("semantic_scholar", "match", 200),
    } <= kinds


@needs_recordings
def test_crossref_transform_404s_are_its_own_no_such_work() -> None:
    # The same "Resource not found." body, whatever the endpoint: the recogniser reads the body only.
    for rec in RECS:
        if rec.service == "crossref" and rec.status == 404:
            assert _no_such_work(Fetched(404, rec.content_type, rec.body.encode()))


@needs_recordings
def test_openalex_real_404_for_an_unknown_doi_is_a_definite_none() -> None:
    (rec,) = [r for r in RECS if r.service == "openalex" and r.status == 404]
    assert rec.content_type.startswith("text/html")  # not the JSON error object the docs describe
    assert _ask(rec) == []


@needs_recordings
def test_semantic_scholar_title_match_maps_the_real_paper() -> None:
    rec = next(r for r in RECS if r.kind == "match" and r.query == "Attention is All you Need")
    (record,) = _ask(rec)
    assert record.source_id == "204e3073870fae3d05bcbc2f6a8e263d9b72e776"
    assert record.arxiv_id == "1706.03762"
    assert record.year == 2017
    assert len(record.authors) == 8


@needs_recordings
def test_semantic_scholar_lookup_uses_the_title_match_alone_when_it_is_close() -> None:
    from refhound.models import ParsedFields

    rec = next(r for r in RECS if r.kind == "match" and r.query == "Attention is All you Need")
    with ReplayServer([rec]) as server:
        settings = settings_for("semantic_scholar", server.url + "/graph/v1", retries=0)
        records = call(
            settings,
            SemanticScholar.from_settings,
            lambda c: c.lookup(ParsedFields(title="Attention is All you Need")),
        )
        assert [r.title for r in records] == ["Attention is All you Need"]
        assert server.paths == ["/graph/v1/paper/search/match"]  # no second request


@needs_recordings
def test_an_unrecorded_request_fails_loudly_not_silently() -> None:
    from refhound.errors import Unreachable

    rec = next(r for r in RECS if r.service == "crossref" and r.kind == "doi" and r.status == 200)
    with ReplayServer([rec]) as server:
        settings = settings_for("crossref", server.url, retries=0)
        with pytest.raises(Unreachable, match="501"):
            call(settings, Crossref.from_settings, lambda c: c.by_doi("10.9999/not-recorded"))
