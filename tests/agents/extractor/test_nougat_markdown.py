"""nougat's Markdown → reference strings.

The fixture is an excerpt of nougat's own output for an arXiv paper (facebookresearch/nougat,
examples/04f0a2d06e7016a334c49abb7ae2eea6/doc.mmd at commit 337c6b9: "Self-supervised Correspondence
Estimation via Multiview Registration"), unchanged but for the items left out, with nougat's slips kept (the
"** [37]" marker)."""

from __future__ import annotations

from pathlib import Path

from refhound.agents.extractor.nougat_markdown import clean_markdown, references_from_markdown

FIXTURE = (Path(__file__).parent / "data" / "nougat-syncmatch-excerpt.mmd").read_text()


def test_each_list_item_under_the_heading_is_one_reference() -> None:
    references = references_from_markdown(FIXTURE)
    assert len(references) == 9
    assert references[0] == (
        "Relja Arandjelovic and Andrew Zisserman. Three things everyone should know to improve object "
        "retrieval. In CVPR, 2012."
    )
    assert references[2].endswith("SIAM Journal on Imaging Sciences, 9(4):1963-1990, 2016.")
    # nougat wrote "** [37]": still an item of its own, not the end of [36]
    assert references[4].endswith("In ICLR, 2015.")
    assert references[5].startswith("Rainer Kummerle, Giorgio Grisetti")
    assert not any("[" in reference or "_" in reference for reference in references)


def test_the_list_ends_at_the_next_heading_of_its_level() -> None:
    markdown = FIXTURE + "\n## Appendix A\n\nMore results for 2019.\n\n* A list item of the appendix, 2020.\n"
    assert len(references_from_markdown(markdown)) == 9


def test_the_last_reference_heading_wins_and_a_subheading_stays_inside() -> None:
    markdown = (
        "# Contents\n\n* Introduction\n* References\n\n## References\n\n### Books\n\n"
        "* Smith, J. (2001). _A Title_. Oxford: OUP.\n\n### Articles\n\n* Jones, K. (2003). Another title. "
        "**Journal** 3: 1-10.\n"
    )
    assert references_from_markdown(markdown) == [
        "Smith, J. (2001). A Title. Oxford: OUP.",
        "Jones, K. (2003). Another title. Journal 3: 1-10.",
    ]


def test_a_list_without_markers_is_cut_at_blank_lines() -> None:
    markdown = (
        "## Bibliography\n\nSmith, J. (2001). A title that wraps\nonto a second line. Oxford: OUP.\n\n"
        "Jones, K. (2003). Another title. Journal 3: 1-10.\n"
    )
    assert references_from_markdown(markdown) == [
        "Smith, J. (2001). A title that wraps onto a second line. Oxford: OUP.",
        "Jones, K. (2003). Another title. Journal 3: 1-10.",
    ]


def test_maths_escapes_and_missing_pages_are_cleaned() -> None:
    assert clean_markdown(r"On \(k\)-means in \_practice\_ [MISSING_PAGE_FAIL:3] **2019**.") == (
        "On k-means in _practice_ 2019."
    )


def test_no_reference_heading_gives_nothing() -> None:
    assert references_from_markdown("# A paper\n\nSome text, 2019.\n\n* an item\n") == []
