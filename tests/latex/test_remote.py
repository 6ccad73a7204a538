"""`refhound check arXiv:ID` and URLs: fetched from a loopback server speaking arXiv's e-print answers
(a gzipped tarball, a gzipped single .tex, a PDF, a 404), through the address guard and the capped reader."""

from __future__ import annotations

import gzip
import io
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from refhound.errors import InputError
from refhound.inputs.project import read_latex_project
from refhound.inputs.remote import fetch_if_remote, remote_name
from refhound.settings import Settings
from tests.latex.test_scan import BIB
from tests.loopback import LoopbackServer, QuietHandler

TEX = (
    "\\documentclass{article}\n\\begin{document}\n\\citep{he2016deep}\n\\input{sec/more}\n"
    "\\bibliography{refs}\n\\end{document}\n"
)
PDF = b"%PDF-1.4\n%fake but with the header\n"


def _tarball(files: dict[str, str]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return raw.getvalue()


ANSWERS: dict[str, tuple[int, str, bytes]] = {
    "/e-print/2206.02585": (
        200,
        "application/gzip",
        _tarball({"main.tex": TEX, "sec/more.tex": "\\citet{jain2019}\n", "refs.bib": BIB}),
    ),
    "/e-print/2101.00001": (200, "application/gzip", gzip.compress(b"\\documentclass{article}\\cite{x}")),
    "/e-print/2101.00002": (200, "application/pdf", PDF),
    "/e-print/2101.00003": (200, "application/gzip", _tarball({"../evil.tex": "x", "/etc/x.tex": "y"})),
    # Past a 64 KiB archive.max_total_bytes (set by the test), though each file is under the member cap.
    "/e-print/2101.00004": (
        200,
        "application/gzip",
        _tarball({"main.tex": TEX, "big.tex": "%" * 40_000 + "\n", "bigger.tex": "%" * 40_000 + "\n"}),
    ),
    "/e-print/2101.00005": (200, "application/gzip", gzip.compress(b"%" * 100_000)),
    "/landing": (
        200,
        "text/html",
        b'<html><head><meta name="citation_pdf_url" content="{root}/paper.pdf"></head></html>',
    ),
    "/paper.pdf": (200, "application/pdf", PDF),
}


class _Handler(QuietHandler):
    def do_GET(self) -> None:
        status, kind, body = ANSWERS.get(self.path, (404, "text/plain", b"Not found"))
        body = body.replace(b"{root}", self.server.state.root.encode())
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _State:
    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.root = ""


@pytest.fixture()
def arxiv() -> Iterator[str]:
    server = LoopbackServer(_State(), _Handler, "arxiv")
    server.state.root = server.url
    try:
        yield server.url
    finally:
        server.stop()


def settings_for(root: str, allow: bool = True) -> Settings:
    settings = Settings()
    settings.check.offline = False
    settings.check.arxiv_source_url = root + "/e-print"
    settings.net.allow = ["127.0.0.1"] if allow else []
    return settings


def test_names_that_are_remote() -> None:
    assert remote_name(Path("arXiv:2206.02585")) == ("arXiv:2206.02585", "2206.02585")
    assert remote_name(Path("https://arxiv.org/abs/2206.02585v2")) == (
        "https://arxiv.org/abs/2206.02585v2",
        "2206.02585v2",
    )
    assert remote_name(Path("https://example.org/paper.pdf")) == ("https://example.org/paper.pdf", None)
    assert remote_name(Path("refs.bib")) is None


def test_an_arxiv_source_tarball_is_read_as_a_latex_project(arxiv: str) -> None:
    project = fetch_if_remote(Path("arXiv:2206.02585"), settings_for(arxiv))
    read = read_latex_project(project)
    assert [(r.id, r.cited_at) for r in read.references] == [
        ("he2016deep", ["main.tex:3"]),
        ("jain2019", ["sec/more.tex:1"]),
    ]


def test_a_single_gzipped_tex_and_a_pdf(arxiv: str) -> None:
    single = fetch_if_remote(Path("arXiv:2101.00001"), settings_for(arxiv))
    assert (single / "main.tex").read_text().startswith("\\documentclass")
    pdf = fetch_if_remote(Path("arXiv:2101.00002"), settings_for(arxiv))
    assert pdf.suffix == ".pdf" and pdf.read_bytes() == PDF


def test_a_landing_page_leads_to_its_pdf(arxiv: str) -> None:
    pdf = fetch_if_remote(Path(arxiv + "/landing"), settings_for(arxiv))
    assert pdf.read_bytes() == PDF


def test_unsafe_member_names_are_not_extracted(arxiv: str) -> None:
    with pytest.raises(InputError, match=r"holds no \.tex file"):
        fetch_if_remote(Path("arXiv:2101.00003"), settings_for(arxiv))


def test_an_archive_past_the_total_cap_is_refused_whole(arxiv: str) -> None:
    settings = settings_for(arxiv)
    settings.archive.max_total_bytes = 64 * 1024
    with pytest.raises(InputError, match=r"expands past 65536 bytes \(archive\.max_total_bytes\): refused"):
        fetch_if_remote(Path("arXiv:2101.00004"), settings)
    # A single gzipped .tex is counted by the same reader's budget.
    with pytest.raises(InputError, match=r"expands past 65536 bytes \(archive\.max_total_bytes\): refused"):
        fetch_if_remote(Path("arXiv:2101.00005"), settings)
    settings.archive.max_total_bytes = 4 * 1024**3  # the default: both read
    assert (fetch_if_remote(Path("arXiv:2101.00004"), settings) / "big.tex").is_file()
    assert (fetch_if_remote(Path("arXiv:2101.00005"), settings) / "main.tex").stat().st_size == 100_000


def test_no_such_paper_and_the_address_guard(arxiv: str) -> None:
    with pytest.raises(InputError, match=r"arXiv has no paper 2101\.99999"):
        fetch_if_remote(Path("arXiv:2101.99999"), settings_for(arxiv))
    # A URL the user gives is a document's URL: a loopback address is refused unless allowed.
    guarded = settings_for(arxiv, allow=False)
    guarded.check.arxiv_source_url = "https://arxiv.org/e-print"  # a configured endpoint would be allowed
    with pytest.raises(InputError, match=r"cannot be fetched.*loopback"):
        fetch_if_remote(Path(arxiv + "/paper.pdf"), guarded)


def test_offline_is_a_one_line_error_and_other_inputs_are_still_checked(
    tmp_path: Path, small_index: Path
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    args = ["check", "arXiv:2206.02585", str(bib), "--index", str(small_index), "--offline", "-f", "json"]
    result = CliRunner().invoke(app, args)
    assert "arXiv:2206.02585: is on the network, and --offline was given: not fetched" in result.stderr
    assert '"he2016deep"' in result.stdout
    assert result.exit_code == 3  # one input unusable, the others checked
