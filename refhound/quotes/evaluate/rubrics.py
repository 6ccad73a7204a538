"""The rubric prompts, kept as versioned files beside this module (`rubrics/NAME.vN.md`), and the reply
schema each one asks for.

The version is part of the file name, so changing a rubric means adding `NAME.v2.md`: cached verdicts are
keyed by the version and old ones are never reused for a new wording. The newest version is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, Field

EvaluatorName = Literal["entailment", "relevance", "factcheck"]
EVALUATORS: tuple[EvaluatorName, ...] = ("entailment", "relevance", "factcheck")
_FILE = re.compile(r"(?P<name>[a-z]+)\.v(?P<version>\d+)\.md")
EXPLANATION_CHARS = 400


class EntailmentReply(BaseModel):
    verdict: Literal["entailed", "contradicted", "neutral"]
    explanation: str = Field(max_length=EXPLANATION_CHARS)


class RelevanceReply(BaseModel):
    verdict: Literal["relevant", "not_relevant"]
    explanation: str = Field(max_length=EXPLANATION_CHARS)


class FactCheckReply(BaseModel):
    verdict: Literal["supported", "not_supported"]
    explanation: str = Field(max_length=EXPLANATION_CHARS)


class RepairReply(BaseModel):
    action: Literal["requote", "delete"]
    quote: str = Field(max_length=1500)
    explanation: str = Field(max_length=EXPLANATION_CHARS)


REPLIES: dict[str, type[BaseModel]] = {
    "entailment": EntailmentReply,
    "relevance": RelevanceReply,
    "factcheck": FactCheckReply,
    "repair": RepairReply,
}


@dataclass(frozen=True)
class Rubric:
    name: str
    version: int
    text: str

    @property
    def prompt_version(self) -> str:
        """ "entailment.v1": what a cached verdict and a report name."""
        return f"{self.name}.v{self.version}"


@cache
def rubric(name: str) -> Rubric:
    """The newest rubric file of `name`; LookupError when there is none."""
    found: list[tuple[int, str]] = []
    for item in resources.files(__package__).joinpath("rubrics").iterdir():
        match = _FILE.fullmatch(item.name)
        if match and match["name"] == name:
            found.append((int(match["version"]), item.read_text(encoding="utf-8")))
    if not found:
        raise LookupError(f"no rubric file for {name!r}")
    version, text = max(found)
    return Rubric(name, version, text.strip())
