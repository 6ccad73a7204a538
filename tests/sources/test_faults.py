"""A failing service never makes a real reference `fabricated`: the fault matrix through `refhound check`.

Real works, cited correctly, are checked through the whole SOP (`check_references`) against an index that
holds none of them, with the scholar stage asking a loopback Crossref that misbehaves in one way per run
(timeouts, 429 with Retry-After, 503 storms, truncated bodies, HTML where JSON is expected). Faults the
retries get past must leave the verdicts of a healthy service; the others must end `unverified`, naming
the service that gave no answer. `scripts/bench_sources.py` times the same matrix on more references.
Redirects, too, are faults a service can make: a loop is no answer, and a hop is rate-limited.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from refhound.errors import Unreachable
from refhound.index.store import IndexStore
from refhound.models import ParsedFields, Record, Reference, ReferenceResult, Verdict
from refhound.net.http import HttpPool, Policy, make_client
from refhound.net.json_api import fetch_json
from refhound.settings import Settings
from refhound.sop.runner import check_references
from tests.conftest import build_index
from tests.sources.crossref_server import CrossrefServer
from tests.sources.fake_service import Scenario, fault_scenarios

TIMEOUT_S = 0.3
RETRIES = 2
OTHER_SERVICES = ("openalex", "dblp", "arxiv", "semantic_scholar", "doi")


def _work(doi: str, title: str, authors: list[str], venue: str, year: int, kind: str) -> Record:
    return Record(
        source="test",
        source_id=doi,
        source_version="test",
        title=title,
        authors=authors,
        venue=venue,
        year=year,
        doi=doi,
        entry_type=kind,
    )


WORKS = [
    _work(
        "10.1109/CVPR.2016.90",
        "Deep Residual Learning for Image Recognition",
        ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],
        "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
        2016,
        "inproceedings",
    ),
    _work(
        "10.1038/nature14539",
        "Deep Learning",
        ["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"],
        "Nature",
        2015,
        "article",
    ),
    _work(
        "10.18653/v1/N19-1423",
        "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
        ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
        "Proceedings of the 2019 Conference of the North American Chapter of the Association for "
        "Computational Linguistics",
        2019,
        "inproceedings",
    ),
    _work(
        "10.1162/neco.1997.9.8.1735",
        "Long Short-Term Memory",
        ["Sepp Hochreiter", "Jürgen Schmidhuber"],
        "Neural Computation",
        1997,
        "article",
    ),
]
REFERENCES = [
    Reference(
        id="1",
        raw="He et al. 2016. Deep residual learning for image recognition. In CVPR.",
        parsed=ParsedFields(
            title="Deep residual learning for image recognition",
            authors=["K. He", "X. Zhang", "S. Ren", "J. Sun"],
            venue="CVPR",
            year=2016,
        ),
    ),
    Reference(
        id="2",
        raw="LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature. doi:10.1038/nature14539",
        parsed=ParsedFields(
            title="Deep learning",
            authors=["Y. LeCun", "Y. Bengio", "G. Hinton"],
            venue="Nature",
            year=2015,
            doi="10.1038/nature14539",
        ),
    ),
    Reference(
        id="3",
        raw="Devlin et al. 2019. BERT: Pre-training of deep bidirectional transformers for language "
        "understanding. In NAACL.",
        parsed=ParsedFields(
            title="BERT: Pre-training of deep bidirectional transformers for language understanding",
            authors=["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
            venue="NAACL",
            year=2019,
            doi="10.18653/v1/N19-1423",
        ),
    ),
    Reference(
        id="4",
        raw="Hochreiter, S., & Schmidhuber, J. (1997). Long short-term memory. Neural Computation.",
        parsed=ParsedFields(
            title="Long short-term memory",
            authors=["S. Hochreiter", "J. Schmidhuber"],
            venue="Neural Computation",
            year=1997,
        ),
    ),
]


@pytest.fixture(scope="module")
def empty_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index without any of the works (and covering no venue): only the online source can tell."""
    return build_index(tmp_path_factory.mktemp("faults") / "empty.sqlite", [])


@pytest.fixture()
def server() -> Iterator[CrossrefServer]:
    with CrossrefServer(list(WORKS)) as running:
        yield running


