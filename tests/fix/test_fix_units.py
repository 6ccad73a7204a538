"""`refhound.fix` on hand-made verdicts: what changes, what only gets a comment, and how it is written."""

from __future__ import annotations

from bibtexparser.entrypoint import parse_string

from refhound.fix import fix_bibliography
from refhound.fix.apply import comma_name, latex_value
from refhound.models import FieldCheck, FieldStatus, ParsedFields, Record, ReferenceResult, Severity, Verdict

RECORD = Record(
    source="dblp",
    source_id="conf/naacl/JainW19",
    source_version="test",
    title="Attention is not Explanation",
    authors=["Sarthak Jain", "Byron C. Wallace"],
    venue="NAACL-HLT 2019",
    year=2019,
    doi="10.18653/v1/N19-1357",
    entry_type="inproceedings",
)


def result(
    verdict: Verdict, wrong: tuple[str, ...] = (), likelihood: float = 0.05, venue: str | None = "NAACL"
) -> ReferenceResult:
    fields = [FieldCheck(field=name, status=FieldStatus.MISMATCH, severity=Severity.MINOR) for name in wrong]
    return ReferenceResult(
        id="jain",
        raw="",
        parsed=ParsedFields(title="Attention is not Explanation", venue=venue),
        verdict=verdict,
        hallucinated=False,
        likelihood=likelihood,
        fields=fields,
        stage="judge",
        reason="as the test says",
        record=RECORD if verdict in (Verdict.VERIFIED, Verdict.METADATA_ERROR) else None,
    )


ENTRY = """@inproceedings{jain,
  title = "Attention is not Explanation",
  author = "Jain, Sarthak and Walace, B.",
  booktitle = "NAACL",
  year = "2018",
}
"""


def test_wrong_fields_take_the_records_values_in_the_entrys_style() -> None:
    outcome = fix_bibliography(ENTRY, [result(Verdict.METADATA_ERROR, ("authors", "year"))], 0.5)
    assert outcome.text == ENTRY.replace("Walace, B.", "Wallace, Byron C.").replace('"2018"', '"2019"')
    assert [(c.field, c.old, c.new) for c in outcome.changes] == [
        ("author", "Jain, Sarthak and Walace, B.", "Sarthak Jain and Byron C. Wallace"),
        ("year", "2018", "2019"),
    ]


def test_a_flagged_entry_is_only_commented() -> None:
    flagged = result(Verdict.METADATA_ERROR, ("authors",), likelihood=0.9)
    outcome = fix_bibliography(ENTRY, [flagged], 0.5)
    assert not outcome.changes
    assert (
        outcome.text
        == "% refhound: likely invented (likelihood 0.90 >= 0.50), not corrected: as the test says\n" + ENTRY
    )


def test_fabricated_and_unverified_entries_are_only_commented() -> None:
    for verdict in (Verdict.FABRICATED, Verdict.UNVERIFIED):
        outcome = fix_bibliography(ENTRY, [result(verdict, ("authors",))], 0.5)
        assert not outcome.changes
        assert outcome.text.startswith(f"% refhound: {verdict.value}, not corrected")
        assert outcome.text.endswith(ENTRY)


def test_a_verified_entry_is_the_same_bytes() -> None:
    assert fix_bibliography(ENTRY, [result(Verdict.VERIFIED)], 0.5).text == ENTRY


def test_a_one_line_preprint_gets_its_published_version() -> None:
    text = (
        "@misc{jain, title={Attention is not Explanation}, author={Sarthak Jain and Byron C. Wallace}, "
        "journal={arXiv preprint arXiv:1902.10186}, year={2019}}\n"
    )
    outcome = fix_bibliography(text, [result(Verdict.VERIFIED, venue="arXiv")], 0.5)
    assert outcome.text == (
        "@inproceedings{jain, title={Attention is not Explanation}, "
        "author={Sarthak Jain and Byron C. Wallace}, "
        "booktitle={NAACL-HLT 2019}, year={2019}, doi={10.18653/v1/N19-1357}}\n"
    )
    assert not parse_string(outcome.text).failed_blocks
    kept = fix_bibliography(text, [result(Verdict.VERIFIED, venue="arXiv")], 0.5, keep_preprints=True)
    assert kept.text == text


def test_values_are_escaped_and_names_turned() -> None:
    assert latex_value("R&D at 50% of $5_x") == r"R\&D at 50\% of \$5\_x"
    assert latex_value("a } b") == r"a \} b"
    assert comma_name("Ludwig van Beethoven") == "van Beethoven, Ludwig"
    assert comma_name("Byron C. Wallace") == "Wallace, Byron C."


def test_a_verified_entry_without_its_record_is_left_alone() -> None:
    verified = result(Verdict.VERIFIED).model_copy(update={"record": None})
    assert fix_bibliography(ENTRY, [verified], 0.5).text == ENTRY


def test_an_ascii_file_gets_its_accents_in_latex() -> None:
    record = RECORD.model_copy(update={"authors": ["Sarthak Jaín", "Byron C. Wallace"]})
    verdict = result(Verdict.METADATA_ERROR, ("authors",)).model_copy(update={"record": record})
    outcome = fix_bibliography(ENTRY, [verdict], 0.5)
    assert 'author = "Ja{\\\'i}n, Sarthak and Wallace, Byron C."' in outcome.text
    utf8 = ENTRY.replace("Explanation", "Explanätion")
    assert 'author = "Jaín, Sarthak' in fix_bibliography(utf8, [verdict], 0.5).text


def test_an_entry_whose_fields_cannot_be_located_is_left_alone() -> None:
    broken = ENTRY.replace('"2018",', '"2018"').replace('"NAACL",', '"NAACL"')  # commas missing
    outcome = fix_bibliography(broken, [result(Verdict.METADATA_ERROR, ("year",))], 0.5)
    assert outcome.text == broken and outcome.unlocated == ["jain"]


def test_a_key_used_twice_is_left_alone() -> None:
    twice = ENTRY + "\n" + ENTRY
    outcome = fix_bibliography(twice, [result(Verdict.METADATA_ERROR, ("year",))] * 2, 0.5)
    assert outcome.text == twice and outcome.unlocated == ["jain"]


def test_a_journal_versions_year_is_not_mixed_into_the_conference_record() -> None:
    journal = result(Verdict.METADATA_ERROR, ("year",))
    journal.fields[0].level = "year.journal_version"
    outcome = fix_bibliography(ENTRY, [journal], 0.5)
    assert outcome.text == ENTRY and outcome.plans[0].kept == ["year"]
