import re
from importlib import resources

import pytest

from refhound.normalize import venues
from refhound.normalize.regex_start import read_start


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\bfoo|^bar", {"f", "b"}),
        (r"(?:american )?(?:journal (?:of )?)?comput", {"a", "j", "c"}),
        (r"\bnat(?:ure)?", {"n"}),
        (r"[a-c]x", {"a", "b", "c"}),
        (r"(?P<r0>x+y)", {"x"}),
        # What the reading does not follow may start anywhere.
        (r"\w+x", None),
        (r"[^a]x", None),
        (r"(?=a)b", None),
        (r"x*", None),
        (r"(?:a|)b", None),
        (r"(?i)abc", None),
        (r"(?i:a)bc", None),
    ],
)
def test_first_characters(pattern: str, expected: set[str] | None) -> None:
    assert read_start(pattern).characters == (None if expected is None else frozenset(expected))


@pytest.mark.parametrize(
    ("pattern", "literal"),
    [
        (r"\bfindings (?:of )?x", "findings "),
        (r"^nature(?: [|#])*$", "nature"),
        (r"ab?c", "a"),  # the optional letter ends what is certain
        (r"ab\bcd", "ab"),
        (r"\bfoo|^bar", ""),  # alternatives: no text common to every match is read
        (r"(?:a|b)c", ""),
        (r"x*y", ""),
        (r"(?i)abc", ""),
    ],
)
def test_literal_start(pattern: str, literal: str) -> None:
    assert read_start(pattern).literal == literal


def test_capturing_groups_are_counted_and_bad_patterns_refused() -> None:
    assert read_start(r"(?P<r0>a(b)|(?:c))").groups == 2
    assert read_start(r"(?:a)b").groups == 0
    with pytest.raises(re.error):
        read_start("(")


def _whole_table() -> re.Pattern[str]:
    """The venue table as one alternation, which the table tried row by row must agree with."""
    alternatives: list[str] = []
    text = resources.files("refhound.normalize").joinpath("data/venues.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        _, _, pattern = line.split("\t")
        for macro, expansion in venues._MACROS.items():
            pattern = pattern.replace(macro, expansion)
        alternatives.append(f"(?P<r{len(alternatives)}>{pattern})")
    return re.compile("|".join(alternatives))


VENUES = [
    "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics",
    "In WWW",
    "Findings of the Association for Computational Linguistics: EMNLP 2023",
    "EMNLP (Findings)",
    "arXiv preprint arXiv:1810.04805",
    "Advances in Neural Information Processing Systems 33",
    "Trans. Assoc. Comput. Linguistics",
    "Nature Machine Intelligence",
    "Proc. of the 2019 Conf. of the North American Chapter of the ACL: Human Language Technologies",
    "CVPR Workshops",
    "Journal of Machine Learning Research",
    "ICLR 2021 (under review)",
    "Companion Proceedings of the Web Conference 2021",
    "IEEE Transactions on Pattern Analysis and Machine Intelligence",
    "SemEval@NAACL-HLT",
    "",
    "| # |",
]


@pytest.mark.parametrize("venue", VENUES)
def test_the_table_finds_what_the_whole_alternation_finds(venue: str) -> None:
    whole = _whole_table()
    text = venues._normalize(venues._display(venue))
    for position in [0, *(i + 1 for i, char in enumerate(text) if char == " ")]:
        ours, theirs = venues._TABLE.match(text, position), whole.match(text, position)
        assert (ours and (f"r{ours[0]}", ours[1].span())) == (theirs and (theirs.lastgroup, theirs.span()))
