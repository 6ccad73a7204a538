"""Online scholarly sources: one module per service, one protocol, one aggregator.

- `base`: the `Source` protocol (`async lookup(cited) -> list[Record]`; [] is "none", `Unreachable` is
  "no answer"), `DoiSource` for services that resolve DOIs, and the helpers the clients share;
- the services: `crossref`, `openalex`, `dblp`, `arxiv`, `semantic_scholar`, `doi` (doi.org);
- `aggregate`: the sources asked tier by tier, stopping at the first tier that has the cited work;
- `probes`: each cited identifier asked of its authority (doi.org, arXiv, the cited page);
- `runtime`: `SourcesRuntime`, the synchronous face SOP agents use (whether it would ask any source is
  known without importing it: `refhound.online`).
The HTTP client, its cache and the JSON-API helpers are shared with the web stage: `refhound.net`.
"""

from refhound.sources.aggregate import Aggregator, Answer, Lookup
from refhound.sources.base import DoiSource, Source

__all__ = ["Aggregator", "Answer", "DoiSource", "Lookup", "Source"]
