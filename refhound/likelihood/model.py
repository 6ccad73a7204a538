"""The likelihood model: a calibrated logistic model over the named comparison levels.

    log-odds(invented) = intercept + Σ weight(level) over the levels that fired,   likelihood = σ(log-odds)

Each weight is the log-odds a level adds or takes away, so a report can list every term (`contributions`)
and name the strongest in words. Logistic rather than Fellegi–Sunter's independent m/u ratios: the levels
of one reference are far from independent (a wrong title comes with wrong authors), and a jointly fitted
weight does not count one piece of evidence twice. The file (`model.json` in this package, or one a user
names) is small, human-readable and versioned; `scripts/train_likelihood.py` writes it. The intercept is
calibrated to `base_rate`, the share of invented references among the real-world items it was calibrated
on; `--prior` moves it to another population's rate.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from refhound.errors import ModelInvalid
from refhound.likelihood.levels import NO_EVIDENCE
from refhound.models import Contribution, FieldCheck, FieldStatus, Severity

FORMAT = "refhound.likelihood/1"
PRIOR = "prior"  # the contribution that holds the intercept


@dataclass(frozen=True)
class LikelihoodModel:
    """A fitted model: its name and version, intercept, weights and the default threshold."""

    name: str
    version: str
    intercept: float
    base_rate: float
    threshold: float
    weights: dict[str, float]
    path: str
    training: dict[str, object] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """What a report records as `model`."""
        return f"{self.name}/{self.version}"

    def score(self, levels: Iterable[str], prior: float | None = None) -> tuple[float, list[Contribution]]:
        """The likelihood of a reference whose levels fired, and each term of its log-odds (the prior
        first, then the weighted levels, strongest first). `prior` replaces the calibrated base rate."""
        intercept = self.intercept
        if prior is not None:
            intercept += logit(prior) - logit(self.base_rate)
        terms = [Contribution(level=PRIOR, weight=round(intercept, 4))]
        seen = set()
        for level in levels:
            weight = self.weights.get(level, 0.0)
            if level in seen or level in NO_EVIDENCE or weight == 0.0:
                continue
            seen.add(level)
            terms.append(Contribution(level=level, weight=round(weight, 4)))
        terms[1:] = sorted(terms[1:], key=lambda t: -abs(t.weight))
        return _sigmoid(math.fsum(t.weight for t in terms)), terms


def features(fields: Sequence[FieldCheck], levels: Iterable[str]) -> list[str]:
    """The levels a reference's evidence fired: each field check's, the rules' grade of each wrong field,
    and the judge's own (coverage, LLM)."""
    out: list[str] = []
    for check in fields:
        if check.level:
            out.append(check.level)
        if check.status is FieldStatus.MISMATCH:
            out.append(f"rules.{(check.severity or Severity.MAJOR).value}")
    out.extend(levels)
    return list(dict.fromkeys(out))


def logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def default_model_path() -> Path:
    return Path(str(files("refhound.likelihood").joinpath("model.json")))


@lru_cache(maxsize=8)
def load_model(path: Path | None = None) -> LikelihoodModel:
    """The model in `path` (default: the packaged one). A missing, unreadable or other-format file is a
    `ModelInvalid` naming it: no verdict is worth having from a model that did not load."""
    where = path or default_model_path()
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelInvalid(where, "no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelInvalid(where, f"unreadable ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ModelInvalid(where, f"format {found!r}, expected {FORMAT!r}")
    try:
        return LikelihoodModel(
            name=str(data["name"]),
            version=str(data["version"]),
            intercept=float(data["intercept"]),
            base_rate=float(data["base_rate"]),
            threshold=float(data["threshold"]),
            weights={str(k): float(v) for k, v in data["weights"].items()},
            path=str(where),
            training=dict(data.get("training", {})),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ModelInvalid(where, f"missing or invalid field ({error})") from None
