#!/usr/bin/env python
"""Overhead of `quotes check --evaluate entailment,relevance,factcheck` per statement, outside the model.

    python scripts/bench_claims.py [--statements 100] [--pdf PATH] [--concurrency 4]

A triples file of N statements citing one real source (the text of a PDF of ../shared/data/pdfs, else a
generated text) is checked with every evaluator against a loopback OpenAI-compatible server in its own
process that answers by a word rule at once (`tests/quotes/rubric_llm.py`): so the model's own time is ~0,
and what is measured is refhound's — prompts, HTTP round trips, JSON validation, the cache, the statements,
the best-supporting passages with their MiniLM embeddings, the confidence. Reported per statement:

- `evaluate_ms`: the whole of `evaluate_report` (3 × N requests), with a fresh verdict cache, after the
  embedding model is loaded (its one-off load is reported apart as `model_load_s`); `minilm_ms` the part
  spent inside the MiniLM model (ONNX inference and tokenizing, `minilm_texts` texts), and
  `evaluate_outside_models_ms` the rest: refhound's own time outside both models;
- `cached_ms`: the same again, every verdict from the cache (and `cached_outside_models_ms`);
- `check_ms`: the string check alone (reading the source, matching), for scale.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
from refhound.quotes.evaluate.evidence import Embedder, _embedding  # noqa: E402
from refhound.quotes.normalize import normalize  # noqa: E402
from refhound.quotes.textof import pdf_to_text  # noqa: E402
from refhound.quotes.triples import check_triples  # noqa: E402
from refhound.settings import ExtractSettings, Settings  # noqa: E402

DEFAULT_PDF = ROOT.parent / "shared" / "data" / "pdfs" / "excite-ssoar-dev" / "pdf" / "11246.pdf"
SERVER = (
    "import sys, time\nsys.path.insert(0, sys.argv[1])\nfrom tests.quotes.rubric_llm import RubricLLMServer\n"
    "s = RubricLLMServer()\nprint(s.url, flush=True)\nsys.stdin.read()\ns.close()\n"
)


def source_text(pdf: Path) -> str:
    if pdf.exists():
        return pdf_to_text(pdf, ExtractSettings(ocr=False))[0]
    rng = random.Random(1)
    words = ["patients", "trial", "reduced", "symptoms", "policy", "survey", "income", "growth", "rate"]
    return " ".join(" ".join(rng.choices(words, k=14)).capitalize() + "." for _ in range(400))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--statements", type=int, default=100)
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--seed", type=int, default=38)
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
        [sys.executable, "-c", SERVER, str(ROOT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        url = server.stdout.readline().strip() if server.stdout else ""
        settings = Settings()
        settings.check.offline = True
        settings.llm.base_url = url
        settings.quotes.evaluate_concurrency = args.concurrency
        settings.quotes.evaluation_cache = work / "verdicts.sqlite"
        began = time.perf_counter()
        _embedding().encode(["load"])
        load = time.perf_counter() - began
        began = time.perf_counter()
        report, items = asyncio.run(check_triples(work / "triples.json", settings))
        check = time.perf_counter() - began
        statements = [t.statement for t in items]
        embedder = Embedder()
        began = time.perf_counter()
        evaluate_report(report, settings, EVALUATORS, statements, embedder=embedder)
        evaluate = time.perf_counter() - began
        report2, _ = asyncio.run(check_triples(work / "triples.json", settings))
        cached_embedder = Embedder()
        began = time.perf_counter()
        evaluate_report(report2, settings, EVALUATORS, statements, embedder=cached_embedder)
        cached = time.perf_counter() - began
    finally:
        if server.stdin:
            server.stdin.close()
        server.wait(10)
    n = len(items)
    verdicts = [item["verdict"] for r in report.results for item in (r.evaluations or {}).values()]
    print(
        json.dumps(
            {
                "statements": n,
                "source_chars": len(text),
                "concurrency": args.concurrency,
                "load_average": os.getloadavg(),
                "model_load_s": round(load, 2),
                "check_ms": round(check / n * 1000, 2),
                "evaluate_ms": round(evaluate / n * 1000, 2),
                "minilm_ms": round(embedder.seconds / n * 1000, 2),
                "minilm_texts": embedder.texts,
                "evaluate_outside_models_ms": round((evaluate - embedder.seconds) / n * 1000, 2),
                "cached_ms": round(cached / n * 1000, 2),
                "cached_outside_models_ms": round((cached - cached_embedder.seconds) / n * 1000, 2),
                "not_run": verdicts.count("not_run"),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
