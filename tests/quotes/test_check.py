"""The check end to end (document → results), and its renderings: JSON, JSONL audit log, Markdown, HTML."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from refhound.quotes import QUOTES_SCHEMA, check_document, read_document
from refhound.quotes.annotate import render_html, render_markdown
from refhound.quotes.render import render_json, render_jsonl
from refhound.quotes.report import QuoteReport
from refhound.settings import Settings
from tests.quotes.conftest import SOURCE_TEXT, make_pdf
from tests.web.servers import Route, SiteServer

REPORT = """# Findings

The court found that “the defendant was not liable for the damages” [1]. It also noted that
"revenue rose by 21 percent, and the company may expand" [1].

A web page says "the page text is quoted here exactly" [2], and the paper "the company may expand into
new markets" [3].

An unreadable source: "this quote cites nothing we can read" [4]. Another "this sentence is not in any
source anywhere" [1].

A new paragraph: "an uncited quotation stands here alone".

> The court held that the defendant was not liable for the damages.
> — The court [1]

[1]: source.txt
[2]: {url}/page
[3]: file://paper.pdf
[4]: {url}/missing
"""

QUOTE_KEYS = [
    "text", "start", "end", "citation", "source", "status", "source_start", "source_end", "matched_text",
    "source_sha256", "note", "alterations", "confidence", "confidence_basis", "confidence_notes",
]  # fmt: skip


def run_check(tmp_path: Path, server: SiteServer, settings: Settings) -> QuoteReport:
    (tmp_path / "source.txt").write_text(SOURCE_TEXT, encoding="utf-8")
    make_pdf(
        tmp_path / "paper.pdf",
        ["In 2019, revenue rose by 12 percent, and the company may expand into", "new markets."],
    )
    server.add("/page", Route(b"<html><body><p>The page text is quoted here exactly.</p></body></html>"))
    document = tmp_path / "report.md"
    document.write_text(REPORT.replace("{url}", server.url), encoding="utf-8")
    return asyncio.run(check_document(read_document(document, settings), settings))


def test_statuses_offsets_and_versions(tmp_path: Path, server: SiteServer, online: Settings) -> None:
    report = run_check(tmp_path, server, online)
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    by_text = {r.quote.text: r for r in report.results}
    verified = by_text["the defendant was not liable for the damages"]
    assert verified.status == "verified" and verified.citation == "[1]"
    assert text[verified.quote.start : verified.quote.end] == verified.quote.text
    assert SOURCE_TEXT[verified.source_start : verified.source_end] == verified.matched_text
    assert verified.source_sha256 and verified.source == str(tmp_path / "source.txt")
    assert by_text["revenue rose by 21 percent, and the company may expand"].status == "near_match"
    assert by_text["the page text is quoted here exactly"].status == "verified"
    assert by_text["the company may expand into\nnew markets"].status == "verified"  # PDF via file://
    unresolved = by_text["this quote cites nothing we can read"]
    assert unresolved.status == "citation_unresolved" and "HTTP 404" in unresolved.note
    assert by_text["this sentence is not in any\nsource anywhere"].status == "not_found"
    assert by_text["an uncited quotation stands here alone"].status == "uncited"
    block = by_text["The court held that the defendant was not liable for the damages."]
    assert (block.status, block.citation) == ("verified", "[1]")
    assert report.counts() == {
        "verified": 4, "near_match": 1, "not_found": 1, "citation_unresolved": 1, "uncited": 1,
    }  # fmt: skip


def test_offline_run_never_matches_against_another_source(
    tmp_path: Path, server: SiteServer, offline: Settings
) -> None:
    report = run_check(tmp_path, server, offline)
    page = next(r for r in report.results if r.citation == "[2]")
    assert page.status == "citation_unresolved" and page.note.startswith("[2]: offline")
    assert page.source_sha256 is None and page.matched_text is None
    assert server.paths() == []


def test_json_follows_the_schema(tmp_path: Path, server: SiteServer, online: Settings) -> None:
    data = json.loads(render_json(run_check(tmp_path, server, online)))
    assert list(data) == ["schema", "quotes", "citations", "summary", "confidence", "confidence_notes"]
    assert data["schema"] == QUOTES_SCHEMA
    assert all(list(item) == QUOTE_KEYS for item in data["quotes"])
    citations = {c["key"]: c for c in data["citations"]}
    assert (
        citations["1"]["source_sha256"]
        and citations["1"]["fetched_at"]
        and citations["1"]["status"] == "resolved"
    )
    assert citations["2"]["link"]["status"] == 200 and citations["2"]["link"]["final_url"].endswith("/page")
    assert citations["4"]["status"] == "unresolved" and "404" in citations["4"]["reason"]
    assert citations["4"]["link"]["status"] == 404
    assert data["summary"]["total"] == 8 and data["summary"]["verified"] == 4


def test_confidence_without_evaluators_rests_on_the_quotes_location_alone(
    tmp_path: Path, server: SiteServer, online: Settings
) -> None:
    data = json.loads(render_json(run_check(tmp_path, server, online)))
    quotes = data["quotes"]
    located = [q["status"] not in {"not_found", "citation_unresolved", "uncited"} and not q["alterations"]
               for q in quotes]  # fmt: skip
    assert 0 < located.count(False) < len(quotes)
    for quote, found in zip(quotes, located, strict=True):
        assert "evaluations" not in quote and quote["confidence_basis"] == ["quote_location"]
        assert quote["confidence"] == (1.0 if found else 0.5)  # no evaluator raised or lowered it
        assert "entailment, relevance, factcheck did not run" in quote["confidence_notes"][0]
    share = located.count(False) / len(located)
    expected = 0.5 if share >= 0.5 else max(0.7, 1 - share * 0.4)
    assert data["confidence"] == round(expected, 4) and "evaluated" not in data
    assert "did not run: not asked (--evaluate)" in data["confidence_notes"][0]


def test_jsonl_audit_log(tmp_path: Path, server: SiteServer, online: Settings) -> None:
    lines = [
        json.loads(line) for line in render_jsonl(run_check(tmp_path, server, online), online).splitlines()
    ]
    kinds = [line["type"] for line in lines]
    assert kinds[0] == "run" and kinds[-1] == "summary"
    assert kinds.count("quote") == 8 and kinds.count("source") == 4 and kinds.count("link") == 4
    assert lines[0]["settings"]["fuzzy_max_ratio"] == online.quotes.fuzzy_max_ratio


def test_markdown_marks_unverified_quotes_inline(
    tmp_path: Path, server: SiteServer, online: Settings
) -> None:
    rendered = render_markdown(run_check(tmp_path, server, online))
    marked = '"<mark>revenue rose by 21 percent, and the company may expand</mark>"'
    assert f"{marked} **⚠ near_match 🔴 altered: number [Q2]**" in rendered  # a changed number: red
    assert "“<mark>the defendant was not liable" not in rendered  # verified quotes stay as they are
    assert "## Quote check" in rendered
    assert "- **Q2 · near_match** · 🔴 **altered: number** — cited as [1]" in rendered


def test_html_is_self_contained_and_escaped(tmp_path: Path, server: SiteServer, online: Settings) -> None:
    report = run_check(tmp_path, server, online)
    html = render_html(report)
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html
    assert '<mark class="near_match altered"' in html and 'class="badge uncited"' in html
    assert '<tr id="q2">' in html


def test_no_quotes_at_all(tmp_path: Path, offline: Settings) -> None:
    document = tmp_path / "plain.md"
    document.write_text(
        "Nothing is quoted in this report [1].\n\n[1]: https://example.org\n", encoding="utf-8"
    )
    report = asyncio.run(check_document(read_document(document, offline), offline))
    assert report.results == [] and report.all_verified
    assert "0 quotes" in render_markdown(report)


def test_sources_given_on_the_command_line_win(tmp_path: Path, offline: Settings) -> None:
    (tmp_path / "other.txt").write_text(SOURCE_TEXT, encoding="utf-8")
    document = tmp_path / "memo.md"
    document.write_text('Held: "the defendant was not liable for the damages" [7].\n', encoding="utf-8")
    sources = {"7": str(tmp_path / "other.txt")}
    report = asyncio.run(check_document(read_document(document, offline), offline, sources))
    assert report.results[0].status == "verified"


def test_every_offset_points_at_its_text(tmp_path: Path, server: SiteServer, online: Settings) -> None:
    report = run_check(tmp_path, server, online)
    document = (tmp_path / "report.md").read_text(encoding="utf-8")
    sources = {str(tmp_path / "source.txt"): SOURCE_TEXT}
    for result in report.results:
        if result.quote.style != "block":  # a block quote's span holds its ">" markers too
            assert document[result.quote.start : result.quote.end] == result.quote.text
        if result.source in sources and result.status in ("verified", "near_match"):
            assert result.source_start is not None and result.source_end is not None
            assert sources[result.source][result.source_start : result.source_end] == result.matched_text


def test_image_alt_text_and_html_are_no_quotations(tmp_path: Path, offline: Settings) -> None:
    document = tmp_path / "doc.md"
    document.write_text(
        '![a chart of "the quarterly sales by region"](chart.png)\n\n'
        '<span title="an attribute value in quotes">x</span> and nothing else.\n',
        encoding="utf-8",
    )
    assert asyncio.run(check_document(read_document(document, offline), offline)).results == []


def test_a_landing_page_only_source_says_so_in_the_note(
    tmp_path: Path, server: SiteServer, online: Settings
) -> None:
    server.add("/doi/10.1234/abs", Route(b"<html><body><p>Only the abstract is here.</p></body></html>"))
    document = tmp_path / "doc.md"
    document.write_text('It found "a result from the body of the paper" [1].\n\n[1]: 10.1234/abs\n')
    (result,) = asyncio.run(check_document(read_document(document, online), online)).results
    assert result.status == "not_found" and "landing page" in result.note


def test_an_unfetchable_source_is_unresolved_with_the_reason(
    tmp_path: Path, server: SiteServer, online: Settings
) -> None:
    server.add("/down", Route(b"unavailable", 503, "text/plain"))
    document = tmp_path / "doc.md"
    document.write_text(
        f'It says "words from a page that is down" [1] and "words from a closed port" [2].\n\n'
        f"[1]: {server.url}/down\n[2]: http://127.0.0.1:9/closed\n",
        encoding="utf-8",
    )
    down, closed = asyncio.run(check_document(read_document(document, online), online)).results
    assert (down.status, closed.status) == ("citation_unresolved", "citation_unresolved")
    assert "HTTP 503" in down.note and "cannot be fetched" in closed.note


def test_quotations_in_and_around_links_are_read_without_the_link_syntax(
    tmp_path: Path, offline: Settings
) -> None:
    (tmp_path / "source.txt").write_text(SOURCE_TEXT, encoding="utf-8")
    document = tmp_path / "doc.md"
    document.write_text(
        'Held: "[the defendant was not liable for the damages](source.txt)".\n\n'
        'Held [that "the defendant was not liable for the damages"](source.txt).\n\n'
        'Held: "the court [held](source.txt) that the defendant was not liable" [1].\n\n'
        "[1]: source.txt\n",
        encoding="utf-8",
    )
    report = asyncio.run(check_document(read_document(document, offline), offline))
    assert [(r.quote.text, r.status) for r in report.results] == [
        ("the defendant was not liable for the damages", "verified"),
        ("the defendant was not liable for the damages", "verified"),
        ("the court held that the defendant was not liable", "verified"),
    ]
    assert report.warnings == []


def test_empty_and_binary_sources_are_unresolved_never_not_found(tmp_path: Path, offline: Settings) -> None:
    (tmp_path / "empty.txt").write_text(" \n", encoding="utf-8")
    (tmp_path / "blob.bin").write_bytes(bytes(range(256)) * 8)
    document = tmp_path / "doc.md"
    document.write_text(
        'One "quote that cites an empty file" [1]. Two "quote that cites a binary file" [2].\n\n'
        "[1]: empty.txt\n[2]: blob.bin\n",
        encoding="utf-8",
    )
    empty, binary = asyncio.run(check_document(read_document(document, offline), offline)).results
    assert (empty.status, empty.note) == ("citation_unresolved", "[1]: empty source")
    assert binary.status == "citation_unresolved" and binary.note.startswith("[2]: binary content")


def test_html_rendering_escapes_the_document(tmp_path: Path, offline: Settings) -> None:
    document = tmp_path / "doc.md"
    document.write_text(
        'A <script>alert(1)</script> and "a quotation that nobody cited at all".\n', encoding="utf-8"
    )
    html = render_html(asyncio.run(check_document(read_document(document, offline), offline)))
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert '<mark class="uncited"' in html
