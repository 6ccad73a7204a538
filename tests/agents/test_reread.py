"""A printed reference the parser misread, re-read around the title of the work its DOI leads to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from refhound.sop.runner import check_references

from refhound.index.store import IndexStore
from refhound.models import Record, Reference, ReferenceResult, Verdict
from refhound.refstring import parse_reference_string
from refhound.settings import Settings
from tests.conftest import RECORDS, build_index

# A real WWW 2002 paper; "B. Uygar Oztekin" is a name form the author grammar does not know, so the
# parser takes the other two names for the title and pushes the real title into the venue.
MEARF = Record(
    source="dblp",
    source_id="conf/www/OztekinKK02",
    source_version="test",
    title="Expert agreement and content based reranking in a meta search environment using Mearf",
    authors=["B. Uygar Oztekin", "George Karypis", "Vipin Kumar"],
    venue="Proceedings of the Eleventh International World Wide Web Conference, WWW 2002",
    year=2002,
    doi="10.1145/511446.511490",
    entry_type="inproceedings",
)
PRINTED = (
    "B. Uygar Oztekin, George Karypis, and Vipin Kumar. 2002. Expert agreement and content based reranking "
    "in a meta search environment using Mearf. In Proceedings of the Eleventh International World Wide Web "
    "Conference, WWW 2002. https://doi.org/10.1145/511446.511490"
)


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[IndexStore]:
    with IndexStore.open(build_index(tmp_path / "index.sqlite", [MEARF, *RECORDS[:2]])) as opened:
        yield opened


def check(reference: Reference, store: IndexStore, tmp_path: Path) -> ReferenceResult:
    settings = Settings()
    settings.check.offline = True
    settings.memory.enabled = False
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    return check_references([reference], store, settings)[0]


def test_the_misread_string_is_what_the_re_reading_is_for() -> None:
    assert parse_reference_string(PRINTED).title != MEARF.title


def test_a_misread_reference_is_re_read_and_verified(store: IndexStore, tmp_path: Path) -> None:
    result = check(Reference(id="1", raw=PRINTED, parsed=parse_reference_string(PRINTED)), store, tmp_path)
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert result.parsed.title == MEARF.title
    assert result.parsed.authors == MEARF.authors
    assert result.evidence[0].score == 1.0  # the candidates were scored again against the re-read title
    assert "re-read around the title of the work its DOI leads to" in result.stages[0].note


def test_fields_of_a_structured_entry_are_never_re_read(store: IndexStore, tmp_path: Path) -> None:
    misread = parse_reference_string(PRINTED)
    result = check(Reference(id="k", raw=PRINTED, parsed=misread, structured=True), store, tmp_path)
    assert result.verdict is not Verdict.VERIFIED
    assert result.parsed == misread


def test_another_works_doi_is_still_another_works(store: IndexStore, tmp_path: Path) -> None:
    # The string prints BERT's title, not the title of the work the DOI leads to: nothing to re-read.
    printed = (
        "Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT: Pre-training of Deep "
        "Bidirectional Transformers for Language Understanding. In Proceedings of NAACL-HLT 2019. "
        "https://doi.org/10.1145/511446.511490"
    )
    result = check(Reference(id="1", raw=printed, parsed=parse_reference_string(printed)), store, tmp_path)
    assert result.verdict is Verdict.METADATA_ERROR
    assert next(f for f in result.fields if f.field == "doi").status == "mismatch"
    assert "re-read" not in result.stages[0].note
