"""What each benchmark's item types mean for the likelihood: invented, a slip, or left out.

The likelihood estimates whether a reference was *invented*, not whether it has any error. Benchmarks label
otherwise: HALLMARK counts a preprint cited as published, an arXiv version's author list and a partial
author list as hallucinations, and the generated sets count a perturbed author name; those are the slips
people make, so for training they are real references (a slip is not an invention). A type whose items
mix both kinds is left out of training (and of the figures that use these labels), never guessed.

Every type of every set the training script reads is listed; an unknown type is an error, not a default.
"""

from __future__ import annotations

from enum import StrEnum


class Meaning(StrEnum):
    INVENTED = "invented"
    SLIP = "slip"  # a real reference with a human slip: a negative for the likelihood
    REAL = "real"  # a correct real reference
    EXCLUDED = "excluded"


# HALLMARK v1.0 (dev_public, stress_test): `hallucination_type`, VALID for correct entries.
HALLMARK = {
    "valid": Meaning.REAL,
    "plausible_fabrication": Meaning.INVENTED,
    "hybrid_fabrication": Meaning.INVENTED,
    "chimeric_title": Meaning.INVENTED,
    "near_miss_title": Meaning.INVENTED,  # a real title changed by a word: how models misquote
    "swapped_authors": Meaning.INVENTED,
    "placeholder_authors": Meaning.INVENTED,
    "merged_citation": Meaning.INVENTED,
    "wrong_venue": Meaning.INVENTED,  # another event's venue
    "nonexistent_venue": Meaning.INVENTED,
    "fabricated_doi": Meaning.INVENTED,
    "future_date": Meaning.INVENTED,
    "preprint_as_published": Meaning.SLIP,  # a preprint cited by the venue it went to
    "arxiv_version_mismatch": Meaning.SLIP,  # another arXiv version's fields
    "partial_author_list": Meaning.SLIP,  # authors left out, as people shorten lists
}

# `refhound bench generate`: the error put into a real record.
GENERATED = {
    "valid": Meaning.REAL,
    "title_keyword_substitution": Meaning.INVENTED,
    # A real work's title reworded, every other field the work's: what citing its earlier (preprint's) title
    # looks like, which people do; the kind models misquote by too.
    "title_paraphrase": Meaning.EXCLUDED,
    "title_topic_fabrication": Meaning.INVENTED,
    "author_addition": Meaning.INVENTED,  # a name no record has, added
    "author_list_fabrication": Meaning.INVENTED,
    "author_name_perturbation": Meaning.SLIP,  # a letter or a given name changed: a typo's kind
    "author_deletion": Meaning.EXCLUDED,  # people shorten lists, but it may drop the first author
    "venue_swap": Meaning.INVENTED,
    "year_shift": Meaning.INVENTED,
    "fabricated_doi": Meaning.INVENTED,
    "mismatched_doi": Meaning.INVENTED,
    "fabricated_arxiv_id": Meaning.INVENTED,
    "compound": Meaning.INVENTED,
}

# CiteAudit: `GT` false is a reference a model invented (the real-world split's fakes come from papers
# caught citing them, the generated split's from models), true a real one.
CITEAUDIT = {
    "valid": Meaning.REAL,
    "realworld": Meaning.INVENTED,
    "generated": Meaning.INVENTED,
}

MAPPINGS = {"hallmark": HALLMARK, "generated": GENERATED, "citeaudit": CITEAUDIT}


def meaning(benchmark: str, kind: str) -> Meaning:
    """What an item of `kind` in `benchmark` (hallmark, generated, citeaudit) means for training."""
    table = MAPPINGS[benchmark]
    if kind not in table:
        raise KeyError(f"{benchmark}: type {kind!r} has no meaning for the likelihood: add it to {__name__}")
    return table[kind]


def invented(benchmark: str, kind: str) -> bool | None:
    """True for an invented reference, False for a real one (slips included), None when left out."""
    m = meaning(benchmark, kind)
    return None if m is Meaning.EXCLUDED else m is Meaning.INVENTED
