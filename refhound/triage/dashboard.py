"""The triage dashboard: one static `index.html` that works from disk (file://), no server, no network.

Problems first: a headline of the papers with hallucinated references, those citing retracted works and
those that could not be checked, then a table of every paper in ranking order that sorts by any column and
filters by text, by the band of its highest likelihood (flagged, borderline, low), by whether it could mostly
not be checked and by whether it cites a work retracted, withdrawn or under concern (each such work listed
with its mark, notice and date); a paper's name opens its report (`papers/<slug>.html`, flagged references on
top). The rows are rendered in HTML (readable without JavaScript); the small inline script only sorts and
filters them.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }
.meta { color: #444; font-size: .92em; }
.headline { font-size: 1.1em; margin: 1rem 0; }
.bad { color: #c62828; font-weight: bold; }
.ok { color: #2e7d32; }
.warn { color: #a15c00; }
table { border-collapse: collapse; width: 100%; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .25rem .4rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; cursor: pointer; user-select: none; white-space: nowrap; }
td.paper { max-width: 14rem; overflow-wrap: anywhere; }
td.worst { max-width: 30rem; font-size: .92em; }
.scroll { overflow-x: auto; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
td.num { text-align: right; white-space: nowrap; }
.bar { display: inline-block; width: 3em; height: 0.6em; background: #eee; vertical-align: middle; }
.bar > span { display: block; height: 100%; background: #c0392b; }
tr.error td { background: #fafafa; color: #666; }
tr.flagged td:first-child { border-left: 4px solid #c62828; }
tr.unchecked td.unverified { background: #fff4e0; }
.flags { margin: 0; padding-left: 1.1rem; }
.retracted { color: #6a1b9a; margin: .2rem 0 0; }
.controls { margin: 1rem 0; display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
"""

_SCRIPT = """
(function () {
  const table = document.getElementById("papers");
  const body = table.tBodies[0];
  const filter = document.getElementById("filter");
  const show = document.getElementById("show");
  const shown = document.getElementById("shown");
  function wanted(row, want) {
    if (want === "all") return true;
    if (want === "unchecked") return row.dataset.unchecked === "yes";
    if (want === "error") return row.dataset.status === "error";
    if (want === "retracted") return row.dataset.retracted === "yes";
    return row.dataset.band === want;
  }
  function apply() {
    const text = filter.value.trim().toLowerCase();
    let n = 0;
    for (const row of body.rows) {
      const ok = (!text || row.textContent.toLowerCase().includes(text)) && wanted(row, show.value);
      row.hidden = !ok;
      if (ok) n++;
    }
    shown.textContent = n + " of " + body.rows.length + " papers";
  }
  function sortBy(th) {
    const column = th.cellIndex;
    const numeric = th.dataset.type === "number";
    const descending = th.getAttribute("aria-sort") !== "descending";
    for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
    const rows = Array.from(body.rows);
    rows.sort(function (a, b) {
      const x = a.cells[column].dataset.value ?? a.cells[column].textContent;
      const y = b.cells[column].dataset.value ?? b.cells[column].textContent;
      const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return descending ? -order : order;
    });
    for (const row of rows) body.appendChild(row);
  }
  for (const th of table.tHead.rows[0].cells) th.addEventListener("click", function () { sortBy(th); });
  filter.addEventListener("input", apply);
  show.addEventListener("change", apply);
  apply();
})();
"""

