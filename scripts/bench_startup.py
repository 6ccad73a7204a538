"""Start-up cost of the command line: whole processes, median of N runs each.

    python scripts/bench_startup.py [--runs 10] [--data DIR] [--root CHECKOUT] [--no-bytecode-cache]

Measures `refhound --version`, a usage error (`check` with no input), a missing file, and
`check --offline examples/sample.bib` on the embedded default index (built first if it is missing, outside
the timing). Scratch XDG folders: no user's memory, cache or settings are read. Python's compiled bytecode
is cached in a scratch folder by the warm-up run, as an installed package has it (a machine that sets
PYTHONDONTWRITEBYTECODE would otherwise compile refhound's own modules on every run);
`--no-bytecode-cache` keeps the environment's setting. `--root` runs the `python -m refhound` of another
checkout (its `refhound.sop` and `refhound.agents` come from wherever PYTHONPATH and the editable install
map them). Prints a Markdown table with the load average before and after, since a loaded machine inflates
every wall time; the CPU time of the process is less sensitive to the load.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES: list[tuple[str, list[str]]] = [
    ("`refhound --version`", ["--version"]),
    ("usage error: `refhound check`", ["check"]),
    ("`refhound check missing.bib`", ["check", "missing.bib"]),
    ("`refhound check --offline examples/sample.bib`", ["check", "--offline", "examples/sample.bib"]),
]


def _time(args: list[str], env: dict[str, str], root: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "refhound", *args], cwd=root, env=env, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--data", type=Path, help="XDG_DATA_HOME holding a built default index (reused)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to run (default: this one)")
    parser.add_argument(
        "--no-bytecode-cache", action="store_true", help="keep the environment's PYTHONDONTWRITEBYTECODE"
    )
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="refhound-startup-"))
    env = dict(
        os.environ,
        XDG_DATA_HOME=str(args.data or scratch / "data"),
        XDG_CACHE_HOME=str(scratch / "cache"),
        XDG_CONFIG_HOME=str(scratch / "config"),
        REFHOUND_CONFIG=str(scratch / "none.toml"),
    )
    env.pop("REFHOUND_MEMORY__PATH", None)
    if not args.no_bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    for _, case in CASES:  # builds the default index on first use, writes the bytecode, warms the page cache
        _time(case, env, args.root)
    load = os.getloadavg()[0]
    print(f"| command | wall, median of {args.runs} | wall min–max | CPU (user + sys), median |")
    print("|---|---:|---:|---:|")
    for label, case in CASES:
        runs = [_time(case, env, args.root) for _ in range(args.runs)]
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"| {label} | {statistics.median(walls):.3f} s | {min(walls):.3f}–{max(walls):.3f} s "
            f"| {statistics.median(cpus):.3f} s |"
        )
    print(
        f"\nload average (1 min): {load:.2f} before, {os.getloadavg()[0]:.2f} after; {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
