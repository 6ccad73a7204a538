"""Normalization (with its offset map back to the original) and the guard on numbers, dates, negations and
modal verbs."""

from __future__ import annotations

import pytest

from refhound.quotes.guard import (
    guard_differences,
    guard_match,
    guarded_words,
    omitted_meaning,
    whole_numbers,
)
from refhound.quotes.normalize import at_word_edges, find_word_aligned, normalize, normalize_needle


@pytest.mark.parametrize(
    ("original", "normalized"),
    [
        ("resid-\nual", "residual"),  # PDF hyphenation at a line end
        ("resid- ual", "residual"),  # … as copied from a PDF
        ("state-of-the-\nart", "stateoftheart"),
        ("well-known", "wellknown"),
        ("“Quoted” and ‘single’", "\"quoted\" and 'single'"),
        ("«guillemets» „low“", '"guillemets" "low"'),
        ("a — b – c - d", "a - b - c - d"),  # spaced dashes of any kind are one separator
        ("pages 1–3", "pages 1-3"),
        ("many   spaces\n\nand lines", "many spaces and lines"),
        ("ﬁnal ﬂow", "final flow"),
        ("soft\u00adhyphen", "softhyphen"),
        ("wait…", "wait..."),
        ("``TeX quotes''", '"tex quotes"'),
        ("non\u00a0breaking", "non breaking"),
    ],
)
def test_normalized_forms(original: str, normalized: str) -> None:
    assert normalize(original).text == normalized


def test_offsets_map_back_to_the_original() -> None:
    original = "Intro  text. The resid-\nual “value” was 12 %."
    norm = normalize(original)
    needle = normalize_needle('residual "value" was 12')
    position = norm.text.find(needle)
    start, end = norm.to_original(position, position + len(needle))
    assert original[start:end] == "resid-\nual “value” was 12"


def test_offsets_of_every_character_stay_in_order() -> None:
    original = "a  b-\nc — d ﬁ e…f\u00adg"
    norm = normalize(original)
    starts = [norm.to_original_start(i) for i in range(len(norm.text))]
    assert starts == sorted(starts)
    assert all(0 <= s <= len(original) for s in starts)
    assert norm.to_original_end(len(norm.text)) == len(original)


def test_needle_loses_edge_punctuation_only() -> None:
    assert normalize_needle(' "It was clear." ') == "it was clear"
    assert normalize_needle("U.S. policy, in short;") == "u.s. policy, in short"


def test_word_edges() -> None:
    assert find_word_aligned("110 percent and 10 percent", "10 percent") == 16
    assert find_word_aligned("nontoxic", "toxic") == -1
    assert find_word_aligned("non-toxic", "toxic") == -1  # nor inside a hyphenated compound
    assert find_word_aligned("non-\ntoxic", "toxic") == -1
    assert find_word_aligned("well-known", "well") == -1
    assert find_word_aligned("COVID-19 cases", "COVID") == 0  # a number after the hyphen is no compound
    assert at_word_edges("a b", 0, 1)
    assert not at_word_edges("ab", 0, 1)


def test_guarded_words_by_kind() -> None:
    words = guarded_words("On 3 May 2019 it won't and cannot, but may; one of 1,000 never did.")
    assert sorted(words.numbers.elements()) == ["1000", "2019", "3", "one"]
    assert sorted(words.dates.elements()) == ["may"]  # next to a day or a year, "May" is the month
    assert sorted(words.negations.elements()) == ["never", "not", "not"]
    assert sorted(words.modals.elements()) == ["can", "may", "will"]


@pytest.mark.parametrize(
    ("quote", "span", "kind"),
    [
        ("rose by 21 percent", "rose by 12 percent", "numbers"),
        ("rose by 1.5 percent", "rose by 15 percent", "numbers"),
        ("a -5 shift", "a 5 shift", "numbers"),
        ("two studies", "three studies", "numbers"),
        ("in June 2020", "in July 2020", "dates"),
        ("it was effective", "it was not effective", "negations"),
        ("it is effective", "it isn't effective", "negations"),
        ("this will help", "this may help", "modal verbs"),
        ("it can help", "it can't help", "negations"),
        ("twenty-two percent", "twenty-one percent", "numbers"),
        ("millions of people", "thousands of people", "numbers"),
        ("a threefold rise", "a twofold rise", "numbers"),
        ("it was ineffective", "it was effective", "negations"),  # as "[in]effective" would have it
        ("a non-toxic dose", "a toxic dose", "negations"),
        ("on 3 June 2020", "on 3 May 2020", "dates"),  # "May" next to a day or year is the month
    ],
)
def test_guard_finds_each_kind_of_change(quote: str, span: str, kind: str) -> None:
    differences = guard_differences(quote, span)
    assert differences and differences[0].startswith(kind)


def test_guard_accepts_benign_differences() -> None:
    assert guard_differences("1,000 units of-\nten", "1000 units often") == []
    assert guard_differences("The Court", "the court") == []


def test_omitted_meaning_looks_at_the_cut_clauses_only() -> None:
    assert omitted_meaning(" was not ") == ["not"]
    assert omitted_meaning(" may well ") == ["may"]
    # a whole sentence with a negation between the fragments is what an ellipsis is for
    assert omitted_meaning(" end. It was not so. And ") == []


def test_guard_widens_a_span_to_the_numbers_it_cuts() -> None:
    source = "rose by 12.5 percent, to -5 or 1,000,000"
    assert whole_numbers(source, source.index("12"), source.index(".5")) == (8, 12)
    assert whole_numbers(source, source.index("5 or"), len(source)) == (source.index("-5"), len(source))
    assert guard_match("by 12", source, 5, 10) == ["numbers differ (quote has '12'; source has '12.5')"]
