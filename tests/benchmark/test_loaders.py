"""The three benchmark formats, read from small inline files, and what a bad file says (with its line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refhound.benchmark.export import bibtex_text
from refhound.benchmark.items import BenchInputError, InputMode, parse_label
from refhound.benchmark.loaders import load_benchmark, load_bib, load_citeaudit, load_hallmark
from refhound.benchmark.runner import check_input, parsed_from_fields, to_reference
from refhound.errors import InputError

CITEAUDIT = {
    "meta": {"note": "a sample"},
    "data": [
        {
            "source_type": "realworld",
            "citation": "Jane Doe. A real paper. In ACL, 2019.",
            "GT": True,
            "Predict": True,
        },
        {
            "source_type": "generated",
            "citation": "John Roe. A fake paper. 2025.",
            "GT": False,
            "Predict": True,
        },
        {
            "source_type": "realworld",
            "citation": "Ann Poe. Another fake. 2020.",
            "GT": False,
            "Predict": False,
        },
    ],
}

HALLMARK = [
    {
        "bibtex_key": "k1",
        "bibtex_type": "inproceedings",
        "fields": {"title": "Attention is not Explanation", "author": "Sarthak Jain and Byron C. Wallace",
                   "booktitle": "NAACL", "year": "2019"},
        "label": "VALID",
        "hallucination_type": None,
    },
    {
        "bibtex_key": "k2",
        "bibtex_type": "article",
        "fields": {"title": "Man{\\'e} things", "author": "A. B and C. D", "journal": "J", "year": 2020},
        "label": "HALLUCINATED",
        "hallucination_type": "chimeric_title",
        "difficulty_tier": 2,
        "raw": "A. B and C. D. 2020. Mané things. J.",
    },
]  # fmt: skip

BIB = r"""@inproceedings{jain2019,
  title = {Attention is not Explanation},
  author = {Jain, Sarthak and Wallace, Byron C.},
  booktitle = {NAACL}, year = {2019}, label = {VALID}
}

@article{fake1,
  title = {Quantum Attention}, author = {Doe, Jane}, journal = {Nature}, year = {2031},
  label = {hallucinated}, hallucination_type = {future_date}
}
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_citeaudit_items_keep_their_position_ground_truth_and_upstream_prediction(tmp_path: Path) -> None:
    path = _write(tmp_path, "benchmark.json", json.dumps(CITEAUDIT, indent=1))
    bench = load_citeaudit(path)
    assert [i.id for i in bench.items] == [0, 1, 2]
    assert [i.hallucinated for i in bench.items] == [False, True, True]  # GT true means real
    assert [i.upstream_real for i in bench.items] == [True, True, False]
    assert [i.type for i in bench.items] == ["valid", "generated", "realworld"]
    assert bench.items[0].raw == "Jane Doe. A real paper. In ACL, 2019."
    assert bench.items[0].fields is None and bench.has_upstream


def test_a_citeaudit_split_keeps_the_ids_of_the_whole_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "benchmark.json", json.dumps(CITEAUDIT))
    assert [i.id for i in load_citeaudit(path, "realworld").items] == [0, 2]
    assert [i.id for i in load_citeaudit(path, "generated").items] == [1]
    assert load_citeaudit(path, "realworld").split == "realworld"
    with pytest.raises(InputError, match="unknown CiteAudit split 'train'"):
        load_citeaudit(path, "train")


def test_hallmark_items_carry_fields_label_type_tier_and_raw(tmp_path: Path) -> None:
    path = _write(tmp_path, "dev.jsonl", "\n".join(json.dumps(x) for x in HALLMARK) + "\n\n")
    bench = load_hallmark(path)
    first, second = bench.items
    assert (bench.name, bench.split) == ("hallmark", "dev")
    assert (first.id, first.hallucinated, first.type, first.line, first.raw) == (
        "k1",
        False,
        "valid",
        1,
        None,
    )
    assert (second.hallucinated, second.type, second.tier, second.entry_type) == (
        True,
        "chimeric_title",
        2,
        "article",
    )
    assert second.fields is not None and second.fields["year"] == "2020"  # numbers become text
    assert second.raw == "A. B and C. D. 2020. Mané things. J."
    parsed = parsed_from_fields(second)
    assert (parsed.title, parsed.authors, parsed.venue, parsed.year) == (
        "Mané things",
        ["A. B", "C. D"],
        "J",
        2020,
    )