# (header, sort type, tooltip). The columns that tell papers apart come first: at 1,280 px every one is
# on screen.
_COLUMNS: list[tuple[str, str, str]] = [
    ("#", "number", "rank: most suspicious first"),
    ("paper", "text", "the submission; its name opens its report"),
    ("worst references / reason", "text", "the references most likely invented, or why the paper failed"),
    ("likelihood", "number", "the highest likelihood of invention of any one reference"),
    ("expected invented", "number", "the sum of the references' likelihoods"),
    ("flagged", "number", "references at or above the likelihood threshold"),
    ("minor", "number", "citation slips, reported with their correction"),
    ("unverified", "number", "references no source could decide (share of the paper's references)"),
    ("verified", "number", "references a record confirms"),
    ("references", "number", "references read from the paper"),
]
# A notice's DOI in a retraction line (refhound.triage.rows.retraction_line), already HTML-escaped.
_NOTICE = re.compile(r"notice (10\.[^\s,()<>\"]+)")
BORDERLINE_BAND = 0.2  # below the threshold by at most this much: borderline
MOSTLY_UNCHECKED = 0.5  # from this share of unverified references, a paper could mostly not be checked


def band(likelihood: float, threshold: float) -> str:
    """The likelihood band a paper's highest likelihood falls in: flagged, borderline or low."""
    if likelihood >= threshold:
        return "flagged"
    return "borderline" if likelihood >= threshold - BORDERLINE_BAND else "low"


def _num(value: int, css: str = "num") -> str:
    return f'<td class="{css}" data-value="{value}">{value}</td>'


def _bar(value: float, top: float) -> str:
    """A number with a bar of its share of `top`, sortable by the number."""
    width = 0 if top <= 0 else round(100 * min(value / top, 1.0))
    return (
        f'<td class="num" data-value="{value}"><span class="bar"><span style="width:{width}%"></span>'
        f"</span> {value:.2f}</td>"
    )


def _retractions(count: int, lines: list[str]) -> str:
    """Each marked cited work on a line of its own (mark, notice linked, date, source, title); a document
    written before the lines were kept has only their count."""
    works = "work" if count == 1 else "works"
    head = f"cites {count} {works} retracted, withdrawn or under concern"
    if not lines:
        return f'<p class="retracted">{head}</p>'
    items = "".join(
        "<li>" + _NOTICE.sub(r'notice <a href="https://doi.org/\1">\1</a>', escape(line)) + "</li>"
        for line in lines
    )
    return f'<p class="retracted">{head}:</p><ul class="flags retracted">{items}</ul>'


def _row(rank: int, paper: dict[str, Any], threshold: float) -> str:
    status = str(paper["status"])
    verdicts = paper["verdicts"]
    references = int(paper["references"])
    share = verdicts["unverified"] / references if references else 0.0
    unchecked = status == "error" or share >= MOSTLY_UNCHECKED
    highest = float(paper.get("max_likelihood", 0.0))
    classes = [status] + (["flagged"] if paper["hallucinated"] else []) + (["unchecked"] if unchecked else [])
    name = escape(str(paper["paper"]))
    link = f'<a href="{escape(paper["html"])}">{name}</a>' if paper.get("html") else name
    retracted = int(paper.get("retracted") or 0)
    if status == "error":
        detail = f'<span class="warn">could not be checked: {escape(str(paper["error"]))}</span>'
    else:
        detail = '<ul class="flags">' + "".join(f"<li>{escape(f)}</li>" for f in paper["flags"]) + "</ul>"
        if retracted:  # said apart: a retracted work can be cited rightly
            detail += _retractions(retracted, paper.get("retractions") or [])

    cells = [
        _num(rank),
        f'<td class="paper" data-value="{name}">{link}</td>',
        f'<td class="worst">{detail}</td>',
        _bar(highest, 1.0),
        _bar(float(paper.get("expected_invented", 0.0)), max(1.0, references / 4)),
        _num(paper["hallucinated"]),
        _num(paper["minor"]),
        f'<td class="num unverified" data-value="{share:.4f}">{verdicts["unverified"]} ({share:.0%})</td>',
        _num(verdicts["verified"]),
        _num(references),
    ]
    attributes = (
        f'class="{" ".join(classes)}" data-status="{escape(status)}" data-band="{band(highest, threshold)}" '
        f'data-unchecked="{"yes" if unchecked else "no"}" data-retracted="{"yes" if retracted else "no"}"'
    )
    return f"<tr {attributes}>" + "".join(cells) + "</tr>"


