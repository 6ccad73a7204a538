"""Inputs named by an arXiv id or a URL: fetched, then read as the file or LaTeX project they are.

    fetch_if_remote(path, settings) -> Path     a local input as it is; `arXiv:ID` or a URL downloaded

`arXiv:2206.02585` (or an arxiv.org abs/pdf/e-print URL) asks arXiv for the paper's source
(`check.arxiv_source_url`): a tarball of the LaTeX project (exact references, from its `.bib` or `.bbl`),
a single gzipped `.tex`, or the PDF when the authors gave no source. Any other URL may answer with a PDF,
an archive of a LaTeX project, or a landing page that declares its PDF (`citation_pdf_url`).

Every request goes through the shared client and its address guard (no loopback or private address unless
allowed), and every archive through the capped reader (`refhound.inputs.archives`). Offline, or when the
fetch fails, the input is a one-line `InputError`: the other inputs are still checked.
"""

from __future__ import annotations

import asyncio
import atexit
import gzip
import io
import re
import shutil
import tempfile
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from refhound.errors import InputError, Unreachable
from refhound.inputs.archives import READ_ERRORS, ArchiveLimits, read_archive, read_gzip
from refhound.normalize.identifiers import normalize_arxiv_id
from refhound.settings import Settings

if TYPE_CHECKING:
    from refhound.net.http import Fetched

_ARXIV_NAME = re.compile(r"^arxiv:\s*(\S+)$", re.IGNORECASE)
_ARXIV_URL = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|e-print|src|html)/(.+?)(?:\.pdf)?/?$", re.IGNORECASE
)
# A URL given as a command-line Path lost one slash of "https://".
_SQUASHED_SCHEME = re.compile(r"^(https?):/+(?=[^/])", re.IGNORECASE)
_PROJECT_SUFFIXES = {".tex", ".ltx", ".latex", ".bib", ".bbl", ".bibtex"}
_GZIP, _ZIP = b"\x1f\x8b", b"PK\x03\x04"


def remote_name(path: Path) -> tuple[str, str | None] | None:
    """(the URL or `arXiv:ID` as the user meant it, its arXiv id if any), or None for a local input."""
    text = _SQUASHED_SCHEME.sub(lambda m: f"{m.group(1)}://", str(path))
    if (named := _ARXIV_NAME.match(text)) or (named := _ARXIV_URL.match(text)):
        given = named.group(1)
        ident = normalize_arxiv_id(given)
        version = re.search(r"v\d+$", given)  # a version asked for is the version fetched
        return text, (ident + version.group(0) if ident and version else ident)
    if text.lower().startswith(("http://", "https://")):
        return text, None
    return None


def fetch_if_remote(path: Path, settings: Settings) -> Path:
    """`path` when it is a local input; else the downloaded PDF or LaTeX project folder it names."""
    named = remote_name(path)
    if named is None or path.exists():
        return path
    text, arxiv_id = named
    if _ARXIV_NAME.match(text) and arxiv_id is None:
        raise InputError(text, "not an arXiv identifier")
    if settings.check.offline:
        raise InputError(text, "is on the network, and --offline was given: not fetched")
    from refhound.quotes.textof import html_pdf_link, looks_like_html  # the network's modules, only now

    url = f"{settings.check.arxiv_source_url.rstrip('/')}/{arxiv_id}" if arxiv_id else text
    fetched = asyncio.run(_download(url, settings, arxiv=arxiv_id is not None))
    if fetched is None:
        raise InputError(text, f"arXiv has no paper {arxiv_id}")
    work = _work_dir(arxiv_id or "url")
    if not arxiv_id and looks_like_html(fetched.body, fetched.content_type):
        link = html_pdf_link(fetched.body, fetched.content_type)
        if not link or not link.lower().startswith(("http://", "https://")):
            raise InputError(text, "is a web page that declares no PDF; give the PDF's or the source's URL")
        fetched = asyncio.run(_download(link, settings, arxiv=False))
        assert fetched is not None  # `missing` is only given for arXiv
    return _unpacked(text, fetched, work, settings)


