"""Candidate records from a web page's metadata: `records_from_html(url, html)`.

Scholarly pages describe the work they show for indexers (Google Scholar reads Highwire `citation_*`
tags; Zotero and others read Dublin Core and schema.org JSON-LD). Those descriptions are what a record
is made from here — never the page's prose. The flavours, in the order they win a field:

1. the site's own markup, for sites whose pages say more (or say it better) than their tags: arXiv
   abstract pages, dblp pages, ACL Anthology paper pages (`refhound.web.sites`);
2. Highwire `citation_*` meta tags (and PRISM's `prism.*` where a publisher adds them) — on dblp pages
   first, as they name the venue in full where dblp's markup has its short name;
3. JSON-LD `ScholarlyArticle` and its kin, top level or in an `@graph` (`refhound.web.jsonld`);
4. Dublin Core `DC.*` / `dc.*` / `dcterms.*` meta tags.

Drafts of the same title are merged; a page about several works (a dblp listing, a JSON-LD graph) gives
several records. Every record's `source` is "web" and its `source_id` the page's canonical URL.
"""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urljoin

import lxml.html
from lxml import etree

from refhound.models import Record
from refhound.web import draft as clean
from refhound.web.draft import Draft, merge
from refhound.web.jsonld import jsonld_drafts
from refhound.web.sites import site_drafts
from refhound.web.tags import Meta

SOURCE = "web"
_DC_DATES = ("dc.date.issued", "dc.issued", "dc.date", "dc.date.created", "dc.created", "dc.available")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
# Page-builder roots of single-page applications: the page is an empty shell until scripts run.
_APP_ROOTS = (
    '//*[@id="root" or @id="app" or @id="__next" or @id="__nuxt" or @ng-version or @data-reactroot]'
    " | //app-root"
)
# Scripts a browser runs (JSON-LD and templates are data, not code).
_RUNNABLE_SCRIPTS = (
    '//script[not(@type) or @type="" or contains(@type, "javascript") or contains(@type, "ecmascript")'
    ' or @type="module"]'
)
_VISIBLE_TEXT = (
    "//body//text()[not(ancestor::script or ancestor::style or ancestor::noscript or ancestor::template)]"
)


def parse_html(html: str) -> lxml.html.HtmlElement | None:
    """The document, or None for text lxml cannot make a document of (empty, not markup)."""
    text = _CONTROL.sub(" ", _XML_DECLARATION.sub("", html, count=1))
    if not text.strip():
        return None
    try:
        return lxml.html.document_fromstring(text)
    except (etree.ParserError, ValueError):
        return None


def records_from_html(
    url: str, html: str, *, source: str = SOURCE, fetched: dt.date | None = None
) -> list[Record]:
    """The works a page's metadata describes, as records (best described first); [] when it has none.

    `url` is where the page was fetched (after redirects): relative links resolve against it, and it is
    the record id when the page names no canonical URL. Never raises on malformed HTML or JSON-LD.
    """
    doc = parse_html(html)
    if doc is None:
        return []
    page_url = canonical_url(doc, url)
    meta = Meta.of(doc)
    site, drafts = site_drafts(doc, meta, url, page_url)
    if (highwire := highwire_draft(meta)) is not None:
        drafts.insert(0 if site == "dblp" else len(drafts), highwire)
    drafts.extend(jsonld_drafts(doc))
    if (dublin := dublin_core_draft(meta)) is not None:
        drafts.append(dublin)
    version = (fetched or dt.date.today()).isoformat()
    records = []
    for merged in merge(drafts):
        record = merged.record(source, page_url, version)
        if record is not None:
            records.append(record)
    return records


def canonical_url(doc: lxml.html.HtmlElement, url: str) -> str:
    """The page's `<link rel="canonical">` (absolute, http(s)), else the URL it was fetched from."""
    for link in doc.iter("link"):
        rel = str(link.get("rel") or "").lower().split()
        href = str(link.get("href") or "").strip()
        if "canonical" in rel and href:
            absolute = urljoin(url, href)
            if absolute.startswith(("http://", "https://")):
                return absolute
    return url


def needs_javascript(html: str) -> bool:
    """Whether a page looks built by scripts: it has scripts, and (almost) no text without them."""
    doc = parse_html(html)
    if doc is None or not doc.xpath(_RUNNABLE_SCRIPTS):
        return False
    words = sum(len(str(node).split()) for node in doc.xpath(_VISIBLE_TEXT))
    if words < 150:
        return True
    return bool(doc.xpath(_APP_ROOTS)) and words < 1000


def highwire_draft(meta: Meta) -> Draft | None:
    """Highwire Press `citation_*` tags, as Google Scholar's inclusion guidelines describe them."""
    found_title = clean.title(meta.first("citation_title"))
    if not found_title:
        return None
    names = meta.all("citation_author")
    if not names and (joined := meta.first("citation_authors")):
        names = [part for part in re.split(r"\s*;\s*", joined) if part]
    journal = meta.first("citation_journal_title", "prism.publicationname")
    conference = meta.first("citation_conference_title", "citation_conference")
    book = meta.first("citation_inbook_title", "citation_book_title")
    thesis = meta.first("citation_dissertation_institution", "citation_dissertation_name")
    report = meta.first("citation_technical_report_institution")
    arxiv = clean.arxiv_id(meta.first("citation_arxiv_id"))
    entry_type: str | None
    if conference:
        entry_type = "inproceedings"
    elif journal:
        entry_type = "article"
    elif book:
        entry_type = "incollection"
    elif thesis:
        entry_type = "phdthesis"
    elif report:
        entry_type = "techreport"
    else:
        entry_type = "preprint" if arxiv else None
    return Draft(
        "citation_*",
        title=found_title,
        authors=clean.authors(names),
        venue=clean.text(conference or journal or book or thesis or report),
        year=clean.year(
            meta.first(
                "citation_publication_date",
                "citation_date",
                "citation_cover_date",
                "citation_year",
                "prism.publicationdate",
                "citation_online_date",
            )
        ),
        doi=clean.doi(meta.first("citation_doi", "prism.doi")),
        arxiv_id=arxiv,
        url=_http(meta.first("citation_abstract_html_url", "citation_public_url")),
        entry_type=entry_type,
    )


def dublin_core_draft(meta: Meta) -> Draft | None:
    """Dublin Core: `DC.title`, `DC.creator`, `DC.date`, `DC.identifier`, `DC.source` (and dcterms.*)."""
    dc = meta.dublin_core()
    found_title = clean.title(dc.first("dc.title"))
    if not found_title:
        return None
    identifiers = dc.all("dc.identifier") + dc.all("dc.identifier.doi") + dc.all("dc.identifier.uri")
    venue = dc.first("dc.relation.ispartof", "dc.ispartof", "dc.source", "dc.citation.journaltitle")
    return Draft(
        "dublin-core",
        title=found_title,
        authors=clean.authors(dc.all("dc.creator") or dc.all("dc.contributor.author")),
        venue=clean.text(venue) if venue and not venue.strip().startswith(("http://", "https://")) else None,
        year=clean.year(dc.first(*_DC_DATES)),
        doi=next((d for d in map(clean.doi, identifiers) if d), None),
        arxiv_id=next((a for a in map(_arxiv_identifier, identifiers) if a), None),
    )


def _arxiv_identifier(value: str) -> str | None:
    return clean.arxiv_id(value) if "arxiv" in value.lower() else None


def _http(value: str | None) -> str | None:
    return value.strip() if value and value.strip().startswith(("http://", "https://")) else None
