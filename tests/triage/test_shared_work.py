"""Work shared across papers: look-ups reused, verdicts still each paper's own; polite rates run-wide."""

from __future__ import annotations

import itertools
import json
import statistics
from pathlib import Path

from refhound.index.store import IndexStore
from refhound.models import ParsedFields
from refhound.settings import Settings
from refhound.triage.pool import ProcessBackend
from refhound.triage.reuse import work_key
from refhound.triage.run import TriageOptions, run_triage
from tests.sources.crossref_server import CrossrefServer, only_crossref
from tests.sources.fake_service import MAILTO, fast_section

HE = "He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian"
RESNET = """@inproceedings{{he, title={{Deep Residual Learning for Image Recognition}},
  author={{{authors}}},
  booktitle={{CVPR}}, year={{2016}}}}
@inproceedings{{adam, title={{Adam: A Method for Stochastic Optimization}},
  author={{Kingma, Diederik P. and Ba, Jimmy}}, booktitle={{ICLR}}, year={{2015}}}}
"""


def test_work_key_is_the_doi_else_title_and_first_author() -> None:
    doi = ParsedFields(title="X", doi="https://doi.org/10.1109/CVPR.2016.90", authors=["K. He"])
    assert work_key(doi) == "doi:10.1109/cvpr.2016.90"
    cited = ParsedFields(title="Deep Residual Learning for Image Recognition!", authors=["He, Kaiming"])
    same = ParsedFields(title="deep residual learning for image recognition", authors=["K. He", "X. Zhang"])
    assert work_key(cited) == work_key(same) is not None
    assert work_key(ParsedFields(title="Deep Residual Learning", authors=["Someone Else"])) != work_key(cited)
    assert work_key(ParsedFields(title="No authors")) is None


def _options(out: Path, settings: Settings, index: Path, workers: int) -> TriageOptions:
    with IndexStore.open(index) as store:
        stats = store.stats()
    return TriageOptions(out_dir=out, settings=settings, index_stats=stats, workers=workers)


def test_a_work_cited_by_two_papers_is_looked_up_once_but_judged_per_paper(
    small_index: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "a.bib").write_text(RESNET.format(authors=HE))
    # The same work (title and first author), with two invented co-authors.
    (folder / "b.bib").write_text(RESNET.format(authors="He, Kaiming and Smith, John and Chen, Li"))
    settings = Settings()
    settings.check.offline = True
    settings.memory.enabled = False
    out = tmp_path / "out"
    result = run_triage([folder], _options(out, settings, small_index, 1), ProcessBackend(out, 1))
    rows = {row.paper: row for row in result.rows}
    assert rows["a.bib"].hallucinated == 0 and rows["b.bib"].hallucinated == 1
    reuse = result.summary["reuse"]
    # The index stage looked each of the two works up once; the second paper reused both look-ups.
    assert reuse == {"lookups": 4, "reused": 2, "share": 0.5}
    second = json.loads((out / rows["b.bib"].report).read_text())  # type: ignore[operator]
    he = next(r for r in second["references"] if r["id"] == "he")
    assert he["verdict"] == "metadata_error" and he["severity"] == "major"
    assert any("reused" in stage["note"] for stage in he["stages"])


def online_through(crossref_url: str, rate: float) -> Settings:
    """Settings of an online run whose only source is a loopback Crossref at `rate` requests/s (no cache,
    no memory: every look-up reaches the server)."""
    settings = Settings(
        sources={
            **only_crossref(fast_section(crossref_url, rate_per_s=rate, concurrency=4)),
            "mailto": MAILTO,
            "cache": {"enabled": False},
        },
        check={"offline": False},
    )
    settings.memory.enabled = False
    return settings


def four_papers(tmp_path: Path) -> Path:
    """A folder of four .bib papers of six invented references each (none in the index: all go online)."""
    folder = tmp_path / "subs"
    folder.mkdir()
    for index in range(4):
        (folder / f"p{index}.bib").write_text(_paper(index, 6))
    return folder


def _paper(index: int, references: int) -> str:
    return "\n".join(
        f"@article{{p{index}r{i}, title={{Invented Study {index}-{i} on Wholly Unindexed Matters}}, "
        f"author={{Nobody, Anne}}, journal={{Journal of Tests}}, year={{2020}}}}"
        for i in range(references)
    )


def observed_rate(arrivals: list[float]) -> float:
    """Requests a second as the server saw them: one over the median gap between arrivals, which a request
    the machine's load held back (arriving late, then close to the next) does not move as it moves the
    span from first to last."""
    return 1 / statistics.median(b - a for a, b in itertools.pairwise(arrivals))


def test_two_workers_together_keep_the_configured_rate(small_index: Path, tmp_path: Path) -> None:
    rate = 4.0
    folder = four_papers(tmp_path)
    with CrossrefServer() as server:
        settings = online_through(server.url, rate)
        out = tmp_path / "out"
        result = run_triage([folder], _options(out, settings, small_index, 2), ProcessBackend(out, 2))
        arrivals = sorted(request.at for request in server.requests if request.path == "/works")
    assert result.summary["checked"] == 4
    assert len(arrivals) >= 20
    observed = observed_rate(arrivals)
    # Each worker alone would send `rate` a second, so two unshared would send about twice as much.
    assert rate * 0.8 <= observed <= rate * 1.05, observed
    # No burst either: any 2 s hold at most 2 × rate requests, and up to two more that the machine's load
    # held back past their slots (a window that starts at a late request may also hold an earlier one
    # that came later still; with the slots 0.25 s apart, 9 is the common count).
    busiest = max(sum(1 for t in arrivals if start <= t < start + 2.0) for start in arrivals)
    assert busiest <= 2 * rate + 2, busiest


def test_findings_with_an_unreachable_service_are_not_kept(tmp_path: Path) -> None:
    from refhound.agents.context import Findings
    from refhound.models import Reference
    from refhound.triage.reuse import LookupStore, ReuseCounter, reusing

    calls: list[str] = []

    def flaky(reference: Reference, context: object) -> Findings:
        calls.append(reference.id)
        return Findings(note="crossref timed out", unreachable=("crossref",))

    agent = reusing("scholar", flaky, LookupStore(tmp_path / "lookups.sqlite"), ReuseCounter())
    cited = ParsedFields(title="Deep Residual Learning", authors=["Kaiming He"])
    for number in ("1", "2"):
        agent(Reference(id=number, raw="…", parsed=cited), None)  # type: ignore[arg-type]
    assert calls == ["1", "2"]  # asked again: silence proves nothing and is not reused