def test_labelled_bibtex_reads_label_and_type_and_keeps_them_out_of_the_fields(tmp_path: Path) -> None:
    bench = load_bib(_write(tmp_path, "refs.bib", BIB))
    real, fake = bench.items
    assert (real.id, real.hallucinated, real.type, real.line) == ("jain2019", False, "valid", 1)
    assert (fake.id, fake.hallucinated, fake.type, fake.line) == ("fake1", True, "future_date", 7)
    assert real.fields is not None and "label" not in real.fields
    assert parsed_from_fields(real).authors == ["Jain, Sarthak", "Wallace, Byron C."]


def test_exported_bibtex_reads_back_with_the_same_labels(tmp_path: Path) -> None:
    source = load_hallmark(_write(tmp_path, "dev.jsonl", "\n".join(json.dumps(x) for x in HALLMARK)))
    back = load_bib(_write(tmp_path, "dev.bib", bibtex_text(source.items, with_label=True)))
    assert [(i.id, i.hallucinated, i.type) for i in back.items] == [
        (i.id, i.hallucinated, i.type) for i in source.items
    ]
    assert parsed_from_fields(back.items[1]).title == "Mané things"  # the brace-broken value still reads


def test_input_modes_pick_fields_or_the_reference_string(tmp_path: Path) -> None:
    bench = load_hallmark(_write(tmp_path, "dev.jsonl", "\n".join(json.dumps(x) for x in HALLMARK)))
    assert to_reference(bench.items[1], InputMode.RAW).raw == "A. B and C. D. 2020. Mané things. J."
    assert to_reference(bench.items[1], InputMode.FIELDS).parsed.title == "Mané things"
    with pytest.raises(BenchInputError, match=r"line 1: item k1: no reference string \('raw'\)"):
        check_input(bench, InputMode.RAW)
    citeaudit = load_citeaudit(_write(tmp_path, "b.json", json.dumps(CITEAUDIT)))
    with pytest.raises(BenchInputError, match="no item has fields: use --input raw"):
        check_input(citeaudit, InputMode.FIELDS)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("VALID", False),
        ("HALLUCINATED", True),
        (" fake ", True),
        ("Real", False),
        (True, None),
        ("maybe", None),
    ],
)
def test_labels(value: object, expected: bool | None) -> None:
    assert parse_label(value) is expected


# --- bad input: every message names the line ---------------------------------------------------------


def test_a_citeaudit_item_without_its_fields_is_reported_at_its_line(tmp_path: Path) -> None:
    broken = json.loads(json.dumps(CITEAUDIT))
    del broken["data"][1]["GT"]
    broken["data"][2]["source_type"] = "synthetic"
    path = _write(tmp_path, "benchmark.json", json.dumps(broken, indent=1))
    with pytest.raises(BenchInputError) as caught:
        load_citeaudit(path)
    lines = path.read_text().splitlines()
    second = next(i for i, line in enumerate(lines, 1) if "A fake paper" in line) - 2  # the item's "{"
    assert f"line {second}: data[1]: missing 'GT'" in str(caught.value)
    assert "data[2]: 'source_type' is 'synthetic', expected realworld or generated" in str(caught.value)


