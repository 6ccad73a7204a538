"""Run a verifier over a benchmark's items: items → references, batches, timing, and Ctrl-C.

The verifier is any function from references to results (`Verifier`), so the bench scores refhound's SOP
runner in production and a fake in tests. Items are checked in batches; the time of each batch is measured
around the conversion *and* the verification (for `--input raw`, parsing the reference string is part of
what a verifier of strings must do), so `seconds_verify` is the verification cost and everything else the
bench does is overhead. A Ctrl-C ends the run after the last finished batch; those items are kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from refhound.benchmark.export import bibtex_entry
from refhound.benchmark.items import BenchInputError, BenchItem, Benchmark, InputMode, Problem
from refhound.bibtex import decode_field, split_bibtex_names
from refhound.inputs.bib import map_fields
from refhound.models import ParsedFields, Reference, ReferenceResult
from refhound.refstring import parse_reference_string

if TYPE_CHECKING:
    from refhound.sop.runner import SopRunner

Verifier = Callable[[list[Reference]], list[ReferenceResult]]

#: Items per verifier call: large enough that the SOP runner's per-call set-up (its graph) is amortised,
#: small enough that a Ctrl-C loses little work.
BATCH_SIZE = 100


def default_input(bench: Benchmark) -> InputMode:
    """CiteAudit items are strings only; HALLMARK and BibTeX items have fields."""
    return InputMode.RAW if bench.name == "citeaudit" else InputMode.FIELDS


def check_input(bench: Benchmark, mode: InputMode) -> None:
    """Raise `BenchInputError` naming the items that lack what `mode` needs."""
    lacking = [i for i in bench.items if (i.raw if mode is InputMode.RAW else i.fields) is None]
    if not lacking:
        return
    if len(lacking) == len(bench.items):  # the file has no such form at all: one line says so
        form = "reference strings ('raw')" if mode is InputMode.RAW else "fields"
        other = InputMode.FIELDS if mode is InputMode.RAW else InputMode.RAW
        raise BenchInputError(bench.path, [Problem(None, f"no item has {form}: use --input {other.value}")])
    what = (
        "no reference string ('raw') for --input raw"
        if mode is InputMode.RAW
        else "no fields for --input fields (use --input raw)"
    )
    raise BenchInputError(bench.path, [Problem(i.line, f"item {i.id}: {what}") for i in lacking])


def parsed_from_fields(item: BenchItem) -> ParsedFields:
    """The item's BibTeX-like fields mapped exactly as refhound's `.bib` reader maps a user's entry."""
    fields = dict(item.fields or {})
    if not item.fields_decoded:
        fields = {name: decode_field(name, value) for name, value in fields.items()}
    authors, truncated = split_bibtex_names(fields["author"]) if "author" in fields else ([], False)
    parsed, _notes = map_fields(item.entry_type, fields, authors, truncated)
    return parsed


def to_reference(item: BenchItem, mode: InputMode) -> Reference:
    """The reference a user's input would have produced for this item."""
    if mode is InputMode.RAW:
        raw = item.raw or ""
        return Reference(id=str(item.id), raw=raw, parsed=parse_reference_string(raw))
    return Reference(
        id=str(item.id), raw=bibtex_entry(item).strip(), parsed=parsed_from_fields(item), structured=True
    )


@dataclass
class BenchRun:
    """What a run produced: one result per finished item, in the items' order, and its timing."""

    results: list[ReferenceResult] = field(default_factory=list)
    batches: list[tuple[int, float]] = field(default_factory=list)  # (items, seconds) per verifier call
    seconds_loop: float = 0.0  # wall time of the whole loop, bookkeeping included
    seconds_abandoned: float = 0.0  # time spent on the batch a Ctrl-C cut short (its items are dropped)
    interrupted: bool = False

    @property
    def seconds_verify(self) -> float:
        """Time spent converting and verifying the items that were scored."""
        return sum(seconds for _, seconds in self.batches)

    @property
    def seconds_overhead(self) -> float:
        """Loop time not spent converting or verifying items: the runner's own cost."""
        return max(self.seconds_loop - self.seconds_verify - self.seconds_abandoned, 0.0)


def run_bench(
    items: Sequence[BenchItem],
    verify: Verifier,
    mode: InputMode,
    *,
    batch_size: int = BATCH_SIZE,
    progress: Callable[[int], None] | None = None,
) -> BenchRun:
    """Check `items` batch by batch; on Ctrl-C return what was finished, with `interrupted` set.

    A batch's results are kept only once the whole batch is verified, so the items scored are always a
    prefix of `items`, whenever the Ctrl-C comes.
    """
    run = BenchRun()
    started = began = time.perf_counter()
    try:
        for start in range(0, len(items), batch_size):
            batch = items[start : start + batch_size]
            began = time.perf_counter()
            results = verify([to_reference(item, mode) for item in batch])
            seconds = time.perf_counter() - began
            if len(results) != len(batch):
                wrong = f"the verifier returned {len(results)} results for {len(batch)} references"
                raise RuntimeError(wrong)
            run.results.extend(results)
            run.batches.append((len(batch), seconds))
            began = time.perf_counter()
            if progress:
                progress(len(batch))
    except KeyboardInterrupt:
        run.interrupted = True
        del run.results[sum(n for n, _ in run.batches) :]  # a batch cut between its two appends
        run.seconds_abandoned = time.perf_counter() - began
    run.seconds_loop = time.perf_counter() - started
    return run


def sop_verifier(runner: SopRunner) -> Verifier:
    """refhound's own verifier: the SOP graph, without checkpoints (a bench run is not resumable)."""

    def verify(references: list[Reference]) -> list[ReferenceResult]:
        results: list[ReferenceResult] = runner.run(references).results
        return results

    return verify
