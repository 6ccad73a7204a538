"""A misread reference string never becomes a verdict: the raw string is searched, and a record whose
title and authors it prints reads it better than the parser did."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

from refhound.agents.alignment import find_printed_record
from refhound.agents.index_search import find_candidates, title_like_spans
from refhound.index.store import IndexedRecord, IndexStore
from refhound.models import ParsedFields, Record, Reference, Verdict
from refhound.normalize.titles import title_key
from refhound.refstring import parse_reference_string
from refhound.settings import JudgeSettings
from tests.conftest import RECORDS, build_index, check_offline

CONLL = Record(
    source="acl-anthology",
    source_id="W03-0419",
    source_version="test",
    title="Introduction to the CoNLL-2003 Shared Task: Language-Independent Named Entity Recognition",
    authors=["Erik F. Tjong Kim Sang", "Fien De Meulder"],
    venue="Proceedings of the Seventh Conference on Natural Language Learning at HLT-NAACL 2003",
    year=2003,
    entry_type="inproceedings",
)
CONLL_PRINTED = (
    "Erik F. Tjong Kim Sang and Fien De Meulder. Introduction to the CoNLL-2003 shared task: "
    "Language-independent named entity recognition. In Proceedings of the Seventh Conference on Natural "
    "Language Learning at HLT-NAACL 2003, 2003."
)


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[IndexStore]:
    with IndexStore.open(build_index(tmp_path / "index.sqlite", [CONLL, *RECORDS[:3]])) as opened:
        yield opened


@pytest.mark.parametrize(
    "misread",
    [
        # Authors swallowed into the title.
        ParsedFields(title=CONLL_PRINTED.split(". In ")[0], year=2003),
        # A title cut short, with the authors lost.
        ParsedFields(
            title="Introduction to the CoNLL-2003 shared task", venue="Language-independent", year=2003
        ),
    ],
)
def test_a_misread_string_is_read_again_around_the_record_it_prints(
    misread: ParsedFields, store: IndexStore, tmp_path: Path
) -> None:
    result = check_offline(Reference(id="1", raw=CONLL_PRINTED, parsed=misread), store, tmp_path)
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert result.parsed.authors == CONLL.authors
    assert "re-read" in " ".join(s.note for s in result.stages)


def test_a_structured_entry_is_never_re_read(store: IndexStore, tmp_path: Path) -> None:
    misread = ParsedFields(title=CONLL_PRINTED.split(". In ")[0], year=2003)
    reference = Reference(id="1", raw=CONLL_PRINTED, parsed=misread, structured=True)
    assert check_offline(reference, store, tmp_path).verdict is Verdict.UNVERIFIED


def test_a_title_printed_without_its_authors_confirms_nothing() -> None:
    # An invented reference borrows a real title; the string names none of the record's authors.
    printed = find_printed_record(
        "Jane Roe and John Doe. Introduction to the CoNLL-2003 shared task: Language-independent named "
        "entity recognition. In Proceedings of EMNLP, 2019.",
        CONLL,
    )
    assert printed is not None and printed.score == 100 and not printed.confirms()


def test_a_lost_hyphen_or_a_typo_still_aligns() -> None:
    printed = find_printed_record(
        "Erik F. Tjong Kim Sang and Fien De Meulder. Introduction to the CoNLL-2003 shared task: "
        "Languageindependent named entity recogniton. CoNLL 2003.",
        CONLL,
    )
    assert printed is not None and printed.confirms()


def test_a_short_title_is_never_aligned_on_its_own() -> None:
    short = CONLL.model_copy(update={"title": "Deep learning"})
    assert find_printed_record("Y. LeCun, Y. Bengio, G. Hinton. Deep learning. Nature, 2015.", short) is None


def test_the_printed_title_is_the_strings_own_text_even_after_latex_accents() -> None:
    record = CONLL.model_copy(update={"authors": ["Jürgen Müller", "Fien De Meulder"]})
    printed = find_printed_record(
        r"J{\"u}rgen M{\"u}ller and Fien De Meulder. Introduction to the CoNLL-2003 shared task: "
        "Language-independent named entity recognition. CoNLL 2003.",
        record,
    )
    assert printed is not None and printed.confirms()
    assert (
        printed.title
        == "Introduction to the CoNLL-2003 shared task: Language-independent named entity recognition"
    )


def test_online_a_misread_string_is_matched_whole_and_read_again(tmp_path: Path) -> None:
    """Crossref is asked with the whole string when the parsed title finds nothing like it, and the
    record it returns is confirmed by its title and authors printed in the string."""
    from refhound.settings import Settings
    from refhound.sop.runner import check_references
    from tests.sources.crossref_server import CrossrefServer, only_crossref

    conll = CONLL.model_copy(update={"doi": "10.3115/1119176.1119195"})
    misread = ParsedFields(title="Erik F. Tjong Kim Sang and Fien De Meulder. Introduction", year=2003)
    section = {"base_url": "", "rate_per_s": 1000.0, "retries": 0, "timeout_s": 5.0}
    with CrossrefServer([conll, *RECORDS[:3]]) as server:
        settings = Settings(
            sources=only_crossref({**section, "base_url": server.url}, cache={"enabled": False}),
            check={"offline": False},
        )
        settings.memory.enabled = False
        settings.sop.runs_path = tmp_path / "runs.sqlite"
        with IndexStore.open(build_index(tmp_path / "empty.sqlite", [])) as empty:
            result = check_references(
                [Reference(id="1", raw=CONLL_PRINTED, parsed=misread)], empty, settings
            )[0]
        asked = [r.params.get("query.bibliographic") for r in server.requests]
    assert CONLL_PRINTED in asked
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert result.parsed.authors == CONLL.authors
    scholar = next(s for s in result.stages if s.stage == "scholar")
    assert "crossref by the whole string" in (scholar.note or "") and "re-read" in (scholar.note or "")


def test_a_record_found_by_the_string_is_a_candidate_only_when_the_string_prints_its_authors() -> None:
    from refhound.agents.candidates import records_as_candidates
    from refhound.settings import JudgeSettings

    misread = ParsedFields(title="Erik F. Tjong Kim Sang and Fien De Meulder. Introduction", year=2003)
    found = records_as_candidates(misread, [CONLL], JudgeSettings(), "scholar", raw=CONLL_PRINTED)
    assert [(c.record.source_id, c.via) for c in found] == [("W03-0419", "raw")]
    borrowed = CONLL_PRINTED.replace("Erik F. Tjong Kim Sang and Fien De Meulder", "Jane Roe and John Doe")
    assert records_as_candidates(misread, [CONLL], JudgeSettings(), "scholar", raw=borrowed) == []


# The parser takes the second author's name for the title; the string's rarest words are its venue's and
# its authors', so a search on the whole string misses the record. The quoted title finds it.
WU = Record(
    source="acl-anthology",
    source_id="C98-2226",
    source_version="test",
    title="Structural Disambiguation Based on Reliable Estimation of Strength of Association",
    authors=["Haodong Wu", "Eduardo de Paiva Alves", "Teiji Furugori"],
    venue="COLING 1998 Volume 2: The 17th International Conference on Computational Linguistics",
    year=1998,
)
WU_PRINTED = (
    'H. Wu, E. de Paiva Alves, and T. Furugori, "Structural Disambiguation Based on Reliable Estimation of '
    'Strength of Association," in COLING 1998 Volume 2: The 17th International Conference on '
    "Computational Linguistics, 1998."
)


class _TitleOnlyStore:
    """An index whose full-text search finds a record only from its own title's words."""

    def __init__(self, record: Record) -> None:
        self.row = IndexedRecord(1, record.title, title_key(record.title), None, None, lambda: record)
        self.searched: list[str] = []

    def by_doi(self, doi: str) -> list[IndexedRecord]:
        return []

    def by_arxiv_id(self, arxiv_id: str) -> list[IndexedRecord]:
        return []

    def by_title_key(self, key: str) -> list[IndexedRecord]:
        return [self.row] if key == self.row.title_key else []

    def search_title(self, key: str, limit: int) -> list[IndexedRecord]:
        self.searched.append(key)
        return [self.row] if key == self.row.title_key else []

    def coverage(self, venue_key: str, year: int) -> list[tuple[str, int]]:
        return []

    def event_gaps(self, venue_key: str, year: int) -> tuple[str, ...] | None:
        return None


