"""A cited work's retraction mark through `refhound check`, offline, from what the index holds: said apart
from the verdict (which does not change), in every report format, and an exit code only with
`--fail-on-retracted`. The index is built from a Retraction Watch CSV WRITTEN FROM its documented header
(tests/retractions/fixtures), and, when ../shared is present, from 20 real Retraction Watch rows."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from typer.testing import CliRunner

from refhound.cli import app
from refhound.index.ingest.retraction_watch import read_retraction_watch
from refhound.index.store import IndexStore
from tests.conftest import shared_path
from tests.index.dump_server import DumpServer

FIXTURE = Path(__file__).parent / "fixtures" / "retraction-watch-written-from-header.csv"
runner = CliRunner()

BIB = r"""
@article{retracted, title = {A Retracted Example Paper}, author = {Example, Ada and Sample, Bo},
  journal = {Journal of Examples}, year = {2019}, doi = {10.5555/rw.paper.1}}
@article{concern_wrong_year, title = {An Example Under Concern}, author = {Case, Cy},
  journal = {Journal of Examples}, year = {2015}, doi = {10.5555/rw.paper.2}}
@article{corrected, title = {A Corrected Example}, author = {Dot, Di},
  journal = {Journal of Examples}, year = {2022}, doi = {10.5555/rw.paper.3}}
"""


def _index(tmp_path: Path, csv_path: Path) -> Path:
    path = tmp_path / "index.db"
    with IndexStore.create(path) as store:
        store.ingest(read_retraction_watch(csv_path))
    return path


def _check(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, ["check", *map(str, args)])
    return result.exit_code, result.stdout


def test_marks_are_said_apart_from_the_verdict_and_change_no_exit_code(tmp_path: Path) -> None:
    index = _index(tmp_path, FIXTURE)
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    code, out = _check(bib, "--index", index, "--format", "json")
    report = json.loads(out)
    found = {r["id"]: (r["verdict"], r["retraction"]) for r in report["references"]}
    assert found["retracted"] == (
        "verified",
        {
            "kind": "retracted",
            "notice_doi": "10.5555/rw.notice.1",
            "date": "2021-06-02",
            "source": "retraction-watch",
        },
    )
    verdict, concern = found["concern_wrong_year"]
    assert verdict == "metadata_error" and concern["kind"] == "expression_of_concern"
    assert found["corrected"] == ("verified", None)
    assert report["summary"]["retracted"] == 2
    assert code == 0  # the citations are right (or slips): a retraction alone is no failure by default
    code, _ = _check(bib, "--index", index, "--format", "json", "--fail-on-retracted")
    assert code == 1


def test_every_format_shows_the_mark(tmp_path: Path) -> None:
    index = _index(tmp_path, FIXTURE)
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    for fmt, expected in (
        ("table", "RETRACTED"),  # in the verdict column, which never wraps
        ("text", "cited work: RETRACTED (notice 10.5555/rw.notice.1, 2021-06-02, retraction-watch)"),
        ("md", "[notice](https://doi.org/10.5555/rw.notice.1)"),
        ("html", '<a href="https://doi.org/10.5555/rw.notice.1">notice</a>'),
    ):
        _, out = _check(bib, "--index", index, "--format", fmt)
        assert expected in out, fmt
        assert "EXPRESSION OF CONCERN" in out, fmt


def test_every_real_retraction_watch_row_is_marked_offline(tmp_path: Path) -> None:
    """The 20 real rows (../shared, paper-qa's stub of Retraction Watch's data): each paper, cited by its
    own metadata, is verified against its row and marked retracted with the row's notice DOI and date."""
    rows_csv = shared_path("services", "crossref-retractions", "stub_retractions.csv")
    index = _index(tmp_path, rows_csv)
    with rows_csv.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    entries = [
        f"@article{{rw{row['Record ID']}, title = {{{row['Title']}}}, "
        f"author = {{{' and '.join(row['Author'].split(';'))}}}, journal = {{{row['Journal']}}}, "
        f"year = {{{row['OriginalPaperDate'].split('/')[2][:4]}}}, doi = {{{row['OriginalPaperDOI']}}}}}"
        for row in rows
    ]
    bib = tmp_path / "rw.bib"
    bib.write_text("\n".join(entries), encoding="utf-8")
    code, out = _check(bib, "--index", index, "--format", "json")
    marks = {r["id"]: r["retraction"] for r in json.loads(out)["references"]}
    assert len(marks) == 20
    for row in rows:
        mark = marks[f"rw{row['Record ID']}"]
        assert mark is not None, row["Title"]
        assert (mark["kind"], mark["notice_doi"], mark["source"]) == (
            "retracted",
            row["RetractionDOI"].lower(),
            "retraction-watch",
        )
    assert code == 0