def settings_for(url: str, tmp_path: Path) -> Settings:
    settings = Settings(
        sources={
            "crossref": {
                "base_url": url,
                "rate_per_s": 1000.0,
                "concurrency": 4,
                "timeout_s": TIMEOUT_S,
                "retries": RETRIES,
                "backoff_s": 0.01,
                "max_wait_s": 0.05,  # Retry-After is honoured up to this (tests/sources/test_crossref.py)
            },
            "tiers": [["crossref"]],
            "cache": {"enabled": False},  # every run asks the (faulty) service
            **{name: {"enabled": False} for name in OTHER_SERVICES},
        },
        check={"offline": False},
    )
    settings.memory.enabled = False  # nothing learnt in one run may answer the next
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    settings.sop.concurrency = 4
    return settings


def check_under(
    scenario: Scenario, server: CrossrefServer, index: Path, tmp_path: Path
) -> list[ReferenceResult]:
    scenario.apply(server)
    with IndexStore.open(index) as store:
        return check_references(REFERENCES, store, settings_for(server.url, tmp_path))


@pytest.mark.parametrize("scenario", fault_scenarios(TIMEOUT_S, RETRIES), ids=lambda scenario: scenario.name)
def test_no_reference_is_fabricated_because_the_service_failed(
    scenario: Scenario, server: CrossrefServer, empty_index: Path, tmp_path: Path
) -> None:
    results = check_under(scenario, server, empty_index, tmp_path)
    verdicts = Counter(r.verdict for r in results)
    assert verdicts[Verdict.FABRICATED] == 0, [r.reason for r in results]
    if scenario.recovers:
        assert verdicts == {Verdict.VERIFIED: len(REFERENCES)}, [r.reason for r in results]
        assert all(r.stage == "scholar" and r.evidence[0].source == "crossref" for r in results)
    else:
        assert verdicts == {Verdict.UNVERIFIED: len(REFERENCES)}, [r.reason for r in results]
        for result in results:
            assert "(no answer from crossref)" in result.reason
            scholar = next(s for s in result.stages if s.stage == "scholar")
            assert scholar.note is not None and scholar.note.startswith("crossref unreachable (")
    assert server.count >= 1


# --- redirects: each hop is rate-limited, a loop is no answer -----------------------------------------


def _redirecting(log: list[tuple[str, float]]) -> httpx.MockTransport:
    """/loop redirects to itself; /doi/… redirects to /agency/… on the same host (as doi.org does)."""

    def handler(request: httpx.Request) -> httpx.Response:
        log.append((request.url.path, time.monotonic()))
        if request.url.path == "/loop":
            return httpx.Response(302, headers={"Location": "/loop"})
        if request.url.path.startswith("/doi/"):
            return httpx.Response(302, headers={"Location": request.url.path.replace("/doi/", "/agency/")})
        return httpx.Response(200, json={"ok": True})

    return httpx.MockTransport(handler)


def _get(url: str, log: list[tuple[str, float]], rate: float) -> dict[str, object] | None:
    settings = settings_for("http://service.test", Path("."))
    policy = Policy.of(settings.sources.crossref.model_copy(update={"rate_per_s": rate, "retries": 0}))

    async def main() -> dict[str, object] | None:
        async with make_client(settings, _redirecting(log)) as client:
            return await fetch_json(HttpPool(client).service("redirecting", policy), url, None, dict)

    return asyncio.run(main())


def test_a_redirect_loop_is_unreachable() -> None:
    log: list[tuple[str, float]] = []
    with pytest.raises(Unreachable, match=r"redirecting: more than 10 redirects"):
        _get("http://service.test/loop", log, rate=1000.0)
    assert len(log) == 11


def test_a_redirect_to_the_same_host_waits_for_its_rate_limit() -> None:
    log: list[tuple[str, float]] = []
    assert _get("http://service.test/doi/10.1000/x", log, rate=5.0) == {"ok": True}
    (first, asked), (second, followed) = log
    assert (first, second) == ("/doi/10.1000/x", "/agency/10.1000/x")
    assert followed - asked >= 0.19  # 5 requests a second, the redirect's included
