"""The HTML report: one self-contained page (inline CSS, no scripts), every value escaped.

Problems come first: the references that are not verified, worst first, each with its cited string and the
wrong field marked inside it, the correct value and a link to the evidence. A header says when and with
what the report was made (date, refhound version, the index and its coverage, online or offline). A long
author list is shown once, in the cited string; a wrong author list names only the names that differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from html import escape
from typing import Any

from refhound import __version__
from refhound.models import (
    Evidence,
    FieldCheck,
    FieldStatus,
    ReferenceResult,
    Report,
    Severity,
    Verdict,
    problem_rank,
)
from refhound.report._common import (
    check_lines,
    cited_at_text,
    count_text,
    deciding_evidence,
    describe_problem,
    display_title,
    evidence_label,
    evidence_tail,
    hallucinated_text,
    input_problems,
    key_lines,
    notice_url,
    retraction_label,
    retraction_text,
    safe_url,
    strongest_reason,
    verdict_text,
)
from refhound.report.marks import author_names, names_not_in, wrong_field_spans

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
table { border-collapse: collapse; margin-bottom: 1.5rem; }
th, td { border: 1px solid #ccc; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td ul { margin: 0; padding-left: 1.1rem; }
pre { white-space: pre-wrap; margin: .3rem 0; }
.verdict { font-weight: bold; }
.verified { color: #17803d; }
.metadata_error { color: #a15c00; }
.fabricated { color: #c62828; }
.unverified { color: #3f5f8f; }
.muted { color: #666; font-size: .9em; }
.meta { color: #444; font-size: .92em; margin: .2rem 0 1rem; }
.cited { font-family: ui-monospace, monospace; font-size: .9em; white-space: pre-wrap; }
mark.wrong { background: #ffd6d6; border-bottom: 2px solid #c62828; }
mark.minor { background: #fff0c2; border-bottom: 2px solid #a15c00; }
.fix { margin: .25rem 0; }
.bar { display: inline-block; width: 5em; height: .6em; background: #eee; vertical-align: middle; }
.bar > span { display: block; height: 100%; background: #c62828; }
.retraction { color: #fff; background: #6a1b9a; font-weight: bold; padding: 0 .3em; border-radius: 3px; }
"""
#: Author lists longer than this are abbreviated in corrections (the cited string shows them whole).
_LONG_AUTHORS = 3


@dataclass(frozen=True)
class ReportHeader:
    """What the header says about the run; `refhound check` knows less of it than `refhound triage`."""

    date: str = field(default_factory=lambda: datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))
    version: str = __version__
    index: str | None = None  # "path (N records)"
    coverage: list[str] = field(default_factory=list)  # complete venue-years, e.g. "acl 2016–2021"
    online: bool | None = None


