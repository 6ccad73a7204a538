"""Title display forms, comparison keys and similarity, on titles of real papers."""

from __future__ import annotations

import pytest

from refhound.normalize.titles import (
    clean_title,
    main_title_of,
    name_before_colon,
    same_title,
    title_key,
    title_similarity,
    title_tokens,
)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (
            "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding.",
            "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
        ),
        ('"Attention Is All You Need."', "Attention Is All You Need"),
        (
            "“Why Should I Trust You?”: Explaining the Predictions of Any Classifier,",
            "“Why Should I Trust You?”: Explaining the Predictions of Any Classifier",
        ),
        ("“Language Models are Few-Shot Learners”", "Language Models are Few-Shot Learners"),
        (
            r"{\emph{Deep}} Residual Learning for Image Recognition",
            "Deep Residual Learning for Image Recognition",
        ),
        (r"{\"U}ber die Quantentheorie", "Über die Quantentheorie"),
        ("  Adam:   A Method for\nStochastic Optimization ", "Adam: A Method for Stochastic Optimization"),
        ("What Does BERT Look At?", "What Does BERT Look At?"),
    ],
)
def test_clean_title(raw: str, clean: str) -> None:
    assert clean_title(raw) == clean


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
            "Bert: pretraining of deep bidirectional transformers for language understanding.",
        ),
        ("The Effects of Regularization", "Effects of Regularization"),
        ("An Image is Worth 16x16 Words", "Image is Worth 16x16 Words"),
        (
            r"{\emph{Deep}} Residual Learning for Image Recognition",
            "Deep residual learning for image recognition",
        ),
        (r"{\"U}ber die Quantentheorie", "Uber die Quantentheorie"),
        (
            "Universal Language Model ﬁne-tuning for Text Classification",
            "Universal Language Model Fine-tuning for Text Classification",
        ),
        ("Multi-\ntask Learning Using Uncertainty", "Multi-Task Learning Using Uncertainty"),
        ("Multi- task Learning Using Uncertainty", "Multitask Learning Using Uncertainty"),
        ("Don't Stop Pretraining: Adapt Language Models", "Don’t Stop Pretraining — Adapt Language Models"),
        (
            "Sequence to Sequence Learning with Neural Networks",
            "Sequence to sequence learning with neural networks",
        ),
        ("Self- and Semi-Supervised Learning", "Self and semi-supervised learning"),
        (r"Sparse $\ell_1$-norm Recovery", "Sparse ℓ1-Norm Recovery"),
        ("Exploring the Limits of Transfer Learning", "Exploring Limits of a Transfer Learning"),
    ],
)
def test_same_title_same_key(a: str, b: str) -> None:
    assert title_key(a) == title_key(b)
    assert title_similarity(a, b) == 1.0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Attention Is All You Need", "Attention Is Not All You Need"),
        ("Deep Residual Learning for Image Recognition", "Deep Residual Learning for Image Classification"),
        ("Language Models are Few-Shot Learners", "Language Models are Unsupervised Multitask Learners"),
        (
            "Learning Transferable Visual Models From Natural Language Supervision",
            "Learning Transferable Visual Models",
        ),
        ("Generative Adversarial Nets", "Generative Adversarial Networks"),
        # Only case, punctuation, accents, articles, LaTeX and hyphenation are ignored: a medium tag stays.
        ("Deep learning [J]", "Deep learning"),
    ],
)
def test_different_titles_different_keys(a: str, b: str) -> None:
    assert title_key(a) != title_key(b)
    assert title_similarity(a, b) < 1.0
    assert not same_title(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # A hyphen written as a space, "&" for "and", British spelling: one title, though not one key.
        ("Few-shot Compositional Semantic Parsing", "Few shot compositional semantic parsing"),
        (
            "Local and Global Information Preserved Network Embedding",
            "Local & Global Information Preserved Network Embedding",
        ),
        ("Multi-Granularity Optimization for Translation", "Multi-Granularity Optimisation for Translation"),
        (
            "Analyzing the Behavior of Visual Question Answering Models",
            "Analysing the Behaviour of Visual Question Answering Models",
        ),
        ("Modeling Dialog Systems", "Modelling Dialogue Systems"),
        # A space lost at a line break, after an article or before one
        ("Modelingthe Engagement-Disengagement Cycle", "Modeling the Engagement-Disengagement Cycle"),
        ("Learning to Rank fora Search Engine", "Learning to Rank for a Search Engine"),
    ],
)
def test_one_title_written_another_way(a: str, b: str) -> None:
    assert same_title(a, b)
    assert title_similarity(a, b) == 1.0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Four Rooms", "For Rooms"),
        ("Your Hour", "Yor Hor"),
        ("Attention Is All You Need", "Attention"),
    ],
)
def test_spelling_folds_touch_only_their_endings(a: str, b: str) -> None:
    assert not same_title(a, b)


