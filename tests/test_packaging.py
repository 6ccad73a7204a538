"""The wheel installs one import name, `refhound`, with agents/sop/memory/benchmark mapped beneath it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_has_only_the_refhound_top_level(tmp_path: Path) -> None:
    # Build from a copy: setuptools leaves a build/ directory behind, which must not pollute the checkout.
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
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert top_level == {"refhound"}
    for module in ("agents/judge.py", "sop/runner.py", "index/store.py", "normalize/titles.py", "py.typed"):
        assert f"refhound/{module}" in names
    # The fact table of published counts ships too: without it no list is ever proven complete.
    table = zipfile.ZipFile(wheel).read("refhound/index/data/accepted_papers.tsv").decode()
    assert table == (ROOT / "refhound" / "index" / "data" / "accepted_papers.tsv").read_text()
    assert not any(n.startswith(("agents/", "sop/", "memory/", "benchmark/")) for n in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: AGPL-3.0-or-later" in text


def test_mapped_subpackages_import_under_refhound() -> None:
    import refhound.agents.judge
    import refhound.sop.runner

    assert Path(refhound.agents.judge.__file__).parent.name == "agents"
    assert Path(refhound.sop.runner.__file__).parent.name == "sop"
