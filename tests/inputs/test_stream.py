"""A reference list read as a stream: a batch of entries at a time, what `read_input` reads whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refhound.errors import InputError
from refhound.inputs import read_input
from refhound.inputs.base import InputRead
from refhound.inputs.stream import open_input

DATA = Path(__file__).parent / "data"

BIB = r"""% A bibliography to cut into batches of two.
@string{nips = "Advances in Neural Information Processing Systems"}

@inproceedings{vaswani2017, title = {Attention is All you Need}, author = {Vaswani, Ashish},
  booktitle = nips, year = {2017}}
@article{lecun2015, title = {Deep learning}, author = {LeCun, Yann}, journal = {Nature}, year = {2015}}
@comment{an old entry, kept as a comment:
@article{old, title = {Not read}, year = {1999}}
}
@article{broken, title = {unterminated
@misc{long, title = {XXXX}}
@inproceedings{he2016, title = {Deep Residual Learning}, author = {He, Kaiming},
  booktitle = nips, year = {2016}}
@article{lecun2015, title = {A second entry under a key used before}, year = {2020}}
@misc{last, title = {The last entry}, year = {2021}}
""".replace("XXXX", "x" * 60_000)

TEXT = "References\n\n" + "\n".join(
    f"[{n}] A. Author{n}. A title of a paper number {n}. In Proceedings of Something, 20{n:02d}."
    for n in range(1, 8)
)


def stream(path: Path, batch: int) -> list[InputRead]:
    return list(open_input(path).batches(batch=batch))


def problems(read: InputRead) -> list[str]:
    return sorted(json.dumps(p.model_dump(mode="json"), sort_keys=True) for p in read.problems)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("refs.bib", BIB),
        ("refs.txt", TEXT),
        ("refs.md", TEXT.replace("A title", "*A title*")),
        ("natbib.bbl", (DATA / "natbib.bbl").read_text(encoding="utf-8")),
        ("biblatex.bbl", (DATA / "biblatex.bbl").read_text(encoding="utf-8")),
    ],
)
def test_a_list_read_in_batches_is_the_list_read_whole(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    whole = read_input(path)
    batches = stream(path, batch=2)
    if not name.endswith(".bbl"):  # (the .bbl files hold two and three items)
        assert len(batches) > 2 and all(len(batch.references) <= 2 for batch in batches)
    streamed = InputRead()
    for batch in batches:
        streamed.extend(batch)
    assert [r.model_dump() for r in streamed.references] == [r.model_dump() for r in whole.references]
    assert problems(streamed) == problems(whole)


def test_bibtex_across_batches_keeps_strings_comments_and_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    streamed = InputRead()
    for batch in stream(path, batch=1):
        streamed.extend(batch)
    ids = [r.id for r in streamed.references]
    assert ids == ["vaswani2017", "lecun2015", "he2016", "last"]  # not the commented one nor the duplicate
    he2016 = streamed.references[2]
    assert he2016.parsed.venue == "Advances in Neural Information Processing Systems"  # an early @string
    messages = {(p.location, p.message) for p in streamed.problems}
    assert ("line 14", "malformed BibTeX entry: Duplicate entry key 'lecun2015'") in messages
    assert (
        "line 11",
        "60,024 characters long, too long for one reference (at most 50,000): skipped",
    ) in messages


def test_a_file_is_read_as_its_batches_are_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first batch comes when a fraction of the file has been read; the bytes read are told."""
    monkeypatch.setattr("refhound.inputs.lines._BLOCK", 256)
    entries = "".join(f"@misc{{k{n}, title = {{Title number {n}}}, year = {{2019}}}}\n" for n in range(200))
    path = tmp_path / "refs.bib"
    path.write_text(entries, encoding="utf-8")
    told: list[int] = []
    read_when_taken = []
    for batch in open_input(path).batches(told.append, batch=10):
        read_when_taken.append((told[-1] if told else 0, len(batch.references)))
    size = path.stat().st_size
    assert read_when_taken[0][0] < size / 10  # the first ten entries came before a tenth was read
    assert told == sorted(told) and told[-1] == size
    assert sum(count for _, count in read_when_taken) == 200


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "empty file"), (b"  \n\t\n", "empty file"), (bytes(range(256)) * 8, "binary file")],
)
def test_an_unusable_file_is_said_before_it_is_read(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "refs.bib"
    path.write_bytes(content)
    with pytest.raises(InputError, match=message):
        open_input(path)


def test_text_that_is_not_utf8_is_read_as_load_text_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "refs.txt"
    path.write_bytes("[1] J. Müller. A study of things. In Proc. of Something, 2019.\n".encode("cp1252"))
    streamed = InputRead()
    for batch in stream(path, batch=1):
        streamed.extend(batch)
    whole = read_input(path)
    assert [r.raw for r in streamed.references] == [r.raw for r in whole.references]
    assert problems(streamed) == problems(whole)
    assert "not valid UTF-8 (first bad byte at offset 8); read as cp1252" in problems(streamed)[0]


def test_a_block_over_the_cap_keeps_no_text_while_it_is_read() -> None:
    """200 MB of comments before the first entry (or one reference that long) is counted, never held."""
    from refhound.inputs.bibstream import _blocks
    from refhound.inputs.plaintext import _chunks

    comments = ["% " + "x" * 48 + "\n"] * 10
    preamble, entry = list(_blocks([*comments, "@misc{a, title={T}}\n"], cap=100))
    assert (preamble.lines, preamble.size, preamble.newlines) == ([], 510, 10)
    assert entry.lines == ["@misc{a, title={T}}\n"]
    text = ["[1] " + "y" * 40, *(["z" * 40] * 9), "[2] A. B. A title. 2019."]
    first, second = _chunks(lambda: text, markdown=False, max_chars=100)
    assert (first.lines, first.size) == ([], 404) and second.lines == ["[2] A. B. A title. 2019."]
