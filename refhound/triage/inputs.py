"""The papers of a triage: PDFs, folders (recursive), `.zip` / `.tar(.gz)` archives, reference lists.

Each paper gets a display name relative to the PATH it came from (`sub/paper.pdf`, an archive member as
`archive.zip!dir/paper.pdf`) and the SHA-256 of its bytes. Archives are read by `refhound.inputs.archives`
in one pass, every byte counted: a member is copied to `work_dir/<digest><suffix>`, so neither a
path-traversal name (`../../x.pdf`) nor a bomb can write outside the run's folder or past the caps.
Anything unusable becomes a paper with an `error` (one line naming the problem); files a folder or archive
holds that are neither PDFs nor reference lists are listed as skipped, with the reason.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

from refhound.inputs.archives import READ_ERRORS, ArchiveLimits, ArchiveTooLarge, is_archive, read_archive

Kind = Literal["pdf", "list"]
LIST_SUFFIXES = frozenset({".bib", ".bbl", ".txt"})
_PDF_MAGIC = b"%PDF-"
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


def collect(paths: list[Path], out_dir: Path, work_dir: Path, limits: ArchiveLimits) -> Collected:
    """Every paper under `paths`, in a stable order; archive members are copied into `work_dir`.
    `out_dir` (the run's outputs) is passed over when an input folder holds it. A file, like an archive
    member, is refused past `limits.max_member_bytes`."""
    found = Collected()
    for given in paths:
        if given.is_dir():
            _collect_folder(given, out_dir.resolve(), work_dir, limits, found)
        else:
            _collect_file(given, given.name, work_dir, limits, found, explicit=True)
    _disambiguate(found.papers)
    return found


def _collect_folder(
    folder: Path, out_dir: Path, work_dir: Path, limits: ArchiveLimits, found: Collected
) -> None:
    files: list[tuple[str, Path]] = []
    for root, dirs, names in os.walk(folder, followlinks=False):
        here = Path(root)
        if here.resolve() == out_dir:
            dirs.clear()  # the run's own output folder inside an input folder: not a submission
            continue
        files += [((here / name).relative_to(folder).as_posix(), here / name) for name in names]
    for relative, path in sorted(files):
        _collect_file(path, relative, work_dir, limits, found, explicit=False)


def _collect_file(
    path: Path, name: str, work_dir: Path, limits: ArchiveLimits, found: Collected, *, explicit: bool
) -> None:
    origin = str(path.absolute())
    if not path.exists():
        found.papers.append(Paper(name, origin, error="no such file or folder"))
        return
    if path.is_symlink() and not explicit:
        found.skipped[name] = "a symbolic link (not followed inside a folder)"
        return
    if is_archive(path.name):
        _collect_archive(path, name, work_dir, limits, found)
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
    max_bytes = limits.max_member_bytes
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


def _collect_archive(
    archive: Path, name: str, work_dir: Path, limits: ArchiveLimits, found: Collected
) -> None:
    """The archive's members as papers; an archive that passes a cap is one error row, nothing of it kept."""
    origin = str(archive.absolute())
    papers: list[Paper] = []
    skipped: dict[str, str] = {}
    try:
        for member in read_archive(archive, limits):
            display, member_origin = f"{name}!{member.name}", f"{origin}!{member.name}"
            kind = _kind_of(member.name)
            if member.problem is None and kind is None:
                why = (
                    "a nested archive (not opened)"
                    if is_archive(member.name)
                    else "not a PDF or reference list"
                )
                skipped[display] = why
                continue
            if member.problem is not None:
                papers.append(Paper(display, member_origin, error=f"archive member {member.problem}"))
                continue
            try:
                copy, digest = member.copy_to(work_dir)
            except READ_ERRORS as error:  # this member only (a zip's other members are still read)
                papers.append(Paper(display, member_origin, error=f"archive member unreadable ({error})"))
                continue
            papers.append(Paper(display, member_origin, copy, kind or "pdf", digest))
    except ArchiveTooLarge as error:
        kept = {paper.path for paper in found.papers}
        for paper in papers:  # the copies made before the cap was passed (a copy another paper shares stays)
            if paper.path is not None and paper.path not in kept:
                paper.path.unlink(missing_ok=True)
        found.papers.append(Paper(name, origin, error=error.problem))
        return
    except READ_ERRORS as error:
        if papers or skipped:  # broken part way: what was read stays, the rest is one error row
            found.papers += papers
            found.skipped.update(skipped)
        found.papers.append(Paper(name, origin, error=f"unreadable archive ({error})"))
        return
    found.papers += papers
    found.skipped.update(skipped)


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
