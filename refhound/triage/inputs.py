"""The papers of a triage: PDFs, folders (recursive), `.zip` / `.tar(.gz)` archives, reference lists.

Each paper gets a display name relative to the PATH it came from (`sub/paper.pdf`, an archive member as
`archive.zip!dir/paper.pdf`) and the SHA-256 of its bytes. Archive members are never written under their own
names: a member is copied, with its size capped while it is read, to `work_dir/<digest><suffix>`, so neither
a path-traversal name (`../../x.pdf`) nor a zip bomb can write outside the run's folder or fill the disk.
Anything unusable becomes a paper with an `error` (one line naming the problem); files a folder or archive
holds that are neither PDFs nor reference lists are listed as skipped, with the reason.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Literal

Kind = Literal["pdf", "list"]
LIST_SUFFIXES = frozenset({".bib", ".bbl", ".txt"})
_ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz")
_PDF_MAGIC = b"%PDF-"
#: A member that inflates more than this many times over its compressed size, past `_BOMB_FLOOR`, is
#: refused as a decompression bomb (text PDFs compress 2–10×; bombs compress 1000×).
_MAX_RATIO = 200
_BOMB_FLOOR = 1024 * 1024
_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class Paper:
    """One submission to check, or a row explaining why it cannot be."""

    paper: str  # the display name: relative to its PATH, an archive member as `archive.zip!member`
    origin: str  # where it is, unambiguously (absolute path, `!member`): what its output names derive from
    path: Path | None = None  # the bytes to read (an archive member's copy in the work folder)
    kind: Kind = "pdf"
    digest: str = ""  # SHA-256 of the bytes
    error: str | None = None


@dataclass
class Collected:
    """The papers found under the PATHs, and the files passed over (display name → reason)."""

    papers: list[Paper] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)


def _kind_of(name: str) -> Kind | None:
    suffix = PurePosixPath(name).suffix.lower()
    if suffix == ".pdf":
        return "pdf"
    return "list" if suffix in LIST_SUFFIXES else None


def _is_archive(name: str) -> bool:
    return name.lower().endswith(_ARCHIVE_SUFFIXES)


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _starts_as_pdf(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(1024).lstrip().startswith(_PDF_MAGIC)
    except OSError:
        return False


def collect(paths: list[Path], out_dir: Path, work_dir: Path, max_bytes: int) -> Collected:
    """Every paper under `paths`, in a stable order; archive members are copied into `work_dir`.
    `out_dir` (the run's outputs) is passed over when an input folder holds it."""
    found = Collected()
    for given in paths:
        if given.is_dir():
            _collect_folder(given, out_dir.resolve(), work_dir, max_bytes, found)
        else:
            _collect_file(given, given.name, work_dir, max_bytes, found, explicit=True)
    _disambiguate(found.papers)
    return found


def _collect_folder(folder: Path, out_dir: Path, work_dir: Path, max_bytes: int, found: Collected) -> None:
    files: list[tuple[str, Path]] = []
    for root, dirs, names in os.walk(folder, followlinks=False):
        here = Path(root)
        if here.resolve() == out_dir:
            dirs.clear()  # the run's own output folder inside an input folder: not a submission
            continue
        files += [((here / name).relative_to(folder).as_posix(), here / name) for name in names]
    for relative, path in sorted(files):
        _collect_file(path, relative, work_dir, max_bytes, found, explicit=False)


def _collect_file(
    path: Path, name: str, work_dir: Path, max_bytes: int, found: Collected, *, explicit: bool
) -> None:
    origin = str(path.absolute())
    if not path.exists():
        found.papers.append(Paper(name, origin, error="no such file or folder"))
        return
    if path.is_symlink() and not explicit:
        found.skipped[name] = "a symbolic link (not followed inside a folder)"
        return
    if _is_archive(path.name):
        _collect_archive(path, name, work_dir, max_bytes, found)
        return
    kind = _kind_of(path.name) or ("pdf" if _starts_as_pdf(path) else None)
    if kind is None:
        if explicit:
            found.papers.append(
                Paper(name, origin, error="not a PDF, an archive or a reference list (.bib, .bbl, .txt)")
            )
        else:
            found.skipped[name] = "not a PDF, an archive or a reference list"
        return
    try:
        size = path.stat().st_size
        if size > max_bytes:
            found.papers.append(
                Paper(name, origin, error=f"file is {size} bytes, over the {max_bytes} limit")
            )
            return
        digest = file_digest(path)
    except OSError as error:
        found.papers.append(Paper(name, origin, error=f"cannot be read ({error.strerror or error})"))
        return
    found.papers.append(Paper(name, origin, path, kind, digest))


def _collect_archive(archive: Path, name: str, work_dir: Path, max_bytes: int, found: Collected) -> None:
    origin = str(archive.absolute())
    try:
        if archive.name.lower().endswith(".zip"):
            members = list(_zip_members(archive))
        else:
            members = list(_tar_members(archive))
    except (zipfile.BadZipFile, tarfile.TarError, OSError, EOFError, ValueError) as error:
        found.papers.append(Paper(name, origin, error=f"unreadable archive ({error})"))
        return
    for member in members:
        display, member_origin = f"{name}!{member.name}", f"{origin}!{member.name}"
        kind = _kind_of(member.name)
        if member.problem is None and kind is None:
            why = (
                "a nested archive (not opened)" if _is_archive(member.name) else "not a PDF or reference list"
            )
            found.skipped[display] = why
            continue
        problem = member.problem or _unsafe_name(member.name)
        if problem is None and member.size > max_bytes:
            problem = f"{member.size} bytes uncompressed, over the {max_bytes} limit"
        if problem is None and member.size > _BOMB_FLOOR and member.size > _MAX_RATIO * max(member.packed, 1):
            problem = (
                f"expands {member.size // max(member.packed, 1)}× ({member.size} bytes): "
                "refused as a decompression bomb"
            )
        if problem is not None:
            found.papers.append(Paper(display, member_origin, error=f"archive member {problem}"))
            continue
        try:
            copy, digest = _copy_capped(member.open(), work_dir, PurePosixPath(member.name).suffix, max_bytes)
        except (zipfile.BadZipFile, tarfile.TarError, OSError, EOFError, RuntimeError, ValueError) as error:
            found.papers.append(Paper(display, member_origin, error=f"archive member unreadable ({error})"))
            continue
        found.papers.append(Paper(display, member_origin, copy, kind or "pdf", digest))


@dataclass
class _Member:
    name: str
    size: int
    packed: int
    opener: object
    problem: str | None = None

    def open(self) -> IO[bytes]:
        return self.opener()  # type: ignore[operator,no-any-return]


def _zip_members(archive: Path) -> Iterator[_Member]:
    with zipfile.ZipFile(archive) as zipped:
        infos = [info for info in zipped.infolist() if not info.is_dir()]
    for info in infos:
        problem = "is encrypted (needs a password)" if info.flag_bits & 0x1 else None

        def opener(info: zipfile.ZipInfo = info) -> IO[bytes]:
            zipped = zipfile.ZipFile(archive)  # closed with the member's stream (see _copy_capped)
            stream = zipped.open(info)
            stream._refhound_archive = zipped  # type: ignore[attr-defined]
            return stream

        yield _Member(info.filename, info.file_size, info.compress_size, opener, problem)


def _tar_members(archive: Path) -> Iterator[_Member]:
    with tarfile.open(archive) as tarred:
        infos = tarred.getmembers()
    for info in infos:
        if info.isdir():
            continue
        problem = None if info.isreg() else "is a link or special file (not read)"

        def opener(info: tarfile.TarInfo = info) -> IO[bytes]:
            tarred = tarfile.open(archive)  # noqa: SIM115 - closed with the member's stream
            stream = tarred.extractfile(info.name)
            if stream is None:
                tarred.close()
                raise ValueError("not a regular file")
            stream._refhound_archive = tarred  # type: ignore[attr-defined]
            return stream

        # A tar member's size is its real size: there is no per-member compression ratio to check.
        yield _Member(info.name, info.size, info.size, opener, problem)


def _unsafe_name(name: str) -> str | None:
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if name.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
        return "has an unsafe path (absolute or with '..'): not extracted"
    return None


def _copy_capped(stream: IO[bytes], work_dir: Path, suffix: str, max_bytes: int) -> tuple[Path, str]:
    """Copy a member's bytes to the work folder, refusing more than `max_bytes` whatever its header says."""
    work_dir.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    size = 0
    owner = getattr(stream, "_refhound_archive", None)
    handle, temporary = tempfile.mkstemp(dir=work_dir, suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out, stream:
            while chunk := stream.read(_CHUNK):
                size += len(chunk)
                if size > max_bytes:
                    raise ValueError(f"expands past the {max_bytes}-byte limit (a decompression bomb?)")
                digest.update(chunk)
                out.write(chunk)
        final = work_dir / f"{digest.hexdigest()}{suffix.lower() if suffix.isascii() else ''}"
        shutil.move(temporary, final)
        return final, digest.hexdigest()
    finally:
        if owner is not None:
            owner.close()
        Path(temporary).unlink(missing_ok=True)


def _disambiguate(papers: list[Paper]) -> None:
    """Two PATHs may hold the same relative name: those papers are named by their full origin instead."""
    seen: dict[str, int] = {}
    for paper in papers:
        seen[paper.paper] = seen.get(paper.paper, 0) + 1
    for index, paper in enumerate(papers):
        if seen[paper.paper] > 1:
            papers[index] = Paper(
                paper.origin, paper.origin, paper.path, paper.kind, paper.digest, paper.error
            )
