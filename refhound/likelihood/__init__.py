"""How likely each reference is to be invented, and the one policy that turns it into a flag.

`assess` scores a verdict's evidence with the likelihood model (`model.py`) over the named comparison
levels (`levels.py`) and sets, from that score alone: `hallucinated` (the likelihood reaches the threshold;
an `unverified` reference below it is left to `--unverified-as`), a metadata error's `severity` (major
exactly when flagged, so the two never disagree), and a clause of the reason naming the strongest terms.
The verdict itself stays what the evidence established.
"""

from __future__ import annotations

from dataclasses import dataclass

from refhound.likelihood.levels import describe
from refhound.likelihood.model import PRIOR, LikelihoodModel, features, load_model, logit
from refhound.models import (
    Contribution,
    ReferenceResult,
    Severity,
    UnverifiedPolicy,
    Verdict,
    is_hallucinated,
)
from refhound.settings import LikelihoodSettings

__all__ = ["LikelihoodModel", "Policy", "assess", "explain", "load_model"]

_SHOWN_TERMS = 3  # of the strongest terms named in a reason
_NEGLIGIBLE = 0.05  # log-odds: a term this small explains nothing


@dataclass(frozen=True)
class Policy:
    """The model, the threshold a flag needs and the population's prior, as the settings chose them."""

    model: LikelihoodModel
    threshold: float
    prior: float | None = None

    def near_threshold(self, levels: list[str], band: float) -> bool:
        """Whether the log-odds of these levels lie within `band` of the threshold's."""
        likelihood, _ = self.model.score(levels, self.prior)
        return abs(logit(likelihood) - logit(self.threshold)) <= band

    @classmethod
    def from_settings(cls, settings: LikelihoodSettings) -> Policy:
        """The policy of `settings`; loading the model file raises `ModelInvalid` when it is unusable."""
        model = load_model(settings.model)
        threshold = model.threshold if settings.threshold is None else settings.threshold
        return cls(model, threshold, settings.prior)


def assess(result: ReferenceResult, policy: Policy, unverified_as: UnverifiedPolicy) -> ReferenceResult:
    """The result with its likelihood, contributions, and the flag and severity that follow from them."""
    likelihood, terms = policy.model.score(features(result.fields, result.levels), policy.prior)
    likelihood = round(likelihood, 4)  # the value the report carries, which the reason and the table print
    flagged = likelihood >= policy.threshold
    severity = None
    if result.verdict is Verdict.METADATA_ERROR:
        severity = Severity.MAJOR if flagged else Severity.MINOR
    return result.model_copy(
        update={
            "likelihood": likelihood,
            "contributions": terms,
            "severity": severity,
            "hallucinated": is_hallucinated(result.verdict, likelihood, policy.threshold, unverified_as),
            "reason": f"{result.reason}; {explain(likelihood, terms, policy.threshold)}",
        }
    )


def explain(likelihood: float, terms: list[Contribution], threshold: float) -> str:
    """The likelihood in words: its value against the threshold and its strongest one to three terms."""
    strong = [t for t in terms if t.level != PRIOR and abs(t.weight) >= _NEGLIGIBLE][:_SHOWN_TERMS]
    verdict = "flagged" if likelihood >= threshold else "not flagged"
    head = f"likelihood of invention {likelihood:.2f} ({verdict} at {threshold:.2f})"
    if not strong:
        return f"{head}: no evidence either way, the prior's rate"
    said = "; ".join(f"{describe(t.level)} ({'+' if t.weight > 0 else '−'})" for t in strong)
    return f"{head}: {said}"