def test_the_spans_that_may_be_a_title_are_searched_when_the_whole_string_finds_nothing() -> None:
    misread = parse_reference_string(WU_PRINTED)
    assert misread.title != WU.title  # the misreading
    store = _TitleOnlyStore(WU)
    found = find_candidates(misread, cast(IndexStore, store), JudgeSettings(), raw=WU_PRINTED)
    assert [(c.record.source_id, c.via) for c in found] == [("C98-2226", "raw")]
    # the whole string first, then the spans, until one finds a record the string prints
    assert store.searched.index(title_key(WU_PRINTED)) < store.searched.index(title_key(WU.title))
    assert store.searched[-1] == title_key(WU.title)


def test_a_title_the_parse_bounded_as_the_string_does_is_not_searched_again() -> None:
    assert title_like_spans(WU_PRINTED, WU.title) == []
    assert WU.title in title_like_spans(WU_PRINTED, "E. de Paiva Alves, and T. Furugori")


# Chicago prints a family name with a particle inside that the name grammar cannot read: the parser finds
# no authors and takes their names for the title, bounded by the string's own period.
SILVA = Record(
    source="dblp",
    source_id="conf/icml/SilvaL00",
    source_version="test",
    title="Obtaining Simplified Rule Bases by Hybrid Learning",
    authors=["Ricardo Bezerra de Andrade e Silva", "Teresa Bernarda Ludermir"],
    venue="ICML",
    year=2000,
)
SILVA_PRINTED = (
    "de Andrade e Silva, Ricardo Bezerra, and Teresa Bernarda Ludermir. 2000. “Obtaining Simplified Rule "
    "Bases by Hybrid Learning.” In Proceedings of the Seventeenth International Conference on Machine "
    "Learning (ICML 2000)."
)


