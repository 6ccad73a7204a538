"""Entry caps (`EntryLimits`): too many entries refuse a file before any entry is parsed; an entry too long
to be one reference is skipped unparsed, naming its length, and the entries around it are still read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from refhound.inputs import EntryLimits, TooManyEntries, read_input

GOOD = "A. Author and B. Author. A perfectly ordinary title. In Proceedings of Something, 2019."
LIMITS = EntryLimits(max_entries=3, max_entry_chars=1000)


def fail(*_: Any, **__: Any) -> Any:
    raise AssertionError("parsed although the limits refuse the input")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "text", "what", "parser"),
    [
        (
            "refs.bib",
            "\n".join(f"@article{{k{n}, title={{Title {n}}}, year={{2019}}}}" for n in range(4)),
            "4 BibTeX entries",
            "refhound.inputs.bibstream.parse_bibtex",
        ),
        (  # entries one after another on one line count as well
            "refs.bib",
            "".join(f"@misc{{k{n}, title={{T}}}}" for n in range(5)) + '\n@string{x = "y"}',
            "5 BibTeX entries",
            "refhound.inputs.bibstream.parse_bibtex",
        ),
        (
            "refs.txt",
            "\n\n".join([GOOD] * 4),
            "4 references",
            "refhound.inputs.plaintext.parse_list_entry",
        ),
        ("refs.json", json.dumps([{"title": "T"}] * 4), "4 CSL items", "refhound.inputs.csl._item_fields"),
        (
            "refs.bbl",
            "\\begin{thebibliography}{4}\n" + "".join(f"\\bibitem{{k{n}}} {GOOD}\n" for n in range(4)),
            "4 bibliography items",
            "refhound.inputs.bbl.parse_list_entry",
        ),
    ],
)
def test_too_many_entries_are_refused_before_any_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, what: str, parser: str
) -> None:
    monkeypatch.setattr(parser, fail)
    with pytest.raises(TooManyEntries, match=f"{what}; at most 3 are read") as raised:
        read_input(write(tmp_path, name, text), limits=LIMITS)
    assert raised.value.limit == 3


def test_an_overlong_line_is_skipped_unparsed_naming_its_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refhound.inputs import plaintext

    join = plaintext._join

    def short_only(lines: list[str]) -> str:  # the over-long one is never joined, let alone parsed
        assert sum(map(len, lines)) <= 1000
        return join(lines)

    monkeypatch.setattr(plaintext, "_join", short_only)
    read = read_input(
        write(tmp_path, "refs.txt", f"[1] {GOOD}\n[2] {'x' * 5000}\n[3] {GOOD}\n"), limits=LIMITS
    )
    assert [ref.parsed.title for ref in read.references] == ["A perfectly ordinary title"] * 2
    (problem,) = read.problems
    assert problem.location == "line 2"
    assert problem.message == "5,004 characters long, too long for one reference (at most 1,000): skipped"


def test_a_one_line_file_of_megabytes_is_one_overlong_reference(tmp_path: Path) -> None:
    read = read_input(write(tmp_path, "refs.txt", "x" * 3_000_000), limits=LIMITS)
    assert read.references == []
    assert [problem.message for problem in read.problems] == [
        "no references found (read as text)",
        "3,000,000 characters long, too long for one reference (at most 1,000): skipped",
    ]


def test_an_overlong_bibtex_entry_is_skipped_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refhound.inputs import bibstream

    parse = bibstream.parse_bibtex

    def short_only(text: str) -> Any:
        assert "x" * 1000 not in text
        return parse(text)

    monkeypatch.setattr(bibstream, "parse_bibtex", short_only)
    text = (
        "@misc{good1, title={First title}, year={2019}}\n"
        f"@misc{{long, title={{{'x' * 5000}}},\n  year={{2019}}}}\n"
        "@misc{good2, title={Second title}, year={2019}}\n"
    )
    read = read_input(write(tmp_path, "refs.bib", text), limits=LIMITS)
    assert [ref.id for ref in read.references] == ["good1", "good2"]
    assert read.references[1].raw.startswith("@misc{good2")
    (problem,) = read.problems
    assert (problem.location, problem.message) == (
        "line 2",
        "5,037 characters long, too long for one reference (at most 1,000): skipped",
    )


def test_an_overlong_csl_item_is_skipped(tmp_path: Path) -> None:
    items = [{"id": "a", "title": "Kept"}, {"id": "b", "title": "x" * 5000}]
    read = read_input(write(tmp_path, "refs.json", json.dumps(items)), limits=LIMITS)
    assert [ref.id for ref in read.references] == ["a"]
    assert read.problems[0].location == "item 2"
    assert "too long for one reference" in read.problems[0].message


def test_without_limits_nothing_is_capped(tmp_path: Path) -> None:
    text = "\n\n".join([GOOD] * 4 + ["A. Author. " + "word " * 400 + "2019."])
    assert len(read_input(write(tmp_path, "refs.txt", text)).references) == 5
