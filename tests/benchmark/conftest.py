"""Fixtures for the benchmark tests: a synthetic index large enough for the generator, and tiny inputs.

The synthetic records are deterministic combinations of word and name lists, with venue strings in the
forms the real dumps use (dblp's "…, ICML 2019, 9-15 June 2019, …", the ACL Anthology's "Proceedings of …"),
so the generator's venue handling and the discard check meet realistic data without ../shared.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from refhound.models import Record
from tests.conftest import build_index

_GIVEN = [
    "Alice", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hiroshi", "Ines", "Jonas", "Kavya",
    "Lars", "Marta", "Nikhil", "Olga", "Pavel", "Quentin", "Rosa", "Stefan", "Tamara", "Umar", "Vera",
]  # fmt: skip
_FAMILY = [
    "Andersen", "Bianchi", "Castro", "Dubois", "Eriksson", "Fischer", "Gallagher", "Horvath", "Ivanova",
    "Jansen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quintero", "Rossi",
    "Schneider", "Takahashi", "Urbanek", "Vasquez", "Weber", "Yamamoto", "Zielinski",
]  # fmt: skip
_METHODS = [
    "Contrastive Pretraining", "Sparse Attention", "Graph Neural Networks", "Variational Inference",
    "Curriculum Learning", "Knowledge Distillation", "Adversarial Training", "Meta-Learning",
    "Latent Alignment", "Structured Prediction", "Dynamic Programming", "Self-Training",
]  # fmt: skip
_TASKS = [
    "Dependency Parsing", "Machine Translation", "Question Answering", "Image Segmentation",
    "Speech Recognition", "Entity Linking", "Text Summarization", "Relation Extraction",
    "Object Detection", "Semantic Role Labeling", "Coreference Resolution", "Sentiment Analysis",
]  # fmt: skip
_VENUES = [
    ("emnlp", "Proceedings of the {year} Conference on Empirical Methods in Natural Language Processing"),
    ("acl", "Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics"),
    ("icml", "Proceedings of the 36th International Conference on Machine Learning, ICML {year}, 9-15 June "
     "{year}, Long Beach, California, USA"),
    ("neurips", "Advances in Neural Information Processing Systems 32: Annual Conference on Neural "
     "Information Processing Systems {year}, NeurIPS {year}, December 8-14, {year}, Vancouver, BC, Canada"),
    ("cvpr", "IEEE Conference on Computer Vision and Pattern Recognition, CVPR {year}, Long Beach, CA, USA"),
    ("other", "Proceedings of the Workshop on Rare Phenomena in Language"),
]  # fmt: skip


def synthetic_records(n: int = 400) -> list[Record]:
    """`n` records with distinct titles ("Sparse Attention for Dependency Parsing in Low-Resource …")."""
    rng = random.Random(5)
    titles = [f"{m} for {t}" for m, t in itertools.product(_METHODS, _TASKS)]
    qualifiers = ["", " in Low-Resource Settings", " with Noisy Labels", " at Scale"]
    records = []
    for i in range(n):
        title = titles[i % len(titles)] + qualifiers[(i // len(titles)) % len(qualifiers)]
        key, venue = _VENUES[i % len(_VENUES)]
        year = 2010 + i % 12
        people = rng.sample(range(len(_GIVEN) * len(_FAMILY)), rng.randint(1, 5))
        authors = [f"{_GIVEN[p % len(_GIVEN)]} {_FAMILY[p // len(_GIVEN)]}" for p in people]
        records.append(
            Record(
                source="dblp",
                source_id=f"conf/{key}/{i}",
                source_version="test",
                title=title,
                authors=authors,
                venue=venue.format(year=year),
                year=year,
                doi=f"10.5555/{key}.{year}.{i:04d}" if i % 3 == 0 else None,
                entry_type="inproceedings",
            )
        )
    return records


@pytest.fixture(scope="session")
def synthetic_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_index(tmp_path_factory.mktemp("synthetic") / "synthetic.sqlite", synthetic_records())
