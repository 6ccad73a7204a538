"""The perturbation generator: determinism, the exact mix, the discard rule, styles and each error type."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from refhound.benchmark import generate as generate_module
from refhound.benchmark.generate import (
    FAMILIES,
    GenerateOptions,
    apportion,
    generate_file,
    parse_mix,
    parse_styles,
    plan,
)
from refhound.benchmark.loaders import load_hallmark
from refhound.benchmark.perturb_fields import VENUE_NAMES, author_deletion, venue_swap, year_shift
from refhound.benchmark.perturb_title import Perturbed, TitleVocabulary, paraphrase, topic_fabrication
from refhound.benchmark.runner import parsed_from_fields
from refhound.benchmark.sample import Cited, IndexSampler, Pools
from refhound.benchmark.styles import ALL_STYLES, STYLES, cited_venue, render, sentence_case, shown_authors
from refhound.index.store import IndexStore
from refhound.normalize.names import NameMatch, names_match
from refhound.normalize.titles import title_key
from refhound.normalize.venues import parse_venue
from refhound.refstring import parse_reference_string


def _generate(index: Path, out: Path, **options: object) -> tuple[list[dict[str, object]], str]:
    settings = {"n": 120, "seed": 3, "fakes": 60} | options
    with IndexStore.open(index) as store:
        summary = generate_file(store, GenerateOptions(**settings), out)  # type: ignore[arg-type]
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()], summary


def test_the_same_seed_writes_the_same_file_and_another_seed_does_not(
    synthetic_index: Path, tmp_path: Path
) -> None:
    _generate(synthetic_index, tmp_path / "a.jsonl")
    _generate(synthetic_index, tmp_path / "b.jsonl")
    _generate(synthetic_index, tmp_path / "c.jsonl", seed=4)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert (tmp_path / "a.jsonl").read_bytes() != (tmp_path / "c.jsonl").read_bytes()


def test_the_mix_is_exact(synthetic_index: Path, tmp_path: Path) -> None:
    items, summary = _generate(synthetic_index, tmp_path / "gen.jsonl", n=150, fakes=100, compound=0.2)
    labels = Counter(i["label"] for i in items)
    families = Counter(i["error_family"] for i in items if i["label"] == "HALLUCINATED")
    assert labels == {"VALID": 50, "HALLUCINATED": 100}
    assert families == {"title": 40, "author": 40, "metadata": 20}  # 2:2:1
    assert sum(i["hallucination_type"] == "compound" for i in items) == 20
    for item in items:
        if item["label"] == "VALID":
            assert item["hallucination_type"] is None and item["components"] == []
        else:
            kinds = item["components"]
            assert isinstance(kinds, list) and kinds[0] in FAMILIES[str(item["error_family"])]
            assert len(kinds) == (2 if item["hallucination_type"] == "compound" else 1)
    assert "100 hallucinated (author 40, metadata 20, title 40)" in summary


def test_plan_and_apportion() -> None:
    assert apportion(2500, parse_mix("2:2:1")) == {"title": 1000, "author": 1000, "metadata": 500}
    assert apportion(7, {"a": 1 / 3, "b": 1 / 3, "c": 1 / 3}) == {"a": 3, "b": 2, "c": 2}
    assert parse_mix("title=1,author=1") == {"title": 0.5, "author": 0.5, "metadata": 0.0}
    slots = plan(GenerateOptions(n=5000, seed=1, fakes=2500, compound=0.1), random.Random(1))
    kinds = Counter(s.kind for s in slots if s.family == "author" and not s.compound)
    assert kinds == dict.fromkeys(FAMILIES["author"], 225)
    with pytest.raises(ValueError, match="three weights"):
        parse_mix("1:1")


def test_items_are_hallmark_compatible_and_their_strings_parse(synthetic_index: Path, tmp_path: Path) -> None:
    items, _ = _generate(synthetic_index, tmp_path / "gen.jsonl")
    bench = load_hallmark(tmp_path / "gen.jsonl")
    assert len(bench.items) == len(items) and all(i.raw for i in bench.items)
    assert {str(i["style"]) for i in items} == set(STYLES)
    for item in bench.items:
        fields = parsed_from_fields(item)
        parsed = parse_reference_string(item.raw or "")
        assert title_key(parsed.title or "") == title_key(fields.title or ""), item.raw
        assert parsed.year == fields.year, item.raw


def test_a_fake_equal_to_a_real_record_is_discarded_and_counted(
    synthetic_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_error = generate_module._Generator._error
    calls = Counter[str]()

    def no_change_at_first(self: object, kind: str, c: Cited, record: object) -> Perturbed | None:
        calls["n"] += 1
        if calls["n"] <= 5:  # the first five "errors" change nothing: the citation is the real record
            return Perturbed(c, "nothing changed")
        return real_error(self, kind, c, record)  # type: ignore[arg-type]

    monkeypatch.setattr(generate_module._Generator, "_error", no_change_at_first)
    items, summary = _generate(synthetic_index, tmp_path / "gen.jsonl", compound=0.0)
    assert "5 fakes discarded as equal to a real record" in summary
    assert all(i["perturbation"] != "nothing changed" for i in items)


def test_real_twin_is_equality_after_normalization(synthetic_index: Path) -> None:
    with IndexStore.open(synthetic_index) as store:
        sampler = IndexSampler(store, 1)
        record = next(sampler.walk(random.Random(1)))
        c = record.cited
        assert sampler.real_twin(c) == record.ref
        assert sampler.real_twin(c.but(title=c.title.upper() + ".")) == record.ref  # same title key
        assert sampler.real_twin(c.but(year=(c.year or 0) - 2)) is None
        assert sampler.real_twin(c.but(authors=(*c.authors, "Zoe Nobody"))) is None
        assert sampler.real_twin(c.but(doi="10.9999/none")) is None
        sampler.close()


BERT = Cited(
    title="BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
    authors=("Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"),
    venue="Proceedings of NAACL-HLT",
    year=2019,
    doi="10.18653/v1/N19-1423",
)


def test_styles_render_the_same_fields() -> None:
    c = BERT
    assert render(c, "acl").startswith(
        "Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT:"
    )
    assert render(c, "ieee").startswith(
        'J. Devlin, M.-W. Chang, K. Lee, and K. Toutanova, "BERT: Pre-training'
    )
    assert render(c, "ieee").endswith("2019, doi: 10.18653/v1/N19-1423.")
    assert render(c, "apa").startswith(
        "Devlin, J., Chang, M.-W., Lee, K., & Toutanova, K. (2019). BERT: Pre-training of deep"
    )
    assert render(c, "springer").startswith("Devlin, J., Chang, M.-W., Lee, K., Toutanova, K.: BERT:")
    assert "In: Proceedings of NAACL-HLT (2019). https://doi.org/10.18653/v1/N19-1423" in render(
        c, "springer"
    )
    for style in STYLES:
        parsed = parse_reference_string(render(c, style))
        assert (title_key(parsed.title or ""), parsed.year, parsed.doi) == (
            title_key(c.title),
            2019,
            "10.18653/v1/n19-1423",
        )
        assert all(
            names_match(a, b) is not NameMatch.NONE for a, b in zip(parsed.authors, c.authors, strict=True)
        )
    assert shown_authors("ieee", 7) == 1 and shown_authors("acl", 30) == 30
    assert (
        sentence_case("Deep Residual Learning: An Approach for GloVe")
        == "Deep residual learning: An approach for GloVe"
    )
    long_venue = (
        "Proceedings of the 36th International Conference on Machine Learning, ICML 2019, 9-15 June 2019, USA"
    )
    assert (
        cited_venue(long_venue)
        == "Proceedings of the 36th International Conference on Machine Learning, ICML 2019"
    )


def test_the_styles_on_request_render_the_same_fields() -> None:
    c = BERT
    assert render(c, "vancouver") == (
        "Devlin J, Chang MW, Lee K, Toutanova K. BERT: Pre-training of Deep Bidirectional Transformers for "
        "Language Understanding. In: Proceedings of NAACL-HLT; 2019. doi:10.18653/v1/N19-1423"
    )
    assert render(c, "chicago").startswith(
        "Devlin, Jacob, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. “BERT: Pre-training"
    )
    assert render(c, "mla").startswith("Devlin, Jacob, et al. “BERT: Pre-training")
    assert render(c, "mla").endswith("Proceedings of NAACL-HLT, 2019, https://doi.org/10.18653/v1/N19-1423.")
    assert render(c, "nature").startswith(
        "Devlin, J., Chang, M.-W., Lee, K. & Toutanova, K. BERT: Pre-training"
    )
    assert render(c.but(authors=("Wen-tau Yih",)), "vancouver").startswith("Yih WT. BERT")
    for style in ALL_STYLES[len(STYLES) :]:
        parsed = parse_reference_string(render(c, style))
        assert (title_key(parsed.title or ""), parsed.year) == (title_key(c.title), 2019), style
    assert [shown_authors(style, 7) for style in ("vancouver", "chicago", "mla", "nature")] == [6, 7, 1, 1]
    assert parse_styles("mla, acl,mla") == ("mla", "acl")
    with pytest.raises(ValueError, match="choose from"):
        parse_styles("harvard")


def test_field_errors_are_material() -> None:
    rng = random.Random(2)
    c = Cited(title="T", authors=("Ann Lee", "Bo Chen"), venue="Proceedings of ICML 2019", year=2019)
    assert all(parse_venue(name).key == key for key, name in VENUE_NAMES.items())
    swapped = venue_swap(c, rng, "icml")
    assert swapped is not None and parse_venue(swapped.cited.venue).key in {
        "neurips",
        "iclr",
        "aistats",
        "uai",
    }
    for _ in range(20):
        shifted = year_shift(c, rng, this_year=2020)
        assert shifted is not None and shifted.cited.year != 2019 and (shifted.cited.year or 0) <= 2020
        assert (
            shifted.cited.venue == f"Proceedings of ICML {shifted.cited.year}"
        )  # the venue's year moves too
        preprint = year_shift(c.but(arxiv_id="1901.00001"), rng, this_year=2020)
        assert preprint is not None and abs((preprint.cited.year or 0) - 2019) >= 2  # ±1 would be benign
    dropped = author_deletion(c, rng, Pools())
    assert dropped is not None and len(dropped.cited.authors) == 1
    assert author_deletion(c.but(authors=("Ann Lee",)), rng, Pools()) is None


def test_every_error_type_appears_and_changes_the_citation(synthetic_index: Path, tmp_path: Path) -> None:
    items, _ = _generate(synthetic_index, tmp_path / "gen.jsonl", n=200, fakes=200, compound=0.0)
    kinds = Counter(str(i["hallucination_type"]) for i in items)
    assert set(kinds) == {k for family in FAMILIES.values() for k in family}
    for item in items:
        assert item["perturbation"] and item["source_record"]
        if item["hallucination_type"] in FAMILIES["author"]:
            style, fields = str(item["style"]), item["fields"]
            assert isinstance(fields, dict)
            n = len(str(fields["author"]).split(" and "))
            assert shown_authors(style, n) == n  # an author error is never hidden behind "et al."


def _sources(index: Path) -> dict[str, Cited]:
    """Every record of the index, cited as the generator cites a real record, by `source:id`."""
    with IndexStore.open(index) as store:
        sampler = IndexSampler(store, 1)
        records = {r.ref: generate_module._Generator._as_cited(r) for r in sampler.walk(random.Random(1))}
        sampler.close()
    return records


def test_each_error_changes_what_its_type_names_and_nothing_else(
    synthetic_index: Path, tmp_path: Path
) -> None:
    items, _ = _generate(synthetic_index, tmp_path / "gen.jsonl", n=300, fakes=240, compound=0.0)
    sources = _sources(synthetic_index)
    dois = {c.doi for c in sources.values() if c.doi}
    seen = set()
    for item in items:
        kind, fields = item["hallucination_type"], item["fields"]
        assert isinstance(fields, dict)
        before = generate_module.bibtex_fields(sources[str(item["source_record"])])
        changed = {k for k in before.keys() | fields.keys() if before.get(k) != fields.get(k)}
        old, new = before["author"].split(" and "), fields["author"].split(" and ")
        expected: set[str] = {
            None: set(),
            "title_keyword_substitution": {"title"},
            "title_paraphrase": {"title"},
            "title_topic_fabrication": {"title"},
            "author_addition": {"author"},
            "author_deletion": {"author"},
            "author_name_perturbation": {"author"},
            "author_list_fabrication": {"author"},
            "venue_swap": {"booktitle"},
            "fabricated_doi": {"doi"},
            "mismatched_doi": {"doi"},
        }.get(kind, changed)  # type: ignore[call-overload]
        assert changed == expected, (kind, before, fields)
        seen.add(kind)
        if kind in FAMILIES["title"]:
            assert title_key(fields["title"]) != title_key(before["title"])
        elif kind == "author_addition":
            assert len(new) == len(old) + 1 and all(a in new for a in old)
        elif kind == "author_deletion":
            assert len(new) == len(old) - 1 and all(a in old for a in new)
        elif kind == "author_name_perturbation":
            assert len(new) == len(old) and sum(a != b for a, b in zip(old, new, strict=True)) == 1
        elif kind == "author_list_fabrication":
            assert len(new) == len(old) and not set(new) & set(old)
        elif kind == "venue_swap":
            assert fields["booktitle"] in VENUE_NAMES.values()
        elif kind == "year_shift":
            shift = abs(int(fields["year"]) - int(before["year"]))
            assert changed <= {"year", "booktitle"} and 1 <= shift <= 3
            assert fields["booktitle"] == before["booktitle"].replace(before["year"], fields["year"])
        elif kind == "fabricated_doi":
            assert fields["doi"] not in dois
        elif kind == "mismatched_doi":
            assert fields["doi"] in dois
        elif kind == "fabricated_arxiv_id":
            assert changed == {"eprint", "archiveprefix"}
            assert str(fields["eprint"]).startswith(f"{int(before['year']) % 100:02d}")
    assert seen == {None, *(k for family in FAMILIES.values() for k in family)}


def test_a_fake_equal_to_another_real_record_is_discarded(
    synthetic_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = next(c for ref, c in _sources(synthetic_index).items() if ref.endswith("/7"))
    real_error = generate_module._Generator._error
    calls = Counter[str]()

    def become_another_record(self: object, kind: str, c: Cited, record: object) -> Perturbed | None:
        calls["n"] += 1
        if calls["n"] <= 3:  # the "error" turns the citation into record 7's, with its own casing
            return Perturbed(other.but(title=other.title.lower()), "became record 7")
        return real_error(self, kind, c, record)  # type: ignore[arg-type]

    monkeypatch.setattr(generate_module._Generator, "_error", become_another_record)
    items, summary = _generate(synthetic_index, tmp_path / "gen.jsonl", compound=0.0)
    assert "3 fakes discarded as equal to a real record" in summary
    assert all(i["perturbation"] != "became record 7" for i in items)


def test_title_pieces_never_leave_a_bracket_or_quote_open() -> None:
    rng = random.Random(1)
    quoted = Cited(
        title='"WhatsApp is for family; Messenger is for friends": Communication Places in App Ecosystems',
        authors=("Ann Lee",),
        venue="CHI",
        year=2017,
    )
    for _ in range(20):
        reworded = paraphrase(quoted, rng)
        assert reworded is None or reworded.cited.title.count('"') == 2
    pools = Pools(
        titles_by_venue={
            "x": [
                "Apprentissage d'un chunker (Machine Learning of a chunker for French) [in French]",
                "Neural Architecture Search for Low-Resource Speech Recognition",
                "The pivotal role of the various dictionaries in an MT system",
            ]
            * 10
        }
    )
    c = quoted.but(title="Something Else Entirely Here")
    for _ in range(20):
        made = topic_fabrication(c, rng, TitleVocabulary(pools), "x", lambda _title: False)
        if made is not None:
            title = made.cited.title
            assert title.count("(") == title.count(")") and title.count("[") == title.count("]"), title
            if title.startswith("The pivotal"):  # cut in the middle, but not right after "of the"
                assert title.startswith("The pivotal role of the various ")
