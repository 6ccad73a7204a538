"""LaTeX projects: cite keys of natbib and biblatex, sub-files, comments, and the bibliography they name."""

from __future__ import annotations

from pathlib import Path

import pytest

from refhound.errors import InputError
from refhound.inputs.latex import blank_comments, cite_keys, find_main, scan_project
from refhound.inputs.project import read_latex_project
from refhound.models import ProblemKind
from tests.conftest import shared_path

BIB = r"""@inproceedings{he2016deep,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR}, year = {2016}
}

@inproceedings{jain2019,
  title = {Attention is not Explanation},
  author = {Jain, Sarthak and Wallace, Byron C.},
  booktitle = {NAACL}, year = {2019}
}

@article{unused,
  title = {Never Cited Anywhere},
  author = {Nobody, Alice},
  journal = {Nowhere}, year = {2001}
}
"""


def keys(text: str) -> list[str]:
    return [key for key, _ in cite_keys(text)]


def test_natbib_forms_with_optional_arguments_and_several_keys() -> None:
    text = r"\citep[see][p.~3]{a, b} \citet*{c} \citeauthor{d}\citeyearpar{e} \Citet{f} \citealp[]{g}"
    assert keys(text) == ["a", "b", "c", "d", "e", "f", "g"]


def test_biblatex_forms_and_multicites() -> None:
    text = r"\parencite[12]{a} \textcite{b} \autocite[cf.][]{c} \footcite{d} "
    text += r"\parencites(x)(y)[p]{e}[q]{f,g} next"
    assert keys(text) == ["a", "b", "c", "d", "e", "f", "g"]


def test_citetext_and_comments_cite_nothing() -> None:
    text = blank_comments("\\citetext{free text} % \\cite{hidden}\n50\\% \\cite{shown}")
    assert keys(text) == ["shown"]


def test_commands_that_configure_citing_give_no_keys() -> None:
    # natbib's settings and aliases, biblatex's definitions, hooks, tests and delimiters (both manuals).
    text = (
        "\\setcitestyle{square,numbers}\\citestyle{plainnat}\\defcitealias{jon90}{Paper~I}\\shortcites{x}"
        "\\DeclareCiteCommand{\\citejournal}{\\usebibmacro{prenote}}{\\printfield{journaltitle}}"
        "{\\multicitedelim}{\\usebibmacro{postnote}}"
        "\\AtEveryCitekey{\\clearfield{url}}\\AtNextCite{\\ifciteseen{seen}{new}}"
        "\\renewcommand*{\\multicitedelim}{\\addsemicolon\\space}\\citeindextrue\\citetext{see}"
        "\\citejournal{a} \\citepalias{jon90} \\newcite{b} \\footcitetext{c}"
    )
    assert keys(text) == ["a", "jon90", "b", "c"]


def test_tex_code_is_no_key() -> None:
    assert keys(r"\cite{\thefield{entrykey}} \citep{#1, a} \cite{two words,b}") == ["a", "b"]


def test_a_macro_definition_cites_where_the_macro_is_used() -> None:
    text = (
        "\\newcommand{\\mycite}[1]{\\citep{#1}}\n"  # line 1: a definition, no citation
        "\\newcommand*\\ours[2][]{our method~\\citet[#1]{ours2024}#2}\n"
        "\\NewDocumentCommand{\\seeboth}{O{see} m m}{#1 \\cite{#2}, \\cite{#3}}\n"
        "\\def\\tcite#1#2{\\textcite[#1]{#2}}\n"
        "\\newcommand{\\unused}{\\cite{never}}\n"
        "\\mycite{a,b} \\ours{} \\seeboth[cf.]{c}{d} \\tcite{p.~2}{e} \\mycite x\n"
    )
    found = cite_keys(text)
    assert [key for key, _ in found] == ["a", "b", "ours2024", "c", "d", "e"]
    assert {text.count("\n", 0, offset) + 1 for _, offset in found} == {6}


def test_macros_defined_in_an_input_file_cite_in_the_main_file(tmp_path: Path) -> None:
    macros = "\\newcommand{\\mycite}[1]{\\citep{#1}}\n\\newcommand{\\inp}[1]{\\input{#1}}\n"
    (tmp_path / "macros.tex").write_text(macros)
    (tmp_path / "main.tex").write_text("\\input macros\n\\begin{document}\n\\mycite{a}\n\\input body.tex\n")
    (tmp_path / "body.tex").write_text("\\mycite{b}\n")
    scan = scan_project(tmp_path / "main.tex", 10**6)
    assert scan.cites == {"a": ["main.tex:3"], "b": ["body.tex:1"]}
    assert [path.name for path in scan.files] == ["main.tex", "macros.tex", "body.tex"]
    assert not scan.problems  # `\\input{#1}` in a definition names no file


def test_a_natbib_project_configured_and_with_a_cite_macro_has_no_false_keys(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage{natbib}\n\\setcitestyle{square,numbers}\n"
        "\\newcommand{\\mycite}[1]{\\citep{#1}}\n\\begin{document}\n\\mycite{he2016deep,jain2019}\n"
        "\\nocite{unused}\\bibliography{refs}\n\\end{document}\n"
    )
    read = read_latex_project(tmp_path)
    assert [(r.id, r.cited_at) for r in read.references] == [
        ("he2016deep", ["paper.tex:6"]),
        ("jain2019", ["paper.tex:6"]),
        ("unused", ["paper.tex:7"]),
    ]
    assert not read.problems


