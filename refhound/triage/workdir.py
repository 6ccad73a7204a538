"""The run's own work folder for archive members' copies, under `DIR/.triage/work/`.

Each run works in `work/<token>/` and holds an exclusive lock on `work/<token>.lock` while it lasts. The
kernel drops the lock when the process dies, however it dies, so a folder whose lock can be taken was left
by a run killed before it could clean up (kill -9, a power cut): the next run removes it, and leaves alone
the folders of runs still going.
"""

from __future__ import annotations

import contextlib
import fcntl
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_LOCK = ".lock"


@contextmanager
def work_folder(root: Path) -> Iterator[Path]:
    """A fresh folder under `root` for this run, removed when it ends; abandoned ones are removed first."""
    root.mkdir(parents=True, exist_ok=True)
    remove_abandoned(root)
    token = secrets.token_hex(6)
    lock_path = root / f"{token}{_LOCK}"
    folder = root / token
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        folder.mkdir()
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)
            lock_path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # another run is still working in it
        root.rmdir()  # the last run out leaves no empty folder behind


def remove_abandoned(root: Path) -> None:
    """Remove what runs that died left under `root`: folders whose lock nobody holds, and anything else
    (copies an earlier version wrote straight into `root`)."""
    held: set[str] = set()
    for lock_path in sorted(root.glob(f"*{_LOCK}")):
        token = lock_path.name.removesuffix(_LOCK)
        try:
            with lock_path.open("a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                shutil.rmtree(root / token, ignore_errors=True)
                lock_path.unlink(missing_ok=True)
        except BlockingIOError:
            held.add(token)  # a run that is still going
        except FileNotFoundError:
            continue  # its run ended while we looked
    for entry in root.iterdir():
        if entry.name in held or entry.name.endswith(_LOCK):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
