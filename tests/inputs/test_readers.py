"""Input readers: BibTeX, .bbl, CSL-JSON and plain text, format detection, and bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refhound.errors import InputError
from refhound.inputs import InputFormat, detect_format, read_input, read_inputs

DATA = Path(__file__).parent / "data"

BIB = r"""@string{naacl = "Proceedings of NAACL-HLT"}

@inproceedings{devlin2019bert,
  title     = {{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding},
  author    = {Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
  booktitle = naacl,
  year      = {2019},
  pages     = {4171--4186},
  doi       = {10.18653/v1/N19-1423},
}

@article{broken,
  title = {Missing closing brace,
  author = {Nobody, A.},

@article{brown2020language,
  title         = {Language Models are Few-Shot Learners},
  author        = {Brown, Tom B. and Mann, Benjamin and others},
  journal       = {arXiv preprint arXiv:2005.14165},
  year          = {2020},
}

@misc{vaswani2017attention,
  title         = {Attention Is All You Need},
  author        = {Vaswani, Ashish and Shazeer, Noam},
  eprint        = {1706.03762},
  archivePrefix = {arXiv},
  date          = {2017-06-12},
}

@article{maaten2008,
  title   = {Visualizing Data using t-{SNE}},
  author  = {van der Maaten, Laurens and Hinton, Geoffrey},
  journal = {Journal of Machine Learning Research},
  volume  = {9},
  pages   = {2579--2605},
  year    = 2008,
}

@article{mueller1999, author = {M{\"u}ller, J{\"o}rg}, title = {{\"U}ber Sprache}, year = {1999}}

@misc{empty,
  note = {to be added},
}
"""


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# --- BibTeX -----------------------------------------------------------------------------------------------


def test_bibtex_entries_and_field_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, "refs.bib", BIB)
    read = read_input(path)
    by_id = {ref.id: ref for ref in read.references}
    assert list(by_id) == [
        "devlin2019bert", "brown2020language", "vaswani2017attention", "maaten2008", "mueller1999", "empty",
    ]  # fmt: skip
    bert = by_id["devlin2019bert"]
    assert (
        bert.parsed.title
        == "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
    )
    assert bert.parsed.authors == ["Devlin, Jacob", "Chang, Ming-Wei", "Lee, Kenton", "Toutanova, Kristina"]
    assert (bert.parsed.venue, bert.parsed.year, bert.parsed.pages) == (
        "Proceedings of NAACL-HLT",
        2019,
        "4171–4186",
    )
    assert bert.parsed.doi == "10.18653/v1/n19-1423"
    assert bert.raw.startswith("@inproceedings{devlin2019bert,") and bert.input == str(path)
    brown = by_id["brown2020language"].parsed
    assert (brown.venue, brown.arxiv_id, brown.authors_truncated) == ("arXiv", "2005.14165", True)
    assert brown.authors == ["Brown, Tom B.", "Mann, Benjamin"]
    vaswani = by_id["vaswani2017attention"].parsed
    assert (vaswani.venue, vaswani.arxiv_id, vaswani.year) == ("arXiv", "1706.03762", 2017)
    maaten = by_id["maaten2008"].parsed
    assert (maaten.title, maaten.volume, maaten.year) == ("Visualizing Data using t-SNE", "9", 2008)
    assert maaten.authors[0] == "van der Maaten, Laurens"
    assert (by_id["mueller1999"].parsed.authors, by_id["mueller1999"].parsed.title) == (
        ["Müller, Jörg"],
        "Über Sprache",
    )


def test_bibtex_problems_name_the_line_and_keep_good_entries(tmp_path: Path) -> None:
    read = read_input(write(tmp_path, "refs.bib", BIB))
    malformed = [p for p in read.problems if "malformed" in p.message]
    assert len(malformed) == 1 and malformed[0].location == "line 12"
    empty = [p for p in read.problems if p.location and "empty" in p.location]
    assert [p.message for p in empty] == ["entry has no title and nothing else to check it by"]
    assert len(read.references) == 6


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ("journal = {CoRR}, volume = {abs/1810.04805}", ("arXiv", "1810.04805")),
        ("howpublished = {\\url{https://arxiv.org/abs/1810.04805}}", ("arXiv", "1810.04805")),
        ("journal = {Nature}, eprint = {1810.04805}", ("Nature", "1810.04805")),
        ("howpublished = {OpenAI blog}", ("OpenAI blog", None)),
        ("publisher = {Zenodo}", ("Zenodo", None)),
        ("eprint = {hep-th/9901001}, eprinttype = {arXiv}", ("arXiv", "hep-th/9901001")),
    ],
)
def test_bibtex_venue_and_arxiv(tmp_path: Path, fields: str, expected: tuple[str, str | None]) -> None:
    read = read_input(write(tmp_path, "one.bib", f"@misc{{k, title = {{T}}, {fields}}}"))
    parsed = read.references[0].parsed
    assert (parsed.venue, parsed.arxiv_id) == expected


@pytest.mark.parametrize(
    ("entry", "venue"),
    [
        ("@phdthesis{k, title = {T}, school = {NUI Galway}}", "PhD thesis, NUI Galway"),
        ("@mastersthesis{k, title = {T}}", "Master's thesis"),
        (
            "@thesis{k, title = {T}, type = {Ph.D. Dissertation}, institution = {MIT}}",
            "Ph.D. Dissertation, MIT",
        ),
        (
            "@article{k, title = {T}, note = {Undergraduate thesis, Harvard College}}",
            "Undergraduate thesis, Harvard College",
        ),
        ("@article{k, title = {T}, note = {Extended version}}", None),
        ("@phdthesis{k, title = {T}, journal = {Some Journal}}", "Some Journal"),
    ],
)
def test_a_thesis_is_named_as_printed_references_name_it(
    tmp_path: Path, entry: str, venue: str | None
) -> None:
    assert read_input(write(tmp_path, "one.bib", entry)).references[0].parsed.venue == venue


def test_bibtex_latex_escapes_in_doi_and_url_are_undone(tmp_path: Path) -> None:
    # dblp's BibTeX escapes the underscore of Springer chapter DOIs.
    fields = "doi = {10.1007/3-540-44581-1\\_23}, url = {https://example.org/a{\\_}b\\%20c}"
    read = read_input(write(tmp_path, "one.bib", f"@inproceedings{{k, title = {{T}}, {fields}}}"))
    parsed = read.references[0].parsed
    assert (parsed.doi, parsed.url) == ("10.1007/3-540-44581-1_23", "https://example.org/a_b%20c")


@pytest.mark.parametrize(
    ("authors", "expected"),
    [
        # Commas where BibTeX wants "and": each part a name of its own.
        (
            r"F. Petroni, T. Rockt{\"{a}}schel, A. H. Miller and S. Riedel",
            ["F. Petroni", "T. Rocktäschel", "A. H. Miller", "S. Riedel"],
        ),
        # More commas than BibTeX's forms have: a list in a reference string's style.
        (
            r"Krizhevsky A., Sutskever, I., Hinton, G. E.",
            ["Krizhevsky A", "Sutskever, I.", "Hinton, G. E."],
        ),
        # A list written as prose, a comma before its "and".
        (
            r"Andreas Stuhlm{\"u}ller, Jacob Taylor, and Noah D. Goodman",
            ["Andreas Stuhlmüller", "Jacob Taylor", "Noah D. Goodman"],
        ),
        # BibTeX's "Last, First" form with a comma left after it is one name.
        ("Smith, J., and Jones, K.", ["Smith, J.", "Jones, K."]),
        (r"M{\"u}ller, K., Smith, J., Doe, J.", ["Müller, K.", "Smith, J.", "Doe, J."]),
        # BibTeX's own forms keep their commas.
        (r"van der Maaten, Laurens and Doe, Jr, John", ["van der Maaten, Laurens", "Doe, Jr, John"]),
        # A phrase for the names left out ends the list, as "others" does.
        ("Amodei, Dario and Anubhai, Rishita and more authors", ["Amodei, Dario", "Anubhai, Rishita"]),
        ("Amodei, Dario and Anubhai, Rishita and 30 others", ["Amodei, Dario", "Anubhai, Rishita"]),
        # Punctuation left in the list is nobody's name.
        ("Arandjelovic, Relja and Zisserman, Andrew and .,.", ["Arandjelovic, Relja", "Zisserman, Andrew"]),
    ],
)
def test_bibtex_author_lists(tmp_path: Path, authors: str, expected: list[str]) -> None:
    path = tmp_path / "a.bib"
    path.write_text(f"@article{{k, title={{A title}}, author={{{authors}}}, year={{2019}}}}\n")
    assert read_input(path).references[0].parsed.authors == expected


def test_bibtex_endnote_journal_tag_run_into_a_field(tmp_path: Path) -> None:
    # EndNote's export: its "%J journal" tag ends the value of the field before it.
    path = tmp_path / "a.bib"
    path.write_text(
        "@article{a, author = {Ruder, Sebastian %J ArXiv}, title = {An overview}, year = {2016}}\n"
        "@article{b, author = {Krizhevsky, Alex}, title = {ImageNet},\n"
        "  number = {6 %J Commun. ACM}, year = 2017}\n"
        # In an author list EndNote turned the journal's "… and …" round as names: no venue is read.
        "@article{c, author = {Jia, J. %J IEEE Conference on Computer Vision and Recognition, Pattern},\n"
        "  title = {Pyramid Scene Parsing Network}, year = {2017}}\n"
    )
    a, b, c = (reference.parsed for reference in read_input(path).references)
    assert (a.authors, a.venue) == (["Ruder, Sebastian"], "arXiv")
    assert (b.venue, b.volume) == ("Commun. ACM", None)
    assert (c.authors, c.venue) == (["Jia, J."], None)


def test_a_title_that_is_only_an_identifier_is_read_as_the_identifier(tmp_path: Path) -> None:
    # Searched as a title, "arXiv:1409.1556" is found nowhere and its own record reads as another work.
    bib = write(
        tmp_path,
        "a.bib",
        '@misc{vgg, author = "Karen Simonyan and Andrew Zisserman", title = "arXiv:1409.1556"}\n'
        '@misc{kdd, author = "A. Author", title = "doi: 10.1145/3292500.3330701"}\n'
        '@misc{web, author = "A. Author", title = "https://example.org/tool"}\n',
    )
    csl = write(
        tmp_path,
        "a.json",
        json.dumps(
            [
                {"id": "vgg", "title": "arXiv preprint arXiv:1409.1556"},
                {"id": "kdd", "title": "doi: 10.1145/3292500.3330701"},
                {"id": "web", "title": "https://example.org/tool"},
            ]
        ),
    )
    for path in (bib, csl):  # both readers keep what the title holds in the same fields
        read = read_input(path)
        vgg, kdd, web = (reference.parsed for reference in read.references)
        assert (vgg.title, vgg.arxiv_id, vgg.venue) == (None, "1409.1556", "arXiv")
        assert (kdd.title, kdd.doi) == (None, "10.1145/3292500.3330701")
        assert (web.title, web.url) == (None, "https://example.org/tool")
        assert all("is an identifier or a label, not a title" in problem.message for problem in read.problems)
        assert len(read.problems) == 3


def test_bibtex_bad_doi_is_a_problem(tmp_path: Path) -> None:
    read = read_input(write(tmp_path, "one.bib", "@article{k, title = {T}, doi = {N/A}}"))
    assert read.references[0].parsed.doi is None
    assert [p.message for p in read.problems] == ["doi 'N/A' is not a DOI"]


COMMENTED_BIB = r"""% Bibliography for chapter 2.
% see @misc{preprint2017, title = {Attention Is All You Need (preprint)}} for the preprint
% @article ...
%@inproceedings{oldkey, title = {A Title That Was Commented Out}, year = {2015}}

Some notes kept in the file mention @book{notes, title = {Not an Entry}} in passing.

@inproceedings{vaswani2017attention,
  title     = {Attention Is All You Need},
  author    = {Vaswani, Ashish and Shazeer, Noam},  % more authors in the camera-ready @misc{x,}
  % doi     = {10.0000/commented.out},
  booktitle = {NeurIPS},
  url       = {https://example.org/paper%20v2.pdf},
  year      = {2017},
}

@comment{
@article{hidden2019, title = {Hidden Inside a Comment Block}, year = {2019}}
}

@article{broken2018,
  title  = {An Entry That Never Closes,
  author = {Nobody, A.},

@article{he2016deep,
  title   = "Deep Residual Learning for Image Recognition",  % APA: sentence case
  author  = {He, Kaiming and Zhang, Xiangyu},
  journal = {CVPR},
  year    = 2016
}
  % @article{indented, title = {Indented Comment}}
"""


def test_bibtex_comments_are_not_entries(tmp_path: Path) -> None:
    """`%` lines, remarks after a field, text outside entries and @comment blocks name no entry, whatever
    entry types they mention; the entries around them are read, and a malformed one is reported."""
    read = read_input(write(tmp_path, "refs.bib", COMMENTED_BIB))
    assert [ref.id for ref in read.references] == ["vaswani2017attention", "he2016deep"]
    vaswani, he = (ref.parsed for ref in read.references)
    assert (vaswani.title, vaswani.authors) == (
        "Attention Is All You Need",
        ["Vaswani, Ashish", "Shazeer, Noam"],
    )
    assert vaswani.doi is None  # the commented-out field stays out
    assert vaswani.url == "https://example.org/paper%20v2.pdf"  # a "%" inside a value is no comment
    assert (he.title, he.year) == ("Deep Residual Learning for Image Recognition", 2016)
    assert [(p.location, p.message.split(":")[0]) for p in read.problems] == [
        ("line 21", "malformed BibTeX entry")
    ]


def test_bibtex_of_comments_only_has_no_references(tmp_path: Path) -> None:
    text = "% @article{a, title = {One}}\n%\n% @misc{b, title = {Two}}\nSee @book{c, title = {Three}}.\n"
    read = read_input(write(tmp_path, "refs.bib", text))
    assert read.references == []
    assert [p.message for p in read.problems] == ["no references found (read as bibtex)"]


# --- .bbl --------------------------------------------------------------------------------------------------


def test_natbib_bbl() -> None:
    read = read_input(DATA / "natbib.bbl")
    assert [ref.id for ref in read.references] == ["devlin2019bert", "vaswani2017attention"]
    bert, attention = (ref.parsed for ref in read.references)
    assert bert.title == "BERT: Pre-training of deep bidirectional transformers for language understanding"
    assert bert.authors == ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"]
    assert (bert.venue, bert.year, bert.doi) == ("Proceedings of NAACL-HLT", 2019, "10.18653/v1/n19-1423")
    assert attention.authors[5:7] == ["Aidan N Gomez", "Łukasz Kaiser"]
    assert (attention.title, attention.pages) == ("Attention is all you need", "5998–6008")
    assert "\\newblock" not in read.references[0].raw and "\n" not in read.references[0].raw


def test_biblatex_bbl() -> None:
    read = read_input(DATA / "biblatex.bbl")
    by_id = {ref.id: ref.parsed for ref in read.references}
    assert list(by_id) == ["devlin2019bert", "brown2020language", "vandermaaten2008"]
    bert = by_id["devlin2019bert"]
    assert bert.title == "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
    assert bert.authors == ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"]
    assert (bert.year, bert.doi, bert.pages) == (2019, "10.18653/v1/n19-1423", "4171–4186")
    assert bert.venue and bert.venue.startswith("Proceedings of the 2019 Conference")
    brown = by_id["brown2020language"]
    assert (brown.authors, brown.authors_truncated) == (["Tom B. Brown", "Benjamin Mann"], True)
    assert (brown.venue, brown.arxiv_id) == ("arXiv", "2005.14165")
    assert by_id["vandermaaten2008"].authors[0] == "Laurens van der Maaten"
    assert read.problems == []


def test_bibitem_with_bracketed_label_and_bibinfo(tmp_path: Path) -> None:
    bbl = (
        "\\begin{thebibliography}{1}\n"
        "\\bibitem[{Jain and Wallace(2019)}]{jain2019}\n"
        "\\bibinfo{author}{Sarthak Jain} and \\bibinfo{author}{Byron~C. Wallace}. \\bibinfo{year}{2019}.\n"
        "\\newblock \\enquote{Attention is not {E}xplanation}. In \\emph{Proceedings of NAACL-HLT}, pages\n"
        "  3543--3556.\n"
        "\\end{thebibliography}\n"
    )
    (ref,) = read_input(write(tmp_path, "paper.bbl", bbl)).references
    assert ref.id == "jain2019"
    assert (ref.parsed.title, ref.parsed.year) == ("Attention is not Explanation", 2019)
    assert ref.parsed.authors == ["Sarthak Jain", "Byron C. Wallace"]


def test_commented_out_bibitems_are_not_references(tmp_path: Path) -> None:
    text = (
        "\\begin{thebibliography}{2}\n"
        "% \\bibitem{old} A. Old. A superseded version of the paper. In ACL, 2001.\n"
        "\\bibitem{he} K. He and J. Sun. Deep residual learning for image recognition. In CVPR, 2016.\n"
        "  %\\bibitem{older} B. Older. Gone. 1999.\n"
        "\\bibitem{kingma} D. P. Kingma and J. Ba. Adam: A method for stochastic optimization. In ICLR.\n"
        "\\end{thebibliography}\n"
    )
    read = read_input(write(tmp_path, "paper.bbl", text))
    assert [ref.id for ref in read.references] == ["he", "kingma"]
    assert read.references[0].parsed.title == "Deep residual learning for image recognition"


def test_bibitems_of_a_whole_paper(tmp_path: Path) -> None:
    """A .tex paper with its bibliography inline: the text after the list is not part of the last item."""
    tex = (
        "\\section{Intro} As shown by \\citet{he2016}.\n"
        "\\begin{thebibliography}{1}\n"
        "\\bibitem{he2016} K. He and J. Sun. Deep residual learning. In CVPR, 2016.\n"
        "\\end{thebibliography}\n\\appendix Proofs follow. 2019.\n\\end{document}\n"
    )
    (ref,) = read_input(write(tmp_path, "paper.tex", tex)).references
    assert ref.raw == "K. He and J. Sun. Deep residual learning. In CVPR, 2016."


# --- CSL-JSON ----------------------------------------------------------------------------------------------

CSL_ITEMS = [
    {
        "id": "devlin2019",
        "type": "paper-conference",
        "title": "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
        "author": [{"family": "Devlin", "given": "Jacob"}, {"family": "Chang", "given": "Ming-Wei"}],
        "container-title": "Proceedings of NAACL-HLT",
        "issued": {"date-parts": [[2019, 6]]},
        "DOI": "10.18653/v1/N19-1423",
        "page": "4171-4186",
    },
    {
        "type": "article",
        "title": "Language Models are Few-Shot Learners",
        "author": [{"family": "Brown", "given": "Tom B."}, {"literal": "et al."}],
        "publisher": "arXiv",
        "number": "arXiv:2005.14165",
        "issued": {"raw": "2020-05-28"},
    },
    {"id": "maaten", "title": "Visualizing Data using t-SNE",
     "author": [{"family": "Maaten", "non-dropping-particle": "van der", "given": "Laurens"}],
     "container-title": ["Journal of Machine Learning Research"], "volume": 9,
     "issued": {"date-parts": [["2008"]]}},
    "not an item",
]  # fmt: skip


@pytest.mark.parametrize("wrap", [False, True])
def test_csl_json(tmp_path: Path, wrap: bool) -> None:
    data = {"items": CSL_ITEMS} if wrap else CSL_ITEMS
    read = read_input(write(tmp_path, "refs.json", json.dumps(data)))
    assert [ref.id for ref in read.references] == ["devlin2019", "2", "maaten"]
    bert, brown, maaten = (ref.parsed for ref in read.references)
    assert (bert.authors, bert.venue, bert.year) == (
        ["Jacob Devlin", "Ming-Wei Chang"],
        "Proceedings of NAACL-HLT",
        2019,
    )
    assert (bert.doi, bert.pages) == ("10.18653/v1/n19-1423", "4171-4186")
    assert (brown.authors, brown.authors_truncated) == (["Tom B. Brown"], True)
    assert (brown.venue, brown.arxiv_id, brown.year) == ("arXiv", "2005.14165", 2020)
    assert (maaten.authors, maaten.venue) == (
        ["Laurens van der Maaten"],
        "Journal of Machine Learning Research",
    )
    assert (maaten.volume, maaten.year) == ("9", 2008)
    (problem,) = read.problems
    assert problem.location == "item 4" and "not a CSL item" in problem.message


@pytest.mark.parametrize(
    ("author", "names", "truncated"),
    [
        ("Devlin, J., Chang, M.-W., et al.", ["Devlin, J.", "Chang, M.-W."], True),
        ({"family": "Devlin", "given": "Jacob"}, ["Jacob Devlin"], False),
        (2019, [], False),
        ("", [], False),
    ],
)
def test_csl_author_that_is_not_a_list_of_names(
    tmp_path: Path, author: object, names: list[str], truncated: bool
) -> None:
    """Hand-made CSL-JSON puts the author list in one string, or one name object: read what it means,
    never one author per character."""
    item = {"id": "bert", "title": "BERT: Pre-training of deep bidirectional transformers", "author": author}
    (reference,) = read_input(write(tmp_path, "refs.json", json.dumps([item]))).references
    assert (reference.parsed.authors, reference.parsed.authors_truncated) == (names, truncated)


def test_invalid_json_names_the_position(tmp_path: Path) -> None:
    path = write(tmp_path, "refs.json", '[{"title": "A"},\n {"title": }]')
    with pytest.raises(InputError, match=r"refs\.json: not valid JSON: .* line 2 column 12"):
        read_input(path)


def test_json_that_is_not_csl(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not CSL-JSON"):
        read_input(write(tmp_path, "refs.json", '{"records": []}'))


# --- plain text --------------------------------------------------------------------------------------------

NUMBERED = """References

[1] Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT: Pre-training of deep bi-
directional transformers for language understanding. In Proceedings of NAACL-HLT, pages
4171–4186.
[2] Kaiming He, Xiangyu Zhang, Shaoqing Ren, and Jian Sun. 2016. Deep residual learning for image
recognition. In Proceedings of CVPR, pages 770–778.
"""


def test_numbered_list_is_joined_and_dehyphenated(tmp_path: Path) -> None:
    read = read_input(write(tmp_path, "refs.txt", NUMBERED))
    assert [ref.id for ref in read.references] == ["1", "2"]
    first = read.references[0]
    assert first.raw.startswith("[1] Jacob Devlin") and "bidirectional transformers" in first.raw
    assert (
        first.parsed.title
        == "BERT: Pre-training of deep bidirectional transformers for language understanding"
    )
    assert read.references[1].parsed.year == 2016


def test_a_word_broken_at_a_line_end(tmp_path: Path) -> None:
    """A compound broken after its hyphen keeps the hyphen; the syllables of one word are glued; a hyphen
    that the next compound shares ("pre- and post-") stays as written."""
    text = (
        "[1] Patrick Lewis and Ethan Perez. 2020. Retrieval-\n"
        "augmented generation for knowledge-intensive NLP tasks. In NeurIPS.\n"
        "[2] Alec Radford and Jong Wook Kim. 2021. Learning transferable visual models from natural lan-\n"
        "guage supervision. In ICML.\n"
        "[3] Ting Chen and Simon Kornblith. 2020. A simple framework for contrastive learning of visual\n"
        "repre-\n"
        "sentations with self-\n"
        "supervised pre-\n"
        "and post-training. In ICML.\n"
    )
    titles = [ref.parsed.title for ref in read_input(write(tmp_path, "refs.txt", text)).references]
    assert titles == [
        "Retrieval-augmented generation for knowledge-intensive NLP tasks",
        "Learning transferable visual models from natural language supervision",
        "A simple framework for contrastive learning of visual representations with self-supervised pre- "
        "and post-training",
    ]


def test_numbering_must_count_up(tmp_path: Path) -> None:
    """ "2019." at the start of a wrapped line is a year, not reference number 2019."""
    text = (
        "1. Devlin, J., Chang, M.-W., Lee, K., & Toutanova, K.\n"
        "2019. BERT: Pre-training of deep bidirectional transformers. In Proceedings of NAACL-HLT.\n"
        "2. He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning. In CVPR.\n"
    )
    read = read_input(write(tmp_path, "refs.txt", text))
    assert [ref.parsed.year for ref in read.references] == [2019, 2016]


def test_a_few_labelled_lines_in_a_list_of_one_reference_a_line_do_not_number_it(tmp_path: Path) -> None:
    """References pasted from several sources, one a line, some keeping their number ("54.", "55."): two
    labels that count up do not make the other lines continuations of them."""
    text = (
        "Sutskever, I., Vinyals, O., & Le, Q. V. (2014). Sequence to sequence learning. In NIPS.\n"
        "54. Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. In ICLR.\n"
        "He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning. In CVPR.\n"
        "Vaswani, A., et al. (2017). Attention is all you need. In NeurIPS.\n"
        "Devlin, J., & Toutanova, K. (2019). BERT: Pre-training of deep transformers. In NAACL.\n"
        "Radford, A., & Kim, J. W. (2021). Learning transferable visual models. In ICML.\n"
        "Chen, T., & Kornblith, S. (2020). A simple framework for contrastive learning. In ICML.\n"
        "Lewis, P., & Perez, E. (2020). Retrieval-augmented generation. In NeurIPS.\n"
        "Bahdanau, D., Cho, K., & Bengio, Y. (2015). Neural machine translation. In ICLR.\n"
        "Mikolov, T., et al. (2013). Distributed representations of words and phrases. In NIPS.\n"
        "Pennington, J., Socher, R., & Manning, C. (2014). GloVe: Global vectors. In EMNLP.\n"
        "Hochreiter, S., & Schmidhuber, J. (1997). Long short-term memory. Neural Computation.\n"
        "Srivastava, N., et al. (2014). Dropout: A simple way to prevent overfitting. JMLR.\n"
        "55. Ioffe, S., & Szegedy, C. (2015). Batch normalization. In ICML.\n"
        "Goodfellow, I., et al. (2014). Generative adversarial nets. In NIPS.\n"
    )
    read = read_input(write(tmp_path, "refs.txt", text))
    assert [ref.parsed.year for ref in read.references] == [
        2014,
        2015,
        2016,
        2017,
        2019,
        2021,
        2020,
        2020,
        2015,
        2013,
        2014,
        1997,
        2014,
        2015,
        2014,
    ]


def test_a_line_opening_with_a_name_particle_starts_a_reference(tmp_path: Path) -> None:
    text = (
        "Sutskever, I., Vinyals, O., & Le, Q. V. (2014). Sequence to sequence learning. In NIPS.\n"
        "van der Goot, R., & Cetinoglu, O. (2021). Lexical normalization for code-switched data. In EACL.\n"
        "de Vries, W., & Nissim, M. (2021). As good as new. In Findings of ACL.\n"
        "Smith, J. (2019). A title that wraps\nonto a second line. In ACL.\n"
    )
    read = read_input(write(tmp_path, "refs.txt", text))
    assert [ref.parsed.year for ref in read.references] == [2014, 2021, 2021, 2019]


def test_a_dash_run_for_authors_repeats_the_previous_references(tmp_path: Path) -> None:
    text = (
        "Borges, Jorge Luis. 1944. Ficciones. Buenos Aires: Sur.\n"
        "———. 1949. El Aleph. Buenos Aires: Losada.\n"
        "——— and Adolfo Bioy Casares. 1946. Un modelo para la muerte. Buenos Aires: Oportet.\n"
    )
    read = read_input(write(tmp_path, "refs.txt", text))
    assert [ref.parsed.authors for ref in read.references] == [
        ["Borges, Jorge Luis"], ["Borges, Jorge Luis"], ["Borges, Jorge Luis", "Adolfo Bioy Casares"],
    ]  # fmt: skip
    assert [ref.parsed.title for ref in read.references][1:] == ["El Aleph", "Un modelo para la muerte"]
    assert read.references[1].raw.startswith("———.")  # the reference as written


def test_a_dash_run_opening_a_list_has_no_authors_to_repeat(tmp_path: Path) -> None:
    read = read_input(write(tmp_path, "refs.txt", "———. 1949. El Aleph. Buenos Aires: Losada.\n"))
    assert read.references[0].parsed.authors == []


def test_bysame_repeats_the_previous_items_authors(tmp_path: Path) -> None:
    bbl = (
        "\\begin{thebibliography}{2}\n"
        "\\bibitem{a} A.~Weil, \\emph{Sur les courbes alg\\'ebriques}, Hermann, Paris, 1948.\n"
        "\\bibitem{b} \\bysame, \\emph{Basic number theory}, Springer, Berlin, 1967.\n"
        "\\end{thebibliography}\n"
    )
    first, second = read_input(write(tmp_path, "paper.bbl", bbl)).references
    assert first.parsed.authors == second.parsed.authors == ["A. Weil"]
    assert second.parsed.title == "Basic number theory"


def test_paragraphs_and_lines(tmp_path: Path) -> None:
    paragraphs = (
        "Devlin, J., Chang, M.-W., Lee, K., & Toutanova, K. (2019).\n"
        "BERT: Pre-training of deep bidirectional\n"
        "transformers for language understanding. In Proceedings of NAACL-HLT.\n\n"
        "He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image recognition.\n"
        "In CVPR.\n"
    )
    read = read_input(write(tmp_path, "refs.txt", paragraphs))
    assert [ref.parsed.year for ref in read.references] == [2019, 2016]
    lines = (
        "Devlin, J., & Toutanova, K. (2019). BERT: Pre-training of deep bidirectional transformers for lan-\n"
        "guage understanding. In Proceedings of NAACL-HLT.\n"
        "He, K., & Sun, J. (2016). Deep residual learning for image recognition. In CVPR.\n"
        "Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. In ICLR.\n"
    )
    read = read_input(write(tmp_path, "refs", lines))
    assert [ref.parsed.year for ref in read.references] == [2019, 2016, 2015]
    assert "language understanding" in read.references[0].raw


def test_markdown_list(tmp_path: Path) -> None:
    text = (
        "## Bibliography\n\n"
        "- Kingma, D. P., & Ba, J. (2015). *Adam: A method for stochastic optimization*. In ICLR.\n"
        "- He, K., & Sun, J. (2016). Deep residual learning for image recognition. In **CVPR**.\n"
    )
    read = read_input(write(tmp_path, "refs.md", text))
    assert [ref.parsed.title for ref in read.references] == [
        "Adam: A method for stochastic optimization",
        "Deep residual learning for image recognition",
    ]
    assert read.references[1].parsed.venue == "CVPR"


def test_fragment_without_letters_is_reported(tmp_path: Path) -> None:
    text = "He, K. (2016). Deep residual learning. In CVPR.\n\n12\n\nKingma, D. (2015). Adam. In ICLR.\n"
    read = read_input(write(tmp_path, "refs.txt", text))
    assert len(read.references) == 2
    assert [(p.location, p.message) for p in read.problems] == [
        ("line 3", "'12' is not a reference, skipped")
    ]


# --- detection, encodings, bad files ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("refs.txt", "% my refs\n@article{k, title={T}}", InputFormat.BIBTEX),
        ("refs", '[{"title": "T"}]', InputFormat.CSL_JSON),
        ("refs", "[1] Devlin, J. BERT. 2019.", InputFormat.TEXT),
        ("paper.tex", "\\begin{thebibliography}{9}\n\\bibitem{k} A. B. Title. 2019.", InputFormat.BBL),
        ("refs.md", "1. Devlin, J. BERT. 2019.", InputFormat.MARKDOWN),
        ("refs.bib", "not really bibtex", InputFormat.BIBTEX),
    ],
)
def test_detect_format(name: str, content: str, expected: InputFormat) -> None:
    assert detect_format(Path(name), content) is expected


def test_non_utf8_is_read_with_a_problem(tmp_path: Path) -> None:
    text = (
        "M\u00fcller, J. (2001). \u201cSprache und Welt.\u201d Zeitschrift f\u00fcr Sprache, 3, 1\u20139.\n"
    )
    read = read_input(write(tmp_path, "refs.txt", text.encode("cp1252")))
    (ref,) = read.references
    assert ref.parsed.title == "Sprache und Welt" and ref.parsed.authors == ["Müller, J."]
    (problem,) = read.problems
    assert problem.input.endswith("refs.txt") and "read as cp1252" in problem.message


def test_utf16_with_bom(tmp_path: Path) -> None:
    read = read_input(
        write(tmp_path, "refs.txt", "He, K. (2016). Deep residual learning. In CVPR.".encode("utf-16"))
    )
    assert read.references[0].parsed.year == 2016 and read.problems == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b"  \n\t\n ", "empty file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file, not a reference list"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "binary file, not a reference list"),
        (bytes(range(1, 32)) * 20, "binary file, not a reference list"),
    ],
)
def test_unusable_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = write(tmp_path, "refs.bib", content)
    with pytest.raises(InputError) as raised:
        read_input(path)
    assert str(raised.value) == f"{path}: {message}"


def test_missing_directory_and_too_large(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.bib: no such file"):
        read_input(tmp_path / "nope.bib")
    with pytest.raises(InputError, match="is a directory"):
        read_input(tmp_path)
    path = write(tmp_path, "refs.txt", "He, K. (2016). Deep residual learning. In CVPR.\n" * 100)
    with pytest.raises(InputError, match=r"refs\.txt: file is 4800 bytes, larger than the 1000 bytes limit"):
        read_input(path, max_bytes=1000)


@pytest.mark.parametrize(
    ("name", "content", "fmt"), [("refs.bib", "% to do\n", "bibtex"), ("r.json", "[]", "csl-json")]
)
def test_a_file_without_references_says_so(tmp_path: Path, name: str, content: str, fmt: str) -> None:
    read = read_input(write(tmp_path, name, content))
    assert read.references == []
    assert [p.message for p in read.problems] == [f"no references found (read as {fmt})"]


def test_read_inputs_keeps_ids_and_files_apart(tmp_path: Path) -> None:
    bib = write(tmp_path, "a.bib", BIB)
    text = write(tmp_path, "b.txt", NUMBERED)
    read = read_inputs([bib, text])
    assert [ref.id for ref in read.references][-3:] == ["empty", "1", "2"]
    assert {ref.input for ref in read.references} == {str(bib), str(text)}
    assert {p.input for p in read.problems} == {str(bib)}


# --- size ---------------------------------------------------------------------------------------------------

FIFTY_MB = 50 * 1024 * 1024


def _fill(path: Path, entry: str) -> int:
    """Write copies of `entry` (with `{n}` numbered) until the file holds 50 MB; return how many."""
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        while handle.tell() < FIFTY_MB:
            count += 1
            handle.write(entry.format(n=count))
    return count


@pytest.mark.slow
def test_fifty_megabyte_plain_text(tmp_path: Path) -> None:
    entry = (
        "[{n}] Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT: Pre-training\n"
        "deep bidirectional transformers for language understanding, part {n}. In Proceedings of NAACL-HLT,\n"
        "pages 4171–4186.\n"
    )
    count = _fill(tmp_path / "big.txt", entry)
    read = read_input(tmp_path / "big.txt")
    assert len(read.references) == count and read.references[-1].id == str(count)


@pytest.mark.slow
def test_fifty_megabyte_bibtex(tmp_path: Path) -> None:
    entry = (
        "@inproceedings{{key{n},\n  title = {{Deep {{BERT}} Models, Part {n}}},\n"
        "  author = {{Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina}},\n"
        "  booktitle = {{Proceedings of NAACL-HLT}},\n  year = {{2019}},\n  pages = {{4171--4186}},\n}}\n\n"
    )
    count = _fill(tmp_path / "big.bib", entry)
    read = read_input(tmp_path / "big.bib")
    assert len(read.references) == count and read.problems == []


@pytest.mark.parametrize(
    ("name", "content", "structured"),
    [
        ("refs.bib", "@article{k, title = {Deep Learning}, author = {LeCun, Yann}}", True),
        ("refs.json", json.dumps(CSL_ITEMS[:1]), True),
        ("refs.txt", "[1] Y. LeCun, Y. Bengio, and G. Hinton. Deep learning. Nature, 2015.", False),
    ],
)
def test_fields_from_structured_entries_say_so(
    tmp_path: Path, name: str, content: str, structured: bool
) -> None:
    # Only fields read from a printed string may be read again (agents/reread.py).
    read = read_input(write(tmp_path, name, content))
    assert [ref.structured for ref in read.references] == [structured]