async def _download(url: str, settings: Settings, arxiv: bool) -> Fetched | None:
    from refhound.net.http import HttpPool, Policy, make_client

    policy = Policy(
        rate_per_s=1.0,
        concurrency=1,
        timeout_s=60.0,
        retries=2,
        backoff_s=1.0,
        max_wait_s=30.0,
        max_bytes=settings.check.max_input_bytes,
    )
    pool = HttpPool(make_client(settings))
    try:
        # arXiv's 404 is its "no such paper"; any other site's says nothing we could act on.
        missing = (lambda fetched: True) if arxiv else None
        return await pool.service("input", policy).get(url, missing=missing)
    except Unreachable as error:
        raise InputError(url, f"cannot be fetched: {str(error).removeprefix(error.source + ': ')}") from None
    finally:
        await pool.aclose()


def _work_dir(name: str) -> Path:
    """A folder for this run's downloads, removed when the process ends."""
    folder = Path(tempfile.mkdtemp(prefix="refhound-input-"))
    atexit.register(shutil.rmtree, folder, True)
    work = folder / re.sub(r"[^\w.-]", "-", name)
    work.mkdir()
    return work


def _unpacked(text: str, fetched: Fetched, work: Path, settings: Settings) -> Path:
    from refhound.quotes.textof import looks_like_pdf

    body = fetched.body
    if looks_like_pdf(body):
        pdf = work / "paper.pdf"
        pdf.write_bytes(body)
        return pdf
    limits = ArchiveLimits(
        max_member_bytes=settings.check.max_input_bytes,
        max_total_bytes=settings.archive.max_total_bytes,
        max_ratio=settings.archive.max_ratio,
    )
    if body.startswith(_GZIP) and not _is_tar(body):
        return _single_tex(text, body, work, limits)  # arXiv's one-file submissions: a gzipped .tex
    if body.startswith(_ZIP) or body.startswith(_GZIP) or _is_tar(body):
        return _project(text, body, work, limits)
    raise InputError(text, f"is neither a PDF nor a LaTeX source ({fetched.content_type or 'no type'})")


def _is_tar(body: bytes) -> bool:
    head = body[:1024]
    if body.startswith(_GZIP):
        try:
            head = gzip.GzipFile(fileobj=io.BytesIO(body)).read(512)
        except READ_ERRORS:
            return False
    return head[257:262] == b"ustar"


def _single_tex(text: str, body: bytes, work: Path, limits: ArchiveLimits) -> Path:
    """A gzipped `.tex` as `work/main.tex`, its bytes counted by the archive reader's own budget (the total
    and ratio caps) and member cap, as a tarball's are."""
    packed = work.parent / "source.gz"
    packed.write_bytes(body)
    try:
        with read_gzip(packed, limits, "main.tex") as member:
            copied, _ = member.copy_to(work.parent)
    except InputError as error:
        raise InputError(text, error.problem) from None
    except (*READ_ERRORS, ValueError) as error:
        raise InputError(text, f"damaged or oversized gzip file: {error}") from None
    shutil.move(copied, work / "main.tex")
    return work


def _project(text: str, body: bytes, work: Path, limits: ArchiveLimits) -> Path:
    """The archive's LaTeX files under their own names, below `work` (names are checked by the reader)."""
    archive = work.parent / ("source.zip" if body.startswith(_ZIP) else "source.tar")
    archive.write_bytes(body)
    staging = work.parent / "staging"
    try:
        for member in read_archive(archive, limits):
            if (
                member.problem is not None
                or PurePosixPath(member.name).suffix.lower() not in _PROJECT_SUFFIXES
            ):
                continue
            copied, _ = member.copy_to(staging)
            target = work / PurePosixPath(member.name)
            if not target.resolve().is_relative_to(work.resolve()):
                continue  # the reader refuses such names already; never write outside the project
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(copied, target)
    except InputError as error:
        raise InputError(text, error.problem) from None
    except (*READ_ERRORS, ValueError) as error:
        raise InputError(text, f"damaged or oversized archive: {error}") from None
    if not any(work.rglob("*.tex")):
        raise InputError(text, "the source archive holds no .tex file")
    folders = [p for p in work.iterdir() if p.is_dir()]
    if not any(work.glob("*.tex")) and len(folders) == 1:
        return folders[0]  # a tarball whose project sits in one top folder
    return work
