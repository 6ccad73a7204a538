"""Benchmark files → `Benchmark`s: CiteAudit's `benchmark.json`, HALLMARK `.jsonl`, and labelled BibTeX.

    load_benchmark(name, path, split=None) -> Benchmark

Every loader is strict (see `BenchInputError`): a file in the wrong format, an item without the fields the
benchmark defines, or a label it cannot read stops the load with the lines at fault, because scoring a
benchmark with some items silently dropped would give figures for a different benchmark.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from refhound.benchmark.items import (
    VALID_TYPE,
    BenchInputError,
    BenchItem,
    Benchmark,
    Problem,
    parse_label,
)
from refhound.bibtex import parse_bibtex
from refhound.errors import InputError
from refhound.inputs.files import check_input_file

CITEAUDIT_SPLITS = ("realworld", "generated", "all")
_MAX_BYTES = 1024 * 1024 * 1024
# Fields of a labelled BibTeX entry that carry the ground truth, not bibliographic data.
LABEL_FIELDS = ("label", "hallucination_type")
_UNTYPED = "hallucinated"  # the type of a hallucinated item whose benchmark names none
_JSONL_HINT = " (one JSON object per line expected; CiteAudit's .json is the `citeaudit` format)"


def _read_text(path: Path) -> str:
    check_input_file(path, _MAX_BYTES, kind="benchmark file")
    data = path.read_bytes()
    if not data.strip():
        raise InputError(path, "file is empty")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise BenchInputError(path, [Problem(line, "not UTF-8 text (is this a benchmark file?)")]) from exc


# --- CiteAudit ------------------------------------------------------------------------------------------


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _data_offsets(text: str) -> list[int]:
    """Character offsets where the elements of the top-level object's `data` list start.

    `json` keeps no positions, so the (already validated) text is walked once with `raw_decode` to give
    each item its line for error messages.
    """
    decoder = json.JSONDecoder()
    i = _skip_space(text, 0) + 1  # past "{"
    offsets: list[int] = []
    while True:
        i = _skip_space(text, i)
        if i >= len(text) or text[i] == "}":
            return offsets
        key, i = decoder.raw_decode(text, i)
        i = _skip_space(text, _skip_space(text, i) + 1)  # past ":"
        if key == "data" and text.startswith("[", i):
            offsets = []
            i += 1
            while (i := _skip_space(text, i)) < len(text) and text[i] != "]":
                offsets.append(i)
                _, i = decoder.raw_decode(text, i)
                i = _skip_space(text, i)
                i += text.startswith(",", i)
            i += 1
        else:
            _, i = decoder.raw_decode(text, i)
        i = _skip_space(text, i)
        i += text.startswith(",", i)


def _lines(text: str, offsets: list[int]) -> Iterator[int]:
    line, at = 1, 0
    for offset in offsets:
        line += text.count("\n", at, offset)
        at = offset
        yield line


def _citeaudit_item(index: int, line: int, raw: object, problems: list[Problem]) -> BenchItem | None:
    if not isinstance(raw, dict):
        problems.append(Problem(line, f"data[{index}] is not an object"))
        return None
    wrong = [
        f"missing {name!r}" if name not in raw else f"{name!r} is {raw[name]!r}, expected {expected}"
        for name, expected, ok in (
            ("source_type", "realworld or generated", raw.get("source_type") in ("realworld", "generated")),
            (
                "citation",
                "a non-empty string",
                isinstance(raw.get("citation"), str) and raw["citation"].strip(),
            ),
            ("GT", "true (real) or false (fake)", isinstance(raw.get("GT"), bool)),
            (
                "Predict",
                "true, false or null",
                raw.get("Predict") is None or isinstance(raw["Predict"], bool),
            ),
        )
        if not ok and (name != "Predict" or name in raw)
    ]
    if wrong:
        problems.append(Problem(line, f"data[{index}]: " + ", ".join(wrong)))
        return None
    hallucinated = not raw["GT"]
    return BenchItem(
        id=index,
        hallucinated=hallucinated,
        type=raw["source_type"] if hallucinated else VALID_TYPE,
        line=line,
        raw=raw["citation"].strip(),
        upstream_real=raw.get("Predict"),
    )


def load_citeaudit(path: Path, split: str | None = None) -> Benchmark:
    """CiteAudit's `benchmark.json`: `{"data": [{source_type, citation, GT, Predict}, …]}`.

    `GT` true means real; an item's id is its 0-based position in `data`, whatever the split.
    """
    split = split or "all"
    if split not in CITEAUDIT_SPLITS:
        raise InputError(path, f"unknown CiteAudit split {split!r}: choose {', '.join(CITEAUDIT_SPLITS)}")
    text = _read_text(path)
    try:
        top = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = " (a JSON-lines file? that is the `hallmark` format)" if exc.msg == "Extra data" else ""
        message = (
            f"not valid JSON: {exc.msg}{hint}; CiteAudit's benchmark.json is one object with a 'data' list"
        )
        raise BenchInputError(path, [Problem(exc.lineno, message)]) from exc
    if not isinstance(top, dict) or not isinstance(top.get("data"), list):
        message = "no top-level 'data' list: not CiteAudit's benchmark.json format"
        raise BenchInputError(path, [Problem(1, message)])
    problems: list[Problem] = []
    bench = Benchmark("citeaudit", split, path, upstream_name="CiteAudit")
    for index, (line, raw) in enumerate(zip(_lines(text, _data_offsets(text)), top["data"], strict=True)):
        item = _citeaudit_item(index, line, raw, problems)
        if item is not None and (split == "all" or raw["source_type"] == split):
            bench.items.append(item)
    if problems:
        raise BenchInputError(path, problems)
    return bench


# --- HALLMARK -------------------------------------------------------------------------------------------


def _entry_of_bibtex(raw: dict[str, Any]) -> tuple[dict[str, str], str] | str:
    """The fields and type of the one entry in a row's `bibtex` text (HALLMARK's scraped rows carry the
    entry so, not as `fields`), or what is wrong with it."""
    parse = parse_bibtex(raw["bibtex"])
    if len(parse.entries) != 1:
        failure = f": {parse.failures[0].message}" if parse.failures else ""
        return f"'bibtex' holds {len(parse.entries)} entries, not one{failure}"
    entry = parse.entries[0]
    return entry.fields, entry.entry_type


def _hallmark_item(line: int, raw: dict[str, Any], problems: list[Problem]) -> BenchItem | None:
    hallucinated = parse_label(raw.get("label"))
    fields = raw.get("fields")
    entry_type, decoded = raw.get("bibtex_type"), False
    wrong = []
    if "label" not in raw:
        wrong.append("missing 'label' (VALID or HALLUCINATED)")
    elif hallucinated is None:
        wrong.append(f"label {raw['label']!r} is not VALID or HALLUCINATED")
    if fields is None and isinstance(raw.get("bibtex"), str):
        entry = _entry_of_bibtex(raw)
        if isinstance(entry, str):
            wrong.append(entry)
        else:
            (fields, entry_type), decoded = entry, True
    elif not isinstance(fields, dict):
        wrong.append(
            "missing 'fields' (an object of BibTeX fields) or 'bibtex' (the entry's text)"
            if fields is None
            else "'fields' is not an object"
        )
    if wrong:
        problems.append(Problem(line, ", ".join(wrong)))
        return None
    assert isinstance(fields, dict) and hallucinated is not None
    kind = raw.get("hallucination_type")
    tier = raw.get("difficulty_tier")
    key = raw.get("bibtex_key")
    return BenchItem(
        id=str(key) if key not in (None, "") else f"line{line}",
        hallucinated=hallucinated,
        type=(str(kind) if kind else _UNTYPED) if hallucinated else VALID_TYPE,
        line=line,
        fields={str(k).lower(): str(v) for k, v in fields.items() if v not in (None, "")},
        fields_decoded=decoded,
        entry_type=str(entry_type or "misc").lower(),
        raw=raw["raw"].strip() if isinstance(raw.get("raw"), str) and raw["raw"].strip() else None,
        tier=tier if isinstance(tier, int) else None,
    )


def load_hallmark(path: Path, split: str | None = None) -> Benchmark:
    """A HALLMARK `.jsonl` split (or a generated set in its format): one entry per line with `fields` (or
    the entry's text as `bibtex`), `label` VALID/HALLUCINATED, `hallucination_type` and, from the generator,
    the formatted string `raw`."""
    text = _read_text(path)
    problems: list[Problem] = []
    bench = Benchmark("hallmark", split or path.stem, path)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            hint = "" if problems else _JSONL_HINT
            problems.append(Problem(number, f"not a JSON object: {exc.msg}{hint}"))
            if len(problems) >= 3 and not bench.items:
                break  # not JSON lines at all: a few lines say so
            continue
        if not isinstance(raw, dict):
            problems.append(Problem(number, "not a JSON object (one HALLMARK entry per line expected)"))
            continue
        item = _hallmark_item(number, raw, problems)
        if item is not None:
            bench.items.append(item)
    if problems:
        raise BenchInputError(path, problems)
    return bench


# --- labelled BibTeX ------------------------------------------------------------------------------------


def load_bib(path: Path, split: str | None = None) -> Benchmark:
    """A `.bib` whose entries carry `label = {VALID|HALLUCINATED}` (or real/fake) and optionally
    `hallucination_type`; the other fields are the citation."""
    text = _read_text(path)
    parse = parse_bibtex(text)
    problems = [Problem(f.line, f.message) for f in parse.failures]
    bench = Benchmark("bib", split or path.stem, path)
    for entry in parse.entries:
        line = entry.line or 0
        label = entry.fields.get("label")
        hallucinated = parse_label(label)
        if label is None:
            problems.append(
                Problem(line, f"entry {entry.key!r} has no 'label' field (VALID or HALLUCINATED)")
            )
            continue
        if hallucinated is None:
            problems.append(
                Problem(line, f"entry {entry.key!r}: label {label!r} is not VALID or HALLUCINATED")
            )
            continue
        kind = entry.fields.get("hallucination_type")
        bench.items.append(
            BenchItem(
                id=entry.key,
                hallucinated=hallucinated,
                type=(kind or _UNTYPED) if hallucinated else VALID_TYPE,
                line=line,
                fields={k: v for k, v in entry.fields.items() if k not in LABEL_FIELDS},
                fields_decoded=True,
                entry_type=entry.entry_type,
            )
        )
    if not parse.entries and not problems:
        problems.append(Problem(None, "no BibTeX entries found"))
    if problems:
        problems.sort(key=lambda p: p.line or 0)
        raise BenchInputError(path, problems)
    return bench


LOADERS: dict[str, Callable[[Path, str | None], Benchmark]] = {
    "citeaudit": load_citeaudit,
    "hallmark": load_hallmark,
    "bib": load_bib,
}


def load_benchmark(name: str, path: Path, split: str | None = None) -> Benchmark:
    """Load `path` as the benchmark `name`; `split` is only meaningful for CiteAudit."""
    loader = LOADERS.get(name)
    if loader is None:
        raise InputError(path, f"unknown benchmark {name!r}: choose {', '.join(LOADERS)}")
    if split is not None and name != "citeaudit":
        raise InputError(path, f"--split is for citeaudit; a {name} file is one split already")
    return loader(path, split)
