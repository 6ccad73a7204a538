"""One venue name written with acronyms of the other's words."""

from __future__ import annotations

import pytest

from refhound.normalize.venue_acronyms import acronym_of

_NOISY_TEXT = "Proceedings of the 3rd Workshop on Noisy User-generated Text"
_REPRESENTATION = "Proceedings of the 4th Workshop on Representation Learning for NLP (RepL4NLP-2019)"


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("NUT@EMNLP", _NOISY_TEXT),  # dblp's workshop@host form; the host is not in the other name
        ("RepL4NLP@ACL", _REPRESENTATION),  # "4" for "for"; the record's own acronym in parentheses
        ("ArgMining@EMNLP", "Proceedings of the 4th Workshop on Argument Mining"),
        (
            "Proceedings of the 2nd Workshop on NLP for ConvAI",
            "Proceedings of the 2nd Workshop on Natural Language Processing for Conversational AI",
        ),
        ("ICML", "International Conference on Machine Learning"),  # "on" inside the acronym's run
        ("CoNLL", "Proceedings of the 22nd Conference on Computational Natural Language Learning"),
    ],
)
def test_acronyms_of_the_other_names_words(short: str, long: str) -> None:
    assert acronym_of(short, long)
    assert acronym_of(long, short)


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("NUT@EMNLP", "Proceedings of the Workshop on Noisy Text and Translation"),  # "Translation" unread
        ("Rep4NLP@ACL", _REPRESENTATION),  # "Learning" has no letter in the acronym
        ("NLP", "Workshop on Natural Language Processing for Code"),  # a naming word left over
        ("Workshop on NLP for Code", "Workshop on Natural Language Processing for Conversational AI"),
        ("CoNLL", "Proceedings of the 22nd Conference on Computational Linguistics"),
        ("Workshop@ACL", "Proceedings of the Workshop on Anything"),  # nothing but generic words
        ("WMT", "Proceedings of the Second Conference on Machine Translation"),  # W: its old name
        (_NOISY_TEXT, _NOISY_TEXT),  # the same words, no acronym: for the string similarity to say
    ],
)
def test_names_the_acronym_does_not_account_for(short: str, long: str) -> None:
    assert not acronym_of(short, long)


def test_a_string_too_long_for_a_venue_name_is_answered_at_once() -> None:
    # The search recurses once per word: a pasted paragraph must not exhaust the stack.
    assert not acronym_of("NUT@EMNLP", "Workshop on Noisy User-generated Text " * 2000)
