"""The fact table of published counts ships in the wheel: without it no list is ever proven complete."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_wheel_carries_the_accepted_papers_table(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".git", ".venv", "bench-out", "build", "*.egg-info", "__pycache__"),
    )
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("refhound-*.whl")
    table = zipfile.ZipFile(wheel).read("refhound/index/data/accepted_papers.tsv").decode()
    assert table == (ROOT / "refhound" / "index" / "data" / "accepted_papers.tsv").read_text()
