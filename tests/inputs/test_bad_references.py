"""`refhound check` end to end on reference lists full of bad strings: no crash, a reasoned verdict for each,
and nothing fabricated out of a string too poor to look up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from refhound.cli import app

runner = CliRunner()

# Strings too poor to look a work up by; none names a work that the test index holds.
AUTHORS_ONLY = [
    "Smith, J., Jones, K., and Brown, L.",
    "Vaswani A, Shazeer N, Parmar N, et al.",
    "Devlin et al.",
]
URL_ONLY = ["https://github.com/example-lab/graph-routing", "<https://example.org/papers/routing.pdf>"]
TITLE_ONLY = ["Sparse Mixture Routing for Quantum Graph Retrieval", "Generative Adversarial Networks"]
# Odd but complete references, which must parse as well as the grammar can.
OTHERS = [
    # All capitals, a work the index holds.
    "HE, K., ZHANG, X., REN, S., SUN, J. DEEP RESIDUAL LEARNING FOR IMAGE RECOGNITION. CVPR 2016.",
    "Erik F. Tjong Kim Sang and Fien De Meulder. 2003. Introduction to the CoNLL-2003 shared task: "
    "Language-independent named entity recognition. In Proceedings of CoNLL-2003.",
    "Smith, J. and et al.",
    "Katarzyna Stańczak and Isabelle Augenstein. 2021. What's in a name? In some languages, grammatical "
    "gender. In Proceedings of EMNLP.",
    "O'Connor, B. and d'Alembert, J. 2010. From tweets to polls. In ICWSM.",
]
BAD = AUTHORS_ONLY + URL_ONLY + TITLE_ONLY


def check_json(*inputs: Path, index: Path) -> tuple[int, dict[str, Any]]:
    result = runner.invoke(
        app, ["check", *map(str, inputs), "--offline", "--index", str(index), "--format", "json"]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.stdout)


def test_bad_reference_strings_get_reasoned_verdicts_and_none_is_fabricated(
    tmp_path: Path, small_index: Path
) -> None:
    # A PDF's line break inside a compound, in the middle of the list.
    broken = (
        "Patrick Lewis and Ethan Perez. 2020. Retrieval-\n"
        "augmented generation for knowledge-intensive NLP tasks. In NeurIPS."
    )
    strings = [*AUTHORS_ONLY, broken, *URL_ONLY, *TITLE_ONLY, *OTHERS]
    refs = tmp_path / "refs.txt"
    numbered = "\n".join(f"[{number}] {text}" for number, text in enumerate(strings, 1))
    refs.write_text(f"References\n\n{numbered}\n", encoding="utf-8")

    code, report = check_json(refs, index=small_index)

    assert code in (0, 1)
    results = {r["raw"].split("] ", 1)[1]: r for r in report["references"]}
    assert len(results) == len(strings)
    for raw, result in results.items():
        assert result["verdict"] in {"verified", "metadata_error", "fabricated", "unverified"}, raw
        assert result["reason"].strip(), raw
    for raw in BAD:
        assert results[raw]["verdict"] != "fabricated", (raw, results[raw]["reason"])
    for raw in AUTHORS_ONLY + URL_ONLY:
        assert results[raw]["parsed"]["title"] is None, raw
    for raw in TITLE_ONLY:
        assert (results[raw]["parsed"]["title"], results[raw]["parsed"]["authors"]) == (raw, [])
    assert results[URL_ONLY[0]]["parsed"]["url"] == URL_ONLY[0]
    capitals = results[OTHERS[0]]
    assert capitals["verdict"] == "verified" and capitals["parsed"]["authors"][0] == "HE, K."
    rag = next(r for raw, r in results.items() if raw.startswith("Patrick Lewis"))
    assert rag["parsed"]["title"] == "Retrieval-augmented generation for knowledge-intensive NLP tasks"


def test_bibtex_comments_are_not_checked(tmp_path: Path, small_index: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "% see @misc{ghost, title = {A Paper That Was Never Written}} for the preprint\n"
        "% @article ...\n"
        "@inproceedings{he2016deep,\n"
        "  title = {Deep Residual Learning for Image Recognition},  % @misc{remark,}\n"
        "  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},\n"
        "  booktitle = {CVPR}, year = {2016}\n"
        "}\n"
        "@article{broken, title = {unterminated\n"
        "@comment{@article{hidden, title = {Hidden}}}\n",
        encoding="utf-8",
    )
    code, report = check_json(bib, index=small_index)
    assert [r["id"] for r in report["references"]] == ["he2016deep"]
    assert report["references"][0]["verdict"] == "verified"
    assert [p["location"] for p in report["problems"]] == ["line 8"]
    assert code == 3  # the unterminated entry could not be read


def test_a_reference_longer_than_any_is_skipped_unparsed_and_named(tmp_path: Path) -> None:
    from refhound.inputs import read_input

    huge = "Smith, J. " + "word " * 200_000 + "2020."
    text = tmp_path / "refs.txt"
    text.write_text(
        f"Smith, J. A good title. In Proc. X, 2020.\n{huge}\nDoe, J. Another title. Journal Y, 2021.\n"
    )
    read = read_input(text)
    assert [r.raw[:8] for r in read.references] == ["Smith, J", "Doe, J. "]
    (problem,) = read.problems
    assert problem.location == "line 2"
    assert problem.message == (
        "1,000,015 characters long, too long for one reference (at most 50,000): skipped"
    )

    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{a, title={Good}, author={Smith, J}, year={2020}}\n"
        f"@article{{big, title={{{huge}}}, author={{Smith, J}}, year={{2020}}}}\n"
        "@article{c, title={Other}, author={Doe, J}, year={2021}}\n"
    )
    read = read_input(bib)
    assert [r.id for r in read.references] == ["a", "c"]
    assert "too long for one reference" in read.problems[0].message
