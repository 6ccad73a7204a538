"""scripts/bench_vignettes.py reads a vignette's gold, how many references it lists, from its source."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests.scripts import load_script


def _script() -> ModuleType:
    return load_script("bench_vignettes")


def test_gold_is_the_distinct_cited_keys_of_a_source_with_a_bibliography(tmp_path: Path) -> None:
    source = tmp_path / "a.Rnw"
    source.write_text(
        "As \\citet{smith01} and \\citep[e.g.,][p.~3]{jones02,smith01} show; \\nocite{lee03}.\n"
        "% \\cite{commented04}\n\\bibliography{refs}\n"
    )
    assert _script().gold_count(source) == 3


def test_gold_is_the_bibitems_of_a_hand_made_list(tmp_path: Path) -> None:
    source = tmp_path / "b.Rnw"
    items = "".join(f"\\bibitem[A ({1990 + n})]{{k{n}}} Author {n}.\n" for n in range(4))
    source.write_text(f"\\begin{{thebibliography}}{{9}}\n{items}\\end{{thebibliography}}\n")
    assert _script().gold_count(source) == 4


def test_a_source_that_cannot_say_gives_no_gold(tmp_path: Path) -> None:
    script = _script()
    every = tmp_path / "every.Rnw"
    every.write_text("\\cite{a,b,c}\\nocite{*}\\bibliography{refs}\n")  # the whole .bib: not countable here
    inputs = tmp_path / "inputs.Rnw"
    inputs.write_text("\\input{body}\\cite{a,b,c}\\bibliography{refs}\n")  # citations in another file
    no_list = tmp_path / "no-list.Rnw"
    no_list.write_text("\\cite{a,b,c}\n")  # cites, prints no list
    few = tmp_path / "few.Rnw"
    few.write_text("\\cite{a,b}\\bibliography{refs}\n")
    assert [script.gold_count(path) for path in (every, inputs, no_list, few)] == [None, None, None, None]
