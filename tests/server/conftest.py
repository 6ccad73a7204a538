"""A server over the small test index: its state, its app, and calls through httpx's ASGI transport."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from refhound.index.store import IndexStore
from refhound.server.app import ServerState, create_app
from refhound.server.config import ServerLimits
from refhound.server.runtime import CheckRuntime
from refhound.settings import Settings
from tests.sources.crossref_server import CrossrefServer, only_crossref
from tests.sources.works import LECUN, TRANSFORMER

BIB = r"""
@inproceedings{he2016deep,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR}, year = {2016}
}
@inproceedings{jain2019,
  title = {Attention is not Explanation},
  author = {Jain, Sarthak and Wallace, Byron C.},
  booktitle = {NAACL}, year = {2018}
}
"""

# A reference no source holds, at a venue-year the test index covers completely.
FABRICATED = (
    "Kaiming He and Jian Sun. Recursive Residual Attention for Zero-Shot Image Parsing. "
    "In IEEE Conference on Computer Vision and Pattern Recognition (CVPR), 2016."
)
VERIFIED = (
    "Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, "
    "Lukasz Kaiser, and Illia Polosukhin. Attention is all you need. "
    "In Advances in Neural Information Processing Systems, 2017."
)


def server_settings(tmp_path: Path, crossref_url: str) -> Settings:
    """Online, with Crossref on loopback as the only scholarly source (it answers "none" for a made-up
    title, which is what makes a reference fabricated rather than unverified), and no memory."""
    section = {"base_url": crossref_url, "rate_per_s": 1000.0, "retries": 1, "backoff_s": 0.01}
    settings = Settings(sources=only_crossref(section, cache={"enabled": False}), check={"offline": False})
    settings.memory.enabled = False
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    return settings


@dataclass
class Server:
    """An app and the state under it; `call` sends one request through the ASGI transport."""

    state: ServerState
    token: str | None = None
    app: Any = field(init=False)

    def __post_init__(self) -> None:
        self.app = create_app(self.state, self.token)

    def call(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        async def send() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
                return await client.request(method, url, **kwargs)

        return asyncio.run(send())

    def uploads_left(self) -> list[Path]:
        assert self.state.upload_parent is not None
        return sorted(self.state.upload_parent.iterdir())


def make_server(
    small_index: Path, tmp_path: Path, limits: ServerLimits | None = None, token: str | None = None
) -> Iterator[Server]:
    with CrossrefServer([TRANSFORMER, LECUN]) as crossref:
        yield from _serve(small_index, tmp_path, crossref.url, limits, token)


def _serve(
    small_index: Path, tmp_path: Path, crossref_url: str, limits: ServerLimits | None, token: str | None
) -> Iterator[Server]:
    store = IndexStore.open(small_index)
    runtime = CheckRuntime(server_settings(tmp_path, crossref_url), store)
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    state = ServerState(runtime, limits or ServerLimits(), upload_parent=uploads)
    try:
        yield Server(state, token)
    finally:
        state.close()
        runtime.close()


@pytest.fixture(autouse=True)
def _no_config_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REFHOUND_CONFIG", str(tmp_path / "absent.toml"))


@pytest.fixture()
def server(small_index: Path, tmp_path: Path) -> Iterator[Server]:
    yield from make_server(small_index, tmp_path)
