"""Fixtures of the quote checker's tests: online settings pointed at a loopback server, a small PDF."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from refhound.settings import Settings
from tests.web.servers import SiteServer

SOURCE_TEXT = (
    "The court held that the defendant was not liable for the damages. In 2019, revenue rose by 12 percent, "
    "and the company may expand into new markets. It was, in the end, a well-known result."
)


@pytest.fixture()
def server() -> Iterator[SiteServer]:
    with SiteServer() as running:
        yield running


@pytest.fixture()
def online(server: SiteServer) -> Settings:
    """Settings that use the network — only the loopback servers, allowed past the address guard — quickly
    and without retries."""
    settings = Settings()
    settings.check.offline = False
    settings.net.allow = ["127.0.0.1"]
    settings.quotes.arxiv_pdf_url = server.url + "/arxiv/pdf"
    settings.quotes.doi_resolver_url = server.url + "/doi"
    settings.quotes.rate_per_s = 1000.0
    settings.quotes.retries = 0
    settings.quotes.timeout_s = 5.0
    return settings


@pytest.fixture()
def offline() -> Settings:
    settings = Settings()
    settings.check.offline = True
    return settings


def pdf_bytes(lines: list[str]) -> bytes:
    """A one-page PDF with a text layer, one line per entry."""
    document = pymupdf.open()  # type: ignore[no-untyped-call]
    page = document.new_page()
    for number, line in enumerate(lines):
        page.insert_text((72, 72 + 14 * number), line, fontsize=10)
    data: bytes = document.tobytes()  # type: ignore[no-untyped-call]
    document.close()  # type: ignore[no-untyped-call]
    return data


def make_pdf(path: Path, lines: list[str]) -> Path:
    """`pdf_bytes` written to `path`."""
    path.write_bytes(pdf_bytes(lines))
    return path
