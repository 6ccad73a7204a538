"""LaTeX decoding and folding on strings taken from real BibTeX entries."""

from __future__ import annotations

import pytest

from refhound.normalize.text import (
    collapse_whitespace,
    decode_latex_letters,
    fold,
    latex_to_unicode,
    reattach_accents,
    strip_accents,
)


@pytest.mark.parametrize(
    ("latex", "unicode"),
    [
        (r"{\"U}ber die Quantentheorie", "Über die Quantentheorie"),
        (r"J{\"u}rgen Schmidhuber", "Jürgen Schmidhuber"),
        (r"Stockholmsm{\"{a}}ssan, Stockholm", "Stockholmsmässan, Stockholm"),
        (r"Qu{\'{e}}bec City", "Québec City"),
        (r"Fran{\c{c}}ois Chollet", "François Chollet"),
        (r"{\L}ukasz Kaiser", "Łukasz Kaiser"),
        (r"Bernhard Sch{\"o}lkopf", "Bernhard Schölkopf"),
        (r"\emph{Deep} Residual Learning", "Deep Residual Learning"),
        (r"\textbf{\emph{Nested}} formatting", "Nested formatting"),
        (
            r"Research {\&} Development in Information Retrieval",
            "Research & Development in Information Retrieval",
        ),
        (r"R\&D at 100\% of \$5", "R&D at 100% of $5"),
        (r"{DeepFace}: Closing the Gap", "DeepFace: Closing the Gap"),
        (r"Sparse $\ell_1$-norm Recovery", "Sparse ℓ1-norm Recovery"),
        (r"Tight Bounds for $\alpha$-Divergences", "Tight Bounds for α-Divergences"),
        (r"$\lambda$Opt: Learn to Regularize", "λOpt: Learn to Regularize"),  # a word right after the math
        # operators by name, apart from their argument
        (r"Sequence Processing in $O(n \log n)$ Time", "Sequence Processing in O(n log n) Time"),
        (r"$\exp(x)$ and $\max$-pooling", "exp(x) and max-pooling"),
        (
            r"{\mathcal{P}^2}: A Plan-and-Pretrain Approach",
            "P2: A Plan-and-Pretrain Approach",
        ),  # math outside $
        ("pages 1--5", "pages 1–5"),
        # BibDesk's exports: math and text forms of one letter, the text form read
        (r"K{\ifmmode\ddot{o}\else\"{o}\fi}the, Ullrich", "Köthe, Ullrich"),
        ("Francesco d&apos;Amore", "Francesco d'Amore"),
        # an accent left with nothing to mark (an export that lost the letter): no backslash in the name
        (r"Morgado da Costa, Lu{\'}s", "Morgado da Costa, Lus"),
        (r"Lu\'{}s", "Lus"),
        ("Multi-\ntask   learning", "Multi- task learning"),
    ],
)
def test_latex_to_unicode(latex: str, unicode: str) -> None:
    assert latex_to_unicode(latex) == unicode


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Marek Eliáš", "marek elias"),
        ("Ulrich Aïvodji", "ulrich aivodji"),
        ("ﬁne-tuning", "fine-tuning"),
        ("Matthias Nießner", "matthias niessner"),
        ("İsmail İlkan Ceylan", "ismail ilkan ceylan"),
        ("Kalle Åström", "kalle astrom"),
    ],
)
def test_fold(text: str, folded: str) -> None:
    assert fold(text) == folded


def test_strip_accents_keeps_case() -> None:
    assert strip_accents("Hervé Jégou") == "Herve Jegou"


def test_collapse_whitespace() -> None:
    assert collapse_whitespace("  a \n\t b  ") == "a b"


@pytest.mark.parametrize(
    ("text", "decoded"),
    [
        (r"Aidan N. Gomez, {\L}ukasz Kaiser", "Aidan N. Gomez, Łukasz Kaiser"),
        (r"Rob van der Goot and {\"O}zlem {\c{C}}etino{\u{g}}lu", "Rob van der Goot and Özlem Çetinoğlu"),
        (r"Bernhard Sch\"olkopf", "Bernhard Schölkopf"),
        ("http://www.cs.toronto.edu/~hinton/ {BERT} 1--5", "http://www.cs.toronto.edu/~hinton/ {BERT} 1--5"),
        # a braced letter that is a command's argument stays for latex_to_unicode to read
        (r"Guo, Q. et al. {\mathcal{P}^2}: A Plan", r"Guo, Q. et al. {\mathcal{P}^2}: A Plan"),
    ],
)
def test_decode_latex_letters_leaves_other_markup(text: str, decoded: str) -> None:
    assert decode_latex_letters(text) == decoded


@pytest.mark.parametrize(
    ("text", "joined"),
    [
        ("Bernhard Sch ̈olkopf", "Bernhard Schölkopf"),  # a combining mark after a space, before its letter
        ("Tereza Vojtˇechov ́a, Ondˇrej Bojar", "Tereza Vojtěchová, Ondřej Bojar"),  # spacing marks
        ("C ̧ aglar G ̈ulc ̧ehre", "Çaglar Gülçehre"),  # a mark below follows its letter
        ("Vasile P ̆ais ̦. Ioana T ̦urcan", "Vasile Păiș. Ioana Țurcan"),  # Romanian's comma below
        ("G ̈unes ̧ Erkan, Ionut ̦ Hulub", "Güneş Erkan, Ionuț Hulub"),  # a word's end before a capital
        ("Özlem Çetino ̆glu", "Özlem Çetinoğlu"),
        # a mark below one letter late, where the letter before takes it and the one it follows does not
        ("Jean-Franco\u0327is Laslier, Ayca\u0327 Kara", "Jean-François Laslier, Ayça Kara"),
        ("Mi\u0327ro", "Miro"),  # a mark below that neither letter takes is dropped
        ("Tuğc\u0229 Köroğlu", "Tuğçe Köroğlu"),  # the late cedilla composed with its vowel
        (
            "Cafe\u0301 nai\u0308ve",
            "Cafe\u0301 nai\u0308ve",
        ),  # decomposed text keeps its marks where they are
    ],
)
def test_reattach_accents(text: str, joined: str) -> None:
    assert reattach_accents(text) == joined