def test_triage_counts_marks_per_paper_and_fails_on_them_only_when_asked(tmp_path: Path) -> None:
    index = _index(tmp_path, FIXTURE)
    bib = tmp_path / "paper.bib"
    bib.write_text(BIB, encoding="utf-8")
    args = ["triage", str(bib), "--index", str(index), "--workers", "1", "--offline"]
    first = runner.invoke(app, [*args, "--out", str(tmp_path / "a")])
    assert first.exit_code == 0, first.stderr
    triage = json.loads((tmp_path / "a" / "triage.json").read_text(encoding="utf-8"))
    (row,) = triage["papers"]
    assert row["retracted"] == 2 and len(row["retractions"]) == 2
    assert row["retractions"][0].startswith("[retracted] RETRACTED (notice 10.5555/rw.notice.1, 2021-06-02")
    assert (triage["summary"]["retracted"], triage["summary"]["papers_citing_retracted"]) == (2, 1)
    assert "retracted" in (tmp_path / "a" / "triage.csv").read_text(encoding="utf-8").splitlines()[0]
    failing = runner.invoke(app, [*args, "--out", str(tmp_path / "b"), "--fail-on-retracted"])
    assert failing.exit_code == 1


def test_index_build_retraction_watch_from_a_file_and_from_a_url(tmp_path: Path) -> None:
    """`refhound index build --retraction-watch CSV` (a path, or a URL fetched through the address guard),
    then an offline check marks the cited works from that index."""
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    index = tmp_path / "rw.sqlite"
    built = runner.invoke(app, ["index", "build", "--db", str(index), "--retraction-watch", str(FIXTURE)])
    assert built.exit_code == 0, built.stderr
    said = "".join(built.stderr.split())  # wrapped at the console's width
    assert "ingestingretraction-watch" in said and f"indexready:{index}" in said
    code, out = _check(bib, "--index", index, "--offline", "--format", "json")
    marks = {r["id"]: r["retraction"] for r in json.loads(out)["references"]}
    assert marks["retracted"]["notice_doi"] == "10.5555/rw.notice.1"
    assert marks["concern_wrong_year"]["kind"] == "expression_of_concern" and marks["corrected"] is None
    assert code == 0
    with DumpServer({"/retraction_watch.csv": FIXTURE.read_bytes()}) as server:
        url = f"{server.url}/retraction_watch.csv"
        args = ["index", "build", "--db", str(tmp_path / "url.sqlite"), "--downloads", str(tmp_path / "dl")]
        args += ["--retraction-watch", url, "--retries", "0"]
        refused = runner.invoke(app, args)
        assert refused.exit_code == 2 and "loopback address" in refused.stderr and not server.log
        allowed = runner.invoke(app, args, env={"REFHOUND_NET__ALLOW": '["127.0.0.1"]'})
        assert allowed.exit_code == 0, allowed.stderr
    with IndexStore.open(tmp_path / "url.sqlite") as store:
        (origin,) = store.origins()
    assert (origin["source"], origin["origin"]) == ("retraction-watch", url)