def _headline(summary: dict[str, Any]) -> str:
    """The problems in one line, coloured by what they are: red only when a paper is flagged."""
    flagged, errors = summary["flagged"], summary["errors"]
    tone = "bad" if flagged else "ok"
    parts = [
        f'<span class="{tone}">{flagged} of {summary["checked"]} papers cite hallucinated references</span>'
        f" ({summary['hallucinated']} references in all)",
        f"{summary['minor']} minor citation errors",
    ]
    if citing := summary.get("papers_citing_retracted"):
        cite = "paper cites" if citing == 1 else "papers cite"
        marked = f"{citing} {cite} works retracted, withdrawn or under concern"
        parts.append(f'<span class="retracted">{marked}</span>')
    if errors:
        parts.append(f'<span class="warn">{errors} papers could not be checked</span>')
    return f'<p class="headline {tone}-run" id="headline">' + "; ".join(parts) + ".</p>"


def _meta(summary: dict[str, Any]) -> str:
    run = summary["run"]
    coverage = run.get("coverage") or []
    shown = ", ".join(coverage[:8]) + (f" and {len(coverage) - 8} more" if len(coverage) > 8 else "")
    parts = [
        f"made {run['date']}",
        f"refhound {run['version']}",
        f"index {run['index']}",
        f"complete for {shown}" if shown else "no venue-year proven complete",
        "online" if run["online"] else "offline (no online source asked)",
        f"{summary['references']} references in {summary['papers']} papers",
    ]
    return '<p class="meta" id="run">' + " · ".join(escape(p) for p in parts) + "</p>"


def render_dashboard(document: dict[str, Any]) -> str:
    """`index.html` of a `refhound.triage/1` document (papers already ranked)."""
    summary = document["summary"]
    papers = document["papers"]
    threshold = float(summary.get("threshold") or 0.5)
    head = "".join(
        f'<th data-type="{kind}" scope="col" title="{escape(tip)}">{escape(name)}</th>'
        for name, kind, tip in _COLUMNS
    )
    rows = "\n".join(_row(rank, paper, threshold) for rank, paper in enumerate(papers, 1))
    skipped = summary.get("skipped") or []
    skipped_html = ""
    if skipped:
        items = "".join(f"<li>{escape(s['paper'])}: {escape(s['reason'])}</li>" for s in skipped)
        skipped_html = (
            f"<details><summary>{len(skipped)} files passed over</summary><ul>{items}</ul></details>"
        )
    low = max(0.0, threshold - BORDERLINE_BAND)
    options = [
        ("all", "all papers"),
        ("flagged", f"flagged: a likelihood ≥ {threshold:.2f}"),
        ("borderline", f"borderline: {low:.2f}–{threshold:.2f}"),
        ("low", f"low: under {low:.2f}"),
        ("unchecked", f"mostly could not be checked (≥ {MOSTLY_UNCHECKED:.0%} unverified, or failed)"),
        ("error", "could not be read"),
        ("retracted", "cite a retracted or withdrawn work, or one under concern"),
    ]
    select = "".join(f'<option value="{value}">{escape(label)}</option>' for value, label in options)
    return "\n".join(
        [
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">',
            f"<title>refhound triage</title>\n<style>{_STYLE}</style>\n</head>\n<body>",
            "<h1>refhound triage</h1>",
            _meta(summary),
            _headline(summary),
            '<div class="controls"><label>filter <input id="filter" type="search" '
            'placeholder="paper, reference, reason"></label>'
            f'<label>show <select id="show">{select}</select></label><span id="shown"></span></div>',
            f'<div class="scroll"><table id="papers"><thead><tr>{head}</tr></thead><tbody>\n{rows}\n'
            "</tbody></table></div>",
            skipped_html,
            f"<script>{_SCRIPT}</script>",
            "</body>\n</html>\n",
        ]
    )
