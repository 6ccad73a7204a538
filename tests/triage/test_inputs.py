"""Collecting the papers of a triage: folders, archives and every kind of bad input, safely."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

from refhound.inputs.archives import ArchiveLimits
from refhound.triage.inputs import collect

PDF = b"%PDF-1.4\n% a tiny stand-in: collect reads bytes, it does not parse them\n"
LIMITS = ArchiveLimits(max_member_bytes=10 * 1024 * 1024, max_total_bytes=100 * 1024 * 1024, max_ratio=200)


def _collect(tmp_path: Path, *paths: Path):  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    return collect(list(paths), out, out / ".triage" / "work", LIMITS)


def test_a_folder_is_searched_recursively_and_names_are_relative(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    (subs / "a").mkdir(parents=True)
    (subs / "b" / "c").mkdir(parents=True)
    (subs / "a" / "paper.pdf").write_bytes(PDF)
    (subs / "b" / "c" / "paper.pdf").write_bytes(PDF + b"x")  # same name, another folder
    (subs / "refs.bib").write_text("@article{a, title={T}, author={A, B}, year={2020}}")
    (subs / "notes.md").write_text("not a paper")
    found = _collect(tmp_path, subs)
    assert [p.paper for p in found.papers] == ["a/paper.pdf", "b/c/paper.pdf", "refs.bib"]
    assert [p.kind for p in found.papers] == ["pdf", "pdf", "list"]
    assert len({p.origin for p in found.papers}) == 3
    assert found.skipped == {"notes.md": "not a PDF, an archive or a reference list"}


def test_the_output_folder_inside_an_input_folder_is_passed_over(tmp_path: Path) -> None:
    (tmp_path / "p.pdf").write_bytes(PDF)
    (tmp_path / "out" / "papers").mkdir(parents=True)
    (tmp_path / "out" / "papers" / "old.pdf").write_bytes(PDF)
    found = _collect(tmp_path, tmp_path)
    assert [p.paper for p in found.papers] == ["p.pdf"]


def test_missing_and_unsupported_explicit_paths_are_error_rows(tmp_path: Path) -> None:
    other = tmp_path / "image.png"
    other.write_bytes(b"\x89PNG")
    found = _collect(tmp_path, tmp_path / "nope.pdf", other)
    assert [(p.paper, p.error) for p in found.papers] == [
        ("nope.pdf", "no such file or folder"),
        ("image.png", "not a PDF, an archive or a reference list (.bib, .bbl, .txt)"),
    ]


def test_same_relative_name_under_two_paths_is_told_apart(tmp_path: Path) -> None:
    for name in ("x", "y"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "p.pdf").write_bytes(PDF + name.encode())
    found = _collect(tmp_path, tmp_path / "x", tmp_path / "y")
    names = [p.paper for p in found.papers]
    assert len(set(names)) == 2 and all(name.endswith("p.pdf") for name in names)


def _zip(path: Path, members: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def test_a_zip_with_nested_folders_traversal_and_non_pdf_members(tmp_path: Path) -> None:
    archive = _zip(
        tmp_path / "subs.zip",
        {
            "track1/deep/p1.pdf": PDF,
            "track2/p2.pdf": PDF + b"2",
            "readme.txt.orig": b"hello",
            "../../x.pdf": PDF,
            "/etc/evil.pdf": PDF,
            "inner.zip": b"PK",
        },
    )
    found = _collect(tmp_path, archive)
    rows = {p.paper: p for p in found.papers}
    assert rows["subs.zip!track1/deep/p1.pdf"].error is None
    assert rows["subs.zip!track2/p2.pdf"].error is None
    assert "unsafe path" in (rows["subs.zip!../../x.pdf"].error or "")
    assert "unsafe path" in (rows["subs.zip!/etc/evil.pdf"].error or "")
    assert found.skipped["subs.zip!inner.zip"] == "a nested archive (not opened)"
    assert "subs.zip!readme.txt.orig" in found.skipped
    # Nothing was written outside the work folder, and copies are named by their digest.
    assert not (tmp_path.parent / "x.pdf").exists() and not (tmp_path / "x.pdf").exists()
    work = tmp_path / "out" / ".triage" / "work"
    copied = rows["subs.zip!track1/deep/p1.pdf"].path
    assert copied is not None and copied.parent == work and copied.name.startswith(copied.name[:64])
    assert copied.read_bytes() == PDF


def test_a_zip_bomb_is_refused_without_inflating_it(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "bomb.zip", {"bomb.pdf": PDF + b"\0" * (5 * 1024 * 1024)})
    assert archive.stat().st_size < 20 * 1024  # within the size limit, but 1000× inflated
    found = _collect(tmp_path, archive)
    (paper,) = found.papers
    assert paper.error is not None and "decompression bomb" in paper.error
    assert not (tmp_path / "out" / ".triage" / "work").exists() or not any(
        (tmp_path / "out" / ".triage" / "work").iterdir()
    )


def test_a_member_larger_than_the_limit_is_refused(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "big.zip", {"big.pdf": PDF + b"x" * 2048}, compression=zipfile.ZIP_STORED)
    out = tmp_path / "out"
    found = collect([archive], out, out / "work", ArchiveLimits(1024, 100 * 1024 * 1024, 200))
    assert "over the 1024 limit" in (found.papers[0].error or "")


def test_corrupt_archive_and_encrypted_member(tmp_path: Path) -> None:
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    encrypted = _zip(tmp_path / "locked.zip", {"p.pdf": PDF})
    data = bytearray(encrypted.read_bytes())
    # Set the "encrypted" flag bit in the local and central headers, as a password-protected zip has it.
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(signature)
        data[at + offset] |= 0x1
    encrypted.write_bytes(bytes(data))
    found = _collect(tmp_path, broken, encrypted)
    errors = {p.paper: p.error for p in found.papers}
    assert (errors["broken.zip"] or "").startswith("unreadable archive")
    assert "encrypted" in (errors["locked.zip!p.pdf"] or "")


def test_a_tar_gz_of_pdfs_with_a_link_member(tmp_path: Path) -> None:
    path = tmp_path / "subs.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        info = tarfile.TarInfo("dir/p.pdf")
        info.size = len(PDF)
        archive.addfile(info, io.BytesIO(PDF))
        link = tarfile.TarInfo("dir/link.pdf")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        archive.addfile(link)
    found = _collect(tmp_path, path)
    rows = {p.paper: p for p in found.papers}
    assert rows["subs.tar.gz!dir/p.pdf"].error is None
    assert rows["subs.tar.gz!dir/p.pdf"].path is not None
    assert "link or special file" in (rows["subs.tar.gz!dir/link.pdf"].error or "")
