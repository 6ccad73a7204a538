"""What the extractor returns: the `refhound.extract/1` JSON contract."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from refhound.models import ParsedFields, Reference

EXTRACT_SCHEMA = "refhound.extract/1"


class ExtractedReference(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="1-based position in the extracted list.")
    raw: str = Field(description="The reference as printed: de-hyphenated, on one line, numbering removed.")
    parsed: ParsedFields
    page: int = Field(description="1-based page the reference starts on.")
    confidence: dict[str, float] = Field(description="Per parsed field, 0..1: how sure the parser is.")
    links: list[str] = Field(default_factory=list, description="URI link targets printed on the reference.")
    parser: str = Field(default="rules", description="'rules' (deterministic parser) or 'llm'.")
    authors_from_previous: bool = Field(
        default=False,
        description="The entry prints a dash run for its authors: `parsed.authors` are the previous entry's.",
    )
    likeness: float = Field(
        default=1.0, description="0..1: how much the entry reads as a reference (names, title, venue, year)."
    )
    lacks: list[str] = Field(
        default_factory=list, description="The signs of a reference the entry lacks (authors, title, ...)."
    )


class Extraction(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_: str = Field(default=EXTRACT_SCHEMA, alias="schema")
    input: str
    references: list[ExtractedReference] = Field(default_factory=list)
    set_aside: list[ExtractedReference] = Field(
        default_factory=list,
        description="Entries below the plausibility gate: shown as extraction problems, never judged.",
    )
    warnings: list[str] = Field(default_factory=list)
    section: str = Field(default="none", description="How the reference list was found and split.")
    pages: int = Field(default=0, description="Pages read.")
    ocr_pages: list[int] = Field(default_factory=list, description="1-based pages read by OCR.")
    ocr_certainty: float | None = Field(
        default=None,
        description="With OCR'd pages: the mean reference-likeness (0..1) of the entries read from them.",
    )

    def to_json(self, indent: int | None = 2) -> str:
        return self.model_dump_json(by_alias=True, indent=indent)

    def as_references(self) -> list[Reference]:
        """The references in the form `refhound check` verifies."""
        return [
            Reference(id=reference.id, raw=reference.raw, parsed=reference.parsed, input=self.input)
            for reference in self.references
        ]