def test_a_title_that_may_be_the_authors_names_does_not_stand_for_the_spans() -> None:
    misread = parse_reference_string(SILVA_PRINTED)
    assert not misread.authors and misread.title is not None  # the misreading
    assert misread.title in title_like_spans(SILVA_PRINTED, None)  # it is one of the string's spans
    store = _TitleOnlyStore(SILVA)
    found = find_candidates(misread, cast(IndexStore, store), JudgeSettings(), raw=SILVA_PRINTED)
    assert [(c.record.source_id, c.via) for c in found] == [("conf/icml/SilvaL00", "raw")]


def test_a_title_cited_without_its_subtitle_finds_its_record(store: IndexStore, tmp_path: Path) -> None:
    printed = (
        "Tjong Kim Sang, E. F., & De Meulder, F. (2003). Introduction to the CoNLL-2003 shared task. In "
        "Proceedings of the Seventh Conference on Natural Language Learning at HLT-NAACL 2003."
    )
    reference = Reference(id="1", raw=printed, parsed=parse_reference_string(printed))
    result = check_offline(reference, store, tmp_path)
    assert result.verdict is Verdict.METADATA_ERROR and result.severity is not None, result.reason
    assert result.severity.value == "minor"
    assert [f.field for f in result.fields if f.status.value == "mismatch"] == ["title"]


def test_a_bracketed_note_the_string_does_not_print_does_not_stretch_the_title() -> None:
    record = WU.model_copy(update={"title": f"{WU.title} (Student Abstract)"})
    printed = find_printed_record(WU_PRINTED, record)
    assert printed is not None and printed.title.rstrip(",") == WU.title


def test_a_title_found_by_a_near_spelling_brings_every_record_of_that_title(tmp_path: Path) -> None:
    # The same tutorial given at ACL 2013 and EMNLP 2014. A space lost in the cited title ("Parsingwith")
    # sends it to the full-text search, whose ranking keeps one of the two; both are candidates, and the
    # one the citation's year agrees with ranks first.
    acl, emnlp = (
        Record(
            source="acl-anthology",
            source_id=source_id,
            source_version="test",
            title="Semantic Parsing with Combinatory Categorial Grammars",
            authors=["Yoav Artzi", "Nicholas FitzGerald", "Luke Zettlemoyer"],
            venue=venue,
            year=year,
            entry_type="inproceedings",
        )
        for source_id, venue, year in (
            ("P13-5002", "Proceedings of the 51st Annual Meeting of the ACL (Tutorials)", 2013),
            ("D14-2003", "Proceedings of the 2014 Conference on EMNLP: Tutorial Abstracts", 2014),
        )
    )
    printed = (
        "Artzi, Yoav, Nicholas Fitzgerald, and Luke Zettlemoyer. 2014. “Semantic Parsingwith Combinatory "
        "Categorial Grammars.” In Proceedings of the 2014 Conference on EMNLP: Tutorial Abstracts."
    )
    cited = parse_reference_string(printed)
    assert cited.title is not None and title_key(cited.title) != title_key(acl.title)
    with IndexStore.open(build_index(tmp_path / "index.sqlite", [acl, emnlp, *RECORDS[:3]])) as store:
        assert len(store.search_title(title_key(cited.title), 1)) == 1
        found = find_candidates(cited, store, JudgeSettings(candidates=1), raw=printed)
        assert [c.record.source_id for c in found] == ["D14-2003"]
        both = find_candidates(cited, store, JudgeSettings(), raw=printed)
    assert sorted(c.record.source_id for c in both) == ["D14-2003", "P13-5002"]


def test_an_alignment_that_begins_on_a_space_takes_no_word_before_the_title() -> None:
    # A space lost in the title ("Eventsfrom") makes the aligned window one character longer than what
    # the string prints; it may begin on the space before the title, which is no part of it.
    record = CONLL.model_copy(
        update={
            "title": "‘ChemXtract’ A System for Extraction of Chemical Events from Patent Documents",
            "authors": ["Pattabhi RK Rao", "Sobha Lalitha Devi"],
        }
    )
    printed = find_printed_record(
        "Pattabhi RK Rao and Sobha Lalitha Devi. 2023. ‘ChemXtract’ A System for Extraction of Chemical "
        "Eventsfrom Patent Documents. In Proceedings of the 14th International Conference on Recent Advances "
        "in Natural Language Processing.",
        record,
    )
    assert printed is not None and printed.title.startswith("ChemXtract")


def test_a_name_with_decomposed_accents_is_printed() -> None:
    # A text layer may decompose "ö" into "o" and a combining mark; the name is still one word.
    record = CONLL.model_copy(
        update={
            "title": "Drug Terminology. A multilingual term database. The AVENTINUS project",
            "authors": ["Christian Sjögreen"],
        }
    )
    raw = "Sjo\u0308green, C. Drug Terminology. A multilingual term database. The AVENTINUS project. In X."
    printed = find_printed_record(raw, record)
    assert printed is not None and printed.first_author_printed and printed.confirms()