def test_nocite_star_and_keys() -> None:
    assert keys(r"\nocite{*}\nocite{x}") == ["*", "x"]


def test_citation_sites_follow_input_and_include(tmp_path: Path) -> None:
    (tmp_path / "sections").mkdir()
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\nIntro \\cite{a}.\n"
        "\\input{sections/one}\n\\include{two.tex}\n\\bibliography{refs}\n\\end{document}\n"
    )
    (tmp_path / "sections" / "one.tex").write_text("\n\nSee \\citep{b,a}.\n")
    (tmp_path / "two.tex").write_text("\\cite{c}\n")
    scan = scan_project(tmp_path / "main.tex", 10**6)
    assert scan.cites == {
        "a": ["main.tex:3", "sections/one.tex:3"],
        "b": ["sections/one.tex:3"],
        "c": ["two.tex:1"],
    }
    assert scan.bibliographies == ["refs"]


def test_an_input_outside_the_project_is_not_read(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (tmp_path / "secret.tex").write_text("\\cite{leak}")
    (project / "main.tex").write_text("\\input{../secret}\n\\cite{a}")
    scan = scan_project(project / "main.tex", 10**6)
    assert list(scan.cites) == ["a"]
    assert any("outside the project" in p.message for p in scan.problems)


def test_input_cycles_end(tmp_path: Path) -> None:
    (tmp_path / "a.tex").write_text("\\input{b}\\cite{x}")
    (tmp_path / "b.tex").write_text("\\input{a}\\cite{y}")
    assert set(scan_project(tmp_path / "a.tex", 10**6).cites) == {"x", "y"}


def test_the_main_file_of_a_folder(tmp_path: Path) -> None:
    (tmp_path / "appendix.tex").write_text("\\section{More}")
    (tmp_path / "supp.tex").write_text("\\documentclass{article}\\begin{document}x\\end{document}")
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\\bibliography{r}\\end{document}"
    )
    assert find_main(tmp_path).name == "paper.tex"
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match=r"no main \.tex"):
        find_main(empty)


def natbib_project(folder: Path) -> Path:
    (folder / "refs.bib").write_text(BIB)
    main = folder / "paper.tex"
    main.write_text(
        "\\documentclass{article}\n\\usepackage{natbib}\n\\begin{document}\n"
        "ResNets \\citep{he2016deep} and attention \\citet[p.~2]{jain2019}.\n"
        "Also \\citep{ghost2020}. Again \\cite{he2016deep}.\n"
        "\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n"
    )
    return main


def test_cited_entries_with_sites_missing_and_uncited_keys(tmp_path: Path) -> None:
    read = read_latex_project(natbib_project(tmp_path))
    assert [(r.id, r.cited_at) for r in read.references] == [
        ("he2016deep", ["paper.tex:4", "paper.tex:5"]),
        ("jain2019", ["paper.tex:4"]),
    ]
    missing = [p for p in read.problems if p.kind is ProblemKind.MISSING_KEY]
    uncited = [p for p in read.problems if p.kind is ProblemKind.UNCITED_KEY]
    assert [(p.key, p.cited_at) for p in missing] == [("ghost2020", ["paper.tex:5"])]
    assert [p.key for p in uncited] == ["unused"] and uncited[0].informational


def test_biblatex_addbibresource_and_nocite_star(tmp_path: Path) -> None:
    (tmp_path / "lib.bib").write_text(BIB)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{biblatex}\n\\addbibresource[location=local]{lib.bib}\n"
        "\\begin{document}\n\\textcite{jain2019}\\nocite{*}\n\\printbibliography\n\\end{document}\n"
    )
    read = read_latex_project(tmp_path)
    assert [r.id for r in read.references] == ["he2016deep", "jain2019", "unused"]
    assert not [p for p in read.problems if p.kind]


def test_a_bbl_only_project(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}\n\\cite{kingma}\\cite{vaswani}\n"
        "\\bibliography{gone}\\end{document}"
    )
    (tmp_path / "main.bbl").write_text(
        "\\begin{thebibliography}{2}\n"
        "\\bibitem{kingma} D.~P. Kingma and J.~Ba. \\newblock Adam: A method for stochastic optimization. "
        "\\newblock In \\emph{ICLR}, 2015.\n"
        "\\bibitem{vaswani} A.~Vaswani et al. \\newblock Attention is all you need. \\newblock In "
        "\\emph{NeurIPS}, 2017.\n\\end{thebibliography}\n"
    )
    read = read_latex_project(tmp_path / "main.tex")
    sites = [(r.id, r.cited_at) for r in read.references]
    assert sites == [("kingma", ["main.tex:2"]), ("vaswani", ["main.tex:2"])]
    assert read.references[0].parsed.title == "Adam: A method for stochastic optimization"


def test_no_bibliography_at_all_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text("\\cite{a}\\bibliography{nothere}")
    with pytest.raises(InputError, match=r"no \.bib \(nothere\) or \.bbl"):
        read_latex_project(tmp_path / "main.tex")


def test_the_cam_paper_every_cited_key_with_its_sites() -> None:
    project = shared_path("latex-projects", "cam-arxiv-2206.02585")
    read = read_latex_project(project)
    assert len(read.references) == 10  # its 10 \citet/\citep keys, every one with an entry
    assert all(r.cited_at and all(s.startswith("paper.tex:") for s in r.cited_at) for r in read.references)
    by_key = {r.id: r.cited_at for r in read.references}
    assert by_key["counsell2006interpretation"] == ["paper.tex:57", "paper.tex:66"]
    assert not [p for p in read.problems if p.kind]
