"""A printed reference the parser misread, re-read around the title of the work its DOI leads to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from refhound.agents.context import Candidate
from refhound.agents.reread import reread_by_record
from refhound.index.store import IndexStore
from refhound.models import ParsedFields, Record, Reference, Verdict
from refhound.refstring import parse_reference_string
from refhound.settings import JudgeSettings
from tests.conftest import RECORDS, build_index, check_offline

# A real ACL 2020 paper; "Sabine Schulte im Walde" (a family name with a lower-case particle inside) is a
# name form the author grammar does not know, so the parser takes "and Sabine Schulte im Walde" for the
# title and pushes the real title into the venue.
TECHNICALITY = Record(
    source="acl-anthology",
    source_id="2020.acl-main.258",
    source_version="test",
    title="Predicting Degrees of Technicality in Automatic Terminology Extraction",
    authors=["Anna Hätty", "Dominik Schlechtweg", "Michael Dorna", "Sabine Schulte im Walde"],
    venue="Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics",
    year=2020,
    doi="10.18653/v1/2020.acl-main.258",
    entry_type="inproceedings",
)
PRINTED = (
    "Anna Hätty, Dominik Schlechtweg, Michael Dorna, and Sabine Schulte im Walde. 2020. Predicting Degrees "
    "of Technicality in Automatic Terminology Extraction. In Proceedings of the 58th Annual Meeting of the "
    "Association for Computational Linguistics. https://doi.org/10.18653/v1/2020.acl-main.258"
)


# A workshop paper whose proceedings' name holds a year, then more of the name: the parser stops the venue
# at that year ("*SEM"), which alone names the main conference.
TAKELAB = Record(
    source="acl-anthology",
    source_id="S12-1060",
    source_version="test",
    title="TakeLab: Systems for Measuring Semantic Text Similarity",
    authors=["Frane Šarić", "Goran Glavaš", "Mladen Karan", "Jan Šnajder", "Bojana Dalbelo Bašić"],
    venue=(
        "*SEM 2012: The First Joint Conference on Lexical and Computational Semantics – Volume 1: "
        "Proceedings of the main conference and the shared task, and Volume 2: Proceedings of the Sixth "
        "International Workshop on Semantic Evaluation (SemEval 2012)"
    ),
    year=2012,
    entry_type="inproceedings",
)


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[IndexStore]:
    records = [TECHNICALITY, TAKELAB, *RECORDS[:2]]
    with IndexStore.open(build_index(tmp_path / "index.sqlite", records)) as opened:
        yield opened


def test_the_misread_string_is_what_the_re_reading_is_for() -> None:
    assert parse_reference_string(PRINTED).title != TECHNICALITY.title


def test_a_misread_reference_is_re_read_and_verified(store: IndexStore, tmp_path: Path) -> None:
    result = check_offline(
        Reference(id="1", raw=PRINTED, parsed=parse_reference_string(PRINTED)), store, tmp_path
    )
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert result.parsed.title == TECHNICALITY.title
    assert result.parsed.authors == TECHNICALITY.authors
    assert result.evidence[0].score == 1.0  # the candidates were scored again against the re-read title
    assert "re-read around the title of the work its DOI leads to" in result.stages[0].note


def test_fields_of_a_structured_entry_are_never_re_read(store: IndexStore, tmp_path: Path) -> None:
    misread = parse_reference_string(PRINTED)
    result = check_offline(Reference(id="k", raw=PRINTED, parsed=misread, structured=True), store, tmp_path)
    assert result.verdict is not Verdict.VERIFIED
    assert result.parsed == misread


def test_another_works_doi_is_still_another_works(store: IndexStore, tmp_path: Path) -> None:
    # The string prints BERT's title, not the title of the work the DOI leads to: nothing to re-read.
    printed = (
        "Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT: Pre-training of Deep "
        "Bidirectional Transformers for Language Understanding. In Proceedings of NAACL-HLT 2019. "
        "https://doi.org/10.18653/v1/2020.acl-main.258"
    )
    result = check_offline(
        Reference(id="1", raw=printed, parsed=parse_reference_string(printed)), store, tmp_path
    )
    assert result.verdict is Verdict.METADATA_ERROR
    assert next(f for f in result.fields if f.field == "doi").status == "mismatch"
    assert "re-read" not in result.stages[0].note


def test_a_title_with_words_added_is_not_re_read_into_the_real_one(store: IndexStore, tmp_path: Path) -> None:
    altered = PRINTED.replace("Terminology Extraction.", "Terminology Extraction and Beyond.")
    result = check_offline(
        Reference(id="1", raw=altered, parsed=parse_reference_string(altered)), store, tmp_path
    )
    assert result.verdict is not Verdict.VERIFIED
    assert "re-read" not in result.stages[0].note


def test_a_name_swallowed_into_a_near_title_is_read_again_around_the_printed_title(
    store: IndexStore, tmp_path: Path
) -> None:
    # No identifier leads anywhere; the parsed title is the real one with the last author's name in front
    # of it, near enough to find the record by title, far enough to read as a wrong title.
    printed = (
        "Hätty, A., Schlechtweg, D., Dorna, M., Schulte im Walde, S.: Predicting Degrees of Technicality in "
        "Automatic Terminology Extraction. In: Proceedings of the 58th Annual Meeting of the Association "
        "for Computational Linguistics (2020)"
    )
    parsed = parse_reference_string(printed)
    assert parsed.title is not None and parsed.title.startswith("Schulte im Walde")  # the misreading
    result = check_offline(Reference(id="1", raw=printed, parsed=parsed), store, tmp_path)
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert "re-read" in result.stages[0].note


def test_a_venue_cut_short_at_a_year_in_its_name_is_read_as_printed(
    store: IndexStore, tmp_path: Path
) -> None:
    printed = (
        'F. Šarić, G. Glavaš, M. Karan, J. Šnajder, and B. D. Bašić, "TakeLab: Systems for Measuring '
        f'Semantic Text Similarity," in {TAKELAB.venue}, 2012.'
    )
    parsed = parse_reference_string(printed)
    assert parsed.venue == "*SEM"  # the misreading
    result = check_offline(Reference(id="1", raw=printed, parsed=parsed), store, tmp_path)
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert result.parsed.venue == TAKELAB.venue
    assert 'venue re-read as the string prints it in full; the parser read "*SEM"' in result.stages[0].note


def test_a_venue_with_a_hyphen_left_at_a_line_break_is_read_as_printed(
    store: IndexStore, tmp_path: Path
) -> None:
    venue = TAKELAB.venue.replace("Lexical", "Lexi- cal")
    printed = (
        'F. Šarić, G. Glavaš, M. Karan, J. Šnajder, and B. D. Bašić, "TakeLab: Systems for Measuring '
        f'Semantic Text Similarity," in {venue}, 2012.'
    )
    result = check_offline(
        Reference(id="1", raw=printed, parsed=parse_reference_string(printed)), store, tmp_path
    )
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert "venue re-read as the string prints it in full" in result.stages[0].note


def test_a_venue_the_string_does_not_print_whole_is_not_re_read(store: IndexStore, tmp_path: Path) -> None:
    printed = (
        'F. Šarić, G. Glavaš, M. Karan, J. Šnajder, and B. D. Bašić, "TakeLab: Systems for Measuring '
        'Semantic Text Similarity," in *SEM 2012: Proceedings of the Main Conference, 2012.'
    )
    result = check_offline(
        Reference(id="1", raw=printed, parsed=parse_reference_string(printed)), store, tmp_path
    )
    assert "re-read" not in result.stages[0].note


# Nature's style prints the title right after the last author's initials, so a title's first word that
# reads like a given name goes with the author block: the parsed title is the real one without it.
KEYWORDS = Record(
    source="acl-anthology",
    source_id="L08-1000",
    source_version="test",
    title=(
        "Keywords, k-NN and Neural Networks: a Support for Hierarchical Categorization of Texts in "
        "Brazilian Portuguese"
    ),
    authors=["Susana Azeredo", "Silvia Moraes", "Vera Lima"],
    venue="Proceedings of the Sixth International Conference on Language Resources and Evaluation (LREC'08)",
    year=2008,
    entry_type="inproceedings",
)
NATURE_STYLE = (
    "Azeredo, S., Moraes, S. & Lima, V. Keywords, k-NN and Neural Networks: a Support for Hierarchical "
    "Categorization of Texts in Brazilian Portuguese. in Proceedings of the Sixth International Conference "
    "on Language Resources and Evaluation (LREC'08) (2008)."
)


@pytest.fixture()
def keywords_store(tmp_path: Path) -> Iterator[IndexStore]:
    with IndexStore.open(build_index(tmp_path / "index.sqlite", [KEYWORDS, *RECORDS[:2]])) as opened:
        yield opened


def test_a_title_cut_at_its_start_is_read_as_the_string_prints_the_record_title(
    keywords_store: IndexStore, tmp_path: Path
) -> None:
    parsed = parse_reference_string(NATURE_STYLE)
    assert parsed.title is not None and parsed.title.startswith("k-NN")  # the misreading
    result = check_offline(Reference(id="1", raw=NATURE_STYLE, parsed=parsed), keywords_store, tmp_path)
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert result.parsed.title == KEYWORDS.title
    assert len(result.parsed.authors) == 3
    assert "title re-read as the string prints the record's in full" in result.stages[0].note


def test_a_title_without_its_first_word_in_the_string_is_not_re_read(
    keywords_store: IndexStore, tmp_path: Path
) -> None:
    # The record's whole title is printed nowhere: the cited title is another, for the rules to grade.
    shortened = NATURE_STYLE.replace("Lima, V. Keywords, k-NN", "Lima, V. k-NN")
    result = check_offline(
        Reference(id="1", raw=shortened, parsed=parse_reference_string(shortened)), keywords_store, tmp_path
    )
    assert result.verdict is Verdict.METADATA_ERROR
    assert "re-read" not in result.stages[0].note


def test_a_title_with_words_after_the_record_title_is_not_re_read(
    keywords_store: IndexStore, tmp_path: Path
) -> None:
    lengthened = NATURE_STYLE.replace("Brazilian Portuguese.", "Brazilian Portuguese Revisited.")
    lengthened = lengthened.replace("Lima, V. Keywords", "Lima, V.: Keywords")
    parsed = parse_reference_string(lengthened)
    assert parsed.title is not None and parsed.title.endswith("Revisited")
    result = check_offline(Reference(id="1", raw=lengthened, parsed=parsed), keywords_store, tmp_path)
    assert result.verdict is Verdict.METADATA_ERROR
    assert "re-read" not in result.stages[0].note


def test_a_venue_cut_short_is_read_as_printed_after_the_title_is_re_read(tmp_path: Path) -> None:
    # The title's first words go with the author ("Rezaei, M.", "Detecting, Generating"), and the venue
    # stops before its volume: both are read again, one after the other.
    venue = (
        "Proceedings of the 2025 Conference of the Nations of the Americas Chapter of the Association for "
        "Computational Linguistics: Human Language Technologies (Volume 4: Student Research Workshop)"
    )
    record = Record(
        source="acl-anthology",
        source_id="2025.naacl-srw.1",
        source_version="test",
        title="Detecting, Generating, and Evaluating in the Writing Style of Different Authors",
        authors=["Mosab Rezaei"],
        venue=venue,
        year=2025,
        entry_type="inproceedings",
    )
    printed = f"Rezaei, M. {record.title}. in {venue} (2025)."
    parsed = parse_reference_string(printed)
    assert parsed.title != record.title and parsed.venue != venue  # the misreadings
    with IndexStore.open(build_index(tmp_path / "index.sqlite", [record, *RECORDS[:2]])) as store:
        result = check_offline(Reference(id="1", raw=printed, parsed=parsed), store, tmp_path)
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert (result.parsed.title, result.parsed.venue) == (record.title, venue)
    assert "fields re-read around the title" in result.stages[0].note
    assert "venue re-read as the string prints it in full" in result.stages[0].note


# Vancouver's initials before a title that opens with "A": the title's first words go with the last author
# ("Syme D. A Live"), and the text layer garbles the title too (a hyphen left at a line break, a space lost).
LIVE = Record(
    source="dblp",
    source_id="conf/chi/GorinovaSBS16",
    source_version="test",
    title="A Live, Multiple-Representation Probabilistic Programming Environment for Novices",
    authors=["Maria I. Gorinova", "Advait Sarkar", "Alan F. Blackwell", "Don Syme"],
    venue="Proceedings of the 2016 CHI Conference on Human Factors in Computing Systems",
    year=2016,
    entry_type="inproceedings",
)


@pytest.mark.parametrize(
    "title",
    ["A Live, Multiple-Representa- tion Probabilistic", "A Live, Multiple-Representation Probabilistic"],
)
@pytest.mark.parametrize(
    "ending", ["Programming Environmentfor Novices", "Programming Environment for Novices"]
)
def test_a_title_cut_at_its_start_is_read_again_where_the_text_layer_garbles_it(
    title: str, ending: str, tmp_path: Path
) -> None:
    printed = (
        f"Gorinova MI, Sarkar A, Blackwell AF, Syme D. {title} {ending}. In: Proceedings of the 2016 CHI "
        "Conference on Human Factors in Computing Systems; 2016."
    )
    parsed = parse_reference_string(printed)
    assert parsed.authors[-1] != "Syme D"  # the misreading: the title's first words read as a name
    with IndexStore.open(build_index(tmp_path / "index.sqlite", [LIVE, *RECORDS[:2]])) as store:
        result = check_offline(Reference(id="1", raw=printed, parsed=parsed), store, tmp_path)
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert result.parsed.authors[-1] == "Syme D"
    assert result.parsed.title is not None and result.parsed.title.startswith("A Live")


def test_a_garbled_title_with_a_word_changed_is_not_re_read(tmp_path: Path) -> None:
    # The parsed title is no part of what the string prints as the record's: a title changed, not cut.
    printed = (
        "Gorinova MI, Sarkar A, Blackwell AF, Syme D. A Live, Multiple-Representation Probabilistic "
        "Programming Environmentfor Experts. In: Proceedings of the 2016 CHI Conference on Human Factors "
        "in Computing Systems; 2016."
    )
    with IndexStore.open(build_index(tmp_path / "index.sqlite", [LIVE, *RECORDS[:2]])) as store:
        result = check_offline(
            Reference(id="1", raw=printed, parsed=parse_reference_string(printed)), store, tmp_path
        )
    assert result.verdict is not Verdict.VERIFIED
    assert "title re-read" not in result.stages[0].note


def test_a_last_authors_initial_read_as_the_article_is_given_back_to_the_author() -> None:
    record = Record(
        source="dblp",
        source_id="conf/ijcai/BertonL15",
        source_version="test",
        title="Graph Construction for Semi-Supervised Learning",
        authors=["Lilian Berton", "Alneu de Andrade Lopes"],
        venue="IJCAI",
        year=2015,
        entry_type="inproceedings",
    )
    printed = f"Berton, L. & de Andrade Lopes, A. {record.title}. in Proceedings of IJCAI 2015 (2015)."
    misread = ParsedFields(title=f"A. {record.title}", authors=["Berton, L.", "de Andrade Lopes"], year=2015)
    reference = Reference(id="1", raw=printed, parsed=misread)
    reread = reread_by_record(reference, [Candidate(record, 1.0, "title")], JudgeSettings())
    assert reread is not None
    assert (reread.reference.parsed.authors, reread.reference.parsed.title) == (
        ["Berton, L.", "de Andrade Lopes, A"],
        record.title,
    )
    # The article itself stays: "A Graph …" opens with no initial.
    article = misread.model_copy(update={"title": f"A {record.title}"})
    reference = Reference(id="1", raw=printed.replace("A. Graph", "A Graph"), parsed=article)
    assert reread_by_record(reference, [Candidate(record, 1.0, "title")], JudgeSettings()) is None


def test_words_before_another_records_title_stay_when_a_record_has_the_whole_title(tmp_path: Path) -> None:
    # The keynote and the paper share all but "Keynote:". The parsed title is the keynote's (a space lost
    # in it), so it is not re-read around the paper's title with "Keynote:" pushed into the last author.
    paper = Record(
        source="dblp",
        source_id="conf/bigdataconf/VemuriJS18",
        source_version="test",
        title="Automatic Segmentation and Quantification of TB Scale Volumetric Murine Brain Vasculature",
        authors=["Venkata N. P. Vemuri", "Hunter Jackson", "Katherine Scott"],
        venue="IEEE BigData",
        year=2018,
        entry_type="inproceedings",
        doi="10.1109/bigdata.2018.8622630",
    )
    keynote = paper.model_copy(
        update={
            "source_id": "conf/bigdataconf/ScottVJ18",
            "title": f"Keynote: {paper.title}",
            "authors": ["Katherine Scott", "Venkata N. P. Vemuri", "Hunter Jackson"],
            "doi": "10.1109/bigdata.2018.8622580",
        }
    )
    printed = (
        "Scott, K., Vemuri, V.N.P., Jackson, H.: Keynote: Automatic Segmentationand Quantification of TB "
        "Scale Volumetric Murine Brain Vasculature. In: IEEE BigData 2018 (2018). "
        "https://doi.org/10.1109/bigdata.2018.8622580"
    )
    with IndexStore.open(build_index(tmp_path / "index.sqlite", [paper, keynote, *RECORDS[:2]])) as store:
        result = check_offline(
            Reference(id="1", raw=printed, parsed=parse_reference_string(printed)), store, tmp_path
        )
    assert result.verdict is Verdict.VERIFIED, result.reason
    assert result.parsed.authors[-1] == "Jackson, H."
