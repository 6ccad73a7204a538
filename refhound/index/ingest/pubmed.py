"""PubMed/MEDLINE XML: the annual baseline and update files (`PubmedArticleSet`), E-utilities efetch
output, and older `MedlineCitationSet` files; plain or gzip."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from lxml import etree

from refhound.errors import IngestError
from refhound.formats.fields import doi_of, person_name, strip_final_period, year_of
from refhound.index.ingest.base import Dump
from refhound.index.ingest.common import (
    dump_version,
    iter_xml_records,
    open_binary,
    read_head,
    require_file,
    text_of,
)
from refhound.models import Record

SOURCE = "pubmed"


def read_pubmed(path: Path, version: str | None = None) -> Dump:
    """Stream the journal articles of a PubMed XML file.

    Book records (`PubmedBookArticle`) and deletion notices (`DeleteCitation`) are not articles
    and are skipped. PubMed is never complete for a venue.
    """
    require_file(path)
    head = read_head(path)
    if b"<PubmedArticleSet" in head:
        tag = "PubmedArticle"
    elif b"<MedlineCitationSet" in head:
        tag = "MedlineCitation"
    else:
        raise IngestError(path, "not PubMed XML (no <PubmedArticleSet> or <MedlineCitationSet>)")
    version = dump_version(path, version)
    problems: list[str] = []
    return Dump(
        source=SOURCE,
        version=version,
        complete=False,
        records=_records(path, tag, version, problems),
        location=str(path),
        problems=problems,
    )


def _records(path: Path, tag: str, version: str, problems: list[str]) -> Iterator[Record]:
    with open_binary(path) as handle:
        try:
            for element in iter_xml_records(handle, (tag,), huge_tree=True):
                citation = element if tag == "MedlineCitation" else element.find("MedlineCitation")
                record = _record(element, citation, version)
                if isinstance(record, str):
                    problems.append(f"line {element.sourceline}: {record}")
                else:
                    yield record
        except etree.XMLSyntaxError as error:
            raise IngestError(path, f"broken XML, stopped reading: {error}") from error


def _record(element: etree._Element, citation: etree._Element | None, version: str) -> Record | str:
    """The record, or why it cannot be read. Only direct children are read: the same tags recur
    in comments/corrections and in the reference list, about other articles."""
    pmid = text_of(citation.find("PMID")) if citation is not None else ""
    article = citation.find("Article") if citation is not None else None
    if not pmid or article is None:
        return "article without a PMID or <Article>"
    title = strip_final_period(
        text_of(article.find("ArticleTitle")) or text_of(article.find("VernacularTitle"))
    )
    if not title:
        return f"PMID {pmid}: no title"
    date = article.find("Journal/JournalIssue/PubDate")
    year = (
        year_of(text_of(date.find("Year")) or text_of(date.find("MedlineDate"))) if date is not None else None
    )
    return Record(
        source=SOURCE,
        source_id=pmid,
        source_version=version,
        title=title,
        authors=[name for author in article.iterfind("AuthorList/Author") if (name := _author(author))],
        venue=text_of(article.find("Journal/Title")) or None,
        year=year,
        doi=_doi(element, article),
        url=f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/",
        entry_type="article",
    )


def _author(author: etree._Element) -> str:
    collective = text_of(author.find("CollectiveName"))
    given = text_of(author.find("ForeName")) or text_of(author.find("Initials"))
    return collective or person_name(given, text_of(author.find("LastName")), text_of(author.find("Suffix")))


def _doi(element: etree._Element, article: etree._Element) -> str | None:
    for location in article.iterfind("ELocationID[@EIdType='doi']"):
        if doi := doi_of(text_of(location)):
            return doi
    for identifier in element.iterfind("PubmedData/ArticleIdList/ArticleId[@IdType='doi']"):
        if doi := doi_of(text_of(identifier)):
            return doi
    return None
