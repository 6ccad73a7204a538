#!/usr/bin/env python
"""Field-level precision/recall/F1 of `parse_reference_string` on anystyle's hand-labelled reference strings.

    python scripts/eval_refstring.py [GOLD.xml.gz] [--show FIELD]

GOLD defaults to ../shared/data/reference-strings/anystyle-gold.xml.gz (1,669 `<sequence>` elements whose
children's text, joined, is the raw string). A field counts as exact when both sides agree after trimming
whitespace and punctuation at the ends (and a leading "In:" on containers); soft when their folded,
punctuation-free forms have a normalized similarity of at least 0.9. Authors are compared as the set of
family names; the gold author segment is split into names by the same name grammar the parser uses, so the
author score measures where the parser puts the author block, not how names are split.
"""

from __future__ import annotations

import argparse
import gzip
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree
from rapidfuzz import fuzz

from refhound.models import ParsedFields
from refhound.normalize.identifiers import normalize_doi
from refhound.normalize.names import parse_name
from refhound.normalize.text import collapse_whitespace, fold
from refhound.refstring import parse_author_list, parse_reference_string

DEFAULT_GOLD = Path(__file__).resolve().parents[2] / "shared/data/reference-strings/anystyle-gold.xml.gz"
FIELDS = ("title", "author", "container", "date", "doi")
_ATTRIBUTES = {"title": "title", "author": "authors", "container": "venue", "date": "year", "doi": "doi"}
_EDGE_PUNCT = " \t.,;:()[]\"'“”‘’«»"


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, gold: bool, predicted: bool, match: bool) -> None:
        if match:
            self.tp += 1
            return
        self.fp += predicted
        self.fn += gold

    def prf(self) -> tuple[float, float, float]:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return precision, recall, f1


@dataclass
class Scores:
    exact: dict[str, Counts] = field(default_factory=lambda: {f: Counts() for f in FIELDS})
    soft: dict[str, Counts] = field(default_factory=lambda: {f: Counts() for f in FIELDS})
    n: int = 0


def load_gold(path: Path) -> list[dict[str, str]]:
    """Each sequence as {"raw": …, tag: first text of that tag}; containers are journal or container-title."""
    with gzip.open(path) as handle:
        root = etree.parse(handle).getroot()
    sequences: list[dict[str, str]] = []
    for sequence in root.iter("sequence"):
        parts = [(child.tag, collapse_whitespace(child.text or "")) for child in sequence]
        item = {"raw": " ".join(text for _, text in parts if text)}
        for tag, text in parts:
            key = "container" if tag in ("journal", "container-title") else tag
            item.setdefault(key, text)
        sequences.append(item)
    return sequences


def _trim(text: str) -> str:
    return collapse_whitespace(text).strip(_EDGE_PUNCT)


def _soft_form(text: str) -> str:
    return collapse_whitespace(re.sub(r"[^\w\s]", " ", fold(text)))


def _similar(a: str, b: str) -> bool:
    return fuzz.ratio(_soft_form(a), _soft_form(b)) >= 90


def _families(names: list[str]) -> set[str]:
    return {f for f in (_trim(parse_name(n).family) for n in names) if any(c.isalpha() for c in f)}


def _year(text: str | None) -> int | None:
    match = re.search(r"(?<!\d)(?:18|19|20)\d\d(?!\d)", text or "")
    return int(match.group(0)) if match else None


def _container(text: str) -> str:
    return re.sub(r"^in:?\s+", "", _trim(text), flags=re.IGNORECASE)


def _compare_text(
    gold: str | None, predicted: str | None, counts: tuple[Counts, Counts], form: Callable[[str], str] = _trim
) -> tuple[bool, bool]:
    g, p = (form(gold) if gold else ""), (form(predicted) if predicted else "")
    exact = bool(g and p and g == p)
    soft = bool(g and p and _similar(g, p))
    counts[0].add(bool(g), bool(p), exact)
    counts[1].add(bool(g), bool(p), soft)
    return exact, soft


def _compare_authors(gold: set[str], predicted: set[str], counts: tuple[Counts, Counts]) -> tuple[bool, bool]:
    exact = bool(gold) and {fold(f) for f in gold} == {fold(f) for f in predicted}
    soft = (
        bool(gold and predicted)
        and all(any(_similar(g, p) for p in predicted) for g in gold)
        and all(any(_similar(p, g) for g in gold) for p in predicted)
    )
    counts[0].add(bool(gold), bool(predicted), exact)
    counts[1].add(bool(gold), bool(predicted), soft)
    return exact, soft


def evaluate(path: Path, show: str | None = None) -> Scores:
    scores = Scores()
    for item in load_gold(path):
        parsed: ParsedFields = parse_reference_string(item["raw"])
        scores.n += 1
        pairs = {f: (scores.exact[f], scores.soft[f]) for f in FIELDS}
        gold_authors = _families(parse_author_list(item["author"])[0]) if "author" in item else set()
        results = {
            "title": _compare_text(item.get("title"), parsed.title, pairs["title"]),
            "author": _compare_authors(gold_authors, _families(parsed.authors), pairs["author"]),
            "container": _compare_text(item.get("container"), parsed.venue, pairs["container"], _container),
            "date": _compare_text(str(_year(item.get("date")) or ""), str(parsed.year or ""), pairs["date"]),
            "doi": _compare_text(normalize_doi(item.get("doi", "")), parsed.doi, pairs["doi"]),
        }
        if show and not results[show][1] and (show in item or getattr(parsed, _ATTRIBUTES[show])):
            got = parsed.model_dump(exclude_defaults=True)
            print(f"{item['raw']}\n    gold: {item.get(show)!r}\n    got:  {got}")
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold", nargs="?", type=Path, default=DEFAULT_GOLD)
    parser.add_argument("--show", choices=FIELDS, help="print the references whose FIELD does not soft-match")
    args = parser.parse_args()
    scores = evaluate(args.gold, args.show)
    print(f"{scores.n} reference strings from {args.gold.name}")
    print(f"{'field':<10} {'exact P':>7} {'R':>6} {'F1':>6}   {'soft P':>6} {'R':>6} {'F1':>6}")
    for name in FIELDS:
        exact = " ".join(f"{value:6.3f}" for value in scores.exact[name].prf())
        soft = " ".join(f"{value:6.3f}" for value in scores.soft[name].prf())
        print(f"{name:<10} {exact}   {soft}")


if __name__ == "__main__":
    main()
