"""The figure "update of a one-month-old sample index": loopback servers publish the real samples of
../shared as the sources stand now; the index is built from the same sources as they stood a month
earlier; `refhound index update` brings it up to date. Prints records added and withdrawn, and the time.

- dblp: the dump URL serves the whole sample; a month earlier it lacked the records of the last month's
  `mdate` (dblp's own modification date);
- arXiv: the index was built from the snapshot sample without the records updated in the last month
  (`update_date`); the update harvests OAI-PMH from the snapshot's date (page size 25, no delay);
- Crossref: a venue harvest (issn of Cell Genomics) over the real recorded works, last harvested a month
  before the newest `deposited` date.

    .venv/bin/python -m tests.index.update_figure
"""

from __future__ import annotations

import datetime as dt
import email.utils
import gzip
import hashlib
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from refhound.index.build import Hooks, Job, build_index
from refhound.index.download import Patience
from refhound.index.update import UpdateOptions, update_index
from refhound.settings import Settings
from tests.index.api_server import WorksServer, real_works
from tests.index.dump_server import DumpServer
from tests.index.oai_server import OaiServer, load_snapshot
from tests.index.test_update import _ELEMENT, dblp_sample
from tests.sources.recorded import load

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "index"


def _month_before(day: str) -> str:
    return (dt.date.fromisoformat(day[:10]) - dt.timedelta(days=30)).isoformat()


def main() -> None:
    scratch = Path(tempfile.mkdtemp(prefix="refhound-update-figure-"))
    os.environ["XDG_CACHE_HOME"] = str(scratch / "cache")
    head, text, tail, elements = dblp_sample()
    dblp_cut = _month_before(max(e[1] for e in elements))
    old_dblp = head + "".join(m.group(0) for m in _ELEMENT.finditer(text) if m.group(2) < dblp_cut) + tail
    works = load_snapshot(SHARED / "arxiv-oai-snapshot-sample-200.jsonl")
    arxiv_cut = _month_before(max(w["update_date"] for w in works))
    old_arxiv = scratch / f"arxiv-{arxiv_cut}.jsonl"
    old_arxiv.write_text("".join(json.dumps(w) + "\n" for w in works if w["update_date"] < arxiv_cut))
    crossref = real_works(load(), "crossref")
    newest = max(crossref, key=lambda w: w["deposited"]["date-time"])
    issn = newest["ISSN"][0]
    crossref_cut = _month_before(newest["deposited"]["date-time"])

    def publish(server: DumpServer, xml: str) -> None:
        body = gzip.compress(xml.encode("latin-1"))
        server.files["/xml/dblp.xml.gz"] = body
        server.files["/xml/dblp.xml.gz.md5"] = hashlib.md5(body, usedforsecurity=False).hexdigest().encode()

    db = scratch / "index.sqlite"
    patience = Patience(retries=2, backoff_s=0.1)
    with (
        DumpServer({"/xml/dblp.dtd": (SHARED / "dblp.dtd").read_bytes()}) as dblp,
        OaiServer(works, page_size=25, now=dt.date.today().isoformat()) as oai,
        WorksServer("crossref", crossref, page_size=20) as api,
    ):
        dblp.last_modified = email.utils.format_datetime(
            dt.datetime.now(dt.UTC) - dt.timedelta(days=30), usegmt=True
        )
        publish(dblp, old_dblp)
        jobs = [Job("dblp", f"{dblp.url}/xml/dblp.xml.gz"), Job("arxiv", str(old_arxiv))]
        loopback = Settings(net={"allow": ["127.0.0.1"]})  # the servers above, past the downloads' guard
        build_index(db, jobs, folder=scratch / "dl", hooks=Hooks(), patience=patience, settings=loopback)
        os.environ["REFHOUND_SOURCES__CROSSREF__BASE_URL"] = api.url
        added = [{"source": "crossref", "filter": f"issn:{issn}", "since": crossref_cut}]
        publish(dblp, text)  # a month later: the whole sample
        dblp.last_modified = email.utils.format_datetime(dt.datetime.now(dt.UTC), usegmt=True)
        with sqlite3.connect(db) as connection:
            before = dict(
                connection.execute("SELECT source, count(*) FROM records GROUP BY source").fetchall()
            )
        options = UpdateOptions(
            folder=scratch / "dl",
            patience=patience,
            arxiv_oai=oai.url,
            oai_delay_s=0,
            add_api=added,
            settings=loopback,
        )
        served = len(dblp.log)
        started = time.perf_counter()
        report = update_index(db, options)
        seconds = time.perf_counter() - started
        requests = {
            "dblp": len(dblp.log) - served,
            "arxiv OAI-PMH": len(oai.requests),
            "crossref": len(api.requests),
        }
    with sqlite3.connect(db) as connection:
        after = dict(connection.execute("SELECT source, count(*) FROM records GROUP BY source").fetchall())
    print(
        f"cut-offs: dblp mdate < {dblp_cut}, arXiv update_date < {arxiv_cut}, Crossref from {crossref_cut}\n"
    )
    print("| source | records a month ago | after the update | added |\n|---|---:|---:|---:|")
    for source in sorted(set(before) | set(after)):
        was, now = before.get(source, 0), after.get(source, 0)
        print(f"| {source} | {was:,} | {now:,} | {now - was:+,} |")
    print(
        f"\nupdate: {seconds:.2f} s wall (loopback, incl. optimize), {report.added} new, "
        f"{report.withdrawn} withdrawn; requests served: {requests}"
    )
    for line in report.lines:
        print(f"- {line}")
    if report.failures:
        print("FAILURES:", report.failures)


if __name__ == "__main__":
    main()
