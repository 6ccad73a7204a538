"""What the server fetches for a client never reaches this machine's loopback services: a quoted source,
a reference's URL. A refused fetch is "could not check", never an answer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.net.http import make_client
from refhound.settings import Settings
from refhound.web.browser import Browser, BrowserProblem
from tests.server.conftest import Server
from tests.web.servers import SiteServer, html

CHROMIUM = Path("/usr/bin/chromium")
SECRET_PAGE = "<html><body><p>Internal only: the admin password is XXXXXXX hunter2 XXXXXXX.</p></body></html>"


@pytest.fixture()
def intranet() -> Iterator[SiteServer]:
    with SiteServer() as site:
        site.add("/admin", html(SECRET_PAGE))
        yield site


@pytest.mark.parametrize("host", ["127.0.0.1", "127.1", "2130706433", "localhost"])
def test_a_quote_citing_a_loopback_service_is_not_read(
    server: Server, intranet: SiteServer, host: str
) -> None:
    port = intranet.url.rsplit(":", 1)[1]
    document = f'The memo says "the admin password is XXXXXXX" [1].\n\n[1]: http://{host}:{port}/admin\n'
    response = server.call("POST", "/api/v1/quotes", files={"document": ("memo.md", document.encode())})
    assert response.status_code == 200, response.text
    (result,) = response.json()["quotes"]
    assert result["status"] == "citation_unresolved"
    assert "is a loopback address" in response.text
    assert "hunter2" not in response.text
    assert intranet.paths() == []


def test_a_reference_url_on_loopback_is_not_probed(server: Server, intranet: SiteServer) -> None:
    reference = (
        f"Jane Doe. Internal Notes on Residual Learning. Technical report, 2019. URL {intranet.url}/admin"
    )
    response = server.call("POST", "/api/v1/check", json={"references": [reference]})
    assert response.status_code == 200, response.text
    (result,) = response.json()["references"]
    assert result["verdict"] != "verified"
    assert intranet.paths() == []


@pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed")
def test_chromium_is_refused_loopback_pages_too(intranet: SiteServer) -> None:
    settings = Settings(check={"offline": False})

    async def main() -> str:
        async with make_client(settings) as client:
            browser = Browser(CHROMIUM, client, timeout_s=20.0, max_chars=100_000)
            try:
                await browser.render(intranet.url + "/admin")
            except BrowserProblem as problem:
                return problem.problem
            finally:
                await browser.close()
        return "rendered"

    assert asyncio.run(main()).startswith("refused: 127.0.0.1 is a loopback address")
    assert intranet.paths() == []
