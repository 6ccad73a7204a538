"""The SOP's agents: each stage's evidence gatherer, and the strict judge that turns evidence into a verdict.

Evidence stages (each `agent(reference, context) -> Findings`, see `context`):
    identifiers    the cited DOI / arXiv id / URL asked of its authority (online)
    index_search   the embedded index, by identifier, by title and by the whole printed string
    memory         records verified earlier from slower sources (vector similarity)
    scholar        the online scholarly APIs (and the index, in SOPs without an index stage)
    web_search     web search and crawl
The judge:
    judge          deterministic rules: candidates → field checks → a verdict (`field_rules`, `severity`)
    judge_llm      an LLM for what the rules leave borderline
Shared: `candidates` (which records may be the cited work), `alignment` and `reread` (a record found inside
a printed string reads it better than the parser), `extractor` (the PDF extractor agent).
"""
