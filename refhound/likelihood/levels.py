"""The named comparison levels: every outcome a field check or the judge can reach, in words.

A level is a stable identifier (`field.outcome`) that a field check carries beside its note, and that the
judge adds for what the search and the index's coverage proved (`coverage.*`). Code reads levels, never
notes; the likelihood model gives each level a weight (`model.json`), and the words here say, in the reason
and the reports, what the strongest ones mean. `refhound bench` counts how often each level fires.

`NO_EVIDENCE` lists the levels that say only that something could not be compared (a field the citation
does not give, a record without it, an identifier only its resolver can confirm, a work no index covers):
they never carry a weight, so a reference with nothing but them stays at the prior.
"""

from __future__ import annotations

LEVELS: dict[str, str] = {
    # title
    "title.exact": "the title is the record's",
    "title.same_key": "the title is the record's up to case, punctuation or spelling",
    "title.missing": "no title cited",
    "title.differs": "another title",
    "title.typo": "a typo in the title",
    "title.reordered": "the title's words in another order",
    "title.subtitle": "the title with or without its subtitle or lead-in",
    "title.first_words": "the title with or without its first words (Towards …)",
    "title.words_left_out": "the title with a word or two, or a phrase, left out or added, the rest in order",
    "title.word_form": "the title with a word in another form (Automated for Automatic)",
    "title.misspelt_word": "the title with a word misspelt (genelarized for generalized)",
    "title.function_word": "the title with another preposition or conjunction (in for for)",
    "title.acronym": "the title with words written as their acronym (Deep RL)",
    "title.near_on_preprint": "a near title on a work cited as a preprint (an earlier title)",
    "title.other_words": "another work's title",
    "title.another_version": "another title of the same authors' work at the cited venue and year, or "
    "under the cited identifier: an earlier (preprint's) title",
    "title.no_record": "no record has this title",
    # authors
    "authors.exact": "every author as the record lists them",
    "authors.variant": "the record's authors, written another way",
    "authors.missing": "no authors cited",
    "authors.anonymous": "an anonymous submission",
    "authors.record_has_none": "the record lists no authors",
    "authors.other_script": "names in another script than the record's (Chinese, Japanese or Korean on one "
    "side): not compared",
    "authors.differ": "authors that differ from the record's",
    "authors.record_tail": "the record's last authors only: a string cut inside its author list",
    "authors.coauthor_added": "the record's authors with a co-author of theirs added: a later version's list",
    "authors.given_name_other": "every author right but another given name with the family name in place: "
    "a slip people make",
    "authors.family_name_other": "an author under another family name in the same place, the given name "
    "the record's: a changed name or a slip",
    "authors.one_stranger": "one cited author no record author can be",
    "authors.some_strangers": "several cited authors no record author can be",
    "authors.mostly_strangers": "most cited authors are no author of the record",
    "authors.first_left_out": "the record's first author left out",
    "authors.first_elsewhere": "every author cited, another one first",
    "authors.variants_and_left_out": "names written another way, and authors left out",
    "authors.misspelt_unknown_name": "a name misspelt (no author of the index has the cited spelling)",
    "authors.written_another_way": "names written another way",
    "authors.left_out": "authors left out, as in an earlier version's list",
    "authors.filler": "a template's filler where an author belongs (Jane Doe, First Author)",
    "authors.preprint_list": "a preprint's list: a name or two the published version lacks, or its first "
    "author left out",
    "authors.journal_list": "a journal version's list: a name or two the conference paper lacks, its first "
    "author the same",
    # venue
    "venue.missing": "no venue cited",
    "venue.record_has_none": "the record names no venue",
    "venue.same_series": "the record's venue",
    "venue.names_it_among_others": "one venue names the other's series among others (a joint volume)",
    "venue.joint_conference": "a partner of the record's joint conference",
    "venue.series_at_host": "the series, named with the conference it was held with",
    "venue.acronym_of_name": "one venue name writes words of the other as an acronym",
    "venue.proceedings_series": "the proceedings series that publishes the venue",
    "venue.both_preprints": "cited as the preprint it is",
    "venue.cited_as_preprint": "cited as a preprint of a published work",
    "venue.cited_as_repository": "cited as its code or data repository (GitHub, Zenodo), not its paper",
    "venue.preprint_absent_from_complete": "only a preprint exists, and the cited venue-year, held "
    "completely, lacks it",
    "venue.only_preprint_found": "only a preprint found: publication at the cited venue unconfirmed",
    "venue.host_of_volume": "a workshop or satellite volume cited by its host conference",
    "venue.host_not_recorded": "a workshop whose host the index does not record, cited as a conference of "
    "its year in the same anthology: its host?",
    "venue.journal_version": "the journal version of a conference paper, or the reverse",
    "venue.same_conference_other_volume": "another volume of the same conference (main, Findings, SRW)",
    "venue.other_known_series": "another event's venue",
    "venue.similar_names": "the venue's name written another way",
    "venue.workshop_vs_conference": "a workshop for a conference paper, or a conference the index holds "
    "whole for a workshop paper",
    "venue.conference_for_workshop_paper": "a conference cited for a workshop paper: its conference version?",
    "venue.workshop_version": "a workshop of a known event for the conference paper, a year apart at most: "
    "the work presented at both",
    "venue.acronym_typo": "the conference acronym with a typo",
    "venue.other_conference": "another conference",
    "venue.differs": "another venue",
    "venue.neither_known": "a venue name the rules cannot recognise, unlike the record's",
    "venue.one_unknown": "one venue name is not recognised",
    # year
    "year.missing": "no year cited",
    "year.record_has_none": "the record has no year",
    "year.same": "the record's year",
    "year.future": "a year that has not come",
    "year.preprint_one_off": "a year off by one between preprint and published version",
    "year.differs": "another year",
    "year.journal_version": "the own year of the journal version, or of the conference paper it extends",
    "year.conference_version": "the own year of a workshop paper's conference version",
    "year.repository_release": "the year of a release of its code or data, not its paper's",
    "year.one_before": "the year before the published version's: the preprint's",
    "year.one_after_version": "the year after the record's: a later version's",
    "year.unknown_venue_version": "a later year at a venue the rules do not know: a later version's?",
    "year.preprint_lead": "the preprint's year, years before the published version's",
    "year.before_no_venue": "no venue cited, a year or a few before the record's: an earlier version's",
    "year.no_version_one_after": "the year after the venue's (a proceedings volume's year?)",
    "year.no_version_two_after": "two years after the venue's, a year no version has",
    "year.no_version_years_after": "three or more years after the venue's, a year no version has",
    "year.no_version_two_before": "two years before the venue's, a year no version has",
    "year.no_version_years_before": "three or more years before the venue's, a year no version has",
    # identifiers
    "doi.missing": "no DOI cited",
    "doi.same": "the record's DOI",
    "doi.another_works": "another work's DOI",
    "doi.arxiv_doi_of_this_work": "arXiv's DOI of this work",
    "doi.arxiv_doi_of_another": "arXiv's DOI of another preprint",
    "doi.arxiv_doi_unchecked": "arXiv's DOI, which only arXiv can confirm",
    "doi.differs": "another DOI than the record's",
    "doi.unchecked": "a DOI only doi.org can confirm",
    "doi.of_cited_version": "another version's own DOI (the journal article's, the preprint's)",
    "doi.repository_deposit": "a repository's DOI for its code or data (Zenodo, figshare), not its paper's",
    "doi.cut_short": "the DOI cut short",
    "doi.typo": "a typo in the DOI",
    "doi.does_not_exist": "a DOI that does not exist",
    "doi.filler": "a template's filler where a DOI belongs (10.xxxx/xxxxx)",
    "arxiv_id.impossible": "an arXiv id that cannot exist",
    "arxiv_id.after_cited_year": "an arXiv id from after the year the preprint is cited by",
    "arxiv_id.next_january": "an arXiv id of the January after the cited year: sent at the year's end",
    "arxiv_id.same": "the record's arXiv id",
    "arxiv_id.another_works": "another work's arXiv id",
    "arxiv_id.differs": "another arXiv id than the record's",
    "arxiv_id.unchecked": "an arXiv id only arXiv can confirm",
    "arxiv_id.cut_short": "the arXiv id cut short",
    "arxiv_id.typo": "a typo in the arXiv id",
    "arxiv_id.does_not_exist": "an arXiv id that does not exist",
    "arxiv_id.filler": "a template's filler where an arXiv id belongs (2407.XXXX)",
    "url.same": "an ACL Anthology address of this work",
    "url.another_works": "an ACL Anthology address of another work",
    "url.does_not_exist": "an ACL Anthology address of no paper, in a volume the index holds whole",
    # the rules' own grade of a wrong field
    "rules.major": "a wrong field the rules grade invention-like",
    "rules.minor": "a wrong field the rules grade slip-like",
    # how the record was taken for the cited work, where no field check shows it
    "identity.title_alone": "taken for the cited work by its title alone, long enough to name one work: no "
    "cited author, or year and venue, agrees",
    # what the search and the index's coverage proved
    "coverage.absent_from_complete": "absent from a venue-year the index holds completely",
    "coverage.absent_online": "no online source has it",
    "coverage.title_elsewhere": "its title exists, under other authors, venue or year",
    "coverage.printed_title": "the reference string prints a record's title: the parse may be wrong",
    "coverage.future_year": "no record, and a year that has not come",
    "coverage.no_source_has_it": "no source has the work and its identifier does not exist",
    "coverage.some_source_silent": "a source did not answer",
    "metadata.too_little": "too little metadata to check",
    # the LLM judge's answer, where one is configured
    "llm.same_work_all_fields_match": "the LLM judge finds every field right",
    "llm.same_work_field_wrong": "the LLM judge finds a field wrong",
    "llm.different_work": "the LLM judge takes the record for another work",
    "llm.cannot_decide": "the LLM judge could not decide",
}

# Levels that only say a comparison could not be made: never weighted (see the module doc).
NO_EVIDENCE = frozenset(
    {
        "title.missing",
        "title.no_record",
        "authors.missing",
        "authors.anonymous",
        "authors.record_has_none",
        "authors.other_script",
        "venue.missing",
        "venue.record_has_none",
        "venue.only_preprint_found",
        "year.missing",
        "year.record_has_none",
        "doi.missing",
        "doi.unchecked",
        "doi.of_cited_version",
        "doi.repository_deposit",
        "doi.arxiv_doi_unchecked",
        "arxiv_id.unchecked",
        "coverage.some_source_silent",
        "metadata.too_little",
    }
)


def describe(level: str) -> str:
    """The level in words; an unknown level (a newer judge's) by its identifier."""
    return LEVELS.get(level, level)
