"""The embedded index's SQLite schema (FTS5 over normalized titles and author family names)."""

from __future__ import annotations

# 4: completeness is proven per record (`proof`) and per venue-year (`coverage.reason`); an index of an
# older schema claims completeness from record counts alone, so it is refused (the default one rebuilt).
# 5: records are indexed by venue and year, where the judge confirms a title's absence from a venue-year.
SCHEMA_VERSION = "5"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- One row per ingested dump: provenance of every record and whether the dump is an official complete
-- dump of the volumes it holds.
CREATE TABLE IF NOT EXISTS dumps (
    source TEXT NOT NULL,
    version TEXT NOT NULL,
    location TEXT NOT NULL,
    complete INTEGER NOT NULL,
    records INTEGER NOT NULL,
    problems INTEGER NOT NULL,
    seconds REAL NOT NULL,
    ingested_at TEXT NOT NULL,
    PRIMARY KEY (source, location)
);

CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    source_id TEXT NOT NULL,
    source_version TEXT NOT NULL,
    title TEXT NOT NULL,
    title_key TEXT NOT NULL,
    authors TEXT NOT NULL,          -- JSON list of display names
    authors_key TEXT NOT NULL,      -- folded family names, space separated (searchable)
    venue TEXT,
    venue_key TEXT,
    venue_kind TEXT,
    year INTEGER,
    doi TEXT,
    arxiv_id TEXT,
    url TEXT,
    entry_type TEXT,
    proof TEXT NOT NULL,            -- what its dump proves of its venue-year (refhound/index/completeness.py)
    UNIQUE (source, source_id)
);
CREATE INDEX IF NOT EXISTS records_title_key ON records (title_key);
-- A venue-year's titles, compared whole where absence from it is to count as evidence.
CREATE INDEX IF NOT EXISTS records_venue_year ON records (venue_key, year);
CREATE INDEX IF NOT EXISTS records_doi ON records (doi) WHERE doi IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_arxiv ON records (arxiv_id) WHERE arxiv_id IS NOT NULL;

-- External-content FTS5 table kept in sync by triggers, so re-ingesting a record replaces it.
CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5 (
    title_key, authors_key, content='records', content_rowid='id', tokenize='unicode61'
);
CREATE VIRTUAL TABLE IF NOT EXISTS records_vocab USING fts5vocab (records_fts, 'col');
-- Document frequency of every title token, copied from the FTS vocabulary after each ingest: a B-tree
-- lookup here takes microseconds where the fts5vocab table takes a quarter of a millisecond.
CREATE TABLE IF NOT EXISTS title_terms (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS records_ai AFTER INSERT ON records BEGIN
    INSERT INTO records_fts (rowid, title_key, authors_key) VALUES (new.id, new.title_key, new.authors_key);
END;
CREATE TRIGGER IF NOT EXISTS records_ad AFTER DELETE ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, title_key, authors_key)
    VALUES ('delete', old.id, old.title_key, old.authors_key);
END;
CREATE TRIGGER IF NOT EXISTS records_au AFTER UPDATE ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, title_key, authors_key)
    VALUES ('delete', old.id, old.title_key, old.authors_key);
    INSERT INTO records_fts (rowid, title_key, authors_key) VALUES (new.id, new.title_key, new.authors_key);
END;

-- Where each dump came from and how to bring it up to date (`refhound index update`): its URL or path,
-- its kind ("dump": re-read whole; "oai-pmh", "api": harvested incrementally), its version or date, when it
-- was last brought up to date, and the harvest's position (JSON: from-date, resumption token, cursor,
-- venue filter, the download's ETag). Added within schema 4: an index without it has no recorded origins.
CREATE TABLE IF NOT EXISTS origins (
    source TEXT NOT NULL,           -- the build flag's name: dblp, acl, arxiv, crossref, openalex, pubmed
    origin TEXT NOT NULL,           -- the URL or path given to `index build`
    kind TEXT NOT NULL,
    version TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (source, origin)
);

-- Volumes a dump holds with no paper in them (a non-archival workshop's proceedings, its front matter
-- alone): held whole, though no record is of them. Added within schema 5: an index without it counts such a
-- volume listed with an event as one it lacks.
CREATE TABLE IF NOT EXISTS empty_volumes (
    source TEXT NOT NULL,
    volume TEXT NOT NULL,
    PRIMARY KEY (source, volume)
) WITHOUT ROWID;

-- Records taken out by an update: absent from a newer full dump, or deleted upstream (OAI-PMH).
CREATE TABLE IF NOT EXISTS withdrawn (
    source TEXT NOT NULL,
    source_id TEXT NOT NULL,
    title TEXT NOT NULL,
    reason TEXT NOT NULL,
    since TEXT NOT NULL,
    PRIMARY KEY (source, source_id)
);

-- How many records each source holds per recognised venue and year, and whether that source is
-- complete there, proven (an official dump, or a published count reached): the judge's answer to "would
-- this index know the cited work if it existed?".
CREATE TABLE IF NOT EXISTS coverage (
    source TEXT NOT NULL,
    venue_key TEXT NOT NULL,
    year INTEGER NOT NULL,
    records INTEGER NOT NULL,
    complete INTEGER NOT NULL,
    reason TEXT NOT NULL,           -- why complete or not (refhound/index/completeness.py)
    PRIMARY KEY (source, venue_key, year)
);

-- Volumes held with a conference, as the dump says (the ACL Anthology's events list their co-located
-- workshops, Findings and satellite conferences): a workshop paper cited by its host conference is a slip,
-- not another event. Added within schema 4: an index without it knows no host, and says so by grading
-- such a venue as another event.
CREATE TABLE IF NOT EXISTS colocated (
    source TEXT NOT NULL,
    volume TEXT NOT NULL,           -- the source's volume id ("W19-43", "2022.repl4nlp-1")
    event TEXT NOT NULL,            -- an event listing it ("acl-2019"): a venue key, a hyphen, a year
    PRIMARY KEY (source, volume, event)
);

-- Retraction marks the dumps state (refhound/retractions.py), keyed by the marked work's DOI or arXiv id:
-- what an offline check says of a cited work's retraction. A row with `reinstated` lifts the marks dated
-- before it. Added within schema 5: an index without it holds no marks, and a check says none.
CREATE TABLE IF NOT EXISTS retractions (
    key_kind TEXT NOT NULL,         -- "doi" or "arxiv"
    key TEXT NOT NULL,              -- normalized DOI or arXiv id
    kind TEXT NOT NULL,             -- a RetractionKind, or "reinstated"
    notice_doi TEXT NOT NULL,       -- '' when the notice has none (arXiv)
    date TEXT NOT NULL,             -- ISO, '' when unknown
    source TEXT NOT NULL,           -- who asserts it: crossref, retraction-watch, arxiv
    PRIMARY KEY (key_kind, key, kind, source, notice_doi)
);
"""
