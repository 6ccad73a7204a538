"""The quote checker: does every quoted passage of a document really appear in the source it cites?

    check_document(document, settings) -> QuoteReport        a Markdown report, memo or draft
    check_triples(path, settings) -> (QuoteReport, triples)  QuoteVerify-style {statement, source_id,
                                                             evidence_quote} triples

Modules, in the order a check runs: `document` (reading the input), `layout` (code, passages, block
quotes), `citations` (markers, definitions, where they point), `extract` (quotes), `pairing` (sentences,
and which citation a quote is checked against), `fetch`, `textof` and `links` (sources and their versions,
link checks), `normalize`, `match`, `brackets`, `fuzzy` and `guard` (locating a quote, in layers), `check`
(the flow), `report`, `render` and `annotate` (JSON, JSONL audit log, table, Markdown/HTML), and `triples`
(QuoteVerify-style input and the optional LLM entailment check).

Matching is string matching — deterministic, cheap, and strict where it matters: a changed number, date,
negation or modal verb never passes as `verified`.
"""

from __future__ import annotations

from refhound.quotes.check import check_document
from refhound.quotes.document import Document, read_document
from refhound.quotes.report import QUOTES_SCHEMA, QuoteReport
from refhound.quotes.triples import check_triples

__all__ = ["QUOTES_SCHEMA", "Document", "QuoteReport", "check_document", "check_triples", "read_document"]
