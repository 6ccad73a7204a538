"""`refhound extract PDF`: the references a manuscript prints, as JSON, BibTeX or text.

The LLM options are shared with `refhound check`, which extracts the references of PDF inputs the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from refhound.cli.output import (
    EXIT_OK,
    EXIT_USAGE,
    err,
    fail,
    print_error,
    settings_from_options,
    working,
    write_output,
)
from refhound.errors import InputError

LLMMode = Literal["off", "low_confidence", "all"]
_FORMATS = ("json", "bib", "text")

LLMUrlOption = Annotated[
    str | None,
    typer.Option(
        "--llm-url", help="OpenAI-compatible endpoint (e.g. vLLM's http://host:8000/v1) for parsing."
    ),
]
LLMModelOption = Annotated[str | None, typer.Option("--llm-model", help="Model name the LLM server serves.")]
LLMModeOption = Annotated[
    str | None,
    typer.Option("--llm", help="Which references the LLM parses: off, low_confidence (default) or all."),
]


NougatCheckpointOption = Annotated[
    Path | None,
    typer.Option(
        "--nougat-checkpoint",
        help="Read scanned pages with nougat from this local checkpoint directory (Hugging Face format, e.g. "
        "facebook/nougat-base); needs pip install 'refhound[nougat]'. Nothing is downloaded.",
    ),
]


def llm_options(url: str | None, model: str | None, mode: str | None) -> dict[str, dict[str, Any]]:
    """The command-line LLM options as settings sections, for `settings_from_options` to validate."""
    return {"llm": {"base_url": url, "model": model}, "extract": {"llm": mode}}


def nougat_options(checkpoint: Path | None) -> dict[str, dict[str, Any]]:
    """`--nougat-checkpoint DIR` as settings: the nougat OCR backend on that directory (None: not given)."""
    if checkpoint is None:
        return {}
    return {"extract": {"ocr_backend": "nougat", "nougat_checkpoint": str(checkpoint)}}


def extract(
    pdf: Annotated[Path, typer.Argument(help="A manuscript PDF.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="json, bib or text.")] = "text",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
    llm_url: LLMUrlOption = None,
    llm_model: LLMModelOption = None,
    llm: LLMModeOption = None,
    nougat_checkpoint: NougatCheckpointOption = None,
) -> None:
    """Extract the reference list of PDF, with parsed fields, per-field confidence and page."""
    from refhound.agents.extractor import extract_pdf
    from refhound.agents.extractor.render import to_bibtex, to_text

    if fmt not in _FORMATS:
        raise fail(f"unknown format {fmt!r}; choose one of: {', '.join(_FORMATS)}")
    settings = settings_from_options(llm_options(llm_url, llm_model, llm), nougat_options(nougat_checkpoint))
    try:
        with working(f"extracting the references of {pdf}"):
            extraction = extract_pdf(pdf, settings)
    except InputError as error:
        raise fail(str(error)) from error
    for warning in extraction.warnings:
        err.print(f"[yellow]warning:[/] {pdf}: {warning}", highlight=False, soft_wrap=True)
    renderers: dict[str, Callable[[], str]] = {
        "json": extraction.to_json,
        "bib": lambda: to_bibtex(extraction),
        "text": lambda: to_text(extraction),
    }
    write_output(renderers[fmt](), output)
    if not extraction.references:
        print_error(f"{pdf}: no references could be extracted")
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_OK)
