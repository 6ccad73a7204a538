"""`refhound quotes check DOC`: is every quoted passage of DOC in the source it cites?

Exit codes: 0 every quote verified (or none found), 1 some quote is not (near_match, not_found,
citation_unresolved, uncited) or an evaluator (`--evaluate`) found against a statement, 2 usage or input
error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from refhound.cli.extract import llm_options
from refhound.cli.output import (
    EXIT_OK,
    EXIT_PROBLEMS,
    err,
    fail,
    format_for,
    settings_from_options,
    write_output,
)
from refhound.errors import RefhoundError

quotes_app = typer.Typer(
    help="Check quoted passages against the full text of the sources they cite.", no_args_is_help=True
)
FORMATS = ("table", "json", "jsonl", "markdown", "html")
# What `-o FILE` without `--format` writes, by the file's extension (else the table).
_BY_SUFFIX = {
    ".json": "json",
    ".jsonl": "jsonl",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
}
LLMUrlOption = Annotated[
    str | None,
    typer.Option("--llm-url", help="OpenAI-compatible endpoint for --evaluate and --entailment (vLLM's)."),
]
LLMModelOption = Annotated[str | None, typer.Option("--llm-model", help="Model name the LLM server serves.")]


def _sources(pairs: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for pair in pairs:
        label, separator, locator = pair.partition("=")
        if not separator or not label.strip() or not locator.strip():
            raise fail(f"--source wants LABEL=LOCATOR (e.g. 3=paper.pdf or smith=https://…), not {pair!r}")
        found[label.strip()] = locator.strip()
    return found


@quotes_app.command("check")
def check(
    document: Annotated[
        Path,
        typer.Argument(
            help="A Markdown report, memo or draft (.md, .txt, .pdf, .html), or triples (.json/.jsonl)."
        ),
    ],
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help=f"One of: {', '.join(FORMATS)}. Default: the one -o's extension names, else table.",
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the report to this file.")
    ] = None,
    audit_log: Annotated[
        Path | None, typer.Option("--audit-log", help="Also write the JSONL audit log to this file.")
    ] = None,
    source: Annotated[
        list[str],
        typer.Option(
            "--source", help="LABEL=LOCATOR: what citation LABEL (or a triple's source_id) points to."
        ),
    ] = [],  # noqa: B006
    triples: Annotated[
        bool, typer.Option("--triples", help="Read DOC as {statement, source_id, evidence_quote} triples.")
    ] = False,
    offline: Annotated[bool, typer.Option("--offline", help="Never use the network.")] = False,
    no_link_check: Annotated[bool, typer.Option("--no-link-check", help="Do not check cited URLs.")] = False,
    no_local_files: Annotated[
        bool,
        typer.Option(
            "--no-local-files",
            help="Read no local file the document names (for documents you do not trust): each such "
            "citation is left unresolved, naming the refused path. Files given with --source are read.",
        ),
    ] = False,
    entailment: Annotated[
        bool,
        typer.Option(
            "--entailment", help="Ask the LLM whether each triple's statement follows from its quote."
        ),
    ] = False,
    evaluate: Annotated[
        str | None,
        typer.Option(
            "--evaluate",
            help="Evaluators to run on the LLM, comma-separated: entailment, relevance, factcheck, or all. "
            "Without an LLM server each is reported not_run, with the reason.",
        ),
    ] = None,
    min_words: Annotated[
        int | None,
        typer.Option("--min-words", min=1, help="Shorter quoted spans are not checked (default 4)."),
    ] = None,
    store: Annotated[
        Path | None, typer.Option("--store", help="Keep fetched sources here, named by their SHA-256.")
    ] = None,
    llm_url: LLMUrlOption = None,
    llm_model: LLMModelOption = None,
) -> None:
    """Check every quote of DOCUMENT against the full text of the source its citation names.

    A citation may name a local file: any path the document writes (absolute, relative to it, or
    file://) is read, like a URL is fetched. That suits your own documents; for one you do not trust,
    pass --no-local-files."""
    from refhound.quotes import check_document, check_triples, read_document
    from refhound.quotes.annotate import render_html, render_markdown
    from refhound.quotes.document import TRIPLES_SUFFIXES
    from refhound.quotes.evaluate import evaluate_report, parse_evaluators
    from refhound.quotes.render import print_table, render_json, render_jsonl
    from refhound.quotes.triples import check_entailment

    fmt = format_for(fmt, output, "table", _BY_SUFFIX)
    if fmt not in FORMATS:
        raise fail(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    settings = settings_from_options(
        {
            "check": {"offline": offline or None},
            "quotes": {
                "link_check": False if no_link_check else None,
                "local_files": False if no_local_files else None,
                "entailment": entailment or None,
                "min_words": min_words,
                "store_dir": store,
            },
        },
        llm_options(llm_url, llm_model, None),
    )
    try:
        evaluators = parse_evaluators(evaluate) if evaluate is not None else None
    except ValueError as error:
        raise fail(f"--evaluate: {error}") from None
    if evaluators and not settings.llm.base_url:
        err.print(
            "[yellow]warning:[/] --evaluate without an LLM server (llm.base_url / --llm-url): the evaluators "
            "are reported not_run",
            highlight=False,
            soft_wrap=True,
        )
    overrides = _sources(source)
    as_triples = triples or document.suffix.lower() in TRIPLES_SUFFIXES
    if settings.quotes.entailment and not as_triples:
        # A document's quotes have no `statement` field: the gate runs on the writer's words around each one.
        evaluators = list(dict.fromkeys(["entailment", *(evaluators or [])]))
    if settings.quotes.entailment and not settings.llm.base_url:
        raise fail("the entailment check needs an LLM server: set llm.base_url or pass --llm-url")
    try:
        if as_triples:
            report, items = asyncio.run(check_triples(document, settings, overrides))
            if settings.quotes.entailment:
                pairs = [(item.statement, item.quote.text) for item in items]
                report.entailment = check_entailment(pairs, settings)
            if evaluators:
                evaluate_report(report, settings, evaluators, [item.statement for item in items])
        else:
            report = asyncio.run(check_document(read_document(document, settings), settings, overrides))
            if evaluators:
                evaluate_report(report, settings, evaluators)
    except RefhoundError as error:
        raise fail(str(error)) from error
    for warning in report.warnings:
        err.print(f"[yellow]warning:[/] {warning}", highlight=False, soft_wrap=True)
    if not report.results:
        err.print(
            f"[yellow]warning:[/] {document}: no quotations found to check", highlight=False, soft_wrap=True
        )
    if audit_log is not None:
        audit_log.write_text(render_jsonl(report, settings), encoding="utf-8")
    if fmt == "table":
        if output is None:
            print_table(report, Console())
        else:
            with output.open("w", encoding="utf-8") as handle:
                print_table(report, Console(file=handle, no_color=True, width=120))
    else:
        renderers: dict[str, Callable[[], str]] = {
            "json": lambda: render_json(report),
            "jsonl": lambda: render_jsonl(report, settings),
            "markdown": lambda: render_markdown(report),
            "html": lambda: render_html(report),
        }
        write_output(renderers[fmt](), output)
    problems = not report.all_verified or report.evaluations_failed
    raise typer.Exit(EXIT_PROBLEMS if problems else EXIT_OK)


@quotes_app.command("repair")
def repair(
    triples_file: Annotated[
        Path, typer.Argument(help="Triples (.json/.jsonl): statement, source_id, evidence_quote.")
    ],
    out: Annotated[Path, typer.Option("--out", help="Write the kept and repaired triples here.")],
    source_dir: Annotated[
        Path | None,
        typer.Option(
            "--source-dir", help="Read each source_id as the file of that name (any extension) here."
        ),
    ] = None,
    online: Annotated[
        bool,
        typer.Option(
            "--online", help="Fetch sources by their locators (URL, DOI, arXiv id); public addresses only."
        ),
    ] = False,
    audit: Annotated[
        Path | None,
        typer.Option("--audit", help="JSONL audit of every action (default: OUT + .audit.jsonl)."),
    ] = None,
    evaluate: Annotated[
        str,
        typer.Option(
            "--evaluate",
            help="Evaluators a quote (the given one and a new one) must pass besides being found: "
            "entailment, relevance, factcheck, comma-separated, or all (the default).",
        ),
    ] = "all",
    llm_url: LLMUrlOption = None,
    llm_model: LLMModelOption = None,
) -> None:
    """Repair or drop failing triples: the LLM requotes from the same source (re-checked) or deletes.

    A quote is written only if it is verified in the source and passes the evaluators; everything else is
    dropped from OUT and recorded in the audit. Exit 0 when nothing was dropped, 1 otherwise."""
    from refhound.quotes.evaluate import parse_evaluators
    from refhound.quotes.repair import audit_lines, repair_triples, source_dir_map, write_repaired
    from refhound.quotes.triples import read_triples

    if (source_dir is None) == (not online):
        raise fail("give exactly one of --source-dir DIR or --online")
    if source_dir is not None and not source_dir.is_dir():
        raise fail(f"--source-dir {source_dir}: not a folder")
    try:
        names = parse_evaluators(evaluate)
    except ValueError as error:
        raise fail(f"--evaluate: {error}") from None
    settings = settings_from_options(
        {"check": {"offline": source_dir is not None}, "quotes": {"link_check": False}},
        llm_options(llm_url, llm_model, None),
    )
    try:
        sources: dict[str, str] = {}
        if source_dir is not None:
            items, _, _, _ = read_triples(triples_file, settings)
            sources = source_dir_map(source_dir, [t.source_id for t in items])
        outcome, _ = repair_triples(triples_file, settings, sources, names)
    except RefhoundError as error:
        raise fail(str(error)) from error
    write_repaired(outcome, out, jsonl=triples_file.suffix.lower() == ".jsonl")
    audit_path = audit or out.with_name(out.name + ".audit.jsonl")
    audit_path.write_text(audit_lines(outcome, triples_file, settings, names), encoding="utf-8")
    counts = outcome.counts()
    err.print(
        f"{counts['kept']} kept, {counts['repaired']} repaired, {counts['dropped']} dropped → {out} "
        f"(audit: {audit_path})",
        highlight=False,
        soft_wrap=True,
    )
    raise typer.Exit(EXIT_PROBLEMS if counts["dropped"] else EXIT_OK)
