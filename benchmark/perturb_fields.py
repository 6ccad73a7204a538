"""Author and metadata errors of the CiteAudit taxonomy.

Authors: one added, one dropped, one name perturbed, or the whole list fabricated — names drawn from real
authors of other records, so a fake name looks like a real one. Metadata: the venue swapped to a related one,
the year shifted, a DOI fabricated or borrowed from another work, an arXiv id fabricated.

As for titles (`perturb_title`), every function returns None when the record does not lend itself to the
error, and never returns a change the DESIGN counts as benign: a name the rules take for the same person
(initials, accents), a conference paper cited as its journal version, or a year off by one where a preprint
is involved.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from refhound.benchmark.perturb_title import Perturbed
from refhound.benchmark.sample import Cited, IndexSampler, Pools
from refhound.normalize.identifiers import normalize_doi
from refhound.normalize.names import NameMatch, names_match, parse_name
from refhound.normalize.venues import VenueKind, parse_venue

_ATTEMPTS = 30
_VOWELS = "aeiou"

# Venue series and the series a hallucinated citation plausibly confuses them with, by canonical name.
VENUE_NAMES = {
    "acl": "Proceedings of the Annual Meeting of the Association for Computational Linguistics",
    "emnlp": "Proceedings of the Conference on Empirical Methods in Natural Language Processing",
    "naacl": "Proceedings of the Conference of the North American Chapter of the Association for "
    "Computational Linguistics",
    "eacl": "Proceedings of the Conference of the European Chapter of the Association for Computational "
    "Linguistics",
    "coling": "Proceedings of the International Conference on Computational Linguistics",
    "conll": "Proceedings of the Conference on Computational Natural Language Learning",
    "lrec": "Proceedings of the International Conference on Language Resources and Evaluation",
    "neurips": "Advances in Neural Information Processing Systems",
    "icml": "Proceedings of the International Conference on Machine Learning",
    "iclr": "International Conference on Learning Representations",
    "aistats": "Proceedings of the International Conference on Artificial Intelligence and Statistics",
    "uai": "Proceedings of the Conference on Uncertainty in Artificial Intelligence",
    "cvpr": "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition",
    "iccv": "Proceedings of the IEEE International Conference on Computer Vision",
    "eccv": "Proceedings of the European Conference on Computer Vision",
    "aaai": "Proceedings of the AAAI Conference on Artificial Intelligence",
    "ijcai": "Proceedings of the International Joint Conference on Artificial Intelligence",
    "kdd": "Proceedings of the ACM SIGKDD Conference on Knowledge Discovery and Data Mining",
    "sigir": "Proceedings of the International ACM SIGIR Conference on Research and Development in "
    "Information Retrieval",
    "cikm": "Proceedings of the ACM International Conference on Information and Knowledge Management",
    "www": "Proceedings of the Web Conference",
    "wsdm": "Proceedings of the ACM International Conference on Web Search and Data Mining",
    "icassp": "Proceedings of the IEEE International Conference on Acoustics, Speech and Signal Processing, "
    "ICASSP",
    "interspeech": "Proceedings of Interspeech",
}
RELATED_VENUES = (
    ("acl", "emnlp", "naacl", "eacl", "coling", "conll", "lrec"),
    ("neurips", "icml", "iclr", "aistats", "uai"),
    ("cvpr", "iccv", "eccv"),
    ("aaai", "ijcai"),
    ("kdd", "sigir", "cikm", "www", "wsdm"),
    ("icassp", "interspeech"),
)
_RELATED = {key: [k for k in group if k != key] for group in RELATED_VENUES for key in group}
# Publishers' DOI prefixes by venue, for DOIs fabricated where the record has none.
_DOI_FORMS = {
    **dict.fromkeys(
        ("acl", "emnlp", "naacl", "eacl", "coling", "conll"), "10.18653/v1/{year}.{key}-main.{n3}"
    ),
    **dict.fromkeys(("cvpr", "iccv", "icassp"), "10.1109/{KEY}.{year}.{n5}"),
    **dict.fromkeys(("kdd", "sigir", "cikm", "www", "wsdm"), "10.1145/{n7}.{n7b}"),
    "aaai": "10.1609/aaai.v{n2}i{n1}.{n5}",
    "ijcai": "10.24963/ijcai.{year}/{n3}",
}
_DOI_FALLBACK = "10.{n4}/{n7}"


def _unlike(name: str, others: tuple[str, ...] | list[str]) -> bool:
    return all(names_match(name, other) is NameMatch.NONE for other in others)


def _pool_name(rng: random.Random, pools: Pools, avoid: tuple[str, ...] | list[str]) -> str | None:
    for _ in range(_ATTEMPTS):
        name: str = rng.choice(pools.names)
        if _unlike(name, avoid):
            return name
    return None


def author_addition(c: Cited, rng: random.Random, pools: Pools) -> Perturbed | None:
    """A real author of another work inserted at a random place."""
    name = _pool_name(rng, pools, c.authors)
    if name is None:
        return None
    at = rng.randint(0, len(c.authors))
    authors = (*c.authors[:at], name, *c.authors[at:])
    return Perturbed(c.but(authors=authors), f"author {name!r} added at position {at + 1}")


def author_deletion(c: Cited, rng: random.Random, pools: Pools) -> Perturbed | None:
    """One author dropped (without "et al."), from a list of two or more."""
    if len(c.authors) < 2:
        return None
    at = rng.randrange(len(c.authors))
    authors = c.authors[:at] + c.authors[at + 1 :]
    return Perturbed(c.but(authors=authors), f"author {c.authors[at]!r} dropped")


def _misspelled(family: str, rng: random.Random) -> str | None:
    """The family name with one letter changed: a vowel swapped or two inner letters transposed."""
    inner = [i for i in range(1, len(family) - 1) if family[i].isalpha()]
    if len(family) < 4 or not inner:
        return None
    i = rng.choice(inner)
    if family[i].lower() in _VOWELS:
        return family[:i] + rng.choice([v for v in _VOWELS if v != family[i].lower()]) + family[i + 1 :]
    if i + 1 < len(family) and family[i + 1].isalpha() and family[i + 1] != family[i]:
        return family[:i] + family[i + 1] + family[i] + family[i + 2 :]
    return None


def author_name_perturbation(c: Cited, rng: random.Random, pools: Pools) -> Perturbed | None:
    """One author's name changed so it names someone else: the family name misspelled, or the given name
    replaced by another with a different initial."""
    at = rng.randrange(len(c.authors))
    old = c.authors[at]
    person = parse_name(old)
    if not person.family or not person.given:
        return None
    new = None
    if rng.random() < 0.5:
        family = _misspelled(person.family, rng)
        if family:
            new = (
                old[: old.rfind(person.family)]
                + family
                + old[old.rfind(person.family) + len(person.family) :]
            )
    else:
        given = rng.choice(pools.given_names) if pools.given_names else None
        if given and given[0].lower() != person.given[0].lower():
            new = old.replace(person.given.split()[0], given, 1)
    others = [a for i, a in enumerate(c.authors) if i != at]
    if new is None or new == old or names_match(new, old) is not NameMatch.NONE or not _unlike(new, others):
        return None
    authors = (*c.authors[:at], new, *c.authors[at + 1 :])
    return Perturbed(c.but(authors=authors), f"author {old!r} cited as {new!r}")


def author_list_fabrication(c: Cited, rng: random.Random, pools: Pools) -> Perturbed | None:
    """Every author replaced by real authors of other works (as many as the record has)."""
    names: list[str] = []
    for _ in range(len(c.authors)):
        name = _pool_name(rng, pools, [*c.authors, *names])
        if name is None:
            return None
        names.append(name)
    return Perturbed(c.but(authors=tuple(names)), "author list replaced by other people")


def venue_swap(c: Cited, rng: random.Random, venue_key: str | None) -> Perturbed | None:
    """The venue replaced by a related series of the same kind (EMNLP for ACL, ICML for NeurIPS, …)."""
    if venue_key not in _RELATED or c.venue is None or parse_venue(c.venue).kind is not VenueKind.CONFERENCE:
        return None
    other = rng.choice(_RELATED[venue_key])
    return Perturbed(
        c.but(venue=VENUE_NAMES[other], entry_type="inproceedings"), f"venue {venue_key} -> {other}"
    )


def year_shift(c: Cited, rng: random.Random, this_year: int) -> Perturbed | None:
    """The year moved by 1 to 3 (never into the future, never by one where a preprint is involved); a
    year the venue's name repeats ("ICML 2019") is moved with it, as a hallucinated citation would be."""
    if c.year is None:
        return None
    preprint = c.arxiv_id is not None or (
        c.venue is not None and parse_venue(c.venue).kind is VenueKind.PREPRINT
    )
    shifts = [d for d in (-3, -2, -1, 1, 2, 3) if c.year + d <= this_year and not (preprint and abs(d) == 1)]
    year = c.year + rng.choice(shifts)
    venue = re.sub(rf"\b{c.year}\b", str(year), c.venue) if c.venue else None
    return Perturbed(c.but(year=year, venue=venue), f"year {c.year} -> {year}")


