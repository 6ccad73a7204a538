"""`--ray`: papers as Ray tasks on a two-node local cluster give the verdicts the process pool gives."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refhound.index.store import IndexStore
from refhound.settings import Settings
from refhound.triage.pool import ProcessBackend
from refhound.triage.run import TriageOptions, run_triage
from tests.triage.test_run import CLEAN_BIB, SUSPICIOUS_BIB

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'refhound[ray]')")
cluster_utils = pytest.importorskip("ray.cluster_utils")


@pytest.fixture(scope="module")
def two_nodes() -> Iterator[Any]:
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    try:
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


def _options(out: Path, index: Path) -> TriageOptions:
    settings = Settings()
    settings.check.offline = True
    settings.memory.enabled = False
    with IndexStore.open(index) as store:
        stats = store.stats()
    return TriageOptions(out_dir=out, settings=settings, index_stats=stats, workers=2)


def _verdicts(out: Path) -> dict[str, list[tuple[str, str]]]:
    document = json.loads((out / "triage.json").read_text())
    verdicts = {}
    for paper in document["papers"]:
        report = json.loads((out / paper["report"]).read_text())
        verdicts[paper["paper"]] = [(r["id"], r["verdict"]) for r in report["references"]]
    return verdicts


def test_ray_on_two_nodes_matches_the_process_pool(two_nodes: Any, small_index: Path, tmp_path: Path) -> None:
    from refhound.triage.ray_backend import RayBackend

    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    folder = tmp_path / "subs"
    folder.mkdir()
    for index in range(3):
        (folder / f"clean{index}.bib").write_text(CLEAN_BIB)
        (folder / f"suspicious{index}.bib").write_text(SUSPICIOUS_BIB)
    on_ray, local = tmp_path / "ray", tmp_path / "local"
    result = run_triage([folder], _options(on_ray, small_index), RayBackend(two_nodes.address, on_ray))
    run_triage([folder], _options(local, small_index), ProcessBackend(local, 2))
    assert result.summary["checked"] == 6
    assert _verdicts(on_ray) == _verdicts(local)
    # Results were written into DIR by the driver: a second run resumes them all.
    again = run_triage([folder], _options(on_ray, small_index), RayBackend(two_nodes.address, on_ray))
    assert again.summary["run"]["resumed"] == 6 and again.summary["run"]["checked_now"] == 0


def test_one_rate_actor_per_host_serves_the_whole_cluster(two_nodes: Any) -> None:
    from refhound.triage.ray_backend import RaySlots

    slots = RaySlots(["api.example.org:"])

    @ray.remote(num_cpus=1)
    def claim(slots: RaySlots) -> list[float]:
        return [slots.reserve("api.example.org:", 0.1) for _ in range(5)]

    waits = sorted(w for batch in ray.get([claim.remote(slots), claim.remote(slots)]) for w in batch)
    # Ten claims from two nodes share one schedule: the last waits about nine intervals.
    assert waits[-1] == pytest.approx(0.9, abs=0.35)


def test_the_cli_runs_on_the_cluster(two_nodes: Any, small_index: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from refhound.cli import app

    (tmp_path / "refs.bib").write_text(SUSPICIOUS_BIB)
    out = tmp_path / "out"
    args = ["triage", str(tmp_path / "refs.bib"), "--out", str(out), "--offline", "--index", str(small_index)]
    result = CliRunner().invoke(app, [*args, "--ray", two_nodes.address])
    assert result.exit_code == 1, result.output
    document = json.loads((out / "triage.json").read_text())
    assert document["summary"]["run"]["backend"] == f"ray {two_nodes.address}"
    assert document["papers"][0]["hallucinated"] == 1


def test_the_cluster_as_a_whole_keeps_the_configured_rate(
    two_nodes: Any, small_index: Path, tmp_path: Path
) -> None:
    from refhound.triage.ray_backend import RayBackend
    from tests.sources.crossref_server import CrossrefServer
    from tests.triage.test_shared_work import four_papers, observed_rate, online_through

    rate = 4.0
    folder = four_papers(tmp_path)
    with CrossrefServer() as server:
        settings = online_through(server.url, rate)
        with IndexStore.open(small_index) as store:
            stats = store.stats()
        out = tmp_path / "out"
        options = TriageOptions(out_dir=out, settings=settings, index_stats=stats, workers=2)
        result = run_triage([folder], options, RayBackend(two_nodes.address, out))
        arrivals = sorted(request.at for request in server.requests if request.path == "/works")
    assert result.summary["checked"] == 4 and len(arrivals) >= 20
    observed = observed_rate(arrivals)
    assert rate * 0.8 <= observed <= rate * 1.05, observed
