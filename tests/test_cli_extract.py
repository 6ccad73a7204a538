"""`refhound extract` end to end on a generated PDF: the refhound.extract/1 JSON contract, BibTeX and text
output, links, the LLM backend through a loopback server, and `refhound check` on the same PDF."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import bibtexparser
import pytest
from typer.testing import CliRunner, Result

from refhound.cli import app
from tests.agents.extractor.pdfmaker import Text, body, column, write_pdf
from tests.llm_server import FakeLLMServer, error

runner = CliRunner()

DOI_LINK = "https://doi.org/10.1234/abcd"
PRINTED = [
    "[1] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recog-",
    "\tnition. In Proceedings of the IEEE Conference on Computer Vision and Pattern",
    "\tRecognition (CVPR), pages 770-778, 2016.",
    "[2] S. Jain and B. C. Wallace. Attention is not explanation. In Proceedings of NAACL-HLT,",
    "\tpages 3543-3556, 2019.",
    "[3] D. P. Kingma and J. Ba. Adam: A method for stochastic optimization. In ICLR, 2015.",
    "[4] A. Smith and B. Jones. A study of imaginary things. Journal of Examples, 12(3):1-10, 2021.",
]
RAWS = [  # one line each, the broken "recog-nition" made whole, the numbering removed
    "K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. In Proceedings of "
    "the IEEE Conference on Computer Vision and Pattern Recognition (CVPR), pages 770-778, 2016.",
    "S. Jain and B. C. Wallace. Attention is not explanation. In Proceedings of NAACL-HLT, pages 3543-3556, "
    "2019.",
    "D. P. Kingma and J. Ba. Adam: A method for stochastic optimization. In ICLR, 2015.",
    "A. Smith and B. Jones. A study of imaginary things. Journal of Examples, 12(3):1-10, 2021.",
]
# What a model would reply for each reference, in order (fields copied from the raw strings).
LLM_REPLIES: list[dict[str, Any]] = [
    {
        "title": "Deep residual learning for image recognition",
        "authors": ["K. He", "X. Zhang", "S. Ren", "J. Sun"],
        "venue": "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
        "year": 2016,
        "pages": "770-778",
    },
    {
        "title": "Attention is not explanation",
        "authors": ["S. Jain", "B. C. Wallace"],
        "venue": "Proceedings of NAACL-HLT",
        "year": 2019,
        "pages": "3543-3556",
    },
    {
        "title": "Adam: A method for stochastic optimization",
        "authors": ["D. P. Kingma", "J. Ba"],
        "venue": "ICLR",
        "year": 2015,
    },
    {
        "title": "A study of imaginary things",
        "authors": ["A. Smith", "B. Jones"],
        "venue": "Journal of Examples",
        "year": 2021,
        "volume": "12",
        "pages": "1-10",
    },
]
NULLS = dict.fromkeys(("title", "venue", "year", "doi", "arxiv_id", "url", "volume", "pages"))


@pytest.fixture()
def pdf(tmp_path: Path) -> Path:
    """Two pages: body text, then a reference list whose last entry carries a DOI link annotation."""
    pieces = column(PRINTED, 72, 110, indent=14)
    pieces[-1] = replace(pieces[-1], link=DOI_LINK)
    heading = Text(72, 90, "References", size=12, bold=True)
    return write_pdf(tmp_path / "paper.pdf", [body(40), [heading, *pieces]])


def run(*args: str | Path) -> Result:
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def extract_json(*args: str | Path) -> dict[str, Any]:
    result = run("extract", *args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    extraction: dict[str, Any] = json.loads(result.stdout)
    return extraction


# --- JSON ------------------------------------------------------------------------------------------------


def test_json_output_follows_the_extract_contract(pdf: Path) -> None:
    extraction = extract_json(pdf)
    assert extraction["schema"] == "refhound.extract/1"
    assert extraction["input"] == str(pdf)
    assert extraction["warnings"] == []
    assert extraction["pages"] == 2
    assert extraction["section"].startswith("heading: References")
    references = extraction["references"]
    assert [r["id"] for r in references] == ["1", "2", "3", "4"]
    assert [r["raw"] for r in references] == RAWS
    for reference in references:
        assert set(reference) >= {"id", "raw", "parsed", "page", "confidence", "links", "parser"}
        assert set(reference["parsed"]) >= {"title", "authors", "venue", "year", "doi", "arxiv_id", "url"}
        assert "\n" not in reference["raw"] and reference["raw"] == reference["raw"].strip()
        assert reference["page"] == 2
        assert reference["parser"] == "rules"
        assert reference["confidence"] and all(0.0 <= v <= 1.0 for v in reference["confidence"].values())
    first = references[0]["parsed"]
    assert first["title"] == "Deep residual learning for image recognition"
    assert first["authors"] == ["K. He", "X. Zhang", "S. Ren", "J. Sun"]
    assert first["year"] == 2016


def test_a_link_annotation_becomes_the_references_doi(pdf: Path) -> None:
    references = extract_json(pdf)["references"]
    assert references[3]["links"] == [DOI_LINK]
    assert references[3]["parsed"]["doi"] == "10.1234/abcd"
    assert "10.1234" not in references[3]["raw"]  # the DOI is not printed, only linked
    assert all(r["links"] == [] and r["parsed"]["doi"] is None for r in references[:3])


# --- BibTeX and text -------------------------------------------------------------------------------------


def test_bib_output_parses_back_with_one_entry_per_reference(pdf: Path) -> None:
    result = run("extract", pdf, "--format", "bib")
    assert result.exit_code == 0, result.stderr
    library = bibtexparser.parse_string(result.stdout)
    assert library.failed_blocks == []
    entries = library.entries
    assert len(entries) == len(RAWS)
    assert len({entry.key for entry in entries}) == len(entries)
    first = entries[0]
    assert first.entry_type == "inproceedings"
    assert first["title"].strip("{}") == "Deep residual learning for image recognition"
    assert first["author"] == "K. He and X. Zhang and S. Ren and J. Sun"
    assert first["year"] == "2016"
    assert first["pages"] == "770--778"
    assert entries[3]["doi"] == "10.1234/abcd"
    assert all(
        entry["note"].startswith(f"Extracted from {pdf}, page 2; confidence: title ") for entry in entries
    )


def test_text_output_is_a_line_per_reference_and_its_confidence(pdf: Path) -> None:
    result = run("extract", pdf, "--format", "text")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[::2] == [f"[{n}] (p. 2) {raw}" for n, raw in enumerate(RAWS, start=1)]
    assert all(line.startswith("    confidence: title ") for line in lines[1::2])
    assert "authors 0." in lines[1] and "year 0." in lines[1]


def test_text_is_the_default_format(pdf: Path) -> None:
    assert run("extract", pdf).stdout == run("extract", pdf, "--format", "text").stdout


@pytest.mark.parametrize("fmt", ["json", "bib", "text"])
def test_output_option_writes_the_file_and_nothing_to_stdout(pdf: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"refs.{fmt}"
    result = run("extract", pdf, "--format", fmt, "--output", out)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    written = out.read_text(encoding="utf-8")
    assert written.rstrip("\n") == run("extract", pdf, "--format", fmt).stdout.rstrip("\n")
    if fmt == "json":
        assert len(json.loads(written)["references"]) == len(RAWS)


def test_an_unknown_format_is_a_usage_error(pdf: Path) -> None:
    result = run("extract", pdf, "--format", "xml")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip() == "error: unknown format 'xml'; choose one of: json, bib, text"


def test_an_unknown_llm_mode_is_a_usage_error(pdf: Path) -> None:
    result = run("extract", pdf, "--llm", "sometimes")
    assert result.exit_code == 2
    assert "extract.llm" in result.stderr and "'off', 'low_confidence' or 'all'" in result.stderr


# --- refhound check on a PDF -----------------------------------------------------------------------------


def test_refhound_check_verifies_the_references_of_a_pdf(pdf: Path, small_index: Path) -> None:
    result = run("check", pdf, "--index", small_index, "--format", "json", "--offline")
    assert result.exit_code in (0, 1), result.stderr
    report = json.loads(result.stdout)
    assert report["inputs"] == [str(pdf)]
    references = report["references"]
    assert [r["id"] for r in references] == ["1", "2", "3", "4"]
    assert [r["raw"] for r in references] == RAWS
    assert {r["input"] for r in references} == {str(pdf)}
    verdicts = {r["id"]: r["verdict"] for r in references}
    assert verdicts["1"] == "verified"  # He et al., CVPR 2016, in the small index
    assert verdicts["2"] == "verified"  # Jain and Wallace, NAACL 2019
    assert references[3]["parsed"]["doi"] == "10.1234/abcd"  # the link reaches the checked fields
    assert report["problems"] == []


# --- the LLM backend -------------------------------------------------------------------------------------


def test_llm_all_parses_every_reference_with_the_llm(pdf: Path, llm_server: FakeLLMServer) -> None:
    llm_server.script(*({"authors": []} | NULLS | reply for reply in LLM_REPLIES))
    extraction = extract_json(pdf, "--llm-url", llm_server.url, "--llm-model", "refparser", "--llm", "all")
    references = extraction["references"]
    assert [r["parser"] for r in references] == ["llm"] * 4
    assert [r["parsed"]["title"] for r in references] == [reply["title"] for reply in LLM_REPLIES]
    assert references[2]["parsed"]["authors"] == ["D. P. Kingma", "J. Ba"]
    assert references[3]["parsed"]["doi"] == "10.1234/abcd"  # links still fill what the model left null
    assert extraction["warnings"] == []
    requests = llm_server.requests
    assert len(requests) == 4
    assert all(request["model"] == "refparser" for request in requests)
    assert [request["messages"][1]["content"] for request in requests] == [
        f"Reference:\n{raw}" for raw in RAWS
    ]


def test_an_unavailable_llm_keeps_the_rule_based_fields(pdf: Path, llm_server: FakeLLMServer) -> None:
    llm_server.script(*(error(500, "model crashed") for _ in RAWS))
    result = run("extract", pdf, "--llm-url", llm_server.url, "--llm", "all", "--format", "json")
    assert result.exit_code == 0, result.stderr
    extraction = json.loads(result.stdout)
    rules = extract_json(pdf)["references"]
    assert [r["parser"] for r in extraction["references"]] == ["rules"] * 4
    assert [r["parsed"] for r in extraction["references"]] == [r["parsed"] for r in rules]
    (warning,) = extraction["warnings"]
    assert warning.startswith("LLM parser unavailable (LLM: HTTP 500 from ")
    assert "model crashed" in warning and warning.endswith("the rule-based fields are kept")
    assert result.stderr.splitlines() == [f"warning: {pdf}: {warning}"]
    assert 1 <= len(llm_server.requests) <= len(RAWS)  # the circuit breaker may stop calling early