def test_a_jsonl_file_given_as_citeaudit_says_which_format_it_looks_like(tmp_path: Path) -> None:
    path = _write(tmp_path, "dev.jsonl", "\n".join(json.dumps(x) for x in HALLMARK))
    with pytest.raises(BenchInputError, match=r"line 2: not valid JSON: Extra data \(a JSON-lines file\?"):
        load_citeaudit(path)
    other = _write(tmp_path, "other.json", json.dumps({"records": []}))
    with pytest.raises(BenchInputError, match="line 1: no top-level 'data' list"):
        load_citeaudit(other)


def test_hallmark_bad_lines_are_each_named(tmp_path: Path) -> None:
    good = json.dumps(HALLMARK[0])
    text = "\n".join(
        [
            good,
            "{not json",
            json.dumps({"fields": {}, "label": "MAYBE"}),
            json.dumps({"label": "VALID"}),
            good,
        ]
    )
    with pytest.raises(BenchInputError) as caught:
        load_hallmark(_write(tmp_path, "dev.jsonl", text))
    message = str(caught.value)
    assert "line 2: not a JSON object" in message
    assert "line 3: label 'MAYBE' is not VALID or HALLUCINATED" in message
    assert "line 4: missing 'fields'" in message
    assert "line 1" not in message and "line 5" not in message


def test_hallmark_rows_may_carry_the_entry_as_bibtex_text(tmp_path: Path) -> None:
    entry = "@article{j1, title = {Optimal Bounds}, author = {Rohit Agrawal and Thibaut Horel}, year = 2021}"
    rows = [
        {"bibtex_key": "j1", "bibtex_type": "article", "bibtex": entry, "label": "VALID"},
        {"bibtex_key": "j2", "bibtex": "@article{j2, title = {A}} @misc{j3, title = {B}}", "label": "VALID"},
    ]
    with pytest.raises(BenchInputError) as caught:
        load_hallmark(_write(tmp_path, "journal.jsonl", "\n".join(json.dumps(r) for r in rows)))
    assert "line 2: 'bibtex' holds 2 entries, not one" in str(caught.value)
    bench = load_hallmark(_write(tmp_path, "one.jsonl", json.dumps(rows[0])))
    (item,) = bench.items
    assert item.entry_type == "article" and item.fields_decoded
    assert item.fields["author"] == "Rohit Agrawal and Thibaut Horel" and item.fields["year"] == "2021"


def test_a_citeaudit_file_given_as_hallmark_is_refused_early(tmp_path: Path) -> None:
    path = _write(tmp_path, "benchmark.json", json.dumps(CITEAUDIT, indent=1))
    with pytest.raises(
        BenchInputError, match=r"line 1: not a JSON object.*CiteAudit's .json is the `citeaudit` format"
    ):
        load_hallmark(path)


def test_bib_entries_without_a_readable_label_are_named_with_their_line(tmp_path: Path) -> None:
    text = BIB.replace("label = {VALID}", "").replace("label = {hallucinated}", "label = {sure}")
    with pytest.raises(BenchInputError) as caught:
        load_bib(_write(tmp_path, "refs.bib", text))
    assert "line 1: entry 'jain2019' has no 'label' field" in str(caught.value)
    assert "line 7: entry 'fake1': label 'sure' is not VALID or HALLUCINATED" in str(caught.value)


def test_unknown_names_splits_and_unusable_files(tmp_path: Path) -> None:
    path = _write(tmp_path, "dev.jsonl", json.dumps(HALLMARK[0]))
    with pytest.raises(InputError, match="unknown benchmark 'halmark'"):
        load_benchmark("halmark", path)
    with pytest.raises(InputError, match="--split is for citeaudit"):
        load_benchmark("hallmark", path, "generated")
    with pytest.raises(InputError, match="no such file"):
        load_benchmark("hallmark", tmp_path / "missing.jsonl")
    with pytest.raises(InputError, match="file is empty"):
        load_benchmark("bib", _write(tmp_path, "empty.bib", ""))
    binary = tmp_path / "x.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(BenchInputError, match="line 1: not UTF-8 text"):
        load_benchmark("hallmark", binary)
