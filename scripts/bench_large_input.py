"""Peak memory and time of `refhound check` on a large BibTeX file, offline, with the memory off.

    python scripts/bench_large_input.py --entries 10000 100000 400000
    python scripts/bench_large_input.py --entries 100000 --python /tmp/before/.venv/bin/python --max-gb 10

Each file is `examples/sample.bib`'s seven entries repeated under new keys (`N` entries, about 430 bytes
each; `--invented`: invented entries, each a full-text search of the index), written once under `--work`.
Each is checked as `refhound check FILE --offline --format json -o OUT`, with `XDG_DATA_HOME`,
`XDG_CACHE_HOME` and `XDG_CONFIG_HOME` in `--work` and `REFHOUND_MEMORY__ENABLED=false`; the default index
is built there first by a check of the sample (not measured). Printed per file: wall seconds, peak RSS (the
child's `ru_maxrss`), the references the report holds, the size `runs.sqlite` is left at, and the machine's
load average before and after. `--python` runs another installation (the version before a change, from its
own checkout and venv); `--max-gb` caps the child's address space, so a version whose memory grows with the
file fails instead of taking the machine.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_SUMMARY_TOTAL = re.compile(rb'"summary": \{\s*"total": (\d+)')


def write_bib(entries: int, path: Path) -> None:
    """`entries` entries: the sample's, in turn, each under its own key."""
    text = (ROOT / "examples" / "sample.bib").read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=@)", text)[1:]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for number in range(entries):
            block = blocks[number % len(blocks)]
            out.write(re.sub(r"^(@\w+\{)([^,]+),", rf"\g<1>\g<2>-{number},", block, count=1))


_WORDS = (
    "deep learning neural network graph attention transformer robust efficient sparse language model "
    "vision reinforcement policy optimization bayesian inference kernel convex stochastic gradient "
    "adversarial generative diffusion contrastive representation retrieval translation speech"
)
_FAMILIES = "Smith Chen Wang Garcia Müller Kim Rossi Dubois Tanaka Singh Okafor Novak Silva Cohen Larsen"
_GIVEN = "Ada Li Wei Maria Jonas Min Luca Claire Hiro Priya Chidi Petr Ana Noa Erik"
_VENUES = ["Proceedings of NeurIPS", "ICML", "ACL", "CVPR", "Journal of Machine Learning Research", "EMNLP"]


def write_invented_bib(entries: int, path: Path) -> None:
    """`entries` invented entries (titles, authors, venues, years at random, seed 7): every one goes
    through the index's full-text search and ends unverified offline."""
    rng = random.Random(7)
    words, families, given = _WORDS.split(), _FAMILIES.split(), _GIVEN.split()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for number in range(entries):
            title = " ".join(rng.choice(words) for _ in range(rng.randint(4, 10))).capitalize()
            authors = " and ".join(
                f"{rng.choice(families)}, {rng.choice(given)}" for _ in range(rng.randint(1, 5))
            )
            out.write(
                f"@inproceedings{{key{number},\n  title = {{{title}}},\n  author = {{{authors}}},\n"
                f"  booktitle = {{{rng.choice(_VENUES)}}},\n  year = {{{rng.randint(1995, 2024)}}}\n}}\n\n"
            )


def environment(work: Path) -> dict[str, str]:
    return {
        **os.environ,
        "XDG_DATA_HOME": str(work / "xdg-data"),
        "XDG_CACHE_HOME": str(work / "xdg-cache"),
        "XDG_CONFIG_HOME": str(work / "xdg-config"),
        "REFHOUND_MEMORY__ENABLED": "false",
    }


def measure(python: str, bib: Path, out: Path, env: dict[str, str], max_gb: float | None) -> str:
    """One check of `bib`: its row of the table."""
    command = [python, "-m", "refhound", "check", str(bib), "--offline", "--format", "json", "-o", str(out)]
    out.unlink(missing_ok=True)
    load = os.getloadavg()[0]
    started = time.perf_counter()

    def cap() -> None:
        if max_gb is not None:
            limit = int(max_gb * 1024**3)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    # Run from the work folder: `python -m` puts the current folder first on the path, and from a
    # checkout that would be the checkout's own code whatever `--python` names.
    child = subprocess.Popen(
        command, cwd=bib.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=cap
    )
    assert child.stderr is not None
    errors = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    checked = _references_in(out)
    note = "" if checked is not None else f" (no report: exit {code}; {errors.strip().splitlines()[-1:]})"
    runs = Path(env["XDG_DATA_HOME"]) / "refhound" / "runs.sqlite"
    left = runs.stat().st_size / 1024 / 1024 if runs.exists() else 0.0
    return (
        f"| {bib.name} | {bib.stat().st_size / 1024 / 1024:,.1f} MB | {seconds:,.1f} s | "
        f"{usage.ru_maxrss / 1024:,.0f} MB | {checked if checked is not None else '-'}{note} | "
        f"{left:,.1f} MB | {load:.1f} → {os.getloadavg()[0]:.1f} |"
    )


def _references_in(report: Path) -> int | None:
    """The report's summary total, read from its end (a report of 400,000 references is 1.5 GB)."""
    if not report.exists():
        return None
    with report.open("rb") as handle:
        handle.seek(max(report.stat().st_size - 4096, 0))
        found = _SUMMARY_TOTAL.search(handle.read())
    return int(found.group(1)) if found else None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entries", type=int, nargs="+", default=[10_000, 100_000, 400_000])
    parser.add_argument("--work", type=Path, default=ROOT / "bench-out" / "large-input")
    parser.add_argument("--python", default=sys.executable, help="the Python of the installation to run")
    parser.add_argument("--max-gb", type=float, help="cap on the check's address space, in GB")
    parser.add_argument(
        "--invented", action="store_true", help="invented entries (a full-text search each), not the sample's"
    )
    args = parser.parse_args()
    env = environment(args.work)
    args.work.mkdir(parents=True, exist_ok=True)
    warm = subprocess.run(
        [args.python, "-m", "refhound", "check", str(ROOT / "examples" / "sample.bib"), "--offline", "-q"],
        cwd=args.work,
        env=env,
        stdout=subprocess.DEVNULL,
        check=False,
    )
    print(f"default index ready (sample check exit {warm.returncode})", file=sys.stderr)
    print("| file | size | wall | peak RSS | references in the report | runs.sqlite after | load (1 min) |")
    print("|---|---|---|---|---|---|---|")
    for entries in args.entries:
        kind = "invented" if args.invented else "sample"
        bib = args.work / f"{kind}-{entries}.bib"
        if not bib.exists():
            (write_invented_bib if args.invented else write_bib)(entries, bib)
        print(measure(args.python, bib, args.work / f"report-{entries}.json", env, args.max_gb), flush=True)


if __name__ == "__main__":
    main()