def _digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(10 ** (n - 1), 10**n - 1))


def fabricated_doi(
    c: Cited, rng: random.Random, venue_key: str | None, sampler: IndexSampler
) -> Perturbed | None:
    """A DOI no indexed work carries: the record's own with its trailing digits changed, or (when it has
    none, or its DOI does not end in digits) one in the publisher's form for the venue."""
    for _ in range(_ATTEMPTS):
        if c.doi and re.search(r"\d+$", c.doi):
            tail = re.search(r"\d+$", c.doi)
            assert tail is not None
            number = _digits(rng, len(tail.group(0))) if len(tail.group(0)) > 1 else str(rng.randint(0, 9))
            doi = c.doi[: tail.start()] + number
        else:
            form = _DOI_FORMS.get(venue_key or "", _DOI_FALLBACK)
            numbers = {f"n{k}": _digits(rng, k) for k in (1, 2, 3, 4, 5, 7)} | {"n7b": _digits(rng, 7)}
            doi = form.format(year=c.year, key=venue_key, KEY=(venue_key or "").upper(), **numbers)
        if normalize_doi(doi) != normalize_doi(c.doi or "") and not sampler.store.by_doi(
            normalize_doi(doi) or doi
        ):
            return Perturbed(c.but(doi=doi), f"DOI {c.doi or 'none'} -> fabricated {doi}")
    return None


