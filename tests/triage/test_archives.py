"""Hostile archives: bombs past the total and ratio caps, one pass over many members, a crash's leftovers."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.inputs.archives import ArchiveLimits, ArchiveTooLarge, read_archive
from refhound.triage.inputs import collect
from refhound.triage.workdir import remove_abandoned, work_folder

PDF = b"%PDF-1.4\n% a stand-in\n"
MB = 1024 * 1024


class _Zeros(io.RawIOBase):
    """`size` bytes of a PDF header and zeros, made as they are read (no big buffer in the test)."""

    def __init__(self, size: int) -> None:
        self.left = size
        self.head = PDF

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        count = min(len(buffer), self.left)
        data = (self.head + bytes(count))[:count]
        self.head = b""
        buffer[:count] = data
        self.left -= count
        return count


def _bomb(path: Path, members: int, size: int) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for n in range(members):
            info = tarfile.TarInfo(f"p{n}.pdf")
            info.size = size
            archive.addfile(info, _Zeros(size))
    return path


def _collect(tmp_path: Path, archive: Path, limits: ArchiveLimits):  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    return collect([archive], out, out / "work", limits)


def _written(archive: Path, work: Path, limits: ArchiveLimits) -> int:
    """Bytes the reader copied before it stopped."""
    written = 0
    with pytest.raises(ArchiveTooLarge) as refused:
        for member in read_archive(archive, limits):
            copy, _ = member.copy_to(work)
            written += copy.stat().st_size
            copy.unlink()
    written += sum(part.stat().st_size for part in work.glob("*"))  # nothing half-written is left
    assert "refused" in refused.value.problem
    return written


def test_a_tar_bomb_is_refused_at_the_total_cap(tmp_path: Path) -> None:
    # Each member is under the member cap; together they are 4x the total cap.
    archive = _bomb(tmp_path / "bomb.tar.gz", members=8, size=2 * MB)
    limits = ArchiveLimits(max_member_bytes=3 * MB, max_total_bytes=4 * MB, max_ratio=10_000)
    found = _collect(tmp_path, archive, limits)
    (paper,) = found.papers  # the archive is one error row: none of its members is checked
    assert paper.paper == "bomb.tar.gz" and paper.path is None
    assert "expands past 4194304 bytes (archive.max_total_bytes): refused" in (paper.error or "")
    assert not any((tmp_path / "out" / "work").glob("*"))
    assert _written(archive, tmp_path / "w", limits) <= 4 * MB


def test_a_tar_bomb_is_refused_at_the_expansion_ratio(tmp_path: Path) -> None:
    archive = _bomb(tmp_path / "bomb.tar.gz", members=8, size=3 * MB)
    size = archive.stat().st_size
    assert size < 200 * 1024  # zeros: over 100x
    limits = ArchiveLimits(max_member_bytes=10 * MB, max_total_bytes=1024 * MB, max_ratio=20)
    found = _collect(tmp_path, archive, limits)
    (paper,) = found.papers
    assert "over 20 times its size (archive.max_ratio): refused as a decompression bomb" in (
        paper.error or ""
    )
    assert _written(archive, tmp_path / "w", limits) <= max(20 * size, MB)


def test_a_zips_members_count_toward_the_total(tmp_path: Path) -> None:
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for n in range(6):
            zipped.writestr(f"p{n}.pdf", PDF + bytes(MB))
    limits = ArchiveLimits(max_member_bytes=2 * MB, max_total_bytes=3 * MB, max_ratio=10_000)
    assert "max_total_bytes" in (_collect(tmp_path, archive, limits).papers[0].error or "")


def test_a_zip_member_with_a_bomb_ratio_is_refused_without_inflating(tmp_path: Path) -> None:
    archive = tmp_path / "z.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("bomb.pdf", PDF + bytes(5 * MB))
        zipped.writestr("ok.pdf", PDF)
    limits = ArchiveLimits(max_member_bytes=10 * MB, max_total_bytes=1024 * MB, max_ratio=100)
    rows = {p.paper: p for p in _collect(tmp_path, archive, limits).papers}
    assert "decompression bomb" in (rows["z.zip!bomb.pdf"].error or "")
    assert rows["z.zip!ok.pdf"].error is None


# --- one pass -----------------------------------------------------------------------------------------

_OPENED: list[str] = []
_WATCHING: list[bool] = [False]


def _count_opens(event: str, args: tuple[object, ...]) -> None:
    if event == "open" and _WATCHING[0] and args and isinstance(args[0], str | Path):
        _OPENED.append(str(args[0]))


sys.addaudithook(_count_opens)  # audit hooks cannot be removed: it records only while a test watches


@pytest.fixture
def opens() -> Iterator[list[str]]:
    _OPENED.clear()
    _WATCHING[0] = True
    try:
        yield _OPENED
    finally:
        _WATCHING[0] = False


def _many(path: Path, count: int) -> Path:
    if path.suffix == ".zip":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zipped:
            for n in range(count):
                zipped.writestr(f"d/p{n}.pdf", PDF + str(n).encode())
        return path
    with tarfile.open(path, "w:gz") as tarred:
        for n in range(count):
            data = PDF + str(n).encode()
            info = tarfile.TarInfo(f"d/p{n}.pdf")
            info.size = len(data)
            tarred.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize("name", ["many.tar.gz", "many.zip"])
def test_a_thousand_members_are_read_from_one_open_of_the_archive(
    tmp_path: Path, name: str, opens: list[str]
) -> None:
    archive = _many(tmp_path / name, 1000)
    opens.clear()  # writing it opened it too
    limits = ArchiveLimits(max_member_bytes=MB, max_total_bytes=100 * MB, max_ratio=100)
    found = _collect(tmp_path, archive, limits)
    assert len(found.papers) == 1000 and all(p.error is None for p in found.papers)
    assert opens.count(str(archive)) == 1


# --- the work folder ----------------------------------------------------------------------------------


def _holder(root: Path) -> subprocess.Popen[str]:
    """A process that takes a work folder, writes a copy into it, says so, and waits to be killed."""
    code = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from refhound.triage.workdir import work_folder
        with work_folder(Path({str(root)!r})) as folder:
            (folder / "copy.pdf").write_bytes(b"x" * 1000)
            print(folder, flush=True)
            time.sleep(60)
        """
    )
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)


