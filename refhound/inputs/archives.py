"""The one reader of `.zip` and `.tar(.gz|.bz2|.xz)` archives: members listed and copied in a single pass,
every byte counted against caps.

    read_archive(path, limits) -> Iterator[Member]    members in archive order, from one open of the file
    with read_gzip(path, limits, name) as member        a plain gzip file's one file, under the same caps
    Member.copy_to(work_dir) -> (path, sha256)          the member's bytes, copied while they are counted

Headers are not trusted: a tar is decompressed here and every byte that comes out (headers and the members
passed over included) is counted, and a zip member's bytes are counted as they are inflated. An archive
whose bytes pass `max_total_bytes`, or `max_ratio` times its own size on disk (past `RATIO_FLOOR`), raises
`ArchiveTooLarge` the moment it does, so at most that many bytes are ever written. Members are never
written under their own names (`copy_to` names a copy by its digest), so neither a path-traversal name nor
a link can write outside `work_dir`; such members, encrypted ones, and members whose header already says
they are too large or too compressed, come with a `problem` instead and are not read.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import lzma
import os
import shutil
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Protocol

from refhound.errors import InputError

SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
#: The expansion ratio is judged only past this many bytes: a tiny archive of text may well be 20x or more.
RATIO_FLOOR = 1024 * 1024
_CHUNK = 1024 * 1024
# What the archive libraries raise on a damaged file (gzip's BadGzipFile and bz2's errors are OSErrors).
READ_ERRORS = (zipfile.BadZipFile, tarfile.TarError, lzma.LZMAError, OSError, EOFError, ValueError)


@dataclass(frozen=True)
class ArchiveLimits:
    max_member_bytes: int  # one member, uncompressed
    max_total_bytes: int  # everything the archive expands to
    max_ratio: float  # expanded bytes per byte of the archive on disk (and per packed byte of a zip member)


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class ArchiveTooLarge(InputError):
    """The archive expands past a cap: it is refused whole (a decompression bomb, or simply too big)."""


def is_archive(name: str) -> bool:
    return name.lower().endswith(SUFFIXES)


class _Budget:
    """Counts the bytes an archive expands to and stops it at the first cap it passes."""

    def __init__(self, path: Path, limits: ArchiveLimits) -> None:
        self.path = path
        self.limits = limits
        self.packed = max(path.stat().st_size, 1)
        self.used = 0

    def spend(self, count: int) -> None:
        self.used += count
        if self.used > self.limits.max_total_bytes:
            raise ArchiveTooLarge(
                self.path,
                f"archive expands past {self.limits.max_total_bytes} bytes "
                "(archive.max_total_bytes): refused",
            )
        if self.used > RATIO_FLOOR and self.used > self.limits.max_ratio * self.packed:
            raise ArchiveTooLarge(
                self.path,
                f"archive of {self.packed} bytes expands past {self.used} bytes, "
                f"over {self.limits.max_ratio:g} times its size (archive.max_ratio): "
                "refused as a decompression bomb",
            )


class _Counted:
    """A readable stream whose every byte is charged to the archive's budget as it is read."""

    def __init__(self, stream: _Readable, budget: _Budget) -> None:
        self._stream = stream
        self._budget = budget

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size if size >= 0 else _CHUNK)  # never a whole bomb in one read
        self._budget.spend(len(data))
        return data


@dataclass
class Member:
    """One archive entry. Its bytes can be copied only while the iteration stands on it."""

    name: str
    size: int  # as the header says; the copy counts the real bytes
    problem: str | None = None  # why it is not read (unsafe name, link, encrypted, too large)
    stream: _Readable | None = None
    cap: int = 0  # bytes a copy may take at most

    def copy_to(self, work_dir: Path) -> tuple[Path, str]:
        """Copy the bytes to `work_dir/<sha256><suffix>`; more than the member cap raises ValueError."""
        if self.stream is None or self.problem is not None:
            raise ValueError(self.problem or "not a regular file")
        work_dir.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256()
        size = 0
        handle, temporary = tempfile.mkstemp(dir=work_dir, suffix=".part")
        try:
            with os.fdopen(handle, "wb") as out:
                while chunk := self.stream.read(_CHUNK):
                    size += len(chunk)
                    if size > self.cap:
                        raise ValueError(f"expands past the {self.cap}-byte limit (a decompression bomb?)")
                    digest.update(chunk)
                    out.write(chunk)
            suffix = PurePosixPath(self.name).suffix
            final = work_dir / f"{digest.hexdigest()}{suffix.lower() if suffix.isascii() else ''}"
            shutil.move(temporary, final)
            return final, digest.hexdigest()
        finally:
            Path(temporary).unlink(missing_ok=True)