def mismatched_doi(c: Cited, rng: random.Random, pools: Pools) -> Perturbed | None:
    """The DOI of another real work."""
    for _ in range(_ATTEMPTS):
        doi = rng.choice(pools.dois) if pools.dois else None
        if doi and normalize_doi(doi) != normalize_doi(c.doi or ""):
            return Perturbed(c.but(doi=doi), f"DOI {c.doi or 'none'} -> {doi} (another work's)")
    return None


def fabricated_arxiv_id(c: Cited, rng: random.Random, sampler: IndexSampler) -> Perturbed | None:
    """An arXiv id of the record's year that no indexed work carries (records from 2008 on, without one)."""
    if c.year is None or c.year < 2008 or c.arxiv_id:
        return None
    digits = 5 if c.year >= 2015 else 4
    for _ in range(_ATTEMPTS):
        arxiv = f"{c.year % 100:02d}{rng.randint(1, 12):02d}.{_digits(rng, digits)}"
        if not sampler.store.by_arxiv_id(arxiv):
            return Perturbed(c.but(arxiv_id=arxiv), f"arXiv id {arxiv} fabricated")
    return None


_AUTHOR_ERRORS: dict[str, Callable[[Cited, random.Random, Pools], Perturbed | None]] = {
    "author_addition": author_addition,
    "author_deletion": author_deletion,
    "author_name_perturbation": author_name_perturbation,
    "author_list_fabrication": author_list_fabrication,
}
AUTHOR_ERRORS = tuple(_AUTHOR_ERRORS)
METADATA_ERRORS = ("venue_swap", "year_shift", "fabricated_doi", "mismatched_doi", "fabricated_arxiv_id")


def field_error(
    kind: str, c: Cited, rng: random.Random, pools: Pools, venue_key: str | None, sampler: IndexSampler
) -> Perturbed | None:
    """Apply the author or metadata error `kind` (one of `AUTHOR_ERRORS` or `METADATA_ERRORS`)."""
    if kind in _AUTHOR_ERRORS:
        return _AUTHOR_ERRORS[kind](c, rng, pools)
    if kind == "venue_swap":
        return venue_swap(c, rng, venue_key)
    if kind == "year_shift":
        return year_shift(c, rng, sampler.this_year)
    if kind == "fabricated_doi":
        return fabricated_doi(c, rng, venue_key, sampler)
    if kind == "mismatched_doi":
        return mismatched_doi(c, rng, pools)
    if kind == "fabricated_arxiv_id":
        return fabricated_arxiv_id(c, rng, sampler)
    raise ValueError(f"unknown error {kind!r}")
