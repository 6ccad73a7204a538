"""Every report format carries the verdicts, the corrections with their source, and the input problems."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable

import pytest
from rich.console import Console

from refhound.models import (
    Evidence,
    FieldCheck,
    FieldStatus,
    InputProblem,
    ParsedFields,
    ReferenceResult,
    Report,
    Severity,
    Verdict,
)
from refhound.report import FORMATS, print_report, render
from refhound.report.html import render_html
from refhound.report.markdown import render_markdown
from refhound.report.text import render_text

ANSI = re.compile(r"\x1b\[")
BERT_RAW = """@inproceedings{devlin2019bert,
  title = {{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding},
  author = {Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
  booktitle = {NAACL},
  year = {2019}
}"""
FAKE_TITLE = "Sparse Mixture | Attention <script>alert('x')</script> for Long Documents"


@pytest.fixture
def report() -> Report:
    bert = ReferenceResult(
        id="devlin2019bert",
        raw=BERT_RAW,
        parsed=ParsedFields(
            title="BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
            authors=["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
            venue="NAACL",
            year=2019,
        ),
        verdict=Verdict.VERIFIED,
        hallucinated=False,
        fields=[
            FieldCheck(field="title", status=FieldStatus.MATCH),
            FieldCheck(field="year", status=FieldStatus.MATCH, cited="2019", found="2019"),
            FieldCheck(
                field="venue",
                status=FieldStatus.BENIGN,
                cited="NAACL",
                found="NAACL-HLT (1)",
                note="same venue, abbreviated",
            ),
        ],
        evidence=[
            Evidence(
                source="dblp",
                record_id="conf/naacl/DevlinCLT19",
                url="https://dblp.org/rec/conf/naacl/DevlinCLT19",
                score=0.99,
            )
        ],
        stage="index_title",
        elapsed_ms=3.2,
        input="paper/refs.bib",
    )
    transformer = ReferenceResult(
        id="2",
        raw="A. Vaswani, N. Parmar et al. Attention is all you need. In NeurIPS, 2021.",
        parsed=ParsedFields(
            title="Attention is all you need",
            authors=["A. Vaswani", "N. Parmar"],
            authors_truncated=True,
            venue="NeurIPS",
            year=2021,
        ),
        verdict=Verdict.METADATA_ERROR,
        severity=Severity.MAJOR,
        hallucinated=True,
        fields=[
            FieldCheck(field="title", status=FieldStatus.MATCH),
            FieldCheck(
                field="year", status=FieldStatus.MISMATCH, severity=Severity.MAJOR, cited="2021", found="2017"
            ),
            FieldCheck(field="authors", status=FieldStatus.BENIGN, note="truncated with et al."),
        ],
        evidence=[
            Evidence(
                source="dblp",
                record_id="conf/nips/VaswaniSPUJGKP17",
                url="https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17",
                score=0.97,
            )
        ],
        stage="index_title",
        reason="The year differs from the dblp record.",
        input="paper/refs.txt",
    )
    fake = ReferenceResult(
        id="3",
        raw=f"J. Smith and L. Chen. {FAKE_TITLE}. In ICML, 2022.",
        parsed=ParsedFields(title=FAKE_TITLE, authors=["J. Smith", "L. Chen"], venue="ICML", year=2022),
        verdict=Verdict.FABRICATED,
        hallucinated=True,
        stage="online_search",
        reason="No record in dblp, the ACL Anthology or Crossref resembles the title (best score 0.41).",
        input="paper/refs.txt",
    )
    iclr = ReferenceResult(
        id="4",
        raw="Y. Zhang et al. Efficient Sparse Attention. ICLR 2021.",
        parsed=ParsedFields(title="Efficient Sparse Attention", authors=["Y. Zhang"], year=2021),
        verdict=Verdict.UNVERIFIED,
        hallucinated=None,
        stage="index_title",
        reason="index does not cover ICLR 2021",
        input="paper/refs.txt",
    )
    problem = InputProblem(input="paper/refs.bib", location="line 42", message="unbalanced braces in entry")
    return Report(
        inputs=["paper/refs.bib", "paper/refs.txt"],
        references=[bert, transformer, fake, iclr],
        problems=[problem],
    )


def _terminal(
    report: Report, *, no_color: bool = False, force_terminal: bool | None = None, width: int = 80
) -> str:
    out = io.StringIO()
    print_report(report, Console(file=out, width=width, no_color=no_color, force_terminal=force_terminal))
    return out.getvalue()


def _essentials(output: str) -> None:
    for verdict in Verdict:
        assert re.search(rf"\b{verdict.value}\b", output, re.IGNORECASE)
    assert "2017" in output and "dblp" in output
    assert "conf/nips/VaswaniSPUJGKP17" in output
    assert "benign" in output
    assert "index does not cover ICLR 2021" in output
    assert "unbalanced braces in entry" in output
    assert "metadata_error (major)" in output.replace("METADATA_ERROR (MAJOR)", "metadata_error (major)")


@pytest.mark.parametrize("fmt", ["md", "text", "html"])
def test_string_formats_carry_the_essentials(report: Report, fmt: str) -> None:
    _essentials(render(report, fmt))


def test_terminal_carries_the_essentials_without_ansi(report: Report) -> None:
    for no_color in (False, True):
        output = _terminal(report, no_color=no_color)
        assert not ANSI.search(output)
        assert all(len(line) <= 80 for line in output.splitlines())
        assert "year: 2021 → 2017 (dblp) (major)" in output
        _essentials(output)


def test_terminal_colours_verdicts_on_a_terminal(report: Report) -> None:
    assert ANSI.search(_terminal(report, force_terminal=True))


def test_json_follows_the_contract(report: Report) -> None:
    data = json.loads(render(report, "json"))
    assert data["schema"] == "refhound.report/1"
    assert data["inputs"] == ["paper/refs.bib", "paper/refs.txt"]
    counts = {"verified": 1, "metadata_error": 1, "fabricated": 1, "unverified": 1}
    assert data["summary"] == {"total": 4, **counts, "major": 1, "minor": 0, "retracted": 0}
    for ref in data["references"]:
        keys = {"id", "raw", "parsed", "verdict", "severity", "hallucinated", "fields", "evidence", "stage"}
        assert keys <= set(ref)
        assert {"title", "authors", "venue", "year", "doi", "arxiv_id", "url"} <= set(ref["parsed"])
        for check in ref["fields"]:
            assert {"field", "status", "severity", "cited", "found", "note"} <= set(check)
        for evidence in ref["evidence"]:
            assert {"source", "record_id", "url", "score"} <= set(evidence)
    wrong_year = data["references"][1]
    assert (wrong_year["verdict"], wrong_year["severity"]) == ("metadata_error", "major")
    year = {
        "field": "year",
        "status": "mismatch",
        "level": None,
        "severity": "major",
        "cited": "2021",
        "found": "2017",
        "note": "",
    }
    assert year in wrong_year["fields"]
    data.pop("summary")  # computed on output, not an input field
    assert Report.model_validate(data) == report


def test_text_blocks_are_greppable(report: Report) -> None:
    output = render_text(report)
    assert not ANSI.search(output)
    assert "[2] METADATA_ERROR (MAJOR)  Attention is all you need" in output
    assert "  year: 2021 → 2017 (dblp) (major)" in output
    assert "  venue [benign]: NAACL → NAACL-HLT (1) (dblp); same venue, abbreviated" in output
    url = "https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17"
    assert f"  evidence: dblp conf/nips/VaswaniSPUJGKP17 {url} score=0.97" in output
    assert "[4] UNVERIFIED  Efficient Sparse Attention" in output
    assert "hallucinated: yes" in output and "hallucinated: no" in output
    assert "paper/refs.bib:line 42: unbalanced braces in entry" in output


def test_html_escapes_untrusted_values(report: Report) -> None:
    output = render_html(report)
    assert "<script>" not in output
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in output
    assert output.startswith("<!DOCTYPE html>")
    assert 'href="https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17"' in output
    assert "<link" not in output and 'src="' not in output


@pytest.mark.parametrize("renderer", [render_html, render_markdown])
def test_only_web_urls_become_links(report: Report, renderer: Callable[[Report], str]) -> None:
    report.references[1].evidence[0].url = "javascript:alert(1)"
    output = renderer(report)
    assert "conf/nips/VaswaniSPUJGKP17" in output
    assert 'href="javascript' not in output and "](javascript" not in output


def test_markdown_escapes_table_cells(report: Report) -> None:
    output = render_markdown(report)
    assert r"Sparse Mixture \| Attention \<script\>" in output
    row = next(line for line in output.splitlines() if line.startswith("| 3 |"))
    assert len(re.findall(r"(?<!\\)\|", row)) == 6  # five columns, no stray separators
    assert "## Details" in output
    assert "### devlin2019bert" not in output  # verified references get no details
    assert "| year | mismatch (major) | 2021 | 2017 |" in output
    assert "[dblp conf/nips/VaswaniSPUJGKP17](https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17)" in output
    assert "| metadata_error | 1 (1 major, 0 minor) |" in output


def _slip() -> ReferenceResult:
    """A real work cited with its preprint's year: a minor error, reported as a correction."""
    return ReferenceResult(
        id="5",
        raw="S. Jain and B. C. Wallace. Attention is not explanation. In NAACL, 2020.",
        parsed=ParsedFields(title="Attention is not explanation", venue="NAACL", year=2020),
        verdict=Verdict.METADATA_ERROR,
        severity=Severity.MINOR,
        hallucinated=False,
        fields=[
            FieldCheck(
                field="year",
                status=FieldStatus.MISMATCH,
                severity=Severity.MINOR,
                cited="2020",
                found="2019",
                note="preprint year",
            )
        ],
        evidence=[Evidence(source="dblp", record_id="conf/naacl/JainW19")],
        stage="index_title",
    )


@pytest.mark.parametrize("fmt", ["table", "md", "text", "html"])
def test_a_minor_error_reads_as_a_correction_and_is_counted_apart(report: Report, fmt: str) -> None:
    report.references.append(_slip())
    # A wide terminal, so that no line of the table wraps.
    output = _terminal(report, no_color=True, width=200) if fmt == "table" else render(report, fmt)
    verdicts = output.lower()  # the text format writes verdicts in capitals
    assert "metadata_error (minor)" in verdicts and "metadata_error (major)" in verdicts
    if fmt == "md":
        assert "| year | mismatch (minor) | 2020 | 2019 | preprint year |" in output
        assert "| metadata_error | 2 (1 major, 1 minor) |" in output
    elif fmt == "html":
        assert "year: 2020 → 2019 (dblp) (minor: preprint year)" in output
        assert "<td>2 (1 major, 1 minor)</td>" in output
    else:
        assert "year: 2020 → 2019 (dblp) (minor: preprint year)" in output
        assert "2 metadata_error (1 major, 1 minor)" in output
    assert "hallucinated: no" in output


def test_summary_splits_metadata_errors_by_severity(report: Report) -> None:
    unrated = _slip().model_copy(update={"severity": None, "hallucinated": True})
    report.references += [_slip(), unrated]
    summary = report.summary
    # An error without a severity counts as major, as the hallucinated flag counts it.
    assert (summary.metadata_error, summary.major, summary.minor) == (3, 2, 1)


def test_render_rejects_unknown_formats(report: Report) -> None:
    assert FORMATS == ("json", "md", "text", "html")
    with pytest.raises(ValueError, match="json, md, text, html"):
        render(report, "pdf")


def test_json_written_a_reference_at_a_time_is_the_whole_report(report: Report) -> None:
    """`write_json` (a large input's report, never held) writes what `Report.to_json` does."""
    from refhound.models import ProblemKind
    from refhound.report.json import write_json

    latex = [
        InputProblem(input="main.tex", message="never cited", kind=ProblemKind.UNCITED_KEY, key="x"),
        InputProblem(
            input="main.tex", message="no entry", kind=ProblemKind.MISSING_KEY, key="y", cited_at=["a:1"]
        ),
    ]
    noted = report.model_copy(update={"problems": [*report.problems, *latex]})
    for references in (noted.references, noted.references[:1], []):
        whole = noted.model_copy(update={"references": references})
        out = io.StringIO()
        summary = write_json(noted.model_copy(update={"references": []}), references, out)
        assert out.getvalue() == whole.to_json()
        assert summary == whole.summary