def test_a_work_folder_left_by_a_killed_run_is_removed_and_a_live_one_kept(tmp_path: Path) -> None:
    root = tmp_path / ".triage" / "work"
    killed, alive = _holder(root), _holder(root)
    try:
        assert killed.stdout is not None and alive.stdout is not None
        left, live = Path(killed.stdout.readline().strip()), Path(alive.stdout.readline().strip())
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(10)
        (root / "0123abcd.pdf").write_bytes(b"a copy an earlier version left in the work folder itself")
        assert (left / "copy.pdf").exists()
        remove_abandoned(root)
        assert not left.exists() and not (root / "0123abcd.pdf").exists()
        assert (live / "copy.pdf").exists()  # another run still at work in the same output folder
    finally:
        for process in (alive, killed):
            process.kill()
            process.wait(10)
            if process.stdout is not None:
                process.stdout.close()


def test_the_next_triage_removes_a_crashs_leftovers_before_it_starts(tmp_path: Path) -> None:
    from refhound.triage.run import TriageOptions, run_triage

    out = tmp_path / "out"
    left = out / ".triage" / "work" / "deadbeef"
    left.mkdir(parents=True)
    (left / "copy.pdf").write_bytes(b"x" * 1000)
    (out / ".triage" / "work" / "deadbeef.lock").touch()  # its lock died with its process
    (out / ".triage" / "work" / "0123.pdf").write_bytes(b"x")  # what an earlier version left
    seen: list[list[str]] = []

    class Looking:
        def run(self, setup: object, jobs: object, on_outcome: object) -> None:
            seen.append(sorted(p.name for p in (out / ".triage" / "work").rglob("*")))

    paper = tmp_path / "refs.bib"
    paper.write_text("@article{a, title={T}, author={A, B}, year={2020}}")
    options = TriageOptions(out_dir=out, settings=_offline(), index_stats={"path": "unused"}, workers=1)
    run_triage([paper], options, Looking())  # type: ignore[arg-type]
    (during,) = seen
    assert "copy.pdf" not in during and "0123.pdf" not in during and "deadbeef" not in during
    assert not (out / ".triage" / "work").exists()


def _offline():  # type: ignore[no-untyped-def]
    from refhound.settings import Settings

    settings = Settings()
    settings.check.offline = True
    settings.memory.enabled = False
    return settings


def test_work_folders_are_the_runs_own(tmp_path: Path) -> None:
    with work_folder(tmp_path / "w") as first, work_folder(tmp_path / "w") as second:
        assert first != second and first.is_dir() and second.is_dir()
    assert not (tmp_path / "w").exists()
