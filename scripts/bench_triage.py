"""Figures of `refhound triage` (docs/benchmarks.md): a folder of N text PDFs offline with 1 and 2 workers,
the second run over the same DIR, the share of look-ups reused across papers, polite rates under two
workers against a loopback Crossref, and Ray on a two-node local cluster against two worker processes.

The folder is built in a scratch directory from the real PDFs of ../shared (copies under new names), never
in the repository. Everything runs with scratch XDG folders, so no user memory or HTTP cache is touched.

    .venv/bin/python scripts/bench_triage.py --papers 500 --index INDEX.sqlite [--one-worker-papers 100]
        [--skip-ray] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED_PDFS = ROOT.parent / "shared" / "data" / "pdfs"


def build_folder(target: Path, papers: int) -> list[Path]:
    """`papers` PDFs: the real ones of ../shared, then copies of them under new names, in turn."""
    real = sorted(SHARED_PDFS.rglob("*.pdf"))
    if not real:
        raise SystemExit(f"no PDFs under {SHARED_PDFS}")
    target.mkdir(parents=True, exist_ok=True)
    made = []
    for number in range(papers):
        source = real[number % len(real)]
        copy = target / f"submission-{number:04d}.pdf"
        shutil.copyfile(source, copy)
        made.append(copy)
    return made


def _options(out: Path, index: Path, workers: int, offline: bool = True, settings: Any = None) -> Any:
    from refhound.index.store import IndexStore
    from refhound.settings import Settings
    from refhound.triage.run import TriageOptions

    settings = settings or Settings()
    settings.check.offline = offline
    with IndexStore.open(index) as store:
        stats = store.stats()
    return TriageOptions(out_dir=out, settings=settings, index_stats=stats, workers=workers)


def run_pool(folder: Path, out: Path, index: Path, workers: int) -> dict[str, Any]:
    from refhound.triage.pool import ProcessBackend
    from refhound.triage.run import run_triage

    started = time.perf_counter()
    result = run_triage([folder], _options(out, index, workers), ProcessBackend(out, workers))
    seconds = time.perf_counter() - started
    summary = result.summary
    return {
        "workers": workers,
        "papers": summary["papers"],
        "checked": summary["checked"],
        "errors": summary["errors"],
        "references": summary["references"],
        "seconds": round(seconds, 2),
        "papers_per_s": round(summary["run"]["checked_now"] / seconds, 3)
        if summary["run"]["checked_now"]
        else None,
        "checked_now": summary["run"]["checked_now"],
        "resumed": summary["run"]["resumed"],
        "peak_rss_mb_per_worker": summary["run"]["peak_rss_mb_per_worker"],
        "reuse": summary["reuse"],
    }


def verdicts(out: Path) -> dict[str, list[str]]:
    document = json.loads((out / "triage.json").read_text())
    found = {}
    for paper in document["papers"]:
        if paper["report"]:
            report = json.loads((out / paper["report"]).read_text())
            found[paper["paper"]] = [r["verdict"] for r in report["references"]]
    return found


def run_ray(folder: Path, out: Path, index: Path) -> dict[str, Any]:
    import ray
    from ray.cluster_utils import Cluster

    from refhound.triage.ray_backend import RayBackend
    from refhound.triage.run import run_triage

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    try:
        started = time.perf_counter()
        result = run_triage([folder], _options(out, index, 2), RayBackend(cluster.address, out))
        seconds = time.perf_counter() - started
    finally:
        ray.shutdown()
        cluster.shutdown()
    return {
        "nodes": 2,
        "seconds": round(seconds, 2),
        "checked": result.summary["checked"],
        "peak_rss_mb_per_worker": result.summary["run"]["peak_rss_mb_per_worker"],
        "reuse": result.summary["reuse"],
    }


def polite_rates(index: Path, scratch: Path, rate: float, papers: int, per_paper: int) -> dict[str, Any]:
    """Two workers against a loopback Crossref at `rate` requests/s: the rate the server observed."""
    from refhound.triage.pool import ProcessBackend
    from refhound.triage.run import run_triage
    from tests.sources.crossref_server import CrossrefServer
    from tests.triage.test_shared_work import online_through

    folder = scratch / "rates-in"
    folder.mkdir()
    for number in range(papers):
        (folder / f"p{number}.bib").write_text(
            "\n".join(
                f"@article{{p{number}r{i}, title={{Invented Study {number}-{i} on Unindexed Matters}}, "
                f"author={{Nobody, Anne}}, journal={{Journal of Tests}}, year={{2020}}}}"
                for i in range(per_paper)
            )
        )
    with CrossrefServer() as server:
        settings = online_through(server.url, rate)
        out = scratch / "rates-out"
        options = _options(out, index, 2, offline=False, settings=settings)
        run_triage([folder], options, ProcessBackend(out, 2))
        arrivals = sorted(r.at for r in server.requests if r.path == "/works")
    observed = (len(arrivals) - 1) / (arrivals[-1] - arrivals[0])
    return {
        "service": "crossref",
        "configured_per_s": rate,
        "requests": len(arrivals),
        "observed_per_s": round(observed, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--papers", type=int, default=500)
    parser.add_argument("--one-worker-papers", type=int, default=None, help="papers for the 1-worker run")
    parser.add_argument("--index", type=Path, required=True, help="index database (e.g. the embedded one)")
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="refhound-bench-triage-"))
    os.environ["XDG_DATA_HOME"] = str(scratch / "data")
    os.environ["XDG_CACHE_HOME"] = str(scratch / "cache")
    os.environ["REFHOUND_MEMORY__PATH"] = str(scratch / "memory")
    figures: dict[str, Any] = {"load_before": os.getloadavg()}
    try:
        folder = scratch / "in"
        build_folder(folder, args.papers)
        two = run_pool(folder, scratch / "out-2", args.index, 2)
        figures["two_workers"] = two
        print(json.dumps({"two_workers": two}), flush=True)
        again = run_pool(folder, scratch / "out-2", args.index, 2)
        figures["second_run"] = again
        print(json.dumps({"second_run": again}), flush=True)
        small = args.one_worker_papers or args.papers
        one_folder = folder if small == args.papers else scratch / "in-1"
        if small != args.papers:
            build_folder(one_folder, small)
        one = run_pool(one_folder, scratch / "out-1", args.index, 1)
        figures["one_worker"] = one
        print(json.dumps({"one_worker": one}), flush=True)
        figures["polite_rates"] = polite_rates(args.index, scratch, rate=4.0, papers=4, per_paper=8)
        print(json.dumps({"polite_rates": figures["polite_rates"]}), flush=True)
        if not args.skip_ray:
            ray_folder = one_folder
            local = run_pool(ray_folder, scratch / "out-local-2", args.index, 2)
            on_ray = run_ray(ray_folder, scratch / "out-ray", args.index)
            on_ray["same_verdicts_as_workers_2"] = verdicts(scratch / "out-ray") == verdicts(
                scratch / "out-local-2"
            )
            figures["ray"] = {"ray": on_ray, "workers_2": local}
            print(json.dumps({"ray": figures["ray"]}), flush=True)
        figures["load_after"] = os.getloadavg()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    text = json.dumps(figures, indent=2)
    if args.json:
        args.json.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
