"""Quotes in a document: every quote style with its offsets, block quotes, code masked, bad quoting."""

from __future__ import annotations

from refhound.quotes.citations import scan_citations
from refhound.quotes.extract import Extracted, extract_quotes
from refhound.quotes.layout import markdown_layout, mask, text_layout


def quotes_of(text: str, min_words: int = 3, markdown: bool = True) -> Extracted:
    layout = markdown_layout(text) if markdown else text_layout(text)
    masked = mask(text, layout.code)
    citations = scan_citations(text, masked, None)
    return extract_quotes(
        text, masked, layout, min_words, citations.footnote_spans, citations.reference_spans
    )


def test_every_inline_style_with_offsets() -> None:
    text = (
        'Straight "one two three four" then “curly five six seven” and „low nine ten eleven“ '
        "and «guillemets twelve thirteen fourteen» here."
    )
    found = quotes_of(text).quotes
    assert [(q.style, q.text) for q in found] == [
        ("straight", "one two three four"),
        ("curly", "curly five six seven"),
        ("low9", "low nine ten eleven"),
        ("guillemets", "guillemets twelve thirteen fourteen"),
    ]
    for quote in found:
        assert text[quote.start : quote.end] == quote.text


def test_nested_quotes_belong_to_the_outer_one() -> None:
    text = "He wrote “the term ‘fair use’ and “inner words here” mean little” then stopped."
    (quote,) = quotes_of(text).quotes
    assert quote.text == "the term ‘fair use’ and “inner words here” mean little"


def test_block_quote_text_and_span() -> None:
    text = (
        "Intro:\n\n> The court held that the statute\n> applies to all parties. [2]\n> — Judge Doe\n\nAfter."
    )
    (quote,) = quotes_of(text).quotes
    assert quote.style == "block"
    assert quote.text == "The court held that the statute\napplies to all parties."
    assert text[quote.start : quote.end] == "The court held that the statute\n> applies to all parties."


def test_block_quote_in_plain_text_is_an_indented_block() -> None:
    text = "The memo says:\n\n    the parties agree that the fee is due\n    within thirty days\n\nEnd."
    (quote,) = quotes_of(text, markdown=False).quotes
    assert (quote.style, quote.text) == ("block", "the parties agree that the fee is due\nwithin thirty days")


def test_code_is_never_read() -> None:
    text = (
        'Use `print("not a quote at all")` here.\n\n```\nx = "also not a quote here"\n```\n\n'
        '    indented "code is not quoted either"\n\nBut "this one counts as a quote".'
    )
    assert [q.text for q in quotes_of(text).quotes] == ["this one counts as a quote"]


def test_trailing_citations_inside_the_marks_are_not_quoted() -> None:
    (quote,) = quotes_of('He said "the result holds in general [3]." and left.').quotes
    assert quote.text == "the result holds in general"


def test_short_quotes_are_skipped_and_counted() -> None:
    found = quotes_of('A "so-called" term and "real quote of words".', min_words=4)
    assert [q.text for q in found.quotes] == ["real quote of words"]
    assert found.skipped_short == 1


def test_unbalanced_quote_is_reported_with_its_line() -> None:
    found = quotes_of(
        'First line.\n\nAn "unclosed quote runs on and on\n\nNext paragraph "closed one here now".'
    )
    assert [q.text for q in found.quotes] == ["closed one here now"]
    assert found.warnings and found.warnings[0].startswith("line 3: unbalanced quote")


def test_quote_over_several_paragraphs_is_checked_paragraph_by_paragraph() -> None:
    text = "“The first paragraph of a long quotation\n\n“and its second paragraph, closed here.”"
    found = quotes_of(text)
    assert [q.text for q in found.quotes] == [
        "The first paragraph of a long quotation",
        "and its second paragraph, closed here.",
    ]
    assert "several paragraphs" in found.warnings[0]


def test_inches_and_apostrophes_are_no_quotes() -> None:
    assert quotes_of('A 5" screen, the authors\' view and 12" ruler are here.').quotes == []


def test_titles_in_a_reference_list_are_not_quotations() -> None:
    text = (
        'Body "a real quotation in the body" [1].\n\n## References\n\n'
        '1. Smith, J. "A Title In Quotes Here". Journal, 2020. https://example.org/a\n\n'
        '[2] Doe, "Another Quoted Title Here", https://example.org/b\n'
    )
    assert [q.text for q in quotes_of(text).quotes] == ["a real quotation in the body"]


def test_quote_in_a_footnote_belongs_to_it() -> None:
    text = (
        'Body text.[^a]\n\n[^a]: Smith v. Jones ("the statute applies to everyone"), https://example.org/x\n'
    )
    (quote,) = quotes_of(text).quotes
    assert (quote.text, quote.footnote) == ("the statute applies to everyone", "^a")