def test_key_form() -> None:
    title = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
    assert (
        title_key(title) == "bert pretraining of deep bidirectional transformers for language understanding"
    )
    assert title_tokens("The Effects of A Thing") == ["effects", "of", "thing"]
    assert title_key("") == ""


def test_similarity_is_graded_and_symmetric() -> None:
    a, b = "Attention Is All You Need", "Attention Is All You Want"
    assert 0.8 < title_similarity(a, b) < 1.0
    assert title_similarity(a, b) == title_similarity(b, a)
    assert title_similarity(a, "Graph Neural Networks: A Review of Methods") < 0.5


CONTEXTUAL = (
    "How Contextual are Contextualized Word Representations? Comparing the Geometry of BERT, ELMo, and GPT-2 "
    "Embeddings"
)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("How contextual are contextualized word representations?", CONTEXTUAL, True),
        (CONTEXTUAL, "How contextual are contextualized word representations", True),
        ("BERT: Pre-training of deep bidirectional transformers", "BERT", False),  # one word is no title
        ("Deep learning: a review", "Deep learning", False),  # nor are two
        (
            "Pre-training of deep bidirectional transformers",
            "BERT: Pre-training of deep bidirectional transformers",
            False,
        ),
        ("Attention is all you need", "Attention is all you need", False),  # no subtitle to leave out
        # A lead-in of several words left out: a site's name before its report, an article type.
        (
            "Description of the FASTUS System Used for MUC4",
            "SRI International: Description of the FASTUS System Used for MUC-4",
            True,
        ),
        (
            "Survey Article: Inter-Coder Agreement for Computational Linguistics",
            "Inter-coder agreement for computational linguistics",
            True,
        ),
        ("Attention is all you need", "Attention is not all you need: pure attention loses rank", False),
        # One word before the colon left out, where the rest names one work by its length alone.
        (
            "Unsupervised dual learning for image-to-image translation",
            "DualGAN: Unsupervised Dual Learning for Image-to-Image Translation",
            True,
        ),
        (
            "Towards a Catalogue of Linguistic Graph Banks",
            "Squibs: Towards a Catalogue of Linguistic Graph Banks",
            True,
        ),
        # A bracketed note left out, and one language of a bilingual title.
        (
            "SATNet: Symmetric adversarial transfer network",
            "SATNet: Symmetric Adversarial Transfer Network (Student Abstract)",
            True,
        ),
        (
            "Formal classification of Chinese questions",
            "中文问句的形式分类(Formal Classification of Chinese Questions)",
            True,
        ),
        ("Deep learning", "Deep learning (invited talk)", False),
    ],
)
def test_main_title_of(a: str, b: str, expected: bool) -> None:
    assert main_title_of(a, b) is expected


@pytest.mark.parametrize(
    ("cited", "found", "expected"),
    [
        ("GIAnT", "GIAnT: Visualizing Group Interaction at Large Wall Displays", True),
        ("Deep learning", "Deep learning: a critical appraisal", True),
        # The words after the colon, the whole title, or a title with no colon are no short name.
        (
            "Visualizing Group Interaction at Large Wall Displays",
            "GIAnT: Visualizing Group Interaction",
            False,
        ),
        ("GIAnT", "GIAnT", False),
        ("GIAnT", "GIAnT visualizing group interaction", False),
    ],
)
def test_name_before_colon(cited: str, found: str, expected: bool) -> None:
    assert name_before_colon(cited, found) is expected


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (r"On Implicit Regularization in \(β\)-VAEs", "On implicit regularization in beta-VAEs"),
        ("α-stable processes", "Alpha-stable processes"),
        (r"$\lambda$Opt: Learn to Regularize", "LambdaOpt: learn to regularize"),
    ],
)
def test_a_greek_letter_and_its_name_are_one_title(a: str, b: str) -> None:
    assert same_title(a, b)
    assert not same_title("Beta processes", "Gamma processes")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Three Things Everyone Should Know About Vision Transformers",
            "3 Things Everyone Should Know About Vision Transformers",
        ),
        ("One-Shot Learning of Object Categories", "1-shot learning of object categories"),
    ],
)
def test_a_number_in_words_or_in_digits_is_one_title(a: str, b: str) -> None:
    assert same_title(a, b)
    assert not same_title("Three Things Everyone Should Know", "Four Things Everyone Should Know")
