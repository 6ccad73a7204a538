"""Locating a quote in a source, layer by layer, and the guard that keeps altered quotes from `verified`."""

from __future__ import annotations

import random

import pytest

from refhound.quotes.fuzzy import GramIndex, describe_differences, fuzzy_find
from refhound.quotes.match import Haystack, fragments_of, locate
from refhound.quotes.normalize import normalize
from refhound.settings import QuotesSettings

SOURCE = (
    "The court held that the defendant was not liable for the damages. In 2019, revenue rose by 12 "
    "percent,\nand the com-\npany may expand into new markets. It was, in the end, a well-\nknown result. "
    "Sales grew in May 2020 to 1,000 units. The rest [15] is repulsive, as noted in [26]."
)
SETTINGS = QuotesSettings()


def check(quote: str, source: str = SOURCE) -> tuple[str, str, str | None]:
    hay = Haystack(source)
    outcome = locate(quote, hay, SETTINGS)
    matched = source[outcome.located.start : outcome.located.end] if outcome.located else None
    return outcome.status, outcome.located.layer if outcome.located else "", matched


def test_exact() -> None:
    assert check("the defendant was not liable") == ("verified", "exact", "the defendant was not liable")


def test_exact_needs_word_edges() -> None:
    status, layer, _ = check("efendant was not liable")
    assert (status, layer) != ("verified", "exact")


@pytest.mark.parametrize(
    "quote",
    [
        "revenue rose by 12 percent, and the company may expand",  # line break and PDF hyphenation
        "The Defendant was not liable for the damages.",  # case, trailing punctuation
        "a well-known result",
        "a well known result".replace(" known", "-known"),
        "the company may expand into new markets.",
    ],
)
def test_normalized(quote: str) -> None:
    assert check(quote)[:2] == ("verified", "normalized")


def test_normalized_match_reports_the_original_span() -> None:
    assert check("and the company may expand")[2] == "and the com-\npany may expand"


def test_ellipsis_fragments_in_order() -> None:
    status, layer, matched = check("In 2019 … the company may expand")
    assert (status, layer) == ("verified", "ellipsis")
    assert matched is not None and matched.startswith("In 2019") and matched.endswith("may expand")
    for mark in ("...", "[...]", "[…]", ". . ."):
        assert check(f"The court held {mark} the defendant")[:2] == ("verified", "ellipsis")


def test_ellipsis_out_of_order_is_not_verified() -> None:
    assert check("the company may expand … In 2019")[0] != "verified"


def test_ellipsis_that_drops_a_negation_or_modal_is_downgraded() -> None:
    status, _, _ = check("the defendant was … liable for the damages")
    assert status == "near_match"
    status, _, _ = check("the company … expand into new markets")
    assert status == "near_match"


def test_leading_and_trailing_ellipsis_only_mark_a_partial_quote() -> None:
    assert fragments_of("… the court held …") == ["the court held"]
    assert check("...the court held that...")[0] == "verified"


@pytest.mark.parametrize(
    ("quote", "matched"),
    [
        ("[T]he defendant was not liable", "the defendant was not liable"),
        ("[the firm] may expand into new markets", "may expand into new markets"),
        ("revenue rose by 12 percent, and [the business] may expand", None),
        ("[T]he rest [15] is repulsive, as noted in [26].", "The rest [15] is repulsive, as noted in [26]"),
        ("the defendant was [not] liable", "the defendant was not liable"),  # the source says "not" too
    ],
)
def test_brackets(quote: str, matched: str | None) -> None:
    status, layer, found = check(quote)
    assert (status, layer) == ("verified", "brackets")
    if matched is not None:
        assert found == matched


@pytest.mark.parametrize(
    "quote",
    [
        "revenue rose by [not] 12 percent",  # an inserted [not] never passes
        "In [2020], revenue rose by 12 percent",  # nor a changed number
        "Sales grew in [June] 2020",  # nor a changed date
        "the company [will] expand into new markets",  # nor a changed modal verb
        "the defendant was [held] liable for the damages",  # a bracket hiding the source's "not"
    ],
)
def test_brackets_never_absorb_a_guarded_change(quote: str) -> None:
    assert check(quote)[0] == "near_match"


def test_a_bracket_never_spans_a_sentence_end() -> None:
    source = "They were not critical of it. They were dazzled by the new programme, without discussion."
    assert check("They were [not] dazzled by the new programme", source)[0] == "near_match"


@pytest.mark.parametrize(
    ("quote", "shown"),
    [
        ("revenue rose by 21 percent", "'21' → '12'"),
        ("the defendant was liable for the damages", "source has 'not'"),
        ("the company will expand into new markets", "'will' → 'may'"),
        ("In 2019, revenue rose sharply by 12 percent, and the company may expand", "quote adds 'sharply'"),
        ("Sales grew in May 2020 to 1000 units", "'1000' → '1,000'"),
    ],
)
def test_fuzzy_is_near_match_with_the_difference_shown(quote: str, shown: str) -> None:
    hay = Haystack(SOURCE)
    outcome = locate(quote, hay, SETTINGS)
    assert outcome.status == "near_match"
    assert outcome.located is not None and outcome.located.layer == "fuzzy"
    assert shown in outcome.note


