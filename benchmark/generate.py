"""`refhound bench generate`: labelled citations made from an index's real records, as HALLMARK-style JSONL.

The plan is fixed before any record is drawn: how many items are real, and for the hallucinated ones how
many of each error family (title / author / metadata, 2:2:1 by default, as CiteAudit's generated split has
1,000 / 1,000 / 500), a share of them compound (a second error from another family), and within each family
an equal-ish split over its error types. Slots are shuffled, then filled in order from a seeded walk over the
index; a record that does not lend itself to a slot's error is skipped, and a fake that turns out equal to a
real record of the index is discarded (and counted) and the slot tried again with the next record. Same
index file, same options, same seed (and the same calendar year, which bounds the years a record may have
and a shifted year may take): the same file, byte for byte.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from refhound.benchmark.perturb_fields import AUTHOR_ERRORS, METADATA_ERRORS, field_error
from refhound.benchmark.perturb_title import TITLE_ERRORS, Perturbed, TitleVocabulary, title_error
from refhound.benchmark.sample import Cited, IndexSampler, SourceRecord
from refhound.benchmark.styles import ALL_STYLES, STYLES, cited_venue, render, shown_authors
from refhound.index.store import IndexStore

FAMILIES: dict[str, tuple[str, ...]] = {
    "title": TITLE_ERRORS,
    "author": AUTHOR_ERRORS,
    "metadata": METADATA_ERRORS,
}
COMPOUND = "compound"
_LATEX_SPECIAL = re.compile(r"([\\{}$%&#_])")


@dataclass(frozen=True)
class GenerateOptions:
    n: int
    seed: int
    fakes: int
    mix: dict[str, float] = field(default_factory=lambda: {"title": 0.4, "author": 0.4, "metadata": 0.2})
    compound: float = 0.1
    styles: tuple[str, ...] = STYLES


def parse_mix(text: str) -> dict[str, float]:
    """ "2:2:1" (title:author:metadata) or "title=2,author=2,metadata=1" → shares summing to 1."""
    if "=" in text:
        pairs = [part.split("=", 1) for part in text.split(",") if part.strip()]
        weights = {k.strip(): float(v) for k, v in pairs}
    else:
        values = [float(v) for v in text.split(":")]
        if len(values) != len(FAMILIES):
            raise ValueError(f"--mix {text!r}: give three weights, title:author:metadata")
        weights = dict(zip(FAMILIES, values, strict=True))
    unknown = set(weights) - set(FAMILIES)
    if unknown or any(w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
        raise ValueError(f"--mix {text!r}: non-negative weights for {', '.join(FAMILIES)}")
    total = sum(weights.values())
    return {family: weights.get(family, 0.0) / total for family in FAMILIES}


def parse_styles(text: str) -> tuple[str, ...]:
    """ "acl,mla" → ("acl", "mla"), each a style `render` knows."""
    styles = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [style for style in styles if style not in ALL_STYLES]
    if not styles or unknown:
        raise ValueError(f"--styles {text!r}: choose from {', '.join(ALL_STYLES)}")
    return styles


def apportion(total: int, shares: dict[str, float]) -> dict[str, int]:
    """`total` split by `shares` with largest remainders (ties in key order): the counts always add up."""
    exact = {k: total * s for k, s in shares.items()}
    counts = {k: int(v) for k, v in exact.items()}
    left = total - sum(counts.values())
    for k in sorted(shares, key=lambda k: (-(exact[k] - counts[k]), list(shares).index(k)))[:left]:
        counts[k] += 1
    return counts


@dataclass(frozen=True)
class Slot:
    family: str | None  # None for a real item
    kind: str | None  # the error type (the primary one for a compound)
    compound: bool = False


def plan(options: GenerateOptions, rng: random.Random) -> list[Slot]:
    """Every item's slot, shuffled: the mix is exact, not sampled."""
    slots = [Slot(None, None)] * (options.n - options.fakes)
    for family, count in apportion(options.fakes, options.mix).items():
        compound = round(count * options.compound)
        kinds = FAMILIES[family]
        for kind, k in apportion(count - compound, {t: 1 / len(kinds) for t in kinds}).items():
            slots += [Slot(family, kind)] * k
        for kind, k in apportion(compound, {t: 1 / len(kinds) for t in kinds}).items():
            slots += [Slot(family, kind, compound=True)] * k
    rng.shuffle(slots)
    return slots


def _escape(value: str) -> str:
    return _LATEX_SPECIAL.sub(r"\\\1", value)


def bibtex_fields(c: Cited) -> dict[str, str]:
    """The citation as HALLMARK's `fields`: BibTeX field names, LaTeX-escaped values."""
    fields = {"title": _escape(c.title), "author": " and ".join(_escape(a) for a in c.authors)}
    if c.venue:
        fields["journal" if c.entry_type == "article" else "booktitle"] = _escape(c.venue)
    if c.year is not None:
        fields["year"] = str(c.year)
    if c.doi:
        fields["doi"] = c.doi
    if c.arxiv_id:
        fields["eprint"], fields["archiveprefix"] = c.arxiv_id, "arXiv"
    return fields


