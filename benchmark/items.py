"""What every benchmark loader returns: labelled items, in the input's order, each knowing its line.

A benchmark item is one citation with a ground-truth label (positive = hallucinated, as the DESIGN's
`refhound bench` contract counts it), the error type when the benchmark names one, and whichever forms the
benchmark gives: BibTeX-like `fields`, a formatted reference string `raw`, or both. Items keep the line
they start on so that every later complaint about them can name it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from refhound.errors import InputError

#: The type `per_type` files a correct (not hallucinated) item under.
VALID_TYPE = "valid"

#: How many input problems an error message lists before it says "and N more".
_SHOWN_PROBLEMS = 10


class InputMode(StrEnum):
    """What the verifier is given: the benchmark's parsed `fields`, or the formatted string `raw`."""

    FIELDS = "fields"
    RAW = "raw"


@dataclass(frozen=True)
class BenchItem:
    """One labelled citation of a benchmark."""

    id: str | int  # HALLMARK/BibTeX: the entry key; CiteAudit: the 0-based position in the file's `data`
    hallucinated: bool  # the ground truth; positive = hallucinated
    type: str  # the error type for hallucinated items, `VALID_TYPE` otherwise
    line: int  # 1-based line of the input where the item starts
    fields: Mapping[str, str] | None = None  # BibTeX field name (lower case) -> value, as the input gives it
    fields_decoded: bool = False  # `fields` already LaTeX-decoded (read by the BibTeX parser), not raw
    entry_type: str = "misc"  # the BibTeX entry type, for `fields`
    raw: str | None = None  # the reference as a formatted string, when the input has one
    upstream_real: bool | None = None  # another tool's prediction on the item (CiteAudit's `Predict`)
    tier: int | None = None  # HALLMARK's difficulty tier, when given


@dataclass
class Benchmark:
    """A loaded benchmark file: its items in file order and what the loader knows about it."""

    name: str  # citeaudit | hallmark | bib
    split: str  # the split scored (CiteAudit: realworld|generated|all; otherwise the file's stem)
    path: Path
    items: list[BenchItem] = field(default_factory=list)
    upstream_name: str | None = None  # whose predictions `upstream_real` holds, if anyone's

    @property
    def has_upstream(self) -> bool:
        return any(item.upstream_real is not None for item in self.items)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a benchmark input, at a line."""

    line: int | None
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


class BenchInputError(InputError):
    """A benchmark file that cannot be scored as given; the message names the lines at fault.

    Benchmarks are read strictly (unlike `refhound check`'s inputs, where a bad entry is skipped): an item
    left out silently would change every figure computed from the file.
    """

    def __init__(self, path: str | Path, problems: list[Problem]) -> None:
        self.problems = problems
        shown = "; ".join(str(p) for p in problems[:_SHOWN_PROBLEMS])
        more = len(problems) - _SHOWN_PROBLEMS
        super().__init__(path, shown + (f"; and {more} more" if more > 0 else ""))


def line_of(text: str, offset: int) -> int:
    """The 1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1


_HALLUCINATED_WORDS = {"hallucinated": True, "fake": True, "valid": False, "real": False}


def parse_label(value: object) -> bool | None:
    """True for a hallucinated label, False for a correct one, None when the value is no label we know.

    HALLMARK writes VALID / HALLUCINATED; CiteAudit's vocabulary is real / fake. Booleans are refused here
    on purpose: CiteAudit's `GT: true` means *real*, the opposite of "positive", so a bare true/false is
    ambiguous.
    """
    if not isinstance(value, str):
        return None
    return _HALLUCINATED_WORDS.get(value.strip().lower())


def part_of(item: BenchItem, parts: int) -> int:
    """The 1-based part of `parts` an item falls in, by the sha256 of its content (the reference string,
    else its fields): the same item is in the same part in every file and every run, so development data
    can be split into halves that stay apart."""
    content = item.raw if item.raw is not None else json.dumps(dict(item.fields or {}), sort_keys=True)
    return int(hashlib.sha256(content.encode("utf-8")).hexdigest(), 16) % parts + 1
