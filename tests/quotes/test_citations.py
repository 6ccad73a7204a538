"""Citation markers and definitions in Markdown reports, where they point, and which citation a quote gets."""

from __future__ import annotations

import time
from pathlib import Path

from refhound.quotes.citations import Citations, parse_destination, scan_citations, target_in_text
from refhound.quotes.extract import extract_quotes
from refhound.quotes.layout import markdown_layout, mask
from refhound.quotes.models import Target
from refhound.quotes.pairing import group_markers, pair_quotes, sentence_spans


def scan(text: str, base: str | None = "/docs") -> Citations:
    layout = markdown_layout(text)
    return scan_citations(text, mask(text, layout.code), base)


def keys(text: str) -> list[tuple[str, ...]]:
    return [marker.keys for marker in scan(text).markers]


def test_numbered_ranges_and_lists() -> None:
    assert keys("A [1], B [2-4], C [1, 5], D [3–4; 7].") == [
        ("1",),
        ("2", "3", "4"),
        ("1", "5"),
        ("3", "4", "7"),
    ]


def test_the_commonmark_trap_is_two_citations() -> None:
    # CommonMark reads "[3][2]" as one reference link (text "3", label "2"); here it is two citations.
    text = "As shown [3][2].\n\n[2]: https://example.org/two\n[3]: https://example.org/three\n"
    assert keys(text) == [("3",), ("2",)]


def test_footnotes_links_autolinks_and_bare_urls() -> None:
    text = 'See [^n], [the paper](https://a.example/p "T"), <https://b.example/q> and https://c.example/r.'
    assert keys(text) == [
        ("^n",),
        ("url:https://a.example/p",),
        ("url:https://b.example/q",),
        ("url:https://c.example/r",),
    ]


def test_reference_style_labels_need_a_definition() -> None:
    text = "Per [Smith 2020] and [nothing here].\n\n[smith 2020]: ./smith.pdf\n"
    assert keys(text) == [("ref:smith 2020",)]


def test_images_and_code_are_no_citations() -> None:
    text = "![figure 1](https://img.example/x.png) and `see [2]`.\n\n```\n[3] in code\n```\n"
    assert keys(text) == []


def test_definitions_and_their_targets() -> None:
    text = (
        "Text [1] [2] [3] [4] [^f] [6].\n\n"
        "[1]: paper.pdf\n"
        "[2]: file:///srv/data/b.txt\n"
        "[3]: https://example.org/c\n"
        "[4]: 10.1000/XYZ.5\n"
        "[^f]: Doe, A study, arXiv:2005.14165\n"
        "    continued on a second line\n"
        "[6] Smith. A Title. https://example.org/six\n"
    )
    found = scan(text)
    targets = {key: d.target for key, d in found.definitions.items()}
    assert targets["1"] == Target("file", "/docs/paper.pdf")
    assert targets["2"] == Target("file", "/srv/data/b.txt")
    assert targets["3"] == Target("url", "https://example.org/c")
    assert targets["4"] == Target("doi", "10.1000/xyz.5")
    assert targets["^f"] == Target("arxiv", "2005.14165")
    assert "continued on a second line" in found.definitions["^f"].text
    assert targets["6"] == Target("url", "https://example.org/six")
    assert [m.keys for m in found.markers] == [("1",), ("2",), ("3",), ("4",), ("^f",), ("6",)]


def test_numbered_list_under_a_references_heading() -> None:
    text = "Claim [2].\n\n## Sources\n\n1. First, https://example.org/1\n2. Second, see notes.txt\n"
    definitions = scan(text).definitions
    assert definitions["1"].target == Target("url", "https://example.org/1")
    assert definitions["2"].target == Target("file", "/docs/notes.txt")


def test_a_definition_without_a_locator_says_why() -> None:
    definitions = scan("Claim [^x].\n\n[^x]: Personal communication, 2021.\n").definitions
    assert definitions["^x"].target is None and "no URL" in (definitions["^x"].reason or "")


def test_targets_from_text_and_destinations(tmp_path: Path) -> None:
    base = str(tmp_path)
    assert parse_destination("file://notes/a.md", base) == Target("file", str(tmp_path / "notes/a.md"))
    assert parse_destination("./a.txt", base) == Target("file", str(tmp_path / "a.txt"))
    assert parse_destination("arXiv:1810.04805v2", base) == Target("arxiv", "1810.04805")
    assert parse_destination("ftp://example.org/x", base) is None
    assert target_in_text("Smith (2020), doi:10.1234/ABC.", base) == Target("doi", "10.1234/abc")
    assert target_in_text("no locator at all", base) is None


# --- pairing --------------------------------------------------------------------------------------------


def pairings(text: str) -> list[tuple[str, str | None, str]]:
    layout = markdown_layout(text)
    masked = mask(text, layout.code)
    found = scan_citations(text, masked, None)
    extracted = extract_quotes(text, masked, layout, 2, found.footnote_spans, found.reference_spans)
    quotes = extracted.quotes
    groups = group_markers(found.markers, quotes, text)
    result = pair_quotes(text, layout, quotes, groups, extracted.runs_on)
    return [(q.text, p.group.label if p.group else None, p.rule) for q, p in zip(quotes, result, strict=True)]


