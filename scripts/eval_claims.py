#!/usr/bin/env python
"""The claim checks (`quotes check --evaluate`) on two labelled sets: the deterministic evidence's precision
and recall, and — given any OpenAI-compatible server — the LLM evaluators' accuracy.

    python scripts/eval_claims.py [--averitec DIR] [--pdfs DIR] [--per-pdf N] [--seed S] [--limit N]
                                  [--llm-url URL --llm-model NAME] [--json OUT]

Sets (read at evaluation time, never copied into the repository):

- **AVeriTeC dev** (`../shared/data/claims/averitec-dev/pairs.jsonl`, CC BY-NC 4.0): real claims with their
  question–answer evidence as the "source". Fact check: positive = SUPPORTS; REFUTES, NOT_ENOUGH_INFO and
  CONFLICTING are negatives ("absent or uncertain counts as not supported"). Relevant content: each claim
  with its own evidence (positive) and with another claim's evidence (negative; a seeded derangement).
- **Generated** (seeded; real prose of `../shared/data/pdfs`, read as the checker reads a PDF): passages of
  one or two sentences, each giving a true statement (the passage), statements that change a number, add or
  drop a negation, swap a name (a capitalised word of another PDF), or change the topic (another PDF's
  passage), and an irrelevant quote (the true statement with another passage of the same source as quote).

Labels per item: `entail` (the quote supports the statement), `relevant` (the source addresses it),
`supported` (the source supports every fact of it).

Deterministic predictions, from the evidence `quotes check --evaluate` reports (thresholds fixed here, not
fitted; the best-F1 threshold is printed beside as an optimistic bound):

- relevance: MiniLM similarity of the claim and its best-supporting source passage ≥ `RELEVANT`;
- fact check: similarity ≥ `SUPPORTED` and no claim alteration (a number, date, modal, name or negation of
  the claim that the passage lacks);
- entailment: the same test with the quote as the passage (similarity of statement and quote).

With `--llm-url`, the same items go to the three rubrics (`refhound.quotes.evaluate`) through the same
client, concurrency and cache as the checker; accuracy is reported per evaluator and set.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from eval_quotes import passages  # noqa: E402 — the quote checker's evaluation samples passages the same way

from refhound.quotes.evaluate import question, source_window  # noqa: E402
from refhound.quotes.evaluate.evidence import (  # noqa: E402
    Embedder,
    best_supports,
    claim_alterations,
    index_source,
)
from refhound.quotes.evaluate.llm import Question, ask_all  # noqa: E402
from refhound.quotes.normalize import normalize  # noqa: E402
from refhound.quotes.textof import pdf_to_text  # noqa: E402
from refhound.settings import ExtractSettings, Settings  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
RELEVANT = 0.35
SUPPORTED = 0.55
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
_AUX = re.compile(r"\b(is|are|was|were|has|have|had|can|will|would|should|does|do|did|may|might|must)\b")
_NEG = re.compile(r"\s+(not|no|never)\b")
_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]{3,}\b")


@dataclass
class Item:
    set: str
    kind: str
    statement: str
    quote: str | None  # None: no quote (AVeriTeC)
    source: str
    entail: bool | None
    relevant: bool
    supported: bool | None


# --- the sets -------------------------------------------------------------------------------------------


def averitec(directory: Path, rng: random.Random, limit: int | None) -> list[Item]:
    rows = [json.loads(line) for line in (directory / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r.get("evidence", "").strip()][:limit]
    others = list(range(len(rows)))
    rng.shuffle(others)
    for i in range(len(others)):  # no claim paired with its own evidence
        if others[i] == i:
            j = (i + 1) % len(others)
            others[i], others[j] = others[j], others[i]
    items = []
    for i, row in enumerate(rows):
        supported = row["label"] == "SUPPORTS"
        items.append(
            Item("averitec", "own_evidence", row["claim"], None, row["evidence"], None, True, supported)
        )
        other = rows[others[i]]["evidence"]
        items.append(Item("averitec", "other_evidence", row["claim"], None, other, None, False, None))
    return items


def _number_changed(text: str, rng: random.Random) -> str | None:
    numbers = list(_NUMBER.finditer(text))
    if not numbers:
        return None
    m = rng.choice(numbers)
    digits = m.group()
    position = max(i for i, c in enumerate(digits) if c.isdigit())
    new = str((int(digits[position]) + rng.randint(1, 8)) % 10)
    return text[: m.start() + position] + new + text[m.start() + position + 1 :]


def _negation_changed(text: str) -> str | None:
    if _NEG.search(text):
        return _NEG.sub("", text, count=1)
    m = _AUX.search(text)
    return None if m is None else text[: m.end()] + " not" + text[m.end() :]


def _name_swapped(text: str, names: list[str], rng: random.Random) -> str | None:
    found = list(_NAME.finditer(text))
    pool = [n for n in names if n.lower() not in text.lower()]
    if not found or not pool:
        return None
    m = rng.choice(found)
    return text[: m.start()] + rng.choice(pool) + text[m.end() :]


def generated(directory: Path, rng: random.Random, per_pdf: int) -> list[Item]:
    texts: dict[str, str] = {}
    for pdf in sorted(directory.rglob("*.pdf")):
        text, _ = pdf_to_text(pdf, ExtractSettings(ocr=False))
        if len(text) > 2000:
            texts[pdf.name] = text
    sampled = {name: passages(text, rng, per_pdf, normalize(text).text) for name, text in texts.items()}
    names_by_pdf = {
        n: sorted({m.group() for p in ps for m in _NAME.finditer(p)}) for n, ps in sampled.items()
    }
    items: list[Item] = []
    pdfs = list(sampled)
    for name in pdfs:
        source = texts[name]
        others = [n for n in pdfs if n != name]
        foreign_names = [x for n in others for x in names_by_pdf[n]]
        for number, passage in enumerate(sampled[name]):
            items.append(Item("generated", "true", passage, passage, source, True, True, True))
            for kind, changed in (
                ("number", _number_changed(passage, rng)),
                ("negation", _negation_changed(passage)),
                ("entity", _name_swapped(passage, foreign_names, rng)),
            ):
                if changed and changed != passage:
                    items.append(Item("generated", kind, changed, passage, source, False, True, False))
            other_pdf = rng.choice(others)
            if sampled[other_pdf]:
                topic = rng.choice(sampled[other_pdf])
                items.append(Item("generated", "topic", topic, passage, source, False, False, False))
            siblings = [p for k, p in enumerate(sampled[name]) if k != number]
            if siblings:
                quote = rng.choice(siblings)
                items.append(Item("generated", "irrelevant_quote", passage, quote, source, False, True, True))
    return items


# --- deterministic evidence --------------------------------------------------------------------------


def deterministic(items: list[Item], embedder: Embedder) -> list[dict[str, object]]:
    indexes = {}
    for item in items:
        if item.source not in indexes:
            indexes[item.source] = index_source(item.source)
    supports = best_supports([(i.statement, indexes[i.source]) for i in items], embedder)
    quote_items = [i for i in items if i.quote]
    quote_vectors = embedder.encode([i.statement for i in quote_items] + [i.quote or "" for i in quote_items])
    quote_similarity: dict[int, float] = {}
    if quote_vectors is not None:
        n = len(quote_items)
        for k, item in enumerate(quote_items):
            quote_similarity[id(item)] = float(quote_vectors[k] @ quote_vectors[n + k])
    evidence = []
    for item, support in zip(items, supports, strict=True):
        similarity = support.similarity if support and support.similarity is not None else 0.0
        evidence.append(
            {
                "similarity": similarity,
                "alterations": support.alterations if support else ["no passage"],
                "quote_similarity": quote_similarity.get(id(item)),
                "quote_alterations": claim_alterations(item.statement, item.quote) if item.quote else None,
            }
        )
    return evidence


def _prf(pairs: list[tuple[bool, bool]]) -> dict[str, float | int]:
    tp = sum(1 for gold, pred in pairs if gold and pred)
    fp = sum(1 for gold, pred in pairs if not gold and pred)
    fn = sum(1 for gold, pred in pairs if gold and not pred)
    tn = len(pairs) - tp - fp - fn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    accuracy = (tp + tn) / max(len(pairs), 1)
    return {"n": len(pairs), "tp": tp, "fp": fp, "fn": fn, "tn": tn, "precision": round(precision, 3),
            "recall": round(recall, 3), "f1": round(f1, 3), "accuracy": round(accuracy, 3)}  # fmt: skip


def _best_threshold(scored: list[tuple[bool, float, bool]]) -> dict[str, float]:
    best = (0.0, 0.0)
    for step in range(5, 96):
        threshold = step / 100
        f1 = float(_prf([(gold, score >= threshold and ok) for gold, score, ok in scored])["f1"])
        best = max(best, (f1, threshold))
    return {"f1": best[0], "threshold": best[1]}


def score_deterministic(items: list[Item], evidence: list[dict[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for set_name in sorted({i.set for i in items}):
        chosen = [(i, e) for i, e in zip(items, evidence, strict=True) if i.set == set_name]
        relevance = [(i.relevant, float(e["similarity"]), True) for i, e in chosen]  # type: ignore[arg-type]
        fact = [
            (bool(i.supported), float(e["similarity"]), not e["alterations"])  # type: ignore[arg-type]
            for i, e in chosen
            if i.supported is not None
        ]
        gate = [
            (bool(i.entail), float(e["quote_similarity"] or 0.0), not e["quote_alterations"])  # type: ignore[arg-type]
            for i, e in chosen
            if i.entail is not None
        ]
        block: dict[str, object] = {
            "relevance": {**_prf([(g, s >= RELEVANT) for g, s, _ in relevance]), "threshold": RELEVANT,
                          "best": _best_threshold(relevance)},
            "factcheck": {**_prf([(g, s >= SUPPORTED and ok) for g, s, ok in fact]), "threshold": SUPPORTED,
                          "best": _best_threshold(fact)},
        }  # fmt: skip
        if gate:
            block["entailment"] = {**_prf([(g, s >= SUPPORTED and ok) for g, s, ok in gate]),
                                   "threshold": SUPPORTED, "best": _best_threshold(gate)}  # fmt: skip
        kinds: dict[str, dict[str, float]] = {}
        for kind in sorted({i.kind for i, _ in chosen}):
            of_kind = [e for i, e in chosen if i.kind == kind]
            sims = sorted(float(e["similarity"]) for e in of_kind)  # type: ignore[arg-type]
            kinds[kind] = {"n": len(of_kind), "median_similarity": round(sims[len(sims) // 2], 3),
                           "with_alterations": sum(1 for e in of_kind if e["alterations"])}  # fmt: skip
        block["per_kind"] = kinds
        result[set_name] = block
    return result


# --- the LLM --------------------------------------------------------------------------------------------


def questions_of(item: Item) -> list[tuple[str, Question, bool]]:
    """(evaluator, question, gold) for every evaluator the item has a label for, each built by the checker's
    own `question`: the source excerpt is the one around the quote (as the checker centres it on the
    located quote), else the source's start."""
    center = None if item.quote is None else max(0, item.source.find(item.quote))
    window, where = source_window(item.source, center)
    golds = {"relevance": item.relevant, "factcheck": item.supported, "entailment": item.entail}
    asked = []
    for name in ("relevance", "factcheck", "entailment"):
        gold = golds[name]
        if gold is None or (name == "entailment" and not item.quote):
            continue
        built = question(name, item.statement, item.quote or "", window, where)
        if isinstance(built, Question):
            asked.append((name, built, gold))
    return asked