def header_for(
    index_stats: dict[str, Any] | None, offline: bool, when: datetime | None = None
) -> ReportHeader:
    """The header of a run over the index whose `IndexStore.stats()` are `index_stats`."""
    stats = index_stats or {}
    coverage = [
        f"{c['venue']} {c['from']}" + (f"–{c['to']}" if c["to"] != c["from"] else "")
        for c in stats.get("complete_coverage", [])
    ]
    return ReportHeader(
        date=(when or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC"),
        index=f"{stats['path']} ({stats.get('records')} records)" if "path" in stats else None,
        coverage=coverage,
        online=not offline,
    )


def _list(items: list[str]) -> str:
    """An HTML list of already-escaped items, or nothing."""
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>" if items else ""


def _evidence(evidence: Evidence) -> str:
    label, url = escape(evidence_label(evidence)), safe_url(evidence.url)
    if url:
        label = f'<a href="{escape(url)}">{label}</a>'
    return f"{label} {escape(evidence_tail(evidence))}".rstrip()


def marked_citation(result: ReferenceResult) -> str:
    """The cited string, escaped, with each wrong field's printed value in a `<mark>` whose title is the
    correct value."""
    raw, out, at = result.raw, [], 0
    for start, end, check in wrong_field_spans(result):
        css = "minor" if check.severity is Severity.MINOR else "wrong"
        if check.field == "authors":
            correct = "author not in the record's list"
        else:
            correct = f"{check.field}: should be {check.found}" if check.found else f"{check.field} is wrong"
        out += [escape(raw[at:start]), f'<mark class="{css}" title="{escape(correct)}">']
        out += [escape(raw[start:end]), "</mark>"]
        at = end
    out.append(escape(raw[at:]))
    return "".join(out)


def _short_authors(value: str | None, other: str | None) -> str:
    """An author list for a correction: whole when short; else the names the other list lacks."""
    names = author_names(value or "")
    if len(names) <= _LONG_AUTHORS:
        return value or "—"
    differing = names_not_in(value or "", other or "")
    return f"{len(names)} names" + (f", differing: {', '.join(differing)}" if differing else "")


def _check_lines(result: ReferenceResult) -> list[str]:
    """`check_lines`, with long author lists shortened to the names that differ."""
    shortened = [
        check.model_copy(
            update={
                "cited": check.cited and _short_authors(check.cited, check.found),
                "found": check.found and _short_authors(check.found, check.cited),
            }
        )
        if check.field == "authors" and (check.cited or check.found)
        else check
        for check in result.fields
    ]
    return check_lines(result.model_copy(update={"fields": shortened}))


def _fix(check: FieldCheck, evidence: Evidence | None) -> str:
    """A wrong field as a correction: 'year: 2021 → 2017 (major) per dblp record'."""
    cited, found = check.cited, check.found
    if check.field == "authors":
        cited, found = _short_authors(cited, found), _short_authors(found, cited)
    severity = f" ({check.severity.value})" if check.severity else ""
    line = f"<b>{escape(check.field)}</b>{severity}: {escape(cited or '—')} → <b>{escape(found or '—')}</b>"
    if check.note:
        line += f' <span class="muted">{escape(check.note)}</span>'
    if evidence is not None:
        line += f" — {_evidence(evidence)}"
    return f'<p class="fix">{line}</p>'


def _verdict_cell(result: ReferenceResult) -> str:
    cell = f'<span class="verdict {result.verdict.value}">{escape(verdict_text(result))}</span>'
    if result.retraction is not None:  # about the work, apart from the verdict on the citation
        cell += f'<br><span class="retraction">{escape(retraction_label(result.retraction))}</span>'
    hallucinated = hallucinated_text(result)
    if hallucinated is not None:
        cell += f'<br><span class="muted">hallucinated: {hallucinated}</span>'
    return cell + likelihood_html(result)


def likelihood_html(result: ReferenceResult) -> str:
    """The likelihood of invention as a bar, its value and its strongest reason."""
    if result.likelihood is None:
        return ""
    width = round(100 * result.likelihood)
    why = strongest_reason(result)
    said = f'<br><span class="muted">{escape(why)}</span>' if why else ""
    return (
        f'<br><span class="likelihood" title="likelihood that the reference was invented">'
        f'<span class="bar"><span style="width:{width}%"></span></span> {result.likelihood:.2f}</span>{said}'
    )


def _problem_row(result: ReferenceResult) -> str:
    """A reference that is not verified: the cited string marked, then the corrections with evidence."""
    evidence = deciding_evidence(result)
    wrong = [c for c in result.fields if c.status is FieldStatus.MISMATCH]
    body = f'<div class="cited">{marked_citation(result)}</div>' + retraction_html(result)
    body += "".join(_fix(check, evidence) for check in wrong)
    if result.reason:
        body += f'<p class="muted">{escape(result.reason)}</p>'
    if cited := cited_at_text(result):
        body += f'<p class="muted">{escape(cited)}</p>'
    lines = _list([escape(line) for line in _check_lines(result)])
    sources = _list([_evidence(e) for e in result.evidence])
    if lines or sources:
        body += f"<details><summary>all field checks and evidence</summary>{lines}{sources}</details>"
    cells = [escape(result.id), body, _verdict_cell(result), escape(result.stage)]
    return f'<tr class="{result.verdict.value}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _verified_row(result: ReferenceResult) -> str:
    cells = [
        escape(result.id),
        f"{escape(display_title(result))}{_cited_at(result)}{retraction_html(result)}"
        "<details><summary>cited as</summary>"
        f"<pre>{escape(result.raw)}</pre></details>",
        _verdict_cell(result),
        _list([escape(line) for line in _check_lines(result)]),
        _list([_evidence(evidence) for evidence in result.evidence]),
        escape(result.stage),
    ]
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"


def retraction_html(result: ReferenceResult) -> str:
    """The cited work's mark as a paragraph, its notice linked; '' without a mark."""
    text = retraction_text(result)
    if text is None or result.retraction is None:
        return ""
    url = notice_url(result.retraction)
    link = f' <a href="{escape(url)}">notice</a>' if url else ""
    return (
        f'<p class="fix"><span class="retraction">cited work {escape(text)}</span>{link} '
        '<span class="muted">(about the work; the verdict is about the citation)</span></p>'
    )


def _cited_at(result: ReferenceResult) -> str:
    cited = cited_at_text(result)
    return f'<br><span class="muted">{escape(cited)}</span>' if cited else ""


def _header(*names: str) -> str:
    return "<thead><tr>" + "".join(f"<th>{name}</th>" for name in names) + "</tr></thead>"


def header_lines(header: ReportHeader) -> str:
    """The run's facts as one line of escaped HTML."""
    parts = [f"made {header.date}", f"refhound {header.version}"]
    if header.index:
        parts.append(f"index {header.index}")
    if header.coverage:
        shown = ", ".join(header.coverage[:8]) + (
            f" and {len(header.coverage) - 8} more" if len(header.coverage) > 8 else ""
        )
        parts.append(f"complete for {shown}")
    if header.online is not None:
        parts.append("online" if header.online else "offline (no online source asked)")
    return " · ".join(escape(part) for part in parts)


def _retracted_row(count: int) -> str:
    if not count:
        return ""
    return f'<tr><td class="retraction">retracted, withdrawn or under concern</td><td>{count}</td></tr>'


def render_html(report: Report, header: ReportHeader | None = None) -> str:
    """The report as a standalone HTML page; `header` tells the run's facts (default: date and version)."""
    header = header or ReportHeader()
    summary = report.summary
    counts = "".join(
        f'<tr><td class="{verdict.value}">{verdict.value}</td><td>{count_text(summary, verdict)}</td></tr>'
        for verdict in Verdict
    )
    problems = sorted(
        (r for r in report.references if r.verdict is not Verdict.VERIFIED),
        key=lambda r: (-(r.likelihood or 0.0), problem_rank(r)),
    )
    verified = [r for r in report.references if r.verdict is Verdict.VERIFIED]
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">',
        f"<title>refhound report</title>\n<style>{_STYLE}</style>\n</head>\n<body>",
        "<h1>refhound report</h1>",
        f'<p class="meta" id="run">{header_lines(header)}</p>',
    ]
    if report.inputs:
        parts.append(f"<p>Inputs: {escape(', '.join(report.inputs))}</p>")
    parts += [
        "<h2>Summary</h2>",
        f"<table>{_header('verdict', 'count')}<tbody>{counts}"
        f"<tr><th>total</th><th>{summary.total}</th></tr>{_retracted_row(summary.retracted)}</tbody></table>",
    ]
    if problems:
        parts += [
            f'<h2 id="problems">Problems ({len(problems)})</h2>',
            '<table class="problems">',
            _header("id", "cited as (wrong fields marked) and correction", "verdict", "stage") + "<tbody>",
            *(_problem_row(result) for result in problems),
            "</tbody></table>",
        ]
    if keys := key_lines(report):
        parts += ['<h2 id="keys">Citation keys</h2>', _list([escape(line) for line in keys])]
    if problems_in := input_problems(report):
        items = _list([escape(describe_problem(problem)) for problem in problems_in])
        parts += ["<h2>Input problems</h2>", items]
    if verified:
        parts += [
            f'<h2 id="verified">Verified ({len(verified)})</h2>',
            f"<table>{_header('id', 'reference', 'verdict', 'fields', 'evidence', 'stage')}<tbody>",
            *(_verified_row(result) for result in verified),
            "</tbody></table>",
        ]
    parts.append("</body>\n</html>\n")
    return "\n".join(parts)
