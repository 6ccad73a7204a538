"""Realistic pages of each metadata flavour, as the sites serve them (tests/web/fixtures/*.html).

Abridged: navigation, styles and most scripts are left out; the metadata, and the markup the parsers
read, are kept as each site writes them (the ACL Anthology's minified Hugo output, unquoted attributes
included; arXiv's "Family, Given" citation_author; dblp's microdata and numbered namesakes).
"""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def page(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


ARXIV_ABS = page("arxiv-abs-1706.03762.html")
# An arXiv abstract page without citation_* tags, for a paper published since (a Related DOI).
ARXIV_WITH_RELATED_DOI = page("arxiv-abs-1512.03385-no-tags.html")
# The ACL Anthology's Hugo output: minified, attributes unquoted where HTML allows it.
ACL_PAPER = page("acl-N19-1423.html")
# A TACL paper page: a journal volume, so citation_journal_title; no DOI or date tag.
ACL_JOURNAL = page("acl-2021.tacl-1.1.html")
DBLP_RECORD = page("dblp-rec-VaswaniSPUJGKP17.html")
# A dblp person page: many entries, namesakes numbered, a CoRR entry with its arXiv link.
DBLP_PERSON = page("dblp-person-page.html")
# A publisher's article page: Highwire, PRISM and Dublin Core tags, citation_reference entries.
PUBLISHER_CITATION = page("publisher-nature14539.html")
# JSON-LD @graph: a WebPage, the ScholarlyArticle up an isPartOf chain, and a cited work.
JSON_LD_GRAPH = page("jsonld-graph.html")
# One JSON-LD object (IRI @type, a raw newline in a string) beside a broken script.
JSON_LD_SINGLE = page("jsonld-single-loose.html")
# Only Dublin Core, DC/DCTERMS spelling, as repositories (DSpace, EPrints) write it.
DUBLIN_CORE = page("dublin-core-repository.html")
# A single-page application shell whose scripts write the citation_* tags.
SCRIPT_BUILT = page("script-built-gpt3.html")
# A page with plenty of text and no metadata.
NO_METADATA = page("blog-no-metadata.html")