def read_archive(path: Path, limits: ArchiveLimits) -> Iterator[Member]:
    """The members of the archive at `path`, files only, in archive order, from one open of it.

    Raises `ArchiveTooLarge` (from the iteration or a copy) when the archive passes a cap, and one of
    `READ_ERRORS` when it is damaged."""
    budget = _Budget(path, limits)
    with path.open("rb") as raw:
        if path.name.lower().endswith(".zip"):
            yield from _zip_members(raw, budget)
        else:
            yield from _tar_members(raw, budget)


@contextmanager
def read_gzip(path: Path, limits: ArchiveLimits, name: str) -> Iterator[Member]:
    """The one file a gzip file holds (a gzipped `.tex`, not a tarball), as a `Member` called `name`: a gzip
    header declares no trustworthy size, so its bytes are counted as they are inflated, against the total and
    ratio caps and the member cap, as a tarball's are. Errors as `read_archive`'s."""
    budget = _Budget(path, limits)
    with path.open("rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as stream:
        yield Member(name, 0, None, _Counted(stream, budget), limits.max_member_bytes)


def _declared_problem(size: int, packed: int | None, limits: ArchiveLimits) -> str | None:
    if size > limits.max_member_bytes:
        return f"{size} bytes uncompressed, over the {limits.max_member_bytes} limit"
    if packed is not None and size > RATIO_FLOOR and size > limits.max_ratio * max(packed, 1):
        return f"expands {size // max(packed, 1)}× ({size} bytes): refused as a decompression bomb"
    return None


def _zip_members(raw: BinaryIO, budget: _Budget) -> Iterator[Member]:
    with zipfile.ZipFile(raw) as zipped:
        for info in zipped.infolist():
            if info.is_dir():
                continue
            problem = (
                unsafe_name(info.filename)
                or ("is encrypted (needs a password)" if info.flag_bits & 0x1 else None)
                or _declared_problem(info.file_size, info.compress_size, budget.limits)
            )
            if problem is not None:
                yield Member(info.filename, info.file_size, problem)
                continue
            with zipped.open(info) as stream:
                cap = budget.limits.max_member_bytes
                yield Member(info.filename, info.file_size, None, _Counted(stream, budget), cap)


def _decompressed(raw: BinaryIO) -> _Readable:
    """The tar stream inside `raw`, by the compression its first bytes name (plain tar otherwise)."""
    head = raw.read(6)
    raw.seek(0)
    if head.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if head.startswith(b"BZh"):
        return bz2.BZ2File(raw, mode="rb")
    if head.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMAFile(raw, mode="rb")
    return raw


def _tar_members(raw: BinaryIO, budget: _Budget) -> Iterator[Member]:
    counted = _Counted(_decompressed(raw), budget)
    # Stream mode ("r|"): members are read in order, each once; nothing seeks back to re-read the archive.
    with tarfile.open(fileobj=counted, mode="r|") as tarred:  # type: ignore[call-overload]
        for info in tarred:
            if info.isdir():
                continue
            problem = unsafe_name(info.name) or (
                None if info.isreg() else "is a link or special file (not read)"
            )
            problem = problem or _declared_problem(info.size, None, budget.limits)
            stream = tarred.extractfile(info) if problem is None else None
            if stream is None:
                yield Member(info.name, info.size, problem or "not a regular file")
                continue
            # Its bytes are charged as the tar stream under it is read: counted once, not twice.
            yield Member(info.name, info.size, None, stream, budget.limits.max_member_bytes)


def unsafe_name(name: str) -> str | None:
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if name.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
        return "has an unsafe path (absolute or with '..'): not extracted"
    return None