def score_llm(items: list[Item], settings: Settings) -> dict[str, object]:
    asked = [
        (item.set, name, question, gold) for item in items for name, question, gold in questions_of(item)
    ]
    began = time.perf_counter()
    answers = ask_all([q for _, _, q, _ in asked], settings)
    seconds = time.perf_counter() - began
    positive = {"entailed", "relevant", "supported"}
    result: dict[str, object] = {
        "model": settings.llm.model,
        "url": settings.llm.base_url,
        "seconds": round(seconds, 1),
    }
    for set_name in sorted({s for s, _, _, _ in asked}):
        for name in ("entailment", "relevance", "factcheck"):
            rows = [
                (gold, a)
                for (s, n, _, gold), a in zip(asked, answers, strict=True)
                if s == set_name and n == name
            ]
            if not rows:
                continue
            ran = [(gold, a.verdict in positive) for gold, a in rows if a.verdict != "not_run"]
            result[f"{set_name}/{name}"] = {**_prf(ran), "not_run": len(rows) - len(ran)}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--averitec", type=Path, default=SHARED / "claims" / "averitec-dev")
    parser.add_argument("--pdfs", type=Path, default=SHARED / "pdfs")
    parser.add_argument("--per-pdf", type=int, default=6, help="passages sampled per PDF")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--limit", type=int, help="AVeriTeC claims used (default: all)")
    parser.add_argument("--llm-url", help="OpenAI-compatible base URL: also score the LLM evaluators")
    parser.add_argument("--llm-model", default="judge")
    parser.add_argument("--llm-only", action="store_true", help="skip the deterministic evidence")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not args.averitec.exists() or not args.pdfs.exists():
        sys.exit(f"{args.averitec} or {args.pdfs} not found: this evaluation reads ../shared/data")
    rng = random.Random(args.seed)
    began = time.perf_counter()
    items = averitec(args.averitec, rng, args.limit) + generated(args.pdfs, rng, args.per_pdf)
    built = time.perf_counter() - began
    result: dict[str, object] = {
        "seed": args.seed,
        "items": {s: sum(1 for i in items if i.set == s) for s in ("averitec", "generated")},
        "per_kind": {
            f"{i.set}/{i.kind}": sum(1 for j in items if (j.set, j.kind) == (i.set, i.kind)) for i in items
        },
        "seconds_build": round(built, 1),
    }
    if not args.llm_only:
        embedder = Embedder()
        began = time.perf_counter()
        evidence = deterministic(items, embedder)
        result["seconds_evidence"] = round(time.perf_counter() - began, 1)
        if embedder.problem:
            sys.exit(embedder.problem)
        result["deterministic"] = score_deterministic(items, evidence)
    if args.llm_url:
        settings = Settings()
        settings.llm.base_url, settings.llm.model = args.llm_url, args.llm_model
        result["llm"] = score_llm(items, settings)
    text = json.dumps(result, indent=2, ensure_ascii=False)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
