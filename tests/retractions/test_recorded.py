"""Real answers: no work of the 106 recorded responses of Crossref, Semantic Scholar and OpenAlex
(`../shared/data/services/recorded-responses.jsonl`) is marked by its own body (one carries a real
`updated-by` of type "correction", nine OpenAlex works `is_retracted: false`); with 20 real Retraction Watch
rows in the index, only the one recorded work those rows retract is. And the recorded real Crossref search
that resolves to a retracted paper (`crossref-retractions/test_crossref_retraction_status.yaml`, paper-qa's
cassette) is marked once those rows are in the index. Replayed over loopback by the sources' own clients."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from refhound.agents.context import Candidate
from refhound.agents.retraction import retraction_of
from refhound.index.ingest.retraction_watch import read_retraction_watch
from refhound.index.store import IndexStore
from refhound.models import Evidence, Verdict
from refhound.settings import Settings
from refhound.sources.crossref import Crossref
from tests.conftest import shared_path
from tests.sources.fake_service import call, settings_for
from tests.sources.recorded import Recording, ReplayServer, _parse, load
from tests.sources.test_recorded import _ask, _holds_no_title


def _rw_index(tmp_path: Path) -> IndexStore:
    store = IndexStore.create(tmp_path / "rw.db")
    store.ingest(
        read_retraction_watch(shared_path("services", "crossref-retractions", "stub_retractions.csv"))
    )
    return store


def test_no_recorded_work_is_marked(tmp_path: Path) -> None:
    recordings = load(shared_path("services", "recorded-responses.jsonl"))
    assert len(recordings) == 106
    with _rw_index(tmp_path) as store:
        # As the clients read them (bodies recorded with a `select=` that drops the title hold no work).
        answered = [
            r for r in recordings if r.kind != "transform" and r.status == 200 and not _holds_no_title(r)
        ]
        records = [record for rec in answered for record in _ask(rec)]
        assert len(records) > 50
        assert [r.source_id for r in records if r.retraction is not None] == []
        corrected = next(r for r in records if r.doi == "10.1073/pnas.1414271111")
        assert corrected.retraction is None  # its real `updated-by` is a correction: the work stands
        # The recordings hold paper-qa's retraction test search too: the one work the rows retract.
        by_rows = {r.doi for r in records if store.retraction_notices(r.doi, r.arxiv_id)}
        assert by_rows == {"10.1155/2022/8341966"}


def _cassette() -> Recording:
    path = shared_path("services", "crossref-retractions", "test_crossref_retraction_status.yaml")
    (interaction,) = yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"]
    response = interaction["response"]
    line = {
        "uri": interaction["request"]["uri"],
        "method": "GET",
        "status": response["status"]["code"],
        "content_type": response["headers"]["Content-Type"][0],
        "body": response["body"]["string"],
    }
    return _parse(json.dumps(line))


def test_the_recorded_search_resolving_to_a_retracted_paper_is_marked(tmp_path: Path) -> None:
    rec = _cassette()
    with ReplayServer([rec]) as server:
        settings: Settings = settings_for("crossref", server.url, retries=0)

        async def search(client: Crossref):  # type: ignore[no-untyped-def]
            return await client.search(rec.query or "")

        (record,) = call(settings, Crossref.from_settings, search)
    assert record.doi == "10.1155/2022/8341966" and record.retraction is None  # `select=` drops updated-by
    candidate = Candidate(record, 1.0, "title", stage="scholar")
    evidence = [Evidence(source=record.source, record_id=record.source_id)]
    with _rw_index(tmp_path) as store:
        mark = retraction_of(Verdict.VERIFIED, evidence, [candidate], store)
        assert mark is not None
        assert (mark.kind, mark.notice_doi, mark.date, mark.source) == (
            "retracted",
            "10.1155/2023/9753475",
            "2023-09-27",
            "retraction-watch",
        )
        # The mark is about the work the verdict names: a fabricated or unverified verdict carries none.
        assert retraction_of(Verdict.FABRICATED, evidence, [candidate], store) is None
        assert retraction_of(Verdict.UNVERIFIED, evidence, [candidate], store) is None
