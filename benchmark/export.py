"""Benchmark items → BibTeX text, for building an index from a split's correct entries (HALLMARK's set-up:
the index holds the VALID entries, standing for complete coverage) and for labelled `.bib` benchmarks.
"""

from __future__ import annotations

from collections.abc import Iterable

from refhound.benchmark.items import BenchItem


def balance_braces(value: str) -> str:
    """Drop unmatched closing braces and close open ones: a few HALLMARK values carry truncated LaTeX
    (e.g. ``Man{\\'e``), which would make the whole BibTeX entry unreadable."""
    out, depth = [], 0
    for char in value:
        if char == "}" and depth == 0:
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        out.append(char)
    return "".join(out) + "}" * depth


def bibtex_entry(item: BenchItem, *, with_label: bool = False) -> str:
    """One item as a BibTeX entry; with `with_label`, its ground truth in `label` / `hallucination_type`."""
    fields = dict(item.fields or {})
    if with_label:
        fields["label"] = "HALLUCINATED" if item.hallucinated else "VALID"
        if item.hallucinated:
            fields["hallucination_type"] = item.type
    body = ",\n".join(f"  {name} = {{{balance_braces(value)}}}" for name, value in fields.items() if value)
    return f"@{item.entry_type}{{{item.id},\n{body}\n}}\n"


def bibtex_text(items: Iterable[BenchItem], *, with_label: bool = False) -> str:
    return "".join(bibtex_entry(item, with_label=with_label) for item in items)