def test_changed_number_inside_a_longer_number_is_not_verified() -> None:
    assert check("by 2 percent")[0] != "verified"


def test_fabricated_quote_is_not_found() -> None:
    status, _, matched = check("quantum entanglement explains the stock market entirely")
    assert (status, matched) == ("not_found", None)


def test_quote_with_no_words() -> None:
    assert check(" … ")[0] == "not_found"


def test_quote_across_a_page_break_is_found() -> None:
    source = "first page ends with the begin-\n\nning of a sentence that goes on here."
    assert check("the beginning of a sentence that goes on", source)[0] == "verified"


def test_large_alphabet_sources_still_match_fuzzily() -> None:
    rng = random.Random(5)
    alphabet = [chr(c) for c in range(0x4E00, 0x4E00 + 600)]
    source = "".join(rng.choice(alphabet) for _ in range(3000)) + " the quick brown fox jumps over it "
    assert check("the quick brovn fox jumps over it", source)[0] == "near_match"


def test_qgram_filter_finds_what_a_full_search_finds() -> None:
    rng = random.Random(11)
    words = [
        "data",
        "model",
        "court",
        "result",
        "market",
        "policy",
        "effect",
        "sample",
        "theory",
        "method",
        "analysis",
    ]
    text = " ".join(rng.choice(words) for _ in range(20000))
    norm = normalize(text)
    grams = GramIndex(norm.text)
    for trial in range(20):
        start = rng.randrange(0, len(norm.text) - 400)
        needle = list(norm.text[start : start + 300])
        for _ in range(trial % 6):
            needle[rng.randrange(len(needle))] = "#"
        quote = "".join(needle)
        filtered = fuzzy_find(quote, norm, 0, 0.15, grams)
        full = fuzzy_find(quote, norm, 0, 0.15, None)  # edlib over the whole text
        assert filtered is not None and filtered == full


def test_describe_differences_wording() -> None:
    assert describe_differences("a b c", "a b c") == "differs only in punctuation or spacing"
    assert "→" in describe_differences("grew 5%", "grew 6%")


NUMBERS = (
    "Revenue rose by 12.5 percent in 2019. Temperatures of -5 degrees were recorded on site. We sold "
    "1,000,000 units last year. The substance is non-toxic to humans in small doses. Thousands of people "
    "attended the rally. Sales rose by twenty-one percent. The treatment was effective in most patients."
)


@pytest.mark.parametrize(
    "quote",
    [
        "5 percent in 2019",  # starts inside "12.5"
        "Revenue rose by 12",  # ends inside it
        "Revenue rose by 12.",
        "5 degrees were recorded on site",  # drops the sign
        "We sold 1,000 units",
        "We sold 1,000",
        "toxic to humans in small doses",  # starts inside "non-toxic"
        "The substance is non",
        "[Millions] of people attended the rally",
        "Sales rose by [twenty-two] percent",
        "The treatment was [in]effective in most patients",
    ],
)
def test_a_quote_that_cuts_or_changes_a_number_or_a_negation_is_never_verified(quote: str) -> None:
    assert check(quote, NUMBERS)[0] != "verified"


@pytest.mark.parametrize(
    "quote",
    [
        "rose by 12.5 percent in 2019",
        "Temperatures of -5 degrees were recorded",
        "We sold 1,000,000 units",
        "The substance is non-toxic to humans",
        "Sales rose by twenty-one percent",
    ],
)
def test_whole_numbers_and_compounds_still_verify(quote: str) -> None:
    assert check(quote, NUMBERS)[0] == "verified"


def test_a_cut_number_is_named_in_the_note() -> None:
    outcome = locate("Revenue rose by 12", Haystack(NUMBERS), SETTINGS)
    assert outcome.status == "near_match" and "source has '12.5'" in outcome.note


@pytest.mark.parametrize(
    ("quote", "status"),
    [
        ("The costs were [over]estimated by the planners", "near_match"),  # a glued bracket swaps no morpheme
        ("The driver was care[less] on the road", "near_match"),
        ("The court recogni[z]ed the claim", "verified"),  # … but mends a letter
        ("[T]he defendant[s] were present", "verified"),  # … or adds an ending
        ("The [Court] recognised the claim", "verified"),  # … or is the word itself
    ],
)
def test_a_bracket_glued_to_a_word_mends_it_and_never_swaps_a_part(quote: str, status: str) -> None:
    source = (
        "The costs were underestimated by the planners. The driver was careful on the road. The court "
        "recognised the claim. The defendant were present."
    )
    assert check(quote, source)[0] == status


def test_a_bracket_never_stands_for_the_sources_own_bracketed_text() -> None:
    source = "No, a six-pack of [a particular brand of ciders] and we drank it first."
    assert check("a six-pack of [a simple brand of ciders] and we drank it", source)[0] != "verified"
    assert check("a six-pack of [a particular brand of ciders] and we drank it", source)[0] == "verified"