class _Generator:
    def __init__(self, store: IndexStore, options: GenerateOptions) -> None:
        self.options = options
        self.rng = random.Random(options.seed)
        self.sampler = IndexSampler(store, options.seed)
        self.pools = self.sampler.pools()
        self.vocabulary = TitleVocabulary(self.pools)
        self.records: Iterator[SourceRecord] = self.sampler.walk(random.Random(f"{options.seed}:records"))
        self.discarded: Counter[str] = Counter()

    def _next(self) -> SourceRecord:
        record = next(self.records, None)
        if record is None:
            raise ValueError(
                f"the index {self.sampler.store.path} has too few suitable records for --n {self.options.n}"
            )
        return record

    @staticmethod
    def _as_cited(record: SourceRecord) -> Cited:
        """The record cited correctly, its venue shortened as bibliographies shorten it."""
        c = record.cited
        return c.but(venue=cited_venue(c.venue)) if c.venue else c

    def _error(self, kind: str, c: Cited, record: SourceRecord) -> Perturbed | None:
        if kind in TITLE_ERRORS:
            return title_error(kind, c, self.rng, self.vocabulary, record.venue_key, self.sampler)
        return field_error(kind, c, self.rng, self.pools, record.venue_key, self.sampler)

    def _fake(self, slot: Slot) -> tuple[SourceRecord, Perturbed, list[str]]:
        assert slot.family is not None and slot.kind is not None
        while True:
            record = self._next()
            first = self._error(slot.kind, self._as_cited(record), record)
            kinds = [slot.kind]
            if first is not None and slot.compound:
                other = self.rng.choice([f for f in FAMILIES if f != slot.family])
                second_kind = self.rng.choice(FAMILIES[other])
                second = self._error(second_kind, first.cited, record)
                kinds.append(second_kind)
                first = None if second is None else Perturbed(second.cited, f"{first.note}; {second.note}")
            if first is None:  # the record does not lend itself to this error: take the next one
                continue
            if self.sampler.real_twin(first.cited) is not None:
                self.discarded[COMPOUND if slot.compound else slot.kind] += 1
                continue
            return record, first, kinds

    def _style(self, c: Cited, touches_authors: bool) -> str:
        style = self.rng.choice(self.options.styles)
        if touches_authors and shown_authors(style, len(c.authors)) < len(c.authors):
            full = [s for s in self.options.styles if shown_authors(s, len(c.authors)) == len(c.authors)]
            style = self.rng.choice(full) if full else style
        return style

    def items(self) -> Iterator[dict[str, object]]:
        for number, slot in enumerate(plan(self.options, self.rng), start=1):
            if slot.kind is None:
                record = self._next()
                cited = self._as_cited(record)
                kinds: list[str] = []
                note = None
            else:
                record, perturbed, kinds = self._fake(slot)
                cited, note = perturbed.cited, perturbed.note
            style = self._style(cited, any(k in AUTHOR_ERRORS for k in kinds))
            yield {
                "bibtex_key": f"gen{self.options.seed}-{number:05d}",
                "bibtex_type": cited.entry_type,
                "fields": bibtex_fields(cited),
                "label": "VALID" if slot.kind is None else "HALLUCINATED",
                "hallucination_type": None
                if slot.kind is None
                else (COMPOUND if slot.compound else slot.kind),
                "error_family": slot.family,
                "components": kinds,
                "perturbation": note,
                "raw": render(cited, style),
                "style": style,
                "source_record": record.ref,
                "generation_method": "refhound-bench-generate",
                "seed": self.options.seed,
            }


def _counts(counter: Counter[str], skip: str = "") -> str:
    return ", ".join(f"{k} {v:,}" for k, v in sorted(counter.items()) if k != skip)


def generate_file(store: IndexStore, options: GenerateOptions, out: Path) -> str:
    """Write the items to `out` (JSON lines) and return a one-paragraph summary of what was written."""
    generator = _Generator(store, options)
    types: Counter[str] = Counter()
    styles: Counter[str] = Counter()
    families: Counter[str] = Counter()
    partial = out.with_name(out.name + ".partial")
    try:
        with partial.open("w", encoding="utf-8") as handle:
            for item in generator.items():
                handle.write(json.dumps(item, ensure_ascii=False) + "\n")
                types[str(item["hallucination_type"] or "valid")] += 1
                styles[str(item["style"])] += 1
                families[str(item["error_family"] or "valid")] += 1
        partial.replace(out)
    finally:
        partial.unlink(missing_ok=True)
        generator.sampler.close()
    discarded = sum(generator.discarded.values())
    return (
        f"wrote {options.n:,} items to {out} (seed {options.seed}): {options.n - options.fakes:,} real, "
        f"{options.fakes:,} hallucinated ({_counts(families, skip='valid')}); "
        f"types: {_counts(types)}; "
        f"styles: {_counts(styles)}; "
        f"{discarded:,} fakes discarded as equal to a real record"
        + (f" ({', '.join(f'{k} {v}' for k, v in sorted(generator.discarded.items()))})" if discarded else "")
    )
