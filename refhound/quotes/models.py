"""The quote checker's data: what the document says (quotes, citation markers, definitions), where the
citations point (targets and fetched sources), and what the check found (one result per quote).

Offsets are character offsets into a text: a quote's `start`/`end` into the document as read, a match's
`source_start`/`source_end` into the source's extracted text (the text that `SourceText.text` holds and that
`SourceText.sha256`'s content yielded), so every result can be replayed against the same version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Status = Literal["verified", "near_match", "not_found", "citation_unresolved", "uncited"]
STATUSES: tuple[Status, ...] = ("verified", "near_match", "not_found", "citation_unresolved", "uncited")
QuoteStyle = Literal["straight", "curly", "low9", "guillemets", "block", "triple"]
MarkerKind = Literal["numeric", "footnote", "reference", "link", "autolink", "url", "triple"]
TargetKind = Literal["url", "file", "doi", "arxiv"]
Layer = Literal["exact", "normalized", "ellipsis", "brackets", "fuzzy"]


@dataclass(frozen=True)
class Quote:
    """One quoted passage. `text` is the quotation itself: quote marks, block-quote markers, and citation
    markers or an attribution line at its end are left out, so `text` may differ from `document[start:end]`
    for block quotes (whose `>` markers sit inside the span)."""

    text: str
    start: int
    end: int
    style: QuoteStyle
    footnote: str | None = None  # the footnote whose definition holds the quote, e.g. "^3"


@dataclass(frozen=True)
class Marker:
    """One citation marker as written: `[3]`, `[1-3]`, `[^note]`, `[text](url)`, `<url>`, a bare URL.

    `keys` are the citations it names: "3", "^note", "ref:label" or "url:https://…" (ranges expanded)."""

    start: int
    end: int
    text: str
    kind: MarkerKind
    keys: tuple[str, ...]


@dataclass(frozen=True)
class CitationGroup:
    """Adjacent markers ("[1][2]", "[1], [4]") read as one citation of several works."""

    markers: tuple[Marker, ...]

    @property
    def start(self) -> int:
        return self.markers[0].start

    @property
    def end(self) -> int:
        return self.markers[-1].end

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(key for marker in self.markers for key in marker.keys))

    @property
    def label(self) -> str:
        """The markers as written, one after another: "[1][2]" for "[1], [2]"."""
        return "".join(marker.text for marker in self.markers)


@dataclass(frozen=True)
class Target:
    """Where a citation points: a URL, a local file (absolute path), a DOI or an arXiv id."""

    kind: TargetKind
    value: str

    @property
    def locator(self) -> str:
        prefix = {"url": "", "file": "", "doi": "doi:", "arxiv": "arXiv:"}[self.kind]
        return prefix + self.value


@dataclass(frozen=True)
class Definition:
    """What the document says a citation key stands for: a reference definition, a footnote, an entry of
    its reference list, or a source given on the command line. `target` is None when the text names no
    URL, DOI, arXiv id or file; `reason` then says so."""

    key: str
    text: str
    target: Target | None
    reason: str | None = None
    start: int | None = None
    end: int | None = None


@dataclass
class SourceText:
    """A source's text as checked, with the version it came from: the SHA-256 of the bytes read (file or
    download) and when they were read."""

    locator: str
    text: str
    sha256: str
    fetched_at: str
    url: str | None = None  # the URL the content came from, for downloads
    content_type: str | None = None
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Unresolved:
    """A target whose text could not be had; `reason` is for the user ("offline", "HTTP 404", …)."""

    locator: str | None
    reason: str


@dataclass(frozen=True)
class LinkStatus:
    """One cited URL as a GET sees it: HTTP status, where redirects ended, the content type."""

    url: str
    status: int | None
    final_url: str | None
    content_type: str | None
    error: str | None
    checked_at: str

    def as_json(self) -> dict[str, object]:
        return {
            "url": self.url,
            "status": self.status,
            "final_url": self.final_url,
            "content_type": self.content_type,
            "error": self.error,
            "checked_at": self.checked_at,
        }


@dataclass(frozen=True)
class Located:
    """Where a quote was found in a source (offsets into the source's text) and by which layer."""

    layer: Layer
    start: int
    end: int


@dataclass
class QuoteResult:
    """One quote's outcome: the `refhound.quotes/1` item."""

    quote: Quote
    citation: str | None
    source: str | None
    status: Status
    source_start: int | None = None
    source_end: int | None = None
    matched_text: str | None = None
    source_sha256: str | None = None
    note: str = ""
    # The guard's kinds of change inside the match (number, date, negation, modal, entity): a misquote,
    # whatever the status says about how close the words are.
    alterations: tuple[str, ...] = ()
    # Filled by `--evaluate` (see `refhound.quotes.evaluate`): the claim the quote is cited for, the
    # evaluators' verdicts, the deterministic evidence and the confidence (without `--evaluate`, the
    # confidence alone, from where the quote was found).
    statement: str | None = None
    evaluations: dict[str, dict[str, object]] | None = None
    evidence: dict[str, object] | None = None
    confidence: float | None = None
    confidence_notes: list[str] = field(default_factory=list)
    confidence_basis: list[str] = field(default_factory=list)
    confidence_base: float | None = None  # before the quote penalty: what the document's mean is of

    def as_json(self) -> dict[str, object]:
        return {
            "text": self.quote.text,
            "start": self.quote.start,
            "end": self.quote.end,
            "citation": self.citation,
            "source": self.source,
            "status": self.status,
            "source_start": self.source_start,
            "source_end": self.source_end,
            "matched_text": self.matched_text,
            "source_sha256": self.source_sha256,
            "note": self.note,
            "alterations": list(self.alterations),
            **self._evaluated(),
        }

    def _evaluated(self) -> dict[str, object]:
        judged: dict[str, object] = {
            "confidence": self.confidence,
            "confidence_basis": list(self.confidence_basis),
            "confidence_notes": list(self.confidence_notes),
        }
        if self.evaluations is None:  # the confidence from the quote's location alone, when it was computed
            return judged if self.confidence is not None else {}
        return {
            "statement": self.statement,
            "evaluations": self.evaluations,
            "evidence": self.evidence,
            **judged,
        }
