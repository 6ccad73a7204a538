"""Hostile archives for triage: make them, then collect one as `refhound triage` does and measure it.

    python scripts/bench_archives.py make bomb bench-out/archives/bomb.tar.gz   # 8 members of 300 MB of zeros
    python scripts/bench_archives.py make many bench-out/archives/many.tar.gz   # 1,000 tiny PDFs
    python scripts/bench_archives.py measure bench-out/archives/bomb.tar.gz

`measure` prints the seconds, the bytes the process wrote (`wchar` of /proc/self/io), how often the archive
file was opened (an audit hook), and the rows collected, with the default settings. `--before` calls
`collect` as the code before the archive caps did (`collect(paths, out, work, max_bytes)`, up to `deb04f1`),
to measure that version from its own checkout. Run it with scratch XDG folders (see
docs/benchmarks/hardening-runs.md).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

BOMB_MEMBERS, BOMB_MEMBER_BYTES = 8, 300 * 1024 * 1024
MANY_MEMBERS = 1000


class _Zeros(io.RawIOBase):
    """`size` zero bytes, made as they are read: a 2.4 GB archive member costs no memory to write."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = min(len(buffer), self.left)
        buffer[:count] = bytes(count)
        self.left -= count
        return count


def make(kind: str, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as archive:
        if kind == "bomb":
            for number in range(BOMB_MEMBERS):
                info = tarfile.TarInfo(f"p{number}.pdf")
                info.size = BOMB_MEMBER_BYTES
                archive.addfile(info, _Zeros(info.size))
        else:
            for number in range(MANY_MEMBERS):
                data = b"%PDF-1.4\n" + os.urandom(2000)
                info = tarfile.TarInfo(f"d/p{number}.pdf")
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    print(f"{path}: {path.stat().st_size:,} bytes")


def _written() -> int:
    with open("/proc/self/io") as stats:
        return int(next(line for line in stats if line.startswith("wchar")).split()[1])


def measure(archive: Path, before: bool) -> None:
    from refhound.settings import Settings
    from refhound.triage import inputs

    archive = archive.resolve()
    opens: list[int] = []
    sys.addaudithook(
        lambda event, args: (
            opens.append(1) if event == "open" and args and str(args[0]) == str(archive) else None
        )
    )
    settings = Settings()
    if before:
        limits: Any = settings.extract.max_bytes
    else:
        from refhound.triage.run import archive_limits

        limits = archive_limits(settings)
    out = Path(tempfile.mkdtemp(prefix="bench-archives-"))
    written, started = _written(), time.perf_counter()
    found = inputs.collect([archive], out, out / "work", limits)
    seconds, written = time.perf_counter() - started, _written() - written
    errors = [paper.error for paper in found.papers if paper.error]
    print(
        f"{archive.name}: {archive.stat().st_size:,} bytes; {seconds:.2f} s; {written:,} bytes written; "
        f"{len(opens)} opens; {len(found.papers)} rows, {len(errors)} errors {errors[:1]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("make", help="write a hostile archive")
    making.add_argument("kind", choices=["bomb", "many"])
    making.add_argument("path", type=Path)
    measuring = commands.add_parser("measure", help="collect an archive as triage does, and measure it")
    measuring.add_argument("archive", type=Path)
    measuring.add_argument("--before", action="store_true", help="call collect() as before the caps")
    args = parser.parse_args()
    if args.command == "make":
        make(args.kind, args.path)
    else:
        measure(args.archive, args.before)


if __name__ == "__main__":
    main()
