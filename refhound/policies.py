"""How verdicts are counted when a yes/no answer is required: plain enums, kept apart from the pydantic
models so that the command line can name them in its options without loading pydantic."""

from __future__ import annotations

from enum import StrEnum


class UnverifiedPolicy(StrEnum):
    """How an `unverified` reference is counted when a yes/no answer is required."""

    UNKNOWN = "unknown"
    REAL = "real"
    FAKE = "fake"


class FlagPolicy(StrEnum):
    """Which wrong references count as flagged: hallucinations only (`major`), or every error (`any`)."""

    MAJOR = "major"
    ANY = "any"
