"""Screenshots of the triage dashboard, the HTML report and the web page at 1,280 px, for the docs.

    python scripts/screenshots.py [--out docs/screenshots]

Offline, on the embedded default index (built on first use), in scratch XDG folders so that no user's
memory or cache is read or written. The dashboard triages three reference lists made from
`examples/sample.bib` (the sample itself, its first half, and the sample with one more invented entry);
the report and the page check `examples/sample.bib`. Needs Debian's /usr/bin/chromium and Playwright.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT = 1280, 900
INVENTED = """
@inproceedings{park2020graph,
  title = {Graph Contrastive Pretraining for Multilingual Citation Retrieval},
  author = {Park, Min-Jun and Ortega, Lucia},
  booktitle = {Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics},
  year = {2020}
}
"""


def _refhound(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refhound", *args], env=env, text=True, capture_output=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _papers(folder: Path) -> Path:
    sample = (ROOT / "examples" / "sample.bib").read_text(encoding="utf-8")
    entries = sample.split("\n@")
    folder.mkdir(parents=True)
    (folder / "sample.bib").write_text(sample, encoding="utf-8")
    (folder / "first-half.bib").write_text("\n@".join(entries[: len(entries) // 2]), encoding="utf-8")
    (folder / "with-an-invention.bib").write_text(sample + INVENTED, encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="refhound-shots-"))
    env = dict(
        os.environ,
        XDG_DATA_HOME=os.environ.get("XDG_DATA_HOME", str(scratch / "data")),
        XDG_CACHE_HOME=str(scratch / "cache"),
        REFHOUND_MEMORY__ENABLED="false",
        REFHOUND_CONFIG=str(scratch / "none.toml"),
    )
    triage = _refhound("triage", str(_papers(scratch / "papers")), "--out", str(scratch / "triage"),
                       "--offline", "--workers", "1", env=env)  # fmt: skip
    if triage.returncode not in (0, 1):
        raise SystemExit(triage.stderr)
    report = scratch / "report.html"
    checked = _refhound(
        "check", "--offline", str(ROOT / "examples" / "sample.bib"), "-o", str(report), env=env
    )
    if checked.returncode not in (0, 1):
        raise SystemExit(checked.stderr)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "refhound", "serve", "--offline", "--port", str(port), "--no-log"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            page.goto((scratch / "triage" / "index.html").as_uri())
            page.screenshot(path=str(args.out / "dashboard.png"), full_page=True)
            page.goto(report.as_uri())
            page.screenshot(path=str(args.out / "report.png"))
            for _ in range(120):  # the server opens its index
                try:
                    page.goto(f"http://127.0.0.1:{port}/")
                    break
                except Exception:  # not listening yet
                    time.sleep(0.5)
            page.set_input_files("#files", str(ROOT / "examples" / "sample.bib"))
            page.click("#check")
            page.wait_for_selector("#downloads:not([hidden])", timeout=120_000)
            page.screenshot(path=str(args.out / "page.png"), full_page=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    for name in ("dashboard", "report", "page"):
        print(args.out / f"{name}.png")


if __name__ == "__main__":
    main()
