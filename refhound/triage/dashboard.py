"""The triage dashboard: one static `index.html` that works from disk (file://), no server, no network.

Problems first: a headline of the papers with hallucinated references and the papers that could not be
checked, then a table of every paper in ranking order that sorts by any column and filters by text and
status; a paper's name opens its report (`papers/<slug>.html`, flagged references on top). The rows are
rendered in HTML (readable without JavaScript); the small inline script only sorts and filters them.
"""

from __future__ import annotations

from html import escape
from typing import Any

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
.meta { color: #444; font-size: .92em; }
.headline { font-size: 1.1em; margin: 1rem 0; }
.bad { color: #c62828; font-weight: bold; }
.warn { color: #a15c00; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #ccc; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; cursor: pointer; user-select: none; }
td.worst { min-width: 22rem; }
.scroll { overflow-x: auto; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
td.num { text-align: right; }
.bar { display: inline-block; width: 4em; height: 0.6em; background: #eee; vertical-align: middle; }
.bar > span { display: block; height: 100%; background: #c0392b; }
tr.error td { background: #fafafa; color: #666; }
tr.flagged td:first-child { border-left: 4px solid #c62828; }
.flags { margin: 0; padding-left: 1.1rem; font-size: .9em; }
.controls { margin: 1rem 0; display: flex; gap: 1rem; align-items: center; }
"""

_SCRIPT = """
(function () {
  const table = document.getElementById("papers");
  const body = table.tBodies[0];
  const filter = document.getElementById("filter");
  const status = document.getElementById("status");
  const shown = document.getElementById("shown");
  function apply() {
    const text = filter.value.trim().toLowerCase();
    const want = status.value;
    let n = 0;
    for (const row of body.rows) {
      const flagged = row.classList.contains("flagged");
      const ok = (!text || row.textContent.toLowerCase().includes(text)) &&
        (want === "all" || row.dataset.status === want || (want === "flagged" && flagged));
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
  status.addEventListener("change", apply);
  apply();
})();
"""

_COLUMNS: list[tuple[str, str]] = [
    ("rank", "number"),
    ("paper", "text"),
    ("worst references / reason", "text"),
    ("expected invented", "number"),
    ("highest likelihood", "number"),
    ("status", "text"),
    ("references", "number"),
    ("hallucinated", "number"),
    ("minor", "number"),
    ("fabricated", "number"),
    ("metadata errors", "number"),
    ("unverified", "number"),
    ("verified", "number"),
]


def _num(value: int) -> str:
    return f'<td class="num" data-value="{value}">{value}</td>'


def _bar(value: float, top: float) -> str:
    """A number with a bar of its share of `top`, sortable by the number."""
    width = 0 if top <= 0 else round(100 * min(value / top, 1.0))
    return (
        f'<td class="num" data-value="{value}"><span class="bar"><span style="width:{width}%"></span>'
        f"</span> {value:.2f}</td>"
    )


def _row(rank: int, paper: dict[str, Any]) -> str:
    status = str(paper["status"])
    verdicts = paper["verdicts"]
    classes = [status] + (["flagged"] if paper["hallucinated"] else [])
    name = escape(str(paper["paper"]))
    link = f'<a href="{escape(paper["html"])}">{name}</a>' if paper.get("html") else name
    if status == "error":
        detail = f'<span class="warn">{escape(str(paper["error"]))}</span>'
    else:
        detail = '<ul class="flags">' + "".join(f"<li>{escape(f)}</li>" for f in paper["flags"]) + "</ul>"
    cells = [
        _num(rank),
        f'<td data-value="{name}">{link}</td>',
        f'<td class="worst">{detail}</td>',
        _bar(float(paper.get("expected_invented", 0.0)), max(1.0, float(paper.get("references", 0)) / 4)),
        _bar(float(paper.get("max_likelihood", 0.0)), 1.0),
        f"<td>{escape(status)}</td>",
        _num(paper["references"]),
        _num(paper["hallucinated"]),
        _num(paper["minor"]),
        _num(verdicts["fabricated"]),
        _num(verdicts["metadata_error"]),
        _num(verdicts["unverified"]),
        _num(verdicts["verified"]),
    ]
    return f'<tr class="{" ".join(classes)}" data-status="{escape(status)}">' + "".join(cells) + "</tr>"


def _headline(summary: dict[str, Any]) -> str:
    flagged, errors = summary["flagged"], summary["errors"]
    parts = [
        f'<span class="bad">{flagged} of {summary["checked"]} papers cite hallucinated references</span>'
        f" ({summary['hallucinated']} references in all)",
        f"{summary['minor']} minor citation errors",
    ]
    if errors:
        parts.append(f'<span class="warn">{errors} papers could not be checked</span>')
    return '<p class="headline" id="headline">' + "; ".join(parts) + ".</p>"


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
    head = "".join(f'<th data-type="{kind}" scope="col">{escape(name)}</th>' for name, kind in _COLUMNS)
    rows = "\n".join(_row(rank, paper) for rank, paper in enumerate(papers, 1))
    skipped = summary.get("skipped") or []
    skipped_html = ""
    if skipped:
        items = "".join(f"<li>{escape(s['paper'])}: {escape(s['reason'])}</li>" for s in skipped)
        skipped_html = (
            f"<details><summary>{len(skipped)} files passed over</summary><ul>{items}</ul></details>"
        )
    return "\n".join(
        [
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">',
            f"<title>refhound triage</title>\n<style>{_STYLE}</style>\n</head>\n<body>",
            "<h1>refhound triage</h1>",
            _meta(summary),
            _headline(summary),
            '<div class="controls"><label>filter <input id="filter" type="search" '
            'placeholder="paper, reference, reason"></label>'
            '<label>show <select id="status"><option value="all">all papers</option>'
            '<option value="flagged">with hallucinated references</option>'
            '<option value="checked">checked</option><option value="error">could not be checked</option>'
            '</select></label><span id="shown"></span></div>',
            f'<div class="scroll"><table id="papers"><thead><tr>{head}</tr></thead><tbody>\n{rows}\n'
            "</tbody></table></div>",
            skipped_html,
            f"<script>{_SCRIPT}</script>",
            "</body>\n</html>\n",
        ]
    )
