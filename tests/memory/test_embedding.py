"""The memory's embedding function: the packaged int8 MiniLM, run offline, registered with chromadb."""

from __future__ import annotations

import socket
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from chromadb.utils.embedding_functions import config_to_embedding_function, known_embedding_functions

from refhound.memory.embedding import (
    DIMENSIONS,
    MiniLMEmbeddingFunction,
    default_embedding,
    model_file,
    tokenizer_file,
)


@pytest.fixture(scope="module")
def embed() -> MiniLMEmbeddingFunction:
    return default_embedding()


def cosine(embed: MiniLMEmbeddingFunction, a: str, b: str) -> float:
    va, vb = embed.encode([a, b])
    return float(va @ vb)


def test_model_and_tokenizer_come_from_installed_packages() -> None:
    site = Path(sysconfig.get_paths()["purelib"])
    for path in (model_file(), tokenizer_file()):
        assert path.is_file()
        assert site in path.parents, path


def test_loads_and_embeds_with_the_network_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"network access attempted: {args}")

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    vectors = MiniLMEmbeddingFunction().encode(["Attention is all you need"])  # a fresh load
    assert vectors.shape == (1, DIMENSIONS)


def test_vectors_are_unit_length_float32_in_input_order(embed: MiniLMEmbeddingFunction) -> None:
    texts = ["a much longer title about graph neural networks for molecules", "short", "medium length title"]
    together = embed.encode(texts)
    assert together.shape == (3, DIMENSIONS) and together.dtype == np.float32
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    one_by_one = np.stack([embed.encode([t])[0] for t in texts])
    assert np.allclose(together, one_by_one, atol=1e-5)  # batching and sorting by length change nothing
    assert embed.encode([]).shape == (0, DIMENSIONS)


def test_long_text_is_truncated_not_rejected(embed: MiniLMEmbeddingFunction) -> None:
    long = "deep learning " * 400
    assert embed.encode([long]).shape == (1, DIMENSIONS)
    # Past the token limit, more text changes nothing.
    assert np.allclose(embed.encode([long]), embed.encode([long + "protein folding"]), atol=1e-6)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
            "bert pretraining of deep bidirectional transformers for language understanding",
        ),
        ("Deep Residual Learning for Image Recognition", "deep residual learning for image recognition."),
        ("Language Models are Few-Shot Learners", "Language models are few shot learners"),
        ("attention is all you need. vaswani 2017", "attention is all you need. vaswani 2018"),
    ],
)
def test_similar_titles_are_close(embed: MiniLMEmbeddingFunction, a: str, b: str) -> None:
    assert cosine(embed, a, b) >= 0.9


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Deep Residual Learning for Image Recognition", "Attention is not Explanation"),
        ("A survey of protein folding methods", "Adam: A Method for Stochastic Optimization"),
        ("attention is all you need. vaswani 2017", "attention is not explanation. jain 2019"),
    ],
)
def test_unrelated_titles_are_far(embed: MiniLMEmbeddingFunction, a: str, b: str) -> None:
    assert cosine(embed, a, b) < 0.5


def test_registered_with_chromadb_and_rebuilt_from_its_config(embed: MiniLMEmbeddingFunction) -> None:
    name = MiniLMEmbeddingFunction.name()
    assert known_embedding_functions[name] is MiniLMEmbeddingFunction
    rebuilt = config_to_embedding_function({"name": name, "config": embed.get_config()})
    assert isinstance(rebuilt, MiniLMEmbeddingFunction)
    assert rebuilt.get_config() == embed.get_config()
    assert not embed.is_legacy()
    assert embed.default_space() == "cosine"
    with pytest.raises(ValueError, match="embedded with"):
        MiniLMEmbeddingFunction.build_from_config({"model": "some-other-model"})


def test_chromadb_calls_it_on_documents(embed: MiniLMEmbeddingFunction) -> None:
    vectors = embed(["Attention is all you need", "Adam"])
    assert len(vectors) == 2 and len(vectors[0]) == DIMENSIONS
