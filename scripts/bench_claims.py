#!/usr/bin/env python
"""Overhead of `quotes check --evaluate entailment,relevance,factcheck` per statement, outside the model.

    python scripts/bench_claims.py [--statements 100] [--runs 3] [--model-ms 0] [--pdf PATH] [--concurrency 4]

A triples file of N statements citing one real source (the text of a PDF of ../shared/data/pdfs, else a
generated text) is checked with every evaluator against a loopback OpenAI-compatible server in its own
process that answers by a word rule (`tests/quotes/rubric_llm.py`, ~1 ms a request) after `--model-ms` of
waiting: it stands for a model whose own time is that wait, and what is measured is refhound's — prompts,
HTTP round trips, JSON validation, the cache, the statements, the best-supporting passages with their MiniLM
embeddings, the confidence. Each run (`--runs`, in one process, after the embedding model is loaded once:
`model_load_s`) reports per statement:

- `evaluate_ms`: the whole of `evaluate_report` (3 × N requests) with a fresh verdict cache, wall-clock;
  `model_ms` the stand-in model's own time in it (ceil(3N / concurrency) × `--model-ms`: its waits, as many
  at once as refhound keeps open), and `overhead_ms` = `evaluate_ms` − `model_ms`: refhound's time outside
  the model's, MiniLM included — the figure the target is about;
- `minilm_ms`: the wall-clock time spent inside MiniLM (ONNX inference and tokenizing, `minilm_texts`
  distinct texts), in the thread that embeds while the LLM is asked: with a model slower than it, it is
  inside `model_ms`, not `overhead_ms`;
- `cpu_ms`: this process's CPU time over the same span (all its threads, MiniLM included), which the other
  jobs of a shared machine inflate far less than the wall-clock figures; `server_cpu_ms` the stand-in
  server's own (it shares the machine's cores: on 2 cores it is time refhound may wait);
- `cached_ms`, `cached_cpu_ms`: the same again in a new run, as a re-check of the same draft: every verdict
  and every MiniLM vector from the cache file (no request, no model run; `cached_minilm_texts` embedded);
- `check_ms`: the string check alone (reading the source, matching), for scale;
- `load_average`: the 1-minute load average before and after the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from eval_quotes import passages  # noqa: E402

from refhound.quotes.evaluate import EVALUATORS, evaluate_report  # noqa: E402
from refhound.quotes.evaluate.cache import cache_path  # noqa: E402
from refhound.quotes.evaluate.evidence import Embedder, _embedding  # noqa: E402
from refhound.quotes.normalize import normalize  # noqa: E402
from refhound.quotes.textof import pdf_to_text  # noqa: E402
from refhound.quotes.triples import check_triples  # noqa: E402
from refhound.settings import ExtractSettings, Settings  # noqa: E402

DEFAULT_PDF = ROOT.parent / "shared" / "data" / "pdfs" / "excite-ssoar-dev" / "pdf" / "11246.pdf"
SERVER = (
    "import sys, time\nsys.path.insert(0, sys.argv[1])\nfrom tests.quotes.rubric_llm import RubricLLMServer\n"
    "s = RubricLLMServer(delay_s=float(sys.argv[2]))\nprint(s.url, flush=True)\nsys.stdin.read()\ns.close()\n"
)


def source_text(pdf: Path) -> str:
    if pdf.exists():
        return pdf_to_text(pdf, ExtractSettings(ocr=False))[0]
    rng = random.Random(1)
    words = ["patients", "trial", "reduced", "symptoms", "policy", "survey", "income", "growth", "rate"]
    return " ".join(" ".join(rng.choices(words, k=14)).capitalize() + "." for _ in range(400))


def process_cpu(pid: int) -> float | None:
    """User + system CPU seconds of another process (Linux), None where /proc cannot tell."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Span:
    """Wall-clock, this process's CPU and the server's CPU over one `evaluate_report`."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid

    def __enter__(self) -> Span:
        self.server = process_cpu(self.server_pid)
        self.cpu = time.process_time()
        self.wall = time.perf_counter()
        return self

    def __exit__(self, *_: object) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu
        after = process_cpu(self.server_pid)
        self.server = None if after is None or self.server is None else after - self.server


def one_run(
    work: Path, settings: Settings, server_pid: int, run: int, model_s: float
) -> tuple[dict[str, object], list[str]]:
    def ms(seconds: float | None) -> float | None:
        return None if seconds is None else round(seconds / n * 1000, 2)

    load_before = os.getloadavg()[0]
    settings.quotes.evaluation_cache = work / f"verdicts-{run}.sqlite"  # a fresh cache per run
    began = time.perf_counter()
    report, items = asyncio.run(check_triples(work / "triples.json", settings))
    check = time.perf_counter() - began
    n = len(items)
    statements = [t.statement for t in items]
    embedder = Embedder(cache_path(settings))
    with Span(server_pid) as fresh:
        evaluate_report(report, settings, EVALUATORS, statements, embedder=embedder)
    model = math.ceil(3 * n / settings.quotes.evaluate_concurrency) * model_s
    report2, _ = asyncio.run(check_triples(work / "triples.json", settings))
    again = Embedder(cache_path(settings))
    with Span(server_pid) as cached:
        evaluate_report(report2, settings, EVALUATORS, statements, embedder=again)
    verdicts = [item["verdict"] for r in report.results for item in (r.evaluations or {}).values()]
    return {
        "run": run,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "check_ms": ms(check),
        "evaluate_ms": ms(fresh.wall),
        "model_ms": ms(model),
        "overhead_ms": ms(fresh.wall - model),
        "minilm_ms": ms(embedder.seconds),
        "minilm_texts": embedder.texts,
        "cpu_ms": ms(fresh.cpu),
        "server_cpu_ms": ms(fresh.server),
        "cached_ms": ms(cached.wall),
        "cached_cpu_ms": ms(cached.cpu),
        "cached_minilm_texts": again.texts,
        "not_run": verdicts.count("not_run"),
    }, verdicts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--statements", type=int, default=100)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--model-ms", type=float, default=0.0, help="the stand-in model's time per request")
    args = parser.parse_args()
    text = source_text(args.pdf)
    rng = random.Random(args.seed)
    chosen = passages(text, rng, args.statements, normalize(text).text)
    while len(chosen) < args.statements:
        chosen += chosen[: args.statements - len(chosen)]
    work = Path(tempfile.mkdtemp(prefix="bench-claims-"))
    (work / "source.txt").write_text(text, encoding="utf-8")
    triples = [{"statement": p, "source_id": "source.txt", "evidence_quote": p} for p in chosen]
    (work / "triples.json").write_text(json.dumps(triples), encoding="utf-8")
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(ROOT), str(args.model_ms / 1000)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    runs: list[dict[str, object]] = []
    try:
        url = server.stdout.readline().strip() if server.stdout else ""
        settings = Settings()
        settings.check.offline = True
        settings.llm.base_url = url
        settings.quotes.evaluate_concurrency = args.concurrency
        began = time.perf_counter()
        _embedding().encode(["load"])
        load = time.perf_counter() - began
        first: list[str] | None = None
        for run in range(1, args.runs + 1):
            figures, verdicts = one_run(work, settings, server.pid, run, args.model_ms / 1000)
            if first is not None and verdicts != first:  # the same input, the same rule: the same verdicts
                raise SystemExit(f"run {run} gave other verdicts than run 1")
            first = verdicts
            runs.append(figures)
            print(json.dumps(figures), file=sys.stderr, flush=True)
    finally:
        if server.stdin:
            server.stdin.close()
        server.wait(10)
    print(
        json.dumps(
            {
                "statements": args.statements,
                "source_chars": len(text),
                "concurrency": args.concurrency,
                "model_ms_per_request": args.model_ms,
                "model_load_s": round(load, 2),
                "runs": runs,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
