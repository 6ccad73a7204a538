"""Sites whose pages say more than their meta tags, or say it differently: arXiv, dblp, the ACL Anthology.

A site is recognised by the page's canonical URL or address, or by its own markers, so a saved copy of
its page served from elsewhere is still read as that site's.

- arXiv abstract pages: `citation_*` names are "Family, Given"; `citation_date` is the first version's
  date (the year cited), `citation_online_date` this version's. The record is the preprint itself, as the
  index's arXiv ingester makes it: venue "arXiv", the journal reference unused, the DOI the "Related DOI"
  of the published version when arXiv lists one (never arXiv's own 10.48550 DOI). Without the tags,
  the abstract page's structure (`h1.title`, `div.authors`, the dateline) still gives the fields.
- dblp pages: titles end with a period and namesakes carry a number ("Wei Wang 0001"); every entry is
  schema.org microdata (`li.entry[itemscope]`), so a person or venue page gives one draft per entry, with
  its DOI or arXiv id from the entry's electronic-edition links.
- ACL Anthology paper pages: `citation_*` tags, and a `<dl>` ("Anthology ID:", "Year:", "DOI:" …) to
  fall back on; a journal volume (TACL, CL) has `citation_journal_title`, a proceedings one
  `citation_conference_title`.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import lxml.html

from refhound.web import draft as clean
from refhound.web.draft import Draft
from refhound.web.tags import Meta

_DBLP_HOSTS = frozenset({"dblp.org", "dblp.uni-trier.de", "dblp.dagstuhl.de", "dblp2.uni-trier.de"})
_MAX_DBLP_ENTRIES = 300
_ARXIV_DATACITE = "10.48550/"
_DBLP_TYPES = {
    "article": "article",
    "inproceedings": "inproceedings",
    "informal": "preprint",
    "book": "book",
    "incollection": "incollection",
    "phdthesis": "phdthesis",
    "editor": "proceedings",
    "data": "misc",
}


def _has_class(name: str) -> str:
    return f'contains(concat(" ", normalize-space(@class), " "), " {name} ")'


def site_drafts(
    doc: lxml.html.HtmlElement, meta: Meta, url: str, page_url: str
) -> tuple[str | None, list[Draft]]:
    """The site this module recognises ("arxiv", "dblp", "acl" or None), and drafts from its markup."""
    site = site_of(doc, meta, url, page_url)
    if site == "arxiv":
        return site, [arxiv_draft(doc, meta, page_url or url)]
    if site == "dblp":
        return site, dblp_drafts(doc)
    if site == "acl":
        return site, [acl_draft(doc, meta, page_url)]
    return site, []


def site_of(doc: lxml.html.HtmlElement, meta: Meta, url: str, page_url: str) -> str | None:
    for address in (page_url, url):
        parts = urlsplit(address)
        host = (parts.hostname or "").lower().removeprefix("www.")
        if host.endswith("arxiv.org") and parts.path.startswith("/abs/"):
            return "arxiv"
        if host in _DBLP_HOSTS:
            return "dblp"
        if host == "aclanthology.org" or (host == "aclweb.org" and parts.path.startswith("/anthology/")):
            return "acl"
    site_name = (meta.first("og:site_name") or "").lower()
    arxiv_heading = doc.xpath(f"//h1[{_has_class('title')}]")
    if meta.first("citation_arxiv_id") and ("arxiv" in site_name or arxiv_heading):
        return "arxiv"
    if site_name == "acl anthology":
        return "acl"
    return None


def arxiv_draft(doc: lxml.html.HtmlElement, meta: Meta, page_url: str) -> Draft:
    heading = doc.xpath(f"//h1[{_has_class('title')}]")
    title = meta.first("citation_title") or (_without_descriptor(heading[0]) if heading else None)
    names = meta.all("citation_author") or [
        a.text_content() for a in doc.xpath(f"//div[{_has_class('authors')}]//a")
    ]
    dateline = doc.xpath(f"string(//div[{_has_class('dateline')}])")
    arxiv = clean.arxiv_id(meta.first("citation_arxiv_id")) or clean.arxiv_id(page_url)
    related = doc.xpath(f"//td[{_has_class('doi')}]//a")  # "Related DOI"; arXiv's own is td.arxivdoi
    published_doi = clean.doi(related[0].text_content()) if related else None
    tagged_doi = clean.doi(meta.first("citation_doi"))
    if tagged_doi and tagged_doi.startswith(_ARXIV_DATACITE):
        tagged_doi = None
    return Draft(
        "arxiv",
        title=clean.title(title),
        authors=clean.authors(names),
        venue="arXiv",
        year=clean.year(meta.first("citation_date")) or clean.year(str(dateline)),
        doi=published_doi or tagged_doi,
        arxiv_id=arxiv,
        url=f"https://arxiv.org/abs/{arxiv}" if arxiv else None,
        entry_type="preprint",
    )


def _without_descriptor(element: lxml.html.HtmlElement) -> str:
    """ "Title:Attention Is All You Need" → the title (arXiv puts a hidden descriptor span first)."""
    parts = [element.text or ""]
    for child in element:
        if _has_descriptor(child):
            parts.append(child.tail or "")
        else:
            parts.append(child.text_content() + (child.tail or ""))
    return "".join(parts)


def _has_descriptor(element: lxml.html.HtmlElement) -> bool:
    return "descriptor" in (element.get("class") or "").split()


def dblp_drafts(doc: lxml.html.HtmlElement) -> list[Draft]:
    """One draft per microdata entry (its venue is dblp's short name, e.g. "NIPS": a record page's
    `citation_*` tags, when it has them, name it in full and go first)."""
    drafts = []
    for entry in doc.xpath(f"//li[{_has_class('entry')}][@itemscope]")[:_MAX_DBLP_ENTRIES]:
        draft = _dblp_entry(entry)
        if draft.title:
            drafts.append(draft)
    return drafts


def _dblp_entry(entry: lxml.html.HtmlElement) -> Draft:
    titles = entry.xpath(f'.//*[@itemprop="name"][{_has_class("title")}]')
    names = [
        node.get("title") or node.text_content()
        for node in entry.xpath('.//*[@itemprop="author"]//*[@itemprop="name"]')
    ]
    venues = entry.xpath('.//*[@itemprop="isPartOf"]/*[@itemprop="name"]')
    published = entry.xpath('string(.//*[@itemprop="datePublished"])')
    links = [str(href) for href in entry.xpath(f".//li[{_has_class('ee')}]//a/@href")]
    classes = (entry.get("class") or "").split()
    entry_type = next((_DBLP_TYPES[c] for c in classes if c in _DBLP_TYPES), None)
    return Draft(
        "dblp",
        title=clean.title(titles[0].text_content()) if titles else None,
        authors=clean.authors(names),
        venue=clean.text(venues[0].text_content()) if venues else None,
        year=clean.year(str(published)),
        doi=next((d for d in (clean.doi(link) for link in links if "doi.org/" in link) if d), None),
        arxiv_id=next((a for link in links if "arxiv.org/" in link and (a := clean.arxiv_id(link))), None),
        url=_dblp_record_url(entry),
        entry_type=entry_type,
    )


def _dblp_record_url(entry: lxml.html.HtmlElement) -> str | None:
    key = entry.get("id")
    return f"https://dblp.org/rec/{key}.html" if key and "/" in key else None


_DT_LABEL = re.compile(r"[\s:]+$")


def acl_draft(doc: lxml.html.HtmlElement, meta: Meta, page_url: str) -> Draft:
    details = _definitions(doc)
    heading = doc.xpath('//h2[@id="title"]')
    title = meta.first("citation_title") or (heading[0].text_content() if heading else None)
    lead = doc.xpath(f"//p[{_has_class('lead')}]/a")
    names = meta.all("citation_author") or [a.text_content() for a in lead]
    journal = meta.first("citation_journal_title")
    venue = journal or meta.first("citation_conference_title") or details.get("volume")
    doi = clean.doi(meta.first("citation_doi")) or clean.doi(details.get("doi"))
    url = details.get("url")
    return Draft(
        "acl-anthology",
        title=clean.title(title),
        authors=clean.authors(names),
        venue=clean.text(venue),
        year=clean.year(meta.first("citation_publication_date")) or clean.year(details.get("year")),
        doi=doi,
        url=url if url and url.startswith(("http://", "https://")) else page_url,
        entry_type="article" if journal else "inproceedings",
    )


def _definitions(doc: lxml.html.HtmlElement) -> dict[str, str]:
    """The paper page's `<dt>Label:</dt><dd>value</dd>` pairs, labels lower-cased without the colon."""
    pairs: dict[str, str] = {}
    for term in doc.xpath("//dl/dt"):
        value = term.getnext()
        if value is None or value.tag != "dd":
            continue
        label = _DT_LABEL.sub("", term.text_content()).strip().lower()
        text = clean.text(value.text_content())
        if label and text and label not in pairs:
            pairs[label] = text
    return pairs
