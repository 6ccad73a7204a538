"""`refhound check` with the identifiers stage against loopback doi.org, arXiv and Crossref servers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.models import Record
from tests.sources.arxiv_server import ArxivServer, Preprint
from tests.sources.crossref_server import CrossrefServer
from tests.sources.doi_server import DoiServer
from tests.sources.fake_service import Scenario, fault_scenarios, unavailable
from tests.sources.works import LECUN, TRANSFORMER

BERT = Record(
    source="test",
    source_id="bert",
    source_version="test",
    title="BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
    authors=["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
    year=2018,
    arxiv_id="1810.04805",
    entry_type="preprint",
)

BIB = r"""
@article{lecun, title={Deep learning}, author={LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  journal={Nature}, year={2015}, doi={10.1038/nature14539}}
@inproceedings{borrowed, title={Attention is all you need},
  author={Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob},
  booktitle={Advances in Neural Information Processing Systems}, year={2017}, doi={10.1038/nature14539}}
@article{invented, title={Recursive gradient lattices for unsupervised protein folding},
  author={Smith, Jane and Doe, John}, journal={Nature}, year={2021}, doi={10.1038/s41586-021-99999-x}}
@misc{bert, title={{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding},
  author={Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina}, year={2018},
  eprint={1810.04805}, archivePrefix={arXiv}}
@misc{ghost, title={Sparse mixture of quantum attention experts}, author={Roe, Richard}, year={2023},
  eprint={2301.99999}, archivePrefix={arXiv}}
"""


@pytest.fixture()
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[DoiServer, ArxivServer, CrossrefServer]]:
    """doi.org, arXiv and Crossref on loopback, and an online run pointed at them (Crossref its one tier)."""
    with (
        DoiServer([LECUN]) as doi,
        ArxivServer([Preprint(BERT)]) as arxiv,
        # Without a DOI: the citation's borrowed one is the only DOI the work is cited with.
        CrossrefServer([TRANSFORMER.model_copy(update={"doi": None})]) as cr,
    ):
        online(monkeypatch, doi.url, arxiv.url, cr.url)
        yield doi, arxiv, cr


TIMEOUT_S = 0.3


def online(monkeypatch: pytest.MonkeyPatch, doi: str, arxiv: str, crossref: str) -> None:
    monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")
    monkeypatch.setenv("REFHOUND_MEMORY__ENABLED", "false")
    monkeypatch.setenv("REFHOUND_SOURCES__TIERS", '[["crossref"]]')
    for name in ("OPENALEX", "DBLP", "SEMANTIC_SCHOLAR"):
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__ENABLED", "false")
    for name, url in (("DOI", doi), ("ARXIV", arxiv), ("CROSSREF", crossref)):
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__BASE_URL", url)
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__RATE_PER_S", "1000")
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__RETRIES", "0")


def check(tmp_path: Path, small_index: Path) -> dict[str, dict[str, object]]:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    result = CliRunner().invoke(app, ["check", str(bib), "--index", str(small_index), "--format", "json"])
    assert result.exit_code in (0, 1, 4), result.output  # 4: unverified because a resolver was silent
    report = json.loads(result.stdout)
    return {r["id"]: r for r in report["references"]}


def test_identifiers_decide_first_and_a_dead_identifier_is_fabrication(
    servers: tuple[DoiServer, ArxivServer, CrossrefServer],
    small_index: Path,
    tmp_path: Path,
) -> None:
    results = check(tmp_path, small_index)

    assert (results["lecun"]["verdict"], results["lecun"]["stage"]) == ("verified", "identifiers")
    assert (results["bert"]["verdict"], results["bert"]["stage"]) == ("verified", "identifiers")

    borrowed = results["borrowed"]  # the title is real (Crossref), its DOI is another work's
    assert borrowed["verdict"] == "metadata_error"
    doi_field = next(f for f in borrowed["fields"] if f["field"] == "doi")  # type: ignore[attr-defined]
    assert doi_field["status"] == "mismatch"

    for invented in ("invented", "ghost"):
        assert results[invented]["verdict"] == "fabricated", results[invented]["reason"]
        assert "does not exist" in str(results[invented]["reason"])


def test_an_unreachable_resolver_never_makes_a_fabrication(
    servers: tuple[DoiServer, ArxivServer, CrossrefServer],
    small_index: Path,
    tmp_path: Path,
) -> None:
    doi, arxiv, _ = servers
    doi.fail_always(unavailable())
    arxiv.fail_always(unavailable())
    results = check(tmp_path, small_index)
    for invented in ("invented", "ghost"):
        assert results[invented]["verdict"] == "unverified", results[invented]["reason"]
        assert "no answer from" in str(results[invented]["reason"])


def test_a_dead_identifier_is_no_fabrication_when_a_scholarly_source_was_silent(
    servers: tuple[DoiServer, ArxivServer, CrossrefServer],
    small_index: Path,
    tmp_path: Path,
) -> None:
    crossref = servers[2]
    crossref.fail_always(unavailable())  # the work might be there: only the identifier is known wrong
    results = check(tmp_path, small_index)
    for invented in ("invented", "ghost"):
        assert results[invented]["verdict"] == "unverified", results[invented]["reason"]
        assert "does not exist" in str(results[invented]["reason"])
        assert "no answer from crossref" in str(results[invented]["reason"])


@pytest.mark.parametrize("scenario", fault_scenarios(TIMEOUT_S, retries=1), ids=lambda s: s.name)
def test_no_fault_of_the_resolvers_makes_a_fabrication(
    scenario: Scenario,
    servers: tuple[DoiServer, ArxivServer, CrossrefServer],
    small_index: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fault matrix at doi.org and arXiv, the only authorities whose "no such identifier" can make a
    reference fabricated: a fault the retry gets past changes nothing, any other leaves it unverified."""
    doi, arxiv, _ = servers
    for name in ("DOI", "ARXIV"):
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__RETRIES", "1")
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__TIMEOUT_S", str(TIMEOUT_S))
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__BACKOFF_S", "0.01")
        monkeypatch.setenv(f"REFHOUND_SOURCES__{name}__MAX_WAIT_S", "0.05")
    scenario.apply(doi)
    scenario.apply(arxiv)
    results = check(tmp_path, small_index)
    fabricated = sorted(key for key, result in results.items() if result["verdict"] == "fabricated")
    if scenario.recovers:
        assert fabricated == ["ghost", "invented"], {k: r["reason"] for k, r in results.items()}
        return
    assert fabricated == [], {k: r["reason"] for k, r in results.items()}
    for invented in ("invented", "ghost"):
        assert results[invented]["verdict"] == "unverified", results[invented]["reason"]
        assert "no answer from" in str(results[invented]["reason"])
