"""`refhound quotes check` end to end: formats, exit codes, bad input, triples and the entailment check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from refhound.cli import app
from tests.llm_server import FakeLLMServer, error
from tests.quotes.conftest import SOURCE_TEXT
from tests.web.servers import Route, SiteServer

runner = CliRunner()


def quotes(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["quotes", "check", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def memo(tmp_path: Path) -> Path:
    (tmp_path / "source.txt").write_text(SOURCE_TEXT, encoding="utf-8")
    path = tmp_path / "memo.md"
    path.write_text(
        'The court held that "the defendant was not liable for the damages" [1].\n\n[1]: source.txt\n',
        encoding="utf-8",
    )
    return path


def test_all_verified_exits_0_with_json(memo: Path) -> None:
    code, out, _ = quotes(memo, "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert data["schema"] == "refhound.quotes/1" and data["quotes"][0]["status"] == "verified"


def test_problems_exit_1_and_the_table_says_why(memo: Path) -> None:
    memo.write_text(memo.read_text(encoding="utf-8").replace("not liable", "liable"), encoding="utf-8")
    code, out, _ = quotes(memo)
    assert code == 1
    assert "near_match" in out and "1 quotes: 1 near_match" in out


def test_output_file_and_audit_log(memo: Path, tmp_path: Path) -> None:
    report, audit = tmp_path / "out.html", tmp_path / "audit.jsonl"
    code, out, _ = quotes(memo, "-f", "html", "-o", report, "--audit-log", audit)
    assert code == 0 and out == ""
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    types = [json.loads(line)["type"] for line in audit.read_text(encoding="utf-8").splitlines()]
    assert types[0] == "run" and "quote" in types and types[-1] == "summary"


def test_the_report_format_follows_the_output_file_extension(memo: Path, tmp_path: Path) -> None:
    starts = {"out.html": "<!DOCTYPE html>", "out.json": "{", "out.jsonl": '{"type"', "out.md": "The court"}
    for name, start in starts.items():
        code, _, _ = quotes(memo, "-o", tmp_path / name)
        assert code == 0 and (tmp_path / name).read_text(encoding="utf-8").startswith(start), name
    assert "## Quote check" in (tmp_path / "out.md").read_text(encoding="utf-8")  # the memo, annotated
    code, _, _ = quotes(memo, "-f", "markdown", "-o", tmp_path / "forced.html")
    assert "## Quote check" in (tmp_path / "forced.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["markdown", "jsonl", "table"])
def test_other_formats(memo: Path, fmt: str) -> None:
    code, out, _ = quotes(memo, "--format", fmt)
    assert code == 0 and out.strip()


def test_source_option_maps_a_label(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text(SOURCE_TEXT, encoding="utf-8")
    doc = tmp_path / "d.md"
    doc.write_text('It says "revenue rose by 12 percent" [9].\n', encoding="utf-8")
    code, out, _ = quotes(doc, "--source", f"9={tmp_path / 's.txt'}", "-f", "json")
    assert code == 0 and json.loads(out)["quotes"][0]["status"] == "verified"


def test_loopback_url_source_and_link_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")
    monkeypatch.setenv("REFHOUND_QUOTES__RETRIES", "0")
    monkeypatch.setenv("REFHOUND_NET__ALLOW", '["127.0.0.1"]')
    with SiteServer({"/a": Route(f"<p>{SOURCE_TEXT}</p>".encode())}) as server:
        doc = tmp_path / "d.md"
        doc.write_text(f'Per [the court]({server.url}/a): "a well-known result".\n', encoding="utf-8")
        code, out, _ = quotes(doc, "-f", "json")
    data = json.loads(out)
    assert code == 0 and data["quotes"][0]["status"] == "verified"
    assert data["citations"][0]["link"]["status"] == 200


def test_offline_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFHOUND_CHECK__OFFLINE", "false")
    doc = tmp_path / "d.md"
    doc.write_text(
        'It says "some words quoted from the web" [1].\n\n[1]: https://example.org/x\n', encoding="utf-8"
    )
    code, out, _ = quotes(doc, "--offline", "-f", "json")
    item = json.loads(out)["quotes"][0]
    assert code == 1 and item["status"] == "citation_unresolved" and "offline" in item["note"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"", "empty file"),
        (b"\x00\x01\x02binary" * 100, "binary file"),
    ],
)
def test_unusable_documents_exit_2(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "doc.md"
    if content is not None:
        path.write_bytes(content)
    code, _, err = quotes(path)
    assert code == 2 and message in err


def test_enormous_document_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFHOUND_QUOTES__MAX_DOCUMENT_BYTES", "10000")
    path = tmp_path / "big.md"
    path.write_text('"a quoted line of many words" [1].\n' * 1000, encoding="utf-8")
    code, _, err = quotes(path)
    assert code == 2 and "larger than" in err


def test_too_many_quotes_are_cut_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFHOUND_QUOTES__MAX_QUOTES", "3")
    path = tmp_path / "many.md"
    path.write_text(
        "\n\n".join(f'Line {i}: "a quoted line of many words"' for i in range(10)), encoding="utf-8"
    )
    code, out, err = quotes(path, "-f", "json")
    assert code == 1 and len(json.loads(out)["quotes"]) == 3
    assert "only the first 3" in err


def test_unbalanced_quote_warns(tmp_path: Path) -> None:
    path = tmp_path / "u.md"
    path.write_text('An "unclosed quote that never ends here.\n', encoding="utf-8")
    code, _, err = quotes(path)
    assert code == 0 and "unbalanced quote" in err and "no quotations found" in err


@pytest.mark.parametrize(
    "args",
    [["--format", "xml"], ["--source", "nolabel"], ["--entailment"]],
)
def test_usage_errors_exit_2(memo: Path, args: list[str]) -> None:
    code, _, _ = quotes(memo, *args)
    assert code == 2


# --- triples --------------------------------------------------------------------------------------------


def write_triples(tmp_path: Path) -> Path:
    (tmp_path / "s.txt").write_text(SOURCE_TEXT, encoding="utf-8")
    data = {
        "sources": {"court": "s.txt"},
        "triples": [
            {
                "statement": "The defendant won.",
                "source_id": "court",
                "evidence_quote": "the defendant was not liable",
            },
            {
                "statement": "Revenue grew.",
                "source_id": "court",
                "evidence_quote": "revenue rose by 21 percent",
            },
            {"statement": "No source.", "source_id": "nowhere-id", "evidence_quote": "some words here"},
            {"statement": "Broken", "evidence_quote": "no source id"},
        ],
    }
    path = tmp_path / "triples.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def test_triples(tmp_path: Path) -> None:
    path = write_triples(tmp_path)
    code, out, err = quotes(path, "-f", "json")
    data = json.loads(out)
    assert code == 1 and "entailment" not in data
    assert [q["status"] for q in data["quotes"]] == ["verified", "near_match", "citation_unresolved"]
    raw = path.read_text(encoding="utf-8")
    first = data["quotes"][0]
    assert raw[first["start"] : first["end"]] == "the defendant was not liable"
    assert "triple 3: no source_id" in err


def test_triples_as_json_lines(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text(SOURCE_TEXT, encoding="utf-8")
    path = tmp_path / "t.jsonl"
    line = {"statement": "x", "source_id": str(tmp_path / "s.txt"), "evidence_quote": "a well-known result"}
    path.write_text(json.dumps(line) + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    code, out, _ = quotes(path, "-f", "json")
    assert code == 0 and len(json.loads(out)["quotes"]) == 2


def test_bad_triples_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text('{"not": "triples"}', encoding="utf-8")
    code, _, err = quotes(path)
    assert code == 2 and "not a triples file" in err
    path.write_text("{broken", encoding="utf-8")
    assert quotes(path)[0] == 2


def test_entailment_is_recorded_apart(tmp_path: Path, llm_server: FakeLLMServer) -> None:
    path = write_triples(tmp_path)
    llm_server.script(
        {"verdict": "contradicted", "reason": "The quote says the defendant was not liable."},
        {"verdict": "entailed", "reason": "Revenue rose."},
        error(500, "model crashed"),
    )
    code, out, _ = quotes(path, "--entailment", "--llm-url", llm_server.url, "-f", "json")
    data = json.loads(out)
    assert code == 1
    assert [q["status"] for q in data["quotes"]] == ["verified", "near_match", "citation_unresolved"]
    verdicts = [(e["verdict"], e["error"] is None) for e in data["entailment"]]
    assert verdicts == [("contradicted", True), ("entailed", True), (None, False)]
    assert "Passage:" in llm_server.requests[0]["messages"][1]["content"]


def test_no_local_files_refuses_the_paths_a_document_names(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(SOURCE_TEXT, encoding="utf-8")
    given = tmp_path / "given.txt"
    given.write_text(SOURCE_TEXT, encoding="utf-8")
    memo = tmp_path / "untrusted.md"
    memo.write_text(
        'It held that "the defendant was not liable for the damages" [1]. Also "the defendant was not '
        f'liable for the damages" [2], and "the defendant was not liable for the damages" [3].\n\n'
        f"[1]: {secret}\n[2]: file://{secret}\n[3]: given.txt\n",
        encoding="utf-8",
    )
    code, out, _ = quotes(memo, "--format", "json")
    assert code == 0 and {q["status"] for q in json.loads(out)["quotes"]} == {"verified"}

    code, out, _ = quotes(memo, "--format", "json", "--no-local-files", "--source", f"3={given}")
    assert code == 1
    first, second, third = json.loads(out)["quotes"]
    assert first["status"] == second["status"] == "citation_unresolved"
    assert f"{secret}: a local file the document names: refused (--no-local-files" in json.dumps(first)
    assert third["status"] == "verified"  # named on the command line: the user's own choice
    links = json.dumps(json.loads(out))
    assert "not checked: local files are refused" in links


def test_the_help_says_local_files_are_read() -> None:
    result = runner.invoke(app, ["quotes", "check", "--help"])
    help_text = " ".join(result.stdout.split())
    assert "--no-local-files" in help_text and "A citation may name a local file" in help_text
