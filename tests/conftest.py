"""Shared fixtures: a small real-world index built from hand-written records, and the ../shared path."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.index.ingest.base import Dump
from refhound.index.store import IndexStore
from refhound.llm import ALLOW_MODEL_REQUESTS_ENV
from refhound.models import Record, Reference, ReferenceResult
from refhound.settings import Settings
from tests.llm_server import FakeLLMServer

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def ctrl_c_reaches_the_child() -> None:
    """A subprocess's `preexec_fn` for the Ctrl-C tests: a shell runs a background job with SIGINT
    ignored, and a child that starts so never sees Ctrl-C; this restores the default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def shared_path(*parts: str) -> Path:
    """A file under ../shared/data, or skip the test when that material is absent."""
    path = SHARED.joinpath("data", *parts)
    if not path.exists():
        pytest.skip(f"../shared/data/{'/'.join(parts)} not present")
    return path


def _dblp(key: str, title: str, authors: list[str], venue: str, year: int, **extra: str) -> Record:
    return Record(
        source="dblp",
        source_id=key,
        source_version="2021-09",
        title=title,
        authors=authors,
        venue=venue,
        year=year,
        entry_type="inproceedings",
        url=f"https://dblp.org/rec/{key}",
        **extra,
    )


# Real papers, with their real metadata.
RECORDS = [
    _dblp(
        "conf/nips/VaswaniSPUJGKP17",
        "Attention is All you Need",
        [
            "Ashish Vaswani",
            "Noam Shazeer",
            "Niki Parmar",
            "Jakob Uszkoreit",
            "Llion Jones",
            "Aidan N. Gomez",
            "Lukasz Kaiser",
            "Illia Polosukhin",
        ],
        "Advances in Neural Information Processing Systems 30: Annual Conference on Neural Information "
        "Processing Systems 2017, December 4-9, 2017, Long Beach, CA, USA",
        2017,
    ),
    _dblp(
        "conf/naacl/DevlinCLT19",
        "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
        ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
        "Proceedings of the 2019 Conference of the North American Chapter of the Association for "
        "Computational Linguistics: Human Language Technologies, NAACL-HLT 2019",
        2019,
        doi="10.18653/v1/N19-1423",
    ),
    _dblp(
        "conf/cvpr/HeZRS16",
        "Deep Residual Learning for Image Recognition",
        ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],
        "2016 IEEE Conference on Computer Vision and Pattern Recognition, CVPR 2016, Las Vegas, NV, USA, "
        "June 27-30, 2016",
        2016,
        doi="10.1109/CVPR.2016.90",
    ),
    _dblp(
        "conf/naacl/JainW19",
        "Attention is not Explanation",
        ["Sarthak Jain", "Byron C. Wallace"],
        "Proceedings of the 2019 Conference of the North American Chapter of the Association for "
        "Computational Linguistics: Human Language Technologies, NAACL-HLT 2019",
        2019,
        doi="10.18653/v1/N19-1357",
    ),
    _dblp(
        "conf/icml/KolesnikovZB19",
        "Revisiting Self-Supervised Visual Representation Learning",
        ["Alexander Kolesnikov", "Xiaohua Zhai", "Lucas Beyer"],
        "Proceedings of the 36th International Conference on Machine Learning, ICML 2019, 9-15 June 2019, "
        "Long Beach, California, USA",
        2019,
    ),
    _dblp(
        "conf/iclr/KingmaB14",
        "Adam: A Method for Stochastic Optimization",
        ["Diederik P. Kingma", "Jimmy Ba"],
        "3rd International Conference on Learning Representations, "
        "ICLR 2015, San Diego, CA, USA, May 7-9, 2015, Conference Track Proceedings",
        2015,
    ),
    Record(
        source="arxiv",
        source_id="2005.14165",
        source_version="2024-01",
        title="Language Models are Few-Shot Learners",
        authors=["Tom B. Brown", "Benjamin Mann", "Nick Ryder", "Melanie Subbiah"],
        venue="arXiv",
        year=2020,
        arxiv_id="2005.14165",
        entry_type="preprint",
        url="https://arxiv.org/abs/2005.14165",
    ),
]


def build_index(path: Path, records: list[Record], *, complete: bool = True, source: str = "dblp") -> Path:
    with IndexStore.create(path) as store:
        store.ingest(Dump(source=source, version="test", complete=complete, records=iter(records)))
        store.optimize()
    return path


def check_offline(reference: Reference, store: IndexStore, tmp_path: Path) -> ReferenceResult:
    """One reference through the default SOP, offline, without the memory."""
    from refhound.sop.runner import check_references

    settings = Settings()
    settings.check.offline = True
    settings.memory.enabled = False
    settings.sop.runs_path = tmp_path / "runs.sqlite"
    return check_references([reference], store, settings)[0]


@pytest.fixture(scope="session")
def small_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of the records above; dblp is declared complete for the venues and years it holds."""
    directory = tmp_path_factory.mktemp("index")
    path = build_index(directory / "small.sqlite", [r for r in RECORDS if r.source == "dblp"])
    with IndexStore.create(path) as store:
        store.ingest(
            Dump(
                source="arxiv",
                version="test",
                complete=False,
                records=iter([r for r in RECORDS if r.source == "arxiv"]),
            )
        )
    return path


@pytest.fixture()
def store(small_index: Path) -> Iterator[IndexStore]:
    with IndexStore.open(small_index) as opened:
        yield opened


@pytest.fixture(scope="session", autouse=True)
def _private_user_data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The memory and the run checkpoints of every test (and its subprocesses) live in a temporary
    directory, never in the user's data directory; and every run is offline unless a test says so."""
    directory = tmp_path_factory.mktemp("user-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REFHOUND_MEMORY__PATH", str(directory / "memory"))
        patch.setenv("REFHOUND_SOP__RUNS_PATH", str(directory / "runs.sqlite"))
        # No test reaches the real scholarly services; source tests point them at loopback servers.
        patch.setenv("REFHOUND_CHECK__OFFLINE", "true")
        yield


@pytest.fixture(autouse=True)
def _private_http_cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test has its own HTTP cache: an answer cached by one test must not make another's offline run
    find a cache (and answer from it)."""
    monkeypatch.setenv(
        "REFHOUND_SOURCES__CACHE__PATH", str(tmp_path_factory.mktemp("http-cache") / "http.sqlite")
    )


# --- LLM: no model requests leave this machine unless a test opts in -------------------------------------


@pytest.fixture(scope="session", autouse=True)
def _block_model_requests() -> Iterator[None]:
    """REFHOUND_ALLOW_MODEL_REQUESTS=0 for the whole run (subprocesses inherit it): loopback servers only."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ALLOW_MODEL_REQUESTS_ENV, "0")
        yield


@pytest.fixture(autouse=True)
def _allow_marked_model_requests(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests marked `allow_model_requests` may call any server."""
    if request.node.get_closest_marker("allow_model_requests"):
        monkeypatch.setenv(ALLOW_MODEL_REQUESTS_ENV, "1")


@pytest.fixture()
def llm_server() -> Iterator[FakeLLMServer]:
    """A real OpenAI-compatible server on 127.0.0.1 with scripted replies (see tests/llm_server.py)."""
    with FakeLLMServer() as server:
        yield server
    assert server.unscripted == 0, f"{server.unscripted} request(s) reached the LLM server unscripted"
