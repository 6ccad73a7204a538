"""What a decoder cannot read (nesting deeper than Python's stack, a number of 5,000 digits) is an input
problem naming the file and the cause, never a crash; the entries around it are still read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from refhound.errors import InputError
from refhound.inputs import read_input
from refhound.inputs.jsonlist import item_spans

GOOD = {"id": "lecun", "type": "article-journal", "title": "Deep learning", "author": [{"family": "LeCun"}]}
DEEP = "[" * 100_000 + "]" * 100_000


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_list_whose_one_item_is_nested_too_deeply_keeps_the_others(tmp_path: Path) -> None:
    good = json.dumps(GOOD)
    read = read_input(write(tmp_path, "refs.json", f'[{good}, {{"title": {DEEP}}}, {good}]'))
    assert [ref.id for ref in read.references] == ["lecun", "lecun"]
    assert [(p.input, p.location, p.message) for p in read.problems] == [
        (str(tmp_path / "refs.json"), "item 2", "nested too deeply to be read: skipped")
    ]


def test_a_file_that_is_all_nesting_names_the_cause(tmp_path: Path) -> None:
    read = read_input(write(tmp_path, "deep.json", DEEP))
    assert read.references == []
    assert [(p.location, p.message) for p in read.problems] == [
        (None, "no references found (read as csl-json)"),
        ("item 1", "nested too deeply to be read: skipped"),
    ]


def test_a_number_too_long_to_decode_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "refs.json", '[{"title": "A", "volume": ' + "1" * 5000 + "}]")
    expected = r"refs\.json: not readable as JSON: Exceeds the limit \(4300 digits\)"
    with pytest.raises(InputError, match=expected):
        read_input(path)


FILES = {
    "refs.bib": "@article{a, title={Deep learning}, year={2015}}\n@article{b, title={Attention}}\n",
    "refs.txt": "LeCun, Y. Deep learning. Nature, 2015.\n\nVaswani, A. Attention is all you need. 2017.\n",
    "refs.bbl": "\\begin{thebibliography}{9}\n\\bibitem{a} LeCun, Y. Deep learning. Nature, 2015.\n"
    "\\bibitem{b} Vaswani, A. Attention is all you need. 2017.\n\\end{thebibliography}\n",
    "refs.json": json.dumps([{"title": "Deep learning"}, {"title": "Attention is all you need"}]),
}
# Where each reader reads one entry: a decoder's error there skips that entry only.
ENTRY_READERS = {
    "refs.bib": "refhound.inputs.bib.map_fields",
    "refs.txt": "refhound.inputs.plaintext.parse_list_entry",
    "refs.bbl": "refhound.inputs.bbl.parse_list_entry",
    "refs.json": "refhound.inputs.csl._item_fields",
}


@pytest.mark.parametrize("name", sorted(FILES))
@pytest.mark.parametrize("error", [RecursionError("maximum recursion depth exceeded"), ValueError("odd")])
def test_an_entry_its_reader_cannot_decode_is_skipped_naming_the_cause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, error: Exception
) -> None:
    target = ENTRY_READERS[name]
    module, function = target.rsplit(".", 1)
    real = getattr(__import__(module, fromlist=[function]), function)
    calls = []

    def first_fails(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(target, first_fails)
    read = read_input(write(tmp_path, name, FILES[name]))
    assert len(read.references) == 1
    cause = "nested too deeply to be read" if isinstance(error, RecursionError) else "odd"
    assert [p.message for p in read.problems] == [f"{cause}: skipped"]


def test_a_parser_that_cannot_read_the_whole_file_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def too_deep(text: str) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr("refhound.inputs.bibstream.parse_bibtex", too_deep)
    expected = r"refs\.bib: cannot be read as bibtex: nested too deeply to be read"
    with pytest.raises(InputError, match=expected):
        read_input(write(tmp_path, "refs.bib", FILES["refs.bib"]))


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("[]", []),
        (' [1, {"a": "],"}, [2, 3] , "x\\"]"] ', ["1", '{"a": "],"}', "[2, 3]", '"x\\"]"']),
        ('{"x": {"items": [1]}, "items": [5, 6]}', ["5", "6"]),
        ('{"title": "A"}', ['{"title": "A"}']),
    ],
)
def test_the_items_of_a_list_are_found_by_a_scan(text: str, items: list[str]) -> None:
    spans = item_spans(text)
    assert spans is not None and [text[start:end] for start, end in spans] == items


@pytest.mark.parametrize("text", ["[1, 2", '"x"', ""])
def test_a_scan_of_what_is_no_list_finds_none(text: str) -> None:
    assert item_spans(text) is None