def test_the_citation_that_follows_the_quote() -> None:
    assert pairings('Smith said "alpha beta gamma" [1] and Jones "delta epsilon zeta" [2].') == [
        ("alpha beta gamma", "[1]", "follows"),
        ("delta epsilon zeta", "[2]", "follows"),
    ]


def test_adjacent_markers_are_one_citation() -> None:
    assert pairings('It is "alpha beta gamma" [1][2].')[0][1] == "[1][2]"


def test_a_citation_carries_forward_over_consecutive_quotes() -> None:
    got = pairings('Smith [4] wrote "alpha beta gamma" and "delta epsilon zeta".')
    assert [(label, rule) for _, label, rule in got] == [("[4]", "carried"), ("[4]", "carried")]


def test_a_citation_ending_the_passage_covers_the_uncited_sentences_before_it() -> None:
    got = pairings('He wrote "alpha beta gamma". Others agreed with this view [7].')
    assert got == [("alpha beta gamma", "[7]", "passage_end")]


def test_a_mid_sentence_citation_of_a_later_sentence_does_not_reach_back() -> None:
    got = pairings('He wrote "alpha beta gamma". Later, Jones [2] disagreed entirely.')
    assert got == [("alpha beta gamma", None, "uncited")]


def test_no_citation_in_the_paragraph_is_uncited() -> None:
    assert pairings('Intro [1].\n\nA new paragraph with "alpha beta gamma" only.')[0][1:] == (None, "uncited")


def test_block_quote_takes_the_citation_of_the_passage_introducing_it() -> None:
    text = "As Smith [3] puts it:\n\n> alpha beta gamma delta\n\nEnd."
    assert pairings(text) == [("alpha beta gamma delta", "[3]", "carried")]


def test_block_quote_with_its_own_citation() -> None:
    assert pairings("Intro [1]:\n\n> alpha beta gamma delta [2]\n")[0][1:] == ("[2]", "follows")


def test_markers_inside_a_quotation_are_quoted_text() -> None:
    assert pairings('He said "the rule [12] applies here" [5].')[0][1] == "[5]"


def test_quote_in_a_footnote_pairs_with_the_footnote() -> None:
    got = pairings('Claim.[^a]\n\n[^a]: Jones ("alpha beta gamma"), https://example.org/a\n')
    assert got == [("alpha beta gamma", "[^a]", "footnote")]


def test_sentences_do_not_end_at_abbreviations_or_inside_quotes() -> None:
    text = 'Dr. Smith et al. wrote "It holds. Always." in Fig. 2 [1]. Then J. Doe replied. Fine.'
    spans = sentence_spans(text, (0, len(text)), [(23, 40)], [])
    assert [text[s:e].strip() for s, e in spans] == [
        'Dr. Smith et al. wrote "It holds. Always." in Fig. 2 [1].',
        "Then J. Doe replied.",
        "Fine.",
    ]


def test_a_quotation_over_several_paragraphs_is_cited_where_it_ends() -> None:
    text = "“The first paragraph of a long quotation\n\n“and its second paragraph, closed here.” [4]\n"
    assert pairings(text) == [
        ("The first paragraph of a long quotation", "[4]", "quotation_end"),
        ("and its second paragraph, closed here.", "[4]", "follows"),
    ]


def test_a_definition_with_a_scheme_refhound_cannot_read_says_which() -> None:
    definition = scan("Claim [5].\n\n[5]: ftp://example.org/a\n").definitions["5"]
    assert definition.target is None and "ftp://example.org/a" in (definition.reason or "")


def test_pairing_a_huge_paragraph_is_not_quadratic() -> None:
    text = " ".join(f'Item {i} says "alpha beta gamma {i}" [{i % 50 + 1}]. More text.' for i in range(10000))
    began = time.perf_counter()
    got = pairings(text)
    assert len(got) == 10000 and {rule for _, _, rule in got} == {"follows"}
    assert time.perf_counter() - began < 10  # about 0.4 s; it was 20 s when sentences were found by scans


def test_a_link_around_a_quotation_is_its_citation() -> None:
    text = 'As [the court says, "alpha beta gamma"](https://a.example/c) and others agree [2].'
    assert pairings(text) == [
        ("alpha beta gamma", '[the court says, "alpha beta gamma"](https://a.example/c)', "follows")
    ]


def test_a_label_of_other_digits_is_a_key_not_a_crash() -> None:
    # "²" and "①" are digits to str.isdigit but no number int() reads; Arabic-Indic digits are both.
    from refhound.quotes.citations import reference_key

    assert reference_key("²") == "ref:²"
    assert reference_key("①") == "ref:①"
    assert reference_key("١٢") == "12"
